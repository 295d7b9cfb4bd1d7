/* SPDX-License-Identifier: MIT */
/*
 * gfxstat devices: what each attached phone can give.
 * gfxstat record: measure a phone over adb, live, with the best source it allows:
 *   trace     atrace gfx/view/input streamed from trace_pipe (the seed's method, done right)
 *   perfetto  a Perfetto trace with FrameTimeline (Android 12+), pulled at the end
 *   latency   dumpsys SurfaceFlinger --latency <layer>, polled about once a second, stitched
 *   gfxinfo   dumpsys gfxinfo <pkg> framestats, polled often enough for its 120-frame ring
 *   pageflip  the whole display's page-flip count (service call SurfaceFlinger 1013), polled:
 *             the last resort (cmd_record_pageflip.c)
 * Whatever stops it (Ctrl-C, --duration, the device or adb going away), what was captured is
 * kept and summarised, and the device's tracing is switched off again.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "adb.h"
#include "cli.h"
#include "cli_source.h"
#include "cmd_record_pageflip.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_device.h"
#include "gfxstat/gfxstat_gfxinfo.h"
#include "gfxstat/gfxstat_sflatency.h"

#define OUT_MAX (1 << 20)
#define MAX_DEVICES 16
#define MAX_LIVE 64
#define PERFETTO_FILE "/data/misc/perfetto-traces/gfxstat.pftrace"

enum {
	OPT_ADB = 256, OPT_ALL, OPT_DURATION, OPT_APP, OPT_SOURCE, OPT_CATEGORIES, OPT_RECONNECT,
	OPT_LOCAL, OPT_PID_FILE, OPT_ON_DEVICE, OPT_DEVICE_BINARY, OPT_POLL_MS
};

/* Where the phone-side binary and its sessions live. */
#define DEV_DIR "/data/local/tmp"
#define DEV_BIN DEV_DIR "/gfxstat"
#define DEV_SESSIONS DEV_DIR "/gfxstat-sessions"
#define DEV_PID DEV_DIR "/gfxstat.pid"
enum source { SRC_AUTO, SRC_TRACE, SRC_PERFETTO, SRC_LATENCY, SRC_GFXINFO, SRC_PAGEFLIP };
static const char *const source_names[] = { "auto", "trace", "perfetto", "latency", "gfxinfo",
					    "pageflip" };

struct device {
	char serial[128];
	char state[32];
	char model[128], release[32];
	int sdk;
	char tracefs[512];    /* "" when none */
	int root;
	int perfetto;
	int64_t period_ns;
	char modes[128];      /* refresh rates, e.g. "60 90 120" */
	char focus[256];      /* "pkg/activity" or "" */
	int tracing_on;
};

/* ---------------------------------------------------------------------------------------- */
/* probing                                                                                   */

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
		s[--n] = 0;
}

/* The focused app from `dumpsys window`: "pkg/full.Activity", or "" when none. */
static void parse_focus(const char *text, char *out, size_t cap)
{
	struct gfxstat_focus f;

	out[0] = 0;
	if (gfxstat_focus_from_window(text, strlen(text), &f) == GFXSTAT_PARSE_OK &&
	    gfxstat_focus_component(&f, out, cap) >= cap)
		out[0] = 0;
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

/* Runs a command in the device's shell: over adb, or on the phone itself (--local). */
typedef int (*shell_fn)(const void *ctx, char *out, size_t cap, const char *cmd);

static int shell_adb(const void *ctx, char *out, size_t cap, const char *cmd)
{
	return adb_shell(ctx, out, cap, cmd);
}

static int shell_local(const void *ctx, char *out, size_t cap, const char *cmd)
{
	const char *argv[] = { "sh", "-c", cmd, NULL };

	(void)ctx;
	return cli_run(argv, out, cap, 30);
}

static int probe(shell_fn sh, const void *a, struct device *d)
{
	char *buf = malloc(OUT_MAX);
	const char *tfs = getenv("GFXSTAT_TRACEFS");
	int rc;

	if (!buf)
		return -1;
	rc = sh(a, buf, OUT_MAX, "getprop ro.product.model");
	if (rc != 0) {
		free(buf);
		return -1;
	}
	prop(buf, d->model, sizeof(d->model));
	sh(a, buf, OUT_MAX, "getprop ro.build.version.release");
	prop(buf, d->release, sizeof(d->release));
	sh(a, buf, OUT_MAX, "getprop ro.build.version.sdk");
	d->sdk = (int)strtol(buf, NULL, 10);
	d->tracefs[0] = 0;
	if (sh == shell_local && tfs && *tfs) {
		/* on the phone: GFXSTAT_TRACEFS names an unusual tracefs mount */
		snprintf(d->tracefs, sizeof(d->tracefs), "%s", tfs);
	} else if (sh(a, buf, OUT_MAX, "ls -d /sys/kernel/tracing/trace_pipe "
				     "/sys/kernel/debug/tracing/trace_pipe") >= 0) {
		struct gfxstat_str dir;

		if (gfxstat_tracefs_detect(buf, strlen(buf), &dir) == GFXSTAT_PARSE_OK)
			snprintf(d->tracefs, sizeof(d->tracefs), "%.*s", (int)dir.n, dir.p);
	}
	{
		int64_t uid = -1;

		sh(a, buf, OUT_MAX, "id -u");
		d->root = gfxstat_id_uid(buf, strlen(buf), &uid) == GFXSTAT_PARSE_OK && uid == 0;
	}
	d->perfetto = sh(a, buf, OUT_MAX, "which perfetto") == 0 && strchr(buf, '/');
	sh(a, buf, OUT_MAX, "dumpsys SurfaceFlinger --latency");
	if (gfxstat_sf_latency_period(buf, strlen(buf), &d->period_ns) != GFXSTAT_PARSE_OK)
		d->period_ns = 0;
	sh(a, buf, OUT_MAX, "dumpsys display");
	parse_modes(buf, d->modes, sizeof(d->modes));
	sh(a, buf, OUT_MAX, "dumpsys window");
	parse_focus(buf, d->focus, sizeof(d->focus));
	d->tracing_on = -1;
	if (d->tracefs[0]) {
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "cat %s/tracing_on", d->tracefs);
		if (sh(a, buf, OUT_MAX, cmd) != 0 ||
		    gfxstat_tracing_on_parse(buf, strlen(buf), &d->tracing_on) != GFXSTAT_PARSE_OK)
			d->tracing_on = -1;
	}
	free(buf);
	return 0;
}

/* `adb devices -l`: serial and state of each device. */
static int list_devices(const struct adb *a, struct device *out, int max)
{
	char *buf = malloc(OUT_MAX);
	const char *args[] = { "devices", "-l", NULL };
	int n = 0;

	if (!buf)
		return -1;
	if (adb_run(a, buf, OUT_MAX, args) != 0) {
		free(buf);
		return -1;
	}
	{
		struct gfxstat_str text = { buf, strlen(buf) };
		struct gfxstat_adb_device dv;

		while (n < max && gfxstat_adb_devices_next(&text, &dv) == 1) {
			memset(&out[n], 0, sizeof(out[n]));
			snprintf(out[n].serial, sizeof(out[n].serial), "%.*s", (int)dv.serial.n,
				 dv.serial.p);
			snprintf(out[n].state, sizeof(out[n].state), "%.*s", (int)dv.state_text.n,
				 dv.state_text.p);
			n++;
		}
	}
	free(buf);
	return n;
}

/* ---------------------------------------------------------------------------------------- */
/* gfxstat devices                                                                           */

