/* SPDX-License-Identifier: MIT */
/*
 * One device's recording: the library captures (gfxstat_capture.h); this file keeps the
 * session folder (the raw capture, device.json, frames.csv, summary.json, the seed's
 * fps.csv/dropFrames.csv, pageflip.csv, context.csv), all written as it goes, and draws the
 * live view.
 * Nothing is lost: a folder holding a session is never written into unless --overwrite,
 * and a default folder is fresh and unique.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_source.h"
#include "cli_store.h"
#include "cmd_record.h"
#include "cmd_report.h"

/* What a session folder may hold: each is removed by --overwrite, so no two sessions mix. */
static const char *const session_files[] = {
	"device.json", "summary.json", "frames.csv", "fps.csv", "dropFrames.csv", "pageflip.csv",
	"context.csv", "trace.txt.gz", "trace.pftrace", "latency.txt.gz", "gfxinfo.txt.gz",
	"pageflip.txt.gz", "report.html", "screens.csv", NULL,
};

/* --screenshots: the PNGs in SESSION/screens/, named by their time from the start */
#define SCREENS_DIR "screens"

/* Remove @dir/screens and the PNGs in it (only what record writes there). Return: 0 or an
 * errno value. */
static int screens_clear(const char *dir)
{
	char path[1024];
	struct dirent *e;
	DIR *d;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/" SCREENS_DIR, dir);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? 0 : errno;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char f[1400];

		if (n < 5 || strcmp(e->d_name + n - 4, ".png"))
			continue;
		snprintf(f, sizeof(f), "%s/%s", path, e->d_name);
		if (unlink(f) && errno != ENOENT && !rc)
			rc = errno;
	}
	closedir(d);
	if (!rc && rmdir(path) && errno != ENOENT)
		rc = errno;
	return rc;
}

/* Whether @dir holds a file of a session. */
static int dir_held(const char *dir)
{
	char path[1024];
	int i;

	for (i = 0; session_files[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, session_files[i]);
		if (!access(path, F_OK))
			return 1;
	}
	snprintf(path, sizeof(path), "%s/" SCREENS_DIR, dir);
	return !access(path, F_OK);
}

int cmd_record_dir_check(const char *dir, int overwrite)
{
	if (dir_held(dir) && !overwrite) {
		cli_error("'%s' already holds a session: give --overwrite to replace it, or another "
			  "folder with -o", dir);
		return CLI_USAGE;
	}
	return CLI_OK;
}

int cmd_record_dir_clear(const char *dir)
{
	char path[1024];
	int i;

	for (i = 0; session_files[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, session_files[i]);
		if (unlink(path) && errno != ENOENT) {
			cli_error("cannot remove '%s': %s", path, strerror(errno));
			return CLI_OUTPUT;
		}
	}
	if ((i = screens_clear(dir))) {
		cli_error("cannot remove '%s/" SCREENS_DIR "': %s", dir, strerror(i));
		return CLI_OUTPUT;
	}
	return CLI_OK;
}

/* Whether @dir/@name has a row after its header line. */
static int has_row(const char *dir, const char *name)
{
	char path[1024];
	FILE *f;
	int c, lines = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (lines < 2 && (c = getc(f)) != EOF)
		lines += c == '\n';
	fclose(f);
	return lines >= 2;
}

int cmd_record_dir_captured(const char *dir)
{
	return has_row(dir, "frames.csv") || has_row(dir, "pageflip.csv");
}

/*
 * The new session, complete in r->dir (a folder inside r->final_dir), replaces the old one:
 * each file renamed over its old copy (atomic, one by one), then the old session's files the
 * new one has not removed, so no two sessions mix. Return: CLI_OK or CLI_OUTPUT.
 */
