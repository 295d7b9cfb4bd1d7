/* SPDX-License-Identifier: MIT */
/* Comparators for qsort, shared by every stage that sorts. */
#include "../gx_local.h"

int gx_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}
