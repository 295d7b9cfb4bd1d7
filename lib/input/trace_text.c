/* SPDX-License-Identifier: MIT */
/*
 * ftrace/atrace text: chunks -> lines -> ftrace events -> atrace markers. Non-marker events
 * are dropped after the header check, the cheapest point at which they can be recognised,
 * before their task, pid, tgid and cpu are converted (ftrace_local.h); scheduler events go on
 * to their payload parse only when a caller asked for thread states
 * (gfxstat_trace_parser_set_sched_fn()), and for the kinds it asked for.
 *
 * With two threads (gfxstat_trace_parser_set_threads()), a feed's whole lines are cut in
 * blocks of about 64 kB: one block in four is parsed in the caller's thread as above, the
 * others on a thread of the parser's own (lib/util/ahead.c) into records (a marker and its
 * line, a scheduler event, a scheduler line that did not parse, a counter, a counter line that
 * did not parse) and counts, which the caller's thread then hands on in input order. What
 * depends on the lines before (a time earlier than the line before, the scheduler kinds still
 * asked for) is settled there, so the callbacks, their order and the counts are the one
 * thread's (for functions set between feeds: gfxstat_trace_parser_set_threads()).
 */
#include <stdlib.h>

#include "../gx_local.h"
#include "ftrace_local.h"
#include "line_local.h"
#include "sched_local.h"
#include "counter_local.h"
#include "trace_text_local.h"

struct gfxstat_trace_parser {
	struct gfxstat_line_reader *lines;
	gfxstat_marker_fn fn;
	void *user;
	gfxstat_sched_fn sched_fn; /* NULL: scheduler events are dropped unread */
	void *sched_user;
	unsigned sched_kinds;      /* the kinds whose payload is read (none without sched_fn) */
	gfxstat_counter_fn counter_fn; /* NULL: GPU/thermal events dropped (counter_line.c) */
	void *counter_user;
	int64_t last_ts;
	struct gx_sec_cache sec; /* the seconds of the line before (calloc: none) */
	struct gfxstat_stats stats;
	/* parsing ahead */
	int threads;             /* gfxstat_trace_parser_set_threads() > 1 */
	struct gx_ahead *ahead;  /* the thread, once started */
	struct tt_block *blocks; /* its TT_SLOTS jobs */
	struct gfxstat_line_reader *lines_ahead; /* its line reader */
	struct gx_sec_cache sec_ahead; /* the thread's */
	size_t ahead_min, ahead_block;  /* TT_MIN, TT_BLOCK, or the tests' */
};

/* ---- parsing ahead: the records of a block ---- */

#define TT_BLOCK (64 * 1024) /* a block: whole lines from here on */
#define TT_SLOTS 8           /* blocks parsed ahead at most */
#define TT_MIN (512 * 1024)  /* fewer bytes of whole lines in a feed: all in the caller's */
#define TT_PLAN 32           /* blocks cut and not yet handed on */
#define TT_MINE 4            /* one block in TT_MINE is parsed in the caller's thread (1 in 3:
			      * the same instructions in both, 0.54 s on bench's 1.1 GB; 1 in 4:
			      * 0.52 s, the caller's records cost it more than their count) */

/* a marker; a scheduler event; a scheduler line that did not parse; a scheduler line of a
 * kind not asked for when it was read (asked for by the time it is handed on: read then); a
 * counter (counter_line.c); a counter line that did not parse */
enum { TT_MARKER, TT_SCHED, TT_SCHED_BAD, TT_SCHED_LATER, TT_COUNTER, TT_COUNTER_BAD };

struct tt_rec {
	int type;
	enum gfxstat_sched_kind kind;
	union {
		struct {
			struct gfxstat_ftrace_line ev;
			struct gfxstat_marker m;
		} mk;
		struct gfxstat_sched_event se;
		struct gfxstat_counter c;
		struct {
			const char *s;
			size_t n;
		} line;
	} u;
};

/* A block parsed ahead: its records in line order, and what it counted that does not depend
 * on the lines before it. */
