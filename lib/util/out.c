/* SPDX-License-Identifier: MIT */
/* A bounded text writer for the row formatters: never overflows, reports the full length. */
#include <stdio.h>

#include "../gx_local.h"

/* as printf's "%lld" writes it, without its cost (a row holds a dozen of these, most of
 * them 16-digit nanoseconds): two digits at a time */
void gx_out_i64(struct gx_out *o, int64_t v)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
				    "25262728293031323334353637383940414243444546474849"
				    "50515253545556575859606162636465666768697071727374"
				    "75767778798081828384858687888990919293949596979899";
	char b[24], *e = b + sizeof(b), *p = e;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	while (u >= 100) {
		unsigned r = (unsigned)(u % 100);

		u /= 100;
		p -= 2;
		memcpy(p, pairs + 2 * r, 2);
	}
	if (u >= 10) {
		p -= 2;
		memcpy(p, pairs + 2 * u, 2);
	} else {
		*--p = (char)('0' + u);
	}
	if (v < 0)
		*--p = '-';
	gx_out_put(o, p, (size_t)(e - p));
}

size_t gx_out_line(struct gx_out *o)
{
	gx_out_put(o, "\n", 1);
	if (o->cap)
		o->p[o->len < o->cap ? o->len : o->cap - 1] = 0;
	return o->len;
}

void gx_out_quoted(struct gx_out *o, struct gfxstat_str s)
{
	const char *p = s.p, *end = s.p + s.n, *q;

	gx_out_put(o, "\"", 1);
	while ((q = memchr(p, '"', (size_t)(end - p)))) {
		gx_out_put(o, p, (size_t)(q - p) + 1);
		gx_out_put(o, "\"", 1);
		p = q + 1;
	}
	gx_out_put(o, p, (size_t)(end - p));
	gx_out_put(o, "\"", 1);
}
