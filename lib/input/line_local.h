/* SPDX-License-Identifier: MIT */
/*
 * The line reader's feed loop as an inline function, so that a parser whose every line
 * counts (trace_text.c) gets its line function called directly, even inlined, rather than
 * through the pointer gfxstat_line_reader_new() keeps (line_reader.c). Library-internal.
 */
#ifndef GX_LINE_LOCAL_H
#define GX_LINE_LOCAL_H

#include "../gx_local.h"

struct gfxstat_line_reader {
	gfxstat_line_fn fn;
	void *user;
	struct gfxstat_stats *stats;
	size_t max_line;
	char *carry;
	size_t carry_len;
	int skipping;     /* inside a line that is over the limit: drop up to its '\n' */
	int stream_start; /* the next line is the first of a stream: drop a UTF-8 BOM */
};

/* A line to @fn, without a UTF-8 BOM at the start of the stream, nor its '\r'. */
static inline int gx_line_emit(struct gfxstat_line_reader *r, const char *s, size_t n,
			       gfxstat_line_fn fn, void *user)
{
	if (GX_UNLIKELY(r->stream_start)) {
		r->stream_start = 0;
		if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
			s += 3;
			n -= 3;
		}
	}
	if (n && s[n - 1] == '\r')
		n--;
	GX_STAT_INC(r->stats, lines);
	return fn(user, s, n) ? GFXSTAT_E_ABORTED : 0;
}

static inline void gx_line_too_long(struct gfxstat_line_reader *r)
{
	GX_STAT_INC(r->stats, lines);
	GX_STAT_INC(r->stats, line_too_long);
	r->stream_start = 0;
}

/* gfxstat_line_reader_feed() with the line function @fn(@user, ...). */
static inline int gx_line_reader_feed_with(struct gfxstat_line_reader *r, const void *buf,
					   size_t n, gfxstat_line_fn fn, void *user)
{
	const char *p = buf, *end = p + n, *nl;
	size_t max = r->max_line;
	uint64_t nlines;
	int rc;

	GX_STAT_ADD(r->stats, bytes, n);
	if (r->skipping) {
		nl = memchr(p, '\n', n);
		if (!nl)
			return 0;
		p = nl + 1;
		r->skipping = 0;
	}
	if (r->carry_len) {
		size_t take;

		nl = memchr(p, '\n', (size_t)(end - p));
		take = (size_t)((nl ? nl : end) - p);
		if (take > r->max_line - r->carry_len) {
			gx_line_too_long(r);
			r->carry_len = 0;
			if (!nl) {
				r->skipping = 1;
				return 0;
			}
		} else {
			memcpy(r->carry + r->carry_len, p, take);
			r->carry_len += take;
			if (!nl)
				return 0;
			rc = gx_line_emit(r, r->carry, r->carry_len, fn, user);
			r->carry_len = 0;
			if (rc)
				return rc;
		}
		p = nl + 1;
	}
	/* the stream's first line (a BOM to look for) before the loop, which need not test for it
	 * at every line: nothing but gfxstat_line_reader_finish() sets stream_start again */
	if (GX_UNLIKELY(r->stream_start) && p < end &&
	    (nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		if ((size_t)(nl - p) > max)
			gx_line_too_long(r);
		else if ((rc = gx_line_emit(r, p, (size_t)(nl - p), fn, user)) != 0)
			return rc;
		p = nl + 1;
	}
	/* the usual line (not too long) inline, counted once at the end */
	for (nlines = 0; p < end; p = nl + 1) {
		size_t len;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break;
		len = (size_t)(nl - p);
		if (GX_UNLIKELY(len > max)) {
			gx_line_too_long(r);
			continue;
		}
		len -= len && p[len - 1] == '\r';
		nlines++;
		if (fn(user, p, len)) {
			GX_STAT_ADD(r->stats, lines, nlines);
			return GFXSTAT_E_ABORTED;
		}
	}
	GX_STAT_ADD(r->stats, lines, nlines);
	if (p < end) {
		size_t len = (size_t)(end - p);

		if (len > r->max_line) {
			gx_line_too_long(r);
			r->skipping = 1;
		} else {
			memcpy(r->carry, p, len);
			r->carry_len = len;
		}
	}
	return 0;
}

#endif
