/* SPDX-License-Identifier: MIT */
/*
 * Screenshots beside the frames (gfxstat_screens.h): `adb exec-out screencap -p` started as a
 * stream and drained by each poll, so the capture's loop never waits for the device to encode
 * a PNG (half a second on a phone). `exec-out`, not `shell`: a shell's pty would turn the
 * PNG's "\n" into "\r\n" (AOSP frameworks/base/cmds/screencap/screencap.cpp writes the PNG to
 * standard output with -p).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfxstat/gfxstat_device_context.h"
#include "gfxstat/gfxstat_screens.h"

struct gfxstat_screens {
	const struct gfxstat_adb_transport *t;
	int64_t period_ns, gap_ns;
	int64_t next_ns;       /* the next periodic one */
	int64_t last_jank_ns;  /* when a janky frame last asked for one */
	int want_jank;
	void *stream;          /* the running screencap, or NULL */
	int64_t started_ns, uptime_ns;
	const char *why;
	unsigned char *buf;
	size_t n, cap;
	int refused;
	char reason[160];
	uint64_t count;
};

static const unsigned char png_sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int gfxstat_png_complete(const unsigned char *p, size_t n)
{
	size_t o = 8;
	int first = 1;

	if (n < 8 || memcmp(p, png_sig, 8))
		return 0;
	/* chunks: length, type, data, CRC (the PNG specification, section 5.3) */
	while (o + 12 <= n) {
		uint32_t len = be32(p + o);

		if (len > n - o - 12)
			return 0;
		if (first && memcmp(p + o + 4, "IHDR", 4))
			return 0;
		first = 0;
		if (!memcmp(p + o + 4, "IEND", 4))
			return o + 12 + len == n;
		o += 12 + (size_t)len;
	}
	return 0;
}

struct gfxstat_screens *gfxstat_screens_new(const struct gfxstat_adb_transport *t,
					    const struct gfxstat_screens_opts *o)
{
	struct gfxstat_screens *x;

	if (!t || !o || o->period_ns <= 0)
		return NULL;
	x = calloc(1, sizeof(*x));
	if (!x)
		return NULL;
	x->t = t;
	x->period_ns = o->period_ns;
	x->gap_ns = o->jank_gap_ns > 0 ? o->jank_gap_ns : 2000000000;
	x->next_ns = INT64_MIN; /* the first at once */
	x->last_jank_ns = INT64_MIN;
	return x;
}

void gfxstat_screens_free(struct gfxstat_screens *x)
{
	if (!x)
		return;
	if (x->stream)
		x->t->stream_stop(x->stream);
	free(x->buf);
	free(x);
}

const char *gfxstat_screens_refused(const struct gfxstat_screens *x)
{
	return x && x->refused ? x->reason : NULL;
}

uint64_t gfxstat_screens_count(const struct gfxstat_screens *x)
{
	return x ? x->count : 0;
}

int gfxstat_screens_jank(struct gfxstat_screens *x, int64_t now_ns)
{
	if (!x || x->refused || x->want_jank ||
	    (x->last_jank_ns != INT64_MIN && now_ns - x->last_jank_ns < x->gap_ns))
		return 0;
	x->want_jank = 1;
	x->last_jank_ns = now_ns;
	return 1;
}

/* The device's clock, just before the screenshot (unknown when it does not answer). */
static int64_t device_uptime(const struct gfxstat_screens *x)
{
	static const char *const args[] = { "shell", "cat /proc/uptime", NULL };
	char out[128];
	int64_t ns;

	if (x->t->run(x->t->ctx, args, out, sizeof(out), 5) != 0 ||
	    gfxstat_ctx_uptime(out, strlen(out), &ns) != GFXSTAT_PARSE_OK)
		return INT64_MIN;
	return ns;
}

static int start(struct gfxstat_screens *x, int64_t now_ns, const char *why)
{
	static const char *const args[] = { "exec-out", "screencap -p", NULL };

	x->uptime_ns = device_uptime(x);
	x->stream = x->t->stream_start(x->t->ctx, args, NULL, 0);
	x->started_ns = now_ns;
	x->why = why;
	x->n = 0;
	if (!x->stream) {
		snprintf(x->reason, sizeof(x->reason), "screencap: adb could not be started");
		x->refused = 1;
		return GFXSTAT_CAP_E_PERMISSION;
	}
	return 0;
}

