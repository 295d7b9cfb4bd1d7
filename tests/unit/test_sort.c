/* SPDX-License-Identifier: MIT */
/*
 * gx_sort_i64 (lib/util/cmp.c) gives what qsort with gx_cmp_i64 gives, on every shape a
 * sort meets: empty, one, sizes around the insertion cut (16), sorted, reversed, all equal,
 * two values, few distinct (frame intervals are), organ pipe, sawtooth, the extremes of
 * int64, random, and the median-of-three killer that makes a plain quicksort quadratic; and
 * gx_sort, the same for records with a comparator, gives what qsort gives on them.
 */
#include <stdlib.h>

#include "check.h"
#include "../../lib/gx_local.h"

static uint64_t seed = 0x853c49e6748fea9bull;

static uint64_t rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

static int64_t shape(int kind, size_t i, size_t n)
{
	switch (kind) {
	case 0: return (int64_t)i;
	case 1: return (int64_t)(n - i);
	case 2: return 7;
	case 3: return (int64_t)(rnd() & 1);
	case 4: return 16666667 * (int64_t)(1 + rnd() % 4);
	case 5: return (int64_t)(i < n / 2 ? i : n - i);
	case 6: return (int64_t)(i % 32);
	case 7: return rnd() & 1 ? INT64_MAX : INT64_MIN;
	case 8: return (int64_t)rnd();
	default: /* median-of-3 killer (Musser): pairs that defeat the first, middle, last pick */
		return (int64_t)(i % 2 ? i + n / 2 : i / 2 + 1);
	}
}

TEST(same_as_qsort)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 15, 16, 17, 31, 100, 1000, 65537 };
	size_t s, i, n;
	int kind, ok = 1, sorted = 1;

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		for (kind = 0; kind < 10; kind++) {
			int64_t *a, *b;

			n = sizes[s];
			a = malloc((n ? n : 1) * sizeof(*a));
			b = malloc((n ? n : 1) * sizeof(*b));
			CHECK(a && b);
			if (!a || !b)
				return;
			for (i = 0; i < n; i++)
				a[i] = b[i] = shape(kind, i, n);
			gx_sort_i64(a, n);
			if (n)
				qsort(b, n, sizeof(*b), gx_cmp_i64);
			ok &= !n || memcmp(a, b, n * sizeof(*a)) == 0;
			for (i = 1; i < n; i++)
				sorted &= a[i - 1] <= a[i];
			free(a);
			free(b);
		}
	CHECK(ok);
	CHECK(sorted);
}

/* A record as the model holds a frame: a key, then its arrival, which makes the order total
 * (no two records compare equal), then bytes the comparator never reads. */
struct rec {
	int64_t key;
	uint64_t seq;
	char rest[23]; /* an odd size: records are moved whole, not by words */
};

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* gx_sort: records sorted in place as qsort() sorts them, on the same shapes of keys. */
TEST(records_same_as_qsort)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 15, 16, 17, 31, 100, 1000, 65537 };
	size_t s, i, n;
	int kind, ok = 1, sorted = 1;

	CHECK(sizeof(struct rec) <= GX_SORT_MAX);
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		for (kind = 0; kind < 10; kind++) {
			struct rec *a, *b;

			n = sizes[s];
			a = calloc(n ? n : 1, sizeof(*a));
			b = calloc(n ? n : 1, sizeof(*b));
			CHECK(a && b);
			if (!a || !b)
				return;
			for (i = 0; i < n; i++) {
				a[i].key = shape(kind, i, n);
				a[i].seq = rnd(); /* distinct, in no order */
				memset(a[i].rest, (int)(i & 0x7f), sizeof(a[i].rest));
				b[i] = a[i];
			}
			gx_sort(a, n, sizeof(*a), cmp_rec);
			if (n)
				qsort(b, n, sizeof(*b), cmp_rec);
			ok &= !n || memcmp(a, b, n * sizeof(*a)) == 0;
			for (i = 1; i < n; i++)
				sorted &= cmp_rec(&a[i - 1], &a[i]) < 0;
			free(a);
			free(b);
		}
	CHECK(ok);
	CHECK(sorted);
}

TEST_SUITE(test_sort)
{
	RUN(same_as_qsort);
	RUN(records_same_as_qsort);
}
