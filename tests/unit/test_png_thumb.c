/* SPDX-License-Identifier: MIT */
/*
 * The report's screenshot thumbnails (lib/report/png_thumb.c, gfxstat_png_thumbnail(): read
 * and written with libpng, scaled here) and record's check that a screencap gave a whole PNG
 * (lib/capture/capture_screens.c). The PNGs are made here, byte by byte, by the PNG
 * specification (ISO/IEC 15948: chunks of length, type, data, CRC-32; IDAT a zlib stream of
 * rows, each a filter byte then the row), and the expected pixels are worked out by hand
 * next to each check. The thumbnails are read back with libpng (linked to this test only,
 * mk/png.mk); a build without libpng checks that thumbnails say so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#ifdef GFXSTAT_HAVE_LIBPNG
#include <png.h>
#endif

#include "check.h"
#include "gfxstat/gfxstat_report_lanes.h"
#include "gfxstat/gfxstat_screens.h"

static size_t chunk(unsigned char *o, const char *type, const unsigned char *d, size_t n)
{
	uLong crc;

	o[0] = (unsigned char)(n >> 24);
	o[1] = (unsigned char)(n >> 16);
	o[2] = (unsigned char)(n >> 8);
	o[3] = (unsigned char)n;
	memcpy(o + 4, type, 4);
	if (n)
		memcpy(o + 8, d, n);
	crc = crc32(0L, o + 4, (uInt)(n + 4));
	o[8 + n] = (unsigned char)(crc >> 24);
	o[9 + n] = (unsigned char)(crc >> 16);
	o[10 + n] = (unsigned char)(crc >> 8);
	o[11 + n] = (unsigned char)crc;
	return n + 12;
}

/* A PNG of @w x @h, colour type @ct, bit depth @depth, interlace @il, from @rows (filtered
 * rows, each a filter byte first). Return: its length in @out. */
static size_t make_png_x(unsigned char *out, unsigned w, unsigned h, int ct, int depth, int il,
			 const unsigned char *rows, size_t nrows, const unsigned char *plte,
			 size_t nplte, const unsigned char *trns, size_t ntrns)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	unsigned char ihdr[13], z[1024];
	uLongf zn = sizeof(z);
	size_t n = 8;

	memcpy(out, sig, 8);
	ihdr[0] = ihdr[4] = 0;
	ihdr[1] = (unsigned char)(w >> 16);
	ihdr[2] = (unsigned char)(w >> 8);
	ihdr[3] = (unsigned char)w;
	ihdr[5] = (unsigned char)(h >> 16);
	ihdr[6] = (unsigned char)(h >> 8);
	ihdr[7] = (unsigned char)h;
	ihdr[8] = (unsigned char)depth;
	ihdr[9] = (unsigned char)ct;
	ihdr[10] = ihdr[11] = 0;
	ihdr[12] = (unsigned char)il;
	n += chunk(out + n, "IHDR", ihdr, 13);
	if (plte)
		n += chunk(out + n, "PLTE", plte, nplte);
	if (trns)
		n += chunk(out + n, "tRNS", trns, ntrns);
	compress2(z, &zn, rows, (uLong)nrows, 9);
	n += chunk(out + n, "IDAT", z, zn);
	n += chunk(out + n, "IEND", NULL, 0);
	return n;
}

static size_t make_png(unsigned char *out, unsigned w, unsigned h, int ct, int depth, int il,
		       const unsigned char *rows, size_t nrows)
{
	return make_png_x(out, w, h, ct, depth, il, rows, nrows, NULL, 0, NULL, 0);
}

/* 4x2 RGBA:
 *   row 0 (filter None): (10,20,30,255) (30,40,50,255) (200,0,0,255) (100,100,100,0)
 *   row 1 (filter Up, each byte minus the one above, mod 256):
 *         (50,60,70,255) (70,80,90,255) (0,200,0,255) (0,0,200,255) */
