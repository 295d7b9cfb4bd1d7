/* SPDX-License-Identifier: MIT */
/*
 * Per-layer frames from SurfaceFlinger's atrace markers (FORMATS.md 2). A frame is a buffer
 * that SF's main thread latched (the layer's BufferQueue counter lowered on <= 11, the
 * "BufferTX - <layer>" count lowered on 12+) in a refresh that reached the display (a
 * present marker of the era). Every layer latched in a refresh gets its frame. The present
 * time is the vsync after the present marker, seen as the next VSYNC toggle or predicted
 * from the vsync grid when SF went idle and no toggle follows.
 */
#include <stdlib.h>

#include "../gx_local.h"

#define MAX_NAMES 65536
#define REFRESH_LAYERS 64    /* layers latched in one refresh; more are counted, not kept */
#define AWAIT_MAX 8          /* refreshes waiting for their vsync */
#define RING 32              /* recent vsync intervals per counter family */
#define IDLE_NS (100 * GFXSTAT_NSEC_PER_MSEC)
#define DEFAULT_PERIOD 16666667
#define MAX_QUEUE 64         /* deepest BufferQueue we believe in */

enum { FAM_HW, FAM_APP, FAM_SF, FAM_COUNT };

struct counter {
	int64_t value;
	unsigned has_value : 1;
	unsigned is_queue : 1; /* raised by an SF thread other than the main one: a BufferQueue */
	unsigned excluded : 1;
	unsigned checked : 1;
	int32_t layer;         /* layer index for "BufferTX - x" and layer counters, or -1 */
};

struct layer {
	int64_t last_present;
	int32_t pid;
	unsigned has_last : 1;
	struct gfxstat_str app; /* points into the interned name */
};

struct refresh {
	int64_t marker_ts;
	int64_t predicted;
	uint32_t n;
	uint32_t layer[REFRESH_LAYERS];
	int64_t latch[REFRESH_LAYERS];
};

struct family {
	int64_t last;
	int has_last;
	unsigned n, head;
	int64_t iv[RING];
};

struct gfxstat_sf_frames {
	gfxstat_frame_fn fn;
	void *user;
	int32_t sf_pid, main_tid;
	int saw_present_marker;
	int in_composition;   /* depth of the composition slice on the main thread, 0 = none */
	int depth;            /* main-thread slice depth */
	int presented_in_comp;
	struct gx_strmap names; /* counter names */
	struct counter *counters;
	size_t cap_counters;
	struct gx_strmap layers;
	struct layer *layer;
	size_t cap_layers;
	struct gx_strmap comms; /* main-thread comm -> pid, to find a layer's app process */
	int32_t *comm_pid;
	size_t cap_comms;
	struct refresh pending;
	struct refresh await[AWAIT_MAX];
	unsigned await_head, await_n;
	struct family fam[FAM_COUNT];
	int64_t period;
	int64_t anchor;       /* a recent vsync on the grid */
	int has_anchor, anchor_fam;
	struct gfxstat_sf_summary sum;
	int oom;
};

struct gfxstat_sf_frames *gfxstat_sf_frames_new(gfxstat_frame_fn fn, void *user)
{
	struct gfxstat_sf_frames *sf = calloc(1, sizeof(*sf));

	if (!sf)
		return NULL;
	sf->fn = fn;
	sf->user = user;
	sf->sf_pid = -1;
	sf->main_tid = -1;
	sf->period = DEFAULT_PERIOD;
	sf->sum.sf_pid = -1;
	sf->sum.sf_main_tid = -1;
	sf->sum.first_ts = GFXSTAT_NS_NONE;
	sf->sum.last_ts = GFXSTAT_NS_NONE;
	if (gx_strmap_init(&sf->names, MAX_NAMES) || gx_strmap_init(&sf->layers, MAX_NAMES) ||
	    gx_strmap_init(&sf->comms, MAX_NAMES)) {
		gfxstat_sf_frames_free(sf);
		return NULL;
	}
	return sf;
}

void gfxstat_sf_frames_free(struct gfxstat_sf_frames *sf)
{
	if (!sf)
		return;
	gx_strmap_free(&sf->names);
	gx_strmap_free(&sf->layers);
	gx_strmap_free(&sf->comms);
	free(sf->counters);
	free(sf->layer);
	free(sf->comm_pid);
	free(sf);
}

