/* SPDX-License-Identifier: MIT */
/*
 * Scanning text eight bytes at a time (SWAR: SIMD within a register), for the text parsers'
 * hot paths (ftrace_line.c, sched_line.c). Each mask has the high bit set in exactly the
 * bytes that match: no carry or borrow crosses a byte, so any bit of it may be used, not only
 * the lowest. Little-endian hosts with GCC/Clang builtins only (GX_SWAR); elsewhere callers
 * take their byte loops. Loads are unaligned memcpy()s of 8 bytes that the caller has checked
 * lie inside its slice. Library-internal.
 */
#ifndef GX_SCAN_LOCAL_H
#define GX_SCAN_LOCAL_H

#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
#define GX_SWAR 1
#else
#define GX_SWAR 0
#endif

#define GX_ONES 0x0101010101010101ULL
#define GX_HIGH 0x8080808080808080ULL
#define GX_LOW7 0x7f7f7f7f7f7f7f7fULL
/* the byte @c in each of the 8 bytes */
#define GX_BYTES(c) (GX_ONES * (uint8_t)(c))

static inline uint64_t gx_load8(const char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return w;
}

static inline uint32_t gx_load4(const char *p)
{
	uint32_t w;

	memcpy(&w, p, 4);
	return w;
}

/* The bytes of @w equal to the byte repeated in @cc (GX_BYTES(c)). */
static inline uint64_t gx_eq8(uint64_t w, uint64_t cc)
{
	uint64_t x = w ^ cc;

	return ~(((x & GX_LOW7) + GX_LOW7) | x) & GX_HIGH;
}

/* The bytes of @w that are not ASCII digits. */
static inline uint64_t gx_nondigit8(uint64_t w)
{
	uint64_t low = w & GX_LOW7;
	uint64_t ge0 = low + GX_BYTES(0x80 - '0');       /* high bit: low >= '0' */
	uint64_t gt9 = low + GX_BYTES(0x80 - '9' - 1);   /* high bit: low > '9' */

	return (~ge0 | gt9 | w) & GX_HIGH;
}

/* The index (0..7) of the first byte a non-zero mask marks. */
static inline unsigned gx_first8(uint64_t m)
{
#if GX_SWAR
	return (unsigned)__builtin_ctzll(m) >> 3;
#else
	unsigned i = 0;

	while (!(m & 0x80))
		m >>= 8, i++;
	return i;
#endif
}

/*
 * The value of the @k decimal digits (1..8) at the start of @w, the first the most
 * significant; the bytes from @k on are ignored. simdjson's parse_eight_digits_unrolled on
 * the digits moved to the top (the zero bytes below them are leading zeros).
 */
static inline uint32_t gx_digits8(uint64_t w, unsigned k)
{
	uint64_t x = (w - GX_BYTES('0')) << (8 * (8 - k));

	x = (x & 0x0F0F0F0F0F0F0F0FULL) * 2561 >> 8;
	x = (x & 0x00FF00FF00FF00FFULL) * 6553601 >> 16;
	x = (x & 0x0000FFFF0000FFFFULL) * 42949672960001ULL >> 32;
	return (uint32_t)x;
}

/* gx_digits8() for @k of 1 to 4 digits in the low 4 bytes of @w, in 32 bits: two steps
 * instead of three (pids, prios and cpus are mostly that short). */
static inline uint32_t gx_digits4(uint64_t w, unsigned k)
{
	uint32_t x = ((uint32_t)w - 0x30303030u) << (8 * (4 - k));

	x = (x & 0x0F0F0F0Fu) * 2561 >> 8;
	return (x & 0x00FF00FFu) * 6553601 >> 16;
}

/* The first byte @c in [p, end), or NULL. */
static inline const char *gx_find_byte(const char *p, const char *end, char c)
{
#if GX_SWAR
	uint64_t cc = GX_BYTES(c), m;

	for (; end - p >= 8; p += 8) {
		m = gx_eq8(gx_load8(p), cc);
		if (m)
			return p + gx_first8(m);
	}
#endif
	for (; p < end; p++)
		if (*p == c)
			return p;
	return NULL;
}

#endif
