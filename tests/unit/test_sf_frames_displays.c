/* SPDX-License-Identifier: MIT */
/*
 * Frames from SurfaceFlinger's markers on phones with more than one display, with a declared
 * refresh period, and with many layers: synthetic traces built from the rules (no sample shows
 * them; the api32 Perfetto sample gives the Android 13 spelling: "commit <id> vsyncIn ...",
 * "composite <id>" > "present" > "present" > "postFramebuffer" > "presentAndGetReleaseFences").
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "gfxstat/gfxstat.h"

#define MAXF 64

struct got {
	int n;                    /* layer frames */
	long long present[MAXF], period[MAXF];
	int nd;                   /* display frames, any display layer */
	char dlayer[MAXF][64];
	long long dpresent[MAXF], dperiod[MAXF];
};

static int add(void *user, const struct gfxstat_frame *f)
{
	struct got *g = user;

	if (f->source == GFXSTAT_SRC_FTRACE_DISPLAY) {
		if (g->nd < MAXF) {
			snprintf(g->dlayer[g->nd], sizeof(g->dlayer[0]), "%.*s", (int)f->layer.n,
				 f->layer.p);
			g->dpresent[g->nd] = f->present_ns;
			g->dperiod[g->nd] = f->vsync_period_ns;
		}
		g->nd++;
		return 0;
	}
	if (g->n < MAXF) {
		g->present[g->n] = f->present_ns;
		g->period[g->n] = f->vsync_period_ns;
	}
	g->n++;
	return 0;
}

/* trace text built line by line */
struct tb {
	char *p;
	size_t n, cap;
};

/* one tracing_mark_write line of process 500 (SurfaceFlinger), thread @tid, at @ns */
static void L(struct tb *b, int tid, long long ns, const char *fmt, ...)
{
	char pay[256], line[512];
	va_list ap;
	int k;

	va_start(ap, fmt);
	vsnprintf(pay, sizeof(pay), fmt, ap);
	va_end(ap);
	k = snprintf(line, sizeof(line),
		     "  %s-%d (  500) [000] .... %lld.%09lld: tracing_mark_write: %s\n",
		     tid == 500 ? "surfaceflinger" : tid == 510 ? "DispSync" : "Binder:500_2", tid,
		     ns / 1000000000LL, ns % 1000000000LL, pay);
	if (k <= 0)
		return;
	if (b->n + (size_t)k + 1 > b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 4096;
		char *np;

		while (nc < b->n + (size_t)k + 1)
			nc *= 2;
		np = realloc(b->p, nc);
		if (!np)
			return;
		b->p = np;
		b->cap = nc;
	}
	memcpy(b->p + b->n, line, (size_t)k + 1);
	b->n += (size_t)k;
}

static void run(struct tb *b, struct got *g, struct gfxstat_sf_summary *sum)
{
	struct gfxstat_sf_frames *sf = gfxstat_sf_frames_new(add, g);
	struct gfxstat_trace_parser *p = gfxstat_trace_parser_new(gfxstat_sf_frames_marker, sf);

	memset(g, 0, sizeof(*g));
	CHECK(sf && p && b->p);
	if (sf && p && b->p) {
		gfxstat_trace_parser_feed(p, b->p, b->n);
		gfxstat_trace_parser_finish(p);
		gfxstat_sf_frames_finish(sf);
		gfxstat_sf_frames_summary(sf, sum);
	}
	gfxstat_trace_parser_free(p);
	gfxstat_sf_frames_free(sf);
	free(b->p);
	memset(b, 0, sizeof(*b));
}

#define T0 100000000000LL /* 100 s */
#define P60 16666667LL
#define APP "BufferTX - com.a.b/com.a.b.Main#1600"
#define INNER "Internal display (4619827259835644672)"
#define OUTER "Outer display (4619827259835644673)"
/* a virtual display: bit 63 (virtual) and bit 61 (GPU) set, base id 1 */
#define VIRT "ScreenRecorder (11529215046068469761)"

/* VSYNC-sf toggles k = 0 .. @n-1 at T0 + k * P60 */
static void toggles(struct tb *b, int from, int n)
{
	int k;

	for (k = from; k < n; k++)
		L(b, 510, T0 + k * P60, "C|500|VSYNC-sf|%d", k & 1);
}

/* The app's buffer is queued and latched in "commit <id>" after toggle @k (+1 and +2 ms). */
static void commit(struct tb *b, int k)
{
	long long t = T0 + k * P60;

	L(b, 520, t + 500000, "C|500|" APP "|1");
	L(b, 500, t + 1000000, "B|500|commit %d vsyncIn 16.00ms", 200 + k);
	L(b, 500, t + 1100000, "C|500|" APP "|0");
	L(b, 500, t + 1200000, "E|500");
}

