/* SPDX-License-Identifier: MIT */
/*
 * ftrace/atrace text: chunks -> lines -> ftrace events -> atrace markers. Non-marker events
 * are dropped after the header check, the cheapest point at which they can be recognised,
 * before their task, pid, tgid and cpu are converted (ftrace_local.h); scheduler events go on
 * to their payload parse only when a caller asked for thread states
 * (gfxstat_trace_parser_set_sched_fn()), and for the kinds it asked for.
 */
#include <stdlib.h>

#include "../gx_local.h"
#include "ftrace_local.h"
#include "line_local.h"
#include "sched_local.h"
#include "counter_local.h"

struct gfxstat_trace_parser {
	struct gfxstat_line_reader *lines;
	gfxstat_marker_fn fn;
	void *user;
	gfxstat_sched_fn sched_fn; /* NULL: scheduler events are dropped unread */
	void *sched_user;
	unsigned sched_kinds;      /* the kinds whose payload is read */
	gfxstat_counter_fn counter_fn; /* NULL: GPU/thermal events dropped (counter_line.c) */
	void *counter_user;
	int64_t last_ts;
	struct gx_sec_cache sec; /* the seconds of the line before (calloc: none) */
	struct gfxstat_stats stats;
};

static int is_marker_event(struct gfxstat_str ev)
{
	/* "tracing_mark_write", or "0" when the kernel could not resolve the ip (2012-era) */
	return (ev.n == 18 && memcmp(ev.p, "tracing_mark_write", 18) == 0) ||
	       (ev.n == 1 && ev.p[0] == '0');
}

/* A scheduler event of a kind asked for (out of line: the lines that take it are the fewer,
 * and the feed loop keeps its registers for the rest). */
static GX_NOINLINE int read_sched(struct gfxstat_trace_parser *p, struct gfxstat_ftrace_line *ev,
				  struct gx_ftrace_lazy *lz, enum gfxstat_sched_kind kind)
{
	struct gfxstat_sched_event se;

	gx_ftrace_line_fields(lz, ev);
	switch (gx_sched_line_parse_kind(ev, kind, &se)) {
	case GFXSTAT_PARSE_OK:
		GX_STAT_INC(&p->stats, sched_events);
		return p->sched_fn(p->sched_user, &se);
	case GFXSTAT_PARSE_UNSUPPORTED:
		return 0;
	default:
		GX_STAT_INC(&p->stats, sched_malformed);
		return 0;
	}
}

/* An event no marker: a scheduler event for thread states, read only when someone asked for
 * its kind, or a counter. */
static inline GX_ALWAYS_INLINE int on_sched(struct gfxstat_trace_parser *p,
					    struct gfxstat_ftrace_line *ev,
					    struct gx_ftrace_lazy *lz)
{
	enum gfxstat_sched_kind kind = gx_sched_kind_fast(ev->event);

	if (!(p->sched_kinds & GFXSTAT_SCHED_BIT(kind)))
		/* not a scheduler event (NONE is never set), or not asked for */
		return kind == GFXSTAT_SCHED_NONE && p->counter_fn
			       ? gx_counter_line_feed(ev, p->counter_fn, p->counter_user, &p->stats)
			       : 0;
	return read_sched(p, ev, lz, kind);
}

/* inline in the feed loop (gfxstat_trace_parser_feed(), flattened): a call per line, with
 * its frame, costs as much as a sixth of the line's parse */
static inline int on_line(void *user, const char *s, size_t n)
{
	struct gfxstat_trace_parser *p = user;
	struct gfxstat_ftrace_line ev;
	struct gx_ftrace_lazy lz;
	struct gfxstat_marker m;

	switch (gx_ftrace_line_head(s, n, &ev, &lz, &p->sec)) {
	case GFXSTAT_PARSE_OK:
		break;
	case GFXSTAT_PARSE_UNSUPPORTED:
		if (n && memchr(s, '#', n))
			GX_STAT_INC(&p->stats, comment_lines);
		else
			GX_STAT_INC(&p->stats, blank_lines);
		return 0;
	default:
		GX_STAT_INC(&p->stats, ftrace_line_malformed);
		return 0;
	}
	GX_STAT_INC(&p->stats, events);
	if (GX_UNLIKELY(ev.ts_ns < p->last_ts))
		GX_STAT_INC(&p->stats, time_backwards);
	p->last_ts = ev.ts_ns;
	if (!is_marker_event(ev.event)) {
		GX_STAT_INC(&p->stats, other_events);
		return p->sched_fn || p->counter_fn ? on_sched(p, &ev, &lz) : 0;
	}
	GX_STAT_INC(&p->stats, marker_events);
	switch (gfxstat_atrace_marker_parse(ev.payload.p, ev.payload.n, &m)) {
	case GFXSTAT_PARSE_OK:
		gx_ftrace_line_fields(&lz, &ev);
		return p->fn(p->user, &ev, &m);
	case GFXSTAT_PARSE_UNSUPPORTED:
		GX_STAT_INC(&p->stats, marker_unsupported);
		return 0;
	default:
		GX_STAT_INC(&p->stats, marker_malformed);
		return 0;
	}
}

struct gfxstat_trace_parser *gfxstat_trace_parser_new(gfxstat_marker_fn fn, void *user)
{
	struct gfxstat_trace_parser *p;

	if (!fn)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->fn = fn;
	p->user = user;
	p->last_ts = INT64_MIN;
	p->lines = gfxstat_line_reader_new(GFXSTAT_MAX_LINE, on_line, p, &p->stats);
	if (!p->lines) {
		free(p);
		return NULL;
	}
	return p;
}

void gfxstat_trace_parser_set_sched_fn(struct gfxstat_trace_parser *p, gfxstat_sched_fn fn,
				       void *user, unsigned kinds)
{
	p->sched_fn = fn;
	p->sched_user = user;
	gfxstat_trace_parser_set_sched_kinds(p, kinds);
}

void gfxstat_trace_parser_set_sched_kinds(struct gfxstat_trace_parser *p, unsigned kinds)
{
	/* bit 0 is GFXSTAT_SCHED_NONE: never read */
	p->sched_kinds = (kinds ? kinds : ~0u) & ~GFXSTAT_SCHED_BIT(GFXSTAT_SCHED_NONE);
}

void gfxstat_trace_parser_set_counter_fn(struct gfxstat_trace_parser *p, gfxstat_counter_fn fn,
					 void *user)
{
	p->counter_fn = fn;
	p->counter_user = user;
}

void gfxstat_trace_parser_free(struct gfxstat_trace_parser *p)
{
	if (!p)
		return;
	gfxstat_line_reader_free(p->lines);
	free(p);
}

#ifdef __GNUC__
__attribute__((flatten)) /* the feed loop, on_line() and the header parse in one body */
#endif
int gfxstat_trace_parser_feed(struct gfxstat_trace_parser *p, const void *buf, size_t n)
{
	/* on_line() called directly (line_local.h): it runs for every line */
	return gx_line_reader_feed_with(p->lines, buf, n, on_line, p);
}

int gfxstat_trace_parser_finish(struct gfxstat_trace_parser *p)
{
	return gfxstat_line_reader_finish(p->lines);
}

struct gfxstat_stats *gfxstat_trace_parser_stats(struct gfxstat_trace_parser *p)
{
	return &p->stats;
}
