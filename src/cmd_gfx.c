/* SPDX-License-Identifier: MIT */
/*
 * gfxstat gfx: the seed's per-surface FPS monitor (fps.csv, dropFrames.csv), computed from the
 * per-frame model of any input; --awk keeps the seed's own rule over ftrace/atrace text.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_input.h"
#include "cli_output.h"
#include "cli_source.h"
#include "gfxstat/gfxstat.h"

enum { OPT_PERIOD = 256, OPT_FOCUS, OPT_AWK, OPT_WINDOW, OPT_KPI, OPT_LAYER, OPT_APP };

static const struct cli_opt gfx_opts[] = {
	{ 't', "target", "FPS", "target FPS, used in the score (default 60)" },
	/* the same words as every command; the seed's letters stay as aliases */
	{ OPT_KPI, "kpi", "MS", "frame-time KPI for the score, in ms (default 100)" },
	{ 'k', "KPI", "MS", NULL },
	{ 'T', "type", "0-4", "output type, see below (default 0)" },
	{ OPT_WINDOW, "window", "SEC", "window length: rows are checked every SEC of trace time (1)" },
	{ 'd', "delay", "SEC", NULL },
	{ 'f', "frames", "N", "write a window only when it has more than N frames (20)" },
	{ 'o', "output", "DIR", "output folder for fps.csv and dropFrames.csv (fps)" },
	{ 'F', "folder", "DIR", NULL },
	{ OPT_LAYER, "layer", "SUBSTRING", "only layers whose name contains SUBSTRING" },
	{ OPT_APP, "app", "PKG", "only the layers of this package" },
	{ OPT_PERIOD, "vsync-period", "MS",
	  "refresh period for frames that do not give theirs (--awk: for every frame)" },
	{ OPT_AWK, "awk", NULL, "gfx.sh's own rule over trace text (compatibility, see below)" },
	{ OPT_FOCUS, "focus", "PKG/ACTIVITY", "--awk: focused window at start (default unknown)" },
	{ 'q', "quiet", NULL, "no summary on standard error, only warnings and errors" },
	{ 0, NULL, NULL, NULL },
};

