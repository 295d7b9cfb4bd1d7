/* SPDX-License-Identifier: MIT */
/*
 * gfxstat frames: every input's frames in the per-frame model, one per line.
 * gfxstat inspect: what an input is and what it holds.
 * Both read each input through cli_source (format detection and the right parser).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_source.h"
#include "gfxstat/gfxstat.h"

enum { OPT_FORMAT = 256, OPT_LAYER };

static const struct cli_opt frames_opts[] = {
	{ OPT_FORMAT, "format", "csv|jsonl", "output format (csv)" },
	{ OPT_LAYER, "layer", "SUBSTRING", "only layers whose name contains SUBSTRING" },
	{ 'o', "output", "FILE", "write to FILE instead of standard output" },
	{ 'q', "quiet", NULL, "no summary on standard error" },
	{ 0, NULL, NULL, NULL },
};

static const char frames_details[] =
	"Each input's format is detected: ftrace/atrace text (trace_pipe or a saved trace),\n"
	"systrace HTML, atrace -z and gzip files, Perfetto traces, dumpsys SurfaceFlinger\n"
	"--latency and dumpsys gfxinfo framestats, where this build can read them ('gfxstat\n"
	"inspect' says what it found).\n"
	"\n"
	"From ftrace text a frame is a buffer that SurfaceFlinger's main thread latched in a\n"
	"refresh that reached the display; every layer latched in a refresh gets one. Its\n"
	"present_ns is the vsync after the refresh's present marker (postFramebuffer, or the\n"
	"marker of the Android version).\n"
	"\n"
	"CSV columns: source,layer,app,pid,present_ns,interval_ns, then latch_ns,\n"
	"vsync_period_ns, desired_present_ns, expected/actual start/end, token, display_token,\n"
	"jank_type, present_type, prediction_type, janky, jank_reasons and the FrameInfo\n"
	"columns of dumpsys gfxinfo; a field the source does not give is empty. interval_ns is\n"
	"empty for a layer's first frame. Times are integer nanoseconds in the input's clock.\n"
	"\n"
	"Exit status: 0 ok, 2 usage, 3 unreadable input or no frames source, 5 cannot write.\n";

static const struct cli_cmd frames_cmd = {
	"gfxstat frames",
	"gfxstat frames [--format csv|jsonl] [--layer SUBSTRING] [-o FILE] [-q] INPUT...",
	"List every frame of every layer, from any supported input, one per line.",
	frames_details,
	frames_opts,
};

struct frames_run {
	int jsonl;
	const char *layer;
	const char *out_path;
	FILE *out;
	struct cli_rowbuf rb;
	unsigned long long written;
	int write_errno;
};

static int frames_opt(void *user, int id, const char *arg)
{
	struct frames_run *r = user;

	switch (id) {
	case OPT_FORMAT:
		if (strcmp(arg, "csv") && strcmp(arg, "jsonl")) {
			cli_error("--format takes csv or jsonl, not '%s'", arg);
			return -1;
		}
		r->jsonl = !strcmp(arg, "jsonl");
		return 0;
	case OPT_LAYER:
		r->layer = arg;
		return 0;
	case 'o':
		r->out_path = arg;
		return 0;
	case 'q':
		cli_quiet = 1;
		return 0;
	}
	return -1;
}

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct frames_run *r = user;

	if (r->layer && !cli_str_contains(f->layer, r->layer))
		return 0;
	r->write_errno = cli_write_row(r->out, &r->rb, r->jsonl ? cli_fmt_frame_json
								: cli_fmt_frame_csv, f, 0);
	if (r->write_errno)
		return -1;
	r->written++;
	return 0;
}

int cmd_frames(int argc, char **argv)
{
	struct frames_run r;
	int first, i, rc = CLI_OK;

	memset(&r, 0, sizeof(r));
	first = cli_parse(&frames_cmd, argc, argv, frames_opt, &r);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;
	if (first == argc) {
		cli_error("no input; give a trace or dump file, or '-' for standard input");
		return CLI_USAGE;
	}
	r.out = r.out_path ? fopen(r.out_path, "w") : stdout;
	if (!r.out) {
		cli_error("cannot write '%s': %s", r.out_path, strerror(errno));
		return CLI_OUTPUT;
	}
	if (!r.jsonl) {
		char hdr[2048];
		size_t n = gfxstat_frame_csv_header(hdr, sizeof(hdr));

		fwrite(hdr, 1, n, r.out);
	}
	cli_catch_signals();
	for (i = first; i < argc && !cli_stop_signal; i++) {
		struct cli_source src;
		int src_rc = cli_source_read(argv[i], on_frame, &r, &src);

		if (r.write_errno)
			break;
		if (src_rc) {
			rc = src_rc;
			continue;
		}
		cli_source_report(&src, 0);
		cli_source_free(&src);
	}
	if (fflush(r.out) || r.write_errno) {
		cli_error("cannot write '%s': %s", r.out_path ? r.out_path : "standard output",
			  strerror(r.write_errno ? r.write_errno : errno));
		rc = CLI_OUTPUT;
	}
	if (r.out_path && fclose(r.out) && rc == CLI_OK) {
		cli_error("cannot write '%s': %s", r.out_path, strerror(errno));
		rc = CLI_OUTPUT;
	}
	cli_info("%llu frames written", r.written);
	free(r.rb.p);
	return rc;
}

/* ------------------------------------------------------------------------------------ */

static const struct cli_opt inspect_opts[] = {
	{ 0, NULL, NULL, NULL },
};

static const struct cli_cmd inspect_cmd = {
	"gfxstat inspect",
	"gfxstat inspect INPUT...",
	"Say what an input is: its format, the Android version its markers suggest, refresh\n"
	"rate(s), time span, the layers found with their frame counts, and lines skipped and why.",
	NULL,
	inspect_opts,
};

int cmd_inspect(int argc, char **argv)
{
	int first, i, rc = CLI_OK;

	first = cli_parse(&inspect_cmd, argc, argv, NULL, NULL);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;
	if (first == argc) {
		cli_error("no input; give a trace or dump file, or '-' for standard input");
		return CLI_USAGE;
	}
	for (i = first; i < argc; i++) {
		struct cli_source src;
		int src_rc = cli_source_read(argv[i], NULL, NULL, &src);

		if (src_rc) {
			rc = src_rc;
			cli_source_end_recording();
			continue;
		}
		cli_source_report(&src, 1);
		cli_source_free(&src);
		/* each input is described on its own */
		cli_source_end_recording();
	}
	return rc;
}
