/* SPDX-License-Identifier: MIT */
/* The cause class of a late frame from its app work (jank_class.c), for jank_cause.c. */
#ifndef JANK_CLASS_LOCAL_H
#define JANK_CLASS_LOCAL_H

#include "produce_local.h"
#include "gfxstat/gfxstat_cause.h"

/* One frame of app work as jank_cause.c keeps it. */
struct gx_work_view {
	int render;                 /* 1: a RenderThread DrawFrame; 0: a main-thread doFrame */
	int producer;               /* 1 (with @render): a thread of the app's own that queues
				     * its buffers outside any doFrame or DrawFrame (a game's render
				     * thread, a GLSurfaceView's GLThread, a decoder), its work
				     * from its previous queueBuffer to this one */
	const char *name;           /* its section */
	const char *child;          /* its longest section inside, or "" */
	const char *path;           /* that section and its own longest inside, nested, or "" */
	int64_t start, end, child_ns;
	int32_t tid, pid;
	const char *comm;           /* its thread's task name, or "" */
	const struct gfxstat_thread_span *span; /* where the thread's time went, or NULL */
};

/*
 * gx_cause_app() - the cause of frame @f from the app work that produced it: @mw its doFrame,
 * @rw its DrawFrame or its producer thread's work (either may be NULL, not both); @budget the
 * refresh period;
 * @have_sched: the input has scheduler events. The decision list of docs/metrics.md.
 */
GFXSTAT_HIDDEN void gx_cause_app(const struct gx_work_view *mw, const struct gx_work_view *rw,
				 const struct gfxstat_frame *f, int64_t budget,
				 int64_t prev_present, int have_sched, struct gfxstat_cause *out);

/* Set @out's class, text and signature for a cause found without app work (@text). */
GFXSTAT_HIDDEN void gx_cause_plain(struct gfxstat_cause *out, enum gfxstat_cause_class cls,
				   const char *text);

/*
 * gx_cause_phrase() - the first @n bytes of @text as a whole phrase in @dst (@cap bytes): every
 * bracket opened in them closed, so a cut "unknown (no app sections ...: record with ...)"
 * reads "unknown (no app sections ...)", never with its bracket left open; cut back to a word
 * when it would not fit. For summaries and signatures, which say a cause's kind.
 */
GFXSTAT_HIDDEN void gx_cause_phrase(char *dst, size_t cap, const char *text, size_t n);

#endif