/* Grow @arr (of @size-byte elements) to hold index @i. */
static int ensure(void **arr, size_t *cap, size_t i, size_t size)
{
	size_t nc;
	void *na;

	if (i < *cap)
		return 0;
	nc = *cap ? *cap : 64;
	while (nc <= i)
		nc *= 2;
	na = realloc(*arr, nc * size);
	if (!na)
		return GFXSTAT_E_NOMEM;
	memset((char *)na + *cap * size, 0, (nc - *cap) * size);
	*arr = na;
	*cap = nc;
	return 0;
}

struct gfxstat_str gfxstat_layer_app(const char *name, size_t n)
{
	struct gfxstat_str app = { name, 0 };
	const char *slash = memchr(name, '/', n), *b;
	int dot = 0;

	if (!slash)
		return app;
	/* the package is the run of [A-Za-z0-9._] right before the first '/' */
	for (b = slash; b > name; b--) {
		char c = b[-1];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || gx_isdigit(c) ||
		      c == '.' || c == '_'))
			break;
		dot |= c == '.';
	}
	if (dot && b < slash && *b != '.') {
		app.p = b;
		app.n = (size_t)(slash - b);
	}
	return app;
}

/* ------------------------------------------------------------------------------------ */
/* vsync grid and refresh period                                                          */

static void note_mode(struct gfxstat_sf_frames *sf, int64_t ts)
{
	struct gfxstat_sf_summary *s = &sf->sum;
	int64_t hz = (GFXSTAT_NSEC_PER_SEC + sf->period / 2) / sf->period, last_hz;

	if (s->nmodes) {
		last_hz = (GFXSTAT_NSEC_PER_SEC + s->modes[s->nmodes - 1].period_ns / 2) /
			  s->modes[s->nmodes - 1].period_ns;
		if (llabs(hz - last_hz) < 3)
			return;
	}
	if (s->nmodes < sizeof(s->modes) / sizeof(s->modes[0])) {
		s->modes[s->nmodes].from_ns = ts;
		s->modes[s->nmodes].period_ns = sf->period;
		s->nmodes++;
	}
}

static void vsync_toggle(struct gfxstat_sf_frames *sf, int fi, int64_t ts)
{
	struct family *f = &sf->fam[fi];
	int best;

	if (f->has_last && ts > f->last && ts - f->last <= IDLE_NS) {
		f->iv[f->head] = ts - f->last;
		f->head = (f->head + 1) % RING;
		if (f->n < RING)
			f->n++;
	}
	f->last = ts;
	f->has_last = 1;
	/* HW vsync is the panel's own grid; software vsyncs carry an offset */
	if (fi <= sf->anchor_fam || !sf->has_anchor ||
	    ts - sf->anchor > GFXSTAT_NSEC_PER_SEC) {
		sf->anchor = ts;
		sf->anchor_fam = fi;
		sf->has_anchor = 1;
	}
	for (best = 0; best < FAM_COUNT; best++)
		if (sf->fam[best].n >= 8 && ts - sf->fam[best].last <= GFXSTAT_NSEC_PER_SEC)
			break;
	if (best < FAM_COUNT) {
		sf->period = gx_cluster_mean(sf->fam[best].iv, sf->fam[best].n);
		note_mode(sf, ts);
	}
}

static int64_t predict(const struct gfxstat_sf_frames *sf, int64_t t)
{
	int64_t k;

	if (!sf->has_anchor || t < sf->anchor)
		return t + sf->period;
	k = (t - sf->anchor) / sf->period + 1;
	return sf->anchor + k * sf->period;
}

/* ------------------------------------------------------------------------------------ */
/* frames                                                                                 */

static int32_t app_pid(struct gfxstat_sf_frames *sf, struct gfxstat_str app)
{
	long i;

	if (!app.n)
		return -1;
	/* a process's main-thread comm is the last 15 characters of its package name */
	if (app.n > 15) {
		app.p += app.n - 15;
		app.n = 15;
	}
	i = gx_strmap_find(&sf->comms, app.p, app.n);
	return i < 0 ? -1 : sf->comm_pid[i];
}

static int emit_refresh(struct gfxstat_sf_frames *sf, struct refresh *r, int64_t present)
{
	uint32_t i;
	int rc = 0;

	for (i = 0; i < r->n && !rc; i++) {
		struct layer *l = &sf->layer[r->layer[i]];
		const struct gx_strmap_key *k = &sf->layers.keys[r->layer[i]];
		struct gfxstat_frame f;

		gfxstat_frame_init(&f, GFXSTAT_SRC_FTRACE);
		f.layer.p = k->p;
		f.layer.n = k->n;
		f.app = l->app;
		if (l->pid < 0)
			l->pid = app_pid(sf, l->app);
		f.pid = l->pid;
		f.present_ns = present;
		f.interval_ns = l->has_last ? present - l->last_present : GFXSTAT_NS_NONE;
		f.latch_ns = r->latch[i];
		f.vsync_period_ns = sf->period;
		l->last_present = present;
		l->has_last = 1;
		sf->sum.frames++;
		if (sf->fn)
			rc = sf->fn(sf->user, &f);
	}
	sf->sum.refreshes++;
	r->n = 0;
	return rc;
}

