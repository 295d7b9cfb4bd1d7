/* SPDX-License-Identifier: MIT */
/* gfxstat gfx: the seed's per-surface FPS monitor over ftrace/atrace text. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "gfxstat/gfxstat.h"

enum { OPT_PERIOD = 256, OPT_FOCUS };

static const struct cli_opt gfx_opts[] = {
	{ 't', "target", "FPS", "target FPS, used in the score (default 60)" },
	{ 'k', "KPI", "MS", "frame-time KPI for the score, in ms (default 100)" },
	{ 'T', "type", "0-4", "output type, see below (default 0)" },
	{ 'd', "delay", "SEC", "window length: rows are checked every SEC of trace time (1)" },
	{ 'f', "frames", "N", "write a window only when it has more than N frames (20)" },
	{ 'F', "folder", "DIR", "output folder for fps.csv and dropFrames.csv (fps)" },
	{ OPT_PERIOD, "vsync-period", "MS", "refresh period (default: from the trace's VSYNC toggles)" },
	{ OPT_FOCUS, "focus", "PKG/ACTIVITY", "focused window at start (default unknown)" },
	{ 'q', "quiet", NULL, "no summary on standard error, only warnings and errors" },
	{ 0, NULL, NULL, NULL },
};

static const char gfx_details[] =
	"Reads ftrace/atrace text (a saved trace, or a live trace_pipe on standard input) and\n"
	"writes the per-surface FPS windows of android_FPS_frome_GFX's gfx.sh, column for column:\n"
	"\n"
	"  adb shell atrace gfx -b 1024 -c --async_start\n"
	"  adb shell cat /sys/kernel/tracing/trace_pipe | gfxstat gfx -\n"
	"\n"
	"A frame is credited at the first VSYNC-sf/VSYNC-app counter after a postFramebuffer, to\n"
	"the key (TX, app, Surface): Surface is the last layer counter seen between the previous\n"
	"VSYNC counter and postFramebuffer. Intervals of 500 ms or more are waits, left out of the\n"
	"FPS; A counts intervals >= 100 ms, B [50,100), C [42,50); D counts frames whose VSYNC gap\n"
	"exceeds the refresh period. score = 60*min(FPS/target,1) + 20*min(KPI/max,1)\n"
	"+ 10*(1-A/N) + 7*(1-B/N) + 3*(1-C/N).\n"
	"\n"
	"Output types (-T):\n"
	"  0  fps.csv only\n"
	"  1  fps.csv, and dropFrames.csv rows for every counted frame interval >= 42 ms\n"
	"  2  fps.csv, and dropFrames.csv rows for every frame whose VSYNC gap > the period\n"
	"  3  dropFrames.csv only, rows as type 1\n"
	"  4  dropFrames.csv only, rows as type 2\n"
	"Rows are written and flushed as windows close. At the end of the input, or on SIGINT,\n"
	"SIGTERM or SIGHUP, every surface with frames is flushed, so a stopped capture keeps\n"
	"everything; the exit status is then 0. Several FILEs are read as one trace.\n"
	"\n"
	"Fixed from gfx.sh: FPS is compared with the target as a number; -f is honoured; info\n"
	"lists every counter of the vsync; type 1/3 rows do not also need a VSYNC gap; the TGID\n"
	"column is optional; SurfaceTexture-* surfaces fold into SurfaceTexture; times are exact\n"
	"integers, so the 42/50/100/500 ms boundaries are exact. Quoted fields double a '\"'.\n"
	"\n"
	"Known limits of this seed-compatible mode (kept on purpose):\n"
	"  - Android 12+ traces have no postFramebuffer (commit/composite, presentFrame...):\n"
	"    no frames are credited.\n"
	"  - Only the last layer counter before postFramebuffer gets the frame; layers that\n"
	"    update together under-count.\n"
	"  - Counters of other processes (iq, aq:pending, Heap size, VSP-prediction, ...) in a\n"
	"    trace recorded with more than 'gfx' become surfaces; HW_VSYNC_<display id> of\n"
	"    Android 10+ and VSYNC-predicted too.\n"
	"  - D compares every VSYNC gap with the period, so it is noisy (gfx.sh's definition).\n"
	"For those traces, and for Perfetto, systrace HTML and dumpsys inputs, use 'gfxstat\n"
	"frames' (every frame of every layer, any Android version), 'gfxstat analyze' (FPS and\n"
	"jank by every tool's definition) and 'gfxstat inspect' (what an input holds).\n"
	"\n"
	"Exit status: 0 ok, 2 usage, 3 unreadable input or no ftrace events, 5 cannot write.\n";

static const struct cli_cmd gfx_cmd = {
	"gfxstat gfx",
	"gfxstat gfx [-t FPS] [-k MS] [-T 0-4] [-d SEC] [-f N] [-F DIR] [--vsync-period MS]\n"
	"                   [--focus PKG/ACTIVITY] [-q] [FILE|-]...",
	"Per-surface FPS windows from atrace gfx text, as android_FPS_frome_GFX (fps.csv).",
	gfx_details,
	gfx_opts,
};

struct gfx_run {
	struct gfxstat_gfx_opts o;
	const char *dir;
	char *fps_path, *drop_path;
	FILE *fps, *drop;
	struct gfxstat_trace_parser *parser;
	struct gfxstat_gfx *gfx;
	struct cli_rowbuf rb;
	int write_failed;
	int lib_rc;
	struct gfxstat_stats gfx_stats; /* the monitor's counters; the parser keeps its own */
	unsigned long long fps_rows, drop_rows;
};

