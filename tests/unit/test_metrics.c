/* SPDX-License-Identifier: MIT */
/* Each metric on a hand-made frame sequence, expected values derived by hand beside them. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "gfxstat/gfxstat.h"

/* Feed one layer whose frame intervals are @ms (n of them) at a 60 Hz period. */
static const struct gfxstat_layer_metrics *run(struct gfxstat_metrics **mp, const double *ms,
					       size_t n, const char *app)
{
	struct gfxstat_metrics *m = gfxstat_metrics_new(NULL);
	struct gfxstat_frame f;
	int64_t t = 1000000000000LL;
	size_t i;

	gfxstat_frame_init(&f, GFXSTAT_SRC_FTRACE);
	f.layer.p = "L#0";
	f.layer.n = 3;
	f.app.p = app;
	f.app.n = strlen(app);
	f.vsync_period_ns = 16666667;
	for (i = 0; i <= n; i++) {
		if (i)
			t += llround(ms[i - 1] * 1e6);
		f.present_ns = t;
		gfxstat_metrics_frame(m, &f);
	}
	gfxstat_metrics_finish(m);
	*mp = m;
	return gfxstat_metrics_get(m, 0);
}

/*
 * The Taobao article's worked example (seed 001): 83 frames in 1535 ms at 60 Hz, plain FPS
 * 54, and three jank-FPS windows: from frame 7, 69+16+15 = 100 ms >= 99.6 with the next
 * frame (16) under 17 ms: 3 frames, FPS 30, longest 69; from frame 17, 61+10+10+10+23 =
 * 114 ms: 5 frames, FPS 43, longest 61; from frame 26, 98+10 = 108 ms but the next frame is
 * 19 ms (not under 17), so it joins: 3 frames in 127 ms, FPS 23, longest 98. The article's
 * figure is an image, so the other 69 frames are ours: 42 of 17 ms and 27 of 16 ms make the
 * total 1535 ms (389 ms in the 14 frames named above).
 */
TEST(taobao_worked_example)
{
	double ms[83];
	size_t i, k17 = 0;
	struct gfxstat_metrics *m;
	const struct gfxstat_layer_metrics *l;
	static const struct {
		int at;
		double v;
	} named[] = {
		{ 7, 69 }, { 8, 16 }, { 9, 15 }, { 10, 16 },
		{ 17, 61 }, { 18, 10 }, { 19, 10 }, { 20, 10 }, { 21, 23 }, { 22, 16 },
		{ 26, 98 }, { 27, 10 }, { 28, 19 }, { 29, 16 },
	};
	double total = 0;

	for (i = 0; i < 83; i++)
		ms[i] = 0;
	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		ms[named[i].at - 1] = named[i].v;
	for (i = 0; i < 83; i++) {
		if (ms[i] == 0)
			ms[i] = k17++ < 42 ? 17 : 16;
		total += ms[i];
	}
	CHECK(total == 1535);
	l = run(&m, ms, 83, "");
	CHECK_EQ((int)l->fps, 54); /* 83 / 1.535 = 54.07 */
	CHECK_EQ(l->njank_windows, 3);
	if (l->njank_windows == 3) {
		CHECK_EQ((int)l->jank_windows[0].fps, 30);
		CHECK_EQ(l->jank_windows[0].frames, 3);
		CHECK_EQ(l->jank_windows[0].longest_ns, 69000000);
		CHECK_EQ((int)l->jank_windows[1].fps, 43);
		CHECK_EQ(l->jank_windows[1].frames, 5);
		CHECK_EQ(l->jank_windows[1].longest_ns, 61000000);
		CHECK_EQ((int)l->jank_windows[2].fps, 23);
		CHECK_EQ(l->jank_windows[2].frames, 3);
		CHECK_EQ(l->jank_windows[2].dur_ns, 127000000);
		CHECK_EQ(l->jank_windows[2].longest_ns, 98000000);
		/* window 1 starts where frame 7 starts: after frames 1-6 (6 intervals) */
		CHECK_EQ(l->jank_windows[0].start_ns - l->first_ns,
			 llround((ms[0] + ms[1] + ms[2] + ms[3] + ms[4] + ms[5]) * 1e6));
	}
	gfxstat_metrics_free(m);
}

