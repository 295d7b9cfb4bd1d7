/* SPDX-License-Identifier: MIT */
/* Each metric on a hand-made frame sequence, expected values derived by hand beside them. */
#include <math.h>
#include <stdio.h>
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
	/* 0.704 s of frames: too short for a rate per 10 minutes (needs >= 1 min) */
	CHECK_EQ(l->rates_valid, 0);
	CHECK(l->jank_per_10min == 0);
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

/* Feed one layer at refresh period @p_ns whose intervals are @iv_ns (n of them). */
static const struct gfxstat_layer_metrics *run_ns(struct gfxstat_metrics **mp,
						  const int64_t *iv_ns, size_t n, int64_t p_ns)
{
	struct gfxstat_metrics *m = gfxstat_metrics_new(NULL);
	struct gfxstat_frame f;
	int64_t t = 1000000000000LL;
	size_t i;

	gfxstat_frame_init(&f, GFXSTAT_SRC_FTRACE);
	f.layer.p = "L#0";
	f.layer.n = 3;
	f.vsync_period_ns = p_ns;
	for (i = 0; i <= n; i++) {
		if (i)
			t += iv_ns[i - 1];
		f.present_ns = t;
		gfxstat_metrics_frame(m, &f);
	}
	gfxstat_metrics_finish(m);
	*mp = m;
	return gfxstat_metrics_get(m, 0);
}

/*
 * A game steady at 30 FPS on a 59.88 Hz screen (P = 16.7 ms): 120 intervals of 33.4 ms,
 * 2 vsyncs each. Cadence 2 vsyncs (29.94 FPS); against it nothing is slow (33.4 <= 2.5 P =
 * 41.75 ms), no hitch (33.4 - 2 P = 0), no seed D, no Taobao window, nothing janky. Against
 * the refresh every interval is slow (33.4 > 1.5 P = 25.05) and the hitch is 120 x 16.7 ms
 * over 120 x 33.4 ms = 500 ms/s.
 */
TEST(cadence_steady_30)
{
	int64_t iv[120];
	size_t i;
	struct gfxstat_metrics *m;
	const struct gfxstat_layer_metrics *l;

	for (i = 0; i < 120; i++)
		iv[i] = 33400000;
	l = run_ns(&m, iv, 120, 16700000);
	CHECK_EQ(l->cadence_vsyncs, 2);
	CHECK(fabs(l->cadence_fps - 1e9 / 33400000.0) < 1e-9);
	CHECK_EQ(l->cadence_changes, 0);
	CHECK_EQ(l->slow_frames, 0);
	CHECK_EQ(l->d, 0);
	CHECK(l->hitch_ms_per_s == 0);
	CHECK_EQ(l->njank_windows, 0);
	CHECK_EQ(l->janky_frames, 0);
	CHECK_EQ(l->refresh.slow_frames, 120);
	CHECK(fabs(l->refresh.hitch_ms_per_s - 500) < 1e-9);
	gfxstat_metrics_free(m);
}

/*
 * A 60 FPS scroll (P = 16.7 ms) that drops to 30 FPS for a stretch: 100 intervals of 1 vsync,
 * 20 of 2, 100 of 1. The cadence at each interval is the lower quartile (16th smallest of 61)
 * of the last 61: never more than 20 of them are 2s, so it stays 1 vsync. The 20 drop frames
 * are slow (33.4 > 1.5 P = 25.05) and janky; hitch 20 x 16.7 = 334 ms over 200 x 16.7 + 20 x
 * 33.4 = 4008 ms = 83.333 ms/s.
 */
TEST(cadence_drop_is_janky)
{
	int64_t iv[220];
	size_t i;
	struct gfxstat_metrics *m;
	const struct gfxstat_layer_metrics *l;

	for (i = 0; i < 220; i++)
		iv[i] = i >= 100 && i < 120 ? 33400000 : 16700000;
	l = run_ns(&m, iv, 220, 16700000);
	CHECK_EQ(l->cadence_vsyncs, 1);
	CHECK_EQ(l->cadence_changes, 0);
	CHECK_EQ(l->slow_frames, 20);
	CHECK_EQ(l->d, 20);
	CHECK_EQ(l->janky_frames, 20);
	CHECK(fabs(l->hitch_ms_per_s - 334.0 / 4.008) < 1e-9);
	CHECK_EQ(l->njanky_list, 20);
	if (l->njanky_list == 20) {
		/* the first janky frame ends interval 100: present = start + 100 x 16.7 + 33.4 */
		CHECK_EQ(l->janky_list[0].present_ns, 1000000000000LL + 1670000000LL + 33400000);
		CHECK_EQ(l->janky_list[0].length_ns, 33400000);
		CHECK_EQ(l->janky_list[0].cadence_ns, 16700000);
	}
	gfxstat_metrics_free(m);
}

