/* SPDX-License-Identifier: MIT */
/*
 * The row writer (lib/util/out.c): its numbers are printf's "%lld", byte for byte, at every
 * edge (0, +-1, each power of ten and its neighbours, INT64_MIN and INT64_MAX) and on random
 * values; a full buffer is never overrun and the length counts what did not fit.
 */
#include <stdio.h>

#include "check.h"
#include "../../lib/gx_local.h"

static int same_as_printf(int64_t v)
{
	char got[32], want[32];
	struct gx_out o = { got, sizeof(got), 0 };

	gx_out_i64(&o, v);
	gx_out_line(&o);
	snprintf(want, sizeof(want), "%lld\n", (long long)v);
	return strcmp(got, want) == 0;
}

TEST(numbers_as_printf)
{
	uint64_t s = 0x2545f4914f6cdd1dull;
	int64_t p = 1;
	int i, ok = 1;

	ok &= same_as_printf(0) && same_as_printf(INT64_MIN) && same_as_printf(INT64_MAX) &&
	      same_as_printf(INT64_MIN + 1) && same_as_printf(INT64_MAX - 1);
	for (i = 0; i < 19; i++) { /* 10^0 .. 10^18 (10^19 is past INT64_MAX) */
		if (i)
			p *= 10;
		ok &= same_as_printf(p) && same_as_printf(p - 1) && same_as_printf(p + 1);
		ok &= same_as_printf(-p) && same_as_printf(-p + 1) && same_as_printf(-p - 1);
	}
	for (i = 0; i < 100000; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		ok &= same_as_printf((int64_t)s) && same_as_printf((int64_t)(s >> (s % 64)));
	}
	CHECK(ok);
}

TEST(never_past_the_end)
{
	char b[8];
	struct gx_out o = { b, 5, 0 };

	memset(b, 'x', sizeof(b));
	gx_out_i64(&o, -1234567);
	CHECK_EQ(o.len, 8);
	CHECK_EQ(gx_out_line(&o), 9);
	CHECK(memcmp(b, "-123", 4) == 0 && b[4] == 0 && b[5] == 'x');
}

TEST_SUITE(test_out)
{
	RUN(numbers_as_printf);
	RUN(never_past_the_end);
}
