/* SPDX-License-Identifier: MIT */
/*
 * The growable arrays (lib/util/buf.c): gx_grow() doubles when full, gx_grow_to() doubles until
 * the need fits, and both refuse, leaving the array as it was, a capacity whose doubling or
 * byte count would wrap size_t (a wrapped count allocates little and the caller overruns it);
 * gx_shrink() gives an array emptied from its end its room back by steps.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "../../lib/gx_local.h"

TEST(grow_first_and_doubling)
{
	int *a = NULL;
	size_t cap = 0, n, caps[8], ncaps = 0;
	int ok = 1;

	CHECK_EQ(gx_grow((void **)&a, &cap, 0, sizeof(*a), 4), 0);
	CHECK(a != NULL);
	CHECK_EQ(cap, 4);
	/* room left: nothing moves */
	CHECK_EQ(gx_grow((void **)&a, &cap, 3, sizeof(*a), 4), 0);
	CHECK_EQ(cap, 4);
	for (n = 0; n < 100; n++) {
		if (gx_grow((void **)&a, &cap, n, sizeof(*a), 4)) {
			ok = 0;
			break;
		}
		if ((!ncaps || caps[ncaps - 1] != cap) && ncaps < 8)
			caps[ncaps++] = cap;
		a[n] = (int)n * 3;
	}
	CHECK(ok);
	/* 4, 8, ..., 128: doubled each time it was full */
	CHECK_EQ(ncaps, 6);
	CHECK_EQ(caps[0], 4);
	CHECK_EQ(caps[5], 128);
	for (n = 0; n < 100; n++)
		if (a[n] != (int)n * 3)
			ok = 0;
	CHECK(ok); /* the elements survive every move */
	free(a);
}

TEST(grow_to_need)
{
	char *a = NULL;
	size_t cap = 0;

	/* first capacity too small for the need: doubled from it until it fits */
	CHECK_EQ(gx_grow_to((void **)&a, &cap, 100, 1, 16), 0);
	CHECK_EQ(cap, 128);
	memset(a, 'x', 100);
	CHECK_EQ(gx_grow_to((void **)&a, &cap, 128, 1, 16), 0); /* fits: unchanged */
	CHECK_EQ(cap, 128);
	CHECK_EQ(gx_grow_to((void **)&a, &cap, 129, 1, 16), 0);
	CHECK_EQ(cap, 256);
	CHECK_EQ(gx_grow_to((void **)&a, &cap, 1500, 1, 16), 0);
	CHECK_EQ(cap, 2048);
	CHECK(a[0] == 'x' && a[99] == 'x');
	CHECK_EQ(gx_grow_to((void **)&a, &cap, 0, 1, 16), 0);
	CHECK_EQ(cap, 2048);
	free(a);

	/* a first capacity of 0 still makes room */
	a = NULL;
	cap = 0;
	CHECK_EQ(gx_grow_to((void **)&a, &cap, 3, 1, 0), 0);
	CHECK_EQ(cap, 4);
	free(a);
}

TEST(overflow_refused)
{
	void *p = malloc(16), *was = p;
	size_t cap;

	/* the doubled element count would pass SIZE_MAX */
	cap = SIZE_MAX / 2 + 1;
	CHECK_EQ(gx_grow(&p, &cap, cap, 1, 16), GFXSTAT_E_NOMEM);
	CHECK(p == was && cap == SIZE_MAX / 2 + 1);
	CHECK_EQ(gx_grow_to(&p, &cap, SIZE_MAX, 1, 16), GFXSTAT_E_NOMEM);
	CHECK(p == was && cap == SIZE_MAX / 2 + 1);
	/* the count fits, its bytes would not: 8-byte elements near SIZE_MAX / 8 */
	cap = SIZE_MAX / 8 / 2 + 1;
	CHECK_EQ(gx_grow(&p, &cap, cap, 8, 16), GFXSTAT_E_NOMEM);
	CHECK(p == was && cap == SIZE_MAX / 8 / 2 + 1);
	cap = SIZE_MAX / 64;
	CHECK_EQ(gx_grow(&p, &cap, cap, 48, 16), GFXSTAT_E_NOMEM);
	CHECK(p == was && cap == SIZE_MAX / 64);
	/* a first allocation too large for its element size */
	cap = 0;
	CHECK_EQ(gx_grow_to(&p, &cap, SIZE_MAX / 4 + 1, 4, 16), GFXSTAT_E_NOMEM);
	CHECK(p == was && cap == 0);
	/* n at SIZE_MAX: one more is not countable */
	cap = SIZE_MAX;
	CHECK_EQ(gx_grow(&p, &cap, SIZE_MAX, 1, 16), GFXSTAT_E_NOMEM);
	CHECK(p == was && cap == SIZE_MAX);
	free(p);
}

/* An array emptied from its end gives its room back once @step elements are unused, not before,
 * and keeps what it holds. */
TEST(shrink_by_steps)
{
	int *a = NULL;
	size_t cap = 0, n, i;
	int ok = 1;

	CHECK_EQ(gx_grow_to((void **)&a, &cap, 100, sizeof(*a), 100), 0);
	CHECK_EQ(cap, 100);
	for (i = 0; i < 100; i++)
		a[i] = (int)i;
	for (n = 100; n-- > 0;) {
		size_t before = cap;

		gx_shrink((void **)&a, &cap, n, sizeof(*a), 30);
		if (before - n >= 30 ? cap != n : cap != before)
			ok = 0;
		for (i = 0; i < n; i++)
			if (a[i] != (int)i)
				ok = 0;
	}
	CHECK(ok);
	CHECK_EQ(cap, 10); /* 100 -> 70 -> 40 -> 10, and 10 unused then are fewer than 30 */
	free(a);
}

TEST_SUITE(test_buf)
{
	RUN(grow_first_and_doubling);
	RUN(grow_to_need);
	RUN(overflow_refused);
	RUN(shrink_by_steps);
}
