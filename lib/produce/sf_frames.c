/* SPDX-License-Identifier: MIT */
/*
 * Per-layer frames from SurfaceFlinger's atrace markers (FORMATS.md 2). A frame is a buffer
 * that SF's main thread latched (the layer's BufferQueue counter lowered on <= 11, the
 * "BufferTX - <layer>" count lowered on 12+) in a refresh that reached the display (a
 * present marker of the era). Every layer latched in a refresh gets its frame, and every
 * refresh a "(display)" frame with SF's own verdict. The present time is the vsync after the
 * present marker on ONE vsync grid (one counter family, VSYNC-sf when the trace has it): the
 * next toggle of that family, or the grid's prediction when SF went idle and none follows.
 * One composition is one refresh of each powered panel, whatever number of outputs it
 * presents (present_for()); the refresh period is the one SurfaceFlinger declares
 * (declare_period()), else the one measured, and frames carry the mode's (note_mode()).
 */
#include <stdio.h>
#include <stdlib.h>

#include "produce_local.h"

/* distinct names per trace; a refresh holds at most one entry per layer name, so it grows
 * up to this too (SurfaceFlinger alone allows 4096 live layers, SurfaceFlinger.h MAX_LAYERS):
 * memory stays linear in the layers of the trace */
#define MAX_NAMES 65536
#define AWAIT_MAX 8          /* refreshes waiting for their vsync */
#define MAX_DISPLAYS 16      /* displays told apart by name or id; more are one unknown */
#define OUTPUT_NAME 160      /* longest output name kept ("present for <name>") */
/* a period the system declares, within any refresh rate a panel has (5 to 1000 Hz) */
#define DECLARED_MIN (GFXSTAT_NSEC_PER_SEC / 1000)
#define DECLARED_MAX (GFXSTAT_NSEC_PER_SEC / 5)
#define RING 32              /* recent vsync intervals per counter family */
#define IDLE_NS (100 * GFXSTAT_NSEC_PER_MSEC)
#define DEFAULT_PERIOD 16666667
#define MAX_QUEUE 64         /* deepest BufferQueue we believe in */
#define MODE_FIRST 3         /* intervals for a first, provisional period */
#define MODE_CONFIRM 8       /* intervals before the first mode is reported */
#define MODE_SUSTAIN 6       /* consecutive intervals at a new period before a mode switch */
#define MODE_TOL_PCT 12      /* an interval within 12 % of a period belongs to it */
/* an app's queueBuffer reaches SF's binder thread within this (a synchronous binder call) */
#define QUEUE_CALL_NS (2 * GFXSTAT_NSEC_PER_MSEC)

enum { FAM_HW, FAM_APP, FAM_SF, FAM_COUNT };

struct counter {
	int64_t value;
	int32_t value_pid;     /* the process that wrote @value (counters are kept before SF is
				* known, so that SF's first latch finds the binder thread's raise) */
	unsigned has_value : 1;
	unsigned is_queue : 1; /* raised by an SF thread other than the main one: a BufferQueue */
	unsigned excluded : 1;
	unsigned checked : 1;
	unsigned verdict : 1;  /* FrameMissed & co: SF's verdict on its previous refresh */
	int32_t owner;         /* pid + 1 of the app whose queueBuffer raised it; 0 unknown;
				* -1 when different apps seemed to: no owner is claimed */
};

struct layer {
	int64_t last_present;
	int32_t pid;
	unsigned has_last : 1;
	struct gfxstat_str app; /* points into the interned name */
	uint64_t pend_gen;      /* latched in the pending refresh when == sf->pend_gen ... */
	uint32_t pend_ix;       /* ... at this index of it */
};

struct refresh {
	int64_t marker_ts;
	int64_t predicted;
	int64_t vsync_id;      /* Android 13+: the "commit <id>"/"composite <id>" it was made in
				* (FrameTimeline's display frame token), or -1 */
	int missed;            /* SF's verdict: 1 missed, 0 on time, -1 none yet */
	uint64_t seq;          /* which refresh, in marker order */
	uint32_t n, cap;       /* layers latched in it; grows, one entry per layer at most */
	uint32_t *layer;
	int64_t *latch;
	unsigned nextra;       /* further powered displays this composition refreshed */
	uint8_t extra[MAX_DISPLAYS];
};

/*
 * A display (an output of SurfaceFlinger's CompositionEngine) as the markers name it: by its
 * display id, as "PowerMode <id>" and "present for <name> (<id>)" write it, else by name.
 */
struct display {
	char key[OUTPUT_NAME];
	int power;             /* 1 on, 0 off (PowerMode counter), -1 not seen */
	int64_t last_present;  /* of its own display layer, when it is not "(display)" */
};

struct family {
	int64_t last;
	int has_last;
	unsigned n, head;
	int64_t iv[RING];     /* intervals of the mode in force (or of the provisional one) */
	int64_t cand, cand_from; /* a new period being seen, its mean and first toggle */
	unsigned cand_n;
};

struct display_frame {
	int64_t present, period, vsync_id;
	int missed;
	int valid;
};

struct gfxstat_sf_frames {
	gfxstat_frame_fn fn;
	void *user;
	int32_t sf_pid, main_tid;
	int64_t vsync_id;       /* of the newest "commit <id>"/"composite <id>", or -1 */
	int32_t qb_pid;         /* the last app process that began a queueBuffer, and when */
	int64_t qb_ts;
	int saw_present_marker;
	int in_composition;   /* depth of the composition slice on the main thread, 0 = none */
	int depth;            /* main-thread slice depth */
	int presented_in_comp;
	uint64_t comp_seq;    /* the refresh this composition made (valid when comp_refresh) */
	int comp_refresh;     /* this composition made a refresh ... */
	int comp_owner;       /* ... for this display (index), or -1 when unnamed */
	int output_depth;     /* depth of an open "present for <name>" slice, 0 = none */
	char output[OUTPUT_NAME]; /* its name */
	struct display disp[MAX_DISPLAYS];
	unsigned ndisp;
	uint64_t next_seq;
	uint64_t last_stamp_seq; /* the refresh stamped last */
	uint64_t pend_gen;    /* generation of the pending refresh (struct layer.pend_gen) */
	int64_t declared;     /* the refresh period the system declared last, or 0 */
	int64_t frame_period; /* the period frames carry: the reported mode's, fixed per mode */
	struct gx_strmap names; /* counter names */
	struct counter *counters;
	size_t cap_counters;
	struct gx_strmap layers;
	struct layer *layer;
	size_t cap_layers;
	struct gx_strmap comms; /* main-thread comm -> pid, to find a layer's app process */
	int32_t *comm_pid;
	size_t cap_comms;
	/* the (pid, comm) note_comm() set last: a thread's markers come in runs, each would ask
	 * the map again for the same answer */
	int32_t last_comm_pid;
	unsigned char last_comm_n; /* 0: none */
	char last_comm[32];
	struct refresh pending;
	struct refresh await[AWAIT_MAX];
	unsigned await_head, await_n;
	struct family fam[FAM_COUNT];
	int64_t period;
	int mode_state;       /* 0 default period, 1 provisional, 2 confirmed (in modes[]) */
	int stamp_fam;        /* the one family whose toggles stamp presents, or -1 */
	int64_t last_stamp;   /* present of the newest refresh stamped, or NONE */
	int modern;           /* Android 8.1+: every layer name ends in "#<id>" */
	int saw_verdict;      /* the trace has SF's FrameMissed counters */
	struct display_frame held; /* the newest refresh's display frame, waiting its verdict */
	int64_t last_display;
	int64_t first_vsync;
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
	sf->qb_pid = -1;
	sf->qb_ts = GFXSTAT_NS_NONE;
	sf->vsync_id = -1;
	sf->main_tid = -1;
	sf->period = DEFAULT_PERIOD;
	sf->pend_gen = 1;
	sf->comp_owner = -1;
	sf->stamp_fam = -1;
	sf->last_stamp = GFXSTAT_NS_NONE;
	sf->last_display = GFXSTAT_NS_NONE;
	sf->first_vsync = GFXSTAT_NS_NONE;
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
	unsigned i;

