/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: dumpsys SurfaceFlinger --latency stitching and the --list parser. The first
 * byte picks the chunk size (bits 0-5; 0 = one feed) and, with bit 7, an end_file() once
 * half the text was fed (two files of polls); the rest is the text. Frames, gaps and
 * counters must not depend on the chunk size; every frame is checked for sane fields.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gfxstat/gfxstat_sflatency.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (!(cond))                                                               \
			__builtin_trap();                                                  \
	} while (0)

struct res {
	uint64_t hash, frames, gaps;
};

static void mix(struct res *r, int64_t v)
{
	r->hash ^= (uint64_t)v;
	r->hash *= 1099511628211ULL;
}

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct res *r = user;

	CHECK(f->source == GFXSTAT_SRC_SF_LATENCY);
	CHECK(f->present_ns >= 0 && f->present_ns != INT64_MAX);
	CHECK(f->layer.p != NULL);
	r->frames++;
	mix(r, f->present_ns);
	mix(r, f->interval_ns);
	mix(r, f->latch_ns);
	mix(r, f->desired_present_ns);
	mix(r, f->vsync_period_ns);
	return 0;
}

static int on_gap(void *user, const struct gfxstat_sfl_gap *g)
{
	struct res *r = user;

	CHECK(g->kind == GFXSTAT_SFL_GAP || g->kind == GFXSTAT_SFL_RESET);
	r->gaps++;
	mix(r, g->last_present_ns);
	mix(r, g->next_present_ns);
	return 0;
}

static void run(const uint8_t *d, size_t n, size_t chunk, int split_file, struct res *r,
		struct gfxstat_sfl_stats *st)
{
	struct gfxstat_sfl_sink sink = { on_frame, on_gap, r };
	struct gfxstat_sfl *p;
	size_t off = 0;

	memset(r, 0, sizeof(*r));
	memset(st, 0, sizeof(*st));
	p = gfxstat_sfl_new("fuzz", &sink, st);
	CHECK(p);
	while (off < n) {
		size_t len = chunk && chunk < n - off ? chunk : n - off;
		char *c = malloc(len);

		CHECK(c);
		memcpy(c, d + off, len);
		CHECK(gfxstat_sfl_feed(p, c, len) == 0);
		free(c);
		off += len;
		if (split_file && off >= n / 2 && off - len < n / 2)
			CHECK(gfxstat_sfl_end_file(p) == 0);
	}
	CHECK(gfxstat_sfl_finish(p) == 0);
	gfxstat_sfl_free(p);
	CHECK(r->frames == st->v[GFXSTAT_SFL_STAT_frames]);
	CHECK(r->gaps == st->v[GFXSTAT_SFL_STAT_gaps] + st->v[GFXSTAT_SFL_STAT_resets]);
}

/* Every line through the --list parser: the name is a non-empty slice of the line. */
static void list_lines(const uint8_t *d, size_t n)
{
	size_t i = 0;

	while (i < n) {
		const uint8_t *nl = memchr(d + i, '\n', n - i);
		size_t k = nl ? (size_t)(nl - (d + i)) : n - i;
		struct gfxstat_str s;

		if (gfxstat_sflist_line((const char *)d + i, k, &s) == GFXSTAT_PARSE_OK) {
			CHECK(s.n > 0 && s.p >= (const char *)d + i &&
			      s.p + s.n <= (const char *)d + i + k);
			CHECK(gfxstat_sflist_score(s, NULL) >= 0);
			CHECK(gfxstat_sflist_score(s, "com.x") >= 0);
		}
		i += k + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gfxstat_sfl_stats sa, sb;
	struct res a, b;
	size_t chunk;
	int split;

	if (size < 1)
		return 0;
	chunk = data[0] & 63;
	split = data[0] >> 7;
	list_lines(data + 1, size - 1);
	run(data + 1, size - 1, 0, split, &a, &sa);
	if (!chunk)
		return 0;
	run(data + 1, size - 1, chunk, split, &b, &sb);
	/* a file end flushes a last line without '\n' at a point that depends on the cut */
	if (split)
		return 0;
	CHECK(a.hash == b.hash && a.frames == b.frames && a.gaps == b.gaps);
	CHECK(memcmp(&sa, &sb, sizeof(sa)) == 0);
	return 0;
}
