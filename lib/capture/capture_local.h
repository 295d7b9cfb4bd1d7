/* SPDX-License-Identifier: MIT */
/* Internals of lib/capture, shared by its files (gfxstat_capture.h is the API). */
#ifndef CAPTURE_LOCAL_H
#define CAPTURE_LOCAL_H

#include "gfxstat/gfxstat_capture.h"

#if defined(__GNUC__)
#define GX_CAP_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define GX_CAP_HIDDEN __attribute__((visibility("hidden")))
#else
#define GX_CAP_PRINTF(a, b)
#define GX_CAP_HIDDEN
#endif

/* Output of one device command: enough for dumpsys window and SurfaceFlinger --list. */
#define GX_CAP_OUT_MAX (1 << 20)

/* A window's newest IntendedVsync, to drop gfxinfo rows an earlier poll gave. */
struct gx_cap_seen {
	char *name;
	int64_t newest;
};

struct gfxstat_capture {
	const struct gfxstat_adb_transport *t;
	struct gfxstat_capture_opts o;
	struct gfxstat_capture_sink sink;
	struct gfxstat_device_info dev;
	enum gfxstat_capture_source source;
	const char *why;
	char whybuf[256];
	const char *stop_reason;
	char stopbuf[128];
	int err;                    /* the first GFXSTAT_CAP_E_* of the run */
	int write_err;              /* sink->raw failed */
	uint64_t frames;
	struct gfxstat_source *src; /* trace and Perfetto: the entry point */
	struct gx_cap_seen *seen;
	size_t nseen;
	struct gfxstat_pageflip_totals pf;
	int64_t t0_ns, next_focus_ns;
	char *buf;                  /* GX_CAP_OUT_MAX */
	struct gx_ctx *ctx;         /* the device's context (capture_context.c), or NULL */
};

GX_CAP_HIDDEN int64_t gx_cap_now_ns(void);
GX_CAP_HIDDEN void gx_cap_sleep_ms(long ms);
GX_CAP_HIDDEN void gx_cap_log(struct gfxstat_capture *c, enum gfxstat_capture_level lvl,
			      const char *fmt, ...) GX_CAP_PRINTF(3, 4);
/* Run `shell CMD` on the device; output in @out (may be NULL). Return: its exit status.
 * @cmd is shell text: only constants of this folder, or a line gx_cmd built. */
GX_CAP_HIDDEN int gx_cap_shell(const struct gfxstat_adb_transport *t, char *out, size_t cap,
			       const char *cmd);

/*
 * A command line for the device's shell, built from words that gfxstat_shell_quote() writes
 * and shell syntax that this folder writes (" && ", " > "). The first failure sticks: a word
 * with a NUL, or a line longer than @cap, is never run cut short.
 */
struct gx_cmd {
	char *p;
	size_t cap, n;
	int err;      /* 0, GFXSTAT_E_INVAL (a NUL) or GFXSTAT_E_LIMIT (too long) */
};

GX_CAP_HIDDEN void gx_cmd_init(struct gx_cmd *c, char *buf, size_t cap);
/* One quoted word, after a space when the line is not empty. */
GX_CAP_HIDDEN void gx_cmd_word(struct gx_cmd *c, const char *w);
/* Shell syntax, as it is: string constants of lib/capture only, never data. */
GX_CAP_HIDDEN void gx_cmd_raw(struct gx_cmd *c, const char *syntax);
/* Run the words @w (NULL terminated), each quoted, as one command on the device.
 * Return: its exit status, or -1 when the line cannot be built (nothing runs). */
GX_CAP_HIDDEN int gx_cap_shellv(const struct gfxstat_adb_transport *t, char *out, size_t cap,
				const char *const *w);
GX_CAP_HIDDEN int gx_cap_raw(struct gfxstat_capture *c, const char *name, const void *buf,
			     size_t n);
/* The stop test and the periodic work of every loop. Return: 1 when it must stop. */
GX_CAP_HIDDEN int gx_cap_tick(struct gfxstat_capture *c);
GX_CAP_HIDDEN int gx_cap_frame(void *user, const struct gfxstat_frame *f);
/* The app to poll: --app, else the focused one's package, into @pkg ("" when none). */
GX_CAP_HIDDEN void gx_cap_package(const struct gfxstat_capture *c, char *pkg, size_t cap);
GX_CAP_HIDDEN int gx_cap_pick_layer(struct gfxstat_capture *c, const char *pkg, char *out,
				    size_t cap);

/* The device's context (capture_context.c): a sample when one is due (from gx_cap_tick());
 * the atrace categories with the thread-state ones the device lists, into @out; the end. */
GX_CAP_HIDDEN void gx_cap_context_tick(struct gfxstat_capture *c, int64_t now);
GX_CAP_HIDDEN void gx_cap_context_categories(struct gfxstat_capture *c, char *out, size_t cap);
/* The ftrace events a Perfetto capture adds for thread states and the system series, as
 * ftrace_config lines (none when the context is off). */
GX_CAP_HIDDEN void gx_cap_context_ftrace(const struct gfxstat_capture *c, char *out, size_t cap);
GX_CAP_HIDDEN void gx_cap_context_free(struct gfxstat_capture *c);

/* The sources; each returns 0, a GFXSTAT_CAP_E_* code, or 1 when it gave nothing at all
 * and the next source should be tried. */
GX_CAP_HIDDEN int gx_cap_trace(struct gfxstat_capture *c);
GX_CAP_HIDDEN int gx_cap_perfetto(struct gfxstat_capture *c);
GX_CAP_HIDDEN int gx_cap_polls(struct gfxstat_capture *c);
GX_CAP_HIDDEN int gx_cap_pageflip(struct gfxstat_capture *c);

#endif