static int swap_in(struct rec *r)
{
	char from[1024], to[1024];
	int i, moved[sizeof(session_files) / sizeof(session_files[0])];

	for (i = 0; session_files[i]; i++) {
		snprintf(from, sizeof(from), "%s/%s", r->dir, session_files[i]);
		snprintf(to, sizeof(to), "%s/%s", r->final_dir, session_files[i]);
		moved[i] = !access(from, F_OK);
		if (moved[i] && rename(from, to)) {
			cli_error("cannot move '%s' to '%s': %s; the new session is in '%s'", from,
				  to, strerror(errno), r->dir);
			return CLI_OUTPUT;
		}
	}
	for (i = 0; session_files[i]; i++) {
		snprintf(to, sizeof(to), "%s/%s", r->final_dir, session_files[i]);
		if (!moved[i] && unlink(to) && errno != ENOENT) {
			cli_error("cannot remove '%s': %s", to, strerror(errno));
			return CLI_OUTPUT;
		}
	}
	/* the old screenshots go; the new ones (a folder) take their place */
	if ((i = screens_clear(r->final_dir))) {
		cli_error("cannot remove '%s/" SCREENS_DIR "': %s", r->final_dir, strerror(i));
		return CLI_OUTPUT;
	}
	snprintf(from, sizeof(from), "%s/" SCREENS_DIR, r->dir);
	snprintf(to, sizeof(to), "%s/" SCREENS_DIR, r->final_dir);
	if (!access(from, F_OK) && rename(from, to)) {
		cli_error("cannot move '%s' to '%s': %s; the new session is in '%s'", from, to,
			  strerror(errno), r->dir);
		return CLI_OUTPUT;
	}
	if (rmdir(r->dir))
		cli_warn("cannot remove '%s': %s", r->dir, strerror(errno));
	r->dir = r->final_dir;
	r->final_dir = NULL;
	return CLI_OK;
}

/* The new session holds no capture: its folder goes, the old session stays as it was. */
static void discard(struct rec *r)
{
	if (cmd_record_dir_clear(r->dir) == CLI_OK && rmdir(r->dir))
		cli_warn("cannot remove '%s': %s", r->dir, strerror(errno));
	r->dir = r->final_dir;
	r->final_dir = NULL;
}

int cmd_record_exit(int err)
{
	switch (err) {
	case 0:
		return CLI_OK;
	case GFXSTAT_CAP_E_NEED_APP:
	case GFXSTAT_CAP_E_BAD_OPTION:
		return CLI_USAGE;
	case GFXSTAT_CAP_E_NOMEM:
		return CLI_INPUT;
	default:
		return CLI_DEVICE;
	}
}

/* A fresh folder gfxstat-SERIAL-YYYYmmddTHHMMSSZ (UTC), "-2", "-3"... when taken. */
static int fresh_dir(struct rec *r)
{
	char serial[128];
	time_t t = time(NULL);
	struct tm tm;
	size_t i, n;
	int k;

	snprintf(serial, sizeof(serial), "%s", r->co.serial);
	/* "192.168.0.5:5555" is a serial too: keep the name portable */
	for (i = 0; serial[i]; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
			    serial[i]))
			serial[i] = '_';
	gmtime_r(&t, &tm);
	n = (size_t)snprintf(r->dirbuf, sizeof(r->dirbuf), "gfxstat-%s-%04d%02d%02dT%02d%02d%02dZ",
			     serial, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
			     tm.tm_min, tm.tm_sec);
	for (k = 2; k < 1000; k++) {
		/* mkdir, not mkdir -p: an existing folder is never reused */
		if (!mkdir(r->dirbuf, 0777)) {
			r->dir = r->dirbuf;
			return 0;
		}
		if (errno != EEXIST || n >= sizeof(r->dirbuf) - 8)
			return errno;
		snprintf(r->dirbuf + n, sizeof(r->dirbuf) - n, "-%d", k);
	}
	return EEXIST;
}

static FILE *open_in(struct rec *r, const char *name, const char *mode)
{
	char path[768];

	snprintf(path, sizeof(path), "%s/%s", r->dir, name);
	return fopen(path, mode);
}

static void write_device_json(struct rec *r)
{
	const struct gfxstat_device_info *d = gfxstat_capture_device(r->cap);
	FILE *f = open_in(r, "device.json", "w");

	if (!f) {
		r->write_failed = errno;
		return;
	}
	fprintf(f, "{\"serial\":");
	cli_json_str(f, d->serial);
	fprintf(f, ",\"model\":");
	cli_json_str(f, d->model);
	fprintf(f, ",\"android\":");
	cli_json_str(f, d->release);
	fprintf(f, ",\"sdk\":%d,\"refresh_period_ns\":%lld,\"refresh_modes_hz\":", d->sdk,
		(long long)d->period_ns);
	cli_json_str(f, d->modes);
	fprintf(f, ",\"tracefs\":");
	cli_json_str(f, d->tracefs);
	fprintf(f, ",\"root\":%s,\"perfetto\":%s,\"focus\":", d->root ? "true" : "false",
		d->perfetto ? "true" : "false");
	cli_json_str(f, d->focus);
	/* the app measured and its version at the start (`dumpsys package`), null unknown */
	fprintf(f, ",\"app\":");
	if (d->app[0]) {
		fprintf(f, "{\"package\":");
		cli_json_str(f, d->app);
		fprintf(f, ",\"version_name\":");
		if (d->app_version_name[0])
			cli_json_str(f, d->app_version_name);
		else
			fprintf(f, "null");
		if (d->app_version_code >= 0)
			fprintf(f, ",\"version_code\":%lld}", (long long)d->app_version_code);
		else
			fprintf(f, ",\"version_code\":null}");
	} else {
		fprintf(f, "null");
	}
	fprintf(f, ",\"source\":\"%s\",\"source_reason\":",
		gfxstat_capture_source_name(gfxstat_capture_source(r->cap)));
	cli_json_str(f, gfxstat_capture_reason(r->cap));
	fprintf(f, "}\n");
	if (fclose(f))
		r->write_failed = errno ? errno : EIO;
}

