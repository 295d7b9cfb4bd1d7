/* SPDX-License-Identifier: MIT */
/*
 * The HTML report's timeline beyond the frames (gfxstat_report.h): lanes of the system's
 * context (CPU frequency and load per cluster, the GPU, temperatures, power) and the
 * session's screenshots, on the frames' time axis. Times are on the recording's trace clock
 * (the frames' present times); the report draws them from its first frame on.
 */
#ifndef GFXSTAT_REPORT_LANES_H
#define GFXSTAT_REPORT_LANES_H

#include <stddef.h>
#include <stdint.h>

#include "gfxstat_report.h"
#include "gfxstat_sysctx.h"

/* The context lanes, top to bottom. */
enum gfxstat_html_lane {
	GFXSTAT_LANE_CPU_FREQ, /* MHz */
	GFXSTAT_LANE_CPU_LOAD, /* % */
	GFXSTAT_LANE_GPU,      /* MHz and % busy */
	GFXSTAT_LANE_THERMAL,  /* degrees C */
	GFXSTAT_LANE_POWER,    /* mW, or mA where only a current is known */
	GFXSTAT_LANE_COUNT
};

/* Values kept per context series, and series kept (more are counted and said). */
#define GFXSTAT_HTML_MAX_POINTS 100000
#define GFXSTAT_HTML_MAX_CTX_SERIES 64
/* Screenshots embedded at most, and their bytes (as PNG, before base64) at most. */
#define GFXSTAT_HTML_MAX_SHOTS 120
#define GFXSTAT_HTML_SHOT_BYTES (8u << 20)
/* A screenshot's width in the report (px; a narrower one stays as it is). */
#define GFXSTAT_HTML_SHOT_WIDTH 240

/**
 * gfxstat_html_context() - one value of a series of a context lane
 * @name: the series ("cpus 0-3", "gpu busy"); @unit: what the lane's axis reads ("MHz", "%",
 *        "C", "mW", "mA"); both copied (a series is found by lane and name)
 * @t_ns: on the trace clock; values come in time order per series
 * Return: 0, GFXSTAT_E_NOMEM, or GFXSTAT_E_LIMIT past the limits above (the value is
 * counted as left out; the report says so).
 */
int gfxstat_html_context(struct gfxstat_html *h, enum gfxstat_html_lane lane, const char *name,
			 const char *unit, int64_t t_ns, double v);

/**
 * gfxstat_html_series() - a system series of a trace (gfxstat_sysctx.h) on its lane: its
 * clusters' frequency (MHz) and load (%), else each CPU's; the GPU's frequency and time on;
 * thermal zones (C); battery current (mA) and rails' power (mW). Each window's value from
 * its start to its end (two values: a step). Other kinds are left out (return 0).
 * Return: as gfxstat_html_context().
 */
int gfxstat_html_series(struct gfxstat_html *h, const struct gfxstat_series *s);

/**
 * gfxstat_html_screenshot() - a screenshot on the timeline
 * @t_ns: when it was taken, on the trace clock
 * @png: a PNG, any kind libpng reads (scaled down to GFXSTAT_HTML_SHOT_WIDTH px by
 *       gfxstat_png_thumbnail(); @png is not kept)
 * @why: "period" or "jank" (copied), or NULL
 * Return: 0; GFXSTAT_E_INVAL when @png is no PNG it can read (damaged, or over the limits
 * of gfxstat_png_thumbnail()); GFXSTAT_E_LIMIT past the limits above;
 * GFXSTAT_E_UNSUPPORTED without libpng (gfxstat_png_thumbnail_support()); GFXSTAT_E_NOMEM.
 * Each one not kept is counted and said in the report.
 */
int gfxstat_html_screenshot(struct gfxstat_html *h, int64_t t_ns, const void *png, size_t n,
			    const char *why);

/* Screenshots the caller left out itself (@n of them, @why: "taken before the first frame"),
 * said in the report. */
void gfxstat_html_screenshots_left(struct gfxstat_html *h, uint64_t n, const char *why);

/* The largest PNG decoded for a thumbnail (a screenshot is untrusted input): 16384 px a
 * side and 2^24 = 16777216 pixels (64 MiB as 8-bit RGBA, about 0.7 s to decode at 16 bits),
 * checked on its header before the image is allocated. Phones are 2-6 Mpx, a 4K tablet
 * (3840x2400) 9.2 Mpx; a larger one is left out, said, rather than let a crafted PNG of a few
 * hundred KB cost seconds and 130 MB a thumbnail (found by review at 2^25). */
#define GFXSTAT_PNG_MAX_SIDE 16384u
#define GFXSTAT_PNG_MAX_PIXELS (1u << 24)
/* what thumbnails need, for the messages that say they cannot be made */
#define GFXSTAT_PNG_NEED "libpng16.so.16, Debian's libpng16-16; the phone build has none"

/* gfxstat_png_thumbnail_support() - 1 when thumbnails can be made: this build has libpng
 * (host builds with png.h) and this host has its library, loaded (dlopen) on the first call */
int gfxstat_png_thumbnail_support(void);

/**
 * gfxstat_png_thumbnail() - @png scaled down to at most @width px wide (box filter, alpha
 * over white), as an 8-bit RGB PNG in *@out (malloc'd; the caller frees it). Read and
 * written with libpng: any PNG it reads (palette, grey, 1-16 bits, interlaced).
 * Return: 0, GFXSTAT_E_INVAL (no PNG, or damaged), GFXSTAT_E_LIMIT (over
 * GFXSTAT_PNG_MAX_SIDE or GFXSTAT_PNG_MAX_PIXELS), GFXSTAT_E_UNSUPPORTED (no libpng),
 * GFXSTAT_E_NOMEM.
 */
int gfxstat_png_thumbnail(const unsigned char *png, size_t n, unsigned width,
			  unsigned char **out, size_t *out_n, unsigned *w, unsigned *hgt);

#endif
