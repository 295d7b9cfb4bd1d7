/* SPDX-License-Identifier: MIT */
/* Frames from SurfaceFlinger markers, one hand-made trace per Android era (FORMATS.md 2). */
#include <stdlib.h>

#include "check.h"
#include "gfxstat/gfxstat.h"

struct got {
	int n;
	char layer[16][96];
	long long present[16], interval[16], latch[16], period[16];
	int pid[16];
	char app[16][48];
	int nd;               /* "(display)" frames, apart */
	long long dpresent[16];
	int djanky[16];
};

static int add(void *user, const struct gfxstat_frame *f)
{
	struct got *g = user;

	if (f->source == GFXSTAT_SRC_FTRACE_DISPLAY) {
		if (g->nd < 16) {
			g->dpresent[g->nd] = f->present_ns;
			g->djanky[g->nd] = f->janky;
		}
		g->nd++;
		return 0;
	}
	if (g->n < 16) {
		g->period[g->n] = f->vsync_period_ns;
		snprintf(g->layer[g->n], sizeof(g->layer[0]), "%.*s", (int)f->layer.n, f->layer.p);
		snprintf(g->app[g->n], sizeof(g->app[0]), "%.*s", (int)f->app.n, f->app.p);
		g->present[g->n] = f->present_ns;
		g->interval[g->n] = f->interval_ns;
		g->latch[g->n] = f->latch_ns;
		g->pid[g->n] = f->pid;
	}
	g->n++;
	return 0;
}

static void run(const char *trace, struct got *g, struct gfxstat_sf_summary *sum)
{
	struct gfxstat_sf_frames *sf = gfxstat_sf_frames_new(add, g);
	struct gfxstat_trace_parser *p = gfxstat_trace_parser_new(gfxstat_sf_frames_marker, sf);

	memset(g, 0, sizeof(*g));
	gfxstat_trace_parser_feed(p, trace, strlen(trace));
	gfxstat_trace_parser_finish(p);
	gfxstat_sf_frames_finish(sf);
	if (sum)
		gfxstat_sf_frames_summary(sf, sum);
	gfxstat_trace_parser_free(p);
	gfxstat_sf_frames_free(sf);
}

/* task-tid (tgid) [000] .... ts: tracing_mark_write: payload */
#define M(task, tid, ts, payload)                                                          \
	task "-" #tid " (  500) [000] .... " ts ": tracing_mark_write: " payload "\n"
#define SF(ts, payload) M("surfaceflinger", 500, ts, payload)
#define BINDER(ts, payload) M("Binder:500_2", 520, ts, payload)
#define DISP(ts, payload) M("DispSync", 510, ts, payload)

/*
 * Android 9: two layers queue a buffer (binder +1), SF's main thread latches both (-1) and
 * posts the framebuffer at 10.005; the next VSYNC-sf toggle (10.016667) is within half a
 * period of the predicted vsync (10.000000 + 16.666667 ms), so both frames present there.
 * Then only the app layer: latched at 10.021, posted at 10.022, no toggle follows: present
 * is the prediction from the last toggle, 10.016667 + 16666667 ns (the default period: two
 * toggles are too few to measure one) = 10.033333667.
 * A non-layer counter (VSP-mode, FrameMissed) and an app-process counter (iq) never count.
 */
