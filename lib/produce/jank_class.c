/* SPDX-License-Identifier: MIT */
/*
 * One cause class for a late frame, from the app work that produced it: its doFrame and
 * DrawFrame (or a producer thread's work between its queueBuffers, in the DrawFrame's place),
 * their longest sections, and where their threads' time went (thread_state.c).
 * The decision list, first match wins (docs/metrics.md, "Why a frame was janky"):
 *   1. the work of both threads within half the budget: SurfaceFlinger/GPU, or idle when the
 *      app began the frame over a refresh after the previous present;
 *   2. else the longer of the two (the "worst"): a GC wait among its sections: gc;
 *   3. no thread states (the trace has no scheduler events): app_work, the sections alone;
 *   4. its thread's state that took most of the work's time:
 *      running: slow_cpu when it ran on a little core, capped, or at a mean frequency under
 *               half the fastest core's top; else busy (its code took the time);
 *      runnable (preempted or not): cpu_starved, and what ran instead;
 *      uninterruptible: blocked_io, with the kernel function (sched_blocked_reason);
 *      sleeping: a RenderThread waiting on a fence or the GPU: gpu; in dequeueBuffer:
 *               surfaceflinger (no free buffer); else sleeping: on binder (half its sleep or
 *               more in synchronous calls), on a lock (a "Lock contention" section), or
 *               woken by a thread or an interrupt (a sleep, a timeout);
 *      unknown: app_work.
 */
#include <stdarg.h>
#include <stdio.h>

#include "jank_class_local.h"

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
/* snprintf, where a long name may cut the line short: that is fine, it stays terminated */
static void fmt(char *buf, size_t cap, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vsnprintf(buf, cap, f, ap);
	va_end(ap);
}

const char *gfxstat_cause_class_name(enum gfxstat_cause_class c)
{
	static const char *const names[GFXSTAT_CAUSE_COUNT] = {
		"unknown", "busy", "slow_cpu", "cpu_starved", "sleeping", "blocked_io",
		"gpu", "gc", "surfaceflinger", "app_work", "idle",
	};

	return (unsigned)c < GFXSTAT_CAUSE_COUNT ? names[c] : "unknown";
}

static void copy_cstr(char *dst, const char *src, size_t cap)
{
	size_t n = strlen(src);

	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
}

void gx_cause_phrase(char *dst, size_t cap, const char *text, size_t n)
{
	char close[32];
	size_t i, depth, o;

	if (!cap)
		return;
	for (;;) {
		while (n && (text[n - 1] == ' ' || text[n - 1] == ',' || text[n - 1] == ';'))
			n--;
		for (i = depth = 0; i < n; i++)
			if ((text[i] == '(' || text[i] == '[') && depth < sizeof(close))
				close[depth++] = text[i] == '(' ? ')' : ']';
			else if ((text[i] == ')' || text[i] == ']') && depth)
				depth--;
		if (n + depth < cap)
			break;
		/* too long: back to the word before the room left */
		n = cap > depth + 1 ? cap - depth - 1 : 0;
		while (n && text[n] != ' ')
			n--;
	}
	memcpy(dst, text, n);
	for (o = n; depth;)
		dst[o++] = close[--depth];
	dst[o] = 0;
}

void gx_cause_plain(struct gfxstat_cause *out, enum gfxstat_cause_class cls, const char *text)
{
	char kind[GFXSTAT_CAUSE_SUMMARY];

	out->cls = cls;
	copy_cstr(out->text, text, sizeof(out->text));
	/* its kind: the text up to its first ':' (not the evidence and numbers after it) */
	gx_cause_phrase(kind, sizeof(kind), text, strcspn(text, ":"));
	fmt(out->signature, sizeof(out->signature), "%s|%s", gfxstat_cause_class_name(cls), kind);
	copy_cstr(out->summary, kind, sizeof(out->summary));
}

static double ms(int64_t ns)
{
	return (double)ns / 1e6;
}

static double ghz(uint32_t khz)
{
	return (double)khz / 1e6;
}

/*
 * The thread that did @w, named by what it is: the RenderThread; for a doFrame, the main
 * thread only when it is the process's own (tid == pid); else its task name: a Choreographer
 * may run on any looper thread (systemui draws its Splash Screen windows on a thread of their
 * own), so "main thread" would name the wrong one. A producer thread is always named by its
 * task name: an engine's ("UnityGfxDeviceW", "RHIThread", "GLThread 42") says what it is.
 */
