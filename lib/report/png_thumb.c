/* SPDX-License-Identifier: MIT */
/*
 * The report's screenshot thumbnails (gfxstat_png_thumbnail(), gfxstat_report_lanes.h): a
 * device's screencap PNG read with Debian's libpng (its simplified API, png.h "Simplified
 * API"), scaled down here with a box filter (libpng does not scale), written back with libpng
 * as an 8-bit RGB PNG.
 *
 * A PNG from the device is untrusted input: libpng parses it (any PNG: palette, grey, 1-16
 * bits, Adam7 interlaced, tRNS), and its size is checked against GFXSTAT_PNG_MAX_SIDE and
 * GFXSTAT_PNG_MAX_PIXELS from its header, before the decoded image is allocated.
 *
 * libpng is loaded with dlopen() on the first screenshot, not linked, as libzip is
 * (lib/input/container_zip.c): no other run maps it. Builds without png.h (the static phone
 * build) and hosts without Debian's libpng16-16 return GFXSTAT_E_UNSUPPORTED.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gfxstat/gfxstat_report_lanes.h"

#ifdef GFXSTAT_HAVE_LIBPNG
#include <dlfcn.h>
#include <png.h>
#include <pthread.h>

#define LIBPNG "libpng16.so.16" /* Debian's libpng16-16; png_image is version 1 since 1.6.0 */

/* the libpng calls used here, from dlsym() */
static struct {
	int (*begin_read)(png_imagep, png_const_voidp, size_t);
	int (*finish_read)(png_imagep, png_const_colorp, void *, png_int_32, void *);
	int (*write_mem)(png_imagep, void *, png_alloc_size_t *, int, const void *, png_int_32,
			 const void *);
	void (*image_free)(png_imagep);
} pl;
static pthread_once_t pl_once = PTHREAD_ONCE_INIT;
static int pl_ok;

static void pl_load(void)
{
	void *h = dlopen(LIBPNG, RTLD_NOW | RTLD_LOCAL);
	int bad = 0;

	if (!h)
		return;
	/* POSIX: a function pointer travels through void * (dlsym's own contract) */
#define GET(field, name) bad = bad || !(*(void **)&pl.field = dlsym(h, name))
	GET(begin_read, "png_image_begin_read_from_memory");
	GET(finish_read, "png_image_finish_read");
	GET(write_mem, "png_image_write_to_memory");
	GET(image_free, "png_image_free");
#undef GET
	if (bad) {
		dlclose(h);
		return;
	}
	pl_ok = 1; /* kept loaded: a report has up to GFXSTAT_HTML_MAX_SHOTS screenshots */
}

int gfxstat_png_thumbnail_support(void)
{
	pthread_once(&pl_once, pl_load);
	return pl_ok;
}

/* @png decoded to 8-bit sRGB RGBA in *@rgba (malloc'd). Return: 0, GFXSTAT_E_INVAL (libpng
 * refused it), GFXSTAT_E_LIMIT (over the limits), GFXSTAT_E_NOMEM. */
static int decode(const unsigned char *png, size_t n, unsigned char **rgba, uint32_t *w,
		  uint32_t *h)
{
	png_image im;
	int rc = GFXSTAT_E_INVAL;

	*rgba = NULL;
	memset(&im, 0, sizeof(im));
	im.version = PNG_IMAGE_VERSION;
	if (!pl.begin_read(&im, png, n))
		goto out; /* not a PNG, or its header is damaged */
	/* checked on the header's size, before anything of that size is allocated */
	if (!im.width || !im.height || im.width > GFXSTAT_PNG_MAX_SIDE ||
	    im.height > GFXSTAT_PNG_MAX_SIDE ||
	    (uint64_t)im.width * im.height > GFXSTAT_PNG_MAX_PIXELS) {
		rc = GFXSTAT_E_LIMIT;
		goto out;
	}
	im.format = PNG_FORMAT_RGBA; /* 8-bit sRGB, not premultiplied (png.h) */
	/* a 16-bit PNG with no gAMA or sRGB chunk is taken as sRGB, as a screencap is, not as
	 * linear light (libpng's own default for 16-bit input, png.h PNG_IMAGE_FLAG_16BIT_sRGB) */
	im.flags |= PNG_IMAGE_FLAG_16BIT_sRGB;
	*rgba = malloc(PNG_IMAGE_SIZE(im));
	if (!*rgba) {
		rc = GFXSTAT_E_NOMEM;
		goto out;
	}
	if (!pl.finish_read(&im, NULL, *rgba, 0, NULL))
		goto out; /* damaged data: a bad filter, rows missing, a bad CRC */
	*w = im.width;
	*h = im.height;
	rc = 0;
out:
	pl.image_free(&im); /* no-op once libpng freed it itself */
	if (rc) {
		free(*rgba);
		*rgba = NULL;
	}
	return rc;
}

