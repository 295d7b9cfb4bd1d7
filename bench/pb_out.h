/* SPDX-License-Identifier: MIT */
/*
 * A growing buffer of protobuf wire format, for the bench's trace writers (perfetto_repeat.c,
 * perfetto_sim.c). The program that includes it defines die(), called when memory runs out.
 */
#ifndef GFXSTAT_BENCH_PB_OUT_H
#define GFXSTAT_BENCH_PB_OUT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *msg);

struct out {
	uint8_t *p;
	size_t n, cap;
};

static inline void out_reserve(struct out *o, size_t n)
{
	if (o->n + n <= o->cap)
		return;
	while (o->n + n > o->cap)
		o->cap = o->cap ? o->cap * 2 : 1 << 16;
	o->p = realloc(o->p, o->cap);
	if (!o->p)
		die("out of memory");
}

static inline void put_bytes(struct out *o, const void *p, size_t n)
{
	out_reserve(o, n);
	memcpy(o->p + o->n, p, n);
	o->n += n;
}

static inline void put_varint(struct out *o, uint64_t v)
{
	uint8_t b[10];
	size_t n = 0;

	do {
		b[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v)
			b[n] |= 0x80;
		n++;
	} while (v);
	put_bytes(o, b, n);
}

/* field @num, wire type VARINT */
static inline void put_varint_field(struct out *o, uint32_t num, uint64_t v)
{
	put_varint(o, (uint64_t)num << 3);
	put_varint(o, v);
}

/* field @num, wire type LEN, of @n bytes */
static inline void put_len_field(struct out *o, uint32_t num, const void *p, size_t n)
{
	put_varint(o, (uint64_t)num << 3 | 2);
	put_varint(o, n);
	put_bytes(o, p, n);
}

#endif
