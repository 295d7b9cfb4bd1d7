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
#include <string.h>

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

/* gx_pb_varint() past its first byte (perfetto_pb.c): 8 bytes at a time where they are in
 * the bound, without a branch per byte. */
GFXSTAT_HIDDEN enum gx_pb_res gx_pb_varint_long(const uint8_t **p, const uint8_t *end,
						uint64_t *out);

/**
 * gx_pb_varint() - read a base-128 varint of at most 10 bytes from [*p, end)
 * @p: where to read; advanced past the varint on GX_PB_FIELD only
 * @end: the bound
 * @out: the value
 *
 * Inline for the one- and two-byte varints (field tags, small values, lengths) that make
 * most of a trace. Return: GX_PB_FIELD, GX_PB_SHORT if the bytes end first, or
 * GX_PB_MALFORMED when it runs over 10 bytes or overflows 64 bits.
 */
static inline enum gx_pb_res gx_pb_varint(const uint8_t **p, const uint8_t *end,
					  uint64_t *out)
{
	const uint8_t *s = *p;

	if (GX_LIKELY(s < end && !(s[0] & 0x80))) {
		*out = s[0];
		*p = s + 1;
		return GX_PB_FIELD;
	}
	/* two bytes: the tags of FtraceEvent kinds 16..2047, pids, lengths under 16 KiB */
	if (GX_LIKELY(end - s >= 2 && !(s[1] & 0x80))) {
		*out = (uint64_t)(s[0] & 0x7f) | (uint64_t)s[1] << 7;
		*p = s + 2;
		return GX_PB_FIELD;
	}
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
	/* up to 8 bytes (timestamps, 7 bytes, most of the rest), 8 in the bound: the first byte
	 * without the continuation bit ends it; everything up to it kept, the 7-bit groups
	 * packed in three steps (pairs, quads, halves) */
	if (GX_LIKELY(end - s >= 8)) {
		uint64_t w, stop, x;

		memcpy(&w, s, 8);
		stop = ~w & 0x8080808080808080ULL;
		if (GX_LIKELY(stop)) {
			x = w & (stop ^ (stop - 1)) & 0x7f7f7f7f7f7f7f7fULL;
			x = (x & 0x007f007f007f007fULL) | ((x & 0x7f007f007f007f00ULL) >> 1);
			x = (x & 0x00003fff00003fffULL) | ((x & 0x3fff00003fff0000ULL) >> 2);
			x = (x & 0x000000000fffffffULL) | ((x & 0x0fffffff00000000ULL) >> 4);
			*p = s + ((unsigned)__builtin_ctzll(stop) >> 3) + 1;
			*out = x;
			return GX_PB_FIELD;
		}
	}
#endif
	return gx_pb_varint_long(p, end, out);
}

/**
 * gx_pb_next() - read the next field of a message
 * @r: the reader; advanced past the field on GX_PB_FIELD only
 * @f: the field
 *
 * Inline: every field of every event comes through here. Return: GX_PB_FIELD, GX_PB_END when
 * the message is done, or GX_PB_MALFORMED (a bad or truncated field, field number 0, or a
 * group/unknown wire type).
 */