/*
 * PerfDog. Intervals: 10 x 16 ms, then 100 ms (> 2 x 16 and > 83.33: jank, not big), 3 x 16,
 * 130 ms (jank and big jank), 3 x 16, then 80 ms (> 2 x 16 but not > 83.33: nothing),
 * 3 x 16, 90 ms (jank). 22 + 1 + ... intervals: 10+1+3+1+3+1+3+1 = 23.
 * Span = 10*16 + 100 + 48 + 130 + 48 + 80 + 48 + 90 = 704 ms.
 * jank = 3, big = 1; stutter = (100 + 130 + 90) / 704 = 0.454545...
 * jank per 10 min = 3 * 600 / 0.704 = 2556.8.
 */
TEST(perfdog)
{
	double ms[23];
	size_t n = 0, i;
	struct gfxstat_metrics *m;
	const struct gfxstat_layer_metrics *l;

	for (i = 0; i < 10; i++)
		ms[n++] = 16;
	ms[n++] = 100;
	for (i = 0; i < 3; i++)
		ms[n++] = 16;
	ms[n++] = 130;
	for (i = 0; i < 3; i++)
		ms[n++] = 16;
	ms[n++] = 80;
	for (i = 0; i < 3; i++)
		ms[n++] = 16;
	ms[n++] = 90;
	l = run(&m, ms, n, "");
	CHECK_EQ(l->jank, 3);
	CHECK_EQ(l->big_jank, 1);
	CHECK(fabs(l->stutter - 320.0 / 704.0) < 1e-9);
	CHECK(fabs(l->jank_per_10min - 3 * 600 / 0.704) < 1e-6);
	/*
	 * Seed buckets on the same frames: A (>= 100) = 100, 130; B [50,100) = 80, 90; C none.
	 * Matrix at 16666667 ns: dropped = (t - p) / p truncated: 100 -> 83333333 / 16666667
	 * = 4.99999994 -> 4 (NORMAL), 130 -> 6.8 -> 6, 80 -> 3.8 -> 3, 90 -> 4.4 -> 4 (all
	 * NORMAL: >= 3); 16 -> 0 (BEST, 19 of them). Sum 17.
	 */
	CHECK_EQ(l->a, 2);
	CHECK_EQ(l->b, 2);
	CHECK_EQ(l->c, 0);
	CHECK_EQ(l->matrix_levels[GFXSTAT_MATRIX_NORMAL], 4);
	CHECK_EQ(l->matrix_levels[GFXSTAT_MATRIX_BEST], 19);
	CHECK_EQ(l->matrix_dropped, 17);
	gfxstat_metrics_free(m);
}

/*
 * Percentiles (nearest rank), waits, Low 1%, score, slow frames, hitch.
 * Intervals (ms): 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, then 600 (a wait), then 16.
 * Counted: 11 intervals (the 600 is a wait): sorted 10 16 20 30 40 50 60 70 80 90 100.
 * p50 = rank ceil(5.5) = 6th = 50; p90 = ceil(9.9) = 10th = 90; p95 = ceil(10.45) = 11th =
 * 100; p99 = 11th = 100; max 100. Active = 566 ms -> FPS = 11 / 0.566 = 19.43.
 * Low 1%: ceil(11/100) = 1 frame, the slowest (100 ms): 10 FPS.
 * Score: g = 19.43/60; h = 100/100 = 1; A = 1 (100), B = 5 (50..90), C = 1 (40? no: 42-50
 * holds nothing, 40 < 42), so C = 0: score = 60 g + 20 + (10/11)*10 + (6/11)*7 + 3.
 * Slow (>= 1.5 x 16.667 = 25 ms): 30..100 = 8. Hitch: sum over counted of (t - 16.667) for
 * t > 16.667: (20+30+...+100) - 9*16.666667 = 540 - 150.000003 = 389.999997 ms over 0.566 s.
 */