/* ---------------------------------------------------------------------------------------- */
/* the capture's sink                                                                        */

/* A janky frame this long or longer asks for a screenshot at once: PerfDog's "big jank"
 * bound, three frames of 24 fps film (docs/metrics.md). */
#define SCREEN_JANK_NS 125000000

static int64_t host_ns(const struct rec *r)
{
	return (int64_t)((cli_now() - r->t0) * 1e9);
}

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct rec *r = user;

	if (f->present_ns != GFXSTAT_NS_NONE) {
		int64_t now = host_ns(r), off = f->present_ns - now;
		enum gfxstat_capture_source src = gfxstat_capture_source(r->cap);

		/* the trace clock against the host's: a frame arrives after its present, so the
		 * largest difference seen is the closest (polled sources: within a poll) */
		if (!r->have_off || off > r->trace_off_ns) {
			r->trace_off_ns = off;
			r->have_off = 1;
		}
		/* live sources only (Perfetto's frames come after the recording); a frame the
		 * source did not call on time (atrace's carry no verdict: -1) that took that long,
		 * but not an idle wait (the metrics' rule: nothing to draw) */
		if (r->shots && src != GFXSTAT_CAPTURE_PERFETTO && f->janky != 0 &&
		    f->interval_ns != GFXSTAT_NS_NONE && f->interval_ns >= SCREEN_JANK_NS) {
			struct gfxstat_metrics_opts mo;

			gfxstat_metrics_opts_init(&mo);
			if (f->interval_ns < mo.wait_ns)
				gfxstat_screens_jank(r->shots, now);
		}
	}

	if (cli_live_frame(r->live, f))
		return GFXSTAT_E_NOMEM;
	if (r->gfx && gfxstat_gfx_model_frame(r->gfx, f))
		return GFXSTAT_E_NOMEM;
	if (gfxstat_metrics_frame(r->m, f))
		return GFXSTAT_E_NOMEM;
	if (!r->write_failed)
		r->write_failed = cli_write_row(r->frames, &r->rb, cli_fmt_frame_csv, f, 0);
	return 0;
}

static int on_window(void *user, const struct gfxstat_gfx_window *w)
{
	struct rec *r = user;

	if (!r->write_failed)
		r->write_failed = cli_write_row(r->fps, &r->rb, cli_fmt_gfx_window, w, 1);
	return 0;
}

static int on_drop(void *user, const struct gfxstat_gfx_drop *d)
{
	struct rec *r = user;

	if (!r->write_failed)
		r->write_failed = cli_write_row(r->drop, &r->rb, cli_fmt_gfx_drop, d, 1);
	return 0;
}

static void close_raw(struct rec *r)
{
	if (r->rawz && gzclose(r->rawz) != Z_OK && !r->write_failed)
		r->write_failed = EIO;
	if (r->rawf && fclose(r->rawf) && !r->write_failed)
		r->write_failed = errno ? errno : EIO;
	r->rawz = NULL;
	r->rawf = NULL;
}

/* Raw bytes into the file the library names (a fallback may change it). */
static int on_raw(void *user, const char *name, const void *buf, size_t n)
{
	struct rec *r = user;
	size_t len = strlen(name);

	if (strcmp(name, r->raw_name)) {
		close_raw(r);
		snprintf(r->raw_name, sizeof(r->raw_name), "%s", name);
		if (len > 3 && !strcmp(name + len - 3, ".gz")) {
			char path[768];

			snprintf(path, sizeof(path), "%s/%s", r->dir, name);
			r->rawz = gzopen(path, "wb");
		} else {
			r->rawf = open_in(r, name, "wb");
		}
		if (!r->rawz && !r->rawf && !r->write_failed)
			r->write_failed = errno ? errno : EIO;
	}
	if (r->rawz && gzwrite(r->rawz, buf, (unsigned)n) != (int)n)
		r->write_failed = EIO;
	if (r->rawf && fwrite(buf, 1, n, r->rawf) != n)
		r->write_failed = errno ? errno : EIO;
	return 0;
}

