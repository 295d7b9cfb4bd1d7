/* SPDX-License-Identifier: MIT */
/*
 * The seed's fps.csv/dropFrames.csv (android_FPS_frome_GFX gfx.sh, METRICS.md 1.4-1.5)
 * computed from the per-frame model instead of from VSYNC counter lines, so it works on every
 * input gfxstat reads and a surface is always a real layer:
 *  - a key is (TX, app, Surface) = (0, the frame's app, its layer). gfx.sh set TX when a
 *    "TX - <layer>" counter moved in the vsync: SurfaceFlinger's count of a layer's pending
 *    state transactions (Layer::pushPendingState/popPendingState, ATRACE_INT(
 *    mTransactionName...), LineageOS/android_frameworks_native
 *    services/surfaceflinger/Layer.cpp, Android 8-11). It split one surface's frames by what
 *    any layer's geometry did in that vsync; a model frame is one presented buffer of one
 *    layer, so its key never splits: TX is 0;
 *  - a frame's time is its present time; its interval is since its layer's previous present;
 *  - the window rule, buckets, waits and score are gfx.sh's (shared with gfx_monitor.c);
 *  - D counts counted frames (not waits) whose interval spans a missed vsync: more than 1.5
 *    times the frame's own vsync_period_ns (presents sit on vsyncs, so half a period absorbs
 *    the timestamps' jitter). gfx.sh compared the gap since the previous VSYNC line of any
 *    layer with one period, which counted jitter and idle time.
 * Time arithmetic is in integer nanoseconds.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../gx_local.h"

#define MAX_KEYS 65536
#define WAIT_NS (500 * GFXSTAT_NSEC_PER_MSEC)
#define A_NS (100 * GFXSTAT_NSEC_PER_MSEC)
#define B_NS (50 * GFXSTAT_NSEC_PER_MSEC)
#define C_NS (42 * GFXSTAT_NSEC_PER_MSEC)
#define DEFAULT_PERIOD_NS 16667000 /* 16.667 ms, gfx.sh's usual dumpsys answer */
#define TS_TXT 32

struct gm_key {
	struct gfxstat_str app, surface; /* into the interned key */
	int has_b, has_v, has_max;
	int64_t b, v;
	uint64_t n, stop, a, bb, c, d;
	int64_t time, max, stop_t;
};

struct gfxstat_gfx_model {
	struct gfxstat_gfx_opts o;
	struct gfxstat_gfx_sink sink;
	struct gfxstat_gfx_model_stats st;
	int have_f;
	int64_t f;           /* the window clock: when the last check flushed */
	int64_t last_period; /* the last vsync_period_ns a frame gave */
	struct gm_key *keys;
	size_t nkeys, cap_keys;
	struct gx_strmap keymap; /* "<app>\0<layer>" -> index into keys */
	struct gx_buf scratch;
};

struct gfxstat_gfx_model *gfxstat_gfx_model_new(const struct gfxstat_gfx_opts *o,
						const struct gfxstat_gfx_sink *sink)
{
	struct gfxstat_gfx_model *g;

	if (!o || o->type < 0 || o->type > 4 || !(o->target > 0) || o->delay_ns < 0 ||
	    o->period_ns < 0)
		return NULL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->o = *o;
	if (sink)
		g->sink = *sink;
	gx_buf_init(&g->scratch, 2 * GFXSTAT_MAX_LINE + 1);
	if (gx_strmap_init(&g->keymap, MAX_KEYS)) {
		gfxstat_gfx_model_free(g);
		return NULL;
	}
	return g;
}

void gfxstat_gfx_model_free(struct gfxstat_gfx_model *g)
{
	if (!g)
		return;
	free(g->keys);
	gx_strmap_free(&g->keymap);
	gx_buf_free(&g->scratch);
	free(g);
}

const struct gfxstat_gfx_model_stats *gfxstat_gfx_model_stats(const struct gfxstat_gfx_model *g)
{
	return &g->st;
}