static const char *adb_path;

static int dev_opt(void *user, int id, const char *arg)
{
	(void)user;
	if (id == OPT_ADB) {
		adb_path = arg;
		return 0;
	}
	return -1;
}

static const struct cli_opt devices_opts[] = {
	{ OPT_ADB, "adb", "PATH", "the adb client (default: $ADB, else adb from PATH)" },
	{ 0, NULL, NULL, NULL },
};

static const struct cli_cmd devices_cmd = {
	"gfxstat devices",
	"gfxstat devices [--adb PATH]",
	"List attached devices: model, Android version, refresh rates, tracing, Perfetto, root,\n"
	"focused window.",
	"Exit status: 0 ok, 2 usage, 4 adb failed or no device.\n",
	devices_opts,
};

int cmd_devices(int argc, char **argv)
{
	struct device devs[MAX_DEVICES];
	struct adb a;
	int first, n, i;

	first = cli_parse(&devices_cmd, argc, argv, dev_opt, NULL);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;
	adb_init(&a, adb_path, NULL);
	n = list_devices(&a, devs, MAX_DEVICES);
	if (n < 0) {
		cli_error("cannot run '%s devices': is adb installed? (Debian: apt-get install adb)",
			  a.path);
		return CLI_DEVICE;
	}
	if (!n) {
		cli_error("no device attached");
		return CLI_DEVICE;
	}
	for (i = 0; i < n; i++) {
		struct device *d = &devs[i];

		if (strcmp(d->state, "device")) {
			printf("%s\t%s\n", d->serial, d->state);
			continue;
		}
		adb_init(&a, adb_path, d->serial);
		if (probe(shell_adb, &a, d)) {
			printf("%s\tnot answering\n", d->serial);
			continue;
		}
		printf("%s\n  model: %s\n  android: %s (SDK %d)\n", d->serial, d->model, d->release,
		       d->sdk);
		printf("  refresh: %s", d->period_ns > 0 ? "" : "unknown");
		if (d->period_ns > 0)
			printf("%.1f Hz now", 1e9 / (double)d->period_ns);
		if (d->modes[0])
			printf(" (modes: %s Hz)", d->modes);
		printf("\n  tracefs: %s%s\n", d->tracefs[0] ? d->tracefs : "not reachable",
		       d->tracing_on == 1 ? " (tracing is ON now)" : "");
		printf("  perfetto: %s\n  root: %s\n  focus: %s\n", d->perfetto ? "yes" : "no",
		       d->root ? "yes" : "no", d->focus[0] ? d->focus : "unknown");
	}
	return CLI_OK;
}

/* ---------------------------------------------------------------------------------------- */
/* gfxstat record                                                                            */

struct live {
	char name[160];
	uint64_t frames, frames_1s;
	int64_t longest_1s, longest_all, last_present;
	int64_t iv[3];
	unsigned niv;
	uint64_t jank, big;
};

struct rec {
	struct adb a;
	int local;            /* running on the phone: no adb, trace_pipe read directly */
	const char *pid_file;
	struct device dev;
	enum source source;
	const char *why;
	char whybuf[256];     /* why, after a fallback */
	const char *app;
	const char *dir;
	char dirbuf[512];
	const char *categories;
	int64_t duration_ns;
	int reconnect_s;
	int tty;
	const char *prefix;   /* serial, when several devices record at once */
	/* outputs */
	gzFile raw;
	FILE *frames;
	FILE *fps, *drop;
	struct cli_rowbuf rb;
	/* pipeline */
	struct gfxstat_trace_parser *trace;
	struct gfxstat_sf_frames *sf;
	struct gfxstat_causes *causes;
	struct gfxstat_gfx_model *gfx; /* the seed's fps.csv/dropFrames.csv, from the frames */
	struct gfxstat_metrics *m;
	/* gfxinfo polling: the newest IntendedVsync per window, to drop rows seen before */
	struct {
		char name[160];
		int64_t newest;
	} seen[32];
	int nseen;
	struct live live[MAX_LIVE];
	int nlive;
	struct cmd_pageflip pf; /* --source pageflip */
	long poll_ms;           /* its poll period */
	double t0, next_view, next_focus;
	uint64_t frames_total;
	const char *stop_reason;
	int exit_code;
	int write_failed;
};