static void on_log(void *user, enum gfxstat_capture_level level, const char *msg)
{
	struct rec *r = user;

	if (level == GFXSTAT_LOG_ERROR) {
		r->said_error = 1;
		cli_error("%s", msg);
	} else if (level == GFXSTAT_LOG_WARN) {
		cli_warn("%s", msg);
	} else {
		cli_info("%s", msg);
	}
}

static void view(struct rec *r, double now)
{
	const struct gfxstat_device_info *d = gfxstat_capture_device(r->cap);
	enum gfxstat_capture_source src = gfxstat_capture_source(r->cap);

	if (cli_quiet)
		return;
	if (src == GFXSTAT_CAPTURE_PAGEFLIP) {
		cmd_pageflip_view(&r->pf, gfxstat_capture_pageflip(r->cap), r->tty, r->prefix,
				  d->serial, gfxstat_capture_reason(r->cap), now - r->t0);
		cli_live_context(r->live, stdout, r->tty, r->prefix, now - r->t0,
				 gfxstat_capture_context(r->cap));
		return;
	}
	if (r->tty) {
		r->width = cli_live_width(1);
		printf("\033[H\033[2J");
		printf("gfxstat: recording %s (%s: %s), %.0f s  -- Ctrl-C to stop\n", d->serial,
		       gfxstat_capture_source_name(src), gfxstat_capture_reason(r->cap), now - r->t0);
		if (d->focus[0])
			printf("focus: %s\n", d->focus);
	}
	/* the device's CPU, hottest zone and power above the layers (the context's newest) */
	cli_live_context(r->live, stdout, r->tty, r->prefix, now - r->t0,
			 gfxstat_capture_context(r->cap));
	cli_live_view(r->live, stdout, r->tty, r->width, r->prefix, now - r->t0);
}

static void on_screen(void *user, const struct gfxstat_screen *s);

/* A screenshot's poll; a refusal is said once (the library then takes no more). */
static void screens_poll(struct rec *r, int finish)
{
	int rc;

	if (!r->shots || gfxstat_screens_refused(r->shots))
		return;
	rc = finish ? gfxstat_screens_finish(r->shots, 3000, on_screen, r)
		    : gfxstat_screens_poll(r->shots, host_ns(r), on_screen, r);
	if (rc == GFXSTAT_CAP_E_PERMISSION)
		cli_warn("%s: no screenshots: %s%s", gfxstat_capture_device(r->cap)->serial,
			 gfxstat_screens_refused(r->shots),
			 finish ? "" : "; the recording goes on without them");
	else if (rc == GFXSTAT_CAP_E_NOMEM)
		cli_warn("out of memory for a screenshot: it is left out");
}

static void on_tick(void *user)
{
	struct rec *r = user;
	double now = cli_now();

	screens_poll(r, 0);
	if (now < r->next_view)
		return;
	view(r, now);
	if (fflush(r->frames) && !r->write_failed)
		r->write_failed = errno ? errno : EIO;
	if (r->rawz)
		gzflush(r->rawz, Z_SYNC_FLUSH); /* a killed capture keeps what it read */
	if (r->rawf)
		fflush(r->rawf);
	r->next_view = now + 1.0;
}

static const char *on_stop(void *user)
{
	struct rec *r = user;
	const char *why = r->hook.stop ? r->hook.stop(r->hook.user) : NULL;

	if (why)
		return why;
	return cli_stop_signal ? cli_signal_name(cli_stop_signal) : NULL;
}

/* The source was chosen or changed: device.json says which, and why. */
static void on_source(void *user)
{
	struct rec *r = user;
	int rc;

	if (!r->ready)
		return;
	write_device_json(r);
	if (gfxstat_capture_source(r->cap) == GFXSTAT_CAPTURE_PAGEFLIP) {
		rc = cmd_pageflip_open(&r->pf, r->dir);
		if (rc && !r->write_failed)
			r->write_failed = rc;
	}
}

static void on_pageflip(void *user, const struct gfxstat_pageflip_sample *s)
{
	cmd_pageflip_sample(&((struct rec *)user)->pf, s);
}

/* A context sample: its row of context.csv, flushed. */
static void on_context(void *user, const struct gfxstat_context_sample *s)
{
	struct rec *r = user;

	if (r->ready && cmd_context_sample(&r->ctx, r->dir, gfxstat_capture_context(r->cap), s) &&
	    !r->write_failed)
		r->write_failed = r->ctx.write_failed;
}

/* The trace clock at the device's @uptime_ns / the host's @host: atrace's clock is the
 * kernel's boot clock ("boot" is what frameworks/native/cmds/atrace/atrace.cpp setClock()
 * picks when the kernel has it), as is /proc/uptime (fs/proc/uptime.c) and Perfetto's default
 * (BUILTIN_CLOCK_BOOTTIME); the polled sources' clock is CLOCK_MONOTONIC, reached through
 * the host's clock and the frames' offset. */
