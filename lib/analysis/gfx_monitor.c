/* SPDX-License-Identifier: MIT */
/*
 * The seed's per-surface FPS monitor: the awk program of android_FPS_frome_GFX's gfx.sh
 * (seed 000, METRICS.md 1.4) re-expressed over atrace markers, with its bugs fixed:
 *  1. FPS is compared with the target as a number, not as text;
 *  2. -f is honoured;
 *  3. info lists every counter name of the vsync, not only the last;
 *  4. types 1/3 log every counted frame >= 42 ms, types 2/4 every vsync gap > period,
 *     and per-surface times advance whatever the type;
 *  5. timestamps come from the header parser, with or without the TGID column;
 *  6. surfaces whose name starts with "SurfaceTexture" fold into "SurfaceTexture".
 * All time arithmetic is in integer nanoseconds; floating point is used only for the
 * printed FPS and score, computed as the awk computed them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../gx_local.h"

#define TS_TXT 32
#define MAX_KEYS 65536
#define MAX_NAME GFXSTAT_MAX_LINE
#define MAX_INFO (16 * 1024)
#define PENDING_MAX (8 << 20)
#define WAIT_NS (500 * GFXSTAT_NSEC_PER_MSEC)
#define A_NS (100 * GFXSTAT_NSEC_PER_MSEC)
#define B_NS (50 * GFXSTAT_NSEC_PER_MSEC)
#define C_NS (42 * GFXSTAT_NSEC_PER_MSEC)
#define DEFAULT_PERIOD_NS 16667000 /* 16.667 ms, gfx.sh's usual dumpsys answer */

const char gfxstat_gfx_fps_header[] = "start time,end time,FPS,frames,Time(S),max time(ms),"
				      "waiting time(S),wait times,A,B,C,D,score,TX,app,Surface";
const char gfxstat_gfx_drop_header[] =
	"start VSYNC,end VSYNC,used time(ms),VSYNC type,TX,app,Surface,info";

struct ts_text {
	int64_t ns;
	unsigned char n;
	char s[TS_TXT];
};

/* One key of the seed's arrays: (TX, app, Surface). */
struct gx_key {
	const char *app, *surface;
	size_t app_n, surface_n;
	int tx;
	int has_b, has_v, has_max;
	struct ts_text b, v;
	uint64_t n, stop, a, bb, c, d;
	int64_t time, max, stop_t;
};

enum { REC_COUNTER, REC_POST };

struct gfxstat_gfx {
	struct gfxstat_gfx_opts o;
	struct gfxstat_gfx_sink sink;
	struct gfxstat_stats *stats;
	struct gfxstat_stats own_stats;

	int64_t period;
	const char *period_src;
	struct gfxstat_vsync_detect *det; /* non-NULL while the period is being detected */
	struct gx_buf pending;            /* events held back until it is known */

	/* the awk's globals */
	int have_f;
	int64_t f;
	struct ts_text vsync;
	int state, post, tx;
	struct gx_buf sv, info, app, activity;

	struct gx_key *keys;
	size_t nkeys, cap_keys;
	struct gx_strmap keymap; /* interned keys; index i is keys[i] */
	struct gx_buf scratch;
	int oom;
};

static void set_ts(struct ts_text *t, int64_t ns, struct gfxstat_str txt)
{
	t->ns = ns;
	t->n = (unsigned char)(txt.n < TS_TXT ? txt.n : TS_TXT);
	memcpy(t->s, txt.p, t->n);
}

static struct gfxstat_str ts_str(const struct ts_text *t)
{
	struct gfxstat_str s = { t->s, t->n };

	return s;
}

static int buf_set(struct gx_buf *b, const char *p, size_t n)
{
	gx_buf_reset(b);
	return gx_buf_add(b, p, n);
}

void gfxstat_gfx_opts_init(struct gfxstat_gfx_opts *o)
{
	o->target = 60;
	o->kpi_ms = 100;
	o->type = 0;
	o->delay_ns = GFXSTAT_NSEC_PER_SEC;
	o->frames = 20;
	o->period_ns = 0;
	o->focus = "unknown";
}