/*
 * A drop that lasts becomes the cadence: 100 intervals of 1 vsync, then 200 of 2. At counted
 * interval k >= 100 the last 61 hold k - 99 twos; the lower quartile (16th smallest) is 2 once
 * fewer than 16 ones remain: k - 99 > 45, k >= 145. The cadence in force follows after the new
 * value held 8 intervals (145..152): from k = 152. So intervals 100..151 (52) are slow against
 * 1 vsync, 152..299 are not; one change; most common cadence 1 (152 intervals against 148).
 */
TEST(cadence_hysteresis)
{
	int64_t iv[300];
	size_t i;
	struct gfxstat_metrics *m;
	const struct gfxstat_layer_metrics *l;

	for (i = 0; i < 300; i++)
		iv[i] = i >= 100 ? 33400000 : 16700000;
	l = run_ns(&m, iv, 300, 16700000);
	CHECK_EQ(l->cadence_changes, 1);
	CHECK_EQ(l->slow_frames, 52);
	CHECK_EQ(l->janky_frames, 52);
	CHECK_EQ(l->cadence_vsyncs, 1);
	gfxstat_metrics_free(m);
}

/* Feed one layer at P = 16.7 ms: presents @iv_ns apart (n intervals), frame i started @lat_ns[i]
 * before its present (0: no start, judged by its interval). */
static const struct gfxstat_layer_metrics *run_start(struct gfxstat_metrics **mp,
						     const int64_t *iv_ns, const int64_t *lat_ns,
						     size_t n)
{
	struct gfxstat_metrics *m = gfxstat_metrics_new(NULL);
	struct gfxstat_frame f;
	int64_t t = 1000000000000LL;
	size_t i;

	gfxstat_frame_init(&f, GFXSTAT_SRC_FTRACE);
	f.layer.p = "L#0";
	f.layer.n = 3;
	f.vsync_period_ns = 16700000;
	for (i = 0; i <= n; i++) {
		if (i)
			t += iv_ns[i - 1];
		f.present_ns = t;
		f.actual_start_ns = lat_ns[i] ? t - lat_ns[i] : GFXSTAT_NS_NONE;
		gfxstat_metrics_frame(m, &f);
	}
	gfxstat_metrics_finish(m);
	*mp = m;
	return gfxstat_metrics_get(m, 0);
}

/*
 * An idle gap is not jank. P = 16.7 ms; 41 frames: 20 intervals of 1 vsync, one of 250.5 ms
 * (15 vsyncs: the app had nothing to draw), 19 more of 1 vsync; every frame presented 2 P =
 * 33.4 ms after its doFrame began. Median latency 33.4 ms; the frame after the gap took 33.4 ms
 * from its start, 0 over the median (not over P/2 = 8.35 ms): on time, so janky 0, slow 0,
 * seed D 0, hitch 0 (own excess min(250.5 - 16.7, 0) = 0), and refresh.slow_frames 0. Without
 * the starts (the trace has no app sections) the interval rule stands: 250.5 > 1.5 P, janky 1,
 * slow 1, hitch (250.5 - 16.7) ms over 39 x 16.7 + 250.5 = 901.8 ms active.
 */
TEST(idle_gap_not_janky)
{
	int64_t iv[40], lat[41], none[41];
	size_t i;
	struct gfxstat_metrics *m;
	const struct gfxstat_layer_metrics *l;

	for (i = 0; i < 40; i++)
		iv[i] = i == 20 ? 250500000 : 16700000;
	for (i = 0; i < 41; i++) {
		lat[i] = 33400000;
		none[i] = 0;
	}
	l = run_start(&m, iv, lat, 40);
	CHECK_EQ(l->intervals, 40);
	CHECK_EQ(l->waits, 0);
	CHECK_EQ(l->janky_frames, 0);
	CHECK_EQ(l->slow_frames, 0);
	CHECK_EQ(l->d, 0);
	CHECK(l->hitch_ms_per_s == 0);
	CHECK_EQ(l->refresh.slow_frames, 0);
	gfxstat_metrics_free(m);
	l = run_start(&m, iv, none, 40);
	CHECK_EQ(l->janky_frames, 1);
	CHECK_EQ(l->slow_frames, 1);
	CHECK(fabs(l->hitch_ms_per_s - 233.8 / 0.9018) < 1e-6);
	gfxstat_metrics_free(m);
}

