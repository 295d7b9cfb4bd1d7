/* SPDX-License-Identifier: MIT */
/* Sorting, shared by every stage that sorts: qsort comparators, and an in-place sort of
 * int64_t values for the hot sorts (percentiles over every frame). */
#include "../gx_local.h"

int gx_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static void swap_i64(int64_t *a, int64_t *b)
{
	int64_t t = *a;

	*a = *b;
	*b = t;
}

static void insertion_i64(int64_t *a, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		int64_t v = a[i];

		for (j = i; j > 0 && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

static void sift_i64(int64_t *a, size_t i, size_t n)
{
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			return;
		if (c + 1 < n && a[c + 1] > a[c])
			c++;
		if (a[i] >= a[c])
			return;
		swap_i64(&a[i], &a[c]);
		i = c;
	}
}

static void heap_i64(int64_t *a, size_t n)
{
	size_t i;

	for (i = n / 2; i-- > 0;)
		sift_i64(a, i, n);
	for (i = n; i-- > 1;) {
		swap_i64(&a[0], &a[i]);
		sift_i64(a, 0, i);
	}
}

/*
 * Introsort: quicksort on the median of three, the smaller side first (the stack stays
 * log n deep), heapsort past 2 log2 n levels (no quadratic input), insertion sort under 16.
 * Equal values are interchangeable, so the result is qsort's with gx_cmp_i64, byte for byte,
 * in a tenth of its time (no call per comparison) and with no buffer (glibc's qsort
 * allocates one as large as the array).
 */
void gx_sort_i64(int64_t *a, size_t n)
{
	unsigned depth = 0;
	size_t k;

	for (k = n; k > 1; k >>= 1)
		depth += 2;
	while (n > 16) {
		int64_t p;
		size_t i = 0, j = n - 1, m = n / 2;

		if (!depth--) {
			heap_i64(a, n);
			return;
		}
		/* a[0] <= a[m] <= a[n-1]: the median is the pivot and the ends are sentinels */
		if (a[m] < a[0])
			swap_i64(&a[m], &a[0]);
		if (a[n - 1] < a[m]) {
			swap_i64(&a[n - 1], &a[m]);
			if (a[m] < a[0])
				swap_i64(&a[m], &a[0]);
		}
		p = a[m];
		for (;;) { /* Hoare: a[0..j] <= p <= a[j+1..n) */
			while (a[++i] < p)
				;
			while (a[--j] > p)
				;
			if (i >= j)
				break;
			swap_i64(&a[i], &a[j]);
		}
		if (j + 1 < n - j - 1) {
			gx_sort_i64(a, j + 1);
			a += j + 1;
			n -= j + 1;
		} else {
			gx_sort_i64(a + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	insertion_i64(a, n);
}