TEST(percentiles_waits_score)
{
	double ms[] = { 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 600, 16 };
	struct gfxstat_metrics *m;
	const struct gfxstat_layer_metrics *l;
	double fps = 11 / 0.566, score;

	l = run(&m, ms, sizeof(ms) / sizeof(ms[0]), "com.a.b");
	CHECK_EQ(l->intervals, 11);
	CHECK_EQ(l->waits, 1);
	CHECK(fabs(l->wait_s - 0.6) < 1e-9);
	CHECK(fabs(l->fps - fps) < 1e-9);
	CHECK(l->frame_ms_p50 == 50);
	CHECK(l->frame_ms_p90 == 90);
	CHECK(l->frame_ms_p95 == 100);
	CHECK(l->frame_ms_p99 == 100);
	CHECK(l->frame_ms_max == 100);
	CHECK(fabs(l->fps_low_1pct - 10) < 1e-9);
	CHECK_EQ(l->a, 1);
	CHECK_EQ(l->b, 5);
	CHECK_EQ(l->c, 0);
	score = round((fps / 60 * 60 + 20 + 10.0 / 11 * 10 + 6.0 / 11 * 7 + 3) * 100) / 100;
	CHECK(fabs(l->score - score) < 1e-9);
	CHECK_EQ(l->slow_frames, 8);
	CHECK(fabs(l->hitch_ms_per_s - (540 - 9 * 16.666667) / 0.566) < 1e-6);
	CHECK(fabs(l->refresh_hz - 1e9 / 16666667) < 1e-9);
	/* the app stream of a single-layer app is the same frames */
	CHECK_EQ(gfxstat_metrics_count(m), 2);
	CHECK(gfxstat_metrics_get(m, 1)->is_app);
	CHECK_EQ(gfxstat_metrics_get(m, 1)->frames, 13);
	gfxstat_metrics_free(m);
}

/* Frozen frames: >= 700 ms; here 1 of 4 frames (intervals 16, 700, 16). */
TEST(frozen)
{
	double ms[] = { 16, 700, 16 };
	struct gfxstat_metrics *m;
	const struct gfxstat_layer_metrics *l = run(&m, ms, 3, "");

	CHECK_EQ(l->frozen_frames, 1);
	CHECK(fabs(l->frozen_share - 0.25) < 1e-12);
	gfxstat_metrics_free(m);
}

/*
 * Scrolls. Frames (present ms): 0, 16, 32 with no input; 632 (input: a scroll starts), then
 * 10 more frames 16 ms apart to 792, the 5th of them 48 ms after the previous (a hitch of
 * 48 - 16.667 = 31.333 ms); a 300 ms gap (>= 200 ms: the content settled); 1124 (input),
 * 1140, 1156. Scroll 1: 11 frames from 632 to 824 (9 x 16 + 48 = 192 ms): FPS 10 / 0.192
 * = 52.08, hitch 31.333 / 0.192 = 163.19 ms/s; scroll 2: 3 frames over 32 ms, FPS 62.5,
 * no hitch (16 < 16.667). The hitch rate falls: slope (0 - 163.19) / 1 < 0.
 * With scroll_only the counted intervals are the 10 + 2 inside scrolls: 12 over 224 ms.
 */
