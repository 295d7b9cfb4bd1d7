/* SPDX-License-Identifier: MIT */
/* The model stage: identity, apps, FrameTimeline over markers, order, overlap. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "gfxstat/gfxstat_model.h"

#define MAXF 32
#define P 16666667LL

struct got {
	int n;
	char layer[MAXF][64], app[MAXF][64];
	int64_t present[MAXF], interval[MAXF], period[MAXF];
	enum gfxstat_frame_source source[MAXF];
};

static int collect(void *user, const struct gfxstat_frame *f)
{
	struct got *g = user;

	if (g->n == MAXF)
		return 1;
	snprintf(g->layer[g->n], 64, "%.*s", (int)f->layer.n, f->layer.p);
	snprintf(g->app[g->n], 64, "%.*s", (int)f->app.n, f->app.p);
	g->present[g->n] = f->present_ns;
	g->interval[g->n] = f->interval_ns;
	g->period[g->n] = f->vsync_period_ns;
	g->source[g->n] = f->source;
	g->n++;
	return 0;
}

/* a model that collects into @g, emptied first */
static struct gfxstat_model *model_into(struct got *g)
{
	struct gfxstat_model *m;

	memset(g, 0, sizeof(*g));
	m = gfxstat_model_new(collect, g);
	CHECK(m != NULL);
	return m;
}

static struct gfxstat_str S(const char *s)
{
	struct gfxstat_str r = { s, strlen(s) };

	return r;
}

static void frame(struct gfxstat_model *m, enum gfxstat_frame_source src, const char *layer,
		  int32_t pid, int64_t present, int64_t token, int64_t display_token)
{
	struct gfxstat_frame f;

	gfxstat_frame_init(&f, src);
	f.layer = S(layer);
	f.pid = pid;
	f.present_ns = present;
	f.token = token;
	f.display_token = display_token;
	if (src == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY)
		f.vsync_period_ns = P;
	CHECK_EQ(gfxstat_model_frame(m, &f), 0);
}

TEST(canonical)
{
	struct gfxstat_str s = gfxstat_layer_canonical("TX - com.a/com.a.M#12", 21);

	CHECK_STR(s, "com.a/com.a.M#12");
	s = gfxstat_layer_canonical("BufferTX - X#1", 14);
	CHECK_STR(s, "X#1");
	s = gfxstat_layer_canonical("TX - ", 5); /* nothing after the prefix: left as it is */
	CHECK_STR(s, "TX - ");
}

/*
 * A Perfetto trace: display frames 100 and 101 presented at 1.000 s and 1.0167 s; the app's
 * surface frames (debug names "TX - ...") end early (acquire) but present with their display
 * frame; the markers found the same two buffers ~4 ms off and one more that FrameTimeline
 * does not have. FrameTimeline's frames are listed, at the display presents, with the app
 * of pid 42 from the process table; all three marker frames are compared, two agree.
 */
TEST(frametimeline_over_markers)
{
	struct got g;
	struct gfxstat_model *m;

	m = model_into(&g);
	CHECK_EQ(gfxstat_model_process(m, 42, S("com.app.x")), 0);
	gfxstat_model_input_begin(m, 1, "perfetto");
	frame(m, GFXSTAT_SRC_FTRACE, "Win#7", -1, 1004000000, -1, -1);
	frame(m, GFXSTAT_SRC_FTRACE, "Win#7", -1, 1020666667, -1, -1);
	frame(m, GFXSTAT_SRC_FTRACE, "Win#7", -1, 1100000000, -1, -1);
	frame(m, GFXSTAT_SRC_FRAMETIMELINE, "TX - Win#7", 42, 990000000, 7, 100);
	frame(m, GFXSTAT_SRC_FRAMETIMELINE, "TX - Win#7", 42, 1008000000, 8, 101);
	frame(m, GFXSTAT_SRC_FRAMETIMELINE_DISPLAY, "", 5, 1000000000, 100, 100);
	frame(m, GFXSTAT_SRC_FRAMETIMELINE_DISPLAY, "", 5, 1016666667, 101, 101);
	CHECK_EQ(g.n, 0); /* held until the end of the input */
	CHECK_EQ(gfxstat_model_input_end(m), 0);
	CHECK_EQ(g.n, 4);
	/* in present order; equal presents keep arrival order (surface before display) */
	CHECK_CSTR(g.layer[0], "Win#7");
	CHECK_EQ(g.present[0], 1000000000);
	CHECK_CSTR(g.app[0], "com.app.x");
	CHECK_EQ(g.period[0], P); /* from its display frame */
	CHECK_CSTR(g.layer[1], "(display)");
	CHECK_EQ(g.present[2], 1016666667);
	CHECK_EQ(g.interval[2], 16666667);
	CHECK_EQ(g.source[2], GFXSTAT_SRC_FRAMETIMELINE);
	CHECK_EQ(gfxstat_model_stats(m)->v[GFXSTAT_MODEL_markers_compared], 3);
	/* 1.004 vs 1.000 and 1.0207 vs 1.0167 are within a vsync; 1.100 is 83 ms from 1.0167 */
	CHECK_EQ(gfxstat_model_stats(m)->v[GFXSTAT_MODEL_markers_agree], 2);
	CHECK_EQ(gfxstat_model_layer_count(m), 2);
	CHECK_EQ(gfxstat_model_layer(m, 0)->frames, 2);
	CHECK_CSTR(gfxstat_model_layer(m, 0)->app, "com.app.x");
	gfxstat_model_free(m);
}