static int64_t trace_time(const struct rec *r, int64_t host, int64_t uptime_ns, const char **how)
{
	enum gfxstat_capture_source src = gfxstat_capture_source(r->cap);

	if ((src == GFXSTAT_CAPTURE_TRACE || src == GFXSTAT_CAPTURE_PERFETTO) &&
	    uptime_ns != INT64_MIN) {
		*how = "boot";
		return uptime_ns;
	}
	if (r->have_off && src != GFXSTAT_CAPTURE_TRACE && src != GFXSTAT_CAPTURE_PERFETTO) {
		*how = "host";
		return host + r->trace_off_ns;
	}
	*how = "";
	return INT64_MIN;
}

/* A screenshot: SESSION/screens/SSSSSS.mmm.png (seconds from the start), written whole
 * under a temporary name and renamed, then its row of screens.csv, flushed: a killed
 * recording keeps every screenshot it announced. */
static void on_screen(void *user, const struct gfxstat_screen *s)
{
	struct rec *r = user;
	char name[64], tmp[800], path[800];
	const char *how;
	int64_t tr = trace_time(r, s->time_ns, s->uptime_ns, &how);
	int k, err = 0;
	FILE *f;

	if (!r->shots_csv || r->write_failed)
		return;
	snprintf(name, sizeof(name), "%010.3f.png", (double)s->time_ns / 1e9);
	snprintf(tmp, sizeof(tmp), "%s/" SCREENS_DIR "/.%s.tmp", r->dir, name);
	snprintf(path, sizeof(path), "%s/" SCREENS_DIR "/%s", r->dir, name);
	f = fopen(tmp, "wb");
	if (!f || fwrite(s->png, 1, s->n, f) != s->n)
		err = errno ? errno : EIO;
	if (f && fclose(f) && !err)
		err = errno ? errno : EIO;
	if (!err && rename(tmp, path))
		err = errno ? errno : EIO;
	if (err) {
		unlink(tmp);
		r->write_failed = err;
		return;
	}
	k = fprintf(r->shots_csv, "%.3f," SCREENS_DIR "/%s,%lld,", (double)s->time_ns / 1e9, name,
		    (long long)s->time_ns);
	if (k >= 0 && s->uptime_ns != INT64_MIN)
		k = fprintf(r->shots_csv, "%lld", (long long)s->uptime_ns);
	if (k >= 0)
		k = fprintf(r->shots_csv, ",");
	if (k >= 0 && tr != INT64_MIN)
		k = fprintf(r->shots_csv, "%lld", (long long)tr);
	if (k >= 0)
		k = fprintf(r->shots_csv, ",%s,%s,%zu\n", how, s->why, s->n);
	if ((k < 0 || fflush(r->shots_csv)) && !r->write_failed)
		r->write_failed = errno ? errno : EIO;
}

/* screens/ and screens.csv's header; the screenshots' taker. Return: 0 or an errno value. */
static int screens_open(struct rec *r)
{
	struct gfxstat_screens_opts so;
	char path[800];

	snprintf(path, sizeof(path), "%s/" SCREENS_DIR, r->dir);
	if (mkdir(path, 0777) && errno != EEXIST)
		return errno;
	r->shots_csv = open_in(r, "screens.csv", "w");
	if (!r->shots_csv)
		return errno ? errno : EIO;
	/* trace_ns: the screenshot on the recording's trace clock (how: "boot" from the
	 * device's clock, "host" estimated through the host's clock, "" unknown) */
	fprintf(r->shots_csv, "time_s,file,host_time_ns,device_uptime_ns,trace_ns,trace_clock,"
		"why,bytes\n");
	if (fflush(r->shots_csv))
		return errno ? errno : EIO;
	so.period_ns = (int64_t)(r->screens_s * 1e9);
	so.jank_gap_ns = 0;
	r->shots = gfxstat_screens_new(&r->t, &so);
	return r->shots ? 0 : ENOMEM;
}

/* ---------------------------------------------------------------------------------------- */