/* Stamp waiting refreshes: with the toggle at @toggle (when >= 0), or by the clock @now. */
static int resolve(struct gfxstat_sf_frames *sf, int64_t now, int64_t toggle)
{
	int rc = 0;

	while (sf->await_n && !rc) {
		struct refresh *r = &sf->await[sf->await_head];
		int64_t present;

		if (toggle != GFXSTAT_NS_NONE && toggle > r->marker_ts &&
		    toggle <= r->predicted + sf->period / 2)
			present = toggle;
		else if (now > r->predicted + sf->period / 2)
			present = r->predicted;
		else
			break;
		rc = emit_refresh(sf, r, present);
		sf->await_head = (sf->await_head + 1) % AWAIT_MAX;
		sf->await_n--;
		toggle = GFXSTAT_NS_NONE; /* one toggle stamps one refresh */
	}
	return rc;
}

/* A present marker: what was latched since the last one goes to the display. */
static int present_marker(struct gfxstat_sf_frames *sf, int64_t ts)
{
	struct refresh *r;
	int rc = 0;

	if (!sf->pending.n)
		return 0;
	if (sf->await_n == AWAIT_MAX) { /* no vsync for a long time: use the prediction */
		r = &sf->await[sf->await_head];
		rc = emit_refresh(sf, r, r->predicted);
		sf->await_head = (sf->await_head + 1) % AWAIT_MAX;
		sf->await_n--;
	}
	r = &sf->await[(sf->await_head + sf->await_n) % AWAIT_MAX];
	*r = sf->pending;
	r->marker_ts = ts;
	r->predicted = predict(sf, ts);
	sf->await_n++;
	sf->pending.n = 0;
	return rc;
}

static int latch(struct gfxstat_sf_frames *sf, const char *name, size_t n, int64_t ts)
{
	int created;
	long li = gx_strmap_add(&sf->layers, name, n, &created);
	uint32_t i;

	if (li < 0)
		return li == GFXSTAT_E_NOMEM ? (int)li : 0;
	if (created) {
		struct layer *l;

		if (ensure((void **)&sf->layer, &sf->cap_layers, (size_t)li, sizeof(*sf->layer)))
			return GFXSTAT_E_NOMEM;
		l = &sf->layer[li];
		l->app = gfxstat_layer_app(sf->layers.keys[li].p, sf->layers.keys[li].n);
		l->pid = -1;
	}
	for (i = 0; i < sf->pending.n; i++) {
		if (sf->pending.layer[i] == (uint32_t)li) { /* two buffers in one refresh: one shows */
			sf->pending.latch[i] = ts;
			return 0;
		}
	}
	if (sf->pending.n < REFRESH_LAYERS) {
		sf->pending.layer[sf->pending.n] = (uint32_t)li;
		sf->pending.latch[sf->pending.n] = ts;
		sf->pending.n++;
	}
	return 0;
}

/* ------------------------------------------------------------------------------------ */
/* markers                                                                                */

static int starts(struct gfxstat_str s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n >= n && memcmp(s.p, lit, n) == 0;
}

/* SF counters that are not layers, whatever their thread or value */
static int non_layer(struct gfxstat_str s)
{
	static const char *const prefixes[] = {
		"VSYNC", "HW_VSYNC", "VSP-", "Vsync", "ZERO_PHASE", "TX - ", "QueuedBuffer - ",
		"PendingRelease", "Prev", "FramebufferSurface", "Total Buffer Size",
		"LumaSamplingStep", "hasClientComposition", "FrameMissed", "HwcFrameMissed",
		"GpuFrameMissed", "Heap size", "GPU completion", "Expected", "RenderRate",
	};
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (starts(s, prefixes[i]))
			return 1;
	return s.n > 8 && memcmp(s.p + s.n - 8, "Negative", 8) == 0;
}

/* "...#<digits>" (8.1+ unique layer names) or a "pkg/activity" window */
static int layer_like(struct gfxstat_str s)
{
	size_t i = s.n;

	while (i > 0 && gx_isdigit(s.p[i - 1]))
		i--;
	if (i < s.n && i > 0 && s.p[i - 1] == '#')
		return 1;
	return memchr(s.p, '/', s.n) != NULL;
}

