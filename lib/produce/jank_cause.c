/* SPDX-License-Identifier: MIT */
/*
 * Why a frame was late. From traces: the app's main-thread Choreographer#doFrame and its
 * RenderThread DrawFrame that produced the frame, with their longest inner sections; when
 * both were within budget, SurfaceFlinger/GPU. From framestats: the FrameMetrics phase that
 * took more than half the frame budget (Taobao's rule). From FrameTimeline: Android's own
 * jank type. With a thread-state tracker set (gfxstat_causes_set_thread_states()), each
 * doFrame and DrawFrame also times its thread, and jank_class.c gives the frame one class.
 */
#include <stdio.h>
#include <stdlib.h>

#include "produce_local.h"
#include "jank_class_local.h"
#include "gfxstat/gfxstat_perfetto.h"

#define NAME_MAX_LEN 64
#define PATH_LEN 128 /* the longest section inside, and its own longest inside, nested */
#define MAX_DEPTH 32
#define MAX_THREADS 16384
#define HISTORY 64 /* recent frames of work per process */
#define MAX_LAYERS 4096
#define QUEUE_DEPTH 3 /* buffers a layer's queue holds at most (triple buffering) */

struct open_slice {
	int64_t start;
	int64_t child_max;
	int input;      /* an input section finished inside it */
	uint64_t layer; /* hash of the layer a queueBuffer inside it queued to, or 0 */
	char name[NAME_MAX_LEN];
	char child[NAME_MAX_LEN];
	char path[PATH_LEN];
};

struct thread {
	int32_t tid, pid;
	int depth;
	struct open_slice s[MAX_DEPTH];
};

enum { WORK_MAIN, WORK_RENDER };

struct work {
	int kind;
	int input;
	int64_t start, end;
	int64_t child_ns;
	uint64_t layer; /* hash of the layer it queued a buffer to, when the trace shows it */
	char name[NAME_MAX_LEN];
	char child[NAME_MAX_LEN];
	char path[PATH_LEN];
	int32_t tid;
	int has_span;                   /* @span says where its thread's time went */
	struct gfxstat_thread_span span;
};

struct proc {
	int32_t pid;
	int has_render; /* the process draws on a RenderThread (Android 5+): DrawFrames are frames */
	unsigned head, n;
	struct work w[HISTORY];
};

/* A layer's place in its process's work: the end of the last work given to one of its frames. */
struct layer_pos {
	uint64_t hash;
	int32_t pid;
	int64_t last_end;
};

struct gfxstat_causes {
	struct thread *threads;
	size_t nthreads, cap_threads;
	struct proc *procs;
	size_t nprocs, cap_procs;
	struct layer_pos *layers;
	size_t nlayers, cap_layers;
	size_t qb;      /* the thread (index + 1) whose queueBuffer began last, or 0 */
	int qb_level;   /* that queueBuffer's depth */
	/* id -> index maps (key: the 4 bytes of the id): lookups stay O(1) with many threads */
	struct gx_strmap thread_ix, proc_ix;
	struct gfxstat_thread_states *ts; /* times each work's thread, when set */
};

/* The layer a counter names: "BufferTX - <layer>" on 12+, the layer itself before. */
static uint64_t layer_hash(struct gfxstat_str s)
{
	if (s.n > 11 && memcmp(s.p, "BufferTX - ", 11) == 0)
		return gx_hash(s.p + 11, s.n - 11);
	return gx_hash(s.p, s.n);
}

/* Is another process's queueBuffer open, the one whose counter is awaited? */
static int queue_open(const struct gfxstat_causes *c, int32_t pid)
{
	const struct thread *t;

	if (!c->qb || c->qb > c->nthreads)
		return 0;
	t = &c->threads[c->qb - 1];
	return t->pid != pid && t->depth > c->qb_level && c->qb_level < MAX_DEPTH &&
	       strncmp(t->s[c->qb_level].name, "queueBuffer", 11) == 0;
}

