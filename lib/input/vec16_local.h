/* SPDX-License-Identifier: MIT */
/*
 * The few 16-byte vector operations of the ftrace header's fast paths (ftrace_local.h,
 * ftrace_line.c) and the scheduler payload's name scans (sched_line.c), each giving a 16-bit
 * mask (bit i: byte i), in three forms: SSE2 (x86-64), NEON (arm64, and armv7 built with
 * -mfpu=neon: the phone builds of `make android`), and SWAR on two 64-bit words
 * (scan_local.h's exact per-byte tests) for anything else. For scans that need only the first
 * match, marks (gx_v16_eq_marks(), gx_v16_first()): that mask, but on arm64 a narrowing
 * shift's nibble per byte (3 instructions; on armv7 the mask measured cheaper).
 * -DGX_VEC16_PORTABLE forces the SWAR form, so a host can test it. Only with GX_SWAR
 * (little-endian, GCC/Clang).
 * Loads are unaligned; the caller checks that the 16 bytes lie in its slice.
 * Library-internal.
 */
#ifndef GX_VEC16_LOCAL_H
#define GX_VEC16_LOCAL_H

#include <stdint.h>

#include "scan_local.h"

#if GX_SWAR
#if defined(GX_VEC16_PORTABLE)
#define GX_VEC16_SWAR 1
#elif defined(__SSE2__)
#define GX_VEC16_SSE2 1
#elif defined(__ARM_NEON) || defined(__ARM_NEON__)
#define GX_VEC16_NEON 1
#else
#define GX_VEC16_SWAR 1
#endif

#if defined(GX_VEC16_SSE2)
#include <emmintrin.h>

typedef __m128i gx_v16;

/* 16 byte constants, byte 0 first */
#define GX_V16_SETR(b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15)     \
	_mm_setr_epi8(b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15)

static inline gx_v16 gx_v16_load(const char *p)
{
	return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/* the bytes of @v equal to those of @t */
static inline unsigned gx_v16_eqv(gx_v16 v, gx_v16 t)
{
	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, t));
}

/* the bytes of @v equal to @c */
static inline unsigned gx_v16_eq(gx_v16 v, char c)
{
	return gx_v16_eqv(v, _mm_set1_epi8(c));
}

/* the bytes of @v equal to @c or @d: the two compares ORed, one mask */
static inline unsigned gx_v16_eq2(gx_v16 v, char c, char d)
{
	return (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(c)),
							_mm_cmpeq_epi8(v, _mm_set1_epi8(d))));
}

/* the bytes of @v that are ASCII digits */
static inline unsigned gx_v16_digit(gx_v16 v)
{
	__m128i t = _mm_sub_epi8(v, _mm_set1_epi8('0'));

	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8(9)), t));
}

#elif defined(GX_VEC16_NEON)
#include <arm_neon.h>

typedef uint8x16_t gx_v16;

#define GX_V16_SETR(b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15)     \
	((uint8x16_t){(uint8_t)(b0), (uint8_t)(b1), (uint8_t)(b2), (uint8_t)(b3), (uint8_t)(b4), \
		      (uint8_t)(b5), (uint8_t)(b6), (uint8_t)(b7), (uint8_t)(b8), (uint8_t)(b9), \
		      (uint8_t)(b10), (uint8_t)(b11), (uint8_t)(b12), (uint8_t)(b13),          \
		      (uint8_t)(b14), (uint8_t)(b15)})

static inline gx_v16 gx_v16_load(const char *p)
{
	return vld1q_u8((const uint8_t *)(const void *)p);
}

/* SSE2's movemask: a compare's 0xff bytes ANDed with their bit's weight (1 to 128 in each
 * half), then three rounds of pairwise adds sum each half into its byte */
static inline unsigned gx_v16_bits(uint8x16_t m)
{
	const uint8x16_t wt = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
#ifdef __aarch64__
	uint8x16_t x = vandq_u8(m, wt);

	x = vpaddq_u8(x, x);
	x = vpaddq_u8(x, x);
	x = vpaddq_u8(x, x);
	return vgetq_lane_u16(vreinterpretq_u16_u8(x), 0);
#else
	uint8x16_t x = vandq_u8(m, wt);
	uint8x8_t y = vpadd_u8(vget_low_u8(x), vget_high_u8(x));

	y = vpadd_u8(y, y);
	y = vpadd_u8(y, y);
	return vget_lane_u16(vreinterpret_u16_u8(y), 0);
#endif
}

static inline unsigned gx_v16_eqv(gx_v16 v, gx_v16 t)
{
	return gx_v16_bits(vceqq_u8(v, t));
}

static inline unsigned gx_v16_eq(gx_v16 v, char c)
{
	return gx_v16_bits(vceqq_u8(v, vdupq_n_u8((uint8_t)c)));
}

