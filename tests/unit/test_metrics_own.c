/* SPDX-License-Identifier: MIT */
/*
 * One name, one definition; the source's own summary; the label of a FrameTimeline frame
 * (issue "decisions and numbers that hold on every input"). Expected values derived by hand
 * next to each case.
 */
#include <math.h>

#include "check.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_perfetto.h"

#define P 16666667LL /* 60 Hz */

/*
 * A steady 30 FPS layer at 60 Hz (cadence 2 vsyncs, C = 33333334 ns), input on its first
 * frame: one scroll over its 20 frames (no gap of 200 ms). Interval 10 is 66666668 ns, a
 * missed slot: it loses 66666668 - 33333334 = 33333334 ns; the others lose nothing (t = C).
 * Active time 18 x 33333334 + 66666668 = 666666680 ns: hitch 33.333334 / 0.66666668 =
 * 50.0 ms/s, for the layer and for its one scroll, which spans every interval. (The scroll's
 * old definition, sum of t - P over its span, gave (18 x 16666667 + 50000001) / 0.66666668 =
 * 525 ms/s under the same name.)
 */
TEST(scroll_hitch_is_layer_hitch)
{
	struct gfxstat_metrics *m = gfxstat_metrics_new(NULL);
	const struct gfxstat_layer_metrics *l;
	struct gfxstat_frame f;
	int64_t t = 5000000000LL;
	int i;

	gfxstat_frame_init(&f, GFXSTAT_SRC_FTRACE);
	f.layer.p = "L#0";
	f.layer.n = 3;
	f.vsync_period_ns = P;
	for (i = 0; i < 20; i++) {
		if (i)
			t += i == 11 ? 4 * P : 2 * P;
		f.present_ns = t;
		f.input = i == 0;
		CHECK_EQ(gfxstat_metrics_frame(m, &f), 0);
	}
	CHECK_EQ(gfxstat_metrics_finish(m), 0);
	l = gfxstat_metrics_get(m, 0);
	CHECK_EQ(l->cadence_vsyncs, 2);
	CHECK(fabs(l->hitch_ms_per_s - 33.333334 / 0.66666668) < 1e-6);
	CHECK_EQ(l->nscrolls, 1);
	if (l->nscrolls == 1)
		CHECK(fabs(l->scrolls[0].hitch_ms_per_s - l->hitch_ms_per_s) < 1e-9);
	gfxstat_metrics_free(m);
}

/*
 * The source's own summary by name: a window's on its layer, a process's on its app, the
 * later of two for one name wins, an unknown name is kept by nobody, and a layer without one
 * says -1.
 */
TEST(own_summary)
{
	struct gfxstat_metrics *m = gfxstat_metrics_new(NULL);
	struct gfxstat_frame f;
	size_t k, n;
	int i, seen = 0;

	gfxstat_frame_init(&f, GFXSTAT_SRC_GFXINFO);
	f.app.p = "com.a";
	f.app.n = 5;
	for (i = 0; i < 6; i++) {
		f.layer.p = i < 3 ? "com.a/Main" : "com.a/Popup";
		f.layer.n = i < 3 ? 10 : 11;
		f.present_ns = 1000000000LL + (i % 3) * P;
		f.duration_ns = 5000000;
		f.janky = 0;
		CHECK_EQ(gfxstat_metrics_frame(m, &f), 0);
	}
	CHECK_EQ(gfxstat_metrics_own_summary(m, "com.a", 1, 402, 262), 0);
	CHECK_EQ(gfxstat_metrics_own_summary(m, "com.a/Main", 0, 100, 5), 0);
	CHECK_EQ(gfxstat_metrics_own_summary(m, "com.a/Main", 0, 120, 6), 0);
	CHECK_EQ(gfxstat_metrics_own_summary(m, "com.b/Other", 0, 1, 1), 0);
	CHECK_EQ(gfxstat_metrics_finish(m), 0);
	n = gfxstat_metrics_count(m);
	for (k = 0; k < n; k++) {
		const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(m, k);

		if (l->is_app) {
			CHECK_EQ(l->own_total, 402);
			CHECK_EQ(l->own_janky, 262);
			seen |= 1;
		} else if (!strcmp(l->name, "com.a/Main")) {
			CHECK_EQ(l->own_total, 120);
			CHECK_EQ(l->own_janky, 6);
			seen |= 2;
		} else {
			CHECK_EQ(l->own_total, -1);
			CHECK_EQ(l->own_janky, -1);
			seen |= 4;
		}
	}
	CHECK_EQ(seen, 7);
	gfxstat_metrics_free(m);
}

/*
 * A FrameTimeline surface frame is janky by App Deadline Missed, App Resynced Jitter or
 * Unknown Jank (trace_processor's rule, FORMATS.md 6.3): one with SurfaceFlinger Scheduling
 * (0x2) and App Deadline Missed (0x40) is janky for the latter, so that is its label, not
 * its lowest bit. A display frame with the same bits is janky for SurfaceFlinger Scheduling.
 */
TEST(frametimeline_label)
{
	struct gfxstat_frame f;
	char buf[256];

	gfxstat_frame_init(&f, GFXSTAT_SRC_FRAMETIMELINE);
	f.layer.p = "com.a/Main#0";
	f.layer.n = 12;
	f.jank_type = GFXSTAT_JANK_SF_SCHEDULING | GFXSTAT_JANK_APP_DEADLINE_MISSED;
	f.janky = 1;
	f.present_ns = 1000000000LL;
	gfxstat_causes_explain(NULL, &f, GFXSTAT_NS_NONE, buf, sizeof(buf));
	CHECK_CSTR(buf, "FrameTimeline: App Deadline Missed");
	/* Buffer Stuffing alone makes no jank: it labels only a frame with nothing else */
	f.jank_type = GFXSTAT_JANK_BUFFER_STUFFING | GFXSTAT_JANK_UNKNOWN;
	gfxstat_causes_explain(NULL, &f, GFXSTAT_NS_NONE, buf, sizeof(buf));
	CHECK_CSTR(buf, "FrameTimeline: Unknown Jank");
	gfxstat_frame_init(&f, GFXSTAT_SRC_FRAMETIMELINE_DISPLAY);
	f.jank_type = GFXSTAT_JANK_SF_SCHEDULING | GFXSTAT_JANK_APP_DEADLINE_MISSED;
	f.janky = 1;
	f.present_ns = 1000000000LL;
	gfxstat_causes_explain(NULL, &f, GFXSTAT_NS_NONE, buf, sizeof(buf));
	CHECK_CSTR(buf, "FrameTimeline display frame (SurfaceFlinger): SurfaceFlinger Scheduling");
}

TEST_SUITE(test_metrics_own)
{
	RUN(scroll_hitch_is_layer_hitch);
	RUN(own_summary);
	RUN(frametimeline_label);
}
