/* SPDX-License-Identifier: MIT */
/*
 * The external sort (lib/util/xsort.c): records put in any order come back in the
 * comparator's order, whether the runs went to an unnamed file (and
 * were merged in passes, past the fan-in) or stayed in memory (no directory, or none where a
 * file can be made); with no comparator, in the order put; kept, again from the start.
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

/* 300 k records of 24 bytes (7.2 MB) in runs of 64 KiB: 110 runs, past the fan-in of 64 */
#define NREC 300000
#define RUN_BYTES ((size_t)64 << 10)
#define KEYS 1000 /* few keys: most records' keys are in other runs too */

struct rec {
	int64_t key;
	uint64_t idx;  /* the order it was put */
	uint64_t fill; /* a word from idx: the bytes come back whole */
};

static uint64_t mix(uint64_t x) /* splitmix64's finaliser */
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* key, then the order put: a total order, as gx_sort() is not stable */
static int by_key(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

static void put_all(struct gx_xsort *x, size_t n, int *bad)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct rec r;

		r.key = (int64_t)(mix(i) % KEYS) - KEYS / 2;
		r.idx = i;
		r.fill = mix(i + 12345);
		*bad += gx_xsort_put(x, &r) != 0;
	}
}

/* Read back: each record whole, in key order, then idx, every idx once (their sum and the
 * sum of their squares). Return: the records read. */
static size_t read_sorted(struct gx_xsort *x, int *bad)
{
	const struct rec *r;
	struct rec last = { INT64_MIN, 0, 0 };
	uint64_t sum = 0, sq = 0, n = 0;

	*bad += gx_xsort_sorted(x) != 0;
	while ((r = gx_xsort_next(x))) {
		if (r->fill != mix(r->idx + 12345) || r->key != (int64_t)(mix(r->idx) % KEYS) - KEYS / 2)
			(*bad)++;
		if (n && (r->key < last.key || (r->key == last.key && r->idx <= last.idx)))
			(*bad)++;
		last = *r;
		sum += r->idx;
		sq += r->idx * r->idx;
		n++;
	}
	*bad += x->failed != 0;
	if (sum != n * (n - 1) / 2 || sq != (n - 1) * n * (2 * n - 1) / 6)
		(*bad)++;
	return (size_t)n;
}

TEST(sorted_through_a_file)
{
	char dir[] = "/tmp/gfxstat-test-xsort-XXXXXX";
	struct gx_xsort x;
	int bad = 0;

	CHECK(mkdtemp(dir) != NULL);
	gx_xsort_init(&x, sizeof(struct rec), by_key, RUN_BYTES, dir);
	put_all(&x, NREC, &bad);
	CHECK_EQ(x.count, NREC);
	CHECK_EQ(read_sorted(&x, &bad), NREC);
	CHECK_EQ(bad, 0);
	/* runs of 65536 / 24 = 2730 records: 109 full ones went to the file, the last 2430 stay
	 * in memory; 110 runs are past the fan-in of 64, so the first 64 were merged into one
	 * (written again) before the last merge of 47 */
	CHECK_EQ(x.to_file, (uint64_t)(109 + 64) * 2730 * sizeof(struct rec));
	if (can_see_open_files())
		CHECK(holds_file_in(dir));
	gx_xsort_free(&x);
	CHECK_EQ(rmdir(dir), 0); /* the file had no name: nothing left behind */
	if (can_see_open_files())
		CHECK(!holds_file_in(dir));
	/* used again after gx_xsort_free(), as initialised */
	CHECK_EQ(x.count, 0);
	CHECK_EQ(x.per_run, RUN_BYTES / sizeof(struct rec));
}