/*
 * Android 12+: a marker refresh that names its vsync id is matched to FrameTimeline by it,
 * whatever the presents: marker frame 7 (token 300) is 40 ms from FrameTimeline's frame of
 * token 300 and still agrees; marker frame 8 (token 301) has no FrameTimeline frame and does
 * not, though a FrameTimeline present lies within a vsync of it.
 */
TEST(markers_by_vsync_id)
{
	struct got g;
	struct gfxstat_model *m;

	m = model_into(&g);
	gfxstat_model_input_begin(m, 1, "perfetto");
	frame(m, GFXSTAT_SRC_FTRACE, "W#1", -1, 1040000000, -1, 300);
	frame(m, GFXSTAT_SRC_FTRACE, "W#1", -1, 1060000000, -1, 301);
	frame(m, GFXSTAT_SRC_FRAMETIMELINE, "TX - W#1", 9, 990000000, 5, 300);
	frame(m, GFXSTAT_SRC_FRAMETIMELINE, "TX - W#1", 9, 1050000000, 6, 302);
	frame(m, GFXSTAT_SRC_FRAMETIMELINE_DISPLAY, "", 5, 1000000000, 300, 300);
	frame(m, GFXSTAT_SRC_FRAMETIMELINE_DISPLAY, "", 5, 1066666667, 302, 302);
	CHECK_EQ(gfxstat_model_input_end(m), 0);
	CHECK_EQ(gfxstat_model_stats(m)->v[GFXSTAT_MODEL_markers_compared], 2);
	CHECK_EQ(gfxstat_model_stats(m)->v[GFXSTAT_MODEL_markers_by_token], 2);
	CHECK_EQ(gfxstat_model_stats(m)->v[GFXSTAT_MODEL_markers_agree], 1);
	CHECK_EQ(g.n, 4); /* FrameTimeline's two surface frames and two display frames */
	gfxstat_model_free(m);
}

/*
 * What keeps the model from letting a Perfetto frame out before the input's end (docs/perfetto.md
 * "Delivery order"), in the order the pipeline feeds it: the markers' frames while the trace is
 * read, FrameTimeline's at gfxstat_perfetto_finish() sorted by their own end (a surface frame
 * ends when its buffer is ready, before the present it is listed at), then what
 * gfxstat_sf_frames_finish() still held. Marker frame A#1 at 1 s is replaced because its layer's
 * only FrameTimeline frame, 8 s later, comes last; marker frame B#2 (no FrameTimeline frame in
 * its layer) comes after every FrameTimeline frame and still goes out in present order, with
 * the period in force at 2 s (display frame 100's). By hand, (present, arrival): display 100
 * (1.000 s, 1), B#2 (2.000 s, 4), surface A#1 at display 101's present (9.000 s, 2), display
 * 101 (9.000 s, 3); A#1's marker is compared and does not agree (8 s from 9.000 s).
 */