static void focus_app(struct gfxstat_gfx *g, const char *focus)
{
	const char *slash = strchr(focus, '/');
	size_t n = slash ? (size_t)(slash - focus) : strlen(focus);

	if (buf_set(&g->activity, focus, strlen(focus)) || buf_set(&g->app, focus, n))
		g->oom = 1;
}

struct gfxstat_gfx *gfxstat_gfx_new(const struct gfxstat_gfx_opts *o,
				    const struct gfxstat_gfx_sink *sink,
				    struct gfxstat_stats *stats)
{
	struct gfxstat_gfx *g;

	if (!o || o->type < 0 || o->type > 4 || !(o->target > 0) || o->delay_ns < 0 ||
	    o->period_ns < 0 || !o->focus)
		return NULL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->o = *o;
	if (sink)
		g->sink = *sink;
	g->stats = stats ? stats : &g->own_stats;
	gx_buf_init(&g->pending, PENDING_MAX);
	gx_buf_init(&g->sv, MAX_NAME);
	gx_buf_init(&g->info, MAX_INFO);
	gx_buf_init(&g->app, MAX_NAME);
	gx_buf_init(&g->activity, MAX_NAME);
	gx_buf_init(&g->scratch, 3 * MAX_NAME);
	if (gx_strmap_init(&g->keymap, MAX_KEYS))
		g->oom = 1;
	if (o->period_ns) {
		g->period = o->period_ns;
		g->period_src = "option";
	} else {
		g->det = gfxstat_vsync_detect_new();
	}
	focus_app(g, o->focus);
	if ((!o->period_ns && !g->det) || g->oom) {
		gfxstat_gfx_free(g);
		return NULL;
	}
	return g;
}

void gfxstat_gfx_free(struct gfxstat_gfx *g)
{
	if (!g)
		return;
	free(g->keys);
	gx_strmap_free(&g->keymap);
	gfxstat_vsync_detect_free(g->det);
	gx_buf_free(&g->pending);
	gx_buf_free(&g->sv);
	gx_buf_free(&g->info);
	gx_buf_free(&g->app);
	gx_buf_free(&g->activity);
	gx_buf_free(&g->scratch);
	free(g);
}

int64_t gfxstat_gfx_period(const struct gfxstat_gfx *g, const char **source)
{
	if (source)
		*source = g->period_src;
	return g->period;
}

/* ------------------------------------------------------------------------------------ */
/* key table                                                                              */

/*
 * Return the key, NULL when the table is full (counted) or memory ran out (g->oom). Keys are
 * interned as "<tx><app>\0<surface>"; app and surface point into that copy.
 */
