/* SPDX-License-Identifier: MIT */
/*
 * A live capture (gfxstat_capture.h): the device's answers probed, the best source chosen in
 * the order (trace, perfetto, latency, gfxinfo, pageflip) and said why, the next one
 * tried when a source gives nothing, and tracing switched off whatever ended it.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture_local.h"

static const char *const source_names[] = { "auto", "trace", "perfetto", "latency", "gfxinfo",
					    "pageflip" };

const char *gfxstat_capture_source_name(enum gfxstat_capture_source s)
{
	return (unsigned)s < sizeof(source_names) / sizeof(source_names[0]) ? source_names[s] : "?";
}

int gfxstat_capture_source_parse(const char *name, enum gfxstat_capture_source *out)
{
	size_t i;

	for (i = 0; i < sizeof(source_names) / sizeof(source_names[0]); i++) {
		if (!strcmp(name, source_names[i])) {
			*out = (enum gfxstat_capture_source)i;
			return 0;
		}
	}
	return GFXSTAT_E_INVAL;
}

const char *gfxstat_capture_strerror(int err)
{
	switch (err) {
	case GFXSTAT_CAP_OK: return "ok";
	case GFXSTAT_CAP_E_NO_ADB: return "the adb client could not be run";
	case GFXSTAT_CAP_E_NO_DEVICE: return "no device attached";
	case GFXSTAT_CAP_E_UNAUTHORIZED: return "device unauthorized";
	case GFXSTAT_CAP_E_OFFLINE: return "device offline";
	case GFXSTAT_CAP_E_NO_PERMISSIONS: return "no permission to open the USB device";
	case GFXSTAT_CAP_E_STATE: return "device not in the normal (\"device\") state";
	case GFXSTAT_CAP_E_NOT_ANSWERING: return "the device does not answer";
	case GFXSTAT_CAP_E_PERMISSION: return "permission denied on the device";
	case GFXSTAT_CAP_E_NO_PROCESS: return "no such app or process on the device";
	case GFXSTAT_CAP_E_NO_LAYER: return "no SurfaceFlinger layer for the app";
	case GFXSTAT_CAP_E_NO_COUNTER: return "no page-flip counter";
	case GFXSTAT_CAP_E_NEED_APP: return "no app to measure";
	case GFXSTAT_CAP_E_LOST: return "the device or adb went away";
	case GFXSTAT_CAP_E_TRACING_ON: return "tracing may still be on";
	case GFXSTAT_CAP_E_FAILED: return "a device command failed";
	case GFXSTAT_CAP_E_NOMEM: return "out of memory";
	case GFXSTAT_CAP_E_NO_SOURCE: return "the device cannot give that source";
	case GFXSTAT_CAP_E_BAD_OPTION: return "an app or category name outside its grammar";
	}
	return "unknown capture error";
}

int gfxstat_capture_state_err(enum gfxstat_adb_state state)
{
	switch (state) {
	case GFXSTAT_ADB_DEVICE: return 0;
	case GFXSTAT_ADB_UNAUTHORIZED:
	case GFXSTAT_ADB_AUTHORIZING: return GFXSTAT_CAP_E_UNAUTHORIZED;
	case GFXSTAT_ADB_OFFLINE:
	case GFXSTAT_ADB_CONNECTING: return GFXSTAT_CAP_E_OFFLINE;
	case GFXSTAT_ADB_NO_PERMISSIONS: return GFXSTAT_CAP_E_NO_PERMISSIONS;
	default: return GFXSTAT_CAP_E_STATE;
	}
}

/* ---------------------------------------------------------------------------------------- */
/* helpers                                                                                   */

int64_t gx_cap_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * GFXSTAT_NSEC_PER_SEC + ts.tv_nsec;
}

void gx_cap_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

void gx_cap_log(struct gfxstat_capture *c, enum gfxstat_capture_level lvl, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (!c->sink.log)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->sink.log(c->sink.user, lvl, msg);
}

int gx_cap_shell(const struct gfxstat_adb_transport *t, char *out, size_t cap, const char *cmd)
{
	const char *args[] = { "shell", cmd, NULL };

	if (out && cap)
		out[0] = 0;
	return t->run(t->ctx, args, out, cap, 0);
}