static const unsigned char rgba_rows[] = {
	0, 10, 20, 30, 255, 30, 40, 50, 255, 200, 0, 0, 255, 100, 100, 100, 0,
	2, 40, 40, 40, 0, 40, 40, 40, 0, 56, 200, 0, 0, 156, 156, 100, 255,
};

#ifdef GFXSTAT_HAVE_LIBPNG
/* The RGB pixels of a thumbnail, read back with libpng; it must be @w x @h, 8-bit RGB. */
static int thumb_pixels(const unsigned char *p, size_t n, unsigned w, unsigned h,
			unsigned char *px)
{
	png_image im;

	memset(&im, 0, sizeof(im));
	im.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_memory(&im, p, n))
		return -1;
	/* the thumbnail is written RGB: no alpha, no palette */
	if (im.width != w || im.height != h || im.format != PNG_FORMAT_RGB) {
		png_image_free(&im);
		return -1;
	}
	return png_image_finish_read(&im, NULL, px, 0, NULL) ? 0 : -1;
}

TEST(scaled)
{
	unsigned char png[2048], px[64], *t = NULL;
	size_t n = make_png(png, 4, 2, 6, 8, 0, rgba_rows, sizeof(rgba_rows)), tn = 0;
	unsigned w = 0, h = 0;

	CHECK_EQ(gfxstat_png_complete(png, n), 1);
	/* to 2 px wide: height 2 * 2 / 4 = 1; each pixel the mean of a 2x2 block */
	CHECK_EQ(gfxstat_png_thumbnail(png, n, 2, &t, &tn, &w, &h), 0);
	CHECK_EQ(w, 2);
	CHECK_EQ(h, 1);
	CHECK_EQ(gfxstat_png_complete(t, tn), 1);
	CHECK_EQ(thumb_pixels(t, tn, w, h, px), 0);
	/* left: (10+30+50+70)/4, (20+40+60+80)/4, (30+50+70+90)/4 = 40, 50, 60 */
	CHECK_EQ(px[0], 40);
	CHECK_EQ(px[1], 50);
	CHECK_EQ(px[2], 60);
	/* right: the transparent pixel over white (255, 255, 255); red 200 + 255 + 0 + 0 = 455,
	 * green 0 + 255 + 200 + 0 = 455, blue 0 + 255 + 0 + 200 = 455; (455 + 2) / 4 = 114 */
	CHECK_EQ(px[3], 114);
	CHECK_EQ(px[4], 114);
	CHECK_EQ(px[5], 114);
	free(t);
	/* wider than the image: kept at its 4 px, row 1 unfiltered back to its pixels */
	CHECK_EQ(gfxstat_png_thumbnail(png, n, 240, &t, &tn, &w, &h), 0);
	CHECK_EQ(w, 4);
	CHECK_EQ(h, 2);
	CHECK_EQ(thumb_pixels(t, tn, w, h, px), 0);
	CHECK_EQ(px[12 + 0], 50); /* (1,0): 10 + 40 */
	CHECK_EQ(px[12 + 4], 80); /* (1,1) green: 40 + 40 */
	CHECK_EQ(px[12 + 7], 200); /* (1,2) green: 0 + 200 */
	CHECK_EQ(px[12 + 10], 0); /* (1,3) green: 100 + 156 = 256 -> 0 */
	CHECK_EQ(px[12 + 11], 200); /* (1,3) blue: 100 + 100 */
	CHECK_EQ(px[9], 255);     /* (0,3): alpha 0 over white */
	free(t);
}

/* 4x2, palette, 2 bits a pixel (four to a byte, the leftmost in the high bits):
 *   palette 0 (255,0,0) red, 1 (0,0,255) blue, 2 (0,255,0) green, 3 (8,16,24);
 *   tRNS: alphas of entries 0-2 255, 255, 128 (entry 3, past it, opaque)
 *   row 0: 0 1 2 3 = 00 01 10 11 = 0x1b;  row 1: 3 3 0 0 = 11 11 00 00 = 0xf0 */