TEST(held_to_the_end)
{
	struct got g;
	struct gfxstat_model *m;

	m = model_into(&g);
	CHECK_EQ(gfxstat_model_process(m, 42, S("com.app.x")), 0);
	gfxstat_model_input_begin(m, 1, "perfetto");
	frame(m, GFXSTAT_SRC_FTRACE, "A#1", -1, 1000000000, -1, -1);
	frame(m, GFXSTAT_SRC_FRAMETIMELINE_DISPLAY, "", 5, 1000000000, 100, 100);
	frame(m, GFXSTAT_SRC_FRAMETIMELINE, "TX - A#1", 42, 8990000000, 7, 101);
	frame(m, GFXSTAT_SRC_FRAMETIMELINE_DISPLAY, "", 5, 9000000000, 101, 101);
	frame(m, GFXSTAT_SRC_FTRACE, "B#2", -1, 2000000000, -1, -1);
	CHECK_EQ(g.n, 0);
	CHECK_EQ(gfxstat_model_input_end(m), 0);
	CHECK_EQ(g.n, 4);
	CHECK_CSTR(g.layer[0], "(display)");
	CHECK_EQ(g.present[0], 1000000000);
	CHECK_CSTR(g.layer[1], "B#2");
	CHECK_EQ(g.source[1], GFXSTAT_SRC_FTRACE);
	CHECK_EQ(g.present[1], 2000000000);
	CHECK_EQ(g.period[1], P);
	CHECK_CSTR(g.layer[2], "A#1");
	CHECK_EQ(g.source[2], GFXSTAT_SRC_FRAMETIMELINE);
	CHECK_EQ(g.present[2], 9000000000);
	CHECK_CSTR(g.app[2], "com.app.x");
	CHECK_CSTR(g.layer[3], "(display)");
	CHECK_EQ(g.interval[3], 8000000000);
	CHECK_EQ(gfxstat_model_stats(m)->v[GFXSTAT_MODEL_markers_compared], 1);
	CHECK_EQ(gfxstat_model_stats(m)->v[GFXSTAT_MODEL_markers_replaced], 1);
	CHECK_EQ(gfxstat_model_stats(m)->v[GFXSTAT_MODEL_markers_agree], 0);
	gfxstat_model_free(m);
}

/* Streamed frames: a repeat or a step back is dropped and counted; intervals recomputed. */
TEST(strictly_increasing)
{
	struct got g;
	struct gfxstat_model *m;
	struct gfxstat_frame f;

	m = model_into(&g);
	gfxstat_model_input_begin(m, 0, "ftrace-text");
	frame(m, GFXSTAT_SRC_FTRACE, "com.b/com.b.A#0", -1, 1000 * P, -1, -1);
	frame(m, GFXSTAT_SRC_FTRACE, "com.b/com.b.A#0", -1, 1000 * P, -1, -1);
	frame(m, GFXSTAT_SRC_FTRACE, "com.b/com.b.A#0", -1, 999 * P, -1, -1);
	gfxstat_frame_init(&f, GFXSTAT_SRC_FTRACE);
	f.layer = S("com.b/com.b.A#0");
	f.present_ns = 1002 * P;
	f.interval_ns = 5; /* a producer's stale interval is not trusted */
	f.vsync_period_ns = P;
	CHECK_EQ(gfxstat_model_frame(m, &f), 0);
	CHECK_EQ(gfxstat_model_input_end(m), 0);
	CHECK_EQ(g.n, 2);
	CHECK_CSTR(g.app[0], "com.b"); /* from the layer name */
	CHECK_EQ(g.interval[0], GFXSTAT_NS_NONE);
	CHECK_EQ(g.interval[1], 2 * P);
	CHECK_EQ(gfxstat_model_stats(m)->v[GFXSTAT_MODEL_not_increasing], 2);
	gfxstat_model_free(m);
}