void gx_cmd_init(struct gx_cmd *c, char *buf, size_t cap)
{
	c->p = buf;
	c->cap = cap;
	c->n = 0;
	c->err = cap ? 0 : GFXSTAT_E_LIMIT;
	if (cap)
		buf[0] = 0;
}

void gx_cmd_raw(struct gx_cmd *c, const char *syntax)
{
	size_t n = strlen(syntax);

	if (c->err)
		return;
	if (c->n + n >= c->cap) {
		c->err = GFXSTAT_E_LIMIT;
		return;
	}
	memcpy(c->p + c->n, syntax, n + 1);
	c->n += n;
}

void gx_cmd_word(struct gx_cmd *c, const char *w)
{
	size_t sp = c->n > 0, len;
	int rc;

	if (c->err)
		return;
	if (c->n + sp >= c->cap) {
		c->err = GFXSTAT_E_LIMIT;
		return;
	}
	rc = gfxstat_shell_quote(w, strlen(w), c->p + c->n + sp, c->cap - c->n - sp, &len);
	if (rc) {
		c->err = rc;
		c->p[c->n] = 0;
		return;
	}
	if (sp)
		c->p[c->n] = ' ';
	c->n += sp + len;
}

int gx_cap_shellv(const struct gfxstat_adb_transport *t, char *out, size_t cap,
		  const char *const *w)
{
	char line[4096];
	struct gx_cmd c;

	gx_cmd_init(&c, line, sizeof(line));
	for (; *w; w++)
		gx_cmd_word(&c, *w);
	if (c.err) {
		if (out && cap)
			out[0] = 0;
		return -1;
	}
	return gx_cap_shell(t, out, cap, line);
}

int gx_cap_raw(struct gfxstat_capture *c, const char *name, const void *buf, size_t n)
{
	int rc = c->sink.raw && n ? c->sink.raw(c->sink.user, name, buf, n) : 0;

	if (rc && !c->write_err)
		c->write_err = rc;
	return rc;
}

/* The focused app, "pkg/full.Activity", or "" when none. */
static void parse_focus(const char *text, char *out, size_t cap)
{
	struct gfxstat_focus f;

	out[0] = 0;
	if (gfxstat_focus_from_window(text, strlen(text), &f) == GFXSTAT_PARSE_OK &&
	    gfxstat_focus_component(&f, out, cap) >= cap)
		out[0] = 0;
}

int gx_cap_tick(struct gfxstat_capture *c)
{
	int64_t now = gx_cap_now_ns();
	const char *why = c->sink.stop ? c->sink.stop(c->sink.user) : NULL;

	if (c->sink.tick)
		c->sink.tick(c->sink.user);
	if (why) {
		snprintf(c->stopbuf, sizeof(c->stopbuf), "%s", why);
		c->stop_reason = c->stopbuf;
		return 1;
	}
	if (c->o.duration_ns > 0 && now - c->t0_ns >= c->o.duration_ns) {
		c->stop_reason = "duration reached";
		return 1;
	}
	if (now >= c->next_focus_ns && c->source != GFXSTAT_CAPTURE_PAGEFLIP) {
		/* follow the focused app as it changes, for the live view */
		if (gx_cap_shell(c->t, c->buf, GX_CAP_OUT_MAX, "dumpsys window") == 0)
			parse_focus(c->buf, c->dev.focus, sizeof(c->dev.focus));
		c->next_focus_ns = now + 5 * GFXSTAT_NSEC_PER_SEC;
	}
	gx_cap_context_tick(c, now);
	return 0;
}

