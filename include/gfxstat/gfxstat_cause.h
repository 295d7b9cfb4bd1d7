/* SPDX-License-Identifier: MIT */
/*
 * Why a janky frame was late, as one cause class with its evidence: from the app's sections
 * (Choreographer#doFrame, DrawFrame) and, where the trace has the scheduler's events, from
 * the thread states of the threads that did the work (gfxstat_sched.h). The decision list is
 * in docs/metrics.md ("Why a frame was janky"). Clusters group the janky frames of a run by
 * the signature of their cause.
 *
 * Ownership: gfxstat_cause is a plain value the caller owns; every gfxstat_x_new() has a
 * gfxstat_x_free() that accepts NULL.
 */
#ifndef GFXSTAT_CAUSE_H
#define GFXSTAT_CAUSE_H

#include "gfxstat.h"
#include "gfxstat_sched.h"

/* The classes, in the order of their names (gfxstat_cause_class_name()). */
enum gfxstat_cause_class {
	GFXSTAT_CAUSE_UNKNOWN,        /* "unknown": no app work found for the frame (and why) */
	GFXSTAT_CAUSE_BUSY,           /* "busy": the thread ran: its code took the time */
	GFXSTAT_CAUSE_SLOW_CPU,       /* "slow_cpu": it ran, on a little core or a low or capped
				       * frequency */
	GFXSTAT_CAUSE_CPU_STARVED,    /* "cpu_starved": runnable, waiting for a CPU */
	GFXSTAT_CAUSE_SLEEPING,       /* "sleeping": on binder, a lock, a sleep, another thread */
	GFXSTAT_CAUSE_BLOCKED_IO,     /* "blocked_io": uninterruptible in the kernel (IO) */
	GFXSTAT_CAUSE_GPU,            /* "gpu": waiting on the GPU */
	GFXSTAT_CAUSE_GC,             /* "gc": waiting for the garbage collector */
	GFXSTAT_CAUSE_SURFACEFLINGER, /* "surfaceflinger": the app was on time; SurfaceFlinger,
				       * the display or the GPU was not */
	GFXSTAT_CAUSE_APP_WORK,       /* "app_work": the app's work was long; the trace has no
				       * thread states to say why (or the source's own phase) */
	GFXSTAT_CAUSE_IDLE,           /* "idle": the app started the frame late (nothing to draw) */
	GFXSTAT_CAUSE_COUNT
};

const char *gfxstat_cause_class_name(enum gfxstat_cause_class c);

#define GFXSTAT_CAUSE_TEXT 512
#define GFXSTAT_CAUSE_SIG 256
#define GFXSTAT_CAUSE_SUMMARY 160

/* One thread's work for the frame: its section, and where its time went. */
struct gfxstat_cause_thread {
	int known;                     /* the frame's work on this thread was found */
	int have_states;               /* the trace had scheduler events: @span means something */
	char section[64];              /* "Choreographer#doFrame", "DrawFrame" */
	char path[128];                /* its longest section inside, nested: "input > obtainView" */
	int64_t path_ns;               /* the longest section's own duration */
	struct gfxstat_thread_span span; /* tid, work start/end; the state times (all unknown
					  * without scheduler events) */
};

/* The cause of one frame. */
struct gfxstat_cause {
	enum gfxstat_cause_class cls;
	char text[GFXSTAT_CAUSE_TEXT];         /* one line: the cause and its evidence */
	char signature[GFXSTAT_CAUSE_SIG];     /* class|thread|section path|binder target or
						* blocked function: frames with one cause share it */
	char summary[GFXSTAT_CAUSE_SUMMARY];   /* "main thread sleeping in input handling" */
	int on_render;                         /* the cause is on the RenderThread (else main) */
	struct gfxstat_cause_thread main, render;
	int no_sched;                          /* app sections, but no scheduler events */
};

struct gfxstat_causes;

