/* SPDX-License-Identifier: MIT */
/*
 * The store of bytes held to the input's end (lib/util/spill.c): past its budget the oldest
 * blocks go to an unnamed file in the directory given, and every piece comes back as it went
 * in, read in any order; with no directory, or one where no file can be made, everything stays
 * in memory and still comes back.
 */
#define _GNU_SOURCE /* mkdtemp */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "open_files.h"
#include "../../lib/gx_local.h"

#define PIECES 40000

static uint64_t rnd(uint64_t *s) /* xorshift64 */
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* piece i: its length and bytes, from i alone, so that the test keeps no copy */
static size_t piece_len(size_t i)
{
	return i % 97 == 0 ? 1 : 8 + (i * 7919) % 180;
}

static unsigned char piece_byte(size_t i, size_t k)
{
	return (unsigned char)(i * 31 + k * 7 + (i >> 8));
}

static uint64_t off[PIECES];

/* Append every piece, then read them back forwards, backwards and at random. */
static void round_trip(struct gx_spill *s, int *bad)
{
	uint64_t seed = 0x2545f4914f6cdd1dull;
	size_t i, k, j;

	for (i = 0; i < PIECES; i++) {
		size_t n = piece_len(i);
		unsigned char *p = gx_spill_reserve(s, 200, &off[i]);

		if (!p) {
			(*bad)++;
			return;
		}
		for (k = 0; k < n; k++)
			p[k] = piece_byte(i, k);
		gx_spill_commit(s, n);
	}
	for (j = 0; j < 3 * PIECES; j++) {
		const unsigned char *q;

		i = j < PIECES ? j : j < 2 * PIECES ? 2 * PIECES - 1 - j : rnd(&seed) % PIECES;
		q = gx_spill_at(s, off[i]);
		if (!q) {
			(*bad)++;
			return;
		}
		for (k = 0; k < piece_len(i); k++)
			if (q[k] != piece_byte(i, k)) {
				(*bad)++;
				return;
			}
	}
}

/* 40 k pieces of up to 187 bytes (about 3.9 MB) with a budget of 1 MB: most go to the file. */
TEST(spilled_and_read_back)
{
	char dir[] = "/tmp/gfxstat-test-spill-XXXXXX";
	struct gx_spill s;
	int bad = 0;

	CHECK(mkdtemp(dir) != NULL);
	gx_spill_init(&s, (size_t)1 << 20, dir);
	round_trip(&s, &bad);
	CHECK_EQ(bad, 0);
	CHECK(s.spilled > 0);
	CHECK(s.in_mem <= s.keep);
	if (can_see_open_files())
		CHECK(holds_file_in(dir));
	gx_spill_free(&s);
	/* the file has no name: nothing is left behind, and it is closed */
	CHECK_EQ(rmdir(dir), 0);
	if (can_see_open_files())
		CHECK(!holds_file_in(dir));
	/* used again after gx_spill_free(), with the same budget and directory */
	CHECK_EQ(s.keep, 4);
	CHECK(s.dir == dir);
}

/* No file can be made (a directory that does not exist, or none): every piece stays in memory. */
TEST(memory_when_no_file)
{
	const char *dirs[] = { "/nonexistent/gfxstat-no-such-dir", NULL };
	int i;

	for (i = 0; i < 2; i++) {
		struct gx_spill s;
		int bad = 0;

		gx_spill_init(&s, (size_t)1 << 20, dirs[i]);
		round_trip(&s, &bad);
		CHECK_EQ(bad, 0);
		CHECK_EQ(s.spilled, 0);
		CHECK_EQ(s.in_mem, s.nblock);
		gx_spill_free(&s);
	}
}

/* A piece never straddles two blocks, and one larger than a block is refused. */
TEST(pieces_whole_in_a_block)
{
	struct gx_spill s;
	uint64_t at, first;
	unsigned char *p;

	gx_spill_init(&s, 0, NULL);
	CHECK_EQ(s.keep, 1);
	CHECK(gx_spill_reserve(&s, GX_SPILL_BLOCK + 1, &at) == NULL);
	p = gx_spill_reserve(&s, 100, &first);
	CHECK(p != NULL);
	CHECK_EQ(first, 0);
	gx_spill_commit(&s, GX_SPILL_BLOCK - 50);
	p = gx_spill_reserve(&s, 100, &at);
	CHECK(p != NULL);
	CHECK_EQ(at, GX_SPILL_BLOCK); /* the 50 bytes left were not enough */
	CHECK(gx_spill_at(&s, (uint64_t)GX_SPILL_BLOCK * 5) == NULL); /* past the end */
	gx_spill_free(&s);
}

/* A block whose pieces are all done (read for the last time) gives its memory back; one with a
 * piece not done yet keeps it, the others still read back, and so does the block being filled
 * (never given back). */
TEST(released_blocks)
{
	struct gx_spill s;
	uint64_t seed = 7;
	size_t i, k, before, last;
	int bad = 0;

	gx_spill_init(&s, (size_t)64 << 20, NULL); /* all in memory */
	round_trip(&s, &bad);
	CHECK_EQ(bad, 0);
	before = s.in_mem;
	last = s.nblock - 1;
	CHECK(before > 4);
	for (i = 0; i < PIECES; i++) /* every piece of the even blocks and the last */
		if ((off[i] / GX_SPILL_BLOCK) % 2 == 0 || off[i] / GX_SPILL_BLOCK == last)
			gx_spill_done(&s, off[i]);
	for (i = 0; i < PIECES && off[i] / GX_SPILL_BLOCK < 2; i++) /* block 1 but its last */
		if (off[i] / GX_SPILL_BLOCK == 1 && off[i + 1] / GX_SPILL_BLOCK == 1)
			gx_spill_done(&s, off[i]);
	CHECK_EQ(s.in_mem, before - (before - 1) / 2 - ((before - 1) % 2));
	CHECK(s.block[1].p != NULL);
	CHECK(s.block[last].p != NULL);
	for (k = 0; k < 3 * PIECES; k++) {
		const unsigned char *q;
		size_t j;

		i = (size_t)(rnd(&seed) % PIECES);
		if ((off[i] / GX_SPILL_BLOCK) % 2 == 0 && off[i] / GX_SPILL_BLOCK != last)
			continue;
		q = gx_spill_at(&s, off[i]);
		for (j = 0; q && j < piece_len(i); j++)
			bad += q[j] != piece_byte(i, j);
		bad += !q;
	}
	CHECK_EQ(bad, 0);
	gx_spill_free(&s);
}

TEST_SUITE(test_spill)
{
	RUN(spilled_and_read_back);
	RUN(memory_when_no_file);
	RUN(pieces_whole_in_a_block);
	RUN(released_blocks);
}