/*
 * A counter that SurfaceFlinger raises while an app's queueBuffer is open names the layer
 * the buffer went to: on Android <= 11 the app's queueBuffer is a binder call that SF serves
 * on a binder thread, tracing ATRACE_INT(mConsumerName, queue size) with the layer's name
 * (LineageOS/android_frameworks_native libs/gui/BufferQueueProducer.cpp queueBuffer). The
 * first such counter of another process, above 0, is taken.
 */
static void queue_counter(struct gfxstat_causes *c, const struct gfxstat_marker *m)
{
	struct thread *t;
	struct open_slice *s;

	if (!c->qb || c->qb > c->nthreads)
		return;
	t = &c->threads[c->qb - 1];
	if (t->depth <= c->qb_level || c->qb_level >= MAX_DEPTH) {
		c->qb = 0;
		return;
	}
	s = &t->s[c->qb_level];
	if (s->layer || m->pid == t->pid || m->value <= 0 || strncmp(s->name, "queueBuffer", 11))
		return;
	s->layer = layer_hash(m->name);
}

struct gfxstat_causes *gfxstat_causes_new(void)
{
	struct gfxstat_causes *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	if (gx_strmap_init(&c->thread_ix, MAX_THREADS) || gx_strmap_init(&c->proc_ix, MAX_THREADS)) {
		gfxstat_causes_free(c);
		return NULL;
	}
	return c;
}

void gfxstat_causes_free(struct gfxstat_causes *c)
{
	if (!c)
		return;
	free(c->threads);
	free(c->procs);
	free(c->layers);
	gx_strmap_free(&c->thread_ix);
	gx_strmap_free(&c->proc_ix);
	free(c);
}

/* @dst = "@name > @inner" (or @name), cut at PATH_LEN: the longest section, nested. */
static void set_path(char *dst, const char *name, const char *inner)
{
	struct gx_out o = { dst, PATH_LEN, 0 };

	gx_out_puts(&o, name);
	if (inner[0]) {
		gx_out_puts(&o, " > ");
		gx_out_puts(&o, inner);
	}
	dst[o.len < PATH_LEN ? o.len : PATH_LEN - 1] = 0;
}

static void copy_name(char *dst, struct gfxstat_str s)
{
	size_t n = s.n < NAME_MAX_LEN - 1 ? s.n : NAME_MAX_LEN - 1;

	memcpy(dst, s.p, n);
	dst[n] = 0;
}

/*
 * Grow @*p (of @*cap elements of @size) to hold element @n, starting at @first. 0, or -1.
 */
static int grow(void **p, size_t *cap, size_t n, size_t size, size_t first)
{
	size_t nc;
	void *q;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : first;
	q = realloc(*p, nc * size);
	if (!q)
		return -1;
	*p = q;
	*cap = nc;
	return 0;
}

/* Threads and processes are indexed by id (traces may hold tens of thousands of threads). */
static struct thread *thread_of(struct gfxstat_causes *c, int32_t tid, int32_t pid)
{
	long i = gx_strmap_find(&c->thread_ix, (const char *)&tid, sizeof(tid));
	int created;

	if (i >= 0)
		return &c->threads[i];
	if (c->nthreads >= MAX_THREADS ||
	    grow((void **)&c->threads, &c->cap_threads, c->nthreads, sizeof(*c->threads), 64))
		return NULL;
	/* the map's indexes follow the array: both are appended together */
	i = gx_strmap_add(&c->thread_ix, (const char *)&tid, sizeof(tid), &created);
	if (i < 0 || (size_t)i != c->nthreads)
		return NULL;
	memset(&c->threads[c->nthreads], 0, sizeof(struct thread));
	c->threads[c->nthreads].tid = tid;
	c->threads[c->nthreads].pid = pid;
	return &c->threads[c->nthreads++];
}

static struct proc *proc_of(struct gfxstat_causes *c, int32_t pid, int create)
{
	long i = gx_strmap_find(&c->proc_ix, (const char *)&pid, sizeof(pid));
	int created;