static struct gx_key *key_get(struct gfxstat_gfx *g, int tx, const char *app, size_t app_n,
			      const char *sv, size_t sv_n)
{
	struct gx_key *k;
	const struct gx_strmap_key *ik;
	long i;
	int created;

	gx_buf_reset(&g->scratch);
	if (gx_buf_addc(&g->scratch, tx ? '1' : '0') || gx_buf_add(&g->scratch, app, app_n) ||
	    gx_buf_addc(&g->scratch, 0) || gx_buf_add(&g->scratch, sv, sv_n))
		goto oom;
	i = gx_strmap_add(&g->keymap, g->scratch.p, g->scratch.len, &created);
	if (i == GFXSTAT_E_LIMIT) {
		GX_STAT_INC(g->stats, gfx_keys_overflow);
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
	k->tx = tx;
	k->app = ik->p + 1;
	k->app_n = app_n;
	k->surface = ik->p + 2 + app_n;
	k->surface_n = sv_n;
	return k;
oom:
	g->oom = 1;
	return NULL;
}

/* ------------------------------------------------------------------------------------ */
/* rows                                                                                   */

/* sprintf("%.<digits>f", v) + 0, as the awk rounds FPS and the score */
static double parse_rounded(int digits, double v)
{
	char b[64];

	snprintf(b, sizeof(b), "%.*f", digits, v);
	return strtod(b, NULL);
}

void gfxstat_gfx_window_score(struct gfxstat_gfx_window *w, double target, double kpi_ms)
{
	double fps, gterm, h, n = (double)w->frames, max_ms = (double)w->max_ns / 1e6;

	/* fps = sprintf("%.1f", N*1000/Time); compared with the target as a number (bug 1) */
	fps = w->time_ns ? parse_rounded(1, n * 1e9 / (double)w->time_ns) : 0.0;
	if (fps >= target) {
		fps = trunc(fps);
		gterm = 1;
	} else {
		gterm = fps / target;
	}
	h = kpi_ms < max_ms ? kpi_ms / max_ms : 1;
	w->score = parse_rounded(2, gterm * 60 + h * 20 + (1 - (double)w->a / n) * 10 +
					    (1 - (double)w->b / n) * 7 +
					    (1 - (double)w->c / n) * 3);
	w->fps = fps;
}

static int emit_window(struct gfxstat_gfx *g, struct gx_key *k, int final)
{
	struct gfxstat_gfx_window w;

	w.start_text = ts_str(&k->b);
	w.end_text = ts_str(&k->v);
	w.start_ns = k->b.ns;
	w.end_ns = k->v.ns;
	w.frames = k->n;
	w.waits = k->stop;
	w.a = k->a;
	w.b = k->bb;
	w.c = k->c;
	w.d = k->d;
	w.time_ns = k->time;
	w.max_ns = k->max;
	w.wait_ns = k->stop_t;
	w.tx = k->tx;
	w.app.p = k->app;
	w.app.n = k->app_n;
	w.surface.p = k->surface;
	w.surface.n = k->surface_n;
	w.final = final;
	gfxstat_gfx_window_score(&w, g->o.target, g->o.kpi_ms);
	if (g->o.type >= 3)
		return 0;
	GX_STAT_INC(g->stats, gfx_windows);
	return g->sink.window ? g->sink.window(g->sink.user, &w) : 0;
}

static int emit_drop(struct gfxstat_gfx *g, struct gx_key *k, int kind,
		     const struct ts_text *from, const struct ts_text *to, int64_t used,
		     struct gfxstat_str vname)
{
	struct gfxstat_gfx_drop d;

	d.kind = kind;
	d.start_text = ts_str(from);
	d.end_text = ts_str(to);
	d.start_ns = from->ns;
	d.end_ns = to->ns;
	d.used_ns = used;
	d.vsync_name = vname;
	d.tx = k->tx;
	d.app.p = k->app;
	d.app.n = k->app_n;
	d.surface.p = k->surface;
	d.surface.n = k->surface_n;
	d.info.p = g->info.p ? g->info.p : "";
	d.info.n = g->info.len;
	GX_STAT_INC(g->stats, gfx_drop_rows);
	return g->sink.drop ? g->sink.drop(g->sink.user, &d) : 0;
}

static void key_reset(struct gx_key *k)
{
	k->b = k->v;
	k->n = k->stop = k->a = k->bb = k->c = k->d = 0;
	k->time = k->max = k->stop_t = 0;
	k->has_max = 0;
}

/* ------------------------------------------------------------------------------------ */
/* the awk's main loop                                                                    */

/* A frame of the current (TX, app, Surface) at the VSYNC line @t. */
static int credit(struct gfxstat_gfx *g, const struct ts_text *t, struct gfxstat_str vname)
{
	const char *sv = g->sv.len ? g->sv.p : g->activity.p;
	size_t sv_n = g->sv.len ? g->sv.len : g->activity.len;
	struct gx_key *k = key_get(g, g->tx, g->app.p ? g->app.p : "", g->app.len,
				   sv ? sv : "", sv_n);
	int64_t gap = t->ns - g->vsync.ns, wt;
	int d = gap > g->period, rc = 0;
	size_t i;

	if (!k)
		return g->oom ? GFXSTAT_E_NOMEM : 0;
	GX_STAT_INC(g->stats, gfx_frames);
	wt = t->ns - k->v.ns;
	if (k->has_v && wt < WAIT_NS) {
		if ((g->o.type == 1 || g->o.type == 3) && wt >= C_NS)
			rc = emit_drop(g, k, 1, &k->v, t, wt, vname);
		else if ((g->o.type == 2 || g->o.type == 4) && d)
			rc = emit_drop(g, k, 2, &g->vsync, t, gap, vname);
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
	} else if (k->has_b) {
		k->stop++;
		k->stop_t += wt;
	}
	if (d)
		k->d++;
	if (!k->has_b) {
		k->b = *t;
		k->has_b = 1;
	}
	k->v = *t;
	k->has_v = 1;
	if (t->ns - g->f >= g->o.delay_ns) {
		for (i = 0; i < g->nkeys; i++) {
			k = &g->keys[i];
			/* awk's N[i] > frames: a key never counted has no N[i] */
			if (k->n > 0 && (g->o.frames < 0 || k->n > (uint64_t)g->o.frames)) {
				rc = emit_window(g, k, 0);
				key_reset(k);
				if (rc)
					return rc;
			}
		}
		g->f = t->ns;
	}
	return 0;
}

static int vsync_line(struct gfxstat_gfx *g, const struct ts_text *t, struct gfxstat_str vname)
{
	int rc = 0;

	GX_STAT_INC(g->stats, gfx_vsync_lines);
	if (!g->have_f) {
		g->have_f = 1;
		g->f = t->ns;
	} else if (g->post) {
		rc = credit(g, t, vname);
	}
	g->vsync = *t;
	g->state = 1;
	g->tx = 0;
	g->post = 0;
	gx_buf_reset(&g->sv);
	gx_buf_reset(&g->info);
	return rc;
}

static size_t count_char(const char *p, size_t n, char c)
{
	const char *end = p + n;
	size_t k = 0;

	while (p < end && (p = memchr(p, c, (size_t)(end - p)))) {
		k++;
		p++;
	}
	return k;
}

/* awk's split(s, a, " "): fields separated by runs of blanks, ends trimmed */
static unsigned awk_words(const char *p, size_t n)
{
	unsigned w = 0;
	int in = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		int blank = p[i] == ' ' || p[i] == '\t' || p[i] == '\n';

		if (!blank && !in)
			w++;
		in = !blank;
	}
	return w;
}