static inline unsigned gx_v16_eq2(gx_v16 v, char c, char d)
{
	return gx_v16_bits(vorrq_u8(vceqq_u8(v, vdupq_n_u8((uint8_t)c)),
				    vceqq_u8(v, vdupq_n_u8((uint8_t)d))));
}

static inline unsigned gx_v16_digit(gx_v16 v)
{
	return gx_v16_bits(vcleq_u8(vsubq_u8(v, vdupq_n_u8('0')), vdupq_n_u8(9)));
}

#ifdef __aarch64__
/* the compare's 16-bit lanes shifted right by 4 and narrowed: byte i's 0x00 or 0xff gives
 * nibble i of one 64-bit word (cmeq, shrn, fmov: no bit-weight AND and pairwise adds) */
typedef uint64_t gx_v16_marks;

static inline gx_v16_marks gx_v16_eq_marks(gx_v16 v, char c)
{
	uint16x8_t m = vreinterpretq_u16_u8(vceqq_u8(v, vdupq_n_u8((uint8_t)c)));

	return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(m, 4)), 0);
}

static inline unsigned gx_v16_first(gx_v16_marks m)
{
	return (unsigned)__builtin_ctzll(m) >> 2;
}
#define GX_V16_NIBBLE_MARKS 1
#endif

#else /* GX_VEC16_SWAR */

/* the 16 bytes as two little-endian words, bytes 0-7 in lo */
typedef struct {
	uint64_t lo, hi;
} gx_v16;

#define GX_V16_B8(b0, b1, b2, b3, b4, b5, b6, b7)                                                 \
	((uint64_t)(uint8_t)(b0) | (uint64_t)(uint8_t)(b1) << 8 | (uint64_t)(uint8_t)(b2) << 16 | \
	 (uint64_t)(uint8_t)(b3) << 24 | (uint64_t)(uint8_t)(b4) << 32 |                         \
	 (uint64_t)(uint8_t)(b5) << 40 | (uint64_t)(uint8_t)(b6) << 48 |                         \
	 (uint64_t)(uint8_t)(b7) << 56)
#define GX_V16_SETR(b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15)     \
	((gx_v16){GX_V16_B8(b0, b1, b2, b3, b4, b5, b6, b7),                                   \
		  GX_V16_B8(b8, b9, b10, b11, b12, b13, b14, b15)})

static inline gx_v16 gx_v16_load(const char *p)
{
	gx_v16 v = {gx_load8(p), gx_load8(p + 8)};

	return v;
}

/* a mask's high bits (byte i: bit 8i + 7) as 8 bits: the product moves bit 8i to 56 + i,
 * and no two of its 64 partial products meet at one bit, so nothing carries */
static inline unsigned gx_v16_pack8(uint64_t m)
{
	return (unsigned)(((m >> 7) * 0x0102040810204080ULL) >> 56);
}

static inline unsigned gx_v16_eqv(gx_v16 v, gx_v16 t)
{
	return gx_v16_pack8(gx_eq8(v.lo, t.lo)) | gx_v16_pack8(gx_eq8(v.hi, t.hi)) << 8;
}

static inline unsigned gx_v16_eq(gx_v16 v, char c)
{
	uint64_t cc = GX_BYTES(c);

	return gx_v16_pack8(gx_eq8(v.lo, cc)) | gx_v16_pack8(gx_eq8(v.hi, cc)) << 8;
}

/* gx_eq8()'s masks are exact (only the equal bytes' high bits), so their OR is too */
static inline unsigned gx_v16_eq2(gx_v16 v, char c, char d)
{
	uint64_t cc = GX_BYTES(c), dd = GX_BYTES(d);

	return gx_v16_pack8(gx_eq8(v.lo, cc) | gx_eq8(v.lo, dd)) |
	       gx_v16_pack8(gx_eq8(v.hi, cc) | gx_eq8(v.hi, dd)) << 8;
}

static inline unsigned gx_v16_digit(gx_v16 v)
{
	return gx_v16_pack8(~gx_nondigit8(v.lo) & GX_HIGH) |
	       gx_v16_pack8(~gx_nondigit8(v.hi) & GX_HIGH) << 8;
}
#endif

#ifndef GX_V16_NIBBLE_MARKS
/* marks: only where the first byte equal to @c is (its index from gx_v16_first()), for the
 * scans that need no more: gx_v16_eq()'s mask, but for arm64's nibbles above */
typedef unsigned gx_v16_marks;

static inline gx_v16_marks gx_v16_eq_marks(gx_v16 v, char c)
{
	return gx_v16_eq(v, c);
}

/* the index of the first byte a non-zero gx_v16_marks marks */
static inline unsigned gx_v16_first(gx_v16_marks m)
{
	return (unsigned)__builtin_ctz(m);
}
#endif
#endif /* GX_SWAR */

#endif