	if (i >= 0)
		return &c->procs[i];
	if (!create || c->nprocs >= MAX_THREADS ||
	    grow((void **)&c->procs, &c->cap_procs, c->nprocs, sizeof(*c->procs), 16))
		return NULL;
	i = gx_strmap_add(&c->proc_ix, (const char *)&pid, sizeof(pid), &created);
	if (i < 0 || (size_t)i != c->nprocs)
		return NULL;
	memset(&c->procs[c->nprocs], 0, sizeof(struct proc));
	c->procs[c->nprocs].pid = pid;
	return &c->procs[c->nprocs++];
}

static int is_input(const char *name)
{
	return strcmp(name, "input") == 0 || strncmp(name, "deliverInputEvent", 17) == 0 ||
	       strncmp(name, "RV Scroll", 9) == 0 || strncmp(name, "ListView scroll", 15) == 0;
}

static int work_kind(const char *name)
{
	if (name[0] != 'C' && name[0] != 'D')
		return -1; /* asked of every section that begins: most are neither */
	if (strncmp(name, "Choreographer#doFrame", 21) == 0)
		return WORK_MAIN;
	if (strcmp(name, "DrawFrame") == 0 || strncmp(name, "DrawFrames", 10) == 0)
		return WORK_RENDER;
	return -1;
}

int gfxstat_causes_marker(void *p, const struct gfxstat_ftrace_line *ev,
			  const struct gfxstat_marker *m)
{
	struct gfxstat_causes *c = p;
	struct thread *t;

	if (m->kind == GFXSTAT_MARKER_COUNTER) {
		queue_counter(c, m);
		return 0;
	}
	if (m->kind != GFXSTAT_MARKER_BEGIN && m->kind != GFXSTAT_MARKER_END)
		return 0;
	t = thread_of(c, ev->pid, m->pid >= 0 ? m->pid : ev->tgid);
	if (!t)
		return 0;
	if (m->pid >= 0)
		t->pid = m->pid;
	if (m->kind == GFXSTAT_MARKER_BEGIN) {
		if (t->depth < MAX_DEPTH) {
			struct open_slice *s = &t->s[t->depth];

			s->start = ev->ts_ns;
			s->child_max = 0;
			s->input = 0;
			s->layer = 0;
			s->child[0] = 0;
			s->path[0] = 0;
			copy_name(s->name, m->name);
			if (c->ts && work_kind(s->name) >= 0)
				gfxstat_thread_states_span_begin(c->ts, ev->pid, ev->ts_ns, ev->cpu);
			/* an app's queueBuffer; not SF's binder thread serving it (its own
			 * "queueBuffer" section, while the app's is still open) */
			if (strncmp(s->name, "queueBuffer", 11) == 0 && !queue_open(c, t->pid)) {
				c->qb = (size_t)(t - c->threads) + 1;
				c->qb_level = t->depth;
			}
		}
		t->depth++;
		return 0;
	}
	if (t->depth == 0)
		return 0;
	t->depth--;
	if (t->depth >= MAX_DEPTH)
		return 0;
	{
		struct open_slice *s = &t->s[t->depth];
		int64_t dur = ev->ts_ns - s->start;
		int kind;

		/* the parent learns its longest child, and whether input was handled inside */
		if (t->depth > 0 && t->depth - 1 < MAX_DEPTH) {
			struct open_slice *parent = &t->s[t->depth - 1];

			parent->input |= s->input || is_input(s->name);
			if (!parent->layer)
				parent->layer = s->layer;
			if (dur > parent->child_max) {
				parent->child_max = dur;
				memcpy(parent->child, s->name, NAME_MAX_LEN);
				set_path(parent->path, s->name, s->path);
			}
		}
		kind = work_kind(s->name);
		if (kind >= 0 && t->pid >= 0) {
			struct proc *pr = proc_of(c, t->pid, 1);
			struct work *w;

			if (!pr)
				return 0;
			w = &pr->w[(pr->head + pr->n) % HISTORY];
			if (pr->n == HISTORY)
				pr->head = (pr->head + 1) % HISTORY;
			else
				pr->n++;
			pr->has_render |= kind == WORK_RENDER;
			w->kind = kind;
			w->input = s->input;
			w->start = s->start;
			w->end = ev->ts_ns;
			w->child_ns = s->child_max;
			w->layer = s->layer;
			memcpy(w->name, s->name, NAME_MAX_LEN);
			memcpy(w->child, s->child, NAME_MAX_LEN);
			memcpy(w->path, s->path, PATH_LEN);
			w->tid = t->tid;
			w->has_span = c->ts &&
				      gfxstat_thread_states_span_end(c->ts, t->tid, ev->ts_ns, &w->span);
		}
	}
	return 0;
}