static int excluded(struct gfxstat_str s)
{
	return GX_STR_HAS(s, "HW_VSYNC_ON_0") || GX_STR_HAS(s, "HW_VSYNC_0") ||
	       GX_STR_HAS(s, "hasClientComposition") || GX_STR_HAS(s, "FrameMissed") ||
	       GX_STR_HAS(s, "FramebufferSurface");
}

static int counter(struct gfxstat_gfx *g, const struct ts_text *t, struct gfxstat_str name)
{
	if (GX_STR_HAS(name, "VSYNC-sf") || GX_STR_HAS(name, "VSYNC-app"))
		return vsync_line(g, t, name);
	if (g->state != 1 || excluded(name))
		return 0;
	if (g->o.type > 0) {
		int rc = 0;

		if (g->info.len)
			rc = gx_buf_addc(&g->info, '\n');
		if (!rc)
			rc = gx_buf_add(&g->info, name.p, name.n);
		if (rc == GFXSTAT_E_LIMIT)
			GX_STAT_INC(g->stats, gfx_info_truncated);
		else if (rc)
			return rc;
	}
	if (GX_STR_HAS(name, "TX - ")) {
		g->tx = 1;
		return 0;
	}
	if (name.n >= 14 && memcmp(name.p, "SurfaceTexture", 14) == 0) {
		if (buf_set(&g->sv, "SurfaceTexture", 14))
			return GFXSTAT_E_NOMEM;
	} else if (buf_set(&g->sv, name.p, name.n)) {
		return GFXSTAT_E_NOMEM;
	}
	if (count_char(name.p, name.n, '.') >= 2) {
		const char *slash = memchr(name.p, '/', name.n);

		if (slash && awk_words(name.p, name.n) == 1) {
			if (buf_set(&g->app, name.p, (size_t)(slash - name.p)) ||
			    buf_set(&g->activity, name.p, name.n))
				return GFXSTAT_E_NOMEM;
		}
	}
	return 0;
}