static int vsync_family(struct gfxstat_sf_frames *sf, struct gfxstat_str s)
{
	if (s.n > 9 && memcmp(s.p, "HW_VSYNC_", 9) == 0 && gx_isdigit(s.p[9])) {
		if (s.n > 10 || s.p[9] != '0')
			sf->sum.markers_seen |= GFXSTAT_SF_SEEN_HW_VSYNC_ID;
		return FAM_HW;
	}
	if (gx_str_eq(s, "VSYNC-app"))
		return FAM_APP;
	if (gx_str_eq(s, "VSYNC-sf"))
		return FAM_SF;
	if (gx_str_eq(s, "VSYNC")) {
		sf->sum.markers_seen |= GFXSTAT_SF_SEEN_VSYNC_LEGACY;
		return FAM_APP;
	}
	if (gx_str_eq(s, "VSYNC-appSf"))
		sf->sum.markers_seen |= GFXSTAT_SF_SEEN_VSYNC_APPSF;
	return -1;
}

static int sf_counter(struct gfxstat_sf_frames *sf, const struct gfxstat_ftrace_line *ev,
		      const struct gfxstat_marker *m)
{
	int created, main = ev->pid == (sf->main_tid >= 0 ? sf->main_tid : sf->sf_pid);
	long ci = gx_strmap_add(&sf->names, m->name.p, m->name.n, &created);
	struct counter *c;
	int lowered;

	if (ci < 0)
		return ci == GFXSTAT_E_NOMEM ? (int)ci : 0;
	if (ensure((void **)&sf->counters, &sf->cap_counters, (size_t)ci, sizeof(*sf->counters)))
		return GFXSTAT_E_NOMEM;
	c = &sf->counters[ci];
	if (!c->checked) {
		c->checked = 1;
		c->layer = -1;
		if (starts(m->name, "BufferTX - ")) {
			sf->sum.markers_seen |= GFXSTAT_SF_SEEN_BUFFER_TX;
		} else if (non_layer(m->name)) {
			c->excluded = 1;
			if (starts(m->name, "TX - "))
				sf->sum.markers_seen |= GFXSTAT_SF_SEEN_TX;
		}
	}
	/* a BufferQueue depth is small, goes up one buffer at a time on a binder thread and
	 * down on the main thread; MIUI's "90fps"/"60fps" votes (values 100-200) are not */
	lowered = (c->has_value ? m->value < c->value : m->value == 0) && m->value >= 0 &&
		  m->value < MAX_QUEUE;
	if (!main && (c->has_value ? m->value == c->value + 1 : m->value == 1) &&
	    m->value <= MAX_QUEUE)
		c->is_queue = 1;
	c->value = m->value;
	c->has_value = 1;
	if (c->excluded || !main || !lowered)
		return 0;
	if (starts(m->name, "BufferTX - "))
		return latch(sf, m->name.p + 11, m->name.n - 11, ev->ts_ns);
	if (c->is_queue || layer_like(m->name))
		return latch(sf, m->name.p, m->name.n, ev->ts_ns);
	return 0;
}

static int is_composition(struct gfxstat_sf_frames *sf, struct gfxstat_str s)
{
	if (gx_str_eq(s, "handleMessageRefresh")) {
		sf->sum.markers_seen |= GFXSTAT_SF_SEEN_HANDLE_MESSAGE_REFRESH;
		return 1;
	}
	if (gx_str_eq(s, "onMessageRefresh")) {
		sf->sum.markers_seen |= GFXSTAT_SF_SEEN_ON_MESSAGE_REFRESH;
		return 1;
	}
	if (gx_str_eq(s, "composite") || starts(s, "composite ")) {
		sf->sum.markers_seen |= GFXSTAT_SF_SEEN_COMMIT_COMPOSITE;
		return 1;
	}
	if (starts(s, "onMessageInvalidate"))
		sf->sum.markers_seen |= GFXSTAT_SF_SEEN_ON_MESSAGE_INVALIDATE;
	else if (starts(s, "commit "))
		sf->sum.markers_seen |= GFXSTAT_SF_SEEN_COMMIT_COMPOSITE;
	return 0;
}