static int dev_shell(const struct rec *r, char *out, size_t cap, const char *cmd)
{
	return r->local ? shell_local(NULL, out, cap, cmd) : adb_shell(&r->a, out, cap, cmd);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static struct live *live_of(struct rec *r, struct gfxstat_str name)
{
	int i;

	for (i = 0; i < r->nlive; i++)
		if (strlen(r->live[i].name) == name.n && !memcmp(r->live[i].name, name.p, name.n))
			return &r->live[i];
	if (r->nlive == MAX_LIVE)
		return NULL;
	memset(&r->live[r->nlive], 0, sizeof(r->live[0]));
	snprintf(r->live[r->nlive].name, sizeof(r->live[0].name), "%.*s", (int)name.n, name.p);
	return &r->live[r->nlive++];
}

static void live_frame(struct rec *r, const struct gfxstat_frame *f)
{
	struct live *l = live_of(r, f->layer);
	int64_t iv = f->interval_ns;

	if (!l)
		return;
	l->frames++;
	l->frames_1s++;
	if (iv != GFXSTAT_NS_NONE && iv > 0) {
		if (iv > l->longest_1s)
			l->longest_1s = iv;
		if (iv > l->longest_all)
			l->longest_all = iv;
		/* PerfDog, as analyze computes it */
		if (l->niv == 3 && 3 * iv > 2 * (l->iv[0] + l->iv[1] + l->iv[2]) &&
		    iv > 83333333) {
			l->jank++;
			l->big += iv > 125000000;
		}
		l->iv[0] = l->iv[1];
		l->iv[1] = l->iv[2];
		l->iv[2] = iv;
		if (l->niv < 3)
			l->niv++;
	}
	l->last_present = f->present_ns;
}

static void live_view(struct rec *r, double now)
{
	double el = now - r->t0;
	int i;

	if (cli_quiet)
		return;
	if (r->tty) {
		printf("\033[H\033[2J");
		printf("gfxstat: recording %s (%s: %s), %.0f s  -- Ctrl-C to stop\n",
		       r->dev.serial, source_names[r->source], r->why, el);
		if (r->dev.focus[0])
			printf("focus: %s\n", r->dev.focus);
		printf("%-60s %7s %8s %5s %5s %10s %10s\n", "layer", "fps(1s)", "fps(all)", "jank",
		       "big", "max(1s)ms", "max ms");
	}
	for (i = 0; i < r->nlive; i++) {
		struct live *l = &r->live[i];
		double all = el > 0 ? (double)l->frames / el : 0;

		if (!l->frames_1s && !r->tty)
			continue;
		if (r->tty)
			printf("%-60.60s %7llu %8.1f %5llu %5llu %10.1f %10.1f\n", l->name,
			       (unsigned long long)l->frames_1s, all, (unsigned long long)l->jank,
			       (unsigned long long)l->big, (double)l->longest_1s / 1e6,
			       (double)l->longest_all / 1e6);
		else
			printf("%s%s%.0f s\t%s\tfps %llu (all %.1f)\tjank %llu\tbig %llu\tmax %.1f ms "
			       "(all %.1f)\n", r->prefix ? r->prefix : "", r->prefix ? "\t" : "",
			       el, l->name, (unsigned long long)l->frames_1s, all,
			       (unsigned long long)l->jank, (unsigned long long)l->big,
			       (double)l->longest_1s / 1e6, (double)l->longest_all / 1e6);
		l->frames_1s = 0;
		l->longest_1s = 0;
	}
	fflush(stdout);
}

static int on_frame(void *user, const struct gfxstat_frame *frame)
{
	struct rec *r = user;
	const struct gfxstat_frame *f = frame;
	struct gfxstat_frame copy;

	if (frame->source == GFXSTAT_SRC_FTRACE && frame->input < 0) {
		/* as `gfxstat analyze` does, so the session's metrics are the same */
		copy = *frame;
		copy.input = gfxstat_causes_input(r->causes, frame);
		f = &copy;
	}
	if (f->source == GFXSTAT_SRC_GFXINFO && f->fi[GFXSTAT_FI_INTENDED_VSYNC] > 0) {
		/* polls overlap: keep a row once, by its window and IntendedVsync */
		int i;

		for (i = 0; i < r->nseen; i++)
			if (strlen(r->seen[i].name) == f->layer.n &&
			    !memcmp(r->seen[i].name, f->layer.p, f->layer.n))
				break;
		if (i == r->nseen && r->nseen < 32) {
			snprintf(r->seen[i].name, sizeof(r->seen[i].name), "%.*s", (int)f->layer.n,
				 f->layer.p);
			r->seen[i].newest = 0;
			r->nseen++;
		}
		if (i < 32) {
			if (f->fi[GFXSTAT_FI_INTENDED_VSYNC] <= r->seen[i].newest)
				return 0;
			r->seen[i].newest = f->fi[GFXSTAT_FI_INTENDED_VSYNC];
		}
	}
	r->frames_total++;
	live_frame(r, f);
	if (r->gfx && gfxstat_gfx_model_frame(r->gfx, f))
		return -1;
	if (gfxstat_metrics_frame(r->m, f))
		return -1;
	if (!r->write_failed)
		r->write_failed = cli_write_row(r->frames, &r->rb, cli_fmt_frame_csv, f, 0);
	return 0;
}

static int on_marker(void *user, const struct gfxstat_ftrace_line *ev,
		     const struct gfxstat_marker *m)
{
	struct rec *r = user;
	int rc = gfxstat_causes_marker(r->causes, ev, m);

	return rc ? rc : gfxstat_sf_frames_marker(r->sf, ev, m);
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

static FILE *open_in(struct rec *r, const char *name, const char *mode)
{
	char path[768];

	snprintf(path, sizeof(path), "%s/%s", r->dir, name);
	return fopen(path, mode);
}

static void write_device_json(struct rec *r)
{
	FILE *f = open_in(r, "device.json", "w");

	if (!f)
		return;
	fprintf(f, "{\"serial\":");
	cli_json_str(f, r->dev.serial);
	fprintf(f, ",\"model\":");
	cli_json_str(f, r->dev.model);
	fprintf(f, ",\"android\":");
	cli_json_str(f, r->dev.release);
	fprintf(f, ",\"sdk\":%d,\"refresh_period_ns\":%lld,\"refresh_modes_hz\":", r->dev.sdk,
		(long long)r->dev.period_ns);
	cli_json_str(f, r->dev.modes);
	fprintf(f, ",\"tracefs\":");
	cli_json_str(f, r->dev.tracefs);
	fprintf(f, ",\"root\":%s,\"perfetto\":%s,\"focus\":", r->dev.root ? "true" : "false",
		r->dev.perfetto ? "true" : "false");
	cli_json_str(f, r->dev.focus);
	fprintf(f, ",\"source\":\"%s\",\"source_reason\":", source_names[r->source]);
	cli_json_str(f, r->why);
	fprintf(f, "}\n");
	fclose(f);
}

/* Pick the best source the device allows (the order), and say why. */
static enum source choose(struct rec *r, enum source want)
{
	const struct device *d = &r->dev;

	if (want != SRC_AUTO) {
		r->why = "asked for with --source";
		return want;
	}
	if (d->tracefs[0]) {
		r->why = "trace_pipe is reachable: atrace streamed live";
		return SRC_TRACE;
	}
	if (d->sdk >= 31 && d->perfetto) {
		r->why = "no trace_pipe; Android 12+ with perfetto: FrameTimeline";
		return SRC_PERFETTO;
	}
	if (r->app || d->focus[0]) {
		/* gfxinfo follows at run time when the app has no layer (fall_back()) */
		r->why = "no trace_pipe or Perfetto: SurfaceFlinger --latency polls";
		return SRC_LATENCY;
	}
	/* latency and gfxinfo need an app; without one only the whole display is left */
	r->why = "no trace_pipe, Perfetto or app to poll: the whole display's page-flip count "
		 "(SurfaceFlinger 1013), not frames of an app";
	return SRC_PAGEFLIP;
}

static int pick_layer(struct rec *r, const char *pkg, char *out, size_t cap);

/* Whether --latency has no layer to poll for the app (auto then tries gfxinfo). */
static int no_layer(struct rec *r)
{
	char layer[400], pkg[256];

	snprintf(pkg, sizeof(pkg), "%s", r->app ? r->app : r->dev.focus);
	pkg[strcspn(pkg, "/")] = 0;
	return !pkg[0] || pick_layer(r, pkg, layer, sizeof(layer)) != 0;
}

/* The source that failed to start gave nothing: the next one in the auto order, said why.
 * Return: 1 with r->source and r->why set, 0 when there is none. */
static int fall_back(struct rec *r)
{
	if (r->source == SRC_TRACE) {
		r->dev.tracefs[0] = 0;
		r->source = choose(r, SRC_AUTO);
		snprintf(r->whybuf, sizeof(r->whybuf), "trace_pipe gave nothing (permission "
			 "denied?): %s", r->why);
	} else if (r->source == SRC_LATENCY) {
		r->source = SRC_GFXINFO;
		snprintf(r->whybuf, sizeof(r->whybuf), "no SurfaceFlinger layer for the app: "
			 "gfxinfo framestats polls");
	} else {
		return 0;
	}
	r->why = r->whybuf;
	cli_warn("%s: %s", r->dev.serial, r->why);
	write_device_json(r);
	return 1;
}

static int pf_shell(const void *ctx, char *out, size_t cap, const char *cmd)
{
	return dev_shell(ctx, out, cap, cmd);
}

/* The whole display's page flips (cmd_record_pageflip.c), into the session. */
static int record_pageflip(struct rec *r)
{
	struct cmd_pageflip *p = &r->pf;
	int rc;

	memset(p, 0, sizeof(*p));
	p->serial = r->dev.serial;
	p->prefix = r->prefix;
	p->why = r->why;
	p->dir = r->dir;
	p->tty = r->tty;
	p->modes = r->dev.modes;
	p->period_ns = r->dev.period_ns;
	p->t0 = r->t0;
	p->duration_ns = r->duration_ns;
	p->poll_ms = r->poll_ms > 0 ? r->poll_ms : CMD_PAGEFLIP_POLL_MS;
	p->shell = pf_shell;
	p->ctx = r;
	p->raw = r->raw;
	rc = cmd_pageflip_record(p);
	r->stop_reason = p->stop_reason;
	r->exit_code = p->exit_code;
	if (p->write_failed && !r->write_failed)
		r->write_failed = p->write_failed;
	return rc;
}

static int should_stop(struct rec *r, double now)
{
	if (cli_stop_signal) {
		r->stop_reason = cli_signal_name(cli_stop_signal);
		return 1;
	}
	if (r->duration_ns > 0 && (now - r->t0) * 1e9 >= (double)r->duration_ns) {
		r->stop_reason = "duration reached";
		return 1;
	}
	return 0;
}

static void tick(struct rec *r, double now)
{
	if (now >= r->next_view) {
		live_view(r, now);
		fflush(r->frames);
		if (r->raw)
			gzflush(r->raw, Z_SYNC_FLUSH); /* a killed capture keeps what it read */
		r->next_view = now + 1.0;
	}
	if (now >= r->next_focus) {
		/* follow the focused app as it changes */
		char *buf = malloc(OUT_MAX);

		if (buf && dev_shell(r, buf, OUT_MAX, "dumpsys window") == 0)
			parse_focus(buf, r->dev.focus, sizeof(r->dev.focus));
		free(buf);
		r->next_focus = now + 5.0;
	}
}

/* atrace streamed from trace_pipe, parsed as it arrives. */
static int record_trace(struct rec *r)
{
	char cmd[512], pipe_path[600], buf[1 << 16];
	const char *args[] = { "exec-out", "cat", pipe_path, NULL };
	struct cli_child c;
	int eof = 0, st;
	uint64_t got = 0;

	if (r->dev.tracing_on == 1) {
		/* a stale session (ours or the seed's) would fight us for trace_pipe */
		cli_info("%s: tracing is already on: stopping the old session first", r->dev.serial);
		dev_shell(r, NULL, 0, "atrace --async_stop -o /dev/null");
	}
	snprintf(cmd, sizeof(cmd), "atrace -b 4096 -c --async_start %s", r->categories);
	if (dev_shell(r, NULL, 0, cmd) != 0) {
		cli_error("%s: '%s' failed", r->dev.serial, cmd);
		return CLI_DEVICE;
	}
	snprintf(pipe_path, sizeof(pipe_path), "%s/trace_pipe", r->dev.tracefs);
	memset(&c, 0, sizeof(c));
	if (r->local) {
		/* on the phone: read trace_pipe itself, no cat, no adb */
		c.out = open(pipe_path, O_RDONLY | O_NONBLOCK);
		if (c.out < 0) {
			cli_error("cannot open '%s': %s", pipe_path, strerror(errno));
			dev_shell(r, NULL, 0, "atrace --async_stop -o /dev/null");
			return CLI_DEVICE;
		}
	} else if (adb_stream(&r->a, &c, args, 0)) {
		cli_error("cannot start %s", r->a.path);
		return CLI_DEVICE;
	}
	fcntl(c.out, F_SETFL, O_NONBLOCK);
	while (!eof) {
		struct pollfd p = { c.out, POLLIN, 0 };
		double now = cli_now();

		if (should_stop(r, now))
			break;
		tick(r, now);
		if (poll(&p, 1, 200) <= 0)
			continue;
		for (;;) {
			ssize_t n = read(c.out, buf, sizeof(buf));

			if (n > 0) {
				got += (uint64_t)n;
				if (gzwrite(r->raw, buf, (unsigned)n) != (int)n)
					r->write_failed = EIO;
				gfxstat_trace_parser_feed(r->trace, buf, (size_t)n);
				continue;
			}
			if (n == 0 && r->local) {
				/* trace_pipe has nothing now (a plain file in tests: at its end) */
				sleep_ms(100);
			} else if (n == 0) {
				eof = 1;
			}
			break;
		}
	}
	close(c.out);
	st = 0;
	if (!r->local) {
		kill(c.pid, SIGTERM);
		st = cli_child_finish(&c);
	}
	if (eof && !got && !r->stop_reason) {
		/* nothing at all came: trace_pipe is not readable here (permission denied) */
		dev_shell(r, NULL, 0, "atrace --async_stop -o /dev/null");
		return -1;
	}
	if (eof && !r->stop_reason) {
		r->stop_reason = "the trace stream ended: device disconnected or adb died";
		r->exit_code = CLI_DEVICE;
	}
	(void)st;
	return CLI_OK;
}

/* One poll command's output, fed to a parser and kept in the raw capture. */
static int poll_once(struct rec *r, const char *cmd, char *buf, int (*feed)(void *, const char *,
									     size_t), void *p)
{
	int rc = dev_shell(r, buf, OUT_MAX, cmd);
	size_t n = strlen(buf);

	if (rc != 0)
		return -1;
	gzprintf(r->raw, "$ %s\n", cmd);
	gzwrite(r->raw, buf, (unsigned)n);
	return feed(p, buf, n);
}

static int feed_sfl(void *p, const char *buf, size_t n)
{
	return gfxstat_sfl_feed(p, buf, n) || gfxstat_sfl_end_file(p);
}

static int feed_gfxinfo(void *p, const char *buf, size_t n)
{
	return gfxstat_gfxinfo_feed(p, buf, n) || gfxstat_gfxinfo_finish(p);
}

/* The layer to poll: the --list name that best matches the app. */
static int pick_layer(struct rec *r, const char *pkg, char *out, size_t cap)
{
	char *buf = malloc(OUT_MAX), *line, *save = NULL;
	int best = 0;

	out[0] = 0;
	if (!buf)
		return -1;
	if (dev_shell(r, buf, OUT_MAX, "dumpsys SurfaceFlinger --list") == 0) {
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			struct gfxstat_str name;
			int score;

			trim(line);
			if (gfxstat_sflist_line(line, strlen(line), &name) != GFXSTAT_PARSE_OK)
				continue;
			score = gfxstat_sflist_score(name, pkg);
			if (score > best && name.n < cap) {
				best = score;
				memcpy(out, name.p, name.n);
				out[name.n] = 0;
			}
		}
	}
	free(buf);
	return out[0] ? 0 : -1;
}

static int record_polls(struct rec *r)
{
	char *buf = malloc(OUT_MAX), cmd[600], layer[400], pkg[256];
	void *parser = NULL;
	int (*feed)(void *, const char *, size_t);
	int fails = 0;
	double next = 0;

	if (!buf)
		return CLI_INPUT;
	snprintf(pkg, sizeof(pkg), "%s", r->app ? r->app : r->dev.focus);
	pkg[strcspn(pkg, "/")] = 0;
	if (r->source == SRC_LATENCY) {
		struct gfxstat_sfl_sink ls;

		if (pick_layer(r, pkg, layer, sizeof(layer))) {
			cli_error("%s: no SurfaceFlinger layer for '%s'", r->dev.serial, pkg);
			free(buf);
			return CLI_DEVICE;
		}
		cli_info("%s: polling --latency of '%s'", r->dev.serial, layer);
		memset(&ls, 0, sizeof(ls));
		ls.frame = on_frame;
		ls.user = r;
		parser = gfxstat_sfl_new(layer, &ls, NULL);
		feed = feed_sfl;
		snprintf(cmd, sizeof(cmd), "dumpsys SurfaceFlinger --latency '%s'", layer);
	} else {
		struct gfxstat_gfxinfo_sink gs;

		if (!pkg[0]) {
			cli_error("%s: gfxinfo needs --app PKG (no focused app found)", r->dev.serial);
			free(buf);
			return CLI_USAGE;
		}
		memset(&gs, 0, sizeof(gs));
		gs.frame = on_frame;
		gs.user = r;
		parser = gfxstat_gfxinfo_new(NULL, &gs, NULL);
		feed = feed_gfxinfo;
		snprintf(cmd, sizeof(cmd), "dumpsys gfxinfo %s framestats", pkg);
	}
	if (!parser) {
		free(buf);
		return CLI_INPUT;
	}
	for (;;) {
		double now = cli_now();

		if (should_stop(r, now))
			break;
		tick(r, now);
		if (now < next) {
			sleep_ms(50);
			continue;
		}
		/* latency: the ring holds 127 frames, ~1 s at 120 Hz; gfxinfo: 120 frames */
		next = now + (r->source == SRC_LATENCY ? 0.9 : 0.8);
		if (poll_once(r, cmd, buf, feed, parser) < 0) {
			if (++fails >= 3) {
				r->stop_reason = "the device stopped answering";
				r->exit_code = CLI_DEVICE;
				break;
			}
		} else {
			fails = 0;
		}
	}
	if (r->source == SRC_LATENCY) {
		gfxstat_sfl_finish(parser);
		gfxstat_sfl_free(parser);
	} else {
		gfxstat_gfxinfo_free(parser);
	}
	free(buf);
	return CLI_OK;
}

/* Perfetto with FrameTimeline for the duration, then pulled and read like a file. */
static int record_perfetto(struct rec *r)
{
	char cfg[1024], local[600];
	const char *args[] = { "shell", "perfetto --txt -c - -o " PERFETTO_FILE, NULL };
	const char *pull[] = { "exec-out", "cat", PERFETTO_FILE, NULL };
	struct cli_child c;
	long ms = r->duration_ns > 0 ? (long)(r->duration_ns / 1000000) : 10000;
	int n, fd;
	struct cli_source src;

	n = snprintf(cfg, sizeof(cfg),
		     "duration_ms: %ld\nbuffers: { size_kb: 65536 fill_policy: DISCARD }\n"
		     "data_sources: { config { name: \"linux.ftrace\" ftrace_config {\n"
		     "  ftrace_events: \"ftrace/print\"\n  atrace_categories: \"gfx\"\n"
		     "  atrace_categories: \"view\"\n  atrace_categories: \"input\"\n} } }\n"
		     "data_sources: { config { name: \"android.surfaceflinger.frametimeline\" } }\n",
		     ms);
	if (adb_stream(&r->a, &c, args, 1)) {
		cli_error("cannot start %s", r->a.path);
		return CLI_DEVICE;
	}
	if (write(c.in, cfg, (size_t)n) != n)
		cli_warn("%s: could not send the Perfetto config", r->dev.serial);
	close(c.in);
	cli_info("%s: Perfetto runs for %ld ms on the device", r->dev.serial, ms);
	while (!cli_stop_signal) {
		int st;
		pid_t w = waitpid(c.pid, &st, WNOHANG);

		if (w == c.pid)
			break;
		tick(r, cli_now());
		sleep_ms(100);
	}
	if (cli_stop_signal) {
		/* perfetto writes its trace when interrupted */
		dev_shell(r, NULL, 0, "pkill -INT perfetto");
		r->stop_reason = cli_signal_name(cli_stop_signal);
	}
	close(c.out);
	cli_child_finish(&c);
	snprintf(local, sizeof(local), "%s/trace.pftrace", r->dir);
	fd = open(local, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || adb_stream(&r->a, &c, pull, 0)) {
		if (fd >= 0)
			close(fd);
		cli_error("%s: cannot pull the Perfetto trace", r->dev.serial);
		return CLI_DEVICE;
	}
	for (;;) {
		char b[1 << 16];
		ssize_t k = read(c.out, b, sizeof(b));

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0 || write(fd, b, (size_t)k) != k)
			break;
	}
	close(c.out);
	close(fd);
	cli_child_finish(&c);
	if (!r->stop_reason)
		r->stop_reason = "duration reached";
	if (cli_source_read(local, on_frame, r, &src) == CLI_OK)
		cli_source_free(&src);
	return CLI_OK;
}