/* A second input inside the first one's span is refused; one that follows it is not. */
TEST(overlap)
{
	struct got g;
	struct gfxstat_model *m;
	int64_t end, at;

	m = model_into(&g);
	gfxstat_model_input_begin(m, 0, "ftrace-text");
	frame(m, GFXSTAT_SRC_FTRACE, "A#0", -1, 100 * P, -1, -1);
	frame(m, GFXSTAT_SRC_FTRACE, "A#0", -1, 200 * P, -1, -1);
	CHECK_EQ(gfxstat_model_input_end(m), 0);
	/* the seam: one vsync before the end is still the same recording */
	gfxstat_model_input_begin(m, 0, "ftrace-text");
	frame(m, GFXSTAT_SRC_FTRACE, "B#0", -1, 199 * P, -1, -1);
	CHECK_EQ(gfxstat_model_overlap(m, &end, &at), 0);
	CHECK_EQ(gfxstat_model_input_end(m), 0);
	/* another clock (gfxinfo) is not compared with trace time */
	gfxstat_model_input_begin(m, 0, "gfxinfo");
	frame(m, GFXSTAT_SRC_GFXINFO, "com.c/com.c.A", -1, 150 * P, -1, -1);
	CHECK_EQ(gfxstat_model_input_end(m), 0);
	gfxstat_model_input_begin(m, 0, "ftrace-text");
	{
		struct gfxstat_frame f;

		gfxstat_frame_init(&f, GFXSTAT_SRC_FTRACE);
		f.layer = S("A#0");
		f.present_ns = 150 * P;
		CHECK_EQ(gfxstat_model_frame(m, &f), GFXSTAT_E_OVERLAP);
	}
	CHECK_EQ(gfxstat_model_overlap(m, &end, &at), 1);
	CHECK_EQ(end, 200 * P);
	CHECK_EQ(at, 150 * P);
	CHECK_EQ(g.n, 4);
	gfxstat_model_free(m);
}

/* Two presents of a layer within one refresh: the second cannot have been shown. */
TEST(one_buffer_per_refresh)
{
	struct got g;
	struct gfxstat_model *m;
	struct gfxstat_frame f;
	int i;
	/* 0, +2 us (dropped: under 3/4 of 16.67 ms), +16.67 ms, +29 ms (12.3 ms after the
	 * previous kept one: 12.3 < 12.5 = 3/4 P, dropped), +33.3 ms; app-side frames keep
	 * even a 2 us interval */
	static const int64_t at[] = { 0, 2000, P, 29000000, 2 * P };

	m = model_into(&g);
	gfxstat_model_input_begin(m, 0, "ftrace-text");
	for (i = 0; i < 5; i++) {
		gfxstat_frame_init(&f, GFXSTAT_SRC_FTRACE);
		f.layer = S("L#1");
		f.present_ns = 1000000000 + at[i];
		f.vsync_period_ns = P;
		CHECK_EQ(gfxstat_model_frame(m, &f), 0);
	}
	for (i = 0; i < 2; i++) {
		gfxstat_frame_init(&f, GFXSTAT_SRC_APP);
		f.layer = S("app (app-side)");
		f.present_ns = 1000000000 + at[i];
		f.vsync_period_ns = P;
		CHECK_EQ(gfxstat_model_frame(m, &f), 0);
	}
	CHECK_EQ(gfxstat_model_input_end(m), 0);
	CHECK_EQ(g.n, 5);
	CHECK_EQ(g.interval[1], P);
	CHECK_EQ(g.interval[2], P);
	CHECK_EQ(g.interval[4], 2000);
	CHECK_EQ(gfxstat_model_stats(m)->v[GFXSTAT_MODEL_within_one_vsync], 2);
	gfxstat_model_free(m);
}

/*
 * Times no clock gives (a damaged --latency dump): the one-buffer-per-refresh test computed
 * (present - previous) * 4 and period * 3, which overflowed (UBSan) and dropped the wrong
 * frame. Presents -2^60 and +2^60 (in range, 2^61 apart: kept, the interval exact); then a
 * present near INT64_MAX, and a frame with a period of INT64_MAX - 1: refused as damage
 * (out_of_range), not counted as within one vsync.
 */
TEST(times_beyond_any_clock)
{
	struct got g;
	struct gfxstat_model *m;
	struct gfxstat_frame f;
	int i;
	static const struct {
		int64_t present, period;
	} fr[] = {
		{ -((int64_t)1 << 60), P },
		{ (int64_t)1 << 60, P },
		{ INT64_MAX - 1000, P },
		{ ((int64_t)1 << 60) + 1, INT64_MAX - 1 },
	};

	m = model_into(&g);
	gfxstat_model_input_begin(m, 0, "sf-latency");
	for (i = 0; i < 4; i++) {
		gfxstat_frame_init(&f, GFXSTAT_SRC_SF_LATENCY);
		f.layer = S("L#1");
		f.present_ns = fr[i].present;
		f.vsync_period_ns = fr[i].period;
		CHECK_EQ(gfxstat_model_frame(m, &f), 0);
	}
	CHECK_EQ(gfxstat_model_input_end(m), 0);
	CHECK_EQ(g.n, 2);
	CHECK_EQ(g.interval[1], (int64_t)1 << 61);
	CHECK_EQ(gfxstat_model_stats(m)->v[GFXSTAT_MODEL_out_of_range], 2);
	CHECK_EQ(gfxstat_model_stats(m)->v[GFXSTAT_MODEL_within_one_vsync], 0);
	gfxstat_model_free(m);
}

