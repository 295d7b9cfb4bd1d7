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
#include "cli_input.h"
#include "cli_json.h"
#include "cli_output.h"
#include "cli_source.h"
#include "gfxstat/gfxstat.h"

enum { OPT_FORMAT = 256, OPT_LAYER, OPT_APP };

static const struct cli_opt frames_opts[] = {
	{ OPT_FORMAT, "format", "csv|jsonl|json", "output format (csv); json: one document, the "
	  "frames then the header" },
	{ OPT_LAYER, "layer", "SUBSTRING", "only layers whose name contains SUBSTRING" },
	{ OPT_APP, "app", "PKG", "only the layers of this package" },
	{ 'o', "output", "FILE", "write to FILE instead of standard output (replaced, whole, at "
	  "the end, if a frame is found)" },
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
	"No frame at all (or none that --layer/--app match) exits 3 and says what the input\n"
	"holds; a damaged or truncated input exits 3 after the frames that could be read.\n";

static const struct cli_cmd frames_cmd = {
	"gfxstat frames",
	"gfxstat frames [--format csv|jsonl|json] [--layer SUBSTRING] [--app PKG] [-o FILE] [-q] "
	"INPUT...",
	"List every frame of every layer, from any supported input, one per line.",
	frames_details,
	frames_opts,
};

struct frames_run {
	int jsonl;
	int json;               /* one document: {"frames":[...],"header":{...}} */
	const char *layer, *app;
	const char *out_path;
	FILE *out;
	struct cli_output o;    /* out_path, through a temporary file unless an input is live */
	int live;
	struct cli_rowbuf rb;
	unsigned long long written;
	int write_errno;
	struct cli_json_header hdr; /* jsonl: its last line (docs/output.md) */
};

static int frames_opt(void *user, int id, const char *arg)
{
	struct frames_run *r = user;

	switch (id) {
	case OPT_FORMAT:
		if (strcmp(arg, "csv") && strcmp(arg, "jsonl") && strcmp(arg, "json")) {
			cli_error("--format takes csv, jsonl or json, not '%s'", arg);
			return -1;
		}
		r->json = !strcmp(arg, "json");
		r->jsonl = r->json || !strcmp(arg, "jsonl");
		return 0;
	case OPT_LAYER:
		r->layer = arg;
		return 0;
	case OPT_APP:
		r->app = arg;
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

/*
 * The output is created at the first frame, so that an input with none (or a run that fails
 * before any) leaves an earlier FILE as it was. Return: 0, or -1 with write_errno set.
 */
static int open_output(struct frames_run *r)
{
	r->write_errno = cli_output_open(&r->o, r->out_path, r->live ? CLI_OUT_LIVE : 0);
	if (r->write_errno)
		return -1;
	r->out = r->o.f;
	if (r->json && fputs("{\"frames\":[\n", r->out) == EOF) {
		r->write_errno = errno ? errno : EIO;
		return -1;
	}
	if (!r->jsonl) {
		char hdr[2048];
		size_t n = gfxstat_frame_csv_header(hdr, sizeof(hdr));

		if (fwrite(hdr, 1, n, r->out) != n) {
			r->write_errno = errno ? errno : EIO;
			return -1;
		}
	}
	return 0;
}

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct frames_run *r = user;

	if (r->layer && !cli_str_contains(f->layer, r->layer))
		return 0;
	if (r->app && !cli_str_is(f->app, r->app))
		return 0;
	if (!r->out && open_output(r))
		return -1;
	if (r->json && r->written && fputs(",", r->out) == EOF) {
		r->write_errno = errno ? errno : EIO;
		return -1;
	}
	r->write_errno = cli_write_row(r->out, &r->rb, r->jsonl ? cli_fmt_frame_json
								: cli_fmt_frame_csv, f, 0);
	if (r->write_errno)
		return -1;
	cli_json_header_frame(&r->hdr, f);
	r->written++;
	return 0;
}

/*
 * The JSON Lines header is the last line: the inputs' formats, refresh rates and span are
 * known only once they are read, and the frames stream out as they come.
 */
static int frames_jsonl_header(struct frames_run *r)
{
	/* --format json: the same header closes the document (key order means nothing in JSON) */
	fputs(r->json ? "],\"header\":" : "{\"header\":", r->out);
	cli_json_header_write(r->out, &r->hdr);
	fputs("}\n", r->out);
	return ferror(r->out) ? (errno ? errno : EIO) : 0;
}

int cmd_frames(int argc, char **argv)
{
	struct frames_run r;
	struct cli_source last;
	int first, i, rc = CLI_OK, nread = 0;

	memset(&r, 0, sizeof(r));
	cli_json_header_init(&r.hdr, "frames");
	first = cli_parse(&frames_cmd, argc, argv, frames_opt, &r);
	if (first == -2)
		return CLI_OK;
	if (first < 0 || cli_check_path("-o/--output", r.out_path))
		return CLI_USAGE;
	if (first == argc) {
		cli_error("no input; give a trace or dump file, or '-' for standard input");
		return CLI_USAGE;
	}
	/* a session folder is its capture; several recordings are never one list */
	if ((rc = cli_inputs_argv(&argc, &argv, first, "frames")))
		return rc;
	/* a live capture's file is written as it goes, and kept when a signal ends it */
	for (i = first; i < argc; i++)
		r.live |= cli_input_is_live(argv[i]);
	cli_catch_signals();
	for (i = first; i < argc && !cli_stop_signal; i++) {
		struct cli_source src;
		int src_rc = cli_source_read(argv[i], on_frame, &r, &src);

		if (src_rc) {
			rc = src_rc;
			if (r.write_errno)
				break;
			continue;
		}
		cli_source_report(&src, 0);
		if (cli_source_damaged(&src))
			rc = CLI_INPUT;
		if (cli_json_header_source(&r.hdr, &src))
			r.write_errno = ENOMEM;
		last = src;
		nread++;
		cli_source_free(&src);
		if (r.write_errno)
			break;
	}
	if (cli_interrupted()) {
		/* part of a file: no FILE (an earlier one stays), and no closing header */
		cli_json_header_free(&r.hdr);
		cli_output_close(&r.o, 0);
		free(r.rb.p);
		return cli_interrupted();
	}
	if (r.jsonl && r.out && !r.write_errno)
		r.write_errno = frames_jsonl_header(&r);
	cli_json_header_free(&r.hdr);
	if (r.write_errno || (r.out && fflush(r.out))) {
		cli_error("cannot write '%s': %s", r.out_path ? r.out_path : "standard output",
			  strerror(r.write_errno ? r.write_errno : errno ? errno : EIO));
		cli_output_close(&r.o, 0);
		rc = CLI_OUTPUT;
	} else if (r.out && cli_source_refused()) {
		cli_output_close(&r.o, 0); /* inputs that are not one recording: no file */
	} else if (r.out) {
		int orc = cli_output_finish(&r.o, 1);

		rc = orc ? orc : rc;
	}
	free(r.rb.p);
	if (rc >= CLI_OUTPUT)
		return rc;
	if (!r.written && nread && !cli_stop_signal)
		return cli_source_no_frames(&last, r.layer, r.app);
	if (r.written || rc == CLI_OK)
		cli_info("%llu frames written%s", r.written,
			 cli_stop_signal ? " (stopped by a signal)" : "");
	return rc;
}

/* ------------------------------------------------------------------------------------ */

enum { OPT_INSPECT_FORMAT = 256 };

static const struct cli_opt inspect_opts[] = {
	{ OPT_INSPECT_FORMAT, "format", "table|json", "output format (table)" },
	{ 'q', "quiet", NULL, "no warnings about skipped input lines" },
	{ 0, NULL, NULL, NULL },
};

static const char inspect_details[] =
	"An input with no frame source in it (a 'dumpsys SurfaceFlinger --list', say) exits 3\n"
	"and says which command reads it; a damaged or truncated input is described as far as\n"
	"it could be read, then exits 3.\n";

static const struct cli_cmd inspect_cmd = {
	"gfxstat inspect",
	"gfxstat inspect [--format table|json] [-q] INPUT...",
	"Say what an input is: its format, the Android version its markers suggest, refresh\n"
	"rate(s), time span, the layers found with their frame counts, and lines skipped and why.",
	inspect_details,
	inspect_opts,
};

static int inspect_opt(void *user, int id, const char *arg)
{
	int *json = user;

	switch (id) {
	case OPT_INSPECT_FORMAT:
		if (strcmp(arg, "table") && strcmp(arg, "json")) {
			cli_error("--format takes table or json, not '%s'", arg);
			return -1;
		}
		*json = !strcmp(arg, "json");
		return 0;
	case 'q':
		cli_quiet = 1;
		return 0;
	}
	return -1;
}

/* inspect --format json: the header takes every frame and input (frames for span and rates) */
static int inspect_frame(void *user, const struct gfxstat_frame *f)
{
	cli_json_header_frame(user, f);
	return 0;
}

static void json_span(FILE *o, int64_t first, int64_t last)
{
	if (first == GFXSTAT_NS_NONE || last == GFXSTAT_NS_NONE)
		fputs("null", o);
	else
		fprintf(o, "{\"first_ns\":%lld,\"last_ns\":%lld,\"duration_s\":%.6f}",
			(long long)first, (long long)last, (double)(last - first) / 1e9);
}

/* One input of `inspect --format json`: the table's facts (docs/output.md). */
static void inspect_json(FILE *o, const struct cli_source *src)
{
	const struct gfxstat_sf_summary *sf = &src->sf;
	const struct gfxstat_stats *st = &src->stats;
	size_t i;
	int k, first = 1;

	fprintf(o, "{\"path\":");
	cli_json_str(o, src->path);
	fprintf(o, ",\"format\":");
	cli_json_str(o, src->format);
	fprintf(o, ",\"bytes\":%llu,\"lines\":%llu,\"events\":%llu,\"atrace_markers\":%llu",
		src->bytes, (unsigned long long)st->v[GFXSTAT_STAT_lines],
		(unsigned long long)st->v[GFXSTAT_STAT_events],
		(unsigned long long)st->v[GFXSTAT_STAT_marker_events]);
	fprintf(o, ",\"damaged\":%llu,\"details\":", src->warnings);
	if (src->extra[0])
		cli_json_str(o, src->extra);
	else
		fputs("null", o);
	fputs(",\"surfaceflinger\":", o);
	if (!src->have_sf || sf->sf_pid < 0)
		fputs("null", o);
	else
		fprintf(o, "{\"pid\":%d,\"main_tid\":%d,\"refreshes\":%llu,\"latched_unpresented\":"
			"%llu}", (int)sf->sf_pid, (int)sf->sf_main_tid,
			(unsigned long long)sf->refreshes, (unsigned long long)sf->latched_unpresented);
	/* the refresh modes SurfaceFlinger's VSYNC toggles show, each from when it held */
	fputs(",\"refresh_modes\":[", o);
	for (i = 0; src->have_sf && sf->sf_pid >= 0 && i < sf->nmodes; i++)
		fprintf(o, "%s{\"hz\":%.3f,\"period_ns\":%lld,\"from_ns\":%lld}", i ? "," : "",
			1e9 / (double)sf->modes[i].period_ns, (long long)sf->modes[i].period_ns,
			(long long)sf->modes[i].from_ns);
	fputs("],\"markers_span\":", o);
	if (src->have_sf)
		json_span(o, sf->first_ts, sf->last_ts);
	else
		fputs("null", o);
	fputs(",\"layers\":[", o);
	for (i = 0; i < src->nlayers; i++) {
		const struct gfxstat_model_layer *l = cli_source_layer(src, i);
		double span = (double)(l->last_present - l->first_present) / 1e9;

		if (!l->frames)
			continue;
		fprintf(o, "%s{\"layer\":", first ? "" : ",");
		cli_json_str(o, l->name);
		fprintf(o, ",\"app\":");
		if (l->app[0])
			cli_json_str(o, l->app);
		else
			fprintf(o, "null");
		fprintf(o, ",\"source\":\"%s\",\"frames\":%llu,\"fps\":",
			gfxstat_frame_source_name(l->source), (unsigned long long)l->frames);
		if (l->frames > 1 && span > 0)
			fprintf(o, "%.3f", (double)(l->frames - 1) / span);
		else
			fputs("null", o);
		fputs(",\"span\":", o);
		json_span(o, l->first_present, l->last_present);
		fputc('}', o);
		first = 0;
	}
	fputs("],\"skipped\":[", o);
	for (k = 0, first = 1; k < GFXSTAT_STAT_COUNT; k++) {
		if (!st->v[k] || gfxstat_stat_severity((enum gfxstat_stat)k) == GFXSTAT_SEV_INFO)
			continue;
		fprintf(o, "%s{\"count\":%llu,\"what\":", first ? "" : ",",
			(unsigned long long)st->v[k]);
		cli_json_str(o, gfxstat_stat_doc((enum gfxstat_stat)k));
		fputc('}', o);
		first = 0;
	}
	fputs("],\"system\":", o);
	cli_source_system_report(src, o, 1);
	fputs("}", o);
}

int cmd_inspect(int argc, char **argv)
{
	int first, i, rc = CLI_OK, json = 0, nout = 0;
	struct cli_json_header hdr;
	char *body = NULL;
	size_t nbody = 0;
	FILE *bo = NULL;

	first = cli_parse(&inspect_cmd, argc, argv, inspect_opt, &json);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;
	if (first == argc) {
		cli_error("no input; give a trace or dump file, or '-' for standard input");
		return CLI_USAGE;
	}
	/* a session folder is its capture; a run folder, each iteration on its own */
	if ((rc = cli_inputs_argv(&argc, &argv, first, NULL)))
		return rc;
	/* an endless standard input ends cleanly on SIGTERM, as in every command */
	cli_catch_signals();
	/* what system events (scheduler, counters) each input holds and lacks */
	cli_source_system(0);
	/* JSON: the header (every input, span, rates) goes first, so the body waits in memory */
	cli_json_header_init(&hdr, "inspect");
	if (json && !(bo = open_memstream(&body, &nbody))) {
		cli_error("out of memory");
		return CLI_INPUT;
	}
	for (i = first; i < argc && !cli_stop_signal; i++) {
		struct cli_source src;
		int src_rc = cli_source_read(argv[i], json ? inspect_frame : NULL, &hdr, &src);

		if (src_rc) {
			rc = src_rc;
			cli_source_end_recording();
			continue;
		}
		if (json) {
			cli_source_report(&src, 0);
			if (cli_json_header_source(&hdr, &src))
				rc = CLI_INPUT;
			if (nout++)
				fputs(",\n", bo);
			inspect_json(bo, &src);
		} else {
			cli_source_report(&src, 1);
		}
		if (cli_source_damaged(&src))
			rc = CLI_INPUT;
		/* described, and still "nothing found" (exit 3, saying what would help), as the
		 * other commands say it */
		if (!src.model.v[GFXSTAT_MODEL_frames_out] && strcmp(src.format, "repeated"))
			rc = cli_source_no_frames(&src, NULL, NULL);
		cli_source_free(&src);
		/* each input is described on its own */
		cli_source_end_recording();
	}
	if (cli_interrupted()) {
		if (json) {
			fclose(bo);
			free(body);
		}
		cli_json_header_free(&hdr);
		return cli_interrupted();
	}
	if (json) {
		fclose(bo);
		cli_json_begin(stdout, &hdr);
		fputs("\"inspect\":[", stdout);
		fwrite(body, 1, nbody, stdout);
		fputs("]}\n", stdout);
		free(body);
	}
	cli_json_header_free(&hdr);
	if (fflush(stdout) || ferror(stdout)) {
		cli_error("cannot write standard output: %s", strerror(errno ? errno : EIO));
		rc = CLI_OUTPUT;
	}
	return rc;
}