/* With no file, every run stays in memory, and the merge gives the same order. */
TEST(memory_when_no_file)
{
	const char *dirs[] = { "/nonexistent/gfxstat-no-such-dir", NULL };
	int i;

	for (i = 0; i < 2; i++) {
		struct gx_xsort x;
		int bad = 0;

		gx_xsort_init(&x, sizeof(struct rec), by_key, RUN_BYTES, dirs[i]);
		put_all(&x, NREC, &bad);
		CHECK_EQ(read_sorted(&x, &bad), NREC);
		CHECK_EQ(bad, 0);
		CHECK_EQ(x.to_file, 0);
		gx_xsort_free(&x);
	}
}

/* One run, or none: never a file. */
TEST(small_stays_in_memory)
{
	char dir[] = "/tmp/gfxstat-test-xsort-XXXXXX";
	size_t sizes[] = { 0, 1, 2, RUN_BYTES / sizeof(struct rec) };
	size_t i;

	CHECK(mkdtemp(dir) != NULL);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct gx_xsort x;
		int bad = 0;

		gx_xsort_init(&x, sizeof(struct rec), by_key, RUN_BYTES, dir);
		put_all(&x, sizes[i], &bad);
		CHECK_EQ(read_sorted(&x, &bad), sizes[i]);
		CHECK_EQ(bad, 0);
		CHECK_EQ(x.to_file, 0);
		CHECK(gx_xsort_next(&x) == NULL); /* and stays at its end */
		gx_xsort_free(&x);
	}
	CHECK_EQ(rmdir(dir), 0);
}

/* No comparator: the order put, through the file. */
TEST(list_in_order_put)
{
	char dir[] = "/tmp/gfxstat-test-xsort-XXXXXX";
	struct gx_xsort x;
	const struct rec *r;
	uint64_t n = 0;
	int bad = 0;

	CHECK(mkdtemp(dir) != NULL);
	gx_xsort_init(&x, sizeof(struct rec), NULL, RUN_BYTES, dir);
	put_all(&x, NREC, &bad);
	CHECK_EQ(gx_xsort_sorted(&x), 0);
	while ((r = gx_xsort_next(&x)))
		bad += r->idx != n++ || r->fill != mix(r->idx + 12345);
	CHECK_EQ(n, NREC);
	CHECK_EQ(bad, 0);
	CHECK(x.to_file > 0);
	gx_xsort_free(&x);
	CHECK_EQ(rmdir(dir), 0);
}

/* Kept, the sorted records read again from the start, through the file and from memory. */
TEST(read_again)
{
	char dir[] = "/tmp/gfxstat-test-xsort-XXXXXX";
	const char *dirs[] = { dir, NULL };
	int i, pass;

	CHECK(mkdtemp(dir) != NULL);
	for (i = 0; i < 2; i++) {
		struct gx_xsort x;
		int bad = 0;

		gx_xsort_init(&x, sizeof(struct rec), by_key, RUN_BYTES, dirs[i]);
		CHECK_EQ(gx_xsort_rewind(&x), GFXSTAT_E_INVAL); /* not kept */
		put_all(&x, NREC / 10, &bad);
		x.keep = 1;
		CHECK_EQ(read_sorted(&x, &bad), NREC / 10);
		for (pass = 0; pass < 2; pass++) {
			const struct rec *r;
			struct rec last = { INT64_MIN, 0, 0 };
			size_t n = 0;

			CHECK_EQ(gx_xsort_rewind(&x), 0);
			while ((r = gx_xsort_next(&x))) {
				bad += n && (r->key < last.key ||
					     (r->key == last.key && r->idx <= last.idx));
				last = *r;
				n++;
			}
			CHECK_EQ(n, NREC / 10);
		}
		CHECK_EQ(bad, 0);
		gx_xsort_free(&x);
	}
	CHECK_EQ(rmdir(dir), 0);
}

TEST_SUITE(test_xsort)
{
	RUN(sorted_through_a_file);
	RUN(memory_when_no_file);
	RUN(small_stays_in_memory);
	RUN(list_in_order_put);
	RUN(read_again);
}