static const char *thread_who(const struct gx_work_view *w, char *buf, size_t cap)
{
	if (w->render && !w->producer)
		return "RenderThread";
	if (!w->producer && (w->tid <= 0 || w->pid <= 0 || w->tid == w->pid))
		return "main thread";
	if (w->comm && w->comm[0])
		snprintf(buf, cap, "thread %s (tid %d)", w->comm, (int)w->tid);
	else
		snprintf(buf, cap, "thread %d", (int)w->tid);
	return buf;
}

/* The thread's kind in a signature: "main", "render", or "producer" (its own thread). */
static const char *kind_of(const struct gx_work_view *w)
{
	return w->producer ? "producer" : w->render ? "render" : "main";
}

/* Today's section description: "main thread: Choreographer#doFrame 32.3 ms (longest inside:
 * input 27.9 ms)". */
static int describe(char *buf, size_t cap, const struct gx_work_view *w)
{
	char tb[48];
	const char *where = thread_who(w, tb, sizeof(tb));

	if (w->child[0])
		return snprintf(buf, cap, "%s: %s %.1f ms (longest inside: %s %.1f ms)", where,
				w->name, ms(w->end - w->start), w->child, ms(w->child_ns));
	return snprintf(buf, cap, "%s: %s %.1f ms", where, w->name, ms(w->end - w->start));
}

static void fill_thread(struct gfxstat_cause_thread *t, const struct gx_work_view *w,
			int have_sched)
{
	t->known = 1;
	t->have_states = have_sched && w->span;
	copy_cstr(t->section, w->name, sizeof(t->section));
	copy_cstr(t->path, w->path[0] ? w->path : w->child, sizeof(t->path));
	t->path_ns = w->child_ns;
	if (w->span) {
		t->span = *w->span;
	} else {
		/* the work is known, its thread's states are not */
		memset(&t->span, 0, sizeof(t->span));
		t->span.tid = w->tid;
		t->span.start_ns = w->start;
		t->span.end_ns = w->end;
		t->span.state_ns[GFXSTAT_TS_UNKNOWN] = w->end - w->start;
		t->span.waker_tid = t->span.waker_pid = t->span.instead_tid = -1;
		t->span.io_wait = -1;
	}
	if (!t->have_states) {
		int64_t total = t->span.end_ns - t->span.start_ns;

		memset(t->span.state_ns, 0, sizeof(t->span.state_ns));
		t->span.state_ns[GFXSTAT_TS_UNKNOWN] = total > 0 ? total : 0;
	}
}

static int has(const char *s, const char *lit)
{
	return strstr(s, lit) != NULL;
}

/* ART's waits for the collector: "WaitForGcToComplete", "GC: Wait For Completion ...", a
 * collection on the thread itself ("young concurrent copying GC", "Background ... GC"). */
static int is_gc(const char *path)
{
	return has(path, "WaitForGc") || has(path, "GC");
}

/* A RenderThread wait on the GPU: a fence ("waiting for GPU completion", "Wait on fence"),
 * or hwui's GPU flush. */
static int is_gpu(const char *path)
{
	return has(path, "GPU") || has(path, "gpu") || has(path, "fence") || has(path, "Fence") ||
	       has(path, "flush");
}

/* The first section of @path, "input > obtainView" -> "input". */
static void first_of(const char *path, char *dst, size_t cap)
{
	const char *e = strstr(path, " > ");
	size_t n = e ? (size_t)(e - path) : strlen(path);

	if (n >= cap)
		n = cap - 1;
	memcpy(dst, path, n);
	dst[n] = 0;
}

/* Choreographer's phases (android.view.Choreographer doFrame: "input", "animation",
 * "traversal"), named for a reader. */
static const char *phase(const char *s)
{
	if (!strcmp(s, "input"))
		return "input handling";
	if (!strcmp(s, "traversal"))
		return "traversal (measure, layout, draw)";
	return s;
}

/* "worker_thread+0x368/0x458" -> "worker_thread": the function, not the place in it. */
static void function_of(const char *caller, char *dst, size_t cap)
{
	size_t n = strcspn(caller, "+");

	if (n >= cap)
		n = cap - 1;
	memcpy(dst, caller, n);
	dst[n] = 0;
}

/* The CPUs of @mask as "6" or "4,5". */
static void cpu_list(uint64_t mask, char *buf, size_t cap)
{
	size_t o = 0;
	unsigned c;

	buf[0] = 0;
	for (c = 0; c < 64 && o + 4 < cap; c++)
		if (mask >> c & 1) {
			int n = snprintf(buf + o, cap - o, "%s%u", o ? "," : "", c);

			if (n < 0 || (size_t)n >= cap - o)
				break;
			o += (size_t)n;
		}
}

