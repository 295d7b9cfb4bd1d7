/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the dumpsys gfxinfo parser and JankTracker. Cheap invariants trap, and the
 * result must not depend on how the text was cut into chunks.
 *
 * Input layout: 4 option bytes, then the dump text. Each byte is read as
 * v = (uint8_t)(byte - '0'), so '0' is the plainest choice:
 *   0  chunking, mode v % 4: 0 one feed; 1 one byte per feed; 2 fixed v / 4 % 64 + 1;
 *      3 pseudo-random sizes 0..64
 *   1  rules: v % 12 == 0 from the dump, else Android 5 + v % 12 (6 .. 16)
 *   2  v % 4: 0 as-is; 1 as UTF-16LE with a BOM; 2 max_rows 3; 3 vsync period 1 ms and
 *      forgiveness 4 ms
 *   3  ignored; seeds put '\n' there
 * Each chunk is copied into a buffer of exactly its size and freed after the feed.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gfxstat/gfxstat_gfxinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define OPT_BYTES 4

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (!(cond))                                                               \
			__builtin_trap();                                                  \
	} while (0)

struct result {
	uint64_t hash, frames, rows, table, blocks;
	int64_t prev_present; /* the block's last present: frames of a block come together */
	struct gfxstat_gfxinfo_counts counts;
};

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;

	while (n--) {
		h ^= *s++;
		h *= 1099511628211ULL;
	}
	return h;
}

static int valid_label(int32_t ms)
{
	unsigned i;

	if (ms == 0)
		return 1;
	for (i = 0; i < GFXSTAT_HIST_BUCKETS; i++)
		if (gfxstat_profile_bucket_ms(i) == (uint32_t)ms)
			return 1;
	return 0;
}

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct result *r = user;

	CHECK(f->source == GFXSTAT_SRC_GFXINFO);
	CHECK(f->janky >= -1 && f->janky <= 1);
	CHECK(f->jank_reasons <= (GFXSTAT_JANK_REASON_TWICE | (GFXSTAT_JANK_REASON_TWICE - 1)));
	CHECK(!(f->jank_reasons & GFXSTAT_JANK_REASON_TWICE) ||
	      (f->jank_reasons & (1u << GFXSTAT_JANK_HIGH_INPUT_LATENCY)));
	CHECK(f->layer.p && f->app.p);
	/* presents: only on counted frames, one basis, strictly increasing, a refresh apart */
	if (f->present_ns != GFXSTAT_NS_NONE) {
		CHECK(f->duration_ns != GFXSTAT_NS_NONE);
		if (r->prev_present != GFXSTAT_NS_NONE) {
			CHECK(f->present_ns > r->prev_present);
			CHECK(f->interval_ns == f->present_ns - r->prev_present);
			CHECK(f->vsync_period_ns == GFXSTAT_NS_NONE ||
			      f->interval_ns >= f->vsync_period_ns - f->vsync_period_ns / 50);
		} else {
			CHECK(f->interval_ns == GFXSTAT_NS_NONE);
		}
		r->prev_present = f->present_ns;
	}
	if (f->janky < 0)
		CHECK(f->duration_ns == GFXSTAT_NS_NONE || f->fi[GFXSTAT_FI_FLAGS] == GFXSTAT_NS_NONE);
	r->frames++;
	r->hash = mix(r->hash, &f->duration_ns, sizeof(f->duration_ns));
	r->hash = mix(r->hash, f->fi, sizeof(f->fi));
	r->hash = mix(r->hash, &f->janky, sizeof(f->janky));
	r->hash = mix(r->hash, &f->jank_reasons, sizeof(f->jank_reasons));
	r->hash = mix(r->hash, &f->present_ns, sizeof(f->present_ns));
	r->hash = mix(r->hash, f->layer.p, f->layer.n);
	r->hash = mix(r->hash, f->app.p, f->app.n);
	return 0;
}

