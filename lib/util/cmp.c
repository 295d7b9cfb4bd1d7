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

/* ---- the same for records of up to GX_SORT_MAX bytes, with a comparator ---- */

static void swap_rec(char *a, char *b, size_t size)
{
	char t[GX_SORT_MAX];

	memcpy(t, a, size);
	memcpy(a, b, size);
	memcpy(b, t, size);
}

static void insertion_rec(char *a, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	char v[GX_SORT_MAX];
	size_t i, j;

	for (i = 1; i < n; i++) {
		if (cmp(a + (i - 1) * size, a + i * size) <= 0)
			continue;
		memcpy(v, a + i * size, size);
		for (j = i; j > 0 && cmp(a + (j - 1) * size, v) > 0; j--)
			memcpy(a + j * size, a + (j - 1) * size, size);
		memcpy(a + j * size, v, size);
	}
}

static void sift_rec(char *a, size_t i, size_t n, size_t size,
		     int (*cmp)(const void *, const void *))
{
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			return;
		if (c + 1 < n && cmp(a + (c + 1) * size, a + c * size) > 0)
			c++;
		if (cmp(a + i * size, a + c * size) >= 0)
			return;
		swap_rec(a + i * size, a + c * size, size);
		i = c;
	}
}

static void heap_rec(char *a, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	size_t i;

	for (i = n / 2; i-- > 0;)
		sift_rec(a, i, n, size, cmp);
	for (i = n; i-- > 1;) {
		swap_rec(a, a + i * size, size);
		sift_rec(a, 0, i, size, cmp);
	}
}

/*
 * gx_sort_i64()'s introsort for records: in place, where glibc's qsort() takes a buffer as
 * large as the array (48 MB for the model's million held frames, at the moment memory is
 * fullest). For a comparator that is a total order (no two records compare equal) the result
 * is qsort()'s.
 */
void gx_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	char *a = base, p[GX_SORT_MAX];
	unsigned depth = 0;
	size_t k;

	for (k = n; k > 1; k >>= 1)
		depth += 2;
	while (n > 16) {
		size_t i = 0, j = n - 1, m = n / 2;

		if (!depth--) {
			heap_rec(a, n, size, cmp);
			return;
		}
		/* a[0] <= a[m] <= a[n-1]: the median is the pivot and the ends are sentinels */
		if (cmp(a + m * size, a) < 0)
			swap_rec(a + m * size, a, size);
		if (cmp(a + (n - 1) * size, a + m * size) < 0) {
			swap_rec(a + (n - 1) * size, a + m * size, size);
			if (cmp(a + m * size, a) < 0)
				swap_rec(a + m * size, a, size);
		}
		memcpy(p, a + m * size, size);
		for (;;) { /* Hoare: a[0..j] <= p <= a[j+1..n) */
			while (cmp(a + ++i * size, p) < 0)
				;
			while (cmp(a + --j * size, p) > 0)
				;
			if (i >= j)
				break;
			swap_rec(a + i * size, a + j * size, size);
		}
		if (j + 1 < n - j - 1) {
			gx_sort(a, j + 1, size, cmp);
			a += (j + 1) * size;
			n -= j + 1;
		} else {
			gx_sort(a + (j + 1) * size, n - j - 1, size, cmp);
			n = j + 1;
		}
	}
	insertion_rec(a, n, size, cmp);
}