static int gfx_opt(void *user, int id, const char *arg)
{
	struct gfx_run *r = user;
	long v;
	long long ns;

	switch (id) {
	case 't':
		return cli_double("-t/--target", arg, 0.001, 1e6, &r->o.target);
	case 'k':
		return cli_double("-k/--KPI", arg, 0, 1e9, &r->o.kpi_ms);
	case 'T':
		if (cli_long("-T/--type", arg, 0, 4, &v))
			return -1;
		r->o.type = (int)v;
		return 0;
	case 'd':
		if (cli_duration_ns("-d/--delay", arg, GFXSTAT_NSEC_PER_SEC, &ns))
			return -1;
		r->o.delay_ns = ns;
		return 0;
	case 'f':
		return cli_long("-f/--frames", arg, 0, 1000000000L, &r->o.frames);
	case 'F':
		if (!*arg) {
			cli_error("-F/--folder needs a folder name");
			return -1;
		}
		r->dir = arg;
		return 0;
	case OPT_PERIOD:
		if (cli_duration_ns("--vsync-period", arg, GFXSTAT_NSEC_PER_MSEC, &ns))
			return -1;
		if (ns < 1000 || ns > GFXSTAT_NSEC_PER_SEC) {
			cli_error("--vsync-period takes milliseconds between 0.001 and 1000, not '%s'",
				  arg);
			return -1;
		}
		r->o.period_ns = ns;
		return 0;
	case OPT_FOCUS:
		r->o.focus = arg;
		return 0;
	case 'q':
		cli_quiet = 1;
		return 0;
	}
	return -1;
}

static int write_row(struct gfx_run *r, FILE *f, cli_fmt_fn fmt, const void *row)
{
	r->write_failed = cli_write_row(f, &r->rb, fmt, row, 1);
	return r->write_failed ? -1 : 0;
}

static int on_window(void *user, const struct gfxstat_gfx_window *w)
{
	struct gfx_run *r = user;

	r->fps_rows++;
	return write_row(r, r->fps, cli_fmt_gfx_window, w);
}

static int on_drop(void *user, const struct gfxstat_gfx_drop *d)
{
	struct gfx_run *r = user;

	r->drop_rows++;
	return write_row(r, r->drop, cli_fmt_gfx_drop, d);
}