/* Switch the device's tracing off, waiting for it to come back if it went away. */
static void tracing_off(struct rec *r)
{
	const char *wait_args[] = { "wait-for-device", NULL };
	struct adb w = r->a;
	int i;

	for (i = 0; i < 2; i++) {
		if (dev_shell(r, NULL, 0, "atrace --async_stop -o /dev/null") == 0)
			return;
		if (i == 0 && !r->local) {
			cli_warn("%s: cannot switch tracing off now; waiting up to %d s for the "
				 "device", r->dev.serial, r->reconnect_s);
			w.timeout_s = r->reconnect_s;
			adb_run(&w, NULL, 0, wait_args);
		}
	}
	cli_error("%s: tracing may still be on; run: adb -s %s shell atrace --async_stop",
		  r->dev.serial, r->dev.serial);
	r->exit_code = CLI_DEVICE;
}

static void write_summary(struct rec *r)
{
	FILE *f = open_in(r, "summary.json", "w");
	size_t k, n;

	if (!f)
		return;
	gfxstat_metrics_finish(r->m);
	n = gfxstat_metrics_count(r->m);
	fprintf(f, "{\"serial\":");
	cli_json_str(f, r->dev.serial);
	fprintf(f, ",\"source\":\"%s\",\"source_reason\":", source_names[r->source]);
	cli_json_str(f, r->why);
	fprintf(f, ",\"stop\":");
	cli_json_str(f, r->stop_reason ? r->stop_reason : "?");
	fprintf(f, ",\"exit\":%d,\"seconds\":%.3f,\"frames\":%llu,\"layers\":[", r->exit_code,
		cli_now() - r->t0, (unsigned long long)r->frames_total);
	for (k = 0; k < n; k++) {
		if (k)
			fprintf(f, ",\n");
		cli_json_layer(f, gfxstat_metrics_get(r->m, k));
	}
	fprintf(f, "]");
	if (r->source == SRC_PAGEFLIP)
		cmd_pageflip_json(f, &r->pf);
	fprintf(f, "}\n");
	fclose(f);
}

