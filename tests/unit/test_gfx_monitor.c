/* SPDX-License-Identifier: MIT */
/* The seed monitor's state machine and its number formatting, on tiny hand-made traces. */
#include <stdlib.h>

#include "check.h"
#include "gfxstat/gfxstat.h"

struct rows {
	char fps[4096], drop[4096];
	size_t nf, nd;
};

static int add_window(void *user, const struct gfxstat_gfx_window *w)
{
	struct rows *r = user;

	r->nf += gfxstat_gfx_window_csv(w, r->fps + r->nf, sizeof(r->fps) - r->nf);
	return 0;
}

static int add_drop(void *user, const struct gfxstat_gfx_drop *d)
{
	struct rows *r = user;

	r->nd += gfxstat_gfx_drop_csv(d, r->drop + r->nd, sizeof(r->drop) - r->nd);
	return 0;
}

static void run_split(const char *trace, size_t split, const struct gfxstat_gfx_opts *o,
		      struct rows *r, int64_t *period)
{
	struct gfxstat_gfx_sink sink = { add_window, add_drop, r };
	struct gfxstat_gfx *g;
	struct gfxstat_trace_parser *p;

	memset(r, 0, sizeof(*r));
	g = gfxstat_gfx_new(o, &sink, NULL);
	p = gfxstat_trace_parser_new(gfxstat_gfx_marker, g);
	gfxstat_trace_parser_feed(p, trace, split);
	gfxstat_trace_parser_feed(p, trace + split, strlen(trace) - split);
	gfxstat_trace_parser_finish(p);
	gfxstat_gfx_finish(g);
	if (period)
		*period = gfxstat_gfx_period(g, NULL);
	gfxstat_trace_parser_free(p);
	gfxstat_gfx_free(g);
}

static void run(const char *trace, const struct gfxstat_gfx_opts *o, struct rows *r,
		int64_t *period)
{
	run_split(trace, 0, o, r, period);
}

#define L(ts, payload) "sf-683 (683) [000] .... " ts ": tracing_mark_write: " payload "\n"

TEST(awk_numbers)
{
	char b[64];

	gfxstat_awk_number(b, sizeof(b), 59);
	CHECK_CSTR(b, "59");
	gfxstat_awk_number(b, sizeof(b), 16.672);
	CHECK_CSTR(b, "16.672");
	gfxstat_awk_number(b, sizeof(b), 1234.567);
	CHECK_CSTR(b, "1234.57"); /* %.6g: six significant digits */
	gfxstat_awk_number(b, sizeof(b), 0.5);
	CHECK_CSTR(b, "0.5");
	gfxstat_awk_number(b, sizeof(b), 0);
	CHECK_CSTR(b, "0");
}

/*
 * Two frames of one surface 33.334 ms apart, then a third 100 ms later.
 * VSYNC lines at .000000 (first: sets f only), postFramebuffer, VSYNC at .016667 credits
 * frame 1 (its first: no interval; gap 16.667 ms is not > the 16.667 ms period: no D);
 * postFramebuffer, VSYNC at .050001 credits frame 2 (wt = 33.334 ms, not in A/B/C; gap to
 * the previous VSYNC line 33.334 > 16.667: D); postFramebuffer, VSYNC at .150001 credits
 * frame 3 (wt = 100 ms exactly: A; D). So D = 2.
 * End of input flushes: N=2, Time=133.334 ms, FPS = 2*1000/133.334 = 15.0 (< 60:
 * g = 0.25), max 100 = KPI so h = 1, A=1: score = 15 + 20 + 5 + 7 + 3 = 50.
 */