TEST(android9_two_layers_one_refresh)
{
	static const char t[] =
		DISP("10.000000", "C|500|VSYNC-sf|1")
		BINDER("10.001000", "C|500|com.a.b/com.a.b.Main#0|1")
		BINDER("10.001500", "C|500|StatusBar#0|1")
		M("com.a.b", 700, "10.001600", "C|700|iq|1")
		SF("10.002000", "B|500|handleMessageInvalidate")
		SF("10.002100", "C|500|com.a.b/com.a.b.Main#0|0")
		SF("10.002200", "C|500|StatusBar#0|0")
		SF("10.002250", "C|500|VSP-mode|0")
		SF("10.002300", "C|500|FrameMissed|0")
		SF("10.002400", "E|500")
		SF("10.003000", "B|500|handleMessageRefresh")
		SF("10.005000", "B|500|postFramebuffer")
		SF("10.005500", "E|500")
		SF("10.006000", "E|500")
		DISP("10.016667", "C|500|VSYNC-sf|0")
		BINDER("10.018000", "C|500|com.a.b/com.a.b.Main#0|1")
		SF("10.021000", "C|500|com.a.b/com.a.b.Main#0|0")
		SF("10.022000", "B|500|postFramebuffer")
		SF("10.022100", "E|500")
		M("com.a.b", 700, "10.200000", "B|700|Choreographer#doFrame");
	struct got g;
	struct gfxstat_sf_summary s;

	run(t, &g, &s);
	CHECK_EQ(g.n, 3);
	CHECK_CSTR(g.layer[0], "com.a.b/com.a.b.Main#0");
	CHECK_CSTR(g.app[0], "com.a.b");
	CHECK_EQ(g.pid[0], 700); /* the process whose main thread is "com.a.b" */
	CHECK_EQ(g.present[0], 10016667000LL);
	CHECK_EQ(g.latch[0], 10002100000LL);
	CHECK(g.interval[0] == GFXSTAT_NS_NONE);
	CHECK_CSTR(g.layer[1], "StatusBar#0");
	CHECK_CSTR(g.app[1], "");
	CHECK_EQ(g.present[1], 10016667000LL);
	CHECK_CSTR(g.layer[2], "com.a.b/com.a.b.Main#0");
	CHECK_EQ(g.present[2], 10033333667LL);
	CHECK_EQ(g.interval[2], 16666667);
	CHECK_EQ(g.period[2], 16666667);
	CHECK_EQ(s.sf_pid, 500);
	CHECK_EQ(s.refreshes, 2);
	/* one display frame per refresh; FrameMissed came before any refresh: no verdict */
	CHECK_EQ(g.nd, 2);
	CHECK_EQ(g.dpresent[1], 10033333667LL);
	CHECK_EQ(g.djanky[0], -1);
	CHECK(s.markers_seen & GFXSTAT_SF_SEEN_HANDLE_MESSAGE_REFRESH);
}

/* Android 12+: BLAST "BufferTX - <layer>" counts, presentFrameAndReleaseLayers (14 QPR2). */
TEST(android14_buffertx)
{
	static const char t[] =
		DISP("20.000000", "C|500|VSYNC-sf|1")
		BINDER("20.001000", "C|500|BufferTX - SurfaceView[com.g.h/com.g.h.Game](BLAST)#31|1")
		SF("20.002000", "B|500|commit 1234 vsyncIn 16.00ms")
		SF("20.002100", "C|500|BufferTX - SurfaceView[com.g.h/com.g.h.Game](BLAST)#31|0")
		SF("20.002200", "E|500")
		SF("20.003000", "B|500|composite 1234")
		SF("20.004000", "B|500|presentFrameAndReleaseLayers for Internal display (1)")
		SF("20.004500", "E|500")
		SF("20.005000", "E|500")
		DISP("20.016667", "C|500|VSYNC-sf|0");
	struct got g;
	struct gfxstat_sf_summary s;

	run(t, &g, &s);
	CHECK_EQ(g.n, 1);
	CHECK_CSTR(g.layer[0], "SurfaceView[com.g.h/com.g.h.Game](BLAST)#31");
	CHECK_CSTR(g.app[0], "com.g.h");
	CHECK_EQ(g.present[0], 20016667000LL);
	CHECK(s.markers_seen & GFXSTAT_SF_SEEN_PRESENT_AND_RELEASE);
	CHECK(s.markers_seen & GFXSTAT_SF_SEEN_BUFFER_TX);
}