static const struct gfxstat_layer_metrics *run_scrolls(struct gfxstat_metrics **mp, int only)
{
	static const int at[] = { 0, 16, 32, 632, 648, 664, 680, 696, 744, 760, 776, 792, 808,
				  824, 1124, 1140, 1156 };
	static const int input[] = { 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0 };
	struct gfxstat_metrics_opts o;
	struct gfxstat_metrics *m;
	struct gfxstat_frame f;
	size_t i;

	gfxstat_metrics_opts_init(&o);
	o.scroll_only = only;
	m = gfxstat_metrics_new(&o);
	gfxstat_frame_init(&f, GFXSTAT_SRC_FTRACE);
	f.layer.p = "L#0";
	f.layer.n = 3;
	f.vsync_period_ns = 16666667;
	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		f.present_ns = 5000000000LL + at[i] * 1000000LL;
		f.input = input[i];
		gfxstat_metrics_frame(m, &f);
	}
	gfxstat_metrics_finish(m);
	*mp = m;
	return gfxstat_metrics_get(m, 0);
}

TEST(scrolls)
{
	struct gfxstat_metrics *m;
	const struct gfxstat_layer_metrics *l = run_scrolls(&m, 0);

	CHECK_EQ(l->nscrolls, 2);
	if (l->nscrolls == 2) {
		CHECK_EQ(l->scrolls[0].frames, 11);
		CHECK_EQ(l->scrolls[0].end_ns - l->scrolls[0].start_ns, 192000000);
		CHECK(fabs(l->scrolls[0].fps - 10 / 0.192) < 1e-9);
		CHECK(fabs(l->scrolls[0].hitch_ms_per_s - (48 - 16.666667) / 0.192) < 1e-6);
		CHECK_EQ(l->scrolls[0].longest_ns, 48000000);
		CHECK_EQ(l->scrolls[1].frames, 3);
		CHECK(fabs(l->scrolls[1].fps - 62.5) < 1e-9);
		CHECK(l->scrolls[1].hitch_ms_per_s == 0);
		CHECK(l->scroll_hitch_slope < 0);
	}
	/* 16 intervals, one wait (the 600 ms before the first scroll; 300 ms is under 500) */
	CHECK_EQ(l->intervals, 15);
	CHECK_EQ(l->waits, 1);
	gfxstat_metrics_free(m);
	l = run_scrolls(&m, 1);
	CHECK_EQ(l->intervals, 12);
	CHECK(fabs(l->fps - 12 / 0.224) < 1e-9);
	gfxstat_metrics_free(m);
}

/*
 * Per-window FPS (GameBench's per-second series) and its median, and FPS over the wall span.
 * Presents every 10 ms from 0 to 1000 ms, then every 20 ms to 2500 ms: 176 frames, 175
 * intervals (100 of 10 ms, 75 of 20 ms) over 2.5 s. Full 1 s windows: 2. Window 0 holds the
 * presents at 0..990 ms (100): 100 FPS; window 1 holds 1000..1980 ms step 20 (50): 50 FPS.
 * Median of {100, 50} = 75; fps_wall = 175 / 2.5 = 70; fps (no waits) = 70 too.
 */
TEST(windows)
{
	double ms[175];
	size_t i;
	struct gfxstat_metrics *m;
	const struct gfxstat_layer_metrics *l;

	for (i = 0; i < 175; i++)
		ms[i] = i < 100 ? 10 : 20;
	l = run(&m, ms, 175, "");
	CHECK_EQ(l->frames, 176);
	CHECK_EQ(l->nwindows, 2);
	if (l->nwindows == 2) {
		CHECK(fabs(l->window_fps[0] - 100) < 1e-9);
		CHECK(fabs(l->window_fps[1] - 50) < 1e-9);
	}
	CHECK(fabs(l->fps_median - 75) < 1e-9);
	CHECK(fabs(l->fps_wall - 70) < 1e-9);
	CHECK(fabs(l->fps - 70) < 1e-9);
	gfxstat_metrics_free(m);
}

TEST_SUITE(test_metrics)
{
	RUN(taobao_worked_example);
	RUN(perfdog);
	RUN(percentiles_waits_score);
	RUN(frozen);
	RUN(scrolls);
	RUN(windows);
}