/*
 * A doFrame that took 3 vsyncs is. P = 16.7 ms; 41 frames 1 vsync apart, latency 2 P = 33.4 ms,
 * except frame 20: its doFrame began one vsync after frame 19's and ran 3 vsyncs, so it reached
 * the display 2 vsyncs late: interval 3 P = 50.1 ms (the one before it 1 P), latency 4 P =
 * 66.8 ms. The next frame started at the vsync its doFrame ended on and is on time again (1 P
 * later, latency 2 P). Median latency 33.4 ms; frame 20 is 33.4 ms over it (> P/2) and its
 * interval 50.1 > 1.5 P: janky 1, slow 1, listed at its present with its own length, its
 * doFrame's start to its present, the latency 4 P = 66.8 ms (H13: was its interval, 50.1
 * ms, shorter than its 3-vsync doFrame plus the wait for the display). Hitch:
 * min(50.1 - 16.7, 33.4) = 33.4 ms over 39 x 16.7 + 50.1 = 701.4 ms active. The same frame
 * with a normal latency (an idle gap of 2 vsyncs) would not be: checked by the one above.
 */
TEST(long_doframe_janky)
{
	int64_t iv[40], lat[41];
	size_t i;
	struct gfxstat_metrics *m;
	const struct gfxstat_layer_metrics *l;

	for (i = 0; i < 40; i++)
		iv[i] = i == 19 ? 50100000 : 16700000;
	for (i = 0; i < 41; i++)
		lat[i] = i == 20 ? 66800000 : 33400000;
	l = run_start(&m, iv, lat, 40);
	CHECK_EQ(l->janky_frames, 1);
	CHECK_EQ(l->slow_frames, 1);
	CHECK_EQ(l->d, 1);
	CHECK_EQ(l->refresh.slow_frames, 1);
	CHECK(fabs(l->hitch_ms_per_s - 33.4 / 0.7014) < 1e-6);
	CHECK_EQ(l->njanky_list, 1);
	if (l->njanky_list == 1) {
		/* frame 20: 19 intervals of 16.7 ms and one of 50.1 after the first present */
		CHECK_EQ(l->janky_list[0].present_ns, 1000000000000LL + 19 * 16700000LL + 50100000);
		CHECK_EQ(l->janky_list[0].length_ns, 66800000);
		CHECK_EQ(l->janky_list[0].index, 20);
	}
	gfxstat_metrics_free(m);
}

/*
 * Macrobenchmark FrameTimingMetric on 5 FrameTimeline frames 16.7 ms apart: durations 4, 8,
 * 12, 16, 20 ms; overruns (actual end - expected end) -2, 0, 1, 3, 10 ms. androidx's
 * percentile is linear between ranks, index p/100 x (n - 1): P50 index 2 (12; 1), P90 index
 * 3.6 (16 + 0.6 x 4 = 18.4; 3 + 0.6 x 7 = 7.2), P95 3.8 (19.2; 8.6), P99 3.96 (19.84; 9.72).
 * Slow frames: positive overrun on the 4 frames that end an interval: 1, 3, 10 ms = 3. Janky:
 * the source's verdict, given only to the last frame: 1.
 */
