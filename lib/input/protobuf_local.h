/* SPDX-License-Identifier: MIT */
/*
 * A tiny protobuf wire reader over a bounded slice: varints and the four wire types that
 * proto2/proto3 messages use (0 varint, 1 fixed64, 2 length-delimited, 5 fixed32). Groups
 * (3, 4) and the unused types 6 and 7 are malformed. Every read checks its bound and the
 * reader advances only on success. Library-internal.
 */
#ifndef GX_PROTOBUF_LOCAL_H
#define GX_PROTOBUF_LOCAL_H

#include <stddef.h>
#include <stdint.h>

#include "../gx_local.h"

enum gx_pb_wire {
	GX_PB_VARINT = 0,
	GX_PB_FIXED64 = 1,
	GX_PB_LEN = 2,
	GX_PB_FIXED32 = 5,
};

/* A message being read: [p, end). */
struct gx_pb {
	const uint8_t *p;
	const uint8_t *end;
};

/* One field. For GX_PB_LEN, data/len is the payload; otherwise v holds the value. */
struct gx_pb_field {
	uint32_t num;
	enum gx_pb_wire wire;
	uint64_t v;
	const uint8_t *data;
	size_t len;
};

enum gx_pb_res {
	GX_PB_MALFORMED = -1,
	GX_PB_END = 0,  /* no bytes left */
	GX_PB_FIELD = 1,
	GX_PB_SHORT = 2, /* gx_pb_varint() only: the bytes end inside the varint */
};

/**
 * gx_pb_init() - start reading a message
 * @r: the reader
 * @p: its bytes
 * @n: their number
 */
static inline void gx_pb_init(struct gx_pb *r, const void *p, size_t n)
{
	static const uint8_t empty[1];

	r->p = p ? (const uint8_t *)p : empty;
	r->end = r->p + (p ? n : 0);
}

/**
 * gx_pb_varint() - read a base-128 varint of at most 10 bytes from [*p, end)
 * @p: where to read; advanced past the varint on GX_PB_FIELD only
 * @end: the bound
 * @out: the value
 *
 * Return: GX_PB_FIELD, GX_PB_SHORT if the bytes end first, or GX_PB_MALFORMED when it runs
 * over 10 bytes or overflows 64 bits.
 */
GFXSTAT_HIDDEN enum gx_pb_res gx_pb_varint(const uint8_t **p, const uint8_t *end,
					   uint64_t *out);

/**
 * gx_pb_next() - read the next field of a message
 * @r: the reader; advanced past the field on GX_PB_FIELD only
 * @f: the field
 *
 * Return: GX_PB_FIELD, GX_PB_END when the message is done, or GX_PB_MALFORMED (a bad or
 * truncated field, field number 0, or a group/unknown wire type).
 */
GFXSTAT_HIDDEN enum gx_pb_res gx_pb_next(struct gx_pb *r, struct gx_pb_field *f);

/* A varint field as a signed 64-bit value (int64/uint64 two's complement, as protobuf). */
static inline int64_t gx_pb_i64(const struct gx_pb_field *f)
{
	return (int64_t)f->v;
}

/* A varint field as int32 (protobuf truncates to the low 32 bits). */
static inline int32_t gx_pb_i32(const struct gx_pb_field *f)
{
	return (int32_t)(uint32_t)f->v;
}

#endif