int gx_cap_frame(void *user, const struct gfxstat_frame *f)
{
	struct gfxstat_capture *c = user;

	if (f->source == GFXSTAT_SRC_GFXINFO && f->fi[GFXSTAT_FI_INTENDED_VSYNC] > 0) {
		/* polls overlap: keep a row once, by its window and IntendedVsync */
		size_t i;

		for (i = 0; i < c->nseen; i++)
			if (strlen(c->seen[i].name) == f->layer.n &&
			    !memcmp(c->seen[i].name, f->layer.p, f->layer.n))
				break;
		if (i == c->nseen) {
			struct gx_cap_seen *s = realloc(c->seen, (i + 1) * sizeof(*s));
			char *name = malloc(f->layer.n + 1);

			if (!s || !name) {
				free(name);
				if (s)
					c->seen = s;
				return GFXSTAT_E_NOMEM;
			}
			memcpy(name, f->layer.p, f->layer.n);
			name[f->layer.n] = 0;
			c->seen = s;
			c->seen[i].name = name;
			c->seen[i].newest = 0;
			c->nseen++;
		}
		if (f->fi[GFXSTAT_FI_INTENDED_VSYNC] <= c->seen[i].newest)
			return 0;
		c->seen[i].newest = f->fi[GFXSTAT_FI_INTENDED_VSYNC];
	}
	c->frames++;
	if (f->source == GFXSTAT_SRC_SF_LATENCY && !f->app.n) {
		/* polled frames skip the model: name the app by the model's own rule, so the
		 * session's frames.csv is what `gfxstat frames` gives on its raw capture */
		struct gfxstat_frame named = *f;

		named.app = gfxstat_layer_app(f->layer.p, f->layer.n);
		return c->sink.frame ? c->sink.frame(c->sink.user, &named) : 0;
	}
	return c->sink.frame ? c->sink.frame(c->sink.user, f) : 0;
}

void gx_cap_package(const struct gfxstat_capture *c, char *pkg, size_t cap)
{
	snprintf(pkg, cap, "%s", c->o.app ? c->o.app : c->dev.focus);
	pkg[strcspn(pkg, "/")] = 0;
}

/* ---------------------------------------------------------------------------------------- */
/* devices                                                                                   */

int gfxstat_device_list(const struct gfxstat_adb_transport *t, struct gfxstat_device_entry *out,
			int max)
{
	const char *args[] = { "devices", "-l", NULL };
	char *buf = malloc(GX_CAP_OUT_MAX);
	struct gfxstat_str text;
	struct gfxstat_adb_device dv;
	int n = 0;

	if (!buf)
		return GFXSTAT_CAP_E_NOMEM;
	if (t->run(t->ctx, args, buf, GX_CAP_OUT_MAX, 0) != 0) {
		free(buf);
		return GFXSTAT_CAP_E_NO_ADB;
	}
	text.p = buf;
	text.n = strlen(buf);
	while (n < max && gfxstat_adb_devices_next(&text, &dv) == 1) {
		struct gfxstat_device_entry *e = &out[n++];

		memset(e, 0, sizeof(*e));
		snprintf(e->serial, sizeof(e->serial), "%.*s", (int)dv.serial.n, dv.serial.p);
		snprintf(e->state_text, sizeof(e->state_text), "%.*s", (int)dv.state_text.n,
			 dv.state_text.p);
		snprintf(e->model, sizeof(e->model), "%.*s", (int)dv.model.n, dv.model.p);
		e->state = dv.state;
	}
	free(buf);
	return n;
}

/* The refresh rates of the built-in display, "60 90 120", from `dumpsys display`. */
static void parse_modes(const char *text, char *out, size_t cap)
{
	struct gfxstat_display_rates r;
	size_t off = 0;
	uint32_t i;

	out[0] = 0;
	if (gfxstat_display_rates_parse(text, strlen(text), &r) != GFXSTAT_PARSE_OK)
		return;
	for (i = 0; i < r.n && off < cap; i++)
		off += (size_t)snprintf(out + off, cap - off, "%s%g", i ? " " : "",
					(double)r.mhz[i] / 1000.0);
}

/* A getprop answer into @dst ("" when unset). */
static void prop(const char *text, char *dst, size_t cap)
{
	struct gfxstat_str v;

	dst[0] = 0;
	if (gfxstat_getprop_value(text, strlen(text), &v) == GFXSTAT_PARSE_OK)
		snprintf(dst, cap, "%.*s", (int)v.n, v.p);
}

int gfxstat_device_probe(const struct gfxstat_adb_transport *t, const char *tracefs,
			 struct gfxstat_device_info *d)
{
	char *buf = malloc(GX_CAP_OUT_MAX);
	int64_t uid = -1;