/* No present marker anywhere (a trimmed capture): the end of the composition slice presents. */
TEST(composition_end_presents)
{
	static const char t[] =
		DISP("30.000000", "C|500|VSYNC-sf|1")
		BINDER("30.001000", "C|500|com.a.b/com.a.b.Main#0|1")
		SF("30.002000", "B|500|onMessageInvalidate 77 vsyncIn 15.00ms")
		SF("30.002100", "C|500|com.a.b/com.a.b.Main#0|0")
		SF("30.002200", "E|500")
		SF("30.003000", "B|500|onMessageRefresh")
		SF("30.003500", "B|500|calculateWorkingSet")
		SF("30.003600", "E|500")
		SF("30.004000", "E|500")
		DISP("30.016667", "C|500|VSYNC-sf|0");
	struct got g;

	run(t, &g, NULL);
	CHECK_EQ(g.n, 1);
	CHECK_EQ(g.present[0], 30016667000LL);
}

/* MIUI refresh-rate votes and other big-valued counters are not BufferQueues. */
TEST(not_layers)
{
	static const char t[] =
		DISP("40.000000", "C|500|VSYNC-sf|1")
		M("<...>", 530, "40.001000", "C|500|90fps|200")
		SF("40.001500", "C|500|90fps|100")
		SF("40.001600", "C|500|PrevFrameMissed|0")
		SF("40.001700", "C|500|Total Buffer Size|0")
		SF("40.002000", "B|500|postFramebuffer")
		SF("40.002100", "E|500")
		DISP("40.016667", "C|500|VSYNC-sf|0");
	struct got g;

	run(t, &g, NULL);
	CHECK_EQ(g.n, 0);
}

TEST(layer_apps)
{
	struct gfxstat_str a;

	a = gfxstat_layer_app("SurfaceView - com.x.y/com.x.y.A#0", 33);
	CHECK_STR(a, "com.x.y");
	a = gfxstat_layer_app("com.x.y/com.x.y.A#0", 19);
	CHECK_STR(a, "com.x.y");
	a = gfxstat_layer_app("StatusBar#0", 11);
	CHECK_EQ(a.n, 0);
	a = gfxstat_layer_app("Task=191#20376", 14);
	CHECK_EQ(a.n, 0);
	a = gfxstat_layer_app("ActivityRecord{9 u0 com.android.chrome/.Main t191}#20377", 56);
	CHECK_STR(a, "com.android.chrome");
	/* a window manager's leash around the app's window is not the app's (nowinandroid) */
	a = gfxstat_layer_app("Surface(name=8d1f382 com.x.y/com.x.y.A)/@0x42c2fdf - animation-leash "
			      "of starting_reveal#50014", 93);
	CHECK_EQ(a.n, 0);
}

/*
 * A layer whose name names no package (an untitled window, "#0") gets the process whose
 * queueBuffer SF's binder thread served: app 700's RenderThread begins queueBuffer at
 * 10.0010, SF's binder raises "#0" 0.2 ms later (a synchronous call), the main thread latches
 * it: the frame's pid is 700. "StatusBar#0" is raised 5 ms after app 800's queueBuffer began,
 * too late for the same call: no pid is claimed for it.
 */
#define APP(task, tid, tgid, ts, payload)                                                  \
	task "-" #tid " (  " #tgid ") [001] .... " ts ": tracing_mark_write: " payload "\n"
TEST(layer_owner_from_queue_buffer)
{
	static const char t[] =
		DISP("10.000000", "C|500|VSYNC-sf|1")
		APP("RenderThread", 712, 700, "10.001000", "B|700|queueBuffer")
		BINDER("10.001200", "C|500|#0|1")
		APP("RenderThread", 712, 700, "10.001400", "E|700")
		APP("RenderThread", 812, 800, "10.002000", "B|800|queueBuffer")
		APP("RenderThread", 812, 800, "10.002100", "E|800")
		BINDER("10.007000", "C|500|StatusBar#0|1")
		SF("10.010000", "C|500|#0|0")
		SF("10.010100", "C|500|StatusBar#0|0")
		SF("10.011000", "B|500|postFramebuffer")
		SF("10.011500", "E|500")
		DISP("10.016667", "C|500|VSYNC-sf|0")
		DISP("10.033334", "C|500|VSYNC-sf|1");
	struct got g;
	int i;

	run(t, &g, NULL);
	CHECK_EQ(g.n, 2);
	for (i = 0; i < g.n && i < 2; i++) {
		if (!strcmp(g.layer[i], "#0"))
			CHECK_EQ(g.pid[i], 700);
		else
			CHECK_EQ(g.pid[i], -1);
	}
}