/* What came back, in a few words: its first line when it is text. */
static void say_refused(struct gfxstat_screens *x, int status)
{
	size_t i, k = 0;
	char text[100];

	for (i = 0; i < x->n && k < sizeof(text) - 1 && x->buf[i] != '\n'; i++)
		if (x->buf[i] >= 0x20 && x->buf[i] < 0x7f)
			text[k++] = (char)x->buf[i];
	text[k] = 0;
	if (!x->n)
		snprintf(x->reason, sizeof(x->reason), "screencap -p gave nothing (exit status %d)",
			 status);
	else if (x->n >= 8 && !memcmp(x->buf, png_sig, 8))
		snprintf(x->reason, sizeof(x->reason), "screencap -p gave an incomplete PNG (%zu "
			 "bytes, exit status %d)", x->n, status);
	else
		snprintf(x->reason, sizeof(x->reason), "screencap -p gave no PNG (exit status %d): "
			 "%s", status, text);
	x->refused = 1;
}

/* The stream ended: a whole PNG is handed over; anything else is a refusal. */
static int done(struct gfxstat_screens *x, gfxstat_screen_fn fn, void *user)
{
	int status = x->t->stream_stop(x->stream);
	struct gfxstat_screen s;

	x->stream = NULL;
	if (!gfxstat_png_complete(x->buf, x->n)) {
		say_refused(x, status);
		return GFXSTAT_CAP_E_PERMISSION;
	}
	s.time_ns = x->started_ns;
	s.uptime_ns = x->uptime_ns;
	s.why = x->why;
	s.png = x->buf;
	s.n = x->n;
	x->count++;
	if (fn)
		fn(user, &s);
	return 0;
}

/* Read what is there (waiting at most @wait_ms the first time). Return: 1 ended, 0 not yet,
 * or a GFXSTAT_CAP_E_* code. */
static int drain(struct gfxstat_screens *x, int wait_ms)
{
	for (;;) {
		long got;

		if (x->cap - x->n < 65536) {
			size_t nc = x->cap ? x->cap * 2 : 1u << 20;
			unsigned char *b;

			if (nc > GFXSTAT_SCREENS_MAX_BYTES + 65536) {
				x->t->stream_stop(x->stream);
				x->stream = NULL;
				snprintf(x->reason, sizeof(x->reason), "screencap -p gave over %u MB",
					 GFXSTAT_SCREENS_MAX_BYTES >> 20);
				x->refused = 1;
				return GFXSTAT_CAP_E_PERMISSION;
			}
			b = realloc(x->buf, nc);
			if (!b)
				return GFXSTAT_CAP_E_NOMEM;
			x->buf = b;
			x->cap = nc;
		}
		got = x->t->stream_read(x->stream, x->buf + x->n, x->cap - x->n, wait_ms);
		if (got < 0)
			return 1;
		if (got == 0)
			return 0;
		x->n += (size_t)got;
		wait_ms = 0;
	}
}

int gfxstat_screens_poll(struct gfxstat_screens *x, int64_t now_ns, gfxstat_screen_fn fn,
			 void *user)
{
	int rc;

	if (!x || x->refused)
		return 0;
	if (x->stream) {
		rc = drain(x, 0);
		if (rc == 1)
			return done(x, fn, user);
		if (rc == 0 && now_ns - x->started_ns > GFXSTAT_SCREENS_TIMEOUT_NS) {
			x->t->stream_stop(x->stream);
			x->stream = NULL;
			snprintf(x->reason, sizeof(x->reason), "screencap -p did not finish in %d s "
				 "(%zu bytes came)", (int)(GFXSTAT_SCREENS_TIMEOUT_NS / 1000000000),
				 x->n);
			x->refused = 1;
			return GFXSTAT_CAP_E_PERMISSION;
		}
		return rc;
	}
	if (x->want_jank) {
		x->want_jank = 0;
		return start(x, now_ns, "jank");
	}
	if (x->next_ns == INT64_MIN || now_ns >= x->next_ns) {
		/* on the period's grid from the first, however late this one is */
		if (x->next_ns == INT64_MIN)
			x->next_ns = now_ns;
		while (x->next_ns <= now_ns)
			x->next_ns += x->period_ns;
		return start(x, now_ns, "period");
	}
	return 0;
}

int gfxstat_screens_finish(struct gfxstat_screens *x, int wait_ms, gfxstat_screen_fn fn,
			   void *user)
{
	int rc = 0, left = wait_ms;

	if (!x || !x->stream)
		return 0;
	while (left > 0 && !(rc = drain(x, 100)))
		left -= 100;
	if (rc == 1)
		return done(x, fn, user);
	if (rc == 0) {
		/* still running: dropped; a refusal only when none ever came (a hung screencap
		 * must be said, not end the run with nothing), else the device was slow at the end */
		x->t->stream_stop(x->stream);
		x->stream = NULL;
		if (!x->count) {
			snprintf(x->reason, sizeof(x->reason), "screencap -p did not finish by the end "
				 "of the recording (%zu bytes came)", x->n);
			x->refused = 1;
			return GFXSTAT_CAP_E_PERMISSION;
		}
	}
	return rc < 0 ? rc : 0;
}