static void write_summary(struct rec *r, int exit_code)
{
	FILE *f = open_in(r, "summary.json", "w");
	const char *stop = gfxstat_capture_stop_reason(r->cap);
	size_t k, n;

	if (!f) {
		r->write_failed = errno;
		return;
	}
	gfxstat_metrics_finish(r->m);
	n = gfxstat_metrics_count(r->m);
	fprintf(f, "{\"serial\":");
	cli_json_str(f, gfxstat_capture_device(r->cap)->serial);
	fprintf(f, ",\"source\":\"%s\",\"source_reason\":",
		gfxstat_capture_source_name(gfxstat_capture_source(r->cap)));
	cli_json_str(f, gfxstat_capture_reason(r->cap));
	fprintf(f, ",\"stop\":");
	cli_json_str(f, stop ? stop : "?");
	fprintf(f, ",\"exit\":%d,\"seconds\":%.3f,\"frames\":%llu,\"layers\":[", exit_code,
		cli_now() - r->t0, (unsigned long long)gfxstat_capture_frames(r->cap));
	for (k = 0; k < n; k++) {
		if (k)
			fprintf(f, ",\n");
		cli_json_layer(f, gfxstat_metrics_get(r->m, k));
	}
	fprintf(f, "]");
	if (gfxstat_capture_source(r->cap) == GFXSTAT_CAPTURE_PAGEFLIP)
		cmd_pageflip_json(f, gfxstat_capture_pageflip(r->cap));
	cmd_context_json(f, gfxstat_capture_context(r->cap));
	/* the trace clock against the host's (context.csv's and screens.csv's host_time_ns),
	 * for a report of a polled source's session */
	if (r->have_off)
		fprintf(f, ",\"host_to_trace_ns\":%lld", (long long)r->trace_off_ns);
	if (r->screens_s > 0) {
		fprintf(f, ",\"screenshots\":{\"period_s\":%.3f,\"count\":%llu,\"refused\":",
			r->screens_s, (unsigned long long)gfxstat_screens_count(r->shots));
		if (gfxstat_screens_refused(r->shots))
			cli_json_str(f, gfxstat_screens_refused(r->shots));
		else
			fprintf(f, "null");
		fprintf(f, "}");
	}
	fprintf(f, "}\n");
	if (fclose(f) && !r->write_failed)
		r->write_failed = errno ? errno : EIO;
}

/* The session folder and its files, once the device has answered. */
static int open_session(struct rec *r)
{
	struct gfxstat_gfx_sink gs = { on_window, on_drop, NULL };
	struct gfxstat_gfx_opts go;
	char hdr[2048];
	int rc = r->dir ? cli_mkdir_p(r->dir) : fresh_dir(r);

	if (rc) {
		cli_error("cannot create '%s': %s", r->dir ? r->dir : r->dirbuf, strerror(rc));
		return CLI_OUTPUT;
	}
	if (r->dir && r->replace && dir_held(r->dir)) {
		/* --overwrite: the new session is written beside the old one (inside its folder:
		 * the same file system, so the swap is a rename) and replaces it only once it
		 * holds a capture */
		if ((size_t)snprintf(r->tmpbuf, sizeof(r->tmpbuf), "%s/.gfxstat-new-XXXXXX",
				     r->dir) >= sizeof(r->tmpbuf) || !mkdtemp(r->tmpbuf)) {
			cli_error("cannot create a folder in '%s': %s", r->dir, strerror(errno));
			return CLI_OUTPUT;
		}
		r->final_dir = r->dir;
		r->dir = r->tmpbuf;
	}
	r->frames = open_in(r, "frames.csv", "w");
	r->fps = open_in(r, "fps.csv", "w");
	r->drop = open_in(r, "dropFrames.csv", "w");
	r->m = cli_metrics_new(NULL);
	r->live = cli_live_new();
	if (!r->frames || !r->fps || !r->drop || !r->m || !r->live) {
		cli_error("cannot write the session in '%s': %s", r->dir, strerror(errno));
		return CLI_OUTPUT;
	}
	gfxstat_frame_csv_header(hdr, sizeof(hdr));
	fputs(hdr, r->frames);
	/* the seed's fps.csv/dropFrames.csv from the same frames as frames.csv, as `gfxstat gfx
	 * -T 2`; the device's period judges frames that do not carry theirs */
	gfxstat_gfx_opts_init(&go);
	go.type = 2;
	go.period_ns = gfxstat_capture_device(r->cap)->period_ns;
	gs.user = r;
	fprintf(r->fps, "%s\n", gfxstat_gfx_fps_header);
	fprintf(r->drop, "%s\n", gfxstat_gfx_drop_header);
	r->gfx = gfxstat_gfx_model_new(&go, &gs);
	if (r->screens_s > 0 && (rc = screens_open(r))) {
		cli_error("cannot write the screenshots in '%s': %s", r->dir, strerror(rc));
		return CLI_OUTPUT;
	}
	r->ready = 1;
	on_source(r);
	return r->write_failed ? CLI_OUTPUT : CLI_OK;
}

