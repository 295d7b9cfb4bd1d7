/* SPDX-License-Identifier: MIT */
/* The seed's windows over model frames: what is skipped, D per frame period, the clock. */
#include <stdlib.h>

#include "check.h"
#include "gfxstat/gfxstat.h"

#define MS 1000000LL

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

static struct gfxstat_gfx_model *start(struct rows *r, struct gfxstat_gfx_opts *o)
{
	struct gfxstat_gfx_sink sink = { add_window, add_drop, r };

	memset(r, 0, sizeof(*r));
	return gfxstat_gfx_model_new(o, &sink);
}

static int frame(struct gfxstat_gfx_model *g, enum gfxstat_frame_source src, const char *layer,
		 const char *app, int64_t present, int64_t period)
{
	struct gfxstat_frame f;

	gfxstat_frame_init(&f, src);
	f.layer.p = layer;
	f.layer.n = strlen(layer);
	f.app.p = app;
	f.app.n = strlen(app);
	f.present_ns = present;
	f.vsync_period_ns = period;
	return gfxstat_gfx_model_frame(g, &f);
}

TEST(skipped_frames)
{
	struct gfxstat_gfx_opts o;
	struct rows r;
	struct gfxstat_gfx_model *g;
	const struct gfxstat_gfx_model_stats *st;

	gfxstat_gfx_opts_init(&o);
	o.frames = 0;
	g = start(&r, &o);
	/* display refreshes in both spellings, a frame without a present, then a layer at
	 * 1.000, 1.016667 and 1.010 (before its previous present: skipped) */
	frame(g, GFXSTAT_SRC_FTRACE_DISPLAY, "(display)", "", 1000 * MS, 16666667);
	frame(g, GFXSTAT_SRC_FRAMETIMELINE_DISPLAY, "", "", 1000 * MS, 16666667);
	frame(g, GFXSTAT_SRC_FTRACE, "L#0", "com.x", GFXSTAT_NS_NONE, 16666667);
	frame(g, GFXSTAT_SRC_FTRACE, "L#0", "com.x", 1000 * MS, 16666667);
	frame(g, GFXSTAT_SRC_FTRACE, "L#0", "com.x", 1016666667, 16666667);
	frame(g, GFXSTAT_SRC_FTRACE, "L#0", "com.x", 1010 * MS, 16666667);
	CHECK_EQ(gfxstat_gfx_model_finish(g), 0);
	st = gfxstat_gfx_model_stats(g);
	CHECK_EQ(st->frames, 6);
	CHECK_EQ(st->display, 2);
	CHECK_EQ(st->no_present, 1);
	CHECK_EQ(st->out_of_order, 1);
	CHECK_EQ(st->used, 2);
	/* one interval of 16.666667 ms: FPS 60.0 -> 60, score 100; times exact to the ns */
	CHECK_CSTR(r.fps, "1.000000,1.016666667,60,1,0.017,16.6667,0,0,0,0,0,0,100,0,com.x,"
			  "\"L#0\"\n");
	gfxstat_gfx_model_free(g);
}

TEST(d_by_frame_period)
{
	struct gfxstat_gfx_opts o;
	struct rows r;
	struct gfxstat_gfx_model *g;

	gfxstat_gfx_opts_init(&o);
	o.frames = 0;
	o.type = 2;
	g = start(&r, &o);
	/* the same 16 ms intervals: on time at 60 Hz (16.667 ms period), a missed vsync at
	 * 120 Hz (16 > 1.5 * 8.333 = 12.5); a 30 ms interval misses one at 60 Hz (> 25) */
	frame(g, GFXSTAT_SRC_GFXINFO, "a", "", 100 * MS, 16666667);
	frame(g, GFXSTAT_SRC_GFXINFO, "a", "", 116 * MS, 16666667);
	frame(g, GFXSTAT_SRC_GFXINFO, "a", "", 146 * MS, 16666667);
	frame(g, GFXSTAT_SRC_GFXINFO, "b", "", 100 * MS, 8333333);
	frame(g, GFXSTAT_SRC_GFXINFO, "b", "", 116 * MS, 8333333);
	gfxstat_gfx_model_finish(g);
	CHECK_CSTR(r.drop, "0.116000,0.146000,30,gfxinfo,0,,\"a\",\"\"\n"
			   "0.100000,0.116000,16,gfxinfo,0,,\"b\",\"\"\n");
	/* a: 2 intervals of 46 ms -> 43.478 -> "43.5", C = 0 (both < 42), D = 1 */
	CHECK(strstr(r.fps, ",0.046,30,0,0,0,0,0,1,") != NULL);
	gfxstat_gfx_model_free(g);

	/* no period on the frame: --vsync-period decides (8 ms: 16 > 12 is a missed vsync) */
	o.period_ns = 8 * MS;
	g = start(&r, &o);
	frame(g, GFXSTAT_SRC_SF_LATENCY, "c", "", 100 * MS, GFXSTAT_NS_NONE);
	frame(g, GFXSTAT_SRC_SF_LATENCY, "c", "", 116 * MS, GFXSTAT_NS_NONE);
	gfxstat_gfx_model_finish(g);
	CHECK_EQ(gfxstat_gfx_model_stats(g)->period_fallback, 2);
	CHECK_EQ(gfxstat_gfx_model_stats(g)->drops, 1);
	gfxstat_gfx_model_free(g);
}

TEST(window_clock)
{
	struct gfxstat_gfx_opts o;
	struct rows r;
	struct gfxstat_gfx_model *g;
	int i;

	gfxstat_gfx_opts_init(&o);
	o.frames = 0;
	g = start(&r, &o);
	/* window "a" from 10 s to 11.5 s every 100 ms: the check at 11.0 s flushes 10 frames */
	for (i = 0; i <= 15; i++)
		frame(g, GFXSTAT_SRC_GFXINFO, "a", "", 10000 * MS + i * 100 * MS, 16666667);
	/* then window "b" of the same dump, from 9.8 s: time went back, the clock restarts
	 * at 9.8 s, so "b" closes at 10.8 s (and "a"'s last 5 frames with it) */
	for (i = 0; i <= 12; i++)
		frame(g, GFXSTAT_SRC_GFXINFO, "b", "", 9800 * MS + i * 100 * MS, 16666667);
	gfxstat_gfx_model_finish(g);
	/* every interval is 100 ms: A (>= 100) and D; FPS 10, h = 1 (max = KPI), score
	 * 10 + 20 + 0 + 7 + 3 = 40 */
	CHECK_CSTR(r.fps, "10.000000,11.000000,10,10,1,100,0,0,10,0,0,10,40,0,,\"a\"\n"
			  "11.000000,11.500000,10,5,0.5,100,0,0,5,0,0,5,40,0,,\"a\"\n"
			  "9.800000,10.800000,10,10,1,100,0,0,10,0,0,10,40,0,,\"b\"\n"
			  "10.800000,11.000000,10,2,0.2,100,0,0,2,0,0,2,40,0,,\"b\"\n");
	gfxstat_gfx_model_free(g);
}

TEST_SUITE(test_gfx_model)
{
	RUN(skipped_frames);
	RUN(d_by_frame_period);
	RUN(window_clock);
}