enum { D_RUNNING, D_RUNNABLE, D_SLEEPING, D_BLOCKED, D_UNKNOWN };

/* The state that took most of the span (runnable counts both its kinds). */
static int dominant(const struct gfxstat_thread_span *s)
{
	int64_t v[5];
	int i, best = D_UNKNOWN;

	v[D_RUNNING] = s->state_ns[GFXSTAT_TS_RUNNING];
	v[D_RUNNABLE] = s->state_ns[GFXSTAT_TS_RUNNABLE] + s->state_ns[GFXSTAT_TS_RUNNABLE_PREEMPTED];
	v[D_SLEEPING] = s->state_ns[GFXSTAT_TS_SLEEPING];
	v[D_BLOCKED] = s->state_ns[GFXSTAT_TS_UNINTERRUPTIBLE];
	v[D_UNKNOWN] = s->state_ns[GFXSTAT_TS_UNKNOWN];
	for (i = 0; i < 5; i++)
		if (v[i] > v[best])
			best = i;
	return best;
}

/* "ran 3.9 ms on CPU 6 at 1.06 GHz" */
static int ran(char *buf, size_t cap, const struct gfxstat_thread_span *s)
{
	char cpus[64];

	cpu_list(s->cpus, cpus, sizeof(cpus));
	if (!s->max_freq_khz)
		return snprintf(buf, cap, "ran %.1f ms%s%s", ms(s->state_ns[GFXSTAT_TS_RUNNING]),
				cpus[0] ? " on CPU " : "", cpus);
	if (s->mean_freq_khz + 5000 >= s->max_freq_khz)
		return snprintf(buf, cap, "ran %.1f ms on CPU %s at %.2f GHz",
				ms(s->state_ns[GFXSTAT_TS_RUNNING]), cpus, ghz(s->max_freq_khz));
	return snprintf(buf, cap, "ran %.1f ms on CPU %s at %.2f GHz on average (up to %.2f)",
			ms(s->state_ns[GFXSTAT_TS_RUNNING]), cpus, ghz(s->mean_freq_khz),
			ghz(s->max_freq_khz));
}