struct tt_block {
	struct gfxstat_trace_parser *parser;
	const char *p, *end;
	int sched;      /* a sched function was set when it was handed over */
	unsigned kinds; /* the scheduler kinds read then */
	int counter;    /* a counter function was set then */
	struct tt_rec *rec;
	size_t n, cap;
	struct gfxstat_stats stats;
	int has_ts;
	int64_t first_ts, last_ts; /* of its first and last event */
	uint64_t back;             /* events earlier than the one before, within the block */
	int rc;                    /* GFXSTAT_E_NOMEM */
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

/* The head of line [s, s + n) into @ev and @lz (seconds cached in @sec): 1 for an event;
 * else 0, the line counted in @st as a comment, a blank or a malformed line. Shared by the
 * caller's thread (on_line()) and the parser's (tt_line()). */
static inline GX_ALWAYS_INLINE int line_head(const char *s, size_t n,
					     struct gfxstat_ftrace_line *ev,
					     struct gx_ftrace_lazy *lz, struct gx_sec_cache *sec,
					     struct gfxstat_stats *st)
{
	switch (gx_ftrace_line_head(s, n, ev, lz, sec)) {
	case GFXSTAT_PARSE_OK:
		return 1;
	case GFXSTAT_PARSE_UNSUPPORTED:
		if (n && memchr(s, '#', n))
			GX_STAT_INC(st, comment_lines);
		else
			GX_STAT_INC(st, blank_lines);
		return 0;
	default:
		GX_STAT_INC(st, ftrace_line_malformed);
		return 0;
	}
}

/* A marker event's payload into @m: 1 for an atrace marker; else 0, counted in @st. */
static inline GX_ALWAYS_INLINE int marker_of(const struct gfxstat_ftrace_line *ev,
					     struct gfxstat_marker *m, struct gfxstat_stats *st)
{
	switch (gfxstat_atrace_marker_parse(ev->payload.p, ev->payload.n, m)) {
	case GFXSTAT_PARSE_OK:
		return 1;
	case GFXSTAT_PARSE_UNSUPPORTED:
		GX_STAT_INC(st, marker_unsupported);
		return 0;
	default:
		GX_STAT_INC(st, marker_malformed);
		return 0;
	}
}

/* inline in the feed loop (gfxstat_trace_parser_feed(), flattened): a call per line, with
 * its frame, costs as much as a sixth of the line's parse */
static inline int on_line(void *user, const char *s, size_t n)
{
	struct gfxstat_trace_parser *p = user;
	struct gfxstat_ftrace_line ev;
	struct gx_ftrace_lazy lz;
	struct gfxstat_marker m;

	if (!line_head(s, n, &ev, &lz, &p->sec, &p->stats))
		return 0;
	GX_STAT_INC(&p->stats, events);
	if (GX_UNLIKELY(ev.ts_ns < p->last_ts))
		GX_STAT_INC(&p->stats, time_backwards);
	p->last_ts = ev.ts_ns;
	if (!is_marker_event(ev.event)) {
		GX_STAT_INC(&p->stats, other_events);
		return p->sched_fn || p->counter_fn ? on_sched(p, &ev, &lz) : 0;
	}
	GX_STAT_INC(&p->stats, marker_events);
	if (!marker_of(&ev, &m, &p->stats))
		return 0;
	gx_ftrace_line_fields(&lz, &ev);
	return p->fn(p->user, &ev, &m);
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
	p->ahead_min = TT_MIN;
	p->ahead_block = TT_BLOCK;
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
	/* bit 0 is GFXSTAT_SCHED_NONE: never read; and none without a function to take them
	 * (on_sched() then reads counters only) */
	p->sched_kinds = p->sched_fn ? (kinds ? kinds : ~0u) & ~GFXSTAT_SCHED_BIT(GFXSTAT_SCHED_NONE)
				     : 0;
}

void gfxstat_trace_parser_set_counter_fn(struct gfxstat_trace_parser *p, gfxstat_counter_fn fn,
					 void *user)
{
	p->counter_fn = fn;
	p->counter_user = user;
}

void gfxstat_trace_parser_free(struct gfxstat_trace_parser *p)
{
	size_t i;

	if (!p)
		return;
	gx_ahead_free(p->ahead);
	for (i = 0; p->blocks && i < TT_SLOTS; i++)
		free(p->blocks[i].rec);
	free(p->blocks);
	gfxstat_line_reader_free(p->lines_ahead);
	gfxstat_line_reader_free(p->lines);
	free(p);
}

static GX_NOINLINE int feed_ahead(struct gfxstat_trace_parser *p, const char *s, size_t n,
				  int *done);

#ifdef __GNUC__
__attribute__((flatten)) /* the feed loop, on_line() and the header parse in one body */
#endif
int gfxstat_trace_parser_feed(struct gfxstat_trace_parser *p, const void *buf, size_t n)
{
	if (p->threads) {
		int done, rc = feed_ahead(p, buf, n, &done);

		if (done)
			return rc;
	}
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

/* ---------------------------------------------------------------------------------------- */
/* Parsing ahead                                                                            */

static struct tt_rec *tt_push(struct tt_block *b, int type, enum gfxstat_sched_kind kind)
{
	struct tt_rec *r;

	if (b->n == b->cap && gx_grow((void **)&b->rec, &b->cap, b->n, sizeof(*b->rec), 256)) {
		b->rc = GFXSTAT_E_NOMEM;
		return NULL;
	}
	r = &b->rec[b->n++];
	r->type = type;
	r->kind = kind;
	return r;
}

/* gx_counter_line_feed() on the parser's thread: the counter, or that it did not parse, as a
 * record (counted when handed on, as long as a counter function is still set). */
static void tt_counter(struct tt_block *b, const struct gfxstat_ftrace_line *ev)
{
	struct gfxstat_counter c;
	struct tt_rec *r;

	switch (gx_counter_line_read(ev, &c)) {
	case GFXSTAT_PARSE_OK:
		r = tt_push(b, TT_COUNTER, GFXSTAT_SCHED_NONE);
		if (r)
			r->u.c = c;
		return;
	case GFXSTAT_PARSE_UNSUPPORTED:
		return;
	default:
		tt_push(b, TT_COUNTER_BAD, GFXSTAT_SCHED_NONE);
		return;
	}
}

/* on_line() on the parser's thread (a line of block @user): what the caller's thread is to hand
 * on, as records. */
static int tt_line(void *user, const char *s, size_t n)
{
	struct tt_block *b = user;
	struct gfxstat_trace_parser *p = b->parser;
	struct gfxstat_ftrace_line ev;
	struct gx_ftrace_lazy lz;
	struct gfxstat_marker m;
	struct tt_rec *r;

	if (!line_head(s, n, &ev, &lz, &p->sec_ahead, &b->stats))
		return 0;
	GX_STAT_INC(&b->stats, events);
	if (!b->has_ts) {
		b->has_ts = 1;
		b->first_ts = ev.ts_ns;
	} else if (ev.ts_ns < b->last_ts) {
		b->back++;
	}
	b->last_ts = ev.ts_ns;
	if (!is_marker_event(ev.event)) {
		enum gfxstat_sched_kind kind;
		struct gfxstat_sched_event se;
		enum gfxstat_parse_res res;

		GX_STAT_INC(&b->stats, other_events);
		if (!b->sched && !b->counter)
			return 0;
		kind = gx_sched_kind_fast(ev.event);
		if (!(b->kinds & GFXSTAT_SCHED_BIT(kind))) {
			if (kind == GFXSTAT_SCHED_NONE) {
				if (b->counter)
					tt_counter(b, &ev);
			} else if (b->sched && (r = tt_push(b, TT_SCHED_LATER, kind))) {
				r->u.line.s = s;
				r->u.line.n = n;
			}
			return 0;
		}
		gx_ftrace_line_fields(&lz, &ev);
		res = gx_sched_line_parse_kind(&ev, kind, &se);
		if (res == GFXSTAT_PARSE_UNSUPPORTED)
			return 0;
		r = tt_push(b, res == GFXSTAT_PARSE_OK ? TT_SCHED : TT_SCHED_BAD, kind);
		if (r && res == GFXSTAT_PARSE_OK)
			r->u.se = se;
		return 0;
	}
	GX_STAT_INC(&b->stats, marker_events);
	if (!marker_of(&ev, &m, &b->stats))
		return 0;
	gx_ftrace_line_fields(&lz, &ev);
	r = tt_push(b, TT_MARKER, GFXSTAT_SCHED_NONE);
	if (r) {
		r->u.mk.ev = ev;
		r->u.mk.m = m;
	}
	return 0;
}

/* The thread's job: block @k parsed into its records. */
static void tt_job(void *user, size_t k)
{
	struct gfxstat_trace_parser *p = user;
	struct tt_block *b = &p->blocks[k];

	memset(&b->stats, 0, sizeof(b->stats));
	b->n = 0;
	b->has_ts = 0;
	b->back = 0;
	b->rc = 0;
	/* the thread's own line reader, its counts the block's (a block is whole lines: nothing
	 * carried from one to the next) */
	p->lines_ahead->stats = &b->stats;
	gx_line_reader_feed_with(p->lines_ahead, b->p, (size_t)(b->end - b->p), tt_line, b);
}

/* Block @b, parsed ahead, handed on: its counts, then its records in order, each scheduler
 * event only if its kind is still asked for (the sched function narrows them as it goes). */
static int tt_replay(struct gfxstat_trace_parser *p, struct tt_block *b)
{
	size_t i;
	int k;

	if (b->rc)
		return b->rc;
	if ((p->sched_fn && !b->sched) || (p->counter_fn && !b->counter))
		return gx_line_reader_feed_with(p->lines, b->p, (size_t)(b->end - b->p), on_line,
						p); /* a function since: read it here */
	for (k = 0; k < GFXSTAT_STAT_COUNT; k++)
		p->stats.v[k] += b->stats.v[k];
	if (b->has_ts) {
		if (b->first_ts < p->last_ts)
			GX_STAT_INC(&p->stats, time_backwards);
		GX_STAT_ADD(&p->stats, time_backwards, b->back);
		p->last_ts = b->last_ts;
	}
	for (i = 0; i < b->n; i++) {
		const struct tt_rec *r = &b->rec[i];
		int rc = 0;

		if (r->type == TT_MARKER) {
			rc = p->fn(p->user, &r->u.mk.ev, &r->u.mk.m);
		} else if (r->type == TT_COUNTER) {
			if (p->counter_fn)
				rc = p->counter_fn(p->counter_user, &r->u.c);
		} else if (r->type == TT_COUNTER_BAD) {
			if (p->counter_fn)
				GX_STAT_INC(&p->stats, sched_malformed);
		} else if (p->sched_fn && (p->sched_kinds & GFXSTAT_SCHED_BIT(r->kind))) {
			if (r->type == TT_SCHED_LATER) {
				struct gfxstat_ftrace_line ev;
				struct gx_ftrace_lazy lz;

				/* its head read again: it parsed once, it parses the same */
				gx_ftrace_line_head(r->u.line.s, r->u.line.n, &ev, &lz, &p->sec);
				rc = read_sched(p, &ev, &lz, r->kind);
			} else if (r->type == TT_SCHED) {
				GX_STAT_INC(&p->stats, sched_events);
				rc = p->sched_fn(p->sched_user, &r->u.se);
			} else {
				GX_STAT_INC(&p->stats, sched_malformed);
			}
		}
		if (rc)
			return GFXSTAT_E_ABORTED;
	}
	return 0;
}

/* A planned block: its lines, and the slot of the thread's that parses it (or none). */
struct tt_plan {
	const char *p, *end;
	size_t slot;
};

/*
 * The whole lines [s, end) in blocks: one in TT_MINE parsed here, the others on the thread
 * (they are handed on here, which costs a quarter of parsing them), all handed on in
 * order. Every block handed to the thread is waited for before the return, as the lines are
 * the caller's chunk.
 */
static int tt_feed(struct gfxstat_trace_parser *p, const char *s, const char *end)
{
	struct tt_plan plan[TT_PLAN];
	size_t planned = 0, taken = 0, k = 0;
	int rc = 0;

	while (!rc) {
		/* cut blocks, and hand the thread's over, as far as its slots go */
		while (s < end && planned - taken < TT_PLAN) {
			struct tt_plan *pl = &plan[planned % TT_PLAN];
			const char *e = (size_t)(end - s) > p->ahead_block ? s + p->ahead_block - 1
									   : end - 1;

			e = memchr(e, '\n', (size_t)(end - e));
			e = e ? e + 1 : end;
			pl->slot = GX_AHEAD_FULL;
			if (k % TT_MINE) {
				pl->slot = gx_ahead_next(p->ahead);
				if (pl->slot == GX_AHEAD_FULL)
					break;
				p->blocks[pl->slot].p = s;
				p->blocks[pl->slot].end = e;
				p->blocks[pl->slot].sched = p->sched_fn != NULL;
				p->blocks[pl->slot].kinds = p->sched_kinds;
				p->blocks[pl->slot].counter = p->counter_fn != NULL;
				gx_ahead_submit(p->ahead);
			}
			pl->p = s;
			pl->end = e;
			planned++;
			k++;
			s = e;
		}
		if (taken == planned)
			break;
		{
			struct tt_plan *pl = &plan[taken++ % TT_PLAN];

			if (pl->slot == GX_AHEAD_FULL)
				rc = gx_line_reader_feed_with(p->lines, pl->p,
							      (size_t)(pl->end - pl->p), on_line, p);
			else
				rc = tt_replay(p, &p->blocks[gx_ahead_take(p->ahead)]);
		}
	}
	/* stopped: what the thread has of the chunk, waited for and dropped */
	while (gx_ahead_pending(p->ahead))
		gx_ahead_take(p->ahead); /* (each waited for) */
	return rc;
}

/* The thread, its blocks and its line reader, on first use; 0 when they cannot be made (all
 * stays in the caller's thread from then on). */
static int ahead_start(struct gfxstat_trace_parser *p)
{
	size_t i;

	p->blocks = calloc(TT_SLOTS, sizeof(*p->blocks));
	p->lines_ahead = gfxstat_line_reader_new(p->lines->max_line, tt_line, NULL, NULL);
	if (p->blocks && p->lines_ahead) {
		p->lines_ahead->stream_start = 0; /* (its lines are never a stream's first) */
		for (i = 0; i < TT_SLOTS; i++)
			p->blocks[i].parser = p;
		p->ahead = gx_ahead_new(TT_SLOTS, tt_job, p);
	}
	if (p->ahead)
		return 1;
	free(p->blocks);
	p->blocks = NULL;
	gfxstat_line_reader_free(p->lines_ahead);
	p->lines_ahead = NULL;
	p->threads = 0;
	return 0;
}

/* The last newline of [s, s + n), or NULL. */
static const char *last_newline(const char *s, size_t n)
{
	while (n && s[n - 1] != '\n')
		n--;
	return n ? s + n - 1 : NULL;
}

/*
 * gfxstat_trace_parser_feed() with two threads, where a feed holds many whole lines: the line
 * the chunk starts in (carried from the chunk before) and the one it ends in (carried to the
 * next) go through the line reader; the whole lines between, through tt_feed().
 */
static GX_NOINLINE int feed_ahead(struct gfxstat_trace_parser *p, const char *s, size_t n,
				  int *done)
{
	const char *first, *last;
	int rc;

	*done = 0;
	if (n < p->ahead_min || p->lines->skipping)
		return 0;
	first = memchr(s, '\n', n);
	last = first ? last_newline(s, n) : NULL;
	if (!first || (size_t)(last - first) < p->ahead_min || last == first)
		return 0;
	if (!p->ahead && !ahead_start(p))
		return 0;
	*done = 1;
	rc = gx_line_reader_feed_with(p->lines, s, (size_t)(first + 1 - s), on_line, p);
	if (rc)
		return rc;
	rc = tt_feed(p, first + 1, last + 1);
	if (rc)
		return rc;
	return gx_line_reader_feed_with(p->lines, last + 1, (size_t)(s + n - (last + 1)), on_line,
					p);
}

void gfxstat_trace_parser_set_threads(struct gfxstat_trace_parser *p, int threads)
{
	p->threads = threads > 1;
}

void gx_trace_parser_set_ahead_sizes(struct gfxstat_trace_parser *p, size_t min, size_t block)
{
	p->ahead_min = min ? min : TT_MIN;
	p->ahead_block = block ? block : TT_BLOCK;
}