/*
 * A display frame without a display token of its own (-1) is found by its token, read back
 * from its packed frame: surface frames 7 and 8 name display frames 100 and 101, whose
 * display tokens are -1, so they are presented at those display frames' presents, 1.000 s
 * and 1.0167 s, with their period P. Four frames out, in present order, surface first.
 */
TEST(display_found_by_its_token)
{
	struct got g;
	struct gfxstat_model *m;

	m = model_into(&g);
	gfxstat_model_input_begin(m, 1, "perfetto");
	frame(m, GFXSTAT_SRC_FRAMETIMELINE, "TX - Win#7", 42, 990000000, 7, 100);
	frame(m, GFXSTAT_SRC_FRAMETIMELINE, "TX - Win#7", 42, 1008000000, 8, 101);
	frame(m, GFXSTAT_SRC_FRAMETIMELINE_DISPLAY, "", 5, 1000000000, 100, -1);
	frame(m, GFXSTAT_SRC_FRAMETIMELINE_DISPLAY, "", 5, 1016666667, 101, -1);
	CHECK_EQ(gfxstat_model_input_end(m), 0);
	CHECK_EQ(g.n, 4);
	CHECK_CSTR(g.layer[0], "Win#7");
	CHECK_EQ(g.present[0], 1000000000);
	CHECK_EQ(g.period[0], P);
	CHECK_CSTR(g.layer[2], "Win#7");
	CHECK_EQ(g.present[2], 1016666667);
	gfxstat_model_free(m);
}

/* whole frames, as the model hands them on */
struct whole {
	int n;
	struct gfxstat_frame f[MAXF];
};

static int collect_whole(void *user, const struct gfxstat_frame *f)
{
	struct whole *w = user;

	if (w->n == MAXF)
		return 1;
	w->f[w->n++] = *f;
	return 0;
}

static uint64_t rnd(uint64_t *s) /* xorshift64 */
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * A held frame is packed (its times as differences from each other, the rest as small
 * numbers where they are small) and comes back field for field: values at the edges of each
 * form (0, -1, the NONE sentinels, +-2^31, 2^61 - 1 .. 2^61 + 1 around the largest small
 * number, INT64_MIN/MAX for what is not a time), times far apart and close together, and
 * random words. One layer per frame, so that none is compared or dropped.
 */