/* The latest work of @kind that ended by @by. */
static const struct work *last_work(const struct proc *pr, int kind, int64_t by)
{
	unsigned i;

	for (i = pr->n; i-- > 0;) {
		const struct work *w = &pr->w[(pr->head + i) % HISTORY];

		if (w->kind == kind && w->end <= by)
			return w;
	}
	return NULL;
}

/* The main-thread doFrame that contains @t: the UI thread waits in its doFrame until the
 * RenderThread has synced the frame (the rule of app_frames.c and of androidx Macrobenchmark's
 * FrameTimingQuery.kt, which joins a DrawFrame to the doFrame that contains its start). */
static const struct work *main_containing(const struct proc *pr, int64_t t)
{
	unsigned i;

	for (i = pr->n; i-- > 0;) {
		const struct work *w = &pr->w[(pr->head + i) % HISTORY];

		if (w->kind == WORK_MAIN && w->start <= t && t <= w->end)
			return w;
	}
	return NULL;
}

static struct layer_pos *layer_pos_of(struct gfxstat_causes *c, int32_t pid,
				      struct gfxstat_str layer)
{
	uint64_t h = layer_hash(layer);
	size_t i;

	for (i = c->nlayers; i-- > 0;)
		if (c->layers[i].hash == h && c->layers[i].pid == pid)
			return &c->layers[i];
	if (c->nlayers >= MAX_LAYERS)
		return NULL;
	if (c->nlayers == c->cap_layers) {
		size_t nc = c->cap_layers ? c->cap_layers * 2 : 16;
		struct layer_pos *nl = realloc(c->layers, nc * sizeof(*nl));

		if (!nl)
			return NULL;
		c->layers = nl;
		c->cap_layers = nc;
	}
	c->layers[c->nlayers].hash = h;
	c->layers[c->nlayers].pid = pid;
	c->layers[c->nlayers].last_end = GFXSTAT_NS_NONE;
	return &c->layers[c->nlayers++];
}

/*
 * The app work that produced a latched buffer. A process's frames of work are its RenderThread
 * DrawFrames (its doFrames before Android 5, when the main thread drew); buffers leave a
 * layer's BufferQueue in the order they were queued, so each frame of a layer takes the oldest
 * frame of work that ended by its latch and after the one its previous frame took -- but no
 * deeper than QUEUE_DEPTH back (older ones were dropped, or drew another window of the
 * process). A layer's first frame takes the latest. Its start is the doFrame's start: a frame
 * that waited in a stuffed queue, or behind a 250 ms doFrame, still starts there.
 */