static inline enum gx_pb_res gx_pb_next(struct gx_pb *r, struct gx_pb_field *f)
{
	const uint8_t *s = r->p;
	uint64_t tag, v;

	if (s >= r->end)
		return GX_PB_END;
	if (gx_pb_varint(&s, r->end, &tag) != GX_PB_FIELD)
		return GX_PB_MALFORMED;
	if ((tag >> 3) == 0 || (tag >> 3) > 0x1fffffff)
		return GX_PB_MALFORMED;
	f->num = (uint32_t)(tag >> 3);
	f->data = NULL;
	f->len = 0;
	f->v = 0;
	switch (tag & 7) {
	case GX_PB_VARINT:
		if (gx_pb_varint(&s, r->end, &v) != GX_PB_FIELD)
			return GX_PB_MALFORMED;
		f->v = v;
		break;
	case GX_PB_FIXED64:
		if (r->end - s < 8)
			return GX_PB_MALFORMED;
		memcpy(&v, s, 8); /* little-endian hosts only, as Android and x86 */
		f->v = v;
		s += 8;
		break;
	case GX_PB_FIXED32: {
		uint32_t w;

		if (r->end - s < 4)
			return GX_PB_MALFORMED;
		memcpy(&w, s, 4);
		f->v = w;
		s += 4;
		break;
	}
	case GX_PB_LEN:
		if (gx_pb_varint(&s, r->end, &v) != GX_PB_FIELD)
			return GX_PB_MALFORMED;
		if (v > (uint64_t)(r->end - s))
			return GX_PB_MALFORMED;
		f->data = s;
		f->len = (size_t)v;
		s += v;
		break;
	default: /* 3, 4: groups; 6, 7: unused */
		return GX_PB_MALFORMED;
	}
	f->wire = (enum gx_pb_wire)(tag & 7);
	r->p = s;
	return GX_PB_FIELD;
}

/**
 * gx_pb_next_fast() - gx_pb_next() with the usual fields read inline
 * @r: the reader
 * @f: the field
 *
 * A one- or two-byte tag, then a varint, or a length of one, two or four (padded) bytes: the
 * fields of nearly every FtraceEvent and bundle, read here in a few instructions. Anything
 * else (wider tags or lengths, fixed types, every error) goes to gx_pb_next(), which reads the
 * same field the same way. Always inlined: a call costs as much as the read. Return: as
 * gx_pb_next().
 */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline enum gx_pb_res gx_pb_next_fast(struct gx_pb *r, struct gx_pb_field *f)
{
	const uint8_t *q = r->p, *end = r->end;
	uint32_t tag, len;
	uint64_t v;

	if (q >= end)
		return GX_PB_END;
	if (GX_LIKELY(!(q[0] & 0x80))) {
		tag = q[0];
		q++;
	} else if (end - q >= 2 && !(q[1] & 0x80)) {
		tag = (uint32_t)(q[0] & 0x7f) | (uint32_t)q[1] << 7;
		q += 2;
	} else {
		return gx_pb_next(r, f);
	}
	if (tag < 8) /* field number 0 */
		return gx_pb_next(r, f);
	if ((tag & 7) == GX_PB_LEN) {
		if (GX_LIKELY(q < end && !(q[0] & 0x80))) {
			len = q[0];
			q++;
		} else if (end - q >= 4 && (q[0] & q[1] & q[2] & 0x80) && !(q[3] & 0x80)) {
			/* protozero's nested message: its length padded to 4 bytes, written once
			 * the message is done (include/perfetto/protozero/proto_utils.h,
			 * kMessageLengthFieldSize) */
			len = (uint32_t)(q[0] & 0x7f) | (uint32_t)(q[1] & 0x7f) << 7 |
			      (uint32_t)(q[2] & 0x7f) << 14 | (uint32_t)q[3] << 21;
			q += 4;
		} else if (end - q >= 2 && !(q[1] & 0x80)) {
			len = (uint32_t)(q[0] & 0x7f) | (uint32_t)q[1] << 7;
			q += 2;
		} else {
			return gx_pb_next(r, f);
		}
		if (len > (size_t)(end - q))
			return gx_pb_next(r, f);
		f->num = tag >> 3;
		f->wire = GX_PB_LEN;
		f->v = 0;
		f->data = q;
		f->len = len;
		r->p = q + len;
		return GX_PB_FIELD;
	}
	if ((tag & 7) != GX_PB_VARINT || gx_pb_varint(&q, end, &v) != GX_PB_FIELD)
		return gx_pb_next(r, f);
	f->num = tag >> 3;
	f->wire = GX_PB_VARINT;
	f->v = v;
	f->data = NULL;
	f->len = 0;
	r->p = q;
	return GX_PB_FIELD;
}

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