/* Return the key; NULL with *rc = 0 when the table is full (counted), else *rc = NOMEM. */
static struct gm_key *key_get(struct gfxstat_gfx_model *g, struct gfxstat_str app,
			      struct gfxstat_str layer, int *rc)
{
	const struct gx_strmap_key *ik;
	struct gm_key *k;
	long i;
	int created;

	*rc = 0;
	gx_buf_reset(&g->scratch);
	if (gx_buf_add(&g->scratch, app.p, app.n) || gx_buf_addc(&g->scratch, 0) ||
	    gx_buf_add(&g->scratch, layer.p, layer.n)) {
		g->st.keys_overflow++; /* a name over the line limit: no real layer */
		return NULL;
	}
	i = gx_strmap_add(&g->keymap, g->scratch.p, g->scratch.len, &created);
	if (i == GFXSTAT_E_LIMIT) {
		g->st.keys_overflow++;
		return NULL;
	}
	if (i < 0)
		goto oom;
	if (!created)
		return &g->keys[i];
	if (gx_grow((void **)&g->keys, &g->cap_keys, g->nkeys, sizeof(*g->keys), 16))
		goto oom;
	ik = &g->keymap.keys[i];
	k = &g->keys[g->nkeys++];
	memset(k, 0, sizeof(*k));
	k->app.p = ik->p;
	k->app.n = app.n;
	k->surface.p = ik->p + app.n + 1;
	k->surface.n = layer.n;
	return k;
oom:
	*rc = GFXSTAT_E_NOMEM;
	return NULL;
}

/*
 * Seconds with at least 6 decimals, exact: "200.016667" for a microsecond trace time,
 * "12.345678901" when the source gives nanoseconds (Perfetto, gfxinfo).
 */
static struct gfxstat_str sec_text(char *buf, int64_t ns)
{
	struct gfxstat_str s;
	uint64_t u = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	int n = snprintf(buf, TS_TXT, "%s%llu.%09llu", ns < 0 ? "-" : "",
			 (unsigned long long)(u / 1000000000u),
			 (unsigned long long)(u % 1000000000u));
	int keep = n - 3;

	while (n > keep && buf[n - 1] == '0')
		n--;
	buf[n] = 0;
	s.p = buf;
	s.n = (size_t)n;
	return s;
}

static int emit_window(struct gfxstat_gfx_model *g, struct gm_key *k, int final)
{
	struct gfxstat_gfx_window w;
	char b[TS_TXT], v[TS_TXT];

	memset(&w, 0, sizeof(w));
	w.start_text = sec_text(b, k->b);
	w.end_text = sec_text(v, k->v);
	w.start_ns = k->b;
	w.end_ns = k->v;
	w.frames = k->n;
	w.waits = k->stop;
	w.a = k->a;
	w.b = k->bb;
	w.c = k->c;
	w.d = k->d;
	w.time_ns = k->time;
	w.max_ns = k->max;
	w.wait_ns = k->stop_t;
	w.app = k->app;
	w.surface = k->surface;
	w.final = final;
	gfxstat_gfx_window_score(&w, g->o.target, g->o.kpi_ms);
	if (g->o.type >= 3)
		return 0;
	g->st.windows++;
	return g->sink.window ? g->sink.window(g->sink.user, &w) : 0;
}

static int emit_drop(struct gfxstat_gfx_model *g, struct gm_key *k, int kind, int64_t t,
		     const struct gfxstat_frame *f)
{
	struct gfxstat_gfx_drop d;
	char b[TS_TXT], v[TS_TXT];
	const char *src = gfxstat_frame_source_name(f->source);

	memset(&d, 0, sizeof(d));
	d.kind = kind;
	d.start_text = sec_text(b, k->v);
	d.end_text = sec_text(v, t);
	d.start_ns = k->v;
	d.end_ns = t;
	d.used_ns = t - k->v;
	/* "VSYNC type" named the counter that timed the frame; here, the frame's source */
	d.vsync_name.p = src;
	d.vsync_name.n = strlen(src);
	d.app = k->app;
	d.surface = k->surface;
	d.info.p = "";
	g->st.drops++;
	return g->sink.drop ? g->sink.drop(g->sink.user, &d) : 0;
}