static int record_one(struct rec *r, enum source want)
{
	struct gfxstat_gfx_sink gs;
	struct gfxstat_gfx_opts go;
	char hdr[2048];
	int rc = CLI_OK;

	if (r->local ? probe(shell_local, NULL, &r->dev) : probe(shell_adb, &r->a, &r->dev)) {
		cli_error("%s: the device does not answer", r->dev.serial);
		return CLI_DEVICE;
	}
	r->source = choose(r, want);
	if (r->source == SRC_TRACE && !r->dev.tracefs[0]) {
		cli_error("%s: trace_pipe is not reachable (no tracefs): try --source latency",
			  r->dev.serial);
		return CLI_DEVICE;
	}
	if (!r->dir) {
		time_t t = time(NULL);
		struct tm tm;

		localtime_r(&t, &tm);
		snprintf(r->dirbuf, sizeof(r->dirbuf), "gfxstat-%s-%04d%02d%02d-%02d%02d%02d",
			 r->dev.serial, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
			 tm.tm_min, tm.tm_sec);
		r->dir = r->dirbuf;
	}
	rc = cli_mkdir_p(r->dir);
	if (rc) {
		cli_error("cannot create '%s': %s", r->dir, strerror(rc));
		return CLI_OUTPUT;
	}
	cli_info("%s: %s (Android %s); source %s: %s; session %s", r->dev.serial, r->dev.model,
		 r->dev.release, source_names[r->source], r->why, r->dir);
	write_device_json(r);
	r->frames = open_in(r, "frames.csv", "w");
	{
		char raw[600];

		snprintf(raw, sizeof(raw), "%s/%s", r->dir,
			 r->source == SRC_TRACE ? "trace.txt.gz"
			 : r->source == SRC_LATENCY ? "latency.txt.gz"
			 : r->source == SRC_PAGEFLIP ? "pageflip.txt.gz" : "gfxinfo.txt.gz");
		r->raw = r->source == SRC_PERFETTO ? NULL : gzopen(raw, "wb");
	}
	r->m = gfxstat_metrics_new(NULL);
	r->causes = gfxstat_causes_new();
	r->sf = gfxstat_sf_frames_new(on_frame, r);
	r->trace = gfxstat_trace_parser_new(on_marker, r);
	if (!r->frames || (r->source != SRC_PERFETTO && !r->raw) || !r->m || !r->causes ||
	    !r->sf || !r->trace) {
		cli_error("cannot write the session in '%s': %s", r->dir, strerror(errno));
		return CLI_OUTPUT;
	}
	gfxstat_frame_csv_header(hdr, sizeof(hdr));
	fputs(hdr, r->frames);
	{
		/* the seed's fps.csv/dropFrames.csv, from the same frames as frames.csv, for
		 * every source (as `gfxstat gfx -T 2`); the device's period judges frames
		 * that do not carry theirs */
		r->fps = open_in(r, "fps.csv", "w");
		r->drop = open_in(r, "dropFrames.csv", "w");
		gfxstat_gfx_opts_init(&go);
		go.type = 2;
		go.period_ns = r->dev.period_ns > 0 ? r->dev.period_ns : 0;
		gs.window = on_window;
		gs.drop = on_drop;
		gs.user = r;
		if (r->fps && r->drop) {
			fprintf(r->fps, "%s\n", gfxstat_gfx_fps_header);
			fprintf(r->drop, "%s\n", gfxstat_gfx_drop_header);
			r->gfx = gfxstat_gfx_model_new(&go, &gs);
		}
	}
	if (r->pid_file) {
		FILE *pf = fopen(r->pid_file, "w");

		if (pf) {
			fprintf(pf, "%ld\n", (long)getpid());
			fclose(pf);
		}
	}
	r->t0 = cli_now();
	r->next_view = r->t0 + 1.0;
	r->next_focus = r->t0 + 5.0;
	for (;;) {
		/* rc < 0: the source gave nothing; fall back to the next the device allows */
		if (r->source == SRC_TRACE)
			rc = record_trace(r);
		else if (r->source == SRC_PERFETTO)
			rc = record_perfetto(r);
		else if (r->source == SRC_PAGEFLIP)
			rc = record_pageflip(r);
		else if (r->source == SRC_LATENCY && want == SRC_AUTO && no_layer(r))
			rc = -1;
		else
			rc = record_polls(r);
		if (rc >= 0)
			break;
		if (!fall_back(r)) {
			rc = CLI_DEVICE;
			break;
		}
	}
	/* whatever stopped us: flush the parsers, keep everything, switch tracing off */
	gfxstat_trace_parser_finish(r->trace);
	gfxstat_sf_frames_finish(r->sf);
	if (r->gfx)
		gfxstat_gfx_model_finish(r->gfx);
	if (r->source == SRC_TRACE)
		tracing_off(r);
	if (rc && !r->exit_code)
		r->exit_code = rc;
	if (r->source != SRC_PAGEFLIP) /* it showed its own last view */
		live_view(r, cli_now());
	if (r->write_failed) {
		cli_error("cannot write the session in '%s': %s", r->dir, strerror(r->write_failed));
		r->exit_code = CLI_OUTPUT;
	}
	write_summary(r);
	if (r->raw)
		gzclose(r->raw);
	fclose(r->frames);
	if (r->fps)
		fclose(r->fps);
	if (r->drop)
		fclose(r->drop);
	if (r->source == SRC_PAGEFLIP)
		cli_info("%s: stopped (%s): %llu page flips of the whole display in %llu samples; "
			 "session in %s", r->dev.serial, r->stop_reason ? r->stop_reason : "?",
			 (unsigned long long)r->pf.flips, (unsigned long long)r->pf.samples, r->dir);
	else
		cli_info("%s: stopped (%s): %llu frames; session in %s", r->dev.serial,
			 r->stop_reason ? r->stop_reason : "?",
			 (unsigned long long)r->frames_total, r->dir);
	gfxstat_trace_parser_free(r->trace);
	gfxstat_sf_frames_free(r->sf);
	gfxstat_causes_free(r->causes);
	gfxstat_gfx_model_free(r->gfx);
	gfxstat_metrics_free(r->m);
	free(r->rb.p);
	if (r->pid_file)
		unlink(r->pid_file);
	return r->exit_code;
}

