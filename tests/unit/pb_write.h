/* SPDX-License-Identifier: MIT */
/*
 * A tiny protobuf writer for the unit tests that build Perfetto traces by hand: fields of the
 * wire format (varint, fixed32, length-delimited) into a fixed buffer. Writes past the
 * buffer are dropped, so a test that outgrows it fails on its content, not on memory.
 */
#ifndef GFXSTAT_TESTS_PB_WRITE_H
#define GFXSTAT_TESTS_PB_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct pb {
	uint8_t b[8192];
	size_t n;
};

#define PB_INIT { { 0 }, 0 }

static inline void pb_varint(struct pb *o, uint64_t v)
{
	do {
		uint8_t c = v & 0x7f;

		v >>= 7;
		if (o->n < sizeof(o->b))
			o->b[o->n++] = (uint8_t)(c | (v ? 0x80 : 0));
	} while (v);
}

static inline void pb_u(struct pb *o, uint32_t field, uint64_t v)
{
	pb_varint(o, (uint64_t)field << 3);
	pb_varint(o, v);
}

/* an int32/int64 field: negative values are ten-byte varints */
static inline void pb_i(struct pb *o, uint32_t field, int64_t v)
{
	pb_u(o, field, (uint64_t)v);
}

static inline void pb_fixed32(struct pb *o, uint32_t field, uint32_t v)
{
	pb_varint(o, (uint64_t)field << 3 | 5);
	if (o->n + 4 <= sizeof(o->b)) {
		memcpy(o->b + o->n, &v, 4);
		o->n += 4;
	}
}

static inline void pb_bytes(struct pb *o, uint32_t field, const void *p, size_t n)
{
	pb_varint(o, (uint64_t)field << 3 | 2);
	pb_varint(o, n);
	if (o->n + n <= sizeof(o->b)) {
		memcpy(o->b + o->n, p, n);
		o->n += n;
	}
}

static inline void pb_str(struct pb *o, uint32_t field, const char *s)
{
	pb_bytes(o, field, s, strlen(s));
}

static inline void pb_msg(struct pb *o, uint32_t field, const struct pb *m)
{
	pb_bytes(o, field, m->b, m->n);
}

/* a packed repeated varint field */
static inline void pb_packed(struct pb *o, uint32_t field, const uint64_t *v, size_t n)
{
	struct pb p = PB_INIT;
	size_t i;

	for (i = 0; i < n; i++)
		pb_varint(&p, v[i]);
	pb_msg(o, field, &p);
}

#endif