static const char gfx_details[] =
	"Writes the per-surface FPS windows of android_FPS_frome_GFX's gfx.sh (fps.csv, and\n"
	"dropFrames.csv), with the script's headers and column meanings, from the frames of any\n"
	"input gfxstat reads: ftrace/atrace text (a saved trace, or a live trace_pipe on standard\n"
	"input), systrace HTML, Perfetto, dumpsys gfxinfo framestats, SurfaceFlinger --latency:\n"
	"\n"
	"  adb shell atrace gfx -b 1024 -c --async_start\n"
	"  adb shell cat /sys/kernel/tracing/trace_pipe | gfxstat gfx -\n"
	"\n"
	"A row's key is (TX, app, Surface): Surface is a layer as 'gfxstat frames' lists it, app\n"
	"the package the data names for it (empty when it names none), TX always 0 (gfx.sh set it\n"
	"when a layer's pending-transaction counter moved in the vsync; a frame here is one\n"
	"presented buffer). SurfaceFlinger's own refreshes ('(display)') and frames without a\n"
	"present time are left out. A frame's time is its present; its interval runs from its\n"
	"layer's previous present. Intervals of 500 ms or more are waits, left out of the FPS;\n"
	"A counts intervals >= 100 ms, B [50,100), C [42,50); D counts counted intervals over\n"
	"1.5 refresh periods (a missed vsync; the frame's own period, else --vsync-period, else\n"
	"the last one seen, else 16.667 ms). A layer's first frame starts it: 'frames' counts\n"
	"intervals, so frames + wait times over a surface's rows is its frame count minus one.\n"
	"score = 60*min(FPS/target,1) + 20*min(KPI/max,1) + 10*(1-A/N) + 7*(1-B/N) + 3*(1-C/N).\n"
	"Every --window SEC of present time (the window clock restarts when time goes back, as from one\n"
	"gfxinfo window to the next) every surface with more than -f frames gets a row.\n"
	"dropFrames.csv: 'VSYNC type' is the frame's source (ftrace, frametimeline, gfxinfo, ...),\n"
	"info is empty. Times print in seconds, with 9 decimals when the source has nanoseconds.\n"
	"\n"
	"Output types (-T):\n"
	"  0  fps.csv only\n"
	"  1  fps.csv, and dropFrames.csv rows for every counted frame interval >= 42 ms\n"
	"  2  fps.csv, and dropFrames.csv rows for every counted frame that missed a vsync (D)\n"
	"  3  dropFrames.csv only, rows as type 1\n"
	"  4  dropFrames.csv only, rows as type 2\n"
	"From a live stream ('-' from a pipe, a FIFO) rows are written and flushed as windows\n"
	"close, and on SIGINT, SIGTERM or SIGHUP every surface with frames is flushed, so a\n"
	"stopped capture keeps everything; the exit status is then 0. Several FILEs are read as\n"
	"one recording. From files, fps.csv and dropFrames.csv replace the folder's at the end,\n"
	"whole; a signal before the files are read to their end exits 130/143 and writes\n"
	"nothing. An unreadable input, or one with no frame (or none that --layer/--app match),\n"
	"exits 3 and leaves earlier results as they were.\n"
	"\n"
	"--awk: gfx.sh's own rule, kept for comparing with it (tests/ref holds the awk\n"
	"reference). It reads ftrace/atrace text only. A frame is credited at the first\n"
	"VSYNC-sf/VSYNC-app counter after a postFramebuffer, to the last counter seen between the\n"
	"previous VSYNC counter and postFramebuffer; TX is 1 when a 'TX - ' counter was seen; app\n"
	"follows counters named pkg.x/..., starting from --focus. D counts frames whose VSYNC gap\n"
	"exceeds the period (--vsync-period, else measured from the trace's VSYNC toggles).\n"
	"Fixed from gfx.sh: FPS is compared with the target as a number; -f is honoured; info\n"
	"lists every counter of the vsync; type 1/3 rows do not also need a VSYNC gap; the TGID\n"
	"column is optional; SurfaceTexture-* surfaces fold into SurfaceTexture; times are exact\n"
	"integers, so the 42/50/100/500 ms boundaries are exact. Quoted fields double a '\"'.\n"
	"\n"
	"Known limits of --awk (kept on purpose; the default mode has none of them):\n"
	"  - Android 12+ traces have no postFramebuffer (commit/composite, presentFrame...):\n"
	"    no frames are credited.\n"
	"  - Only the last layer counter before postFramebuffer gets the frame; layers that\n"
	"    update together under-count.\n"
	"  - Counters of other processes (iq, aq:pending, Heap size, VSP-prediction, ...) in a\n"
	"    trace recorded with more than 'gfx' become surfaces; HW_VSYNC_<display id> of\n"
	"    Android 10+ and VSYNC-predicted too.\n"
	"  - D compares every VSYNC gap with the period, so it is noisy (gfx.sh's definition).\n";

static const struct cli_cmd gfx_cmd = {
	"gfxstat gfx",
	"gfxstat gfx [-t FPS] [--kpi MS] [-T 0-4] [--window SEC] [-f N] [-o DIR]\n"
	"                   [--layer SUBSTRING] [--app PKG] [--vsync-period MS]\n"
	"                   [--awk [--focus PKG/ACTIVITY]] [-q] [FILE|-]...",
	"Per-surface FPS windows as android_FPS_frome_GFX (fps.csv), from any frame source.",
	gfx_details,
	gfx_opts,
};