static void close_session(struct rec *r)
{
	close_raw(r);
	if (r->frames && fclose(r->frames) && !r->write_failed)
		r->write_failed = errno ? errno : EIO;
	if (r->fps)
		fclose(r->fps);
	if (r->drop)
		fclose(r->drop);
	if (cmd_pageflip_close(&r->pf) && !r->write_failed)
		r->write_failed = r->pf.write_failed;
	if (cmd_context_close(&r->ctx) && !r->write_failed)
		r->write_failed = r->ctx.write_failed;
	if (r->shots_csv && fclose(r->shots_csv) && !r->write_failed)
		r->write_failed = errno ? errno : EIO;
	r->shots_csv = NULL;
	gfxstat_screens_free(r->shots);
	r->shots = NULL;
	gfxstat_gfx_model_free(r->gfx);
	gfxstat_metrics_free(r->m);
	cli_live_free(r->live);
	free(r->rb.p);
}

/* ---------------------------------------------------------------------------------------- */
/* what every session gets at its end                                                        */

struct cmd_record_store cmd_record_store;

/* --save: the session and its metrics into the history. Return: CLI_OK or CLI_OUTPUT. */
static int store_session(struct rec *r)
{
	const struct gfxstat_device_info *d = gfxstat_capture_device(r->cap);
	struct cli_store_run run = { 0 };
	struct cli_store *st = NULL;
	char *abs, version[200];
	int rc;

	if (!cmd_record_store.save)
		return CLI_OK;
	/* "versionName (versionCode)", or the one known; NULL when neither is */
	if (d->app_version_name[0] && d->app_version_code >= 0)
		snprintf(version, sizeof(version), "%s (%lld)", d->app_version_name,
			 (long long)d->app_version_code);
	else if (d->app_version_name[0])
		snprintf(version, sizeof(version), "%s", d->app_version_name);
	else if (d->app_version_code >= 0)
		snprintf(version, sizeof(version), "(%lld)", (long long)d->app_version_code);
	else
		version[0] = 0;
	run.app_version = version[0] ? version : NULL;
	run.app_package = d->app[0] ? d->app : NULL;
	run.device_serial = d->serial;
	run.device_model = d->model;
	run.android = d->release;
	run.refresh_modes = d->modes;
	run.label = cmd_record_store.label;
	run.source = gfxstat_capture_source_name(gfxstat_capture_source(r->cap));
	run.kind = "record";
	/* an absolute path: the store outlives the working directory; a replacing session is
	 * stored under the folder it is about to take */
	if (r->hook.final_path) {
		abs = NULL;
		run.session_path = r->hook.final_path;
	} else {
		abs = realpath(r->final_dir ? r->final_dir : r->dir, NULL);
		run.session_path = abs ? abs : r->final_dir ? r->final_dir : r->dir;
	}
	rc = cli_store_open(cmd_record_store.db, &st);
	if (!rc)
		rc = cli_store_save_all(st, &run, r->m, NULL);
	cli_store_close(st);
	free(abs);
	if (rc)
		cli_error("%s: the session is kept but not stored in the history", r->dir);
	return rc ? CLI_OUTPUT : CLI_OK;
}


/* The session's report.html was written (a damaged capture still gets one). */
static int access_report(const char *dir)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/report.html", dir);
	return access(path, F_OK) == 0;
}
int cmd_record_report(const char *dir)
{
	int sig = cli_stop_signal, rc;

	cli_stop_signal = 0;
	/* a recording of its own: not stitched to an earlier session (record --repeat) */
	cli_source_end_recording();
	rc = cli_report_write(dir, NULL);
	cli_source_end_recording();
	if (!cli_stop_signal)
		cli_stop_signal = sig;
	if (rc == CLI_OUTPUT)
		cli_error("%s: the session is kept but its report.html could not be written", dir);
	else if (rc && access_report(dir))
		cli_warn("%s: report.html written from a damaged capture (see the warnings above)",
			 dir);
	else if (rc)
		cli_warn("%s: no report.html: 'gfxstat report' cannot read this capture", dir);
	return rc == CLI_OUTPUT ? CLI_OUTPUT : CLI_OK;
}

/* Whether the session holds a capture: frames, or page-flip samples of the display. */
static int captured(const struct rec *r)
{
	if (gfxstat_capture_source(r->cap) == GFXSTAT_CAPTURE_PAGEFLIP)
		return gfxstat_capture_pageflip(r->cap)->samples > 0;
	return gfxstat_capture_frames(r->cap) > 0;
}