struct rec_opts {
	const char *serial;
	int all, local, on_device;
	const char *pid_file, *device_binary;
	double duration;
	const char *app;
	enum source source;
	const char *dir;
	const char *categories;
	long reconnect;
	long poll_ms;
};

static int rec_opt(void *user, int id, const char *arg)
{
	struct rec_opts *o = user;
	size_t i;

	switch (id) {
	case 's':
		o->serial = arg;
		return 0;
	case OPT_ALL:
		o->all = 1;
		return 0;
	case OPT_ADB:
		adb_path = arg;
		return 0;
	case OPT_DURATION:
		return cli_double("--duration", arg, 0.001, 1e7, &o->duration);
	case OPT_APP:
		o->app = arg;
		return 0;
	case OPT_SOURCE:
		for (i = 0; i < sizeof(source_names) / sizeof(source_names[0]); i++) {
			if (!strcmp(arg, source_names[i])) {
				o->source = (enum source)i;
				return 0;
			}
		}
		cli_error("--source takes auto, trace, perfetto, latency, gfxinfo or pageflip, not "
			  "'%s'", arg);
		return -1;
	case OPT_POLL_MS:
		return cli_long("--poll-ms", arg, 50, 60000, &o->poll_ms);
	case 'o':
		o->dir = arg;
		return 0;
	case OPT_CATEGORIES:
		o->categories = arg;
		return 0;
	case OPT_RECONNECT:
		return cli_long("--reconnect-wait", arg, 0, 3600, &o->reconnect);
	case 'q':
		cli_quiet = 1;
		return 0;
	case OPT_LOCAL:
		o->local = 1;
		return 0;
	case OPT_PID_FILE:
		o->pid_file = arg;
		return 0;
	case OPT_ON_DEVICE:
		o->on_device = 1;
		return 0;
	case OPT_DEVICE_BINARY:
		o->device_binary = arg;
		return 0;
	}
	return -1;
}

static const struct cli_opt record_opts[] = {
	{ 's', "serial", "SERIAL", "the device (adb -s); needed when several are attached" },
	{ OPT_ALL, "all", NULL, "record every attached device at once, one session each" },
	{ OPT_DURATION, "duration", "SEC", "stop after SEC seconds (default: until Ctrl-C)" },
	{ OPT_APP, "app", "PKG", "the app to measure (latency/gfxinfo; default: the focused one)" },
	{ OPT_SOURCE, "source", "NAME", "auto, trace, perfetto, latency, gfxinfo, pageflip (auto)" },
	{ OPT_POLL_MS, "poll-ms", "MS", "pageflip: poll the counter every MS ms (1000)" },
	{ 'o', "output", "DIR", "session folder (default gfxstat-SERIAL-DATE-TIME)" },
	{ OPT_CATEGORIES, "categories", "LIST", "atrace categories (\"gfx view input\")" },
	{ OPT_RECONNECT, "reconnect-wait", "SEC", "wait this long for a lost device at the end (10)" },
	{ OPT_ON_DEVICE, "on-device", NULL, "run on the phone, detached: survives unplugging" },
	{ OPT_DEVICE_BINARY, "device-binary", "PATH", "the phone's gfxstat (default: make android's)" },
	{ OPT_LOCAL, "local", NULL, "this is the phone: read trace_pipe here, no adb" },
	{ OPT_PID_FILE, "pid-file", "PATH", "write the process id there while recording" },
	{ OPT_ADB, "adb", "PATH", "the adb client (default: $ADB, else adb from PATH)" },
	{ 'q', "quiet", NULL, "no live view" },
	{ 0, NULL, NULL, NULL },
};