TEST(macrobenchmark)
{
	static const int dur[5] = { 4, 8, 12, 16, 20 }, ovr[5] = { -2, 0, 1, 3, 10 };
	struct gfxstat_metrics *m = gfxstat_metrics_new(NULL);
	struct gfxstat_frame f;
	const struct gfxstat_layer_metrics *l;
	size_t i;

	gfxstat_frame_init(&f, GFXSTAT_SRC_FRAMETIMELINE);
	f.layer.p = "L#0";
	f.layer.n = 3;
	f.vsync_period_ns = 16700000;
	for (i = 0; i < 5; i++) {
		f.present_ns = 2000000000LL + (int64_t)i * 16700000;
		f.actual_start_ns = f.present_ns - dur[i] * 1000000LL;
		f.duration_ns = dur[i] * 1000000LL;
		f.expected_end_ns = f.present_ns;
		f.actual_end_ns = f.present_ns + ovr[i] * 1000000LL;
		f.janky = i == 4;
		gfxstat_metrics_frame(m, &f);
	}
	gfxstat_metrics_finish(m);
	l = gfxstat_metrics_get(m, 0);
	CHECK_EQ(l->macro_cpu_n, 5);
	CHECK_EQ(l->macro_overrun_n, 5);
	CHECK(fabs(l->macro_cpu_ms[0] - 12) < 1e-9);
	CHECK(fabs(l->macro_cpu_ms[1] - 18.4) < 1e-9);
	CHECK(fabs(l->macro_cpu_ms[2] - 19.2) < 1e-9);
	CHECK(fabs(l->macro_cpu_ms[3] - 19.84) < 1e-9);
	CHECK(fabs(l->macro_overrun_ms[0] - 1) < 1e-9);
	CHECK(fabs(l->macro_overrun_ms[1] - 7.2) < 1e-9);
	CHECK(fabs(l->macro_overrun_ms[2] - 8.6) < 1e-9);
	CHECK(fabs(l->macro_overrun_ms[3] - 9.72) < 1e-9);
	CHECK_EQ(l->slow_frames, 3);
	CHECK_EQ(l->janky_frames, 1);
	gfxstat_metrics_free(m);
}

/*
 * gfxinfo's legacy table: frames with a duration and a verdict but no present. 4 frames of 5,
 * 10, 30, 40 ms, the last two janky by JankTracker: counted (4, all untimed), janky 2, frame
 * times from the durations: p50 = the 2nd smallest (nearest rank 4 x 50 / 100 = 2) = 10 ms,
 * max 40 ms; the janky list holds the 30 and 40 ms frames with no present.
 */
TEST(untimed_frames)
{
	static const int dur[4] = { 5, 10, 30, 40 };
	struct gfxstat_metrics *m = gfxstat_metrics_new(NULL);
	struct gfxstat_frame f;
	const struct gfxstat_layer_metrics *l;
	size_t i;

	gfxstat_frame_init(&f, GFXSTAT_SRC_GFXINFO);
	f.layer.p = "W";
	f.layer.n = 1;
	for (i = 0; i < 4; i++) {
		f.duration_ns = dur[i] * 1000000LL;
		f.janky = i >= 2;
		gfxstat_metrics_frame(m, &f);
	}
	gfxstat_metrics_finish(m);
	l = gfxstat_metrics_get(m, 0);
	CHECK_EQ(l->frames, 4);
	CHECK_EQ(l->untimed, 4);
	CHECK_EQ(l->janky_frames, 2);
	CHECK(l->frame_ms_p50 == 10);
	CHECK(l->frame_ms_max == 40);
	CHECK_EQ(l->njanky_list, 2);
	if (l->njanky_list == 2) {
		CHECK_EQ(l->janky_list[0].present_ns, GFXSTAT_NS_NONE);
		CHECK_EQ(l->janky_list[0].length_ns, 30000000);
		CHECK_EQ(l->janky_list[1].length_ns, 40000000);
	}
	gfxstat_metrics_free(m);
}

/*
 * Rates per 10 minutes once a minute of frames is in: 10 x 16 ms, one 200 ms frame (PerfDog
 * jank and big jank: 3 x 200 > 2 x 48 and > 125 ms), 3590 x 16.7 ms: span 160 + 200 +
 * 59953 = 60313 ms >= 60 s; 1 jank x 600 / 60.313 s per 10 minutes.
 */
TEST(rates_per_10min)
{
	static int64_t iv[3601];
	size_t i;
	struct gfxstat_metrics *m;
	const struct gfxstat_layer_metrics *l;

	for (i = 0; i < 3601; i++)
		iv[i] = i < 10 ? 16000000 : i == 10 ? 200000000 : 16700000;
	l = run_ns(&m, iv, 3601, 16700000);
	CHECK_EQ(l->jank, 1);
	CHECK_EQ(l->big_jank, 1);
	CHECK_EQ(l->rates_valid, 1);
	CHECK(fabs(l->jank_per_10min - 600 / 60.313) < 1e-9);
	CHECK(fabs(l->big_jank_per_10min - 600 / 60.313) < 1e-9);
	gfxstat_metrics_free(m);
}