int gfxstat_causes_frame(struct gfxstat_causes *c, const struct gfxstat_frame *f, int64_t *start,
			 int *input)
{
	int64_t by = f->latch_ns != GFXSTAT_NS_NONE ? f->latch_ns : f->present_ns;
	unsigned cand[HISTORY], nc = 0, i, pick;
	const struct work *w, *mw;
	struct layer_pos *lp;
	struct proc *pr;
	int kind;

	if (!c || f->pid < 0 || by == GFXSTAT_NS_NONE)
		return 0;
	pr = proc_of(c, f->pid, 0);
	if (!pr || !pr->n)
		return 0;
	lp = layer_pos_of(c, f->pid, f->layer);
	if (!lp)
		return 0;
	kind = pr->has_render ? WORK_RENDER : WORK_MAIN;
	for (i = 0; i < pr->n; i++) {
		w = &pr->w[(pr->head + i) % HISTORY];
		if (w->kind == kind && w->end <= by && w->end > lp->last_end &&
		    (!w->layer || w->layer == lp->hash))
			cand[nc++] = i;
	}
	if (!nc)
		return 0;
	pick = lp->last_end == GFXSTAT_NS_NONE ? nc - 1 : nc > QUEUE_DEPTH ? nc - QUEUE_DEPTH : 0;
	w = &pr->w[(pr->head + cand[pick]) % HISTORY];
	lp->last_end = w->end;
	mw = kind == WORK_RENDER ? main_containing(pr, w->start) : w;
	*start = mw ? mw->start : w->start;
	*input = mw ? mw->input : -1;
	return 1;
}

/* The work of @kind whose start is in [@from, @to]: the last of them (the DrawFrame a doFrame
 * synced starts near its end). */
static const struct work *find_work(const struct proc *pr, int kind, int64_t from, int64_t to,
				     uint64_t layer)
{
	unsigned i;

	for (i = pr->n; i-- > 0;) {
		const struct work *w = &pr->w[(pr->head + i) % HISTORY];

		if (w->kind == kind && w->start >= from && w->start <= to &&
		    (!w->layer || w->layer == layer))
			return w;
	}
	return NULL;
}

/* FrameMetrics phases, Taobao's rule: the phase over half the budget is the primary cause. */
static int from_frameinfo(const struct gfxstat_frame *f, int64_t budget, char *buf, size_t cap)
{
	static const struct {
		const char *name;
		int from, to;
	} phases[] = {
		{ "input", GFXSTAT_FI_HANDLE_INPUT_START, GFXSTAT_FI_ANIMATION_START },
		{ "animation", GFXSTAT_FI_ANIMATION_START, GFXSTAT_FI_PERFORM_TRAVERSALS_START },
		{ "measure/layout", GFXSTAT_FI_PERFORM_TRAVERSALS_START, GFXSTAT_FI_DRAW_START },
		{ "draw", GFXSTAT_FI_DRAW_START, GFXSTAT_FI_SYNC_QUEUED },
		{ "sync", GFXSTAT_FI_SYNC_START, GFXSTAT_FI_ISSUE_DRAW_COMMANDS_START },
		{ "command issue", GFXSTAT_FI_ISSUE_DRAW_COMMANDS_START, GFXSTAT_FI_SWAP_BUFFERS },
		{ "swap buffers", GFXSTAT_FI_SWAP_BUFFERS, GFXSTAT_FI_FRAME_COMPLETED },
		{ "GPU", GFXSTAT_FI_SWAP_BUFFERS, GFXSTAT_FI_GPU_COMPLETED },
		{ "vsync delay", GFXSTAT_FI_INTENDED_VSYNC, GFXSTAT_FI_VSYNC },
	};
	size_t i, best = 0;
	int64_t best_ns = -1;

	for (i = 0; i < sizeof(phases) / sizeof(phases[0]); i++) {
		int64_t a = f->fi[phases[i].from], b = f->fi[phases[i].to];

		if (a == GFXSTAT_NS_NONE || b == GFXSTAT_NS_NONE || a <= 0 || b <= a)
			continue;
		if (b - a > best_ns) {
			best_ns = b - a;
			best = i;
		}
	}
	if (best_ns < 0)
		return -1;
	if (2 * best_ns > budget)
		return snprintf(buf, cap, "%s %.1f ms (over half the %.1f ms budget)",
				phases[best].name, (double)best_ns / 1e6, (double)budget / 1e6);
	return snprintf(buf, cap, "none (no phase over half the budget; longest: %s %.1f ms)",
			phases[best].name, (double)best_ns / 1e6);
}