static const char record_details[] =
	"Sources, best first (auto picks the first the device allows, and says why):\n"
	"  trace     atrace gfx view input, streamed from trace_pipe and parsed live\n"
	"  perfetto  Android 12+: FrameTimeline for --duration (10 s by default), then pulled\n"
	"  latency   dumpsys SurfaceFlinger --latency <the app's layer>, polled, stitched\n"
	"  gfxinfo   dumpsys gfxinfo <pkg> framestats, polled (needs --app or a focused app)\n"
	"  pageflip  the whole display's page-flip count (service call SurfaceFlinger 1013),\n"
	"            polled: the display's FPS only, no frames, layers or apps; pageflip.csv\n"
	"            holds every sample; more flips than the highest refresh rate allows are\n"
	"            reported as a problem, a count that goes down as a gap (reboot)\n"
	"The live view refreshes every second: per layer FPS over the last second and since the\n"
	"start, jank and big jank (PerfDog), the longest frame. Without a terminal it prints plain\n"
	"lines. The session folder holds the raw capture (compressed), device.json, frames.csv,\n"
	"summary.json (the metrics of 'gfxstat analyze --json') and, for trace, the seed's\n"
	"fps.csv/dropFrames.csv, written as it goes. Ctrl-C, --duration, a device that goes\n"
	"away or adb dying all stop it the same way: nothing captured is lost, and tracing is\n"
	"switched off (waiting for the device to come back if it went away).\n"
	"\n"
	"\n"
	"--on-device pushes the phone build (make android) to " DEV_BIN ", starts it\n"
	"detached with --local, and returns: the capture survives unplugging the cable, like\n"
	"the seed's script. 'gfxstat stop' ends it, 'gfxstat pull' fetches the session from\n"
	DEV_SESSIONS ". GFXSTAT_TRACEFS overrides where --local finds trace_pipe.\n"
	"\n"
	"Exit status: 0 stopped by Ctrl-C or --duration, 2 usage, 4 the device or adb failed\n"
	"(what was captured is still saved), 5 the session could not be written.\n";

static const struct cli_cmd record_cmd = {
	"gfxstat record",
	"gfxstat record [-s SERIAL | --all] [--duration SEC] [--app PKG] [--source NAME]\n"
	"                      [-o DIR] [--categories LIST] [--adb PATH] [-q]",
	"Measure a phone over adb, live, from the best source it allows.",
	record_details,
	record_opts,
};

/* The phone build for @abi, next to this binary as `make android` leaves it. */
static int device_binary(const char *abi, char *out, size_t cap)
{
	char self[512];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	const char *arch = strstr(abi, "arm64") ? "arm64" : strstr(abi, "armeabi") ? "armv7" : NULL;
	char *slash;

	if (n <= 0 || !arch)
		return -1;
	self[n] = 0;
	slash = strrchr(self, '/');
	if (slash)
		*slash = 0;
	/* build/gfxstat -> build-android/<arch>/gfxstat */
	snprintf(out, cap, "%s/../build-android/%s/gfxstat", self, arch);
	return access(out, R_OK) ? -1 : 0;
}

static int launch_on_device(const struct adb *a, const struct rec_opts *o)
{
	char abi[64], bin[600], cmd[1200], name[128], dur[64] = "";
	const char *push[] = { "push", bin, DEV_BIN, NULL };
	time_t t = time(NULL);
	struct tm tm;

	if (adb_shell(a, abi, sizeof(abi), "getprop ro.product.cpu.abi")) {
		cli_error("the device does not answer");
		return CLI_DEVICE;
	}
	trim(abi);
	if (o->device_binary)
		snprintf(bin, sizeof(bin), "%s", o->device_binary);
	else if (device_binary(abi, bin, sizeof(bin))) {
		cli_error("no gfxstat build for '%s' next to this binary: run 'make android' (or give "
			  "--device-binary PATH)", abi);
		return CLI_USAGE;
	}
	if (adb_run(a, NULL, 0, push) || adb_shell(a, NULL, 0, "chmod 755 " DEV_BIN)) {
		cli_error("cannot push '%s' to " DEV_BIN, bin);
		return CLI_DEVICE;
	}
	localtime_r(&t, &tm);
	snprintf(name, sizeof(name), "gfxstat-%04d%02d%02d-%02d%02d%02d", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	if (o->duration > 0)
		snprintf(dur, sizeof(dur), " --duration %.3f", o->duration);
	/* nohup and no terminal: the recording outlives this adb session and the cable */
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p " DEV_SESSIONS " && cd " DEV_DIR " && nohup " DEV_BIN
		 " record --local -q%s --categories '%s' -o " DEV_SESSIONS "/%s --pid-file " DEV_PID
		 " > " DEV_SESSIONS "/%s.log 2>&1 < /dev/null &",
		 dur, o->categories, name, name);
	if (adb_shell(a, NULL, 0, cmd)) {
		cli_error("cannot start gfxstat on the device");
		return CLI_DEVICE;
	}
	printf("recording on the phone in " DEV_SESSIONS "/%s\n"
	       "unplugging is fine; 'gfxstat stop' ends it, 'gfxstat pull %s' fetches it\n",
	       name, name);
	return CLI_OK;
}