static int dispatch(struct gfxstat_gfx *g, int kind, const struct ts_text *t,
		    struct gfxstat_str name)
{
	if (kind == REC_POST) {
		GX_STAT_INC(g->stats, gfx_post_framebuffer);
		g->state = 0;
		g->post = 1;
		return 0;
	}
	return counter(g, t, name);
}

/* ------------------------------------------------------------------------------------ */
/* period detection: hold events back until the period is known, then replay them       */

static int replay_pending(struct gfxstat_gfx *g)
{
	size_t off = 0;
	int rc = 0;

	while (off < g->pending.len && !rc) {
		struct ts_text t;
		struct gfxstat_str name;
		uint32_t nn;
		int kind = g->pending.p[off];

		memcpy(&t, g->pending.p + off + 1, sizeof(t));
		memcpy(&nn, g->pending.p + off + 1 + sizeof(t), sizeof(nn));
		name.p = g->pending.p + off + 1 + sizeof(t) + sizeof(nn);
		name.n = nn;
		off += 1 + sizeof(t) + sizeof(nn) + nn;
		rc = dispatch(g, kind, &t, name);
	}
	gx_buf_free(&g->pending);
	return rc;
}

static int decide_period(struct gfxstat_gfx *g)
{
	unsigned n;
	const char *src;
	int64_t p = gfxstat_vsync_detect_result(g->det, &src, &n);

	g->period = p ? p : DEFAULT_PERIOD_NS;
	g->period_src = p ? src : "default";
	gfxstat_vsync_detect_free(g->det);
	g->det = NULL;
	return replay_pending(g);
}

static int hold(struct gfxstat_gfx *g, int kind, const struct ts_text *t,
		struct gfxstat_str name)
{
	uint32_t nn = (uint32_t)name.n;
	unsigned char k = (unsigned char)kind;
	int rc;

	if (g->pending.len + 1 + sizeof(*t) + sizeof(nn) + name.n > g->pending.max)
		return 1; /* full: decide with what we have */
	rc = gx_buf_add(&g->pending, &k, 1);
	if (!rc)
		rc = gx_buf_add(&g->pending, t, sizeof(*t));
	if (!rc)
		rc = gx_buf_add(&g->pending, &nn, sizeof(nn));
	if (!rc)
		rc = gx_buf_add(&g->pending, name.p, name.n);
	return rc ? rc : 0;
}

int gfxstat_gfx_marker(void *gp, const struct gfxstat_ftrace_line *ev,
		       const struct gfxstat_marker *m)
{
	struct gfxstat_gfx *g = gp;
	struct ts_text t;
	int kind, rc;

	if (m->kind == GFXSTAT_MARKER_COUNTER)
		kind = REC_COUNTER;
	else if (m->kind == GFXSTAT_MARKER_BEGIN && gx_str_eq(m->name, "postFramebuffer"))
		kind = REC_POST;
	else
		return 0;
	set_ts(&t, ev->ts_ns, ev->ts_text);
	if (g->det) {
		int decided = kind == REC_COUNTER &&
			      gfxstat_vsync_detect_add(g->det, m->name.p, m->name.n, t.ns);

		int full = hold(g, kind, &t, m->name);

		if (full < 0)
			return full;
		if (!decided && !full)
			return 0;
		rc = decide_period(g);
		if (rc || !full)
			return rc;
		/* the buffer was full, so this event was not held: it goes on below */
	}
	return dispatch(g, kind, &t, m->name);
}

int gfxstat_gfx_finish(struct gfxstat_gfx *g)
{
	size_t i;
	int rc = 0;

	if (g->det)
		rc = decide_period(g);
	for (i = 0; i < g->nkeys && !rc; i++)
		if (g->keys[i].n > 0)
			rc = emit_window(g, &g->keys[i], 1);
	return rc;
}
