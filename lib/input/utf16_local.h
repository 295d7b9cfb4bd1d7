/* SPDX-License-Identifier: MIT */
/* A small streaming UTF-16LE to UTF-8 converter (for Windows-redirected dumps). Internal. */
#ifndef UTF16_LOCAL_H
#define UTF16_LOCAL_H

#include "../gx_local.h"

struct gx_utf16 {
	int have_byte;     /* an odd byte is waiting for its pair */
	uint8_t byte;
	uint32_t high;     /* a high surrogate waiting for its low half, or 0 */
};

static inline void gx_utf16_init(struct gx_utf16 *u)
{
	memset(u, 0, sizeof(*u));
}

/* Worst-case output for @n input bytes (3 bytes per unit, plus a pending pair). */
#define GX_UTF16_OUT_MAX(n) ((n) / 2 * 3 + 8)

/*
 * gx_utf16_feed() - convert @n bytes of UTF-16LE into @out (GX_UTF16_OUT_MAX(n) bytes)
 * A unit or pair cut by the chunk end is kept for the next call. Unpaired surrogates and
 * NUL become U+FFFD. Return: the bytes written.
 */
GFXSTAT_HIDDEN size_t gx_utf16_feed(struct gx_utf16 *u, const uint8_t *in, size_t n, char *out);

/* gx_utf16_finish() - end of stream: a dangling byte or surrogate becomes U+FFFD */
GFXSTAT_HIDDEN size_t gx_utf16_finish(struct gx_utf16 *u, char *out);

#endif