/*
 * Android 13, a phone with two displays (one of them off, which Android 13 does not trace):
 * CompositionEngine::present ("present") runs Output::present ("present") for each display,
 * each with its "postFramebuffer" (traced before Output::postFramebuffer returns for a
 * disabled output). Three composites, after toggles 4, 5, 6: three refreshes, one per
 * composite, presented at toggles 5, 6, 7 (T0 + k * P60), each showing the app's buffer.
 * Before the rule: two refreshes per composite.
 */
TEST(android13_two_outputs_one_refresh)
{
	struct tb b = { 0 };
	struct got g;
	struct gfxstat_sf_summary s;
	int k;

	toggles(&b, 0, 4);
	for (k = 4; k < 7; k++) {
		long long t = T0 + k * P60;

		L(&b, 510, t, "C|500|VSYNC-sf|%d", k & 1);
		commit(&b, k);
		L(&b, 500, t + 2000000, "B|500|composite %d", 200 + k);
		L(&b, 500, t + 2100000, "B|500|present");
		L(&b, 500, t + 2200000, "B|500|present");
		L(&b, 500, t + 2300000, "B|500|postFramebuffer");
		L(&b, 500, t + 2400000, "B|500|presentAndGetReleaseFences");
		L(&b, 500, t + 2500000, "E|500");
		L(&b, 500, t + 2600000, "E|500");
		L(&b, 500, t + 2700000, "E|500");
		L(&b, 500, t + 2800000, "B|500|present");
		L(&b, 500, t + 2900000, "B|500|postFramebuffer");
		L(&b, 500, t + 3000000, "E|500");
		L(&b, 500, t + 3100000, "E|500");
		L(&b, 500, t + 3200000, "E|500");
		L(&b, 500, t + 3300000, "E|500");
	}
	toggles(&b, 7, 10);
	run(&b, &g, &s);
	CHECK_EQ(s.refreshes, 3);
	CHECK_EQ(g.n, 3);
	CHECK_EQ(g.nd, 3);
	for (k = 0; k < 3 && k < g.nd; k++) {
		CHECK_CSTR(g.dlayer[k], "(display)");
		CHECK_EQ(g.dpresent[k], T0 + (5 + k) * P60);
		CHECK_EQ(g.present[k], T0 + (5 + k) * P60);
	}
}

/*
 * Android 14, two displays, the outer one off ("PowerMode <id>" 0, hal::PowerMode::OFF) and
 * composed first; a screenshot ("ScreenCaptureOutput") between composites and a virtual
 * display (screen recording) in the second composite. Three composites after toggles 4, 5,
 * 6: three "(display)" refreshes at toggles 5, 6, 7 and nothing else. Before the rule: a
 * refresh per output marker, screenshot included (5 display frames, made-up intervals).
 */
TEST(android14_one_display_off_and_a_screenshot)
{
	struct tb b = { 0 };
	struct got g;
	struct gfxstat_sf_summary s;
	int k;

	L(&b, 500, T0 - 1000000, "C|500|PowerMode 4619827259835644672|2");
	L(&b, 500, T0 - 900000, "C|500|PowerMode 4619827259835644673|0");
	toggles(&b, 0, 4);
	for (k = 4; k < 7; k++) {
		long long t = T0 + k * P60;

		L(&b, 510, t, "C|500|VSYNC-sf|%d", k & 1);
		commit(&b, k);
		L(&b, 500, t + 2000000, "B|500|composite %d", 200 + k);
		L(&b, 500, t + 2100000, "B|500|present for " OUTER);
		L(&b, 500, t + 2200000, "B|500|presentFrameAndReleaseLayers for " OUTER);
		L(&b, 500, t + 2300000, "E|500");
		L(&b, 500, t + 2400000, "E|500");
		L(&b, 500, t + 2500000, "B|500|present for " INNER);
		L(&b, 500, t + 2600000, "B|500|presentFrameAndReleaseLayers for " INNER);
		L(&b, 500, t + 2700000, "E|500");
		L(&b, 500, t + 2800000, "E|500");
		if (k == 5) {
			L(&b, 500, t + 2900000, "B|500|present for " VIRT);
			L(&b, 500, t + 3000000, "B|500|presentFrameAndReleaseLayers for " VIRT);
			L(&b, 500, t + 3100000, "E|500");
			L(&b, 500, t + 3200000, "E|500");
		}
		L(&b, 500, t + 3300000, "E|500");
		if (k == 4) { /* a screenshot, half a vsync later, outside any composition */
			L(&b, 500, t + 8000000, "B|500|present for ScreenCaptureOutput");
			L(&b, 500, t + 8100000,
			  "B|500|presentFrameAndReleaseLayers for ScreenCaptureOutput");
			L(&b, 500, t + 8200000, "E|500");
			L(&b, 500, t + 8300000, "E|500");
		}
	}
	toggles(&b, 7, 10);
	run(&b, &g, &s);
	CHECK_EQ(s.refreshes, 3);
	CHECK_EQ(g.n, 3);
	CHECK_EQ(g.nd, 3);
	for (k = 0; k < 3 && k < g.nd; k++) {
		CHECK_CSTR(g.dlayer[k], "(display)");
		CHECK_EQ(g.dpresent[k], T0 + (5 + k) * P60);
	}
}