/* The classes that need the thread states; @w is the worst work, its span known. */
static void classify(const struct gx_work_view *w, struct gfxstat_cause *out, const char *sect,
		     const char *path)
{
	const struct gfxstat_thread_span *s = w->span;
	char tb[48];
	const char *who = thread_who(w, tb, sizeof(tb));
	char head[256], ev[256], target[96], cpu[160];
	int64_t slept = s->state_ns[GFXSTAT_TS_SLEEPING];

	describe(head, sizeof(head), w);
	ran(cpu, sizeof(cpu), s);
	target[0] = 0;
	switch (dominant(s)) {
	case D_RUNNING: {
		/* the same work takes twice as long at half the frequency: a mean under half the
		 * fastest core's top, a little core, or a policy max below the top is a slow CPU */
		int slow_freq = s->mean_freq_khz && s->system_max_khz &&
				2 * (uint64_t)s->mean_freq_khz < s->system_max_khz;

		if (slow_freq || s->little || s->capped) {
			out->cls = GFXSTAT_CAUSE_SLOW_CPU;
			fmt(ev, sizeof(ev), "%s%s%s; the fastest core reaches %.2f GHz", cpu,
				 s->little ? " (a little core)" : "",
				 s->capped ? " (its frequency capped)" : "", ghz(s->system_max_khz));
			fmt(out->summary, sizeof(out->summary), "%s on a slow CPU in %s", who,
				 sect);
		} else {
			out->cls = GFXSTAT_CAUSE_BUSY;
			fmt(ev, sizeof(ev), "%s", cpu);
			fmt(out->summary, sizeof(out->summary), "%s busy running code in %s",
				 who, sect);
		}
		break;
	}
	case D_RUNNABLE:
		out->cls = GFXSTAT_CAUSE_CPU_STARVED;
		if (s->instead_tid > 0)
			fmt(ev, sizeof(ev), "runnable %.1f ms (preempted %.1f); longest wait "
				 "%.1f ms while %s (tid %d) ran instead; %s",
				 ms(s->state_ns[GFXSTAT_TS_RUNNABLE] +
				    s->state_ns[GFXSTAT_TS_RUNNABLE_PREEMPTED]),
				 ms(s->state_ns[GFXSTAT_TS_RUNNABLE_PREEMPTED]),
				 ms(s->longest_runnable_ns),
				 s->instead_comm[0] ? s->instead_comm : "a thread", (int)s->instead_tid,
				 cpu);
		else
			fmt(ev, sizeof(ev), "runnable %.1f ms (preempted %.1f); longest wait "
				 "%.1f ms for %s; %s",
				 ms(s->state_ns[GFXSTAT_TS_RUNNABLE] +
				    s->state_ns[GFXSTAT_TS_RUNNABLE_PREEMPTED]),
				 ms(s->state_ns[GFXSTAT_TS_RUNNABLE_PREEMPTED]),
				 ms(s->longest_runnable_ns),
				 s->instead_tid == 0 ? "an idle CPU to wake up" : "a CPU", cpu);
		fmt(out->summary, sizeof(out->summary), "%s starved of CPU in %s", who, sect);
		break;
	case D_BLOCKED: {
		char fn[GFXSTAT_SPAN_FUNC_LEN];

		out->cls = GFXSTAT_CAUSE_BLOCKED_IO;
		function_of(s->blocked_fn, fn, sizeof(fn));
		fmt(ev, sizeof(ev), "uninterruptible %.1f ms; longest %.1f ms in %s%s; %s",
			 ms(s->state_ns[GFXSTAT_TS_UNINTERRUPTIBLE]), ms(s->longest_blocked_ns),
			 fn[0] ? fn : "an unnamed kernel function (no sched_blocked_reason)",
			 s->io_wait == 1 ? " (waiting for IO)" : "", cpu);
		copy_cstr(target, fn, sizeof(target));
		fmt(out->summary, sizeof(out->summary), "%s blocked in the kernel%s%s in %s",
			 who, fn[0] ? " in " : "", fn, sect);
		break;
	}
	case D_SLEEPING:
		/* (a producer thread dequeues its buffers from the same BufferQueue, libgui
		 * Surface::dequeueBuffer, and waits on the GPU the same way) */
		if (w->render && has(path, "dequeueBuffer")) {
			out->cls = GFXSTAT_CAUSE_SURFACEFLINGER;
			fmt(ev, sizeof(ev), "slept %.1f ms waiting in dequeueBuffer for a free "
				 "buffer (SurfaceFlinger or the display still holds them); %s",
				 ms(slept), cpu);
			fmt(out->summary, sizeof(out->summary),
				 "%s waiting for a buffer from SurfaceFlinger", who);
		} else if (w->render && is_gpu(path)) {
			out->cls = GFXSTAT_CAUSE_GPU;
			fmt(ev, sizeof(ev), "slept %.1f ms waiting on the GPU (%s); %s",
				 ms(slept), path, cpu);
			fmt(out->summary, sizeof(out->summary), "%s waiting on the GPU", who);
		} else if (s->nbinder && 2 * s->binder_ns >= slept) {
			const struct gfxstat_span_binder *b = &s->binder[0];

			out->cls = GFXSTAT_CAUSE_SLEEPING;
			if (b->dest_comm[0])
				fmt(target, sizeof(target), "binder:%s", b->dest_comm);
			else
				fmt(target, sizeof(target), "binder:pid %d", (int)b->dest_pid);
			fmt(ev, sizeof(ev), "slept %.1f ms, %.1f ms of it on binder; longest "
				 "call %.1f ms to %s (pid %d%s%s)%s; %s", ms(slept), ms(s->binder_ns),
				 ms(b->dur_ns), b->dest_comm[0] ? b->dest_comm : "a process",
				 (int)b->dest_pid, b->dest_thread_comm[0] ? ", thread " : "",
				 b->dest_thread_comm, b->replied ? "" : ", no reply by the work's end",
				 cpu);
			fmt(out->summary, sizeof(out->summary), "%s sleeping on binder to %s in %s",
				 who, target + 7, sect);
		} else {
			out->cls = GFXSTAT_CAUSE_SLEEPING;
			if (has(path, "Lock contention") || has(path, "monitor contention"))
				fmt(ev, sizeof(ev), "slept %.1f ms, on a lock (%s); %s", ms(slept),
					 path, cpu);
			else if (s->waker_irq && s->longest_sleep_ns)
				fmt(ev, sizeof(ev), "slept %.1f ms; the longest sleep, %.1f ms, "
					 "ended by an interrupt (a timer or a device: a sleep, a "
					 "timeout); %s", ms(slept), ms(s->longest_sleep_ns), cpu);
			else if (s->waker_tid > 0)
				fmt(ev, sizeof(ev), "slept %.1f ms; the longest sleep, %.1f ms, "
					 "ended by %s (tid %d); %s", ms(slept),
					 ms(s->longest_sleep_ns),
					 s->waker_comm[0] ? s->waker_comm : "a thread",
					 (int)s->waker_tid, cpu);
			else
				fmt(ev, sizeof(ev), "slept %.1f ms; %s", ms(slept), cpu);
			fmt(out->summary, sizeof(out->summary), "%s sleeping in %s", who, sect);
		}
		break;
	default:
		out->cls = GFXSTAT_CAUSE_APP_WORK;
		fmt(ev, sizeof(ev), "its thread's states are not in the trace (no scheduler "
			 "event about tid %d)", (int)s->tid);
		fmt(out->summary, sizeof(out->summary), "%s slow in %s", who, sect);
		break;
	}
	fmt(out->text, sizeof(out->text), "%s: %s; %s", gfxstat_cause_class_name(out->cls),
		 head, ev);
	fmt(out->signature, sizeof(out->signature), "%s|%s|%s|%s",
		 gfxstat_cause_class_name(out->cls), kind_of(w), path, target);
}