/* 90 Hz, then 60 Hz: both refresh rates are reported with when they started. */
TEST(mode_switch)
{
	char t[16384];
	size_t n = 0;
	long long us = 50000000;
	int i;
	struct got g;
	struct gfxstat_sf_summary s;

	for (i = 0; i < 120; i++) {
		us += i < 60 ? 11111 : 16667;
		n += (size_t)snprintf(t + n, sizeof(t) - n,
				      "HwBinder-9 (  500) [000] .... %lld.%06lld: tracing_mark_write: "
				      "C|500|HW_VSYNC_0|%d\n", us / 1000000, us % 1000000, i & 1);
	}
	run(t, &g, &s);
	CHECK_EQ(s.nmodes, 2);
	CHECK(s.modes[0].period_ns > 11100000 && s.modes[0].period_ns < 11120000);
	CHECK(s.modes[1].period_ns > 16660000 && s.modes[1].period_ns < 16670000);
	CHECK_EQ(s.modes[1].from_ns, 50000000000LL + 60 * 11111000LL);
}

/*
 * Android 13 (the markers of api32_startup_warm, Pixel 6a): TransactionQueue goes up on binder
 * threads and down on the main thread like a BufferQueue, but it is SF's transaction count,
 * not a layer; "BufferTX - <layer>" is the layer. PrevFrameMissed at commit N+1 judges the
 * refresh of commit N: the first refresh (presented 60.016667) missed (1), the second
 * (60.033333) did not (0), the third has no later commit: -1.
 */
TEST(android13_commit_composite)
{
	static const char t[] = /* three intervals first: the period is measured */
		DISP("59.950000", "C|500|VSYNC-sf|0")
		DISP("59.966667", "C|500|VSYNC-sf|1")
		DISP("59.983333", "C|500|VSYNC-sf|0")
		DISP("60.000000", "C|500|VSYNC-sf|1")
		BINDER("60.000500", "C|500|TransactionQueue|1")
		BINDER("60.001000", "C|500|BufferTX - com.a.b/com.a.b.Main#1600|1")
		SF("60.002000", "B|500|commit 100 vsyncIn 16.00ms")
		SF("60.002010", "C|500|PrevFrameMissed|0")
		SF("60.002050", "C|500|TransactionQueue|0")
		SF("60.002100", "C|500|BufferTX - com.a.b/com.a.b.Main#1600|0")
		SF("60.002200", "E|500")
		SF("60.003000", "B|500|composite 100")
		SF("60.004000", "B|500|postFramebuffer")
		SF("60.004500", "E|500")
		SF("60.005000", "E|500")
		DISP("60.016667", "C|500|VSYNC-sf|0")
		BINDER("60.017000", "C|500|TransactionQueue|1")
		SF("60.018000", "B|500|commit 101 vsyncIn 16.00ms")
		SF("60.018010", "C|500|PrevFrameMissed|1")
		SF("60.018020", "C|500|PrevGpuFrameMissed|1")
		SF("60.018050", "C|500|TransactionQueue|0")
		SF("60.018200", "E|500")
		SF("60.019000", "B|500|composite 101")
		SF("60.020000", "B|500|postFramebuffer")
		SF("60.020500", "E|500")
		SF("60.021000", "E|500")
		DISP("60.033333", "C|500|VSYNC-sf|1")
		BINDER("60.034000", "C|500|BufferTX - com.a.b/com.a.b.Main#1600|1")
		SF("60.035000", "B|500|commit 102 vsyncIn 16.00ms")
		SF("60.035010", "C|500|PrevFrameMissed|0")
		SF("60.035100", "C|500|BufferTX - com.a.b/com.a.b.Main#1600|0")
		SF("60.035200", "E|500")
		SF("60.036000", "B|500|composite 102")
		SF("60.037000", "B|500|postFramebuffer")
		SF("60.037500", "E|500")
		SF("60.038000", "E|500")
		DISP("60.050000", "C|500|VSYNC-sf|0");
	struct got g;
	struct gfxstat_sf_summary s;

	run(t, &g, &s);
	CHECK_EQ(g.n, 2); /* the app's two buffers; no "TransactionQueue" layer */
	CHECK_CSTR(g.layer[0], "com.a.b/com.a.b.Main#1600");
	CHECK_EQ(g.present[0], 60016667000LL);
	CHECK_CSTR(g.layer[1], "com.a.b/com.a.b.Main#1600");
	CHECK_EQ(g.present[1], 60050000000LL);
	CHECK_EQ(g.nd, 3);
	CHECK_EQ(g.dpresent[0], 60016667000LL);
	CHECK_EQ(g.djanky[0], 1);
	CHECK_EQ(g.dpresent[1], 60033333000LL);
	CHECK_EQ(g.djanky[1], 0);
	CHECK_EQ(g.dpresent[2], 60050000000LL);
	CHECK_EQ(g.djanky[2], -1);
	CHECK_EQ(s.display_frames, 3);
	CHECK(s.markers_seen & GFXSTAT_SF_SEEN_COMMIT_COMPOSITE);
}