/*
 * Android 14, both displays powered: each composite refreshes both, so each gets a display
 * layer: "(display)" (the first composed) and "(display 4619827259835644673)", at the same
 * vsyncs (toggles 5, 6, 7), the second one's intervals P60 from its second frame on.
 */
TEST(android14_two_powered_displays)
{
	struct tb b = { 0 };
	struct got g;
	struct gfxstat_sf_summary s;
	int k, outer = 0, main = 0;

	L(&b, 500, T0 - 1000000, "C|500|PowerMode 4619827259835644672|2");
	L(&b, 500, T0 - 900000, "C|500|PowerMode 4619827259835644673|2");
	toggles(&b, 0, 4);
	for (k = 4; k < 7; k++) {
		long long t = T0 + k * P60;

		L(&b, 510, t, "C|500|VSYNC-sf|%d", k & 1);
		commit(&b, k);
		L(&b, 500, t + 2000000, "B|500|composite %d", 200 + k);
		L(&b, 500, t + 2100000, "B|500|presentFrameAndReleaseLayers for " INNER);
		L(&b, 500, t + 2200000, "E|500");
		L(&b, 500, t + 2300000, "B|500|presentFrameAndReleaseLayers for " OUTER);
		L(&b, 500, t + 2400000, "E|500");
		L(&b, 500, t + 2500000, "E|500");
	}
	toggles(&b, 7, 10);
	run(&b, &g, &s);
	CHECK_EQ(s.refreshes, 3);
	CHECK_EQ(g.n, 3);
	CHECK_EQ(g.nd, 6);
	CHECK_EQ(s.display_frames, 6);
	for (k = 0; k < g.nd && k < MAXF; k++) {
		if (!strcmp(g.dlayer[k], "(display 4619827259835644673)")) {
			CHECK_EQ(g.dpresent[k], T0 + (5 + outer) * P60);
			outer++;
		} else {
			CHECK_CSTR(g.dlayer[k], "(display)");
			CHECK_EQ(g.dpresent[k], T0 + (5 + main) * P60);
			main++;
		}
	}
	CHECK_EQ(outer, 3);
	CHECK_EQ(main, 3);
}

/*
 * A declared period: "VSP-setPeriod" 8333333 (120 Hz) and "VSR-startPeriodTransition <id>"
 * before the toggles, which come every 8183000 ns (hardware vsync stamps that would be
 * measured as 122.2 Hz). Every frame carries 8333333 and the one mode is 8333333 from the
 * first toggle. A declaration for a display that is off (PowerMode 0) changes nothing.
 * Before the rule: 8183000 (the toggles' cluster).
 */
TEST(declared_period)
{
	struct tb b = { 0 };
	struct got g;
	struct gfxstat_sf_summary s;
	const long long iv = 8183000;
	int k, declared = 0;

	L(&b, 500, T0 - 3000000, "C|500|PowerMode 4619827259835644673|0");
	L(&b, 500, T0 - 2000000, "C|500|VSR-startPeriodTransition 4619827259835644672|8333333");
	L(&b, 500, T0 - 1000000, "C|500|VSP-setPeriod|8333333");
	for (k = 0; k < 30; k++) {
		long long t = T0 + k * iv;

		L(&b, 510, t, "C|500|VSYNC-sf|%d", k & 1);
		if (k == 20) /* the outer display is off: not its period */
			L(&b, 500, t + 100000,
			  "C|500|VSR-onDisplayModeChanged 4619827259835644673|16666667");
		if (k < 10 || k > 25)
			continue;
		L(&b, 520, t + 300000, "C|500|" APP "|1");
		L(&b, 500, t + 500000, "B|500|commit %d vsyncIn 8.00ms", 300 + k);
		L(&b, 500, t + 600000, "C|500|" APP "|0");
		L(&b, 500, t + 700000, "E|500");
		L(&b, 500, t + 800000, "B|500|composite %d", 300 + k);
		L(&b, 500, t + 900000, "B|500|presentFrameAndReleaseLayers for " INNER);
		L(&b, 500, t + 1000000, "E|500");
		L(&b, 500, t + 1100000, "E|500");
	}
	run(&b, &g, &s);
	CHECK_EQ(g.n, 16);
	CHECK_EQ(g.nd, 16);
	for (k = 0; k < g.n && k < MAXF; k++)
		declared += g.period[k] == 8333333;
	for (k = 0; k < g.nd && k < MAXF; k++)
		declared += g.dperiod[k] == 8333333;
	CHECK_EQ(declared, 32);
	/* presented at the next toggle: frame 0 (composite after toggle 10) at toggle 11 */
	CHECK_EQ(g.present[0], T0 + 11 * iv);
	CHECK_EQ(s.nmodes, 1);
	CHECK_EQ(s.modes[0].period_ns, 8333333);
	CHECK_EQ(s.modes[0].from_ns, T0 - 2000000);
}

