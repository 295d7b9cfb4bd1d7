/* SPDX-License-Identifier: MIT */
/* gfxstat export: the frames as Trace Event Format JSON, for Perfetto UI and chrome://tracing. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_input.h"
#include "cli_output.h"
#include "cli_source.h"
#include "cmd_report.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_report.h"
#include "gfxstat/gfxstat_source.h"

static const struct cli_opt export_opts[] = {
	{ 'o', "output", "FILE", "where to write the JSON (standard output)" },
	{ 'q', "quiet", NULL, "no warnings about skipped input lines" },
	{ 0, NULL, NULL, NULL },
};

static const char export_details[] =
	"Writes {\"traceEvents\":[...]}: one track (thread) per layer under the process\n"
	"\"gfxstat frames\", each frame a slice from its latch (else its FrameTimeline expected\n"
	"start, else its layer's previous present) to its present, named \"janky frame\" with\n"
	"category \"frame,janky\" when the library's one definition calls it janky (as\n"
	"'analyze --janky'), else \"frame\"; a counter \"FPS <layer>\" per metrics window; and\n"
	"the app's own sections (B/E atrace markers: Choreographer#doFrame, DrawFrame, ...) as\n"
	"slices on their process and thread, where the input has them.\n"
	"Timestamps are the trace's clock in microseconds, so a time in the report or in\n"
	"'analyze --janky' is the same instant in the viewer. INPUT may be a session folder.\n"
	"\n"
	"Exit status: 0 ok, 2 usage, 3 unreadable input or no frames, 5 cannot write.\n";

static const struct cli_cmd export_cmd = {
	"gfxstat export",
	"gfxstat export [-o FILE] [-q] INPUT...",
	"The frames in the Trace Event Format (JSON) that Perfetto UI and chrome://tracing open.",
	export_details,
	export_opts,
};

struct export_run {
	const char *out;
	struct gfxstat_metrics *m;
	struct gfxstat_trace_event *t;
	int lib_rc;
	unsigned long long frames;
};

static int export_opt(void *user, int id, const char *arg)
{
	struct export_run *r = user;

	if (id == 'o') {
		r->out = arg;
		return 0;
	}
	if (id == 'q') {
		cli_quiet = 1;
		return 0;
	}
	return -1;
}

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct export_run *r = user;

	r->frames++;
	if ((r->lib_rc = gfxstat_trace_event_frame(r->t, f)))
		return r->lib_rc;
	r->lib_rc = gfxstat_metrics_frame(r->m, f);
	return r->lib_rc;
}

/* the app's own sections (B/E markers), for their per-thread tracks */
static int on_marker(void *user, const struct gfxstat_ftrace_line *ev,
		     const struct gfxstat_marker *m)
{
	struct export_run *r = user;

	r->lib_rc = gfxstat_trace_event_marker(r->t, ev, m);
	return r->lib_rc;
}

/* The input's system series, for their counter tracks (past the limit, the rest is left). */
static void add_series(struct export_run *r, const struct cli_source *src)
{
	size_t i, n = src->sys ? gfxstat_sysctx_nseries(src->sys) : 0;

	for (i = 0; i < n && !r->lib_rc; i++) {
		int rc = gfxstat_trace_event_series(r->t, gfxstat_sysctx_series(src->sys, i));

		if (rc == GFXSTAT_E_LIMIT) {
			cli_warn("%s: more system series than the export keeps: the rest is left out",
				 src->path);
			break;
		}
		r->lib_rc = rc;
	}
}

static int write_file(void *user, const void *buf, size_t n)
{
	return fwrite(buf, 1, n, user) == n ? 0 : errno ? errno : EIO;
}

int cmd_export(int argc, char **argv)
{
	struct export_run r;
	struct gfxstat_metrics_opts mo;
	int first, i, rc = CLI_OK, wrc;
	struct cli_output o;

	memset(&r, 0, sizeof(r));
	first = cli_parse(&export_cmd, argc, argv, export_opt, &r);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;
	if (first == argc) {
		cli_error("no input; give a trace, a dump or a session folder");
		return CLI_USAGE;
	}
	/* a session folder is its capture; several recordings are never one timeline */
	if ((rc = cli_inputs_argv(&argc, &argv, first, "export")))
		return rc;
	gfxstat_metrics_opts_init(&mo);
	r.m = cli_metrics_new(&mo);
	r.t = gfxstat_trace_event_new();
	if (!r.m || !r.t) {
		cli_error("out of memory");
		rc = CLI_INPUT;
		goto out;
	}
	cli_catch_signals();
	/* the system series (CPU, GPU, thermal, power) become counter tracks */
	cli_source_system(mo.window_ns);
	for (i = first; i < argc && !cli_stop_signal && !r.lib_rc; i++) {
		const char *path = cli_report_input(argv[i]);
		struct cli_source src;
		int src_rc;

		if (!path) {
			cli_error("%s: a folder with no capture (trace.txt.gz, latency.txt.gz, "
				  "gfxinfo.txt.gz)", argv[i]);
			rc = CLI_INPUT;
			continue;
		}
		src_rc = cli_source_read_all(path, on_frame, on_marker, &r, &src);
		if (src_rc) {
			rc = src_rc;
			continue;
		}
		cli_source_report(&src, 0);
		if (cli_source_damaged(&src))
			rc = CLI_INPUT; /* written all the same, as frames does: what could be read */
		add_series(&r, &src);
		cli_source_free(&src);
	}
	if (cli_interrupted()) {
		rc = cli_interrupted();
		goto out;
	}
	if (r.lib_rc || gfxstat_metrics_finish(r.m)) {
		cli_error("%s", gfxstat_strerror(r.lib_rc ? r.lib_rc : GFXSTAT_E_NOMEM));
		rc = CLI_INPUT;
		goto out;
	}
	if (!r.frames) {
		if (rc == CLI_OK)
			cli_error("no frames in the input: nothing to export");
		rc = CLI_INPUT;
		goto out;
	}
	if (cli_source_refused())
		goto out; /* inputs that are not one recording: no file (rc says why) */
	if (cli_output_create(&o, r.out, 0)) {
		rc = CLI_OUTPUT;
		goto out;
	}
	wrc = gfxstat_trace_event_write(r.t, r.m, mo.window_ns, write_file, o.f);
	if (wrc) {
		cli_output_close(&o, 0);
		cli_error("cannot write '%s': %s", r.out ? r.out : "standard output",
			  gfxstat_strerror(wrc));
		rc = CLI_OUTPUT;
	} else if ((wrc = cli_output_finish(&o, 1))) {
		rc = wrc;
	}
out:
	gfxstat_trace_event_free(r.t);
	gfxstat_metrics_free(r.m);
	return rc;
}
