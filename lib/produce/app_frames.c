/* SPDX-License-Identifier: MIT */
/*
 * App-side frames: for a trace with no SurfaceFlinger (an app-only atrace), the frames the
 * app rendered, from its UI thread's Choreographer#doFrame and its RenderThread's DrawFrame.
 * Slices are tracked per thread by depth only (an "E" names nothing); a DrawFrame is paired
 * with its doFrame when it starts, and becomes a frame when it ends, unless hwui traced that
 * it skipped it ("Frame skipped: <reason>", is_frame_skipped()). Frames are held until
 * finish, when the refresh period is known, in an external sort (gx_xsort) whose runs go to
 * an unnamed temporary file past SORT_RUN (gfxstat_app_frames_set_tmpdir()).
 */
#include <stdio.h>
#include <stdlib.h>

#include "produce_local.h"

#define MAX_THREADS 16384
#define MAX_PROCS 4096
#define MAX_NAMES 16384
#define NAME_LEN 128
#define RING 8 /* recent doFrames per process still waiting for their DrawFrame */
#define SORT_RUN ((size_t)1 << 20)

struct doframe {
	int64_t start, end; /* end is GFXSTAT_NS_NONE while open */
	int64_t id;         /* vsync id, 0 when the name carries none */
	int used;           /* a DrawFrame already made a frame of it */
};

struct proc {
	int32_t pid;
	int has_qb;         /* the process traces queueBuffer inside DrawFrame */
	unsigned head;      /* next slot of ring */
	struct doframe ring[RING];
};

struct thread {
	int32_t tid, pid;
	int depth;
	int df_depth;       /* depth of the open doFrame, or 0 */
	int dr_depth;       /* depth of the open DrawFrame, or 0 */
	int qb_depth;       /* depth of the open queueBuffer inside it, or 0 */
	int dr_ok;          /* the open DrawFrame has a doFrame */
	int dr_skipped;     /* hwui said it skipped the open DrawFrame: no buffer */
	int64_t dr_df_start, dr_id, dr_qb_end;
};

struct rec {
	size_t seq;         /* arrival order, to sort ties the same way everywhere */
	int32_t pid;
	int qb;             /* present is a queueBuffer end */
	int64_t present, duration, id;
};

struct name {
	int32_t pid;
	char s[NAME_LEN];
};

struct gfxstat_app_frames {
	gfxstat_frame_fn fn;
	void *user;
	struct thread *threads;
	size_t nthreads, cap_threads;
	struct proc *procs;
	size_t nprocs, cap_procs;
	struct gx_xsort recs; /* struct rec, sorted by present at finish */
	size_t nrecs;
	const char *tmpdir;
	struct name *names;
	size_t nnames, cap_names;
	struct gfxstat_vsync_detect *vsync;
	struct gfxstat_app_frames_summary sum;
	/* id -> index maps (key: the 4 bytes of the id): lookups stay O(1) with many threads */
	struct gx_strmap thread_ix, proc_ix, name_ix;
};

/* Present order; ties keep arrival order. */
static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->present != y->present)
		return x->present < y->present ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

struct gfxstat_app_frames *gfxstat_app_frames_new(gfxstat_frame_fn fn, void *user)
{
	struct gfxstat_app_frames *af;

	if (!fn)
		return NULL;
	af = calloc(1, sizeof(*af));
	if (!af)
		return NULL;
	gx_xsort_init(&af->recs, sizeof(struct rec), rec_cmp, SORT_RUN, NULL);
	af->vsync = gfxstat_vsync_detect_new();
	if (!af->vsync || gx_strmap_init(&af->thread_ix, MAX_THREADS) ||
	    gx_strmap_init(&af->proc_ix, MAX_PROCS) || gx_strmap_init(&af->name_ix, MAX_NAMES)) {
		gfxstat_app_frames_free(af);
		return NULL;
	}
	af->fn = fn;
	af->user = user;
	return af;
}