	if (!buf)
		return GFXSTAT_CAP_E_NOMEM;
	if (gx_cap_shell(t, buf, GX_CAP_OUT_MAX, "getprop ro.product.model") != 0) {
		free(buf);
		return GFXSTAT_CAP_E_NOT_ANSWERING;
	}
	prop(buf, d->model, sizeof(d->model));
	gx_cap_shell(t, buf, GX_CAP_OUT_MAX, "getprop ro.build.version.release");
	prop(buf, d->release, sizeof(d->release));
	gx_cap_shell(t, buf, GX_CAP_OUT_MAX, "getprop ro.build.version.sdk");
	d->sdk = (int)strtol(buf, NULL, 10);
	d->tracefs[0] = 0;
	if (tracefs && *tracefs) {
		snprintf(d->tracefs, sizeof(d->tracefs), "%s", tracefs);
	} else if (gx_cap_shell(t, buf, GX_CAP_OUT_MAX, "ls -d /sys/kernel/tracing/trace_pipe "
				"/sys/kernel/debug/tracing/trace_pipe") >= 0) {
		struct gfxstat_str dir;

		if (gfxstat_tracefs_detect(buf, strlen(buf), &dir) == GFXSTAT_PARSE_OK)
			snprintf(d->tracefs, sizeof(d->tracefs), "%.*s", (int)dir.n, dir.p);
	}
	gx_cap_shell(t, buf, GX_CAP_OUT_MAX, "id -u");
	d->root = gfxstat_id_uid(buf, strlen(buf), &uid) == GFXSTAT_PARSE_OK && uid == 0;
	d->perfetto = gx_cap_shell(t, buf, GX_CAP_OUT_MAX, "which perfetto") == 0 &&
		      strchr(buf, '/');
	gx_cap_shell(t, buf, GX_CAP_OUT_MAX, "dumpsys SurfaceFlinger --latency");
	if (gfxstat_sf_latency_period(buf, strlen(buf), &d->period_ns) != GFXSTAT_PARSE_OK)
		d->period_ns = 0;
	gx_cap_shell(t, buf, GX_CAP_OUT_MAX, "dumpsys display");
	parse_modes(buf, d->modes, sizeof(d->modes));
	gx_cap_shell(t, buf, GX_CAP_OUT_MAX, "dumpsys window");
	parse_focus(buf, d->focus, sizeof(d->focus));
	d->tracing_on = -1;
	if (d->tracefs[0]) {
		/* the folder is the device's answer (or GFXSTAT_TRACEFS): one quoted word */
		char path[600];
		const char *w[] = { "cat", path, NULL };

		snprintf(path, sizeof(path), "%s/tracing_on", d->tracefs);
		if (gx_cap_shellv(t, buf, GX_CAP_OUT_MAX, w) != 0 ||
		    gfxstat_tracing_on_parse(buf, strlen(buf), &d->tracing_on) != GFXSTAT_PARSE_OK)
			d->tracing_on = -1;
	}
	free(buf);
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* the capture                                                                               */

struct gfxstat_capture *gfxstat_capture_new(const struct gfxstat_adb_transport *t,
					    const struct gfxstat_capture_opts *o,
					    const struct gfxstat_capture_sink *sink)
{
	struct gfxstat_capture *c = calloc(1, sizeof(*c));
	struct gfxstat_source_sink ss = { gx_cap_frame, NULL, NULL, 0 };

	if (!c)
		return NULL;
	c->t = t;
	c->o = *o;
	if (!c->o.categories)
		c->o.categories = "gfx view input";
	if (!c->o.serial)
		c->o.serial = "device";
	c->sink = *sink;
	ss.user = c;
	c->buf = malloc(GX_CAP_OUT_MAX);
	c->src = gfxstat_source_new(&ss);
	if (!c->buf || !c->src) {
		gfxstat_capture_free(c);
		return NULL;
	}
	snprintf(c->dev.serial, sizeof(c->dev.serial), "%s", c->o.serial);
	c->pf.poll_ms = c->o.poll_ms > 0 ? c->o.poll_ms : 1000;
	return c;
}

void gfxstat_capture_free(struct gfxstat_capture *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nseen; i++)
		free(c->seen[i].name);
	free(c->seen);
	gx_cap_context_free(c);
	gfxstat_source_free(c->src);
	free(c->buf);
	free(c);
}