/* @tw x @th RGB @px as an 8-bit RGB PNG in *@out (malloc'd). */
static int encode(const unsigned char *px, unsigned tw, unsigned th, unsigned char **out,
		  size_t *out_n)
{
	png_image im;
	png_alloc_size_t cap, size;
	unsigned char *b, *nb;

	memset(&im, 0, sizeof(im));
	im.version = PNG_IMAGE_VERSION;
	im.width = tw;
	im.height = th;
	im.format = PNG_FORMAT_RGB;
	/* libpng's bound for any PNG of this size, so one write does (png.h) */
	cap = size = PNG_IMAGE_PNG_SIZE_MAX(im);
	b = malloc(cap);
	if (!b)
		return GFXSTAT_E_NOMEM;
	if (!pl.write_mem(&im, b, &size, 0, px, 0, NULL) || size > cap) {
		pl.image_free(&im);
		free(b);
		return GFXSTAT_E_NOMEM; /* libpng fails a write only for memory */
	}
	nb = realloc(b, size);
	*out = nb ? nb : b;
	*out_n = size;
	return 0;
}

int gfxstat_png_thumbnail(const unsigned char *png, size_t n, unsigned width,
			  unsigned char **out, size_t *out_n, unsigned *ow, unsigned *oh)
{
	unsigned char *src = NULL, *px = NULL;
	uint32_t w = 0, hh = 0;
	unsigned tw, th, x, y;
	int rc;

	*out = NULL;
	*out_n = 0;
	if (!png || !n || !width)
		return GFXSTAT_E_INVAL;
	if (!gfxstat_png_thumbnail_support())
		return GFXSTAT_E_UNSUPPORTED;
	rc = decode(png, n, &src, &w, &hh);
	if (rc)
		return rc;
	tw = w < width ? w : width;
	th = (unsigned)(((uint64_t)hh * tw + w / 2) / w);
	if (!th)
		th = 1;
	px = malloc((size_t)tw * th * 3);
	if (!px) {
		free(src);
		return GFXSTAT_E_NOMEM;
	}
	/* box filter (area average): each thumbnail pixel the mean of the source pixels it
	 * covers, alpha composed over white in sRGB values (a screenshot's is opaque anyway) */
	for (y = 0; y < th; y++) {
		uint32_t y0 = (uint32_t)((uint64_t)y * hh / th);
		uint32_t y1 = (uint32_t)((uint64_t)(y + 1) * hh / th);

		if (y1 <= y0)
			y1 = y0 + 1;
		for (x = 0; x < tw; x++) {
			uint32_t x0 = (uint32_t)((uint64_t)x * w / tw);
			uint32_t x1 = (uint32_t)((uint64_t)(x + 1) * w / tw);
			uint64_t sum[3] = { 0, 0, 0 }, cnt = 0;
			uint32_t yy, xx;
			int c;

			if (x1 <= x0)
				x1 = x0 + 1;
			for (yy = y0; yy < y1; yy++) {
				const unsigned char *row = src + (size_t)yy * w * 4;

				for (xx = x0; xx < x1; xx++) {
					const unsigned char *p = row + (size_t)xx * 4;
					unsigned a = p[3];

					for (c = 0; c < 3; c++)
						sum[c] += (p[c] * a + 255 * (255 - a) + 127) / 255;
					cnt++;
				}
			}
			for (c = 0; c < 3; c++)
				px[((size_t)y * tw + x) * 3 + c] = (unsigned char)((sum[c] + cnt / 2) / cnt);
		}
	}
	free(src);
	rc = encode(px, tw, th, out, out_n);
	free(px);
	if (rc)
		return rc;
	*ow = tw;
	*oh = th;
	return 0;
}

#else /* !GFXSTAT_HAVE_LIBPNG: the static phone build, or a host without png.h */

int gfxstat_png_thumbnail_support(void)
{
	return 0;
}

int gfxstat_png_thumbnail(const unsigned char *png, size_t n, unsigned width,
			  unsigned char **out, size_t *out_n, unsigned *ow, unsigned *oh)
{
	(void)png;
	(void)n;
	(void)width;
	(void)ow;
	(void)oh;
	*out = NULL;
	*out_n = 0;
	return GFXSTAT_E_UNSUPPORTED;
}

#endif