struct gfx_run {
	struct gfxstat_gfx_opts o;
	int awk;
	const char *dir;
	const char *layer, *app; /* --layer, --app */
	struct cli_source last;  /* the last input read, to say what it held */
	char *fps_path, *drop_path;
	FILE *fps, *drop;
	struct cli_output fps_out, drop_out;
	int live;           /* an input is a live stream: rows go to the files as they come */
	int opened;         /* the outputs were (re)created: the input was recognised */
	int open_rc;
	struct gfxstat_trace_parser *parser;
	struct gfxstat_gfx *gfx;
	struct gfxstat_gfx_model *model;
	struct cli_rowbuf rb;
	int write_failed;
	int lib_rc;
	struct gfxstat_stats gfx_stats; /* the monitor's counters; the parser keeps its own */
	unsigned long long fps_rows, drop_rows;
	unsigned long long inputs_ok;
};

static int gfx_opt(void *user, int id, const char *arg)
{
	struct gfx_run *r = user;
	long v;
	long long ns;

	switch (id) {
	case 't':
		return cli_double("-t/--target", arg, 0.001, 1e6, &r->o.target);
	case OPT_KPI:
		return cli_double("--kpi", arg, 0, 1e9, &r->o.kpi_ms);
	case 'T':
		if (cli_long("-T/--type", arg, 0, 4, &v))
			return -1;
		r->o.type = (int)v;
		return 0;
	case OPT_WINDOW:
		if (cli_duration_ns("--window", arg, GFXSTAT_NSEC_PER_SEC, &ns))
			return -1;
		r->o.delay_ns = ns;
		return 0;
	case 'f':
		return cli_long("-f/--frames", arg, 0, 1000000000L, &r->o.frames);
	case 'o':
		if (!*arg) {
			cli_error("-o/--output needs a folder name, not ''");
			return -1;
		}
		r->dir = arg;
		return 0;
	case OPT_LAYER:
		r->layer = arg;
		return 0;
	case OPT_APP:
		r->app = arg;
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
	case OPT_AWK:
		r->awk = 1;
		return 0;
	case 'q':
		cli_quiet = 1;
		return 0;
	}
	return -1;
}

static char *path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/*
 * From a live stream the rows are in the files as they come (as gfx.sh writes them, to be
 * followed while it runs); from files they go to temporary files that replace the earlier
 * results at the end, whole (close_outputs()).
 */
static FILE *open_csv(struct gfx_run *r, struct cli_output *o, const char *path,
		      const char *header)
{
	int e = cli_output_open(o, path, r->live ? CLI_OUT_LIVE : 0);

	if (e) {
		cli_error("cannot create '%s': %s", path, strerror(e));
		return NULL;
	}
	if (header && (fprintf(o->f, "%s\n", header) < 0 || fflush(o->f))) {
		cli_error("cannot write '%s': %s", path, strerror(errno ? errno : EIO));
		cli_output_close(o, 0);
		return NULL;
	}
	return o->f;
}

/*
 * Create the outputs, once, when the input is recognised (its first frame or row, or its
 * end): an input gfx cannot read must not wipe the results of an earlier run.
 * Return: 0, or -1 after printing why (r->open_rc then holds the exit code).
 */
static int open_outputs(struct gfx_run *r)
{
	int e;

	if (r->opened)
		return r->open_rc ? -1 : 0;
	r->opened = 1;
	r->open_rc = CLI_OUTPUT;
	e = cli_mkdir_p(r->dir);
	if (e) {
		cli_error("cannot create folder '%s': %s", r->dir, strerror(e));
		return -1;
	}
	/* like gfx.sh, which recreates its folder: no stale file from an earlier run stays
	 * (from files: once the new results are complete) */
	if (r->o.type < 3) {
		r->fps = open_csv(r, &r->fps_out, r->fps_path, gfxstat_gfx_fps_header);
		if (!r->fps)
			return -1;
	} else if (r->live) {
		unlink(r->fps_path);
	}
	if (r->o.type > 0) {
		r->drop = open_csv(r, &r->drop_out, r->drop_path, gfxstat_gfx_drop_header);
		if (!r->drop)
			return -1;
	} else if (r->live) {
		unlink(r->drop_path);
	}
	r->open_rc = 0;
	return 0;
}