/* Pick the best source the device allows (the order), and say why. */
static enum gfxstat_capture_source choose(struct gfxstat_capture *c,
					  enum gfxstat_capture_source want)
{
	const struct gfxstat_device_info *d = &c->dev;

	if (want != GFXSTAT_CAPTURE_AUTO) {
		c->why = "asked for with --source";
		return want;
	}
	if (d->tracefs[0]) {
		c->why = "trace_pipe is reachable: atrace streamed live";
		return GFXSTAT_CAPTURE_TRACE;
	}
	/* on the phone itself (--local) Perfetto's trace file cannot be pulled: not chosen */
	if (d->sdk >= 31 && d->perfetto && !c->o.local) {
		c->why = "no trace_pipe; Android 12+ with perfetto: FrameTimeline";
		return GFXSTAT_CAPTURE_PERFETTO;
	}
	if (c->o.app || d->focus[0]) {
		/* gfxinfo follows at run time when the app has no layer (fall_back()) */
		c->why = "no trace_pipe or Perfetto: SurfaceFlinger --latency polls";
		return GFXSTAT_CAPTURE_LATENCY;
	}
	/* latency and gfxinfo need an app; without one only the whole display is left */
	c->why = "no trace_pipe, Perfetto or app to poll: the whole display's page-flip count "
		 "(SurfaceFlinger 1013), not frames of an app";
	return GFXSTAT_CAPTURE_PAGEFLIP;
}

static int in_set(char ch, const char *set)
{
	return ch && strchr(set, ch) != NULL;
}

#define ALNUM_ "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"

/* A Java package name ("com.example.app2"): no ':' (that is a process of the package). */
static int package_name_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!in_set(*s, ALNUM_ "."))
			return 0;
	return 1;
}

int gfxstat_capture_app_valid(const char *app)
{
	size_t n = app ? strlen(app) : 0;

	return n > 0 && n < 256 && strspn(app, ALNUM_ ".:") == n;
}

int gfxstat_capture_categories_valid(const char *list)
{
	int words = 0;

	if (!list)
		return 0;
	while (*list) {
		size_t n = strspn(list, ALNUM_);

		if (n) {
			words++;
			list += n;
		} else if (in_set(*list, " ,")) {
			list++;
		} else {
			return 0;
		}
	}
	return words > 0 && words <= GFXSTAT_CATEGORIES_MAX;
}

/* The app measured and its version, from one `dumpsys package PKG` (issue 10). */
static void app_version(struct gfxstat_capture *c)
{
	struct gfxstat_device_info *d = &c->dev;
	struct gfxstat_pkg_version v;
	const char *w[] = { "dumpsys", "package", d->app, NULL };

	d->app_version_name[0] = 0;
	d->app_version_code = -1;
	gx_cap_package(c, d->app, sizeof(d->app));
	if (!package_name_ok(d->app))
		return;
	/* not started or over the time: what came may be cut anywhere */
	if (gx_cap_shellv(c->t, c->buf, GX_CAP_OUT_MAX, w) < 0)
		return;
	if (gfxstat_pkg_version_parse(c->buf, strlen(c->buf), d->app, &v) != GFXSTAT_PARSE_OK)
		return;
	if (v.name.n < sizeof(d->app_version_name))
		snprintf(d->app_version_name, sizeof(d->app_version_name), "%.*s", (int)v.name.n,
			 v.name.p);
	d->app_version_code = v.code;
}

/* The sources this device can give, as probed: "trace, latency, gfxinfo, pageflip". */
static const char *sources_here(const struct gfxstat_capture *c, char *buf, size_t cap)
{
	const struct gfxstat_device_info *d = &c->dev;
	int app = c->o.app || d->focus[0];
	size_t n;

	/* Android 13+ answers the page-flip transaction with an empty Parcel (unused there) */
	snprintf(buf, cap, "%s%s%s%s", d->tracefs[0] ? "trace, " : "",
		 d->perfetto && !c->o.local ? "perfetto, " : "", app ? "latency, gfxinfo, " : "",
		 d->sdk < 33 ? "pageflip" : "");
	n = strlen(buf);
	if (n >= 2 && buf[n - 2] == ',')
		buf[n - 2] = 0;
	else if (!n)
		snprintf(buf, cap, "none of the sources");
	return buf;
}