/*
 * A janky frame after an idle wait is listed at its own length, not the gap. Four frames,
 * FrameTimeline-style (the source's verdict, its own duration): presents at 0, 16.7 ms,
 * 541.7 ms (525 ms later: an idle wait, >= 500 ms) and 558.4 ms; the third is janky with a
 * duration of 17.3 ms. Its listed length is 17.3 ms (was the 525 ms gap). A fourth frame,
 * janky too, 16.7 ms after it (a counted interval): listed at its own duration, 16.0 ms (H13:
 * the frame's own time where the source gives it; was its interval, 16.7 ms). A
 * fifth, janky after a 600 ms wait with no duration but an overrun of 4 ms: listed at 4 ms;
 * a sixth, janky after a 700 ms wait with neither: no length (NONE).
 */
TEST(janky_length_not_idle_gap)
{
	struct gfxstat_metrics *m = gfxstat_metrics_new(NULL);
	const struct gfxstat_layer_metrics *l;
	struct gfxstat_frame f;
	static const struct {
		int64_t present, dur, act_end, exp_end;
		int janky;
	} fr[] = {
		{ 1000000000LL, 16000000, -1, -1, 0 },
		{ 1016700000LL, 16000000, -1, -1, 0 },
		{ 1541700000LL, 17300000, -1, -1, 1 }, /* 525 ms after the last */
		{ 1558400000LL, 16000000, -1, -1, 1 }, /* 16.7 ms after */
		{ 2158400000LL, -1, 2150000000LL, 2146000000LL, 1 }, /* 600 ms; overrun 4 ms */
		{ 2858400000LL, -1, -1, -1, 1 },       /* 700 ms; nothing of its own */
	};
	size_t i;

	gfxstat_frame_init(&f, GFXSTAT_SRC_FRAMETIMELINE);
	f.layer.p = "L#0";
	f.layer.n = 3;
	f.vsync_period_ns = 16666667;
	for (i = 0; i < sizeof(fr) / sizeof(fr[0]); i++) {
		f.present_ns = fr[i].present;
		f.duration_ns = fr[i].dur < 0 ? GFXSTAT_NS_NONE : fr[i].dur;
		f.actual_end_ns = fr[i].act_end < 0 ? GFXSTAT_NS_NONE : fr[i].act_end;
		f.expected_end_ns = fr[i].exp_end < 0 ? GFXSTAT_NS_NONE : fr[i].exp_end;
		f.janky = fr[i].janky;
		gfxstat_metrics_frame(m, &f);
	}
	gfxstat_metrics_finish(m);
	l = gfxstat_metrics_get(m, 0);
	CHECK_EQ(l->waits, 3);
	CHECK_EQ(l->njanky_list, 4);
	if (l->njanky_list == 4) {
		CHECK_EQ(l->janky_list[0].length_ns, 17300000);
		CHECK_EQ(l->janky_list[1].length_ns, 16000000);
		CHECK_EQ(l->janky_list[2].length_ns, 4000000);
		CHECK_EQ(l->janky_list[3].length_ns, GFXSTAT_NS_NONE);
	}
	gfxstat_metrics_free(m);
}

/*
 * A janky frame's length is its own time, from when it was meant to start (H13), so that how
 * late it was fits inside.
 * FrameTimeline: presents 16.7 ms apart (P = 16666667); the janky one presented at T = 2 s +
 * P has expected start T - 3 P (its predicted vsync), expected end T - 2 P, actual start T -
 * P (it began 2 vsyncs late) and actual end T - 1 ms: length = actual end - expected start =
 * 3 P - 1 ms = 49000001 ns; late = actual end - expected end = 2 P - 1 ms = 32333334 ns,
 * inside (its actual slice alone, 15666667 ns, is not; its interval, P, neither).
 * gfxinfo: IntendedVsync V, FrameDeadline V + 20 ms, SyncQueued V + 5 ms, SyncStart V + 65 ms
 * (a 60 ms stall: hwui's totalDuration leaves it out), FrameCompleted V + 75 ms, GpuCompleted
 * V + 78 ms: length = GpuCompleted - V = 78 ms; late = GpuCompleted - FrameDeadline = 58 ms
 * (totalDuration would give 75 - 60 = 15 ms). A second row of Flags 2 whose FrameDeadline is
 * 13 ms before its IntendedVsync (as RenderThread-animation rows of the aNavMode sample) and
 * GpuCompleted = FrameCompleted = V + 40 ms: late 53 ms, length from the deadline, 53 ms.
 */