/*
 * No declaration, jittery toggles (intervals cycle 16.5, 16.9, 16.6, 16.8, 16.7 ms): the grid's
 * estimate is refined as intervals come, but every frame after the mode is confirmed carries
 * the mode's period, the one `inspect` lists (s.modes[0]), so every command shows one rate.
 * Before: each frame carried the estimate of its moment.
 */
TEST(one_rate_per_mode)
{
	static const long long cyc[5] = { 16500000, 16900000, 16600000, 16800000, 16700000 };
	struct tb b = { 0 };
	struct got g;
	struct gfxstat_sf_summary s;
	long long t = T0;
	int k, same = 0;

	for (k = 0; k < 40; k++) {
		L(&b, 510, t, "C|500|VSYNC-sf|%d", k & 1);
		if (k >= 12 && k < 36) {
			L(&b, 520, t + 300000, "C|500|" APP "|1");
			L(&b, 500, t + 500000, "B|500|commit %d vsyncIn 16.00ms", 400 + k);
			L(&b, 500, t + 600000, "C|500|" APP "|0");
			L(&b, 500, t + 700000, "E|500");
			L(&b, 500, t + 800000, "B|500|composite %d", 400 + k);
			L(&b, 500, t + 900000, "B|500|postFramebuffer");
			L(&b, 500, t + 1000000, "E|500");
			L(&b, 500, t + 1100000, "E|500");
		}
		t += cyc[k % 5];
	}
	run(&b, &g, &s);
	CHECK_EQ(g.n, 24);
	CHECK_EQ(s.nmodes, 1);
	for (k = 0; k < g.n && k < MAXF; k++)
		same += g.period[k] == s.modes[0].period_ns;
	CHECK_EQ(same, 24);
}

/*
 * 6000 layers latched in one refresh (more than SurfaceFlinger's 4096 live layers, so more
 * than any refresh of a real device): every one gets its frame. Before: 64 kept, the rest
 * dropped without a word.
 */
TEST(many_layers_one_refresh)
{
	struct tb b = { 0 };
	struct got g;
	struct gfxstat_sf_summary s;
	long long t = T0 + 4 * P60;
	int i;

	toggles(&b, 0, 5);
	for (i = 0; i < 6000; i++)
		L(&b, 520, t + 100000, "C|500|BufferTX - Layer %d#%d|1", i, 10000 + i);
	L(&b, 500, t + 1000000, "B|500|commit 900 vsyncIn 16.00ms");
	for (i = 0; i < 6000; i++)
		L(&b, 500, t + 1100000, "C|500|BufferTX - Layer %d#%d|0", i, 10000 + i);
	L(&b, 500, t + 1200000, "E|500");
	L(&b, 500, t + 2000000, "B|500|composite 900");
	L(&b, 500, t + 2100000, "B|500|postFramebuffer");
	L(&b, 500, t + 2200000, "E|500");
	L(&b, 500, t + 2300000, "E|500");
	toggles(&b, 5, 7);
	run(&b, &g, &s);
	CHECK_EQ(g.n, 6000);
	CHECK_EQ(s.frames, 6000);
	CHECK_EQ(g.nd, 1);
	CHECK_EQ(g.present[0], T0 + 5 * P60);
	CHECK_EQ(s.over_limit, 0);
	CHECK_EQ(s.latched_unpresented, 0);
}

TEST_SUITE(test_sf_frames_displays)
{
	RUN(android13_two_outputs_one_refresh);
	RUN(android14_one_display_off_and_a_screenshot);
	RUN(android14_two_powered_displays);
	RUN(declared_period);
	RUN(one_rate_per_mode);
	RUN(many_layers_one_refresh);
}