void gfxstat_app_frames_free(struct gfxstat_app_frames *af)
{
	if (!af)
		return;
	free(af->threads);
	free(af->procs);
	gx_xsort_free(&af->recs);
	free(af->names);
	gfxstat_vsync_detect_free(af->vsync);
	gx_strmap_free(&af->thread_ix);
	gx_strmap_free(&af->proc_ix);
	gx_strmap_free(&af->name_ix);
	free(af);
}

/* Grow @*p (of @*cap elements of @size) to hold one more, up to @max. 0, or -1. */
static int grow(void **p, size_t *cap, size_t n, size_t size, size_t max)
{
	size_t c;
	void *q;

	if (n < *cap)
		return 0;
	if (n >= max)
		return -1;
	c = *cap ? *cap * 2 : 64;
	if (c > max)
		c = max;
	q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

/*
 * The index of @id in @map, whose indexes follow the array it maps (appended together);
 * with @create, a new one is added at @n. -1 when absent (or the map is full or out of memory).
 */
static long id_index(struct gx_strmap *map, int32_t id, int create)
{
	int created;

	if (!create)
		return gx_strmap_find(map, (const char *)&id, sizeof(id));
	return gx_strmap_add(map, (const char *)&id, sizeof(id), &created);
}

static struct thread *thread_get(struct gfxstat_app_frames *af, int32_t tid, int create)
{
	long i = id_index(&af->thread_ix, tid, 0);

	if (i >= 0)
		return &af->threads[i];
	if (!create || grow((void **)&af->threads, &af->cap_threads, af->nthreads,
			    sizeof(*af->threads), MAX_THREADS) ||
	    id_index(&af->thread_ix, tid, 1) != (long)af->nthreads)
		return NULL;
	memset(&af->threads[af->nthreads], 0, sizeof(*af->threads));
	af->threads[af->nthreads].tid = tid;
	return &af->threads[af->nthreads++];
}

static struct proc *proc_get(struct gfxstat_app_frames *af, int32_t pid, int create)
{
	long i = id_index(&af->proc_ix, pid, 0);

	if (i >= 0)
		return &af->procs[i];
	if (!create || grow((void **)&af->procs, &af->cap_procs, af->nprocs, sizeof(*af->procs),
			    MAX_PROCS) ||
	    id_index(&af->proc_ix, pid, 1) != (long)af->nprocs)
		return NULL;
	memset(&af->procs[af->nprocs], 0, sizeof(*af->procs));
	af->procs[af->nprocs].pid = pid;
	return &af->procs[af->nprocs++];
}

static int has_prefix(struct gfxstat_str s, const char *lit)
{
	size_t k = strlen(lit);

	return s.n >= k && memcmp(s.p, lit, k) == 0;
}

/*
 * The vsync id after the name's last space ("Choreographer#doFrame 123", "DrawFrames 123"),
 * as Macrobenchmark's Slice.frameId; 0 when there is none ("... resynced to 1 in 2.0ms").
 */
static int64_t frame_id(struct gfxstat_str s)
{
	size_t i = s.n;
	int64_t v = 0;

	while (i > 0 && s.p[i - 1] >= '0' && s.p[i - 1] <= '9')
		i--;
	if (i == s.n || i == 0 || s.p[i - 1] != ' ' || s.n - i > 18)
		return 0;
	for (; i < s.n; i++)
		v = v * 10 + (s.p[i] - '0');
	return v;
}

/*
 * "Choreographer#doFrame" (Android <= 11), "Choreographer#doFrame <vsync id>" (12+,
 * frameworks/base core/java/android/view/Choreographer.java doFrame()).
 */
static int is_doframe(struct gfxstat_str s)
{
	return has_prefix(s, "Choreographer#doFrame") &&
	       (s.n == 21 || s.p[21] == ' ');
}

/*
 * "DrawFrame" (HWUI up to Android 11), "DrawFrames <vsync id>" (12+, frameworks/base
 * libs/hwui/renderthread/DrawFrameTask.cpp run(): ATRACE_FORMAT("DrawFrames %" PRId64)).
 */
static int is_drawframe(struct gfxstat_str s)
{
	return has_prefix(s, "DrawFrame") &&
	       (s.n == 9 || s.p[9] == ' ' || s.p[9] == 's');
}

static int is_queuebuffer(struct gfxstat_str s)
{
	return s.n == 11 && memcmp(s.p, "queueBuffer", 11) == 0;
}

/*
 * hwui's word that it drew nothing this time: FrameInfo::setSkippedFrameReason() traces
 * ATRACE_FORMAT_INSTANT("Frame skipped: %s", toString(reason)) (Android 14+, frameworks/base
 * libs/hwui/FrameInfo.cpp; reasons DrawingOff, ContextIsStopped, NothingToDraw,
 * NoOutputTarget, NoBuffer, AlreadyDrawn), from CanvasContext::prepareTree() or
 * CanvasContext::draw() (libs/hwui/renderthread/CanvasContext.cpp), both inside
 * DrawFrameTask::run()'s "DrawFrames <id>" slice on the RenderThread. Whatever the reason,
 * that DrawFrame dequeued and queued no buffer: DrawFrameTask::run() calls draw() only when
 * no reason was set, and draw() returns before getFrame()/swapBuffers() when it sets one.
 * Taken as an instant ("I|pid|...") or, as some builds write it, a slice.
 */
static int is_frame_skipped(struct gfxstat_str s)
{
	return has_prefix(s, "Frame skipped");
}

/*
 * The doFrame a DrawFrame starting at @ts belongs to: by vsync id when it has one, else the
 * doFrame of the process that contains @ts. Macrobenchmark's FrameTimingQuery
 * (androidx benchmark/benchmark-macro/.../perfetto/FrameTimingQuery.kt) pairs them so: by
 * frame id on API 31+, else uiSlices.firstOrNull { it.contains(rtSlice.ts) }.
 */
static struct doframe *match(struct proc *p, int64_t ts, int64_t id)
{
	unsigned i;

	if (id > 0)
		for (i = 0; i < RING; i++)
			if (p->ring[i].id == id && p->ring[i].start != 0)
				return &p->ring[i];
	for (i = 0; i < RING; i++) {
		struct doframe *d = &p->ring[(p->head + RING - 1 - i) % RING];

		if (d->start == 0 || d->start > ts)
			continue;
		if (id > 0 && d->id > 0 && d->id != id)
			return NULL; /* another frame's doFrame */
		return d->end == GFXSTAT_NS_NONE || d->end >= ts ? d : NULL;
	}
	return NULL;
}

static int begin(struct gfxstat_app_frames *af, struct thread *t, int32_t pid,
		 const struct gfxstat_marker *m, int64_t ts)
{
	struct proc *p;

	t->depth++;
	t->pid = pid;
	if (is_doframe(m->name) && t->tid == pid && !t->df_depth) {
		/* on the main thread only, as FrameTimingQuery's process.pid = thread.tid */
		struct doframe *d;

		p = proc_get(af, pid, 1);
		if (!p)
			return GFXSTAT_E_NOMEM;
		af->sum.do_frames++;
		d = &p->ring[p->head];
		p->head = (p->head + 1) % RING;
		d->start = ts > 0 ? ts : 1; /* 0 marks an empty slot */
		d->end = GFXSTAT_NS_NONE;
		d->id = frame_id(m->name);
		d->used = 0;
		t->df_depth = t->depth;
		return 0;
	}
	if (is_drawframe(m->name) && !t->dr_depth) {
		struct doframe *d;

		af->sum.draw_frames++;
		t->dr_depth = t->depth;
		t->dr_ok = 0;
		t->dr_skipped = 0;
		t->dr_qb_end = GFXSTAT_NS_NONE;
		p = proc_get(af, pid, 0);
		d = p ? match(p, ts, frame_id(m->name)) : NULL;
		if (!d) {
			af->sum.lone_draws++;
		} else if (d->used) {
			af->sum.extra_draws++;
		} else {
			d->used = 1;
			t->dr_ok = 1;
			t->dr_df_start = d->start;
			t->dr_id = d->id;
		}
		return 0;
	}
	if (t->dr_depth && !t->qb_depth && is_queuebuffer(m->name))
		t->qb_depth = t->depth;
	if (t->dr_depth && is_frame_skipped(m->name))
		t->dr_skipped = 1;
	return 0;
}

static int end(struct gfxstat_app_frames *af, struct thread *t, int64_t ts)
{
	struct proc *p;
	struct rec *r;

	if (t->depth <= 0)
		return 0; /* an E whose B came before the trace */
	if (t->depth == t->qb_depth) {
		t->qb_depth = 0;
		t->dr_qb_end = ts;
	}
	if (t->depth == t->df_depth) {
		t->df_depth = 0;
		p = proc_get(af, t->pid, 0);
		if (p) {
			struct doframe *d = &p->ring[(p->head + RING - 1) % RING];

			if (d->end == GFXSTAT_NS_NONE)
				d->end = ts;
		}
	}
	if (t->depth == t->dr_depth) {
		t->dr_depth = 0;
		t->qb_depth = 0;
		if (t->dr_ok && t->dr_skipped) {
			af->sum.no_buffer++; /* hwui skipped it: no buffer, no frame */
		} else if (t->dr_ok && ts < t->dr_df_start) {
			af->sum.backwards++;
		} else if (t->dr_ok) {
			if (af->nrecs >= GFXSTAT_APP_FRAMES_MAX) {
				af->sum.over_limit++;
			} else {
				struct rec rr;

				r = &rr;
				memset(r, 0, sizeof(*r)); /* the padding too: it may go to a file */
				r->seq = af->nrecs++;
				r->pid = t->pid;
				r->qb = t->dr_qb_end != GFXSTAT_NS_NONE;
				r->present = r->qb ? t->dr_qb_end : ts;
				r->duration = ts - t->dr_df_start;
				r->id = t->dr_id > 0 ? t->dr_id : -1;
				if (r->qb) {
					p = proc_get(af, t->pid, 0);
					if (p)
						p->has_qb = 1;
				}
				if (gx_xsort_put(&af->recs, r))
					return GFXSTAT_E_NOMEM;
			}
		}
		t->dr_ok = 0;
	}
	t->depth--;
	return 0;
}

int gfxstat_app_frames_marker(void *v, const struct gfxstat_ftrace_line *ev,
			      const struct gfxstat_marker *m)
{
	struct gfxstat_app_frames *af = v;
	struct thread *t;
	int32_t pid;

	switch (m->kind) {
	case GFXSTAT_MARKER_COUNTER:
		gfxstat_vsync_detect_add(af->vsync, m->name.p, m->name.n, ev->ts_ns);
		return 0;
	case GFXSTAT_MARKER_BEGIN:
		pid = m->pid > 0 ? m->pid : ev->tgid;
		if (pid <= 0)
			return 0;
		t = thread_get(af, ev->pid, 1);
		if (!t)
			return af->nthreads < MAX_THREADS ? GFXSTAT_E_NOMEM : 0;
		return begin(af, t, pid, m, ev->ts_ns);
	case GFXSTAT_MARKER_END:
		t = thread_get(af, ev->pid, 0);
		return t ? end(af, t, ev->ts_ns) : 0;
	case GFXSTAT_MARKER_INSTANT:
		t = thread_get(af, ev->pid, 0);
		if (t && t->dr_depth && is_frame_skipped(m->name))
			t->dr_skipped = 1;
		return 0;
	default:
		return 0;
	}
}

int gfxstat_app_frames_task(void *v, int32_t pid, int32_t tid, struct gfxstat_str name)
{
	struct gfxstat_app_frames *af = v;
	struct name *e = NULL;
	size_t i, n;

	if (tid != 0 || pid <= 0 || !name.n)
		return 0;
	i = (size_t)id_index(&af->name_ix, pid, 0);
	if ((long)i >= 0)
		e = &af->names[i];
	if (!e) {
		if (grow((void **)&af->names, &af->cap_names, af->nnames, sizeof(*af->names),
			 MAX_NAMES) ||
		    id_index(&af->name_ix, pid, 1) != (long)af->nnames)
			return af->nnames < MAX_NAMES ? GFXSTAT_E_NOMEM : 0;
		e = &af->names[af->nnames++];
		e->pid = pid;
	}
	n = name.n < NAME_LEN - 1 ? name.n : NAME_LEN - 1;
	memcpy(e->s, name.p, n);
	e->s[n] = 0;
	return 0;
}

static const char *name_of(const struct gfxstat_app_frames *af, int32_t pid)
{
	long i = gx_strmap_find(&af->name_ix, (const char *)&pid, sizeof(pid));

	return i >= 0 ? af->names[i].s : NULL;
}

int gfxstat_app_frames_finish(struct gfxstat_app_frames *af)
{
	int64_t period = gfxstat_vsync_detect_result(af->vsync, NULL, NULL);
	struct {
		int32_t pid;
		int64_t last;
	} *last = NULL;
	const struct rec *r;
	size_t nlast = 0, j;
	char layer[NAME_LEN + 32];
	int rc;

	af->sum.vsync_period_ns = period;
	rc = gx_xsort_sorted(&af->recs);
	if (!rc && af->nprocs) {
		last = calloc(af->nprocs, sizeof(*last));
		if (!last)
			return GFXSTAT_E_NOMEM;
	}
	while (!rc && (r = gx_xsort_next(&af->recs))) {
		const struct proc *p = proc_get(af, r->pid, 0);
		const char *name = name_of(af, r->pid);
		struct gfxstat_frame f;
		int k;

		if (p && p->has_qb && !r->qb) {
			af->sum.no_buffer++;
			continue;
		}
		for (j = 0; j < nlast && last[j].pid != r->pid; j++)
			;
		if (j == nlast) {
			if (nlast == af->nprocs)
				continue; /* cannot happen: every rec's process is known */
			last[nlast].pid = r->pid;
			last[nlast].last = GFXSTAT_NS_NONE;
			nlast++;
			af->sum.processes++;
		}
		if (last[j].last != GFXSTAT_NS_NONE && r->present <= last[j].last) {
			af->sum.not_increasing++;
			continue;
		}
		gfxstat_frame_init(&f, GFXSTAT_SRC_APP);
		if (name)
			k = snprintf(layer, sizeof(layer), "%s (app-side)", name);
		else
			k = snprintf(layer, sizeof(layer), "pid %d (app-side)", (int)r->pid);
		f.layer.p = layer;
		f.layer.n = k > 0 && (size_t)k < sizeof(layer) ? (size_t)k : strlen(layer);
		f.app = name ? gx_process_package(name) : f.app;
		f.pid = r->pid;
		f.present_ns = r->present;
		f.interval_ns = last[j].last == GFXSTAT_NS_NONE ? GFXSTAT_NS_NONE
							       : r->present - last[j].last;
		f.vsync_period_ns = period > 0 ? period : GFXSTAT_NS_NONE;
		f.duration_ns = r->duration;
		f.token = r->id;
		last[j].last = r->present;
		af->sum.frames++;
		if (af->fn(af->user, &f))
			rc = GFXSTAT_E_ABORTED;
	}
	free(last);
	if (!rc)
		rc = af->recs.failed;
	af->nrecs = 0;
	gx_xsort_free(&af->recs);
	return rc;
}

void gfxstat_app_frames_set_tmpdir(struct gfxstat_app_frames *af, const char *dir)
{
	if (!af->nrecs) { /* before the first frame */
		gx_xsort_free(&af->recs);
		gx_xsort_init(&af->recs, sizeof(struct rec), rec_cmp, SORT_RUN, dir);
	}
}

void gfxstat_app_frames_summary(const struct gfxstat_app_frames *af,
				struct gfxstat_app_frames_summary *out)
{
	if (!af) {
		memset(out, 0, sizeof(*out));
		return;
	}
	*out = af->sum;
	if (!out->frames)
		out->frames = af->nrecs; /* before finish: frames held */
}