static int feed(void *user, const void *buf, size_t n)
{
	struct gfx_run *r = user;

	r->lib_rc = gfxstat_trace_parser_feed(r->parser, buf, n);
	return r->lib_rc;
}

static int end_of_file(void *user)
{
	struct gfx_run *r = user;

	r->lib_rc = gfxstat_trace_parser_finish(r->parser);
	return r->lib_rc;
}

static char *path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

static FILE *open_csv(const char *path, const char *header)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		cli_error("cannot create '%s': %s", path, strerror(errno));
		return NULL;
	}
	if (header && (fprintf(f, "%s\n", header) < 0 || fflush(f))) {
		cli_error("cannot write '%s': %s", path, strerror(errno));
		fclose(f);
		return NULL;
	}
	return f;
}

static int open_outputs(struct gfx_run *r)
{
	int e = cli_mkdir_p(r->dir);

	if (e) {
		cli_error("cannot create folder '%s': %s", r->dir, strerror(e));
		return CLI_OUTPUT;
	}
	r->fps_path = path_join(r->dir, "fps.csv");
	r->drop_path = path_join(r->dir, "dropFrames.csv");
	if (!r->fps_path || !r->drop_path) {
		cli_error("out of memory");
		return CLI_OUTPUT;
	}
	/* like gfx.sh, which recreates its folder: no stale file from an earlier run stays */
	if (r->o.type < 3) {
		r->fps = open_csv(r->fps_path, gfxstat_gfx_fps_header);
		if (!r->fps)
			return CLI_OUTPUT;
	} else {
		unlink(r->fps_path);
	}
	if (r->o.type > 0) {
		r->drop = open_csv(r->drop_path, gfxstat_gfx_drop_header);
		if (!r->drop)
			return CLI_OUTPUT;
	} else {
		unlink(r->drop_path);
	}
	return CLI_OK;
}

static int report(struct gfx_run *r, unsigned long long bytes, double secs)
{
	struct gfxstat_stats all = *gfxstat_trace_parser_stats(r->parser), *st = &all;
	const char *src;
	int64_t period = gfxstat_gfx_period(r->gfx, &src);
	char b[32];
	int i, rc = CLI_OK;

	for (i = 0; i < GFXSTAT_STAT_COUNT; i++)
		all.v[i] += r->gfx_stats.v[i];
	cli_info("read %s, %llu lines (%llu events, %llu atrace markers) in %.2f s",
		 cli_bytes(bytes, b, sizeof(b)), (unsigned long long)st->v[GFXSTAT_STAT_lines],
		 (unsigned long long)st->v[GFXSTAT_STAT_events],
		 (unsigned long long)st->v[GFXSTAT_STAT_marker_events], secs);
	if (strcmp(src, "option") == 0)
		cli_info("vsync period %.3f ms (--vsync-period)", (double)period / 1e6);
	else if (strcmp(src, "default") == 0)
		cli_info("vsync period %.3f ms (default: no VSYNC toggles to measure)",
			 (double)period / 1e6);
	else
		cli_info("vsync period %.3f ms (measured from %s toggles)", (double)period / 1e6,
			 src);
	cli_info("%llu frames, %llu VSYNC counters, %llu postFramebuffer; %llu rows in %s, %llu in %s",
		 (unsigned long long)st->v[GFXSTAT_STAT_gfx_frames],
		 (unsigned long long)st->v[GFXSTAT_STAT_gfx_vsync_lines],
		 (unsigned long long)st->v[GFXSTAT_STAT_gfx_post_framebuffer], r->fps_rows,
		 r->o.type < 3 ? r->fps_path : "(no fps.csv)", r->drop_rows,
		 r->o.type > 0 ? r->drop_path : "(no dropFrames.csv)");
	for (i = 0; i < GFXSTAT_STAT_COUNT; i++) {
		enum gfxstat_severity sev = gfxstat_stat_severity((enum gfxstat_stat)i);

		if (!st->v[i] || sev == GFXSTAT_SEV_INFO)
			continue;
		if (sev == GFXSTAT_SEV_ERROR) {
			cli_error("%llu %s", (unsigned long long)st->v[i],
				  gfxstat_stat_doc((enum gfxstat_stat)i));
			rc = CLI_INPUT;
		} else {
			cli_warn("%llu %s", (unsigned long long)st->v[i],
				 gfxstat_stat_doc((enum gfxstat_stat)i));
		}
	}
	if (bytes && !st->v[GFXSTAT_STAT_events]) {
		cli_error("no ftrace events in the input: gfx reads ftrace/atrace text "
			  "(trace_pipe, or the text of a saved trace)");
		return CLI_INPUT;
	}
	if (st->v[GFXSTAT_STAT_events] && !st->v[GFXSTAT_STAT_gfx_vsync_lines])
		cli_warn("no VSYNC-sf/VSYNC-app counters: was the trace recorded with 'atrace gfx'?");
	else if (st->v[GFXSTAT_STAT_gfx_vsync_lines] &&
		 !st->v[GFXSTAT_STAT_gfx_post_framebuffer])
		cli_warn("no postFramebuffer slices (Android 12+ traces have none): no frames");
	return rc;
}