/* A source asked for with --source that this device cannot give: said why and what can.
 * Return: 0, or the GFXSTAT_CAP_E_* code after a GFXSTAT_LOG_ERROR message. */
static int refuse_source(struct gfxstat_capture *c)
{
	const struct gfxstat_device_info *d = &c->dev;
	const char *name = gfxstat_capture_source_name(c->source);
	char can[80];

	switch (c->source) {
	case GFXSTAT_CAPTURE_TRACE:
		if (d->tracefs[0])
			return 0;
		gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: --source trace: trace_pipe is not reachable "
			   "(no tracefs, or permission denied); this device can give: %s",
			   d->serial, sources_here(c, can, sizeof(can)));
		return GFXSTAT_CAP_E_PERMISSION;
	case GFXSTAT_CAPTURE_PERFETTO:
		if (c->o.local) {
			gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: --source perfetto cannot run on the phone "
				   "itself (its trace is pulled by the host): record it without "
				   "--on-device", d->serial);
			return GFXSTAT_CAP_E_NO_SOURCE;
		}
		if (d->perfetto)
			return 0;
		gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: --source perfetto: no perfetto on this device "
			   "(Android %s, SDK %d; FrameTimeline needs Android 12); it can give: %s",
			   d->serial, d->release[0] ? d->release : "?", d->sdk,
			   sources_here(c, can, sizeof(can)));
		return GFXSTAT_CAP_E_NO_SOURCE;
	case GFXSTAT_CAPTURE_LATENCY:
	case GFXSTAT_CAPTURE_GFXINFO:
		if (c->o.app || d->focus[0])
			return 0;
		gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: --source %s needs --app PKG: no focused app "
			   "found; without an app this device can give: %s", d->serial, name,
			   sources_here(c, can, sizeof(can)));
		return GFXSTAT_CAP_E_NEED_APP;
	default:
		return 0;
	}
}

int gfxstat_capture_start(struct gfxstat_capture *c)
{
	int rc;

	/* the caller checks these with a message of its own; this is the library's guard */
	if ((c->o.app && !gfxstat_capture_app_valid(c->o.app)) ||
	    !gfxstat_capture_categories_valid(c->o.categories)) {
		gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: the app '%s' or the categories '%s' are not "
			   "names Android uses", c->o.serial, c->o.app ? c->o.app : "",
			   c->o.categories);
		return GFXSTAT_CAP_E_BAD_OPTION;
	}
	rc = gfxstat_device_probe(c->t, c->o.tracefs, &c->dev);
	if (rc) {
		gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: the device does not answer", c->dev.serial);
		return rc;
	}
	app_version(c);
	c->source = choose(c, c->o.want);
	rc = refuse_source(c);
	if (rc)
		return rc;
	if (c->sink.source)
		c->sink.source(c->sink.user);
	return 0;
}

/* Whether --latency has no layer to poll for the app (auto then tries gfxinfo). */
static int no_layer(struct gfxstat_capture *c)
{
	char layer[400], pkg[256];

	gx_cap_package(c, pkg, sizeof(pkg));
	return !pkg[0] || gx_cap_pick_layer(c, pkg, layer, sizeof(layer)) != 0;
}

/* The source gave nothing: the next one in the auto order, said why.
 * Return: 1 with c->source and c->why set, 0 when there is none. */
static int fall_back(struct gfxstat_capture *c)
{
	if (c->source == GFXSTAT_CAPTURE_TRACE) {
		c->dev.tracefs[0] = 0;
		c->source = choose(c, GFXSTAT_CAPTURE_AUTO);
		snprintf(c->whybuf, sizeof(c->whybuf), "trace_pipe gave nothing (permission "
			 "denied?): %s", c->why);
	} else if (c->source == GFXSTAT_CAPTURE_LATENCY) {
		c->source = GFXSTAT_CAPTURE_GFXINFO;
		snprintf(c->whybuf, sizeof(c->whybuf), "no SurfaceFlinger layer for the app: "
			 "gfxinfo framestats polls");
	} else {
		return 0;
	}
	c->why = c->whybuf;
	gx_cap_log(c, GFXSTAT_LOG_WARN, "%s: %s", c->dev.serial, c->why);
	if (c->sink.source)
		c->sink.source(c->sink.user);
	return 1;
}

