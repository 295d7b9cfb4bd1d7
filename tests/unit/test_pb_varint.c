/* SPDX-License-Identifier: MIT */
/*
 * The protobuf varint reader (protobuf_local.h: a one-byte fast path, then 8 bytes at a time
 * without a branch per byte) against the plain loop it replaces, on every length from 1 to 10
 * bytes, canonical or not, cut by the bound at every point, and on random bytes.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "../../lib/input/protobuf_local.h"

/* the reference: one byte at a time */
static enum gx_pb_res ref_varint(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
	const uint8_t *s = *p;
	uint64_t v = 0;
	unsigned shift = 0, i;

	for (i = 0; i < 10; i++) {
		uint8_t c;

		if (s + i >= end)
			return GX_PB_SHORT;
		c = s[i];
		if (i == 9 && c > 1)
			return GX_PB_MALFORMED;
		v |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
		if (!(c & 0x80)) {
			*p = s + i + 1;
			*out = v;
			return GX_PB_FIELD;
		}
	}
	return GX_PB_MALFORMED;
}

static unsigned long long rng = 0x2545F4914F6CDD1DULL;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static int bad_shown;

/* @b[0, n) read both ways from each start, with the bound at each end */
static void both(const uint8_t *b, size_t n)
{
	size_t start, stop;

	for (start = 0; start < n; start++)
		for (stop = start; stop <= n; stop++) {
			const uint8_t *p1 = b + start, *p2 = b + start;
			uint64_t v1 = 7, v2 = 7;
			enum gx_pb_res r1 = ref_varint(&p1, b + stop, &v1);
			enum gx_pb_res r2 = gx_pb_varint(&p2, b + stop, &v2);

			if (r1 != r2 || p1 != p2 || (r1 == GX_PB_FIELD && v1 != v2)) {
				check_failed++;
				if (bad_shown++ < 5)
					fprintf(stderr, "FAIL %s [%s]: varint at %zu..%zu: %d %d\n",
						__FILE__, check_case, start, stop, r1, r2);
			} else {
				check_passed++;
			}
		}
}

TEST(every_length)
{
	uint8_t b[24];
	unsigned len, k, i;

	for (len = 1; len <= 11; len++)
		for (k = 0; k < 200; k++) {
			for (i = 0; i < sizeof(b); i++)
				b[i] = (uint8_t)rnd(256);
			for (i = 0; i + 1 < len; i++)
				b[i] |= 0x80;
			b[len - 1] &= 0x7f;
			if (k & 1)
				b[len - 1] = (uint8_t)rnd(3); /* 0, 1, 2: the 10th byte limits */
			both(b, sizeof(b));
		}
}

TEST(values_round_trip)
{
	uint8_t b[16];
	int k;

	for (k = 0; k < 64 * 50; k++) {
		uint64_t v = k < 64 ? (1ULL << k) - 1 : ((uint64_t)rnd(1u << 31) << 33) ^ rnd(1u << 31);
		const uint8_t *p = b;
		uint64_t got = 0;
		size_t n = 0;

		v >>= rnd(64);
		do {
			b[n++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
			v >>= 7;
		} while (b[n - 1] & 0x80);
		memset(b + n, 0xff, sizeof(b) - n);
		CHECK(gx_pb_varint(&p, b + sizeof(b), &got) == GX_PB_FIELD && p == b + n);
	}
}

TEST_SUITE(test_pb_varint)
{
	RUN(every_length);
	RUN(values_round_trip);
}