int cmd_record_one(struct rec *r)
{
	struct gfxstat_capture_sink sink = { on_frame, on_raw, on_log, on_tick, on_stop, on_source,
					     on_pageflip, NULL, on_context };
	const struct gfxstat_device_info *d;
	const char *stop;
	int rc, code, got;

	sink.user = r;
	r->cap = gfxstat_capture_new(&r->t, &r->co, &sink);
	if (!r->cap) {
		cli_error("out of memory");
		return CLI_INPUT;
	}
	rc = gfxstat_capture_start(r->cap);
	if (rc) {
		gfxstat_capture_free(r->cap);
		return cmd_record_exit(rc);
	}
	code = open_session(r);
	d = gfxstat_capture_device(r->cap);
	if (code) {
		close_session(r);
		if (r->final_dir)
			discard(r);
		gfxstat_capture_free(r->cap);
		return code;
	}
	cli_info("%s: %s (Android %s); source %s: %s; session %s%s", d->serial, d->model,
		 d->release, gfxstat_capture_source_name(gfxstat_capture_source(r->cap)),
		 gfxstat_capture_reason(r->cap), r->final_dir ? r->final_dir : r->dir,
		 r->final_dir ? " (replacing the one there once this one holds a capture)" : "");
	if (r->pid_file) {
		FILE *pf = fopen(r->pid_file, "w");

		if (pf) {
			fprintf(pf, "%ld\n", (long)getpid());
			fclose(pf);
		}
	}
	r->t0 = cli_now();
	r->next_view = r->t0 + 1.0;
	rc = gfxstat_capture_run(r->cap);
	code = cmd_record_exit(rc);
	/* the screenshot under way is kept (the device may be gone: a few seconds at most) */
	screens_poll(r, 1);
	/* whatever stopped it: everything kept and summarised */
	if (r->gfx)
		gfxstat_gfx_model_finish(r->gfx);
	view(r, cli_now());
	if (!cli_quiet && gfxstat_capture_source(r->cap) != GFXSTAT_CAPTURE_PAGEFLIP) {
		printf("%s%s%llu frames of %zu layers (fps on the trace's clock):\n",
		       r->prefix ? r->prefix : "", r->prefix ? ": " : "",
		       (unsigned long long)gfxstat_capture_frames(r->cap), cli_live_layers(r->live));
		cli_live_summary(r->live, stdout, r->tty ? cli_live_width(1) : 0);
	}
	if (r->write_failed) {
		cli_error("cannot write the session in '%s': %s", r->dir, strerror(r->write_failed));
		code = CLI_OUTPUT;
	}
	stop = gfxstat_capture_stop_reason(r->cap);
	got = captured(r);
	if (!got) {
		/* nothing to measure is a failure, never "ok" (exit 3 unless the device failed) */
		cli_error("%s: no %s captured (%s)%s", d->serial,
			  gfxstat_capture_source(r->cap) == GFXSTAT_CAPTURE_PAGEFLIP ?
			  "page-flip samples" : "frames", stop ? stop : "?",
			  r->final_dir ? ": the session already there is kept as it was" : "");
		r->said_error = 1;
		if (!code)
			code = CLI_INPUT;
	}
	write_summary(r, code);
	/* a replacing session that holds nothing is dropped: nothing to store */
	rc = got || !r->final_dir ? store_session(r) : CLI_OK;
	close_session(r);
	if (r->final_dir) {
		if (!got)
			discard(r);
		else if (swap_in(r) && !code)
			code = CLI_OUTPUT;
	}
	/* the report reads the raw capture, complete once closed and in its folder (a
	 * replacing run's iterations get theirs once the run is in place) */
	if (got && !r->final_dir && !r->hook.final_path && cmd_record_report(r->dir) && !code)
		code = CLI_OUTPUT;
	if (rc && !code)
		code = CLI_OUTPUT;
	/* -q hides progress, never the reason of a failure */
	if (got && code && !r->said_error)
		cli_error("%s: stopped (%s) with exit status %d; what was captured is in %s",
			  d->serial, stop, code, r->dir);
	else if (gfxstat_capture_source(r->cap) == GFXSTAT_CAPTURE_PAGEFLIP)
		cli_info("%s: stopped (%s): %llu page flips of the whole display in %llu samples; "
			 "session in %s", d->serial, stop,
			 (unsigned long long)gfxstat_capture_pageflip(r->cap)->flips,
			 (unsigned long long)gfxstat_capture_pageflip(r->cap)->samples, r->dir);
	else
		cli_info("%s: stopped (%s): %llu frames; session in %s", d->serial, stop,
			 (unsigned long long)gfxstat_capture_frames(r->cap), r->dir);
	if (r->pid_file)
		unlink(r->pid_file);
	gfxstat_capture_free(r->cap);
	return code;
}