TEST(final_flush_and_score)
{
	static const char t[] =
		L("100.000000", "C|683|VSYNC-app|1")
		L("100.001000", "C|683|com.a.b/com.a.b.Main#0|0")
		L("100.002000", "B|683|postFramebuffer")
		L("100.016667", "C|683|VSYNC-app|0")
		L("100.017000", "C|683|com.a.b/com.a.b.Main#0|0")
		L("100.018000", "B|683|postFramebuffer")
		L("100.050001", "C|683|VSYNC-app|1")
		L("100.051000", "C|683|com.a.b/com.a.b.Main#0|0")
		L("100.052000", "B|683|postFramebuffer")
		L("100.150001", "C|683|VSYNC-app|0");
	struct gfxstat_gfx_opts o;
	struct rows r;

	gfxstat_gfx_opts_init(&o);
	o.period_ns = 16667000;
	run(t, &o, &r, NULL);
	CHECK_CSTR(r.fps, "100.016667,100.150001,15,2,0.133,100,0,0,1,0,0,2,50,0,com.a.b,"
			  "\"com.a.b/com.a.b.Main#0\"\n");
	/* the same rows whichever byte the input is cut at, with the period given or measured */
	{
		struct rows whole = r, cut;
		size_t k, bad = 0;

		for (k = 0; k <= sizeof(t) - 1; k++) {
			run_split(t, k, &o, &cut, NULL);
			bad += strcmp(cut.fps, whole.fps) != 0;
		}
		CHECK_EQ(bad, 0);
		o.period_ns = 0;
		run(t, &o, &whole, NULL);
		for (k = 0, bad = 0; k <= sizeof(t) - 1; k++) {
			run_split(t, k, &o, &cut, NULL);
			bad += strcmp(cut.fps, whole.fps) != 0;
		}
		CHECK_EQ(bad, 0);
	}
}

/*
 * Type 1 and 2 drop rows. Same trace as above plus a TX counter in the last vsync.
 * Type 1: frame 2 (wt 33.334 ms < 42) logs nothing; frame 3 is a different key (TX=1)
 * whose first frame has no interval: no rows at all. Type 2: frame 2's gap 33.334 ms >
 * period: one row from the previous VSYNC line (100.016667) to 100.050001.
 */
TEST(drop_rows)
{
	static const char t[] =
		L("100.000000", "C|683|VSYNC-app|1")
		L("100.002000", "B|683|postFramebuffer")
		L("100.016667", "C|683|VSYNC-sf|0")
		L("100.017000", "C|683|com.a.b/com.a.b.Main#0|0")
		L("100.017500", "C|683|StatusBar#0|0")
		L("100.018000", "B|683|postFramebuffer")
		L("100.050001", "C|683|VSYNC-app|1")
		L("100.051000", "C|683|TX - com.a.b/com.a.b.Main#0|0")
		L("100.052000", "B|683|postFramebuffer")
		L("100.150001", "C|683|VSYNC-app|0");
	struct gfxstat_gfx_opts o;
	struct rows r;

	gfxstat_gfx_opts_init(&o);
	o.period_ns = 16667000;
	o.type = 2;
	run(t, &o, &r, NULL);
	/* frame 1 at .016667: key (0,app,activity "unknown"): sv empty, focus default */
	/* frame 2 at .050001: sv = StatusBar#0 (last counter), app updated to com.a.b */
	CHECK_EQ(r.nd, 0); /* frame 2 is the first of key StatusBar#0: no interval */
	o.type = 1;
	run(t, &o, &r, NULL);
	CHECK_EQ(r.nd, 0);
	CHECK(strstr(r.fps, "\"StatusBar#0\"") == NULL); /* one frame each: N = 0 */
}

/* Period detection: VSYNC-app toggling every 11.111 ms (90 Hz) with a 33 ms skip. */
TEST(period_detection)
{
	char t[8192];
	size_t n = 0;
	int i;
	int64_t period = 0;
	struct gfxstat_gfx_opts o;
	struct rows r;
	long long us = 5000000000LL / 1000; /* 5000 s */

	for (i = 0; i < 40; i++) {
		us += (i == 20) ? 33333 : 11111;
		n += (size_t)snprintf(t + n, sizeof(t) - n,
				      "DispSync-1 (1) [000] .... %lld.%06lld: tracing_mark_write: "
				      "C|1|VSYNC-app|%d\n", us / 1000000, us % 1000000, i & 1);
	}
	gfxstat_gfx_opts_init(&o);
	run(t, &o, &r, &period);
	CHECK_EQ(period, 11111000);
	/* no VSYNC toggles at all: the documented default */
	run("a-1 [000] .... 1.000000: tracing_mark_write: B|1|x\n", &o, &r, &period);
	CHECK_EQ(period, 16667000);
}

TEST_SUITE(test_gfx_monitor)
{
	RUN(awk_numbers);
	RUN(final_flush_and_score);
	RUN(drop_rows);
	RUN(period_detection);
}
