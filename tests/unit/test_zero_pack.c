/* SPDX-License-Identifier: MIT */
/*
 * gfxstat_zero_pack() (lib/util/zero_pack.c) writes what the byte-at-a-time rule writes (each
 * run of zeros as a 0 and its length, greedy, at most 255), now that it skips whole zero words:
 * the same bytes on sparse, dense, all-zero and all-set buffers of every length around the
 * word and run edges, and gfxstat_zero_unpack() gives the buffer back.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gfxstat/gfxstat_cause.h"

/* the rule, written another way: a run of zeros is flushed when a byte that is not zero
 * comes, when it reaches 255, and at the end */
static size_t pack_ref(const unsigned char *b, size_t n, unsigned char *out)
{
	size_t i, o = 0, run = 0;

	for (i = 0; i < n; i++) {
		if (b[i] == 0) {
			if (++run == 255) {
				out[o++] = 0;
				out[o++] = 255;
				run = 0;
			}
			continue;
		}
		if (run) {
			out[o++] = 0;
			out[o++] = (unsigned char)run;
			run = 0;
		}
		out[o++] = b[i];
	}
	if (run) {
		out[o++] = 0;
		out[o++] = (unsigned char)run;
	}
	return o;
}

static uint64_t rnd(uint64_t *s) /* xorshift64 */
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

TEST(same_bytes_as_the_rule)
{
	static unsigned char in[1100], back[1100], got[2300], want[2300];
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	int bad = 0, shape, round;
	size_t n, i;

	for (shape = 0; shape < 6; shape++)
		for (round = 0; round < 400; round++) {
			n = (size_t)(rnd(&seed) % sizeof(in));
			if (round < 40) /* every length near the word and run edges */
				n = (size_t)round * 7 % 600;
			for (i = 0; i < n; i++) {
				uint64_t x = rnd(&seed);

				in[i] = shape == 0 ? 0 : shape == 1 ? (unsigned char)(x | 1)
				      : shape == 2 ? (x % 50 ? 0 : (unsigned char)(x >> 8 | 1))
				      : shape == 3 ? (x % 4 ? 0 : (unsigned char)(x >> 8))
				      : shape == 4 ? (i % 300 == 299 ? 7 : 0)
						   : (unsigned char)(i / 16 % 2 ? x >> 16 : 0);
			}
			if (gfxstat_zero_pack(in, n, got) != pack_ref(in, n, want) ||
			    memcmp(got, want, pack_ref(in, n, want)) != 0)
				bad++;
			memset(back, 0xa5, sizeof(back));
			gfxstat_zero_unpack(got, back, n);
			if (memcmp(back, in, n) != 0)
				bad++;
		}
	CHECK_EQ(bad, 0);
}

TEST_SUITE(test_zero_pack)
{
	RUN(same_bytes_as_the_rule);
}