TEST(janky_length_own_time)
{
	struct gfxstat_metrics *m = gfxstat_metrics_new(NULL);
	const struct gfxstat_layer_metrics *l;
	struct gfxstat_frame f;
	const int64_t P = 16666667, T = 2000000000LL + 16666667, V = 5000000000LL;
	int i;

	gfxstat_frame_init(&f, GFXSTAT_SRC_FRAMETIMELINE);
	f.layer.p = "FT#0";
	f.layer.n = 4;
	f.vsync_period_ns = P;
	for (i = -1; i <= 1; i++) {
		int64_t t = T + i * P;

		f.present_ns = t;
		f.janky = i == 0;
		f.expected_start_ns = t - (i ? 2 : 3) * P;
		f.expected_end_ns = t - (i ? 1 : 2) * P;
		f.actual_start_ns = i ? t - 2 * P : t - P;
		f.actual_end_ns = i ? t - P : t - 1000000;
		f.duration_ns = f.actual_end_ns - f.actual_start_ns;
		CHECK_EQ(gfxstat_metrics_frame(m, &f), 0);
	}
	gfxstat_frame_init(&f, GFXSTAT_SRC_GFXINFO);
	f.layer.p = "G#0";
	f.layer.n = 3;
	f.vsync_period_ns = P;
	for (i = 0; i < 3; i++) {
		int64_t v = V + i * 100000000LL;

		f.present_ns = v + 90000000;
		f.janky = i > 0;
		f.fi[GFXSTAT_FI_FLAGS] = i == 2 ? 2 : 0;
		f.fi[GFXSTAT_FI_INTENDED_VSYNC] = v;
		f.fi[GFXSTAT_FI_FRAME_DEADLINE] = i == 2 ? v - 13000000 : v + 20000000;
		f.fi[GFXSTAT_FI_SYNC_QUEUED] = v + 5000000;
		f.fi[GFXSTAT_FI_SYNC_START] = i == 1 ? v + 65000000 : v + 6000000;
		f.fi[GFXSTAT_FI_FRAME_COMPLETED] = i == 1 ? v + 75000000 : i ? v + 40000000
									       : v + 10000000;
		f.fi[GFXSTAT_FI_GPU_COMPLETED] =
			i == 1 ? v + 78000000 : f.fi[GFXSTAT_FI_FRAME_COMPLETED];
		f.duration_ns = 1; /* a counted row (the input's totalDuration, not used here) */
		CHECK_EQ(gfxstat_metrics_frame(m, &f), 0);
	}
	CHECK_EQ(gfxstat_metrics_finish(m), 0);
	l = gfxstat_metrics_get(m, 0);
	CHECK_EQ(l->njanky_list, 1);
	if (l->njanky_list == 1) {
		CHECK_EQ(l->janky_list[0].length_ns, 3 * P - 1000000);
		CHECK_EQ(l->janky_list[0].late_ns, 2 * P - 1000000);
	}
	l = gfxstat_metrics_get(m, 1);
	CHECK_EQ(l->njanky_list, 2);
	if (l->njanky_list == 2) {
		CHECK_EQ(l->janky_list[0].length_ns, 78000000);
		CHECK_EQ(l->janky_list[0].late_ns, 58000000);
		CHECK_EQ(l->janky_list[1].length_ns, 53000000);
		CHECK_EQ(l->janky_list[1].late_ns, 53000000);
	}
	gfxstat_metrics_free(m);
}

/*
 * A janky frame with no interval before it is listed at its own refresh period. A stream of
 * one frame (the first segment of compare's resampling on api32_startup_warm): the janky
 * list read the period of a second frame there is none of -- past the end of the app
 * stream's exact-size array (ASan, valgrind), uninitialised in the layer's. Two frames at
 * 60 then 120 Hz, the first janky: its cadence is its own 16.67 ms, not the next frame's.
 */