/*
 * The layer's first buffer arrives (binder raise to 2) before any VSYNC counter names
 * SurfaceFlinger; the main thread's lowering to 1 after it is still a latch (flutter-wanandroid
 * starts this way: 248 postFramebuffer, 248 frames).
 */
TEST(first_latch_before_sf_known)
{
	static const char t[] =
		BINDER("70.000100", "C|500|SurfaceView - com.a.b/com.a.b.Main#0|2")
		DISP("70.000500", "C|500|VSYNC-sf|1")
		SF("70.001000", "C|500|SurfaceView - com.a.b/com.a.b.Main#0|1")
		SF("70.002000", "B|500|postFramebuffer")
		SF("70.002100", "E|500")
		DISP("70.017167", "C|500|VSYNC-sf|0");
	struct got g;

	run(t, &g, NULL);
	CHECK_EQ(g.n, 1);
	CHECK_EQ(g.present[0], 70017167000LL);
}

/*
 * One grid: HW_VSYNC at the panel's vsync, VSYNC-app 1 ms and VSYNC-sf 4.5 ms after it. Every
 * present is a VSYNC-sf toggle, and when none follows (the last refresh) the VSYNC-sf grid's
 * prediction, never an HW_VSYNC or VSYNC-app toggle: 80.0045 + k * 16.666667 ms.
 */
TEST(one_grid_per_display)
{
	char t[16384];
	size_t n = 0;
	long long vs;
	int i;
	struct got g;

#define LINE(tid, task, ns, pay)                                                           \
	n += (size_t)snprintf(t + n, sizeof(t) - n,                                         \
			      "%s-%d (  500) [000] .... %lld.%09lld: tracing_mark_write: %s\n", \
			      task, tid, (ns) / 1000000000LL, (ns) % 1000000000LL, pay)
	for (i = 0; i < 12; i++) {
		vs = 80000000000LL + i * 16666667LL;
		LINE(509, "HwBinder", vs, i & 1 ? "C|500|HW_VSYNC_0|1" : "C|500|HW_VSYNC_0|0");
		LINE(510, "DispSync", vs + 1000000, i & 1 ? "C|500|VSYNC-app|1" : "C|500|VSYNC-app|0");
		if (i < 11)
			LINE(510, "DispSync", vs + 4500000,
			     i & 1 ? "C|500|VSYNC-sf|1" : "C|500|VSYNC-sf|0");
		LINE(520, "Binder:500_2", vs + 2000000, "C|500|com.a.b/com.a.b.Main#0|1");
		LINE(500, "surfaceflinger", vs + 5000000, "C|500|com.a.b/com.a.b.Main#0|0");
		LINE(500, "surfaceflinger", vs + 6000000, "B|500|postFramebuffer");
		LINE(500, "surfaceflinger", vs + 6100000, "E|500");
	}
#undef LINE
	run(t, &g, NULL);
	CHECK_EQ(g.n, 12);
	for (i = 0; i < 12 && i < g.n; i++)
		CHECK_EQ(g.present[i], 80000000000LL + (i + 1) * 16666667LL + 4500000);
}