TEST(palette)
{
	static const unsigned char plte[] = { 255, 0, 0, 0, 0, 255, 0, 255, 0, 8, 16, 24 };
	static const unsigned char trns[] = { 255, 255, 128 };
	static const unsigned char rows[] = { 0, 0x1b, 0, 0xf0 };
	unsigned char png[2048], px[64], *t = NULL;
	size_t n = make_png_x(png, 4, 2, 3, 2, 0, rows, sizeof(rows), plte, sizeof(plte), trns,
			      sizeof(trns)), tn = 0;
	unsigned w = 0, h = 0;

	CHECK_EQ(gfxstat_png_thumbnail(png, n, 2, &t, &tn, &w, &h), 0);
	CHECK_EQ(w, 2);
	CHECK_EQ(h, 1);
	CHECK_EQ(thumb_pixels(t, tn, w, h, px), 0);
	/* left 2x2: red, blue, (8,16,24) twice, all opaque:
	 * red (255 + 0 + 8 + 8 + 2) / 4 = 273 / 4 = 68; green (0 + 0 + 16 + 16 + 2) / 4 = 8;
	 * blue (0 + 255 + 24 + 24 + 2) / 4 = 305 / 4 = 76 */
	CHECK_EQ(px[0], 68);
	CHECK_EQ(px[1], 8);
	CHECK_EQ(px[2], 76);
	/* right 2x2: green at alpha 128 over white, (8,16,24), red twice. Green over white:
	 * red and blue (0 * 128 + 255 * 127 + 127) / 255 = 32512 / 255 = 127, green
	 * (255 * 128 + 255 * 127 + 127) / 255 = 255. Means: red (127 + 8 + 255 + 255 + 2) / 4 =
	 * 647 / 4 = 161; green (255 + 16 + 0 + 0 + 2) / 4 = 273 / 4 = 68; blue
	 * (127 + 24 + 0 + 0 + 2) / 4 = 153 / 4 = 38 */
	CHECK_EQ(px[3], 161);
	CHECK_EQ(px[4], 68);
	CHECK_EQ(px[5], 38);
	free(t);
}

/* 16 bits a sample: 2x1 RGB (colour type 2), big-endian samples of k * 257 (k in the high
 * and the low byte), which is k in 8 bits whether libpng scales (k * 257 * 255 / 65535 = k)
 * or drops the low byte; no gAMA, taken as sRGB (png_thumb.c) so no gamma is applied.
 *   (10, 20, 30) and (200, 100, 50) */
TEST(sixteen_bit)
{
	static const unsigned char rows[] = { 0,  10, 10, 20, 20, 30, 30,
					      200, 200, 100, 100, 50, 50 };
	unsigned char png[2048], px[64], *t = NULL;
	size_t n = make_png(png, 2, 1, 2, 16, 0, rows, sizeof(rows)), tn = 0;
	unsigned w = 0, h = 0;

	CHECK_EQ(gfxstat_png_thumbnail(png, n, 240, &t, &tn, &w, &h), 0);
	CHECK_EQ(w, 2);
	CHECK_EQ(h, 1);
	CHECK_EQ(thumb_pixels(t, tn, w, h, px), 0);
	CHECK_EQ(px[0], 10);
	CHECK_EQ(px[1], 20);
	CHECK_EQ(px[2], 30);
	CHECK_EQ(px[3], 200);
	CHECK_EQ(px[4], 100);
	CHECK_EQ(px[5], 50);
	free(t);
	/* to 1 px: height (1 * 1 + 2 / 2) / 2 = 1; means (10 + 200 + 1) / 2 = 105,
	 * (20 + 100 + 1) / 2 = 60, (30 + 50 + 1) / 2 = 40 */
	CHECK_EQ(gfxstat_png_thumbnail(png, n, 1, &t, &tn, &w, &h), 0);
	CHECK_EQ(w, 1);
	CHECK_EQ(h, 1);
	CHECK_EQ(thumb_pixels(t, tn, w, h, px), 0);
	CHECK_EQ(px[0], 105);
	CHECK_EQ(px[1], 60);
	CHECK_EQ(px[2], 40);
	free(t);
}