void gx_cause_app(const struct gx_work_view *mw, const struct gx_work_view *rw,
		  const struct gfxstat_frame *f, int64_t budget, int64_t prev_present,
		  int have_sched, struct gfxstat_cause *out)
{
	const struct gx_work_view *worst;
	char sect[80], first[64], tb[48];
	const char *path;

	if (mw)
		fill_thread(&out->main, mw, have_sched);
	if (rw)
		fill_thread(&out->render, rw, have_sched);
	out->no_sched = !have_sched;
	worst = !rw || (mw && mw->end - mw->start >= rw->end - rw->start) ? mw : rw;
	out->on_render = worst->render;
	if (2 * (worst->end - worst->start) <= budget) {
		char buf[GFXSTAT_CAUSE_TEXT];

		/* the app's work was short: either it started late (nothing to draw) or SF/GPU
		 * lagged; a frame with its own start is judged from it, so it was not idle when
		 * found late */
		if (f->actual_start_ns != GFXSTAT_NS_NONE && f->present_ns != GFXSTAT_NS_NONE) {
			fmt(buf, sizeof(buf), "SurfaceFlinger/GPU: the app's work was within "
				 "budget (%s %.1f ms) but the frame took %.1f ms from its start to "
				 "the display", worst->name, ms(worst->end - worst->start),
				 ms(f->present_ns - f->actual_start_ns));
			gx_cause_plain(out, GFXSTAT_CAUSE_SURFACEFLINGER, buf);
		} else if (prev_present != GFXSTAT_NS_NONE && mw && mw->start > prev_present + budget) {
			fmt(buf, sizeof(buf), "idle: the app started this frame %.1f ms after "
				 "the previous present (nothing to draw in between)",
				 ms(mw->start - prev_present));
			gx_cause_plain(out, GFXSTAT_CAUSE_IDLE, buf);
		} else {
			fmt(buf, sizeof(buf), "SurfaceFlinger/GPU: the app's work was within "
				 "budget (%s %.1f ms)", worst->name, ms(worst->end - worst->start));
			gx_cause_plain(out, GFXSTAT_CAUSE_SURFACEFLINGER, buf);
		}
		return;
	}
	path = worst->path[0] ? worst->path : worst->child;
	first_of(path, first, sizeof(first));
	fmt(sect, sizeof(sect), "%s", first[0] ? phase(first) : worst->name);
	if (is_gc(path)) {
		out->cls = GFXSTAT_CAUSE_GC;
		describe(out->text, sizeof(out->text), worst);
		{
			char head[GFXSTAT_CAUSE_TEXT];

			copy_cstr(head, out->text, sizeof(head));
			fmt(out->text, sizeof(out->text), "gc: %s; waiting for the garbage "
				 "collector (%s)", head, path);
		}
		fmt(out->signature, sizeof(out->signature), "gc|%s|%s|", kind_of(worst), path);
		fmt(out->summary, sizeof(out->summary), "%s waiting for GC in %s",
			 thread_who(worst, tb, sizeof(tb)), sect);
		return;
	}
	if (!have_sched || !worst->span) {
		/* the sections alone: today's text, unchanged */
		out->cls = GFXSTAT_CAUSE_APP_WORK;
		describe(out->text, sizeof(out->text), worst);
		fmt(out->signature, sizeof(out->signature), "app_work|%s|%s|", kind_of(worst),
		    path);
		fmt(out->summary, sizeof(out->summary), "%s slow in %s",
			 thread_who(worst, tb, sizeof(tb)), sect);
		return;
	}
	classify(worst, out, sect, path);
}