	if (!sf)
		return;
	free(sf->pending.layer);
	free(sf->pending.latch);
	for (i = 0; i < AWAIT_MAX; i++) {
		free(sf->await[i].layer);
		free(sf->await[i].latch);
	}
	gx_strmap_free(&sf->names);
	gx_strmap_free(&sf->layers);
	gx_strmap_free(&sf->comms);
	free(sf->counters);
	free(sf->layer);
	free(sf->comm_pid);
	free(sf);
}

/* Grow @arr (of @size-byte elements) to hold index @i, the new elements zeroed. */
static int ensure(void **arr, size_t *cap, size_t i, size_t size)
{
	size_t was = *cap;

	if (i < was)
		return 0;
	if (gx_grow(arr, cap, i, size, 64))
		return GFXSTAT_E_NOMEM;
	memset((char *)*arr + was * size, 0, (*cap - was) * size);
	return 0;
}


/* ------------------------------------------------------------------------------------ */
/* vsync grid and refresh period                                                          */

/*
 * A refresh mode begins at @ts, at sf->period. Frames carry this period until the next mode,
 * even as the grid's own estimate (sf->period) is refined by later intervals: every command
 * then shows the one rate `inspect` lists for the mode.
 */
static void note_mode(struct gfxstat_sf_frames *sf, int64_t ts)
{
	struct gfxstat_sf_summary *s = &sf->sum;

	sf->frame_period = sf->period;
	if (s->nmodes < sizeof(s->modes) / sizeof(s->modes[0])) {
		s->modes[s->nmodes].from_ns = ts;
		s->modes[s->nmodes].period_ns = sf->period;
		s->nmodes++;
	}
}

static int near(int64_t d, int64_t period)
{
	return llabs(d - period) <= period * MODE_TOL_PCT / 100;
}

/* @d is k >= 2 periods: vsyncs the software counter skipped, no news about the period */
static int multiple(int64_t d, int64_t period)
{
	int64_t k = (d + period / 2) / period;

	return k >= 2 && llabs(d - k * period) <= period * MODE_TOL_PCT / 100;
}

static void push(struct family *f, int64_t d)
{
	f->iv[f->head] = d;
	f->head = (f->head + 1) % RING;
	if (f->n < RING)
		f->n++;
}

static void keep_near(struct family *f, int64_t period)
{
	int64_t v[RING];
	unsigned i, k = 0;

	for (i = 0; i < f->n; i++)
		if (near(f->iv[i], period))
			v[k++] = f->iv[i];
	memcpy(f->iv, v, k * sizeof(v[0]));
	f->n = k;
	f->head = k % RING;
}

/*
 * One interval of family @f. The period in force is the mean of the intervals that belong
 * to it (snapped to its cluster, so jitter does not move it). A new period needs
 * MODE_SUSTAIN consecutive intervals at it: one early or late vsync is not a mode switch.
 */
static void period_interval(struct gfxstat_sf_frames *sf, struct family *f, int64_t d,
			    int64_t ts)
{
	int i;

	if (sf->declared)
		return; /* the system said what the period is (declare_period()) */
	if (sf->mode_state < 2) {
		/* no mode yet: the cluster of the shortest intervals, as vsync detection does */
		push(f, d);
		if (f->n >= MODE_FIRST) {
			sf->period = gx_cluster_mean(f->iv, f->n);
			sf->mode_state = 1;
		}
		if (f->n >= MODE_CONFIRM) {
			sf->mode_state = 2;
			note_mode(sf, sf->first_vsync);
			/* from now on a family's ring holds the intervals of the mode only */
			for (i = 0; i < FAM_COUNT; i++)
				keep_near(&sf->fam[i], sf->period);
		}
		return;
	}
	if (near(d, sf->period)) {
		int64_t sum = 0;
		unsigned j;

		/* snapped to the cluster: the mean of the intervals at this period */
		push(f, d);
		for (j = 0; j < f->n; j++)
			sum += f->iv[j];
		sf->period = (sum + f->n / 2) / f->n;
		f->cand_n = 0;
		return;
	}
	if (multiple(d, sf->period))
		return;
	if (f->cand_n && near(d, f->cand)) {
		f->cand = (f->cand * f->cand_n + d) / (f->cand_n + 1);
		f->cand_n++;
	} else {
		f->cand = d;
		f->cand_n = 1;
		f->cand_from = ts - d;
	}
	if (f->cand_n < MODE_SUSTAIN)
		return;
	sf->period = f->cand;
	for (i = 0; i < FAM_COUNT; i++) {
		sf->fam[i].n = 0;
		sf->fam[i].head = 0;
		sf->fam[i].cand_n = 0;
	}
	push(f, sf->period);
	note_mode(sf, f->cand_from);
}

/*
 * The refresh period the system declares (declared_period()): it is the period, from @ts on;
 * no estimate from vsync toggles replaces it. Hardware vsync stamps jitter (a declared
 * 8333333 ns was measured 8.18 ms), a declaration does not. A first declaration close to the
 * one mode estimated so far is that mode, known exactly now: the mode is corrected, not split.
 */