int cmd_record(int argc, char **argv)
{
	struct rec_opts o;
	struct device devs[MAX_DEVICES];
	struct adb a;
	int first, n, i, ready = 0, rc = CLI_OK;

	memset(&o, 0, sizeof(o));
	o.categories = "gfx view input";
	o.reconnect = 10;
	first = cli_parse(&record_cmd, argc, argv, rec_opt, &o);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;
	if (first < argc) {
		cli_error("unexpected argument '%s'", argv[first]);
		return CLI_USAGE;
	}
	cli_catch_signals();
	signal(SIGPIPE, SIG_IGN);
	if (o.local) {
		/* on the phone itself */
		struct rec *r = calloc(1, sizeof(*r));

		if (!r)
			return CLI_INPUT;
		r->local = 1;
		/* detached from adb's session: unplugging the cable must not reach us */
		if (o.pid_file)
			setsid();
		snprintf(r->dev.serial, sizeof(r->dev.serial), "local");
		r->dir = o.dir;
		r->pid_file = o.pid_file;
		r->categories = o.categories;
		r->duration_ns = (int64_t)(o.duration * 1e9);
		r->tty = isatty(1);
		rc = record_one(r, SRC_TRACE);
		free(r);
		return rc;
	}
	adb_init(&a, adb_path, NULL);
	n = list_devices(&a, devs, MAX_DEVICES);
	if (n < 0) {
		cli_error("cannot run '%s devices': is adb installed? (Debian: apt-get install adb)",
			  a.path);
		return CLI_DEVICE;
	}
	for (i = 0; i < n; i++)
		ready += !strcmp(devs[i].state, "device");
	if (!o.serial && !o.all && ready != 1) {
		cli_error(ready ? "%d devices attached: choose one with -s SERIAL, or --all"
				: "no device attached%.0d", ready);
		return ready ? CLI_USAGE : CLI_DEVICE;
	}
	if (o.on_device) {
		for (i = 0; i < n && !o.serial; i++)
			if (!strcmp(devs[i].state, "device"))
				o.serial = devs[i].serial;
		adb_init(&a, adb_path, o.serial);
		return launch_on_device(&a, &o);
	}
	if (!o.all) {
		struct rec *r = calloc(1, sizeof(*r));

		if (!r)
			return CLI_INPUT;
		for (i = 0; i < n && !o.serial; i++)
			if (!strcmp(devs[i].state, "device"))
				o.serial = devs[i].serial;
		{
			size_t k = strlen(o.serial);

			k = k < sizeof(r->dev.serial) ? k : sizeof(r->dev.serial) - 1;
			memcpy(r->dev.serial, o.serial, k);
			r->dev.serial[k] = 0;
		}
		adb_init(&r->a, adb_path, r->dev.serial);
		r->app = o.app;
		r->dir = o.dir;
		r->categories = o.categories;
		r->duration_ns = (int64_t)(o.duration * 1e9);
		r->reconnect_s = (int)o.reconnect;
		r->poll_ms = o.poll_ms;
		r->tty = isatty(1);
		rc = record_one(r, o.source);
		free(r);
		return rc;
	}
	/* --all: one process per device, in parallel; plain lines prefixed with the serial */
	{
		pid_t pids[MAX_DEVICES];
		int np = 0;

		for (i = 0; i < n; i++) {
			pid_t pid;

			if (strcmp(devs[i].state, "device"))
				continue;
			pid = fork();
			if (pid == 0) {
				struct rec *r = calloc(1, sizeof(*r));
				char dir[512];

				if (!r)
					_exit(CLI_INPUT);
				memcpy(r->dev.serial, devs[i].serial, sizeof(r->dev.serial));
				adb_init(&r->a, adb_path, r->dev.serial);
				if (o.dir) {
					snprintf(dir, sizeof(dir), "%s/%s", o.dir, devs[i].serial);
					r->dir = dir;
				}
				r->app = o.app;
				r->categories = o.categories;
				r->duration_ns = (int64_t)(o.duration * 1e9);
				r->reconnect_s = (int)o.reconnect;
				r->poll_ms = o.poll_ms;
				r->prefix = devs[i].serial;
				_exit(record_one(r, o.source));
			}
			if (pid > 0)
				pids[np++] = pid;
		}
		for (i = 0; i < np; i++) {
			int st;

			while (waitpid(pids[i], &st, 0) < 0 && errno == EINTR)
				;
			if (WIFEXITED(st) && WEXITSTATUS(st) && !rc)
				rc = WEXITSTATUS(st);
		}
	}
	return rc;
}

/* ---------------------------------------------------------------------------------------- */
/* gfxstat stop / gfxstat pull: the phone-side recording                                    */

struct dev_opts {
	const char *serial;
	const char *dir;
};

static int dev_cmd_opt(void *user, int id, const char *arg)
{
	struct dev_opts *o = user;

	switch (id) {
	case 's':
		o->serial = arg;
		return 0;
	case 'o':
		o->dir = arg;
		return 0;
	case OPT_ADB:
		adb_path = arg;
		return 0;
	}
	return -1;
}

static const struct cli_opt stop_opts[] = {
	{ 's', "serial", "SERIAL", "the device (adb -s)" },
	{ OPT_ADB, "adb", "PATH", "the adb client (default: $ADB, else adb from PATH)" },
	{ 0, NULL, NULL, NULL },
};

static const struct cli_cmd stop_cmd = {
	"gfxstat stop",
	"gfxstat stop [-s SERIAL] [--adb PATH]",
	"End the recording that 'gfxstat record --on-device' started on the phone.",
	"It is stopped like Ctrl-C: it flushes its session and switches tracing off.\n"
	"Exit status: 0 stopped, 3 nothing was recording, 4 adb failed.\n",
	stop_opts,
};

int cmd_stop(int argc, char **argv)
{
	struct dev_opts o = { NULL, NULL };
	struct adb a;
	char out[256];
	int first, i;

	first = cli_parse(&stop_cmd, argc, argv, dev_cmd_opt, &o);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;
	adb_init(&a, adb_path, o.serial);
	if (adb_shell(&a, out, sizeof(out), "cat " DEV_PID) || !(int)strtol(out, NULL, 10)) {
		cli_error("nothing is recording on the device (no " DEV_PID ")");
		return CLI_INPUT;
	}
	trim(out);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "kill -TERM %d", (int)strtol(out, NULL, 10));
		if (adb_shell(&a, NULL, 0, cmd)) {
			cli_error("cannot signal process %s on the device", out);
			return CLI_DEVICE;
		}
	}
	/* it removes its pid file once the session is flushed and tracing is off */
	for (i = 0; i < 150; i++) {
		if (adb_shell(&a, NULL, 0, "test -e " DEV_PID))
			break;
		{
			struct timespec ts = { 0, 100000000 };

			nanosleep(&ts, NULL);
		}
	}
	if (i == 150) {
		cli_error("the recording did not stop within 15 s");
		return CLI_DEVICE;
	}
	printf("stopped; fetch the session with 'gfxstat pull'\n");
	return CLI_OK;
}

static const struct cli_opt pull_opts[] = {
	{ 's', "serial", "SERIAL", "the device (adb -s)" },
	{ 'o', "output", "DIR", "where to put the session (default: here)" },
	{ OPT_ADB, "adb", "PATH", "the adb client (default: $ADB, else adb from PATH)" },
	{ 0, NULL, NULL, NULL },
};

static const struct cli_cmd pull_cmd = {
	"gfxstat pull",
	"gfxstat pull [-s SERIAL] [-o DIR] [--adb PATH] [SESSION]",
	"Fetch a session recorded on the phone (the newest when SESSION is not given).",
	"Exit status: 0 fetched, 3 no such session, 4 adb failed.\n",
	pull_opts,
};

int cmd_pull(int argc, char **argv)
{
	struct dev_opts o = { NULL, "." };
	struct adb a;
	char list[8192], src[512], name[256] = "";
	const char *pull[] = { "pull", src, NULL, NULL };
	int first;

	first = cli_parse(&pull_cmd, argc, argv, dev_cmd_opt, &o);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;
	adb_init(&a, adb_path, o.serial);
	if (first < argc) {
		snprintf(name, sizeof(name), "%s", argv[first]);
	} else {
		char *line, *save = NULL;

		/* session names sort by time: the last one is the newest */
		if (adb_shell(&a, list, sizeof(list), "ls " DEV_SESSIONS)) {
			cli_error("no sessions on the device (" DEV_SESSIONS ")");
			return CLI_INPUT;
		}
		for (line = strtok_r(list, "\r\n", &save); line; line = strtok_r(NULL, "\r\n", &save))
			if (strncmp(line, "gfxstat-", 8) == 0 && !strstr(line, ".log") &&
			    strcmp(line, name) > 0)
				snprintf(name, sizeof(name), "%s", line);
		if (!name[0]) {
			cli_error("no sessions on the device (" DEV_SESSIONS ")");
			return CLI_INPUT;
		}
	}
	snprintf(src, sizeof(src), DEV_SESSIONS "/%s", name);
	pull[2] = o.dir;
	if (adb_run(&a, NULL, 0, pull)) {
		cli_error("cannot pull %s", src);
		return CLI_DEVICE;
	}
	printf("%s/%s\n", o.dir, name);
	return CLI_OK;
}
