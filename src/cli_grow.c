/* SPDX-License-Identifier: MIT */
/*
 * The CLI's growable arrays: lib/util/buf.c's gx_grow_to() and gx_grow(), for src/, which may
 * use only the public API (the library's are hidden).
 */
#include <stdint.h>
#include <stdlib.h>

#include "cli.h"

int cli_grow_to(void **p, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t nc;
	void *q;

	if (need <= *cap)
		return 0;
	nc = *cap ? *cap : first ? first : 1;
	/* a count or byte count that wraps would allocate little and be overrun: refused */
	while (nc < need) {
		if (nc > SIZE_MAX / 2)
			return -1;
		nc *= 2;
	}
	if (!size || nc > SIZE_MAX / size)
		return -1;
	q = realloc(*p, nc * size);
	if (!q)
		return -1;
	*p = q;
	*cap = nc;
	return 0;
}

int cli_grow(void **p, size_t *cap, size_t n, size_t size, size_t first)
{
	if (n < *cap)
		return 0;
	if (n == SIZE_MAX)
		return -1;
	return cli_grow_to(p, cap, n + 1, size, first);
}
