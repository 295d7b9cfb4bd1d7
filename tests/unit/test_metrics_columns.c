/* SPDX-License-Identifier: MIT */
/*
 * The metrics keep each frame's optional times whole, whatever their size (they once held them
 * as narrow as the values allowed, 4 bytes while each fit an int32; an app start as present -
 * start, or as is when a time is negative): a value past an int32, coming after frames within
 * one, must read back exactly, and so must the frames before it. Expected values derived by
 * hand next to each case.
 */
#include <math.h>

#include "check.h"
#include "gfxstat/gfxstat.h"

#define P 16666667LL /* 60 Hz */

/* Four FrameTimeline frames of layer L#0, one every P from 10 s, frame i late by @late[i]
 * past its deadline (one P before its present); janky from frame @first_janky on. */
static void late_frames(struct gfxstat_metrics *m, const int64_t late[4], int first_janky)
{
	struct gfxstat_frame f;
	int i;

	for (i = 0; i < 4; i++) {
		gfxstat_frame_init(&f, GFXSTAT_SRC_FRAMETIMELINE);
		f.layer.p = "L#0";
		f.layer.n = 3;
		f.vsync_period_ns = P;
		f.present_ns = 10000000000LL + i * P;
		f.expected_end_ns = f.present_ns - P;
		f.actual_end_ns = f.expected_end_ns + late[i];
		f.janky = i >= first_janky;
		CHECK_EQ(gfxstat_metrics_frame(m, &f), 0);
	}
	CHECK_EQ(gfxstat_metrics_finish(m), 0);
}

/*
 * Four FrameTimeline frames, one every P from 10 s, each with its own deadline (expected end)
 * and actual end. Frame 0 ends on time (verdict 0); frames 1-3 are janky (verdict 1) and
 * late by their actual end - expected end: 5 ms (fits an int32), 3 s (3000000000 > INT32_MAX
 * = 2147483647: the column widens here) and 1 ms. janky_list holds frames 1, 2, 3 with those
 * late_ns: 5000000, 3000000000, 1000000 -- frame 1's read back from the widened column.
 */
TEST(late_past_int32)
{
	static const int64_t late[4] = { -2000000, 5000000, 3000000000LL, 1000000 };
	struct gfxstat_metrics *m = gfxstat_metrics_new(NULL);
	const struct gfxstat_layer_metrics *l;

	late_frames(m, late, 1);
	l = gfxstat_metrics_get(m, 0);
	CHECK_EQ(l->njanky_list, 3);
	if (l->njanky_list == 3) {
		CHECK_EQ(l->janky_list[0].late_ns, 5000000);
		CHECK_EQ(l->janky_list[1].late_ns, 3000000000LL);
		CHECK_EQ(l->janky_list[2].late_ns, 1000000);
		CHECK_EQ(l->janky_list[1].index, 2);
	}
	gfxstat_metrics_free(m);
}

/*
 * A column whose values are all one is kept as that value alone, until one differs: then the
 * frames before it must read back as that value. Four FrameTimeline frames as above, all
 * janky, late by 5 ms, 5 ms, 3 s (past INT32_MAX: the column goes from one value straight to
 * 8 bytes) and 5 ms: janky_list holds frames 0-3 with late_ns 5000000, 5000000, 3000000000,
 * 5000000 (frames 0 and 1 from the one value, written into the widened column).
 */
TEST(one_value_then_wide)
{
	static const int64_t late[4] = { 5000000, 5000000, 3000000000LL, 5000000 };
	struct gfxstat_metrics *m = gfxstat_metrics_new(NULL);
	const struct gfxstat_layer_metrics *l;
	int i;

	late_frames(m, late, 0);
	l = gfxstat_metrics_get(m, 0);
	CHECK_EQ(l->njanky_list, 4);
	if (l->njanky_list == 4)
		for (i = 0; i < 4; i++)
			CHECK_EQ(l->janky_list[i].late_ns, late[i]);
	gfxstat_metrics_free(m);
}

/*
 * A layer of SurfaceFlinger-marker frames, each with the start of its app work: 30 frames at
 * 60 Hz, each started 10 ms before its present, gaps of 3 P before frames 12 and 20; frame 12
 * began 10 ms before its present as usual (it was idle, not late: docs/metrics.md "Idle is
 * not jank"), frame 20 began 30 ms before (late by 30 - 10 = 20 ms, the median latency 10 ms:
 * of its 3 P - P = 33.3 ms past the cadence, 20 ms are hitch). Hitch 20 ms over an active
 * time of 27 P + 2 x 3 P = 33 P = 550000011 ns: 20 / 0.550000011 = 36.3636357 ms/s.
 * Moving every time by a constant changes no interval, so every figure must be the same
 * when the times are 1 s later (every start after 0: kept as present - start) and when they
 * are ~0.1 s earlier, from 0 (the first starts before 0: every start kept as is).
 */
static void start_layer(struct gfxstat_metrics *m, int64_t t0)
{
	struct gfxstat_frame f;
	int64_t t = t0;
	int i;

	gfxstat_frame_init(&f, GFXSTAT_SRC_FTRACE);
	f.layer.p = "L#0";
	f.layer.n = 3;
	f.vsync_period_ns = P;
	for (i = 0; i < 30; i++) {
		if (i)
			t += i == 12 || i == 20 ? 3 * P : P;
		f.present_ns = t;
		f.actual_start_ns = t - (i == 20 ? 30000000 : 10000000);
		CHECK_EQ(gfxstat_metrics_frame(m, &f), 0);
	}
	CHECK_EQ(gfxstat_metrics_finish(m), 0);
}

TEST(start_before_zero)
{
	struct gfxstat_metrics *a = gfxstat_metrics_new(NULL), *b = gfxstat_metrics_new(NULL);
	const struct gfxstat_layer_metrics *x, *y;

	start_layer(a, 1000000000LL);
	start_layer(b, 0); /* frame 0's start is -10 ms */
	x = gfxstat_metrics_get(a, 0);
	y = gfxstat_metrics_get(b, 0);
	CHECK_EQ(x->frames, 30);
	CHECK_EQ(y->frames, 30);
	CHECK_EQ(x->njanky_list, y->njanky_list);
	CHECK(fabs(x->hitch_ms_per_s - y->hitch_ms_per_s) < 1e-9);
	CHECK(fabs(x->fps - y->fps) < 1e-9);
	CHECK(fabs(x->hitch_ms_per_s - 20.0 / 0.550000011) < 1e-6);
	gfxstat_metrics_free(a);
	gfxstat_metrics_free(b);
}

TEST_SUITE(test_metrics_columns)
{
	RUN(late_past_int32);
	RUN(one_value_then_wide);
	RUN(start_before_zero);
}
