/* SPDX-License-Identifier: MIT */
/*
 * Why a frame was late. From traces: the app's main-thread Choreographer#doFrame and its
 * RenderThread DrawFrame that produced the frame, with their longest inner sections; when
 * both were within budget, SurfaceFlinger/GPU. From framestats: the FrameMetrics phase that
 * took more than half the frame budget (Taobao's rule). From FrameTimeline: Android's own
 * jank type.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../gx_local.h"
#include "gfxstat/gfxstat_perfetto.h"

#define NAME_MAX_LEN 64
#define MAX_DEPTH 32
#define MAX_THREADS 16384
#define HISTORY 64 /* recent frames of work per process */

struct open_slice {
	int64_t start;
	int64_t child_max;
	int input;      /* an input section finished inside it */
	char name[NAME_MAX_LEN];
	char child[NAME_MAX_LEN];
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
	char name[NAME_MAX_LEN];
	char child[NAME_MAX_LEN];
};

struct proc {
	int32_t pid;
	unsigned head, n;
	struct work w[HISTORY];
};

struct gfxstat_causes {
	struct thread *threads;
	size_t nthreads, cap_threads;
	struct proc *procs;
	size_t nprocs, cap_procs;
};

struct gfxstat_causes *gfxstat_causes_new(void)
{
	return calloc(1, sizeof(struct gfxstat_causes));
}

void gfxstat_causes_free(struct gfxstat_causes *c)
{
	if (!c)
		return;
	free(c->threads);
	free(c->procs);
	free(c);
}

static void copy_name(char *dst, struct gfxstat_str s)
{
	size_t n = s.n < NAME_MAX_LEN - 1 ? s.n : NAME_MAX_LEN - 1;

	memcpy(dst, s.p, n);
	dst[n] = 0;
}

/* Threads and processes are looked up linearly from the most recent: apps are few. */
static struct thread *thread_of(struct gfxstat_causes *c, int32_t tid, int32_t pid)
{
	size_t i;

	for (i = c->nthreads; i-- > 0;)
		if (c->threads[i].tid == tid)
			return &c->threads[i];
	if (c->nthreads >= MAX_THREADS)
		return NULL;
	if (c->nthreads == c->cap_threads) {
		size_t nc = c->cap_threads ? c->cap_threads * 2 : 64;
		struct thread *nt = realloc(c->threads, nc * sizeof(*nt));

		if (!nt)
			return NULL;
		c->threads = nt;
		c->cap_threads = nc;
	}
	memset(&c->threads[c->nthreads], 0, sizeof(struct thread));
	c->threads[c->nthreads].tid = tid;
	c->threads[c->nthreads].pid = pid;
	return &c->threads[c->nthreads++];
}

static struct proc *proc_of(struct gfxstat_causes *c, int32_t pid, int create)
{
	size_t i;

