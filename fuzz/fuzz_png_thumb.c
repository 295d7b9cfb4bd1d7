/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the report's screenshot thumbnails (lib/report/png_thumb.c; libpng reads the
 * input, a device's untrusted screencap). The input is the PNG. Thumbnails at 240 px (the
 * report's) and at 1-8 px (from the input's length, so scaling by large factors is hit
 * too): a thumbnail must be a whole PNG no wider than asked, no larger than the limits, of
 * the source's width when that is narrower; and a thumbnail of the thumbnail at its own
 * width must be the same bytes (an opaque RGB image scaled 1:1 is itself).
 * libpng refuses a chunk whose CRC-32 is wrong, so most mutations would stop there: each
 * input is also tried with its chunks' CRCs made right (as libpng's own OSS-Fuzz target
 * passes PNG_CRC_QUIET_USE, contrib/oss-fuzz/libpng_read_fuzzer.cc), so a mutated header or
 * palette reaches the scaling. libpng is loaded with dlopen() and not instrumented: the
 * coverage seen is gfxstat's own.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "gfxstat/gfxstat_err.h"
#include "gfxstat/gfxstat_report_lanes.h"
#include "gfxstat/gfxstat_screens.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (!(cond))                                                               \
			__builtin_trap();                                                  \
	} while (0)

static void one(const uint8_t *data, size_t size, unsigned width)
{
	unsigned char *t = (unsigned char *)1, *t2 = NULL;
	size_t tn = 1, tn2 = 0;
	unsigned w = 0, h = 0, w2 = 0, h2 = 0;
	int rc = gfxstat_png_thumbnail(data, size, width, &t, &tn, &w, &h);

	if (rc) {
		/* refused: only these, and nothing returned */
		CHECK(rc == GFXSTAT_E_INVAL || rc == GFXSTAT_E_LIMIT ||
		      rc == GFXSTAT_E_UNSUPPORTED || rc == GFXSTAT_E_NOMEM);
		CHECK(t == NULL && tn == 0);
		return;
	}
	CHECK(t && tn > 0);
	CHECK(w >= 1 && w <= width && h >= 1 && h <= GFXSTAT_PNG_MAX_SIDE);
	CHECK(gfxstat_png_complete(t, tn) == 1);
	CHECK(gfxstat_png_thumbnail(t, tn, w, &t2, &tn2, &w2, &h2) == 0);
	CHECK(w2 == w && h2 == h && tn2 == tn && !memcmp(t, t2, tn));
	free(t2);
	free(t);
}

/* @p with each whole chunk's CRC-32 (of its type and data) made right, in place */
static void fix_crcs(unsigned char *p, size_t n)
{
	size_t o = 8;

	while (o + 12 <= n) {
		size_t len = (size_t)p[o] << 24 | (size_t)p[o + 1] << 16 | (size_t)p[o + 2] << 8 |
			     p[o + 3];
		uLong crc;

		if (len > n - o - 12)
			break;
		crc = crc32(0L, p + o + 4, (uInt)(len + 4));
		p[o + 8 + len] = (unsigned char)(crc >> 24);
		p[o + 9 + len] = (unsigned char)(crc >> 16);
		p[o + 10 + len] = (unsigned char)(crc >> 8);
		p[o + 11 + len] = (unsigned char)crc;
		o += 12 + len;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *c;

	/* the capture's own check of a screencap's bytes (capture_screens.c) reads them too */
	(void)gfxstat_png_complete(data, size);
	one(data, size, 240);
	c = malloc(size ? size : 1);
	if (!c)
		return 0;
	memcpy(c, data, size);
	fix_crcs(c, size);
	one(c, size, 240);
	one(c, size, 1 + (unsigned)(size % 8));
	free(c);
	return 0;
}