int gfxstat_causes_input(const struct gfxstat_causes *c, const struct gfxstat_frame *f)
{
	int64_t by = f->latch_ns != GFXSTAT_NS_NONE ? f->latch_ns : f->present_ns;
	const struct proc *pr;
	const struct work *mw;

	if (!c || f->pid < 0)
		return -1;
	pr = proc_of((struct gfxstat_causes *)c, f->pid, 0);
	mw = pr ? last_work(pr, WORK_MAIN, by) : NULL;
	return mw ? mw->input : -1;
}

/* FrameTimeline's jank type (one bit) as a class: whose deadline was missed. */
static enum gfxstat_cause_class ft_class(int32_t bit)
{
	switch (bit) {
	case GFXSTAT_JANK_APP_DEADLINE_MISSED:
	case GFXSTAT_JANK_BUFFER_STUFFING:
		return GFXSTAT_CAUSE_APP_WORK;
	case GFXSTAT_JANK_SF_SCHEDULING:
	case GFXSTAT_JANK_PREDICTION_ERROR:
	case GFXSTAT_JANK_DISPLAY_HAL:
	case GFXSTAT_JANK_SF_CPU_DEADLINE_MISSED:
	case GFXSTAT_JANK_SF_GPU_DEADLINE_MISSED:
		return GFXSTAT_CAUSE_SURFACEFLINGER;
	}
	return GFXSTAT_CAUSE_UNKNOWN;
}

/* The FrameMetrics phase a cause names, as a class: the GPU's, or the app's own work. */
static enum gfxstat_cause_class fi_class(const char *text)
{
	if (!strncmp(text, "GPU", 3) || !strncmp(text, "swap buffers", 12))
		return GFXSTAT_CAUSE_GPU;
	if (!strncmp(text, "none", 4) || !strncmp(text, "unknown", 7))
		return GFXSTAT_CAUSE_UNKNOWN;
	return GFXSTAT_CAUSE_APP_WORK;
}

static void view_of(const struct work *w, struct gx_work_view *v)
{
	v->render = w->kind == WORK_RENDER;
	v->name = w->name;
	v->child = w->child;
	v->path = w->path;
	v->start = w->start;
	v->end = w->end;
	v->child_ns = w->child_ns;
	v->tid = w->tid;
	v->span = w->has_span ? &w->span : NULL;
}