/* Adam7 interlaced, 2x2 RGB: of the 7 passes over 8x8 blocks, pass 1 holds (0,0), pass 6
 * (x 1, 3, ..; y 0, 2, ..) holds (1,0), pass 7 (y 1, 3, ..) the row (0,1) (1,1); the others
 * start past a 2x2 image. Each pass its rows, filter None:
 *   (0,0) = (1,2,3), (1,0) = (4,5,6), (0,1) = (7,8,9), (1,1) = (10,11,12).
 * And 2x1 grey (colour type 0): 77, 200, each repeated as red, green and blue. */
TEST(interlaced_grey)
{
	static const unsigned char rows[] = { 0, 1, 2, 3, 0, 4, 5, 6, 0, 7, 8, 9, 10, 11, 12 };
	static const unsigned char grey[] = { 0, 77, 200 };
	unsigned char png[2048], px[64], *t = NULL;
	size_t n = make_png(png, 2, 2, 2, 8, 1, rows, sizeof(rows)), tn = 0;
	unsigned w = 0, h = 0, i;

	CHECK_EQ(gfxstat_png_thumbnail(png, n, 240, &t, &tn, &w, &h), 0);
	CHECK_EQ(w, 2);
	CHECK_EQ(h, 2);
	CHECK_EQ(thumb_pixels(t, tn, w, h, px), 0);
	for (i = 0; i < 12; i++)
		CHECK_EQ(px[i], i + 1); /* in row order: 1..12 */
	free(t);
	n = make_png(png, 2, 1, 0, 8, 0, grey, sizeof(grey));
	CHECK_EQ(gfxstat_png_thumbnail(png, n, 240, &t, &tn, &w, &h), 0);
	CHECK_EQ(thumb_pixels(t, tn, 2, 1, px), 0);
	CHECK_EQ(px[0], 77);
	CHECK_EQ(px[2], 77);
	CHECK_EQ(px[3], 200);
	CHECK_EQ(px[5], 200);
	free(t);
}