static void declare_period(struct gfxstat_sf_frames *sf, int64_t v, int64_t ts)
{
	struct gfxstat_sf_summary *s = &sf->sum;
	int64_t before = sf->declared;
	int i;

	if (v < DECLARED_MIN || v > DECLARED_MAX)
		return;
	sf->declared = v;
	sf->period = v;
	for (i = 0; i < FAM_COUNT; i++) {
		sf->fam[i].n = 0;
		sf->fam[i].head = 0;
		sf->fam[i].cand_n = 0;
	}
	if (sf->mode_state == 2 && sf->frame_period == v)
		return; /* the mode in force, declared again */
	if (sf->mode_state == 2 && !before && s->nmodes == 1 && near(v, s->modes[0].period_ns)) {
		s->modes[0].period_ns = v;
		sf->frame_period = v;
		return;
	}
	sf->mode_state = 2;
	if (!s->nmodes && sf->first_vsync != GFXSTAT_NS_NONE && sf->first_vsync < ts)
		ts = sf->first_vsync;
	note_mode(sf, ts);
}

/* The period a frame carries: the mode's (note_mode()), or the provisional one before. */
static int64_t frame_period(const struct gfxstat_sf_frames *sf)
{
	return sf->frame_period > 0 ? sf->frame_period : sf->period;
}

/* The stamping grid: VSYNC-sf (SF wakes on it), else the app/legacy VSYNC, else HW_VSYNC. */
static int stamp_rank(int fi)
{
	return fi == FAM_SF ? 3 : fi == FAM_APP ? 2 : 1;
}

static void vsync_toggle(struct gfxstat_sf_frames *sf, int fi, int64_t ts)
{
	struct family *f = &sf->fam[fi];

	if (sf->first_vsync == GFXSTAT_NS_NONE)
		sf->first_vsync = ts;
	if (f->has_last && ts > f->last && ts - f->last <= IDLE_NS)
		period_interval(sf, f, ts - f->last, ts);
	f->last = ts;
	f->has_last = 1;
	if (sf->stamp_fam < 0 || stamp_rank(fi) > stamp_rank(sf->stamp_fam))
		sf->stamp_fam = fi;
}

/* The first vsync of the stamping grid after @t. */
static int64_t predict(const struct gfxstat_sf_frames *sf, int64_t t)
{
	const struct family *f = sf->stamp_fam < 0 ? NULL : &sf->fam[sf->stamp_fam];
	int64_t k;

	if (!f)
		return t + sf->period;
	if (t < f->last) { /* a refresh from before the newest toggle: step back on the grid */
		k = (f->last - t - 1) / sf->period; /* the first grid point strictly after @t */
		return f->last - k * sf->period;
	}
	k = (t - f->last) / sf->period + 1;
	return f->last + k * sf->period;
}

/*
 * The vsync refresh @r waits for: on the grid after its marker, and at least one vsync after
 * the previous refresh's present (one present per vsync). Known once the period is measured.
 */
