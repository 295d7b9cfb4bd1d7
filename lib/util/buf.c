/* SPDX-License-Identifier: MIT */
/* Bounded growable buffer (every growth has a limit), and growable arrays. */
#include <stdint.h>
#include <stdlib.h>

#include "../gx_local.h"

void gx_buf_init(struct gx_buf *b, size_t max)
{
	b->p = NULL;
	b->len = 0;
	b->cap = 0;
	b->max = max;
}

void gx_buf_free(struct gx_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = 0;
	b->cap = 0;
}

int gx_buf_add(struct gx_buf *b, const void *p, size_t n)
{
	if (n > b->max - b->len)
		return GFXSTAT_E_LIMIT;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *np;

		while (cap < b->len + n)
			cap *= 2;
		if (cap > b->max)
			cap = b->max;
		np = realloc(b->p, cap);
		if (!np)
			return GFXSTAT_E_NOMEM;
		b->p = np;
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

int gx_buf_addc(struct gx_buf *b, char c)
{
	return gx_buf_add(b, &c, 1);
}

int gx_grow_to(void **p, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t nc;
	void *q;

	if (need <= *cap)
		return 0;
	nc = *cap ? *cap : first ? first : 1;
	/* doubling past SIZE_MAX / 2, or a byte count past SIZE_MAX, would wrap to a small
	 * allocation that the caller then overruns: refuse instead */
	while (nc < need) {
		if (nc > SIZE_MAX / 2)
			return GFXSTAT_E_NOMEM;
		nc *= 2;
	}
	if (!size || nc > SIZE_MAX / size)
		return GFXSTAT_E_NOMEM;
	q = realloc(*p, nc * size);
	if (!q)
		return GFXSTAT_E_NOMEM;
	*p = q;
	*cap = nc;
	return 0;
}

void gx_shrink(void **p, size_t *cap, size_t n, size_t size, size_t step)
{
	void *q;

	if (*cap - n < step)
		return;
	q = realloc(*p, (n ? n : 1) * size);
	if (q) { /* else it stays as large as it was: nothing is lost */
		*p = q;
		*cap = n;
	}
}

int gx_grow(void **p, size_t *cap, size_t n, size_t size, size_t first)
{
	if (n < *cap)
		return 0;
	if (n == SIZE_MAX)
		return GFXSTAT_E_NOMEM;
	return gx_grow_to(p, cap, n + 1, size, first);
}