int cmd_gfx(int argc, char **argv)
{
	struct gfx_run r;
	struct gfxstat_gfx_sink sink;
	unsigned long long bytes = 0;
	double t0 = cli_now();
	int first, rc, rc2;

	memset(&r, 0, sizeof(r));
	gfxstat_gfx_opts_init(&r.o);
	r.dir = "fps";
	first = cli_parse(&gfx_cmd, argc, argv, gfx_opt, &r);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;

	rc = open_outputs(&r);
	if (rc)
		goto out;
	sink.window = on_window;
	sink.drop = on_drop;
	sink.user = &r;
	r.gfx = gfxstat_gfx_new(&r.o, &sink, &r.gfx_stats);
	r.parser = r.gfx ? gfxstat_trace_parser_new(gfxstat_gfx_marker, r.gfx) : NULL;
	if (!r.parser || !r.gfx) {
		cli_error("out of memory");
		rc = CLI_INPUT;
		goto out;
	}
	cli_catch_signals();
	rc = cli_read_inputs(argv + first, argc - first, feed, end_of_file, &r, &bytes);
	if (!r.lib_rc || r.lib_rc == GFXSTAT_E_ABORTED)
		rc2 = r.write_failed ? 0 : gfxstat_gfx_finish(r.gfx);
	else
		rc2 = r.lib_rc;
	if (cli_stop_signal)
		cli_info("stopped by %s: every open window was flushed",
			 cli_signal_name(cli_stop_signal));
	if (r.write_failed) {
		cli_error("cannot write results in '%s': %s", r.dir, strerror(r.write_failed));
		rc = CLI_OUTPUT;
		goto out;
	}
	if (rc2 && rc2 != GFXSTAT_E_ABORTED) {
		cli_error("%s", gfxstat_strerror(rc2));
		rc = CLI_INPUT;
		goto out;
	}
	rc2 = report(&r, bytes, cli_now() - t0);
	if (!rc)
		rc = rc2;
out:
	gfxstat_trace_parser_free(r.parser);
	gfxstat_gfx_free(r.gfx);
	if (r.fps && fclose(r.fps) && !rc) {
		cli_error("cannot write '%s': %s", r.fps_path, strerror(errno));
		rc = CLI_OUTPUT;
	}
	if (r.drop && fclose(r.drop) && !rc) {
		cli_error("cannot write '%s': %s", r.drop_path, strerror(errno));
		rc = CLI_OUTPUT;
	}
	free(r.fps_path);
	free(r.drop_path);
	free(r.rb.p);
	return rc;
}
