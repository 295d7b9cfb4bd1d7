/* SPDX-License-Identifier: MIT */
/*
 * Push API: chunks of any size in, whole lines out. Lines wholly inside a chunk are passed
 * on in place; only a line cut by a chunk boundary is copied, into a carry buffer bounded
 * by max_line. So memory does not depend on the input length.
 */
#include <stdlib.h>

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

struct gfxstat_line_reader *gfxstat_line_reader_new(size_t max_line, gfxstat_line_fn fn,
						    void *user, struct gfxstat_stats *stats)
{
	struct gfxstat_line_reader *r;

	if (!fn)
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->max_line = max_line ? max_line : GFXSTAT_MAX_LINE;
	r->carry = malloc(r->max_line);
	if (!r->carry) {
		free(r);
		return NULL;
	}
	r->fn = fn;
	r->user = user;
	r->stats = stats;
	r->stream_start = 1;
	return r;
}

void gfxstat_line_reader_free(struct gfxstat_line_reader *r)
{
	if (!r)
		return;
	free(r->carry);
	free(r);
}

static int emit(struct gfxstat_line_reader *r, const char *s, size_t n)
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
	return r->fn(r->user, s, n) ? GFXSTAT_E_ABORTED : 0;
}

static void too_long(struct gfxstat_line_reader *r)
{
	GX_STAT_INC(r->stats, lines);
	GX_STAT_INC(r->stats, line_too_long);
	r->stream_start = 0;
}

int gfxstat_line_reader_feed(struct gfxstat_line_reader *r, const void *buf, size_t n)
{
	const char *p = buf, *end = p + n, *nl;
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
			too_long(r);
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
			rc = emit(r, r->carry, r->carry_len);
			r->carry_len = 0;
			if (rc)
				return rc;
		}
		p = nl + 1;
	}
	while (p < end) {
		size_t len;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break;
		len = (size_t)(nl - p);
		if (GX_UNLIKELY(len > r->max_line)) {
			too_long(r);
		} else {
			rc = emit(r, p, len);
			if (rc)
				return rc;
		}
		p = nl + 1;
	}
	if (p < end) {
		size_t len = (size_t)(end - p);

		if (len > r->max_line) {
			too_long(r);
			r->skipping = 1;
		} else {
			memcpy(r->carry, p, len);
			r->carry_len = len;
		}
	}
	return 0;
}

int gfxstat_line_reader_finish(struct gfxstat_line_reader *r)
{
	int rc = 0;

	if (r->carry_len)
		rc = emit(r, r->carry, r->carry_len);
	r->carry_len = 0;
	r->skipping = 0;
	r->stream_start = 1;
	return rc;
}