/* Switch the device's tracing off, waiting for it to come back if it went away. */
static void tracing_off(struct gfxstat_capture *c)
{
	const char *wait_args[] = { "wait-for-device", NULL };
	int i;

	for (i = 0; i < 2; i++) {
		if (gx_cap_shell(c->t, NULL, 0, "atrace --async_stop -o /dev/null") == 0)
			return;
		if (i == 0 && !c->o.local) {
			gx_cap_log(c, GFXSTAT_LOG_WARN, "%s: cannot switch tracing off now; waiting "
				   "up to %d s for the device", c->dev.serial, c->o.reconnect_s);
			c->t->run(c->t->ctx, wait_args, NULL, 0,
				  c->o.reconnect_s > 0 ? c->o.reconnect_s : 1);
		}
	}
	gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: tracing may still be on; run: adb -s %s shell atrace "
		   "--async_stop", c->dev.serial, c->dev.serial);
	if (!c->err)
		c->err = GFXSTAT_CAP_E_TRACING_ON;
}

int gfxstat_capture_run(struct gfxstat_capture *c)
{
	int explicit = c->o.want != GFXSTAT_CAPTURE_AUTO, rc;

	c->t0_ns = gx_cap_now_ns();
	c->next_focus_ns = c->t0_ns + 5 * GFXSTAT_NSEC_PER_SEC;
	for (;;) {
		switch (c->source) {
		case GFXSTAT_CAPTURE_TRACE:
			rc = gx_cap_trace(c);
			break;
		case GFXSTAT_CAPTURE_PERFETTO:
			rc = gx_cap_perfetto(c);
			break;
		case GFXSTAT_CAPTURE_PAGEFLIP:
			rc = gx_cap_pageflip(c);
			break;
		case GFXSTAT_CAPTURE_LATENCY:
			rc = !explicit && no_layer(c) ? 1 : gx_cap_polls(c);
			break;
		default:
			rc = gx_cap_polls(c);
			break;
		}
		if (rc != 1)
			break;
		if (c->source == GFXSTAT_CAPTURE_TRACE && explicit) {
			gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: permission denied reading %s/trace_pipe: "
				   "it needs root or a userdebug build; try --source perfetto or "
				   "latency", c->dev.serial, c->dev.tracefs);
			rc = GFXSTAT_CAP_E_PERMISSION;
			break;
		}
		if (!fall_back(c)) {
			rc = GFXSTAT_CAP_E_FAILED;
			break;
		}
	}
	if (rc < 0 && !c->err)
		c->err = rc;
	if (c->source == GFXSTAT_CAPTURE_TRACE || c->source == GFXSTAT_CAPTURE_PERFETTO)
		gfxstat_source_end(c->src);
	if (c->source == GFXSTAT_CAPTURE_TRACE)
		tracing_off(c);
	if (!c->stop_reason)
		c->stop_reason = c->err ? gfxstat_capture_strerror(c->err) : "the source ended";
	return c->err;
}

const struct gfxstat_device_info *gfxstat_capture_device(const struct gfxstat_capture *c)
{
	return &c->dev;
}

enum gfxstat_capture_source gfxstat_capture_source(const struct gfxstat_capture *c)
{
	return c->source;
}

const char *gfxstat_capture_reason(const struct gfxstat_capture *c)
{
	return c->why ? c->why : "";
}

const char *gfxstat_capture_stop_reason(const struct gfxstat_capture *c)
{
	return c->stop_reason;
}

uint64_t gfxstat_capture_frames(const struct gfxstat_capture *c)
{
	return c->frames;
}

const struct gfxstat_pageflip_totals *gfxstat_capture_pageflip(const struct gfxstat_capture *c)
{
	return &c->pf;
}

const struct gfxstat_source_summary *gfxstat_capture_summary(const struct gfxstat_capture *c)
{
	return c->source == GFXSTAT_CAPTURE_TRACE || c->source == GFXSTAT_CAPTURE_PERFETTO
	       ? gfxstat_source_summary(c->src) : NULL;
}