void gfxstat_causes_why(const struct gfxstat_causes *c, const struct gfxstat_frame *f,
			int64_t prev_present, struct gfxstat_cause *out)
{
	int64_t budget = f->vsync_period_ns > 0 && f->vsync_period_ns != GFXSTAT_NS_NONE
				 ? f->vsync_period_ns : 16666667;
	int64_t by = f->latch_ns != GFXSTAT_NS_NONE ? f->latch_ns : f->present_ns;
	const struct proc *pr;
	const struct work *mw, *rw;
	struct gx_work_view mv, rv;
	char buf[GFXSTAT_CAUSE_TEXT];

	memset(out, 0, sizeof(*out));
	if (f->source == GFXSTAT_SRC_GFXINFO) {
		if (from_frameinfo(f, budget, buf, sizeof(buf)) < 0)
			snprintf(buf, sizeof(buf), "unknown (no FrameInfo phases)");
		gx_cause_plain(out, fi_class(buf), buf);
		return;
	}
	if (f->jank_type > 1) {
		/* Android's own verdict: the bits that made the frame janky by the library's rule
		 * (trace_processor's, gx_ft_janky_bits(): a surface frame with SurfaceFlinger
		 * Scheduling and App Deadline Missed is janky for the latter only); a frame with
		 * none of them: its lowest bit past JANK_NONE, up to Dropped, Buffer Stuffing last */
		int32_t bits = f->jank_type & ~1, bit;
		char name[128];

		bit = gx_ft_janky_bits(f->source == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY, f->jank_type);
		if (!bit) {
			bit = bits & ~GFXSTAT_JANK_BUFFER_STUFFING;
			if (!bit)
				bit = bits;
			bit &= -bit;
			if (bit > 1024)
				bit = 0;
		}
		if (bit) {
			gfxstat_perfetto_jank_type_str(bit, name, sizeof(name));
			snprintf(buf, sizeof(buf), "%s: %s",
				 f->source == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY
					 ? "FrameTimeline display frame (SurfaceFlinger)"
					 : "FrameTimeline", name);
			gx_cause_plain(out, ft_class(bit & -bit), buf);
			/* the kind is the jank type, not "FrameTimeline" */
			{
				struct gx_out o = { out->signature, sizeof(out->signature), 0 };

				gx_out_puts(&o, gfxstat_cause_class_name(out->cls));
				gx_out_puts(&o, "|");
				gx_out_puts(&o, buf);
				out->signature[o.len < o.cap ? o.len : o.cap - 1] = 0;
			}
			return;
		}
	}
	/* SurfaceFlinger's own frames: no app work explains them, their jank is SF's */
	if (f->source == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY) {
		snprintf(buf, sizeof(buf), "SurfaceFlinger display frame: %s",
			 f->jank_type == 1 ? "no jank type (late only against the cadence)"
					   : "no FrameTimeline jank type");
		gx_cause_plain(out, GFXSTAT_CAUSE_SURFACEFLINGER, buf);
		return;
	}
	if (f->source == GFXSTAT_SRC_FTRACE_DISPLAY) {
		snprintf(buf, sizeof(buf), "SurfaceFlinger: %s",
			 f->janky > 0 ? "missed the refresh (FrameMissed counter)"
				      : "refresh late against the cadence");
		gx_cause_plain(out, GFXSTAT_CAUSE_SURFACEFLINGER, buf);
		return;
	}
	if (f->pid < 0) {
		gx_cause_plain(out, GFXSTAT_CAUSE_UNKNOWN,
			       "unknown (this layer's app process is not identified)");
		return;
	}
	pr = c ? proc_of((struct gfxstat_causes *)c, f->pid, 0) : NULL;
	if (!pr || !pr->n) {
		gx_cause_plain(out, GFXSTAT_CAUSE_UNKNOWN,
			       "unknown (no app sections for this layer's process in the trace: "
			       "record with the 'view' category)");
		return;
	}
	if (f->actual_start_ns != GFXSTAT_NS_NONE) {
		/* the work gfxstat_causes_frame() gave the frame: its doFrame, and the DrawFrame
		 * that started inside it (or the DrawFrame itself, with no doFrame) */
		uint64_t h = layer_hash(f->layer);

		mw = find_work(pr, WORK_MAIN, f->actual_start_ns, f->actual_start_ns, h);
		rw = mw ? find_work(pr, WORK_RENDER, mw->start, mw->end, h)
			: find_work(pr, WORK_RENDER, f->actual_start_ns, f->actual_start_ns, h);
	} else {
		mw = last_work(pr, WORK_MAIN, by);
		rw = last_work(pr, WORK_RENDER, by);
	}
	if (!mw && !rw) {
		gx_cause_plain(out, GFXSTAT_CAUSE_UNKNOWN,
			       "unknown (no Choreographer#doFrame or DrawFrame before this frame)");
		return;
	}
	if (mw)
		view_of(mw, &mv);
	if (rw)
		view_of(rw, &rv);
	gx_cause_app(mw ? &mv : NULL, rw ? &rv : NULL, f, budget, prev_present,
		     gfxstat_thread_states_have_sched(c->ts), out);
}

int gfxstat_causes_explain(const struct gfxstat_causes *c, const struct gfxstat_frame *f,
			   int64_t prev_present, char *buf, size_t cap)
{
	struct gfxstat_cause why;

	gfxstat_causes_why(c, f, prev_present, &why);
	return snprintf(buf, cap, "%s", why.text);
}

void gfxstat_causes_set_thread_states(struct gfxstat_causes *c, struct gfxstat_thread_states *t)
{
	c->ts = t;
}