/**
 * gfxstat_causes_why() - the cause of frame @f, with its class and evidence
 * @c: the section tracker of the frame's input (NULL for gfxinfo and FrameTimeline frames)
 * @prev_present: the layer's previous present, or GFXSTAT_NS_NONE
 * gfxstat_causes_explain() gives @out->text alone.
 */
void gfxstat_causes_why(const struct gfxstat_causes *c, const struct gfxstat_frame *f,
			int64_t prev_present, struct gfxstat_cause *out);

/**
 * gfxstat_causes_set_thread_states() - time each doFrame and DrawFrame's thread with @t
 * (which the caller feeds with the input's scheduler events, and frees after @c)
 */
void gfxstat_causes_set_thread_states(struct gfxstat_causes *c, struct gfxstat_thread_states *t);

/**
 * gfxstat_causes_task() - process @pid is named @name (@tid 0: the process; else its thread
 * @tid's task name): a gfxstat_task_fn for systrace's PROCESS DUMP. A layer whose producer
 * SurfaceFlinger's markers do not name is explained from the one process named after its app.
 * Return: 0.
 */
int gfxstat_causes_task(void *c, int32_t pid, int32_t tid, struct gfxstat_str name);

/**
 * gfxstat_causes_keep_work() - keep every frame of app work that names its vsync id (Android
 * 12+, up to 32768), not only each process's latest 64: for frames explained after the
 * input's end (a Perfetto trace's FrameTimeline frames, which the model holds until then)
 */
void gfxstat_causes_keep_work(struct gfxstat_causes *c, int on);

/* ---------------------------------------------------------------------------------------- */
/* Clusters: the janky frames of a run grouped by cause signature                              */

struct gfxstat_cause_cluster {
	enum gfxstat_cause_class cls;
	char signature[GFXSTAT_CAUSE_SIG];
	char summary[GFXSTAT_CAUSE_SUMMARY];   /* the first frame's, a whole phrase */
	uint64_t frames;
	int64_t jank_ns;                       /* how late its frames were, in all (those known) */
	uint64_t late_unknown;                 /* its frames whose lateness is not known */
};

struct gfxstat_cause_clusters;

struct gfxstat_cause_clusters *gfxstat_cause_clusters_new(void);
void gfxstat_cause_clusters_free(struct gfxstat_cause_clusters *cc);

/**
 * gfxstat_cause_clusters_add() - count one janky frame of cause @c
 * @jank_ns: how late it was (its source's deadline, else its interval beyond its cadence
 *           period); GFXSTAT_NS_NONE when not known: counted in late_unknown
 * Return: 0, or GFXSTAT_E_NOMEM.
 */
int gfxstat_cause_clusters_add(struct gfxstat_cause_clusters *cc, enum gfxstat_cause_class cls,
			       const char *signature, const char *summary, int64_t jank_ns);

/**
 * gfxstat_cause_clusters_get() - the clusters, most jank time first (then most frames, then
 * by signature), those of one summary merged into one (their frames and jank time added, the
 * signature and class of their part ranked first: two never read the same); valid until the
 * next add, get or free
 * Return: their number.
 */
size_t gfxstat_cause_clusters_get(struct gfxstat_cause_clusters *cc,
				  const struct gfxstat_cause_cluster **out);

/* The frames counted so far. */
uint64_t gfxstat_cause_clusters_frames(const struct gfxstat_cause_clusters *cc);

/**
 * gfxstat_zero_pack() - @n bytes of @in into @out, each run of zero bytes as a 0 and its
 * length (1-255), for records kept until the input's end that are mostly zeros
 * Return: the bytes written, at most 2 * @n.
 */
size_t gfxstat_zero_pack(const void *in, size_t n, unsigned char *out);

/* gfxstat_zero_pack()'s bytes at @in back into the @n bytes of @out. Return: past them in @in. */
const unsigned char *gfxstat_zero_unpack(const unsigned char *in, void *out, size_t n);

#endif