/*
 * A 60 Hz panel with one early vsync among the first ones (an 11.083 ms interval, a resync) is
 * 60 Hz throughout: one mode at 16.667 ms, not "90.2 Hz from t, then 60 Hz".
 */
TEST(no_mode_flicker)
{
	char t[16384];
	size_t n = 0;
	long long us = 90000000;
	int i;
	struct got g;
	struct gfxstat_sf_summary s;

	for (i = 0; i < 60; i++) {
		us += i == 3 ? 11083 : 16667;
		n += (size_t)snprintf(t + n, sizeof(t) - n,
				      "HwBinder-9 (  500) [000] .... %lld.%06lld: tracing_mark_write: "
				      "C|500|HW_VSYNC_0|%d\n", us / 1000000, us % 1000000, i & 1);
	}
	run(t, &g, &s);
	CHECK_EQ(s.nmodes, 1);
	CHECK(s.modes[0].period_ns > 16660000 && s.modes[0].period_ns < 16670000);
}

/*
 * Two refreshes in one vsync (SF composed twice before 100.016667): the display shows one per
 * vsync, so the layer's second buffer is presented at the next vsync, the grid's prediction
 * (no toggle follows): the last toggle 100.016667 + the measured period (the mean of
 * 16.667, 16.666, 16.667, 16.667 ms = 16666750 ns) = 100.033333750, never twice at one time.
 */
TEST(two_refreshes_one_vsync)
{
	static const char t[] = /* three intervals first: the period is measured */
		DISP("99.950000", "C|500|VSYNC-sf|0")
		DISP("99.966667", "C|500|VSYNC-sf|1")
		DISP("99.983333", "C|500|VSYNC-sf|0")
		DISP("100.000000", "C|500|VSYNC-sf|1")
		BINDER("100.001000", "C|500|com.a.b/com.a.b.Main#0|1")
		SF("100.002000", "C|500|com.a.b/com.a.b.Main#0|0")
		SF("100.003000", "B|500|postFramebuffer")
		SF("100.003100", "E|500")
		BINDER("100.004000", "C|500|com.a.b/com.a.b.Main#0|1")
		SF("100.005000", "C|500|com.a.b/com.a.b.Main#0|0")
		SF("100.006000", "B|500|postFramebuffer")
		SF("100.006100", "E|500")
		DISP("100.016667", "C|500|VSYNC-sf|0");
	struct got g;
	struct gfxstat_sf_summary s;

	run(t, &g, &s);
	CHECK_EQ(g.n, 2);
	CHECK_EQ(g.present[0], 100016667000LL);
	CHECK_EQ(g.present[1], 100033333750LL);
	CHECK_EQ(s.nonincreasing, 0);
	CHECK_EQ(g.nd, 2);
}

TEST_SUITE(test_sf_frames)
{
	RUN(android9_two_layers_one_refresh);
	RUN(android14_buffertx);
	RUN(composition_end_presents);
	RUN(not_layers);
	RUN(layer_apps);
	RUN(layer_owner_from_queue_buffer);
	RUN(mode_switch);
	RUN(android13_commit_composite);
	RUN(first_latch_before_sf_known);
	RUN(one_grid_per_display);
	RUN(no_mode_flicker);
	RUN(two_refreshes_one_vsync);
}
