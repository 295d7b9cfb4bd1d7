/* SPDX-License-Identifier: MIT */
/*
 * libgfxstat: screenshots beside the frames (`record --screenshots SEC`). The device's own
 * `screencap -p` (a PNG on standard output) through the caller's adb transport, started and
 * drained without blocking the capture's loop: one screenshot at a time, every period, and
 * one more at once when asked (a janky frame), rate-limited. The device's clock
 * (/proc/uptime, CLOCK_BOOTTIME) is read just before each one, so that the screenshot can be
 * placed on a trace's timeline.
 *
 * The library never writes files: each complete PNG is handed to the caller. A screencap the
 * device refuses (no PNG came back) is never retried nor faked: gfxstat_screens_refused()
 * says why, once.
 */
#ifndef GFXSTAT_SCREENS_H
#define GFXSTAT_SCREENS_H

#include <stddef.h>
#include <stdint.h>

#include "gfxstat_capture.h"

/* A PNG larger than this is refused (a 4K screen's is some 10 MB). */
#define GFXSTAT_SCREENS_MAX_BYTES (64u << 20)
/* a screencap not done in this long is given up, and no other is taken (a phone encodes one in
 * about half a second; a hung one would otherwise end the run with nothing said) */
#define GFXSTAT_SCREENS_TIMEOUT_NS (10 * (int64_t)1000000000)

struct gfxstat_screens_opts {
	int64_t period_ns;   /* one every period (> 0) */
	int64_t jank_gap_ns; /* at least this long between two asked for by janky frames
			      * (<= 0: 2 s) */
};

/* One screenshot. */
struct gfxstat_screen {
	int64_t time_ns;     /* when it was started, on the caller's clock (the @now_ns given) */
	int64_t uptime_ns;   /* the device's /proc/uptime just before, or INT64_MIN unknown */
	const char *why;     /* "period" or "jank" */
	const unsigned char *png;
	size_t n;
};

typedef void (*gfxstat_screen_fn)(void *user, const struct gfxstat_screen *s);

struct gfxstat_screens;

/* Return: NULL when memory ran out or @o is not valid. @t must outlive it. */
struct gfxstat_screens *gfxstat_screens_new(const struct gfxstat_adb_transport *t,
					    const struct gfxstat_screens_opts *o);
void gfxstat_screens_free(struct gfxstat_screens *x);

/**
 * gfxstat_screens_poll() - call often (every 50-200 ms): starts a screenshot when one is due
 * and none is running, reads what the running one has sent, and hands each complete PNG to
 * @fn. It waits for nothing.
 * @now_ns: the caller's clock (monotonic)
 * Return: 0; GFXSTAT_CAP_E_PERMISSION the first time the device refused (then nothing more
 * is taken); GFXSTAT_CAP_E_NOMEM.
 */
int gfxstat_screens_poll(struct gfxstat_screens *x, int64_t now_ns, gfxstat_screen_fn fn,
			 void *user);

/* A janky frame was seen at @now_ns: a screenshot as soon as none is running, unless one was
 * asked for so less than jank_gap_ns ago. Return: 1 when it was taken up, else 0. */
int gfxstat_screens_jank(struct gfxstat_screens *x, int64_t now_ns);

/**
 * gfxstat_screens_finish() - the recording ends: the running screenshot is read to its end
 * (waiting at most @wait_ms) and handed to @fn; none is started.
 * Return: as gfxstat_screens_poll().
 */
int gfxstat_screens_finish(struct gfxstat_screens *x, int wait_ms, gfxstat_screen_fn fn,
			   void *user);

/* Why the device's screencap was refused ("screencap: exit status 1: ..."), or NULL. */
const char *gfxstat_screens_refused(const struct gfxstat_screens *x);
/* Screenshots handed over so far. */
uint64_t gfxstat_screens_count(const struct gfxstat_screens *x);

/* Whether @p (@n bytes) is a whole PNG: its signature, chunks whose lengths fit, IHDR first
 * and IEND last (CRCs are not checked). */
int gfxstat_png_complete(const unsigned char *p, size_t n);

#endif