/*
 * The results replace an earlier run's, unless they could not be written or a signal cut
 * the reading of a file short: then the earlier ones stay as they were.
 * Return: @rc, or the exit status of the failure.
 */
static int close_outputs(struct gfx_run *r, int rc)
{
	int keep = r->opened && !r->open_rc && !r->write_failed && rc != CLI_OUTPUT &&
		   !cli_interrupted();
	int frc = cli_output_finish(&r->fps_out, keep), drc;

	drc = cli_output_finish(&r->drop_out, keep && !frc);
	r->fps = r->drop = NULL;
	if (keep && !frc && !drc && !r->live) {
		if (r->o.type >= 3)
			unlink(r->fps_path);
		if (r->o.type == 0)
			unlink(r->drop_path);
	}
	if (frc || drc)
		return frc ? frc : drc;
	return rc;
}

static int write_row(struct gfx_run *r, int drop, cli_fmt_fn fmt, const void *row)
{
	if (open_outputs(r))
		return -1;
	r->write_failed = cli_write_row(drop ? r->drop : r->fps, &r->rb, fmt, row, r->live);
	return r->write_failed ? -1 : 0;
}

static int on_window(void *user, const struct gfxstat_gfx_window *w)
{
	struct gfx_run *r = user;

	r->fps_rows++;
	return write_row(r, 0, cli_fmt_gfx_window, w);
}

static int on_drop(void *user, const struct gfxstat_gfx_drop *d)
{
	struct gfx_run *r = user;

	r->drop_rows++;
	return write_row(r, 1, cli_fmt_gfx_drop, d);
}

static void print_problems(const struct gfxstat_stats *st, int *rc)
{
	int i;

	for (i = 0; i < GFXSTAT_STAT_COUNT; i++) {
		enum gfxstat_severity sev = gfxstat_stat_severity((enum gfxstat_stat)i);

		if (!st->v[i] || sev == GFXSTAT_SEV_INFO)
			continue;
		if (sev == GFXSTAT_SEV_ERROR) {
			cli_error("%llu %s", (unsigned long long)st->v[i],
				  gfxstat_stat_doc((enum gfxstat_stat)i));
			*rc = CLI_INPUT;
		} else {
			cli_warn("%llu %s", (unsigned long long)st->v[i],
				 gfxstat_stat_doc((enum gfxstat_stat)i));
		}
	}
}

static void report_rows(const struct gfx_run *r)
{
	cli_info("%llu rows in %s, %llu in %s", r->fps_rows,
		 r->o.type < 3 ? r->fps_path : "(no fps.csv)", r->drop_rows,
		 r->o.type > 0 ? r->drop_path : "(no dropFrames.csv)");
}

/* ------------------------------------------------------------------------------------ */
/* --awk: gfx.sh's rule over atrace markers                                               */

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

static int report_awk(struct gfx_run *r, unsigned long long bytes, double secs)
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
	print_problems(st, &rc);
	if (bytes && !st->v[GFXSTAT_STAT_events]) {
		cli_error("no ftrace events in the input: gfx --awk reads ftrace/atrace text "
			  "(trace_pipe, or the text of a saved trace); without --awk gfx reads "
			  "every format");
		return CLI_INPUT;
	}
	if (st->v[GFXSTAT_STAT_events] && !st->v[GFXSTAT_STAT_gfx_vsync_lines])
		cli_warn("no VSYNC-sf/VSYNC-app counters: was the trace recorded with 'atrace gfx'?");
	else if (st->v[GFXSTAT_STAT_gfx_vsync_lines] &&
		 !st->v[GFXSTAT_STAT_gfx_post_framebuffer])
		cli_warn("no postFramebuffer slices (Android 12+ traces have none): no frames "
			 "(without --awk gfx reads them)");
	return rc;
}