static void set_predicted(struct gfxstat_sf_frames *sf, struct refresh *r)
{
	r->predicted = predict(sf, r->marker_ts);
	if (sf->last_stamp != GFXSTAT_NS_NONE &&
	    r->predicted < sf->last_stamp + sf->period / 2)
		r->predicted = predict(sf, sf->last_stamp);
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

/* The display frame of the refresh before: its verdict came (or never will). */
static int emit_held(struct gfxstat_sf_frames *sf)
{
	struct display_frame *h = &sf->held;
	struct gfxstat_frame f;

	if (!h->valid)
		return 0;
	h->valid = 0;
	gfxstat_frame_init(&f, GFXSTAT_SRC_FTRACE_DISPLAY);
	f.layer.p = "(display)";
	f.layer.n = 9;
	f.pid = sf->sf_pid;
	f.present_ns = h->present;
	f.interval_ns = sf->last_display == GFXSTAT_NS_NONE ? GFXSTAT_NS_NONE :
							    h->present - sf->last_display;
	f.vsync_period_ns = h->period;
	f.token = f.display_token = h->vsync_id;
	/* -1 when this trace has no verdict counters, or none came for this refresh */
	f.janky = h->missed;
	sf->last_display = h->present;
	sf->sum.display_frames++;
	return sf->fn ? sf->fn(sf->user, &f) : 0;
}

/*
 * The refresh of a further powered display in the same composition (one composite refreshes
 * every powered display, CompositionEngine::present -> Output::present per output): a display
 * layer of its own, "(display <id>)", at the same vsync. SF's FrameMissed verdicts are about
 * its previous present fence, of one display: no verdict here.
 */
static int emit_extra_display(struct gfxstat_sf_frames *sf, unsigned di, int64_t present,
			      int64_t vsync_id)
{
	struct display *d = &sf->disp[di];
	struct gfxstat_frame f;
	char name[OUTPUT_NAME + 16];
	int k;

	if (d->last_present != GFXSTAT_NS_NONE && present <= d->last_present) {
		sf->sum.nonincreasing++;
		return 0;
	}
	k = snprintf(name, sizeof(name), "(display %s)", d->key);
	gfxstat_frame_init(&f, GFXSTAT_SRC_FTRACE_DISPLAY);
	f.layer.p = name;
	f.layer.n = k > 0 && (size_t)k < sizeof(name) ? (size_t)k : strlen(name);
	f.pid = sf->sf_pid;
	f.present_ns = present;
	f.interval_ns = d->last_present == GFXSTAT_NS_NONE ? GFXSTAT_NS_NONE
							   : present - d->last_present;
	f.vsync_period_ns = frame_period(sf);
	f.token = f.display_token = vsync_id;
	f.janky = -1;
	d->last_present = present;
	sf->sum.display_frames++;
	return sf->fn ? sf->fn(sf->user, &f) : 0;
}

static int emit_refresh(struct gfxstat_sf_frames *sf, struct refresh *r, int64_t present)
{
	uint32_t i;
	int rc = emit_held(sf);

	for (i = 0; i < r->n && !rc; i++) {
		struct layer *l = &sf->layer[r->layer[i]];
		const struct gx_strmap_key *k = &sf->layers.keys[r->layer[i]];
		struct gfxstat_frame f;

		/* a layer shows one buffer per vsync: a present that does not move forward is a
		 * fault of ours, counted, never emitted */
		if (l->has_last && present <= l->last_present) {
			sf->sum.nonincreasing++;
			continue;
		}
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
		f.display_token = r->vsync_id;
		f.vsync_period_ns = frame_period(sf);
		l->last_present = present;
		l->has_last = 1;
		sf->sum.frames++;
		if (sf->fn)
			rc = sf->fn(sf->user, &f);
	}
	for (i = 0; i < r->nextra && !rc; i++)
		rc = emit_extra_display(sf, r->extra[i], present, r->vsync_id);
	sf->sum.refreshes++;
	r->n = 0;
	r->nextra = 0;
	sf->last_stamp = present;
	sf->last_stamp_seq = r->seq;
	if (sf->last_display == GFXSTAT_NS_NONE || present > sf->last_display) {
		sf->held.valid = 1;
		sf->held.present = present;
		sf->held.period = frame_period(sf);
		sf->held.missed = r->missed;
		sf->held.vsync_id = r->vsync_id;
	} else {
		sf->sum.nonincreasing++;
	}
	return rc;
}

/* Stamp waiting refreshes: with the stamping family's toggle at @toggle (when not NONE), or
 * by the clock @now. */
static int resolve(struct gfxstat_sf_frames *sf, int64_t now, int64_t toggle)
{
	int rc = 0;

	while (sf->await_n && !rc) {
		struct refresh *r = &sf->await[sf->await_head];
		int64_t present;

		/* with no period measured yet a prediction would be on a wrong grid: wait */
		if (!sf->mode_state && now - r->marker_ts < IDLE_NS)
			break;
		set_predicted(sf, r);
		if (toggle != GFXSTAT_NS_NONE && toggle > r->marker_ts &&
		    toggle > r->predicted - sf->period / 2 &&
		    toggle <= r->predicted + sf->period / 2)
			present = toggle;
		else if (now > r->predicted + sf->period / 2)
			present = r->predicted;
		else
			break;
		/* a grid that jumped (a toggle far off the period): one present per vsync still */
		if (sf->last_stamp != GFXSTAT_NS_NONE &&
		    present < sf->last_stamp + sf->period * 3 / 4)
			present = sf->last_stamp + sf->period;
		rc = emit_refresh(sf, r, present);
		sf->await_head = (sf->await_head + 1) % AWAIT_MAX;
		sf->await_n--;
		toggle = GFXSTAT_NS_NONE; /* one toggle stamps one refresh */
	}
	return rc;
}

/* Stamp the oldest waiting refresh with its prediction (end of input, or a full queue). */
static int force_oldest(struct gfxstat_sf_frames *sf)
{
	struct refresh *r = &sf->await[sf->await_head];

	set_predicted(sf, r);
	sf->await_head = (sf->await_head + 1) % AWAIT_MAX;
	sf->await_n--;
	return emit_refresh(sf, r, r->predicted);
}

/* A present marker: what was latched since the last one goes to the display. */
static int present_marker(struct gfxstat_sf_frames *sf, int64_t ts)
{
	struct refresh *r;
	int rc = 0;

	if (sf->await_n == AWAIT_MAX) /* no vsync for a long time: use the prediction */
		rc = force_oldest(sf);
	r = &sf->await[(sf->await_head + sf->await_n) % AWAIT_MAX];
	{
		/* the latched layers move to the waiting slot; its emptied buffers come back */
		uint32_t *layer = r->layer, cap = r->cap;
		int64_t *latch = r->latch;

		r->layer = sf->pending.layer;
		r->latch = sf->pending.latch;
		r->cap = sf->pending.cap;
		r->n = sf->pending.n;
		sf->pending.layer = layer;
		sf->pending.latch = latch;
		sf->pending.cap = cap;
		sf->pending.n = 0;
	}
	r->marker_ts = ts;
	r->vsync_id = sf->vsync_id;
	r->missed = -1;
	r->predicted = GFXSTAT_NS_NONE; /* set when its turn comes, after the ones before */
	r->nextra = 0;
	r->seq = sf->next_seq++;
	sf->await_n++;
	sf->pend_gen++; /* a new pending refresh: no layer is latched in it yet */
	return rc;
}

/*
 * SF's verdict on its previous refresh. At the start of each refresh SF traces whether the
 * previous frame missed: "FrameMissed"/"HwcFrameMissed"/"GpuFrameMissed" (<= 11, in
 * handleMessageInvalidate/onMessageInvalidate), "PrevFrameMissed"/"PrevHwcFrameMissed"/
 * "PrevGpuFrameMissed" (12+, in commit): missed = the previous present fence still pending,
 * or signalled more than half a period after the vsync it was scheduled for; the Hwc/Gpu
 * ones are that, ANDed with the kind of composition
 * (LineageOS/android_frameworks_native services/surfaceflinger/SurfaceFlinger.cpp,
 * SurfaceFlinger::commit / onMessageInvalidate). It refers to the newest refresh presented
 * before it; SF may check again (a skipped invalidate), so a refresh once missed stays so.
 */
static void verdict(struct gfxstat_sf_frames *sf, int64_t value)
{
	int missed = value != 0;
	int *m;

	sf->saw_verdict = 1;
	if (sf->await_n)
		m = &sf->await[(sf->await_head + sf->await_n - 1) % AWAIT_MAX].missed;
	else if (sf->held.valid)
		m = &sf->held.missed;
	else
		return;
	if (*m < missed)
		*m = missed;
}

static int latch(struct gfxstat_sf_frames *sf, const char *name, size_t n, int64_t ts,
		 int32_t owner)
{
	int created;
	long li = gx_strmap_add(&sf->layers, name, n, &created);
	struct layer *l;

	if (li < 0) {
		if (li == GFXSTAT_E_NOMEM)
			return (int)li;
		sf->sum.over_limit++; /* more layers than MAX_NAMES: said, never silent */
		return 0;
	}
	if (created) {
		if (ensure((void **)&sf->layer, &sf->cap_layers, (size_t)li, sizeof(*sf->layer)))
			return GFXSTAT_E_NOMEM;
		l = &sf->layer[li];
		l->app = gfxstat_layer_app(sf->layers.keys[li].p, sf->layers.keys[li].n);
		l->pid = -1;
	}
	/* a layer whose name names no package ("#0", an untitled window) still has a producer */
	if (!sf->layer[li].app.n && sf->layer[li].pid < 0 && owner > 0)
		sf->layer[li].pid = owner - 1;
	l = &sf->layer[li];
	if (l->pend_gen == sf->pend_gen) { /* two buffers in one refresh: the last one shows */
		sf->pending.latch[l->pend_ix] = ts;
		return 0;
	}
	/* one entry per layer: a refresh holds at most as many as there are layer names */
	if (sf->pending.n == sf->pending.cap) {
		uint32_t nc = sf->pending.cap ? sf->pending.cap * 2 : 64;
		uint32_t *nl = realloc(sf->pending.layer, nc * sizeof(*nl));
		int64_t *nt;

		if (!nl)
			return GFXSTAT_E_NOMEM;
		sf->pending.layer = nl;
		nt = realloc(sf->pending.latch, nc * sizeof(*nt));
		if (!nt)
			return GFXSTAT_E_NOMEM;
		sf->pending.latch = nt;
		sf->pending.cap = nc;
	}
	l->pend_gen = sf->pend_gen;
	l->pend_ix = sf->pending.n;
	sf->pending.layer[sf->pending.n] = (uint32_t)li;
	sf->pending.latch[sf->pending.n] = ts;
	sf->pending.n++;
	return 0;
}

/* ------------------------------------------------------------------------------------ */
/* markers                                                                                */

static int starts(struct gfxstat_str s, const char *lit)
{
	size_t n = strlen(lit);

	/* the first byte before a call: most names asked about are not the one */
	return s.n >= n && (!n || (s.p[0] == lit[0] && memcmp(s.p, lit, n) == 0));
}

/*
 * SF's own counters that are not layers, whatever their thread or value: a second guard
 * behind the positive rule of layer_counter() (TransactionQueue goes up on binder threads
 * and down on the main thread exactly like a BufferQueue).
 */
static int non_layer(struct gfxstat_str s)
{
#define PFX(lit) { lit, sizeof(lit) - 1 }
	/* with their lengths: this is asked of every counter name SurfaceFlinger writes */
	static const struct {
		const char *p;
		size_t n;
	} prefixes[] = {
		PFX("VSYNC"), PFX("HW_VSYNC"), PFX("VSP-"), PFX("Vsync"), PFX("ZERO_PHASE"),
		PFX("TX - "), PFX("QueuedBuffer - "), PFX("PendingRelease"), PFX("Prev"),
		PFX("FramebufferSurface"), PFX("Total Buffer Size"), PFX("LumaSamplingStep"),
		PFX("hasClientComposition"), PFX("FrameMissed"), PFX("HwcFrameMissed"),
		PFX("GpuFrameMissed"), PFX("Heap size"), PFX("GPU completion"), PFX("Expected"),
		PFX("RenderRate"), PFX("Transaction"), PFX("TexturePoolSize"), PFX("TouchState"),
		PFX("ExpiredIdleTimer"), PFX("iq"), PFX("aq:"), PFX("wq:"), PFX("oq:"),
		PFX("PowerMode"), PFX("VSR-"),
	};
#undef PFX
	size_t i;

	for (i = 0; s.n && i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (s.n >= prefixes[i].n && s.p[0] == prefixes[i].p[0] &&
		    memcmp(s.p, prefixes[i].p, prefixes[i].n) == 0)
			return 1;
	return s.n > 8 && memcmp(s.p + s.n - 8, "Negative", 8) == 0;
}

/* "...#<digits>": SurfaceFlinger's unique layer names (8.1+, getUniqueLayerName) */
static int has_layer_id(struct gfxstat_str s)
{
	size_t i = s.n;

	while (i > 0 && gx_isdigit(s.p[i - 1]))
		i--;
	return i < s.n && i > 0 && s.p[i - 1] == '#';
}

/*
 * Is SF's counter @c named @s the queued-buffer count of a layer? Who writes which:
 * - 12+: "BufferTX - <layer>", SF's pending buffer transactions of the layer, raised when a
 *   transaction brings a buffer (binder thread), lowered when the main thread latches or
 *   drops it (LineageOS/android_frameworks_native services/surfaceflinger/Layer.h,
 *   mBlastTransactionName; BufferStateLayer.cpp on 12-13). Handled by the caller.
 * - <= 11: the layer's BufferQueue lives in SF and is named after the layer
 *   (BufferQueueLayer.cpp: mConsumer->setName(mName)); BufferQueueProducer::queueBuffer
 *   (binder thread) and BufferQueueConsumer::acquireBuffer (main thread, at latch) trace
 *   ATRACE_INT(mCore->mConsumerName, queue size) (libs/gui/BufferQueueProducer.cpp).
 *   Since 8.1 every layer name ends in "#<id>", so in a trace of that era (an "#<id>" name
 *   or 10+ markers seen) nothing else is a layer; before, a counter SF raised by one on a
 *   binder thread and lowers on the main thread is, as is a "pkg/activity" window name.
 */
static int layer_counter(struct gfxstat_sf_frames *sf, const struct counter *c,
			 struct gfxstat_str s)
{
	if (non_layer(s))
		return 0;
	if (has_layer_id(s))
		return 1;
	if (sf->modern)
		return 0;
	return c->is_queue || memchr(s.p, '/', s.n) != NULL;
}

/* SF markers of Android 10+ (where all layer names carry "#<id>") */
#define SEEN_MODERN                                                                        \
	(GFXSTAT_SF_SEEN_HW_VSYNC_ID | GFXSTAT_SF_SEEN_VSYNC_APPSF | GFXSTAT_SF_SEEN_BUFFER_TX | \
	 GFXSTAT_SF_SEEN_ON_MESSAGE_INVALIDATE | GFXSTAT_SF_SEEN_ON_MESSAGE_REFRESH |          \
	 GFXSTAT_SF_SEEN_COMMIT_COMPOSITE | GFXSTAT_SF_SEEN_POSTFRAMEBUFFER_FOR |              \
	 GFXSTAT_SF_SEEN_PRESENT_AND_RELEASE)

static int is_verdict(struct gfxstat_str s)
{
	return gx_str_eq(s, "FrameMissed") || gx_str_eq(s, "HwcFrameMissed") ||
	       gx_str_eq(s, "GpuFrameMissed") || gx_str_eq(s, "PrevFrameMissed") ||
	       gx_str_eq(s, "PrevHwcFrameMissed") || gx_str_eq(s, "PrevGpuFrameMissed");
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

/* A counter before SurfaceFlinger is known: remember its value and writer. */
static int early_counter(struct gfxstat_sf_frames *sf, const struct gfxstat_marker *m)
{
	long ci = gx_strmap_add(&sf->names, m->name.p, m->name.n, NULL);
	struct counter *c;

	if (ci < 0) {
		if (ci == GFXSTAT_E_NOMEM)
			return (int)ci;
		sf->sum.over_limit++;
		return 0;
	}
	if (ensure((void **)&sf->counters, &sf->cap_counters, (size_t)ci, sizeof(*sf->counters)))
		return GFXSTAT_E_NOMEM;
	c = &sf->counters[ci];
	c->value = m->value;
	c->value_pid = m->pid;
	c->has_value = 1;
	return 0;
}

static int sf_counter(struct gfxstat_sf_frames *sf, const struct gfxstat_ftrace_line *ev,
		      const struct gfxstat_marker *m)
{
	int main = ev->pid == (sf->main_tid >= 0 ? sf->main_tid : sf->sf_pid);
	long ci = gx_strmap_add(&sf->names, m->name.p, m->name.n, NULL);
	struct counter *c;
	int lowered, known;

	if (ci < 0) {
		if (ci == GFXSTAT_E_NOMEM)
			return (int)ci;
		sf->sum.over_limit++;
		return 0;
	}
	if (ensure((void **)&sf->counters, &sf->cap_counters, (size_t)ci, sizeof(*sf->counters)))
		return GFXSTAT_E_NOMEM;
	c = &sf->counters[ci];
	if (!c->checked) {
		c->checked = 1;
		c->verdict = is_verdict(m->name);
		if (starts(m->name, "BufferTX - ")) {
			sf->sum.markers_seen |= GFXSTAT_SF_SEEN_BUFFER_TX;
		} else if (non_layer(m->name)) {
			c->excluded = 1;
			if (starts(m->name, "TX - "))
				sf->sum.markers_seen |= GFXSTAT_SF_SEEN_TX;
		}
		if (!c->excluded && has_layer_id(m->name))
			sf->modern = 1;
	}
	if (c->verdict) {
		verdict(sf, m->value);
		return 0;
	}
	/* a value another process wrote before SF was known says nothing about SF's counter */
	known = c->has_value && c->value_pid == m->pid;
	/* a BufferQueue depth is small, goes up one buffer at a time on a binder thread and
	 * down on the main thread; MIUI's "90fps"/"60fps" votes (values 100-200) are not */
	lowered = (known ? m->value < c->value : m->value == 0) && m->value >= 0 &&
		  m->value < MAX_QUEUE;
	if (!main && (known ? m->value == c->value + 1 : m->value == 1) && m->value <= MAX_QUEUE) {
		c->is_queue = 1;
		/* who queued it: on Android <= 11 the app's queueBuffer is a binder call that SF
		 * serves on this thread (BufferQueueProducer::queueBuffer in frameworks/native
		 * libs/gui), so the app's queueBuffer section has just begun */
		if (c->owner >= 0 && sf->qb_ts != GFXSTAT_NS_NONE && ev->ts_ns >= sf->qb_ts &&
		    ev->ts_ns - sf->qb_ts <= QUEUE_CALL_NS)
			c->owner = !c->owner || c->owner == sf->qb_pid + 1 ? sf->qb_pid + 1 : -1;
	}
	c->value = m->value;
	c->value_pid = m->pid;
	c->has_value = 1;
	if (c->excluded || !main || !lowered)
		return 0;
	if (starts(m->name, "BufferTX - "))
		return latch(sf, m->name.p + 11, m->name.n - 11, ev->ts_ns, c->owner);
	if (layer_counter(sf, c, m->name))
		return latch(sf, m->name.p, m->name.n, ev->ts_ns, c->owner);
	return 0;
}

/*
 * Android 13+ names SurfaceFlinger's frame by its vsync id: "commit <id> vsyncIn <ms>" and
 * "composite <id>" (frameworks/native services/surfaceflinger/SurfaceFlinger.cpp,
 * SurfaceFlinger::commit / composite: ATRACE_FORMAT("%s %" PRId64 ..., __func__, vsyncId)),
 * the token FrameTimeline gives the display frame (FrameTimeline::setSfWakeUp(vsyncId, ...)):
 * it ties a refresh found from the markers to FrameTimeline's account of it.
 */
static void vsync_id_of(struct gfxstat_sf_frames *sf, const char *p, size_t n)
{
	int64_t v = 0;
	size_t i;

	for (i = 0; i < n && gx_isdigit(p[i]) && v < INT64_MAX / 10 - 10; i++)
		v = v * 10 + (p[i] - '0');
	if (i && (i == n || p[i] == ' '))
		sf->vsync_id = v;
}

static int is_composition(struct gfxstat_sf_frames *sf, struct gfxstat_str s)
{
	/* asked of every section SurfaceFlinger begins: the first byte rules most out */
	if (!s.n || (s.p[0] != 'h' && s.p[0] != 'o' && s.p[0] != 'c'))
		return 0;
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
		if (s.n > 10)
			vsync_id_of(sf, s.p + 10, s.n - 10);
		return 1;
	}
	if (starts(s, "onMessageInvalidate")) {
		sf->sum.markers_seen |= GFXSTAT_SF_SEEN_ON_MESSAGE_INVALIDATE;
		if (s.n > 20) /* Android 12: "onMessageInvalidate <id> vsyncIn <ms>" */
			vsync_id_of(sf, s.p + 20, s.n - 20);
	} else if (starts(s, "commit ")) {
		sf->sum.markers_seen |= GFXSTAT_SF_SEEN_COMMIT_COMPOSITE;
		vsync_id_of(sf, s.p + 7, s.n - 7);
	}
	return 0;
}

/* A present marker; @out gets the output it names ("... for <output>"), or nothing. */
static int is_present(struct gfxstat_sf_frames *sf, struct gfxstat_str s,
		      struct gfxstat_str *out)
{
	out->p = s.p;
	out->n = 0;
	if (!s.n || s.p[0] != 'p') /* (asked of every section SurfaceFlinger begins) */
		return 0;
	if (gx_str_eq(s, "postFramebuffer")) {
		sf->sum.markers_seen |= GFXSTAT_SF_SEEN_POSTFRAMEBUFFER;
		return 1;
	}
	if (starts(s, "postFramebuffer for ")) {
		sf->sum.markers_seen |= GFXSTAT_SF_SEEN_POSTFRAMEBUFFER_FOR;
		out->p = s.p + 20;
		out->n = s.n - 20;
		return 1;
	}
	if (starts(s, "presentFrameAndReleaseLayers for ")) {
		sf->sum.markers_seen |= GFXSTAT_SF_SEEN_PRESENT_AND_RELEASE;
		out->p = s.p + 33;
		out->n = s.n - 33;
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------------------------ */
/* displays                                                                               */

/*
 * The display id an output name ends with: CompositionEngine names a display's output
 * "<name> (<id>)" (frameworks/native services/surfaceflinger/CompositionEngine/src/
 * Output.cpp, Output::setName: mNamePlusId), the id being DisplayId::value in decimal
 * (libs/ui/include/ui/DisplayId.h, to_string(DisplayId)); empty when there is none.
 */
static struct gfxstat_str output_id(struct gfxstat_str name)
{
	struct gfxstat_str id = { name.p, 0 };
	size_t i;

	if (name.n < 3 || name.p[name.n - 1] != ')')
		return id;
	for (i = name.n - 1; i > 0 && gx_isdigit(name.p[i - 1]); i--)
		;
	if (i < 2 || i == name.n - 1 || name.p[i - 1] != '(' || name.n - 1 - i > 20)
		return id;
	id.p = name.p + i;
	id.n = name.n - 1 - i;
	return id;
}

/*
 * Is the output @name a panel SurfaceFlinger refreshes? Not a screenshot: captures and region
 * sampling render through an output of their own, "ScreenCaptureOutput" / "RegionSampling"
 * (+ " for <display id>") (services/surfaceflinger/ScreenCaptureOutput.cpp,
 * createScreenCaptureOutput); not a virtual display (screen recording, casting), whose id has
 * bit 63 set (DisplayId::FLAG_VIRTUAL in libs/ui/include/ui/DisplayId.h).
 */
static int panel_output(struct gfxstat_str name)
{
	struct gfxstat_str id = output_id(name);
	uint64_t v = 0;
	size_t i;

	if (starts(name, "ScreenCaptureOutput") || starts(name, "RegionSampling"))
		return 0;
	for (i = 0; i < id.n; i++) {
		unsigned d = (unsigned)(id.p[i] - '0');

		if (v > (UINT64_MAX - d) / 10)
			return 1; /* not a 64-bit id: a name, taken as a display */
		v = v * 10 + d;
	}
	return !(id.n && (v >> 63));
}

/* The display @key names (a display id, else an output name): its index, added when new;
 * -1 past MAX_DISPLAYS. */
static int display_of(struct gfxstat_sf_frames *sf, struct gfxstat_str key)
{
	unsigned i;
	size_t n = key.n < OUTPUT_NAME - 1 ? key.n : OUTPUT_NAME - 1;

	for (i = 0; i < sf->ndisp; i++)
		if (strlen(sf->disp[i].key) == n && memcmp(sf->disp[i].key, key.p, n) == 0)
			return (int)i;
	if (sf->ndisp == MAX_DISPLAYS)
		return -1;
	memcpy(sf->disp[i].key, key.p, n);
	sf->disp[i].key[n] = 0;
	sf->disp[i].power = -1;
	sf->disp[i].last_present = GFXSTAT_NS_NONE;
	sf->ndisp++;
	return (int)i;
}

/* The display an output @name stands for: by its id when it ends with one. */
static int display_named(struct gfxstat_sf_frames *sf, struct gfxstat_str name)
{
	struct gfxstat_str id = output_id(name);

	return display_of(sf, id.n ? id : name);
}

/* A further powered display refreshed in the composition of refresh @seq. */
static int add_extra(struct gfxstat_sf_frames *sf, int di)
{
	unsigned i, k;

	for (i = 0; i < sf->await_n; i++) {
		struct refresh *r = &sf->await[(sf->await_head + i) % AWAIT_MAX];

		if (r->seq != sf->comp_seq)
			continue;
		for (k = 0; k < r->nextra; k++)
			if (r->extra[k] == (uint8_t)di)
				return 0;
		if (r->nextra < MAX_DISPLAYS)
			r->extra[r->nextra++] = (uint8_t)di;
		return 0;
	}
	/* the composition's refresh was stamped already (a vsync came in between) */
	if (sf->last_stamp_seq == sf->comp_seq && sf->last_stamp != GFXSTAT_NS_NONE)
		return emit_extra_display(sf, (unsigned)di, sf->last_stamp, sf->vsync_id);
	return 0;
}

/*
 * A present marker (of @out, when it or the open "present for <output>" names one). One
 * composition is one refresh of each powered display: CompositionEngine::present runs
 * Output::present for every output, and each traces its present marker, an output that is
 * off included (Output::postFramebuffer / presentFrameAndReleaseLayers trace before they
 * return on !isEnabled). So within one composition only the first marker of a display that
 * may be on makes the refresh; a later one of another display that "PowerMode <id>" says is
 * on adds that display's own refresh. Screenshots, virtual displays and displays that are off
 * make none.
 */
static int present_for(struct gfxstat_sf_frames *sf, struct gfxstat_str out, int64_t ts)
{
	int di = -1, rc;

	if (!out.n && sf->output_depth) {
		out.p = sf->output;
		out.n = strlen(sf->output);
	}
	if (out.n) {
		if (!panel_output(out))
			return 0;
		di = display_named(sf, out);
		if (di >= 0 && sf->disp[di].power == 0)
			return 0;
	}
	if (sf->in_composition && sf->comp_refresh) {
		if (di < 0 || sf->disp[di].power != 1 || di == sf->comp_owner)
			return 0;
		if (sf->comp_owner < 0 || sf->disp[sf->comp_owner].power != 1) {
			/* the first was of a display not known to be on: this one is the refresh */
			sf->comp_owner = di;
			return 0;
		}
		return add_extra(sf, di);
	}
	rc = present_marker(sf, ts);
	if (sf->in_composition) {
		sf->comp_refresh = 1;
		sf->comp_seq = sf->next_seq - 1;
		sf->comp_owner = di;
	}
	return rc;
}

/* "PowerMode <display id>": DisplayDevice's TracedOrdinal mPowerMode (Android 14+,
 * services/surfaceflinger/DisplayDevice.cpp), hal::PowerMode; off is 0 (OFF), anything else is
 * powered (DisplayDevice::isPoweredOn: mPowerMode != OFF). */
static int power_counter(struct gfxstat_sf_frames *sf, const struct gfxstat_marker *m)
{
	struct gfxstat_str id;
	int di;

	if (!starts(m->name, "PowerMode ") || m->name.n == 10)
		return 0;
	id.p = m->name.p + 10;
	id.n = m->name.n - 10;
	di = display_of(sf, id);
	if (di >= 0)
		sf->disp[di].power = m->value != 0;
	return 1;
}

/*
 * A refresh period the system declares, in ns (@id: the display it is for, when named):
 * "VSP-setPeriod" (Scheduler/VSyncPredictor.cpp, setPeriod / setDisplayModePtr),
 * "VSR-setPeriod" (Scheduler/VSyncReactor.cpp, Android 12-13), "VSR-startPeriodTransition
 * <id>" and "VSR-onDisplayModeChanged <id>" (ATRACE_INT64(ftl::Concat("VSR-", __func__, " ",
 * mId.value)), 14 and 15+), all in frameworks/native services/surfaceflinger/.
 */
static int declared_period(struct gfxstat_str s, struct gfxstat_str *id)
{
	static const char *const names[] = {
		"VSP-setPeriod", "VSR-setPeriod", "VSR-startPeriodTransition",
		"VSR-onDisplayModeChanged",
	};
	size_t i, k;

	/* most counters are none of these: the shortest is 13 bytes, the fifth 's' or 'o' */
	if (s.n < 13 || s.p[0] != 'V' || (s.p[4] != 's' && s.p[4] != 'o'))
		return 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		k = strlen(names[i]);
		if (s.n < k || memcmp(s.p, names[i], k) != 0 || (s.n > k && s.p[k] != ' '))
			continue;
		id->p = s.p + k + (s.n > k);
		id->n = s.n - k - (s.n > k);
		return 1;
	}
	return 0;
}

/* SurfaceFlinger's counters about displays: power, declared period. 1 when @m was one. */
static int display_counter(struct gfxstat_sf_frames *sf, const struct gfxstat_ftrace_line *ev,
			   const struct gfxstat_marker *m)
{
	struct gfxstat_str id;

	if (power_counter(sf, m))
		return 1;
	if (!declared_period(m->name, &id))
		return 0;
	if (id.n) {
		int di = display_of(sf, id);

		if (di >= 0 && sf->disp[di].power == 0)
			return 1; /* a display that is off: not the one refreshing */
	}
	declare_period(sf, m->value, ev->ts_ns);
	return 1;
}

static void note_comm(struct gfxstat_sf_frames *sf, const struct gfxstat_ftrace_line *ev,
		      const struct gfxstat_marker *m)
{
	long i;

	/* the main thread of a process: its tid is the process id */
	if (ev->pid != m->pid || ev->task.n == 0 || ev->task.p[0] == '<')
		return;
	if (sf->last_comm_n && sf->last_comm_pid == m->pid && ev->task.n == sf->last_comm_n &&
	    memcmp(ev->task.p, sf->last_comm, ev->task.n) == 0)
		return; /* comm_pid[] of this comm is this pid already */
	i = gx_strmap_add(&sf->comms, ev->task.p, ev->task.n, NULL);
	if (i < 0 || ensure((void **)&sf->comm_pid, &sf->cap_comms, (size_t)i, sizeof(int32_t)))
		return;
	sf->comm_pid[i] = m->pid;
	sf->last_comm_n = 0;
	if (ev->task.n < sizeof(sf->last_comm)) {
		memcpy(sf->last_comm, ev->task.p, ev->task.n);
		sf->last_comm_n = (unsigned char)ev->task.n;
		sf->last_comm_pid = m->pid;
	}
}

/*
 * The trace's clock went back (two captures glued together, a reordered file): what waits is
 * stamped on the old grid, and the grid starts afresh, so no present is stamped far from its
 * marker. The layers' presents only move forward (emit_refresh), so frames from before the
 * jump that would land before the ones already given are counted, not given.
 */
static int time_jump(struct gfxstat_sf_frames *sf)
{
	int rc = 0, i;

	while (sf->await_n && !rc)
		rc = force_oldest(sf);
	for (i = 0; i < FAM_COUNT; i++)
		sf->fam[i].has_last = 0;
	sf->last_stamp = GFXSTAT_NS_NONE;
	sf->sum.time_jumps++;
	return rc;
}

int gfxstat_sf_frames_marker(void *p, const struct gfxstat_ftrace_line *ev,
			     const struct gfxstat_marker *m)
{
	struct gfxstat_sf_frames *sf = p;
	struct gfxstat_str out;
	int rc, fi = -1;

	if (sf->sum.first_ts == GFXSTAT_NS_NONE)
		sf->sum.first_ts = ev->ts_ns;
	else if (ev->ts_ns < sf->sum.last_ts - IDLE_NS && (rc = time_jump(sf)) != 0)
		return rc;
	if (sf->sum.last_ts == GFXSTAT_NS_NONE || ev->ts_ns > sf->sum.last_ts ||
	    ev->ts_ns < sf->sum.last_ts - IDLE_NS)
		sf->sum.last_ts = ev->ts_ns;
	if (m->kind == GFXSTAT_MARKER_COUNTER) {
		fi = vsync_family(sf, m->name);
		if (fi >= 0 && sf->sf_pid < 0 && m->pid >= 0) {
			sf->sf_pid = m->pid;
			sf->sum.sf_pid = m->pid;
		}
	}
	if (fi >= 0 && m->pid == sf->sf_pid)
		vsync_toggle(sf, fi, ev->ts_ns);
	rc = resolve(sf, ev->ts_ns,
		     fi >= 0 && fi == sf->stamp_fam && m->pid == sf->sf_pid ? ev->ts_ns :
									   GFXSTAT_NS_NONE);
	if (rc)
		return rc;
	if (m->kind == GFXSTAT_MARKER_COUNTER && fi < 0 && (sf->sf_pid < 0 || m->pid == sf->sf_pid) &&
	    display_counter(sf, ev, m))
		return 0;
	if (sf->sum.markers_seen & SEEN_MODERN)
		sf->modern = 1;
	if (m->pid != sf->sf_pid || sf->sf_pid < 0) {
		if (m->pid >= 0)
			note_comm(sf, ev, m);
		if (m->kind == GFXSTAT_MARKER_BEGIN && m->pid >= 0 && m->name.n == 11 &&
		    memcmp(m->name.p, "queueBuffer", 11) == 0) {
			sf->qb_pid = m->pid;
			sf->qb_ts = ev->ts_ns;
		}
		if (sf->sf_pid < 0 && m->kind == GFXSTAT_MARKER_COUNTER)
			return early_counter(sf, m);
		return 0;
	}
	switch (m->kind) {
	case GFXSTAT_MARKER_COUNTER:
		return fi >= 0 ? 0 : sf_counter(sf, ev, m);
	case GFXSTAT_MARKER_BEGIN:
		rc = 0;
		if (is_present(sf, m->name, &out)) {
			if (sf->main_tid < 0) {
				sf->main_tid = ev->pid;
				sf->sum.sf_main_tid = ev->pid;
			}
			sf->saw_present_marker = 1;
			sf->presented_in_comp = 1;
			rc = present_for(sf, out, ev->ts_ns);
		} else if (is_composition(sf, m->name)) {
			if (sf->main_tid < 0) {
				sf->main_tid = ev->pid;
				sf->sum.sf_main_tid = ev->pid;
			}
			if (!sf->in_composition && ev->pid == sf->main_tid) {
				sf->in_composition = sf->depth + 1;
				sf->presented_in_comp = 0;
				sf->comp_refresh = 0;
				sf->comp_owner = -1;
			}
		} else if (ev->pid == sf->main_tid && !sf->output_depth &&
			   starts(m->name, "present for ") && m->name.n > 12) {
			/* Output::present of one output (Android 14+: ATRACE_FORMAT("%s for %s",
			 * __func__, mNamePlusId)): the present marker inside it is that output's */
			size_t k = m->name.n - 12 < OUTPUT_NAME - 1 ? m->name.n - 12
								    : OUTPUT_NAME - 1;

			memcpy(sf->output, m->name.p + 12, k);
			sf->output[k] = 0;
			sf->output_depth = sf->depth + 1;
		}
		/* the present marker's own slice is a level too: its end must not be taken for
		 * the end of the composition around it */
		if (ev->pid == sf->main_tid && sf->depth < 1000)
			sf->depth++;
		return rc;
	case GFXSTAT_MARKER_END:
		if (ev->pid != sf->main_tid || sf->depth == 0)
			return 0;
		if (sf->output_depth == sf->depth)
			sf->output_depth = 0;
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

	while (sf->await_n && !rc)
		rc = force_oldest(sf);
	if (!rc)
		rc = emit_held(sf);
	sf->sum.latched_unpresented += sf->pending.n;
	sf->pending.n = 0;
	return rc;
}

void gfxstat_sf_frames_summary(const struct gfxstat_sf_frames *sf,
			       struct gfxstat_sf_summary *out)
{
	*out = sf->sum;
}