TEST(janky_first_frame_period)
{
	struct gfxstat_metrics *m = gfxstat_metrics_new(NULL);
	const struct gfxstat_layer_metrics *l;
	struct gfxstat_frame f;
	size_t i;

	gfxstat_frame_init(&f, GFXSTAT_SRC_FRAMETIMELINE);
	f.layer.p = "L#0";
	f.layer.n = 3;
	f.app.p = "com.example";
	f.app.n = 11;
	f.vsync_period_ns = 8333333;
	f.present_ns = 1000000000LL;
	f.janky = 1;
	CHECK_EQ(gfxstat_metrics_frame(m, &f), 0);
	CHECK_EQ(gfxstat_metrics_finish(m), 0);
	CHECK_EQ(gfxstat_metrics_count(m), 2); /* the layer and its app */
	for (i = 0; i < gfxstat_metrics_count(m); i++) {
		l = gfxstat_metrics_get(m, i);
		CHECK_EQ(l->njanky_list, 1);
		if (l->njanky_list == 1)
			CHECK_EQ(l->janky_list[0].cadence_ns, 8333333);
	}
	gfxstat_metrics_free(m);

	m = gfxstat_metrics_new(NULL);
	f.vsync_period_ns = 16666667;
	CHECK_EQ(gfxstat_metrics_frame(m, &f), 0);
	f.vsync_period_ns = 8333333;
	f.present_ns += 16666667;
	f.janky = 0;
	CHECK_EQ(gfxstat_metrics_frame(m, &f), 0);
	CHECK_EQ(gfxstat_metrics_finish(m), 0);
	l = gfxstat_metrics_get(m, 0);
	CHECK_EQ(l->njanky_list, 1);
	if (l->njanky_list == 1)
		CHECK_EQ(l->janky_list[0].cadence_ns, 16666667);
	gfxstat_metrics_free(m);
}

/*
 * A frame 20 years after the others (a damaged time the model still takes) made a per-second
 * series of 631 million empty windows: 5 GB, and analyze ran out of memory on a 200-byte
 * input, then read layers that were never computed. The series of a layer stops at 131072
 * windows, those of all layers at 4194304: 40 such layers, the first 32 full, the rest none.
 */
TEST(windows_bounded)
{
	struct gfxstat_metrics *m = gfxstat_metrics_new(NULL);
	const struct gfxstat_layer_metrics *l;
	struct gfxstat_frame f;
	char name[16];
	uint64_t total = 0;
	size_t i;
	int k;

	gfxstat_frame_init(&f, GFXSTAT_SRC_FTRACE);
	f.vsync_period_ns = 16666667;
	for (k = 0; k < 40; k++) {
		f.layer.n = (size_t)snprintf(name, sizeof(name), "L#%d", k);
		f.layer.p = name;
		f.present_ns = 1000000000LL;
		CHECK_EQ(gfxstat_metrics_frame(m, &f), 0);
		f.present_ns += 20LL * 365 * 86400 * GFXSTAT_NSEC_PER_SEC;
		CHECK_EQ(gfxstat_metrics_frame(m, &f), 0);
	}
	CHECK_EQ(gfxstat_metrics_finish(m), 0);
	CHECK_EQ(gfxstat_metrics_count(m), 40);
	for (i = 0; i < gfxstat_metrics_count(m); i++) {
		l = gfxstat_metrics_get(m, i);
		CHECK(l->nwindows <= 131072);
		total += l->nwindows;
	}
	CHECK_EQ(gfxstat_metrics_get(m, 0)->nwindows, 131072);
	CHECK_EQ(gfxstat_metrics_get(m, 39)->nwindows, 0);
	CHECK_EQ(total, 4194304);
	gfxstat_metrics_free(m);
}

/* Feed app-side frames (no period) whose intervals are @iv_ns; layer 0. */
static const struct gfxstat_layer_metrics *run_src(struct gfxstat_metrics **mp,
						   enum gfxstat_frame_source src,
						   const int64_t *iv_ns, size_t n)
{
	struct gfxstat_metrics *m = gfxstat_metrics_new(NULL);
	struct gfxstat_frame f;
	int64_t t = 1000000000000LL;
	size_t i;

	gfxstat_frame_init(&f, src);
	f.layer.p = "L#0";
	f.layer.n = 3;
	for (i = 0; i <= n; i++) {
		if (i)
			t += iv_ns[i - 1];
		f.present_ns = t;
		gfxstat_metrics_frame(m, &f);
	}
	gfxstat_metrics_finish(m);
	*mp = m;
	return gfxstat_metrics_get(m, 0);
}