static int on_block(void *user, const struct gfxstat_gfxinfo_block *b)
{
	struct result *r = user;
	const struct gfxstat_profile *c = &b->calc;
	uint64_t sum = 0;
	int i;

	CHECK(b->rows_flagged <= b->rows && b->rows_incomplete <= b->rows);
	if (b->has_rows && b->rules != GFXSTAT_RULES_UNKNOWN) {
		CHECK(c->total_frames >= 0 && (uint64_t)c->total_frames <= b->rows);
		CHECK(c->janky_frames >= 0 && c->janky_frames <= c->total_frames);
		for (i = 0; i < GFXSTAT_HIST_BUCKETS; i++)
			sum += c->hist[i];
		CHECK(sum <= (uint64_t)c->total_frames);
		if (b->rules >= GFXSTAT_RULES_8)
			CHECK(sum == (uint64_t)c->total_frames);
		for (i = 0; i < 4; i++)
			CHECK(valid_label(c->percentile[i]));
	}
	r->rows += b->rows;
	if (!b->has_rows)
		r->table += b->table_rows; /* the legacy table's rows are the frames */
	CHECK(b->table_janky <= b->table_rows);
	CHECK(b->presents_real + b->presents_estimated <= b->rows);
	r->prev_present = GFXSTAT_NS_NONE;
	r->blocks++;
	r->hash = mix(r->hash, &b->calc, sizeof(b->calc));
	r->hash = mix(r->hash, &b->dump, sizeof(b->dump));
	r->hash = mix(r->hash, b->name.p, b->name.n);
	return 0;
}

static size_t next_chunk(int mode, unsigned fixed, uint32_t *state, size_t left)
{
	size_t n;

	switch (mode) {
	case 0:
		n = left;
		break;
	case 1:
		n = 1;
		break;
	case 2:
		n = fixed;
		break;
	default:
		*state ^= *state << 13;
		*state ^= *state >> 17;
		*state ^= *state << 5;
		n = *state % 65;
		break;
	}
	return n < left ? n : left;
}

static void run(const uint8_t *v, int mode, const uint8_t *text, size_t n, struct result *res)
{
	struct gfxstat_gfxinfo_opts o;
	struct gfxstat_gfxinfo_sink sink;
	struct gfxstat_gfxinfo *g;
	uint32_t state = 0x9e3779b9u ^ v[0];
	size_t off = 0;
	int rc;

	memset(res, 0, sizeof(*res));
	res->prev_present = GFXSTAT_NS_NONE;
	res->hash = 1469598103934665603ULL;
	gfxstat_gfxinfo_opts_init(&o);
	if (v[1] % 12)
		o.android = 5 + v[1] % 12;
	if (v[2] % 4 == 2)
		o.max_rows = 3;
	if (v[2] % 4 == 3) {
		o.frame_interval_ns = GFXSTAT_NSEC_PER_MSEC;
		o.forgiveness_ns = 4 * GFXSTAT_NSEC_PER_MSEC;
	}
	sink.frame = on_frame;
	sink.block = on_block;
	sink.table_row = NULL;
	sink.user = res;
	g = gfxstat_gfxinfo_new(&o, &sink, NULL);
	CHECK(g);
	while (off < n) {
		size_t len = next_chunk(mode, v[0] / 4 % 64 + 1, &state, n - off);
		uint8_t *chunk = malloc(len ? len : 1);

		CHECK(chunk);
		memcpy(chunk, text + off, len);
		rc = gfxstat_gfxinfo_feed(g, chunk, len);
		free(chunk);
		CHECK(rc == 0);
		off += len;
	}
	CHECK(gfxstat_gfxinfo_finish(g) == 0);
	CHECK(res->frames == res->rows + res->table);
	res->counts = *gfxstat_gfxinfo_counts(g);
	CHECK(res->counts.v[GFXSTAT_GFXINFO_rows] == res->rows);
	CHECK(res->counts.v[GFXSTAT_GFXINFO_blocks] == res->blocks);
	gfxstat_gfxinfo_free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t v[OPT_BYTES];
	uint8_t *wide = NULL;
	const uint8_t *text;
	struct result a, b;
	size_t i, n;
	int mode;

	if (size < OPT_BYTES)
		return 0;
	for (i = 0; i < OPT_BYTES; i++)
		v[i] = (uint8_t)(data[i] - '0');
	text = data + OPT_BYTES;
	n = size - OPT_BYTES;
	if (v[2] % 4 == 1) {
		wide = malloc(2 * n + 2);
		CHECK(wide);
		wide[0] = 0xFF;
		wide[1] = 0xFE;
		for (i = 0; i < n; i++) {
			wide[2 + 2 * i] = text[i];
			wide[3 + 2 * i] = 0;
		}
		text = wide;
		n = 2 * n + 2;
	}
	mode = v[0] % 4;
	run(v, mode, text, n, &a);
	if (mode) {
		run(v, 0, text, n, &b);
		CHECK(a.hash == b.hash && a.frames == b.frames && a.blocks == b.blocks);
		a.counts.v[GFXSTAT_GFXINFO_utf16] = b.counts.v[GFXSTAT_GFXINFO_utf16];
		CHECK(memcmp(&a.counts, &b.counts, sizeof(a.counts)) == 0);
	}
	free(wide);
	return 0;
}