static int run_awk(struct gfx_run *r, char **paths, int n)
{
	struct gfxstat_gfx_sink sink;
	unsigned long long bytes = 0;
	double t0 = cli_now();
	int rc, rc2;

	sink.window = on_window;
	sink.drop = on_drop;
	sink.user = r;
	r->gfx = gfxstat_gfx_new(&r->o, &sink, &r->gfx_stats);
	r->parser = r->gfx ? gfxstat_trace_parser_new(gfxstat_gfx_marker, r->gfx) : NULL;
	if (!r->parser || !r->gfx) {
		cli_error("out of memory");
		return CLI_INPUT;
	}
	cli_catch_signals();
	rc = cli_read_inputs(paths, n, feed, end_of_file, r, &bytes);
	if (cli_interrupted())
		return cli_interrupted();
	if (!r->lib_rc || r->lib_rc == GFXSTAT_E_ABORTED)
		rc2 = r->write_failed || r->open_rc ? 0 : gfxstat_gfx_finish(r->gfx);
	else
		rc2 = r->lib_rc;
	if (cli_stop_signal)
		cli_info("stopped by %s: every open window was flushed",
			 cli_signal_name(cli_stop_signal));
	if (r->open_rc)
		return r->open_rc;
	if (r->write_failed) {
		cli_error("cannot write results in '%s': %s", r->dir, strerror(r->write_failed));
		return CLI_OUTPUT;
	}
	if (rc2 && rc2 != GFXSTAT_E_ABORTED) {
		cli_error("%s", gfxstat_strerror(rc2));
		return CLI_INPUT;
	}
	rc2 = report_awk(r, bytes, cli_now() - t0);
	/* ftrace events were read: the input is a trace, its (maybe empty) results replace */
	if (gfxstat_trace_parser_stats(r->parser)->v[GFXSTAT_STAT_events] && open_outputs(r))
		return r->open_rc;
	return rc ? rc : rc2;
}

/* ------------------------------------------------------------------------------------ */
/* default: the per-frame model of any input                                              */

static int on_model_frame(void *user, const struct gfxstat_frame *f)
{
	struct gfx_run *r = user;
	int rc;

	if (r->layer && !cli_str_contains(f->layer, r->layer))
		return 0;
	if (r->app && !cli_str_is(f->app, r->app))
		return 0;
	/* a frame, whatever it is, means the input was recognised */
	if (open_outputs(r))
		return -1;
	rc = gfxstat_gfx_model_frame(r->model, f);
	if (rc && !r->write_failed)
		r->lib_rc = rc;
	return rc;
}

static int report_model(struct gfx_run *r, double secs)
{
	const struct gfxstat_gfx_model_stats *st = gfxstat_gfx_model_stats(r->model);
	cli_info("%llu frames read in %.2f s: %llu credited to surfaces; left out: %llu display "
		 "refreshes, %llu without a present time",
		 (unsigned long long)st->frames, secs, (unsigned long long)st->used,
		 (unsigned long long)st->display, (unsigned long long)st->no_present);
	if (st->period_fallback)
		cli_info("%llu frames give no refresh period: D judged with %s",
			 (unsigned long long)st->period_fallback,
			 r->o.period_ns ? "--vsync-period" : "the last period seen, else 16.667 ms");
	report_rows(r);
	if (st->out_of_order)
		cli_warn("%llu frames left out: their present is not after their layer's previous "
			 "one", (unsigned long long)st->out_of_order);
	if (st->keys_overflow)
		cli_warn("%llu frames left out: the surface table was full",
			 (unsigned long long)st->keys_overflow);
	if (r->inputs_ok && st->frames && !st->used) {
		cli_error("no surface frames with a present time in the input (%llu display "
			  "refreshes, %llu frames with no present): 'gfxstat analyze' reports them",
			  (unsigned long long)st->display, (unsigned long long)st->no_present);
		return CLI_INPUT;
	}
	return CLI_OK;
}