/*
 * No period from the frames, intervals shorter than a vsync. App-side (the catapult trace's
 * shape): 13 intervals, 3 of 7.2 ms (a doFrame right after a late one) and 10 of 18 ms.
 * The interval estimate (10th percentile 7.2 ms) would say 139 Hz; app-side frames take
 * the 60 Hz default instead, marked assumed: 16666667 ns, cadence 1 vsync, and no 18 ms
 * frame is slow (18 <= 1.5 x 16.67 = 25 ms). SurfaceFlinger-marker frames at 5 ms steps
 * (back-to-back presents): the estimate, 5 ms, is under 6.9 ms, so the default again;
 * at 8.333 ms (120 Hz) the estimate stands, not assumed.
 */
TEST(period_not_under_a_vsync)
{
	int64_t iv[13];
	size_t i;
	struct gfxstat_metrics *m;
	const struct gfxstat_layer_metrics *l;

	for (i = 0; i < 13; i++)
		iv[i] = i % 4 == 1 ? 7200000 : 18000000;
	l = run_src(&m, GFXSTAT_SRC_APP, iv, 13);
	CHECK_EQ(l->period_ns, 16666667);
	CHECK_EQ(l->period_assumed, 1);
	CHECK_EQ(l->cadence_vsyncs, 1);
	CHECK_EQ(l->slow_frames, 0);
	gfxstat_metrics_free(m);
	for (i = 0; i < 13; i++)
		iv[i] = 5000000;
	l = run_src(&m, GFXSTAT_SRC_FTRACE, iv, 13);
	CHECK_EQ(l->period_ns, 16666667);
	CHECK_EQ(l->period_assumed, 1);
	gfxstat_metrics_free(m);
	for (i = 0; i < 13; i++)
		iv[i] = 8333333;
	l = run_src(&m, GFXSTAT_SRC_FTRACE, iv, 13);
	CHECK_EQ(l->period_ns, 8333333);
	CHECK_EQ(l->period_assumed, 0);
	gfxstat_metrics_free(m);
}

/*
 * 65536 layers fit; frames of layers past them are left out and counted: 65540 layers of 2
 * frames each leave out 4 layers, 8 frames (the 65537th..65540th layers' names). Before, the
 * frames vanished with no count (and the limit was 4096, which a long trace can pass).
 */
TEST(streams_dropped_counted)
{
	struct gfxstat_metrics *m = gfxstat_metrics_new(NULL);
	struct gfxstat_frame f;
	char name[32];
	uint64_t frames = 0;
	int i, k;

	gfxstat_frame_init(&f, GFXSTAT_SRC_FTRACE);
	f.vsync_period_ns = 16666667;
	for (i = 0; i < 65540; i++)
		for (k = 0; k < 2; k++) {
			f.layer.n = (size_t)snprintf(name, sizeof(name), "L#%d", i);
			f.layer.p = name;
			f.present_ns = 1000000000LL + k * 16666667LL;
			CHECK_EQ(gfxstat_metrics_frame(m, &f), 0);
		}
	CHECK_EQ(gfxstat_metrics_finish(m), 0);
	CHECK_EQ(gfxstat_metrics_count(m), 65536);
	CHECK_EQ(gfxstat_metrics_dropped(m, &frames), 4);
	CHECK_EQ(frames, 8);
	gfxstat_metrics_free(m);
}

TEST_SUITE(test_metrics)
{
	RUN(janky_length_not_idle_gap);
	RUN(janky_length_own_time);
	RUN(janky_first_frame_period);
	RUN(windows_bounded);
	RUN(period_not_under_a_vsync);
	RUN(streams_dropped_counted);
	RUN(cadence_steady_30);
	RUN(cadence_drop_is_janky);
	RUN(cadence_hysteresis);
	RUN(idle_gap_not_janky);
	RUN(long_doframe_janky);
	RUN(macrobenchmark);
	RUN(untimed_frames);
	RUN(rates_per_10min);
	RUN(taobao_worked_example);
	RUN(perfdog);
	RUN(percentiles_waits_score);
	RUN(frozen);
	RUN(scrolls);
	RUN(windows);
}