	for (i = 0; i < c->nprocs; i++)
		if (c->procs[i].pid == pid)
			return &c->procs[i];
	if (!create || c->nprocs >= MAX_THREADS)
		return NULL;
	if (c->nprocs == c->cap_procs) {
		size_t nc = c->cap_procs ? c->cap_procs * 2 : 16;
		struct proc *np = realloc(c->procs, nc * sizeof(*np));

		if (!np)
			return NULL;
		c->procs = np;
		c->cap_procs = nc;
	}
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
			s->child[0] = 0;
			copy_name(s->name, m->name);
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
			if (dur > parent->child_max) {
				parent->child_max = dur;
				memcpy(parent->child, s->name, NAME_MAX_LEN);
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
			w->kind = kind;
			w->input = s->input;
			w->start = s->start;
			w->end = ev->ts_ns;
			w->child_ns = s->child_max;
			memcpy(w->name, s->name, NAME_MAX_LEN);
			memcpy(w->child, s->child, NAME_MAX_LEN);
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

static int describe(char *buf, size_t cap, const char *where, const struct work *w)
{
	if (w->child[0])
		return snprintf(buf, cap, "%s: %s %.1f ms (longest inside: %s %.1f ms)", where,
				w->name, (double)(w->end - w->start) / 1e6, w->child,
				(double)w->child_ns / 1e6);
	return snprintf(buf, cap, "%s: %s %.1f ms", where, w->name,
			(double)(w->end - w->start) / 1e6);
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

int gfxstat_causes_explain(const struct gfxstat_causes *c, const struct gfxstat_frame *f,
			   int64_t prev_present, char *buf, size_t cap)
{
	int64_t budget = f->vsync_period_ns > 0 && f->vsync_period_ns != GFXSTAT_NS_NONE
				 ? f->vsync_period_ns : 16666667;
	int64_t by = f->latch_ns != GFXSTAT_NS_NONE ? f->latch_ns : f->present_ns;
	const struct proc *pr;
	const struct work *mw, *rw, *worst;

	if (f->source == GFXSTAT_SRC_GFXINFO) {
		int n = from_frameinfo(f, budget, buf, cap);

		return n >= 0 ? n : snprintf(buf, cap, "unknown (no FrameInfo phases)");
	}
	if (f->jank_type > 1) {
		/* Android's own verdict: the lowest jank bit past JANK_NONE, up to Dropped, taking
		 * first the bits that make a frame janky (Buffer Stuffing alone does not) */
		int32_t bits = f->jank_type & ~1, bit = bits & ~GFXSTAT_JANK_BUFFER_STUFFING;
		char name[128];

		if (!bit)
			bit = bits;
		bit &= -bit;
		if (bit && bit <= 1024) {
			gfxstat_perfetto_jank_type_str(bit, name, sizeof(name));
			return snprintf(buf, cap, "%s: %s",
					f->source == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY
						? "FrameTimeline display frame (SurfaceFlinger)"
						: "FrameTimeline", name);
		}
	}
	/* SurfaceFlinger's own frames: no app work explains them, their jank is SF's */
	if (f->source == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY)
		return snprintf(buf, cap, "SurfaceFlinger display frame: %s",
				f->jank_type == 1 ? "no jank type (late only against the cadence)"
						  : "no FrameTimeline jank type");
	if (f->source == GFXSTAT_SRC_FTRACE_DISPLAY)
		return snprintf(buf, cap, "SurfaceFlinger: %s",
				f->janky > 0 ? "missed the refresh (FrameMissed counter)"
					     : "refresh late against the cadence");
	if (f->pid < 0)
		return snprintf(buf, cap, "unknown (this layer's app process is not identified)");
	pr = c ? proc_of((struct gfxstat_causes *)c, f->pid, 0) : NULL;
	if (!pr || !pr->n)
		return snprintf(buf, cap, "unknown (no app sections for this layer's process in "
					  "the trace: record with the 'view' category)");
	mw = last_work(pr, WORK_MAIN, by);
	rw = last_work(pr, WORK_RENDER, by);
	if (!mw && !rw)
		return snprintf(buf, cap, "unknown (no Choreographer#doFrame or DrawFrame before "
					  "this frame)");
	worst = !rw || (mw && mw->end - mw->start >= rw->end - rw->start) ? mw : rw;
	if (2 * (worst->end - worst->start) > budget)
		return describe(buf, cap, worst->kind == WORK_MAIN ? "main thread" : "RenderThread",
				worst);
	/* the app's work was short: either it started late (nothing to draw) or SF/GPU lagged */
	if (prev_present != GFXSTAT_NS_NONE && mw && mw->start > prev_present + budget)
		return snprintf(buf, cap, "idle: the app started this frame %.1f ms after the "
					  "previous present (nothing to draw in between)",
				(double)(mw->start - prev_present) / 1e6);
	return snprintf(buf, cap, "SurfaceFlinger/GPU: the app's work was within budget (%s "
				  "%.1f ms)", worst->name, (double)(worst->end - worst->start) / 1e6);
}