TEST(held_frames_come_back_whole)
{
	static const int64_t edge[] = { 0, -1, 1, GFXSTAT_NS_NONE, INT32_MAX, INT32_MIN,
					((int64_t)1 << 61) - 1, (int64_t)1 << 61,
					((int64_t)1 << 61) + 1, -((int64_t)1 << 61), INT64_MAX,
					INT64_MIN, ((int64_t)1 << 32), ((int64_t)1 << 32) - 1 };
	static struct whole w;
	static struct gfxstat_frame in[MAXF];
	struct gfxstat_model *m;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	int i, k, n = 0;
	char name[MAXF][16];

	memset(&w, 0, sizeof(w));
	m = gfxstat_model_new(collect_whole, &w);
	CHECK(m != NULL);
	gfxstat_model_input_begin(m, 1, "perfetto");
	for (i = 0; i < MAXF; i++) {
		struct gfxstat_frame *f = &in[i];
		/* a time within the model's range (2^60): edge ones, or near this frame's present */
		int64_t present = 1000000000 + (int64_t)i * 16666667, lim = (int64_t)1 << 60;
		int64_t *t[] = { &f->latch_ns, &f->desired_present_ns, &f->expected_start_ns,
				 &f->expected_end_ns, &f->actual_start_ns, &f->actual_end_ns,
				 &f->duration_ns };

		gfxstat_frame_init(f, GFXSTAT_SRC_FTRACE);
		snprintf(name[i], sizeof(name[i]), "W#%d", i);
		f->layer = S(name[i]);
		f->present_ns = present;
		f->vsync_period_ns = P;
		for (k = 0; k < (int)(sizeof(t) / sizeof(t[0])); k++) {
			int64_t e = edge[(size_t)(i + k) % (sizeof(edge) / sizeof(edge[0]))];

			*t[k] = i % 3 == 0 ? (e >= -lim && e <= lim ? e : -lim)
			      : i % 3 == 1 ? present - (int64_t)(rnd(&seed) % 100000000)
					   : (int64_t)(rnd(&seed) % (uint64_t)lim) - lim / 2;
		}
		f->pid = (int32_t)rnd(&seed);
		f->token = edge[(size_t)i % (sizeof(edge) / sizeof(edge[0]))];
		f->display_token = i % 2 ? (int64_t)rnd(&seed)
					 : edge[(size_t)(i + 5) % (sizeof(edge) / sizeof(edge[0]))];
		f->jank_type = (int32_t)rnd(&seed);
		f->present_type = i % 5 == 0 ? 4 : (int32_t)(rnd(&seed) % 7) - 1;
		f->prediction_type = (int32_t)rnd(&seed);
		f->janky = i % 3 - 1;
		f->jank_reasons = (uint32_t)rnd(&seed);
		f->input = (int32_t)(rnd(&seed) % 3) - 1;
		for (k = 0; k < GFXSTAT_FI_COUNT; k++)
			f->fi[k] = k % 4 == 0 ? GFXSTAT_NS_NONE : k % 4 == 1 ? (int64_t)rnd(&seed)
				 : edge[(size_t)(i + k) % (sizeof(edge) / sizeof(edge[0]))];
		for (k = 0; k < GFXSTAT_LEGACY_COUNT; k++)
			f->legacy_ns[k] = i % 2 ? GFXSTAT_NS_NONE : (int64_t)(rnd(&seed) >> (k + 1));
		CHECK_EQ(gfxstat_model_frame(m, f), 0);
		n++;
	}
	CHECK_EQ(w.n, 0);
	CHECK_EQ(gfxstat_model_input_end(m), 0);
	CHECK_EQ(w.n, n);
	for (i = 0; i < w.n && i < n; i++) {
		const struct gfxstat_frame *a = &in[i], *b = &w.f[i];

		CHECK_EQ(b->source, a->source);
		CHECK_EQ(b->pid, a->pid);
		CHECK_EQ(b->present_ns, a->present_ns);
		CHECK_EQ(b->vsync_period_ns, a->vsync_period_ns);
		CHECK_EQ(b->latch_ns, a->latch_ns);
		CHECK_EQ(b->desired_present_ns, a->desired_present_ns);
		CHECK_EQ(b->expected_start_ns, a->expected_start_ns);
		CHECK_EQ(b->expected_end_ns, a->expected_end_ns);
		CHECK_EQ(b->actual_start_ns, a->actual_start_ns);
		CHECK_EQ(b->actual_end_ns, a->actual_end_ns);
		CHECK_EQ(b->duration_ns, a->duration_ns);
		CHECK_EQ(b->token, a->token);
		CHECK_EQ(b->display_token, a->display_token);
		CHECK_EQ(b->jank_type, a->jank_type);
		CHECK_EQ(b->present_type, a->present_type);
		CHECK_EQ(b->prediction_type, a->prediction_type);
		CHECK_EQ(b->janky, a->janky);
		CHECK_EQ(b->jank_reasons, a->jank_reasons);
		CHECK_EQ(b->input, a->input);
		CHECK(memcmp(b->fi, a->fi, sizeof(a->fi)) == 0);
		CHECK(memcmp(b->legacy_ns, a->legacy_ns, sizeof(a->legacy_ns)) == 0);
		CHECK_EQ((int64_t)b->layer.n, (int64_t)strlen(name[i]));
	}
	gfxstat_model_free(m);
}

TEST_SUITE(test_frame_model)
{
	RUN(times_beyond_any_clock);
	RUN(canonical);
	RUN(frametimeline_over_markers);
	RUN(markers_by_vsync_id);
	RUN(held_to_the_end);
	RUN(held_frames_come_back_whole);
	RUN(display_found_by_its_token);
	RUN(strictly_increasing);
	RUN(overlap);
	RUN(one_buffer_per_refresh);
}