static int is_present(struct gfxstat_sf_frames *sf, struct gfxstat_str s)
{
	if (gx_str_eq(s, "postFramebuffer")) {
		sf->sum.markers_seen |= GFXSTAT_SF_SEEN_POSTFRAMEBUFFER;
		return 1;
	}
	if (starts(s, "postFramebuffer for ")) {
		sf->sum.markers_seen |= GFXSTAT_SF_SEEN_POSTFRAMEBUFFER_FOR;
		return 1;
	}
	if (starts(s, "presentFrameAndReleaseLayers for ")) {
		sf->sum.markers_seen |= GFXSTAT_SF_SEEN_PRESENT_AND_RELEASE;
		return 1;
	}
	return 0;
}

static void note_comm(struct gfxstat_sf_frames *sf, const struct gfxstat_ftrace_line *ev,
		      const struct gfxstat_marker *m)
{
	long i;

	/* the main thread of a process: its tid is the process id */
	if (ev->pid != m->pid || ev->task.n == 0 || ev->task.p[0] == '<')
		return;
	i = gx_strmap_add(&sf->comms, ev->task.p, ev->task.n, NULL);
	if (i < 0 || ensure((void **)&sf->comm_pid, &sf->cap_comms, (size_t)i, sizeof(int32_t)))
		return;
	sf->comm_pid[i] = m->pid;
}

int gfxstat_sf_frames_marker(void *p, const struct gfxstat_ftrace_line *ev,
			     const struct gfxstat_marker *m)
{
	struct gfxstat_sf_frames *sf = p;
	int rc, fi = -1;

	if (sf->sum.first_ts == GFXSTAT_NS_NONE)
		sf->sum.first_ts = ev->ts_ns;
	sf->sum.last_ts = ev->ts_ns;
	if (m->kind == GFXSTAT_MARKER_COUNTER) {
		fi = vsync_family(sf, m->name);
		if (fi >= 0 && sf->sf_pid < 0 && m->pid >= 0) {
			sf->sf_pid = m->pid;
			sf->sum.sf_pid = m->pid;
		}
	}
	rc = resolve(sf, ev->ts_ns, fi >= 0 && m->pid == sf->sf_pid ? ev->ts_ns : GFXSTAT_NS_NONE);
	if (rc)
		return rc;
	if (fi >= 0 && m->pid == sf->sf_pid)
		vsync_toggle(sf, fi, ev->ts_ns);
	if (m->pid != sf->sf_pid || sf->sf_pid < 0) {
		if (m->pid >= 0)
			note_comm(sf, ev, m);
		return 0;
	}
	switch (m->kind) {
	case GFXSTAT_MARKER_COUNTER:
		return fi >= 0 ? 0 : sf_counter(sf, ev, m);
	case GFXSTAT_MARKER_BEGIN:
		if (is_present(sf, m->name)) {
			if (sf->main_tid < 0) {
				sf->main_tid = ev->pid;
				sf->sum.sf_main_tid = ev->pid;
			}
			sf->saw_present_marker = 1;
			sf->presented_in_comp = 1;
			return present_marker(sf, ev->ts_ns);
		}
		if (is_composition(sf, m->name)) {
			if (sf->main_tid < 0) {
				sf->main_tid = ev->pid;
				sf->sum.sf_main_tid = ev->pid;
			}
			if (!sf->in_composition && ev->pid == sf->main_tid) {
				sf->in_composition = sf->depth + 1;
				sf->presented_in_comp = 0;
			}
		}
		if (ev->pid == sf->main_tid && sf->depth < 1000)
			sf->depth++;
		return 0;
	case GFXSTAT_MARKER_END:
		if (ev->pid != sf->main_tid || sf->depth == 0)
			return 0;
		if (sf->in_composition == sf->depth) {
			sf->in_composition = 0;
			/* an era or a capture without present markers: the composition presents */
			if (!sf->saw_present_marker && !sf->presented_in_comp)
				rc = present_marker(sf, ev->ts_ns);
		}
		sf->depth--;
		return rc;
	default:
		return 0;
	}
}

int gfxstat_sf_frames_finish(struct gfxstat_sf_frames *sf)
{
	int rc = 0;

	while (sf->await_n && !rc) {
		struct refresh *r = &sf->await[sf->await_head];

		rc = emit_refresh(sf, r, r->predicted);
		sf->await_head = (sf->await_head + 1) % AWAIT_MAX;
		sf->await_n--;
	}
	sf->sum.latched_unpresented += sf->pending.n;
	sf->pending.n = 0;
	return rc;
}

void gfxstat_sf_frames_summary(const struct gfxstat_sf_frames *sf,
			       struct gfxstat_sf_summary *out)
{
	*out = sf->sum;
}