static int run_model(struct gfx_run *r, char **paths, int n)
{
	static char *stdin_only[] = { "-" };
	struct gfxstat_gfx_sink sink;
	double t0 = cli_now();
	int i, rc = CLI_OK, rc2;

	sink.window = on_window;
	sink.drop = on_drop;
	sink.user = r;
	r->model = gfxstat_gfx_model_new(&r->o, &sink);
	if (!r->model) {
		cli_error("out of memory");
		return CLI_INPUT;
	}
	if (n == 0) {
		paths = stdin_only;
		n = 1;
	}
	cli_catch_signals();
	/* the seed's windows need presents only, not the app sections that explain them */
	cli_source_no_causes();
	for (i = 0; i < n && !cli_stop_signal; i++) {
		struct cli_source src;
		int src_rc = cli_source_read(paths[i], on_model_frame, r, &src);

		if (r->open_rc || r->write_failed || r->lib_rc)
			break;
		if (src_rc) {
			rc = src_rc;
			continue;
		}
		r->inputs_ok++;
		cli_source_report(&src, 0);
		if (cli_source_damaged(&src))
			rc = CLI_INPUT;
		r->last = src;
		cli_source_free(&src);
	}
	if (cli_interrupted())
		return cli_interrupted();
	/* the final flush, also after a signal: a stopped capture keeps its windows */
	rc2 = r->open_rc || r->write_failed || r->lib_rc ? 0 : gfxstat_gfx_model_finish(r->model);
	if (cli_stop_signal)
		cli_info("stopped by %s: every open window was flushed",
			 cli_signal_name(cli_stop_signal));
	if (r->open_rc)
		return r->open_rc;
	if (r->write_failed) {
		cli_error("cannot write results in '%s': %s", r->dir, strerror(r->write_failed));
		return CLI_OUTPUT;
	}
	if (r->lib_rc || rc2) {
		cli_error("%s", gfxstat_strerror(r->lib_rc ? r->lib_rc : rc2));
		return CLI_INPUT;
	}
	/* nothing found: exit 3 and leave the results of an earlier run as they were */
	if (r->inputs_ok && !r->opened && !cli_stop_signal)
		return cli_source_no_frames(&r->last, r->layer, r->app);
	rc2 = report_model(r, cli_now() - t0);
	if (r->inputs_ok && open_outputs(r))
		return r->open_rc;
	return rc ? rc : rc2;
}

int cmd_gfx(int argc, char **argv)
{
	struct gfx_run r;
	int first, rc, i;

	memset(&r, 0, sizeof(r));
	gfxstat_gfx_opts_init(&r.o);
	r.dir = "fps";
	first = cli_parse(&gfx_cmd, argc, argv, gfx_opt, &r);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;
	if (r.awk && (r.layer || r.app)) {
		cli_error("--layer and --app read the frame model, not --awk's rule");
		return CLI_USAGE;
	}
	/* a session folder is its capture; several recordings are never one trace */
	if (first < argc && (rc = cli_inputs_argv(&argc, &argv, first, "gfx")))
		return rc;
	for (i = first; i < argc; i++)
		r.live |= cli_input_is_live(argv[i]);
	if (first == argc)
		r.live = cli_input_is_live("-");
	r.fps_path = path_join(r.dir, "fps.csv");
	r.drop_path = path_join(r.dir, "dropFrames.csv");
	if (!r.fps_path || !r.drop_path) {
		cli_error("out of memory");
		rc = CLI_OUTPUT;
		goto out;
	}
	if (r.awk)
		rc = run_awk(&r, argv + first, argc - first);
	else
		rc = run_model(&r, argv + first, argc - first);
out:
	gfxstat_trace_parser_free(r.parser);
	gfxstat_gfx_free(r.gfx);
	gfxstat_gfx_model_free(r.model);
	rc = close_outputs(&r, rc);
	free(r.fps_path);
	free(r.drop_path);
	free(r.rb.p);
	return rc;
}