static void key_reset(struct gm_key *k)
{
	k->b = k->v;
	k->n = k->stop = k->a = k->bb = k->c = k->d = 0;
	k->time = k->max = k->stop_t = 0;
	k->has_max = 0;
}

static int check_windows(struct gfxstat_gfx_model *g, int64_t t)
{
	size_t i;
	int rc = 0;

	if (t - g->f < g->o.delay_ns)
		return 0;
	for (i = 0; i < g->nkeys && !rc; i++) {
		struct gm_key *k = &g->keys[i];

		if (k->n > 0 && (g->o.frames < 0 || k->n > (uint64_t)g->o.frames)) {
			rc = emit_window(g, k, 0);
			key_reset(k);
		}
	}
	g->f = t;
	return rc;
}

/* SurfaceFlinger's own refreshes are the display's timeline, not a surface. */
static int display_frame(const struct gfxstat_frame *f)
{
	return f->source == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY ||
	       f->source == GFXSTAT_SRC_FTRACE_DISPLAY || !f->layer.n ||
	       gx_str_eq(f->layer, "(display)");
}

static int64_t frame_period(struct gfxstat_gfx_model *g, const struct gfxstat_frame *f)
{
	if (f->vsync_period_ns != GFXSTAT_NS_NONE && f->vsync_period_ns > 0) {
		g->last_period = f->vsync_period_ns;
		return f->vsync_period_ns;
	}
	g->st.period_fallback++;
	if (g->o.period_ns)
		return g->o.period_ns;
	return g->last_period ? g->last_period : DEFAULT_PERIOD_NS;
}

int gfxstat_gfx_model_frame(void *gp, const struct gfxstat_frame *f)
{
	struct gfxstat_gfx_model *g = gp;
	struct gm_key *k;
	int64_t t = f->present_ns, period, wt;
	int rc;

	g->st.frames++;
	if (display_frame(f)) {
		g->st.display++;
		return 0;
	}
	if (t == GFXSTAT_NS_NONE) {
		g->st.no_present++;
		return 0;
	}
	k = key_get(g, f->app, f->layer, &rc);
	if (!k)
		return rc;
	if (k->has_v && t <= k->v) {
		g->st.out_of_order++;
		return 0;
	}
	period = frame_period(g, f);
	g->st.used++;
	/* the window clock follows the frames; when time goes back (the next window of a
	 * gfxinfo dump, a reordered source) it restarts there instead of stalling */
	if (!g->have_f || t < g->f) {
		g->have_f = 1;
		g->f = t;
	}
	if (k->has_v) {
		wt = t - k->v;
		if (wt < WAIT_NS) {
			int d = wt > period + period / 2;

			rc = 0;
			if ((g->o.type == 1 || g->o.type == 3) && wt >= C_NS)
				rc = emit_drop(g, k, 1, t, f);
			else if ((g->o.type == 2 || g->o.type == 4) && d)
				rc = emit_drop(g, k, 2, t, f);
			if (rc)
				return rc;
			k->n++;
			k->time += wt;
			if (!k->has_max || wt > k->max)
				k->max = wt;
			k->has_max = 1;
			if (wt >= A_NS)
				k->a++;
			else if (wt >= B_NS)
				k->bb++;
			else if (wt >= C_NS)
				k->c++;
			if (d)
				k->d++;
		} else {
			k->stop++;
			k->stop_t += wt;
		}
	}
	if (!k->has_b) {
		k->b = t;
		k->has_b = 1;
	}
	k->v = t;
	k->has_v = 1;
	return check_windows(g, t);
}

int gfxstat_gfx_model_finish(struct gfxstat_gfx_model *g)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < g->nkeys && !rc; i++)
		if (g->keys[i].n > 0) {
			rc = emit_window(g, &g->keys[i], 1);
			key_reset(&g->keys[i]);
		}
	return rc;
}