TEST(refused)
{
	unsigned char png[2048], *t = (unsigned char *)1;
	size_t n, tn = 1;
	unsigned w, h;

	/* a filter type 5: not read, nothing returned */
	{
		unsigned char bad[sizeof(rgba_rows)];

		memcpy(bad, rgba_rows, sizeof(bad));
		bad[17] = 5;
		n = make_png(png, 4, 2, 6, 8, 0, bad, sizeof(bad));
		CHECK_EQ(gfxstat_png_thumbnail(png, n, 2, &t, &tn, &w, &h), GFXSTAT_E_INVAL);
		CHECK(t == NULL);
		CHECK_EQ(tn, 0);
	}
	/* rows missing: the stream inflates short */
	n = make_png(png, 4, 3, 6, 8, 0, rgba_rows, sizeof(rgba_rows));
	CHECK_EQ(gfxstat_png_thumbnail(png, n, 2, &t, &tn, &w, &h), GFXSTAT_E_INVAL);
	/* 16 bits claimed for 8-bit rows: short too */
	n = make_png(png, 4, 2, 6, 16, 0, rgba_rows, sizeof(rgba_rows));
	CHECK_EQ(gfxstat_png_thumbnail(png, n, 2, &t, &tn, &w, &h), GFXSTAT_E_INVAL);
	/* a palette PNG with no PLTE */
	n = make_png(png, 4, 1, 3, 8, 0, rgba_rows, 5);
	CHECK_EQ(gfxstat_png_thumbnail(png, n, 2, &t, &tn, &w, &h), GFXSTAT_E_INVAL);
	/* a CRC broken (the IDAT's last byte) */
	n = make_png(png, 4, 2, 6, 8, 0, rgba_rows, sizeof(rgba_rows));
	png[n - 13] ^= 1;
	CHECK_EQ(gfxstat_png_thumbnail(png, n, 2, &t, &tn, &w, &h), GFXSTAT_E_INVAL);
	/* text is no PNG */
	CHECK_EQ(gfxstat_png_thumbnail((const unsigned char *)"Capturing failed.\n", 18, 2, &t,
				       &tn, &w, &h), GFXSTAT_E_INVAL);
	/* over the limits, said from the header before any pixel is allocated: 16385 px wide
	 * (GFXSTAT_PNG_MAX_SIDE + 1), 8192 x 8192 = 2^26 px, and 4096 x 4097 = 2^24 + 4096 px,
	 * just past GFXSTAT_PNG_MAX_PIXELS (2^24), each side within it; the rows are not there */
	n = make_png(png, GFXSTAT_PNG_MAX_SIDE + 1, 1, 6, 8, 0, rgba_rows, sizeof(rgba_rows));
	CHECK_EQ(gfxstat_png_thumbnail(png, n, 2, &t, &tn, &w, &h), GFXSTAT_E_LIMIT);
	n = make_png(png, 8192, 8192, 6, 8, 0, rgba_rows, sizeof(rgba_rows));
	CHECK_EQ(gfxstat_png_thumbnail(png, n, 2, &t, &tn, &w, &h), GFXSTAT_E_LIMIT);
	CHECK(t == NULL);
	n = make_png(png, 4096, 4097, 6, 8, 0, rgba_rows, sizeof(rgba_rows));
	CHECK_EQ(gfxstat_png_thumbnail(png, n, 2, &t, &tn, &w, &h), GFXSTAT_E_LIMIT);
	/* 4096 x 4096 = 2^24 is within: read, and refused for its missing rows */
	n = make_png(png, 4096, 4096, 6, 8, 0, rgba_rows, sizeof(rgba_rows));
	CHECK_EQ(gfxstat_png_thumbnail(png, n, 2, &t, &tn, &w, &h), GFXSTAT_E_INVAL);
}
#else
/* a build without libpng (the phone build): no thumbnail, and it says why */
TEST(no_libpng)
{
	unsigned char png[2048], *t = (unsigned char *)1;
	size_t n = make_png(png, 4, 2, 6, 8, 0, rgba_rows, sizeof(rgba_rows)), tn = 1;
	unsigned w, h;

	CHECK_EQ(gfxstat_png_thumbnail_support(), 0);
	CHECK_EQ(gfxstat_png_thumbnail(png, n, 2, &t, &tn, &w, &h), GFXSTAT_E_UNSUPPORTED);
	CHECK(t == NULL);
	CHECK_EQ(tn, 0);
}
#endif

TEST(complete)
{
	unsigned char png[2048];
	size_t n = make_png(png, 4, 2, 6, 8, 0, rgba_rows, sizeof(rgba_rows));

	CHECK_EQ(gfxstat_png_complete(png, n), 1);
	/* cut anywhere, even inside IEND, or with a byte after it: not whole */
	CHECK_EQ(gfxstat_png_complete(png, n - 1), 0);
	CHECK_EQ(gfxstat_png_complete(png, n - 12), 0);
	CHECK_EQ(gfxstat_png_complete(png, 40), 0);
	CHECK_EQ(gfxstat_png_complete(png, 8), 0);
	png[n] = 0;
	CHECK_EQ(gfxstat_png_complete(png, n + 1), 0);
	/* a pty's "\r\n" for "\n" (adb shell, not exec-out) breaks the signature */
	png[6] = '\r';
	CHECK_EQ(gfxstat_png_complete(png, n), 0);
}

TEST_SUITE(test_png_thumb)
{
#ifdef GFXSTAT_HAVE_LIBPNG
	RUN(scaled);
	RUN(palette);
	RUN(sixteen_bit);
	RUN(interlaced_grey);
	RUN(refused);
#else
	RUN(no_libpng);
#endif
	RUN(complete);
}
