/* SPDX-License-Identifier: MIT */
/*
 * Push API: chunks of any size in, whole lines out. Lines wholly inside a chunk are passed
 * on in place; only a line cut by a chunk boundary is copied, into a carry buffer bounded
 * by max_line. So memory does not depend on the input length.
 */
#include <stdlib.h>

#include "../gx_local.h"
#include "line_local.h"

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

int gfxstat_line_reader_feed(struct gfxstat_line_reader *r, const void *buf, size_t n)
{
	return gx_line_reader_feed_with(r, buf, n, r->fn, r->user);
}

int gfxstat_line_reader_finish(struct gfxstat_line_reader *r)
{
	int rc = 0;

	if (r->carry_len)
		rc = gx_line_emit(r, r->carry, r->carry_len, r->fn, r->user);
	r->carry_len = 0;
	r->skipping = 0;
	r->stream_start = 1;
	return rc;
}
