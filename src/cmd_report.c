/* SPDX-License-Identifier: MIT */
/* gfxstat report: one self-contained HTML file with the numbers and charts of the frames. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_gate.h"
#include "cli_input.h"
#include "cli_output.h"
#include "cli_source.h"
#include "cmd_report.h"
#include "cmd_report_lanes.h"
#include "cmd_report_view.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_cause.h"
#include "gfxstat/gfxstat_source.h"

enum {
	OPT_TITLE = 256, OPT_HISTORY, OPT_COMPARE, OPT_DB, OPT_APP, OPT_METRIC, OPT_BY, OPT_BASE,
	OPT_NEW
};

static const struct cli_opt report_opts[] = {
	{ 'o', "output", "FILE", "where to write the report (report.html; for one session folder, "
	  "SESSION/report.html)" },
	{ OPT_TITLE, "title", "TEXT", "the page title (the inputs' names)" },
	{ 'q', "quiet", NULL, "no warnings about skipped input lines" },
	{ OPT_HISTORY, "history", NULL, "a trend page of --app from the history store, no INPUT" },
	{ OPT_COMPARE, "compare", NULL, "BASE NEW side by side, with compare's table" },
	{ OPT_BASE, "base", "INPUT", "--compare: one of BASE's inputs (repeatable; NEW's: --new)" },
	{ OPT_NEW, "new", "INPUT", "--compare: one of NEW's inputs (repeatable)" },
	{ OPT_DB, "db", "PATH|URL", "--history: the store (SQLite file or postgresql:// URL)" },
	{ OPT_APP, "app", "PKG", "--history: the app (required); --compare: only this app" },
	{ OPT_METRIC, "metric", "NAME", "--history: a metric to draw (repeatable; all of compare's)" },
	{ OPT_BY, "by", "label|version|day", "--history: how runs are grouped (label)" },
	{ 0, NULL, NULL, NULL },
};

static const char report_details[] =
	"INPUT is anything gfxstat reads, a 'gfxstat record' session folder (its raw capture is\n"
	"read), or a folder holding android_FPS_frome_GFX's fps.csv (from gfx.sh or 'gfxstat\n"
	"gfx'), whose rows make its table and FPS lane. Several INPUTs are read as one recording.\n"
	"The page tells the story top to bottom: per app a verdict (smooth, noticeable jank or\n"
	"janky: thresholds on the janky share and on FPS against the content's rate), its worst\n"
	"moment and the top cause of its janky frames; a timeline of FPS, frame times and janky\n"
	"frames on one time axis (seconds from the first frame), zoomed together, with lanes of\n"
	"the system's context where the recording has it (CPU frequency and load per cluster,\n"
	"GPU, temperature, power: a trace's own events, a session's context.csv) and a session's\n"
	"screenshots (record --screenshots) as thumbnails, larger on hover (at most 120, scaled\n"
	"down and embedded; the page says how many were left out); then the details, and every\n"
	"other tool's metrics folded.\n"
	"A run folder (one session per iteration or device), given alone, gets one report per\n"
	"session (SESSION/report.html) and an index page (DIR/index.html, or -o): the device,\n"
	"the date, per recording FPS, janky share, p90 and a small FPS chart, mean +- sd over\n"
	"them and the command comparing the run with another. A folder of recordings gets the\n"
	"same in DIR/reports/. Folders are expanded as compare expands them.\n"
	"The file holds all data, style and script (uPlot, embedded at build time): it opens\n"
	"from disk in any browser with no network. The summary and tables read without\n"
	"JavaScript; the numbers are those of 'gfxstat analyze --json' (see docs/report.md).\n"
	"--history (no INPUT) draws, per metric, --app's trend from the history store: each\n"
	"group's mean with its min-max and sd, significant steps marked, the numbers of 'gfxstat\n"
	"trend --format json', after a summary of the latest group against the previous one.\n"
	"--compare BASE NEW (or --base INPUT... --new INPUT..., as compare takes them) shows\n"
	"per app the verdict coloured by compare's own (red worse, green better, grey no\n"
	"significant change), both sides' FPS and frame-time timelines and frame-time CDFs\n"
	"overlaid, and the table of 'gfxstat compare --format json'.\n"
	"\n"
	"Exit status: 0 ok, 2 usage, 3 unreadable input or no frames, 5 cannot write.\n";

static const struct cli_cmd report_cmd = {
	"gfxstat report",
	"gfxstat report [-o FILE.html] [--title TEXT] [-q] INPUT...\n"
	"       gfxstat report --history --app PKG [--metric NAME]... [--by label|version|day]\n"
	"                      [--db PATH|URL] [-o FILE.html]\n"
	"       gfxstat report --compare [--app PKG] [-o FILE.html] BASE NEW\n"
	"       gfxstat report --compare [--app PKG] [-o FILE.html] --base INPUT... --new INPUT...",
	"One self-contained HTML report: a verdict per app, a timeline, janky frames, details.",
	report_details,
	report_opts,
};

struct report_run {
	const char *out, *title;
	int history, compare;
	struct cli_report_view view;
	char **side[2];   /* --compare's --base and --new operands */
	size_t nside[2];
	struct cli_source *src;
	struct gfxstat_metrics_opts mo;
	struct gfxstat_metrics *m;
	struct gfxstat_html *h;
	struct gfxstat_gfx_model *gfx;
	int lib_rc;
	unsigned long long frames;
	struct cli_report_head *head; /* the busiest app (or layer), for an index page, or NULL */
	struct gfxstat_cause why; /* the cause of the frame at hand (large: not on the stack) */
};

static int report_opt(void *user, int id, const char *arg)
{
	struct report_run *r = user;

	switch (id) {
	case 'o':
		r->out = arg;
		return 0;
	case OPT_TITLE:
		r->title = arg;
		return 0;
	case 'q':
		cli_quiet = 1;
		return 0;
	case OPT_HISTORY:
		r->history = 1;
		return 0;
	case OPT_COMPARE:
		r->compare = 1;
		return 0;
	case OPT_BASE:
	case OPT_NEW: {
		int k = id == OPT_NEW;
		char **n = realloc(r->side[k], (r->nside[k] + 1) * sizeof(*n));

		if (!n) {
			cli_error("out of memory");
			return -1;
		}
		r->side[k] = n;
		n[r->nside[k]++] = (char *)arg;
		return 0;
	}
	case OPT_DB:
		r->view.db = arg;
		return 0;
	case OPT_APP:
		r->view.app = arg;
		return 0;
	case OPT_BY:
		if (strcmp(arg, "label") && strcmp(arg, "version") && strcmp(arg, "day")) {
			cli_error("--by must be label, version or day, not '%s'", arg);
			return -1;
		}
		r->view.by = arg;
		return 0;
	case OPT_METRIC:
		if (cli_metric_find(arg, strlen(arg)) < 0 && strcmp(arg, "frames")) {
			cli_error("unknown metric '%s'", arg);
			return -1;
		}
		if (r->view.nmetrics == CLI_REPORT_MAX_METRICS) {
			cli_error("at most %d --metric", CLI_REPORT_MAX_METRICS);
			return -1;
		}
		r->view.metrics[r->view.nmetrics++] = arg;
		return 0;
	}
	return -1;
}

/* --history and --compare: a view page instead of a recording's report */
static int report_view(struct report_run *r, int nin, char **in)
{
	r->view.out = r->out;
	r->view.title = r->title;
	if (r->history && r->compare) {
		cli_error("--history and --compare are two different pages: give one");
		return CLI_USAGE;
	}
	if (r->history) {
		if (nin) {
			cli_error("--history takes no INPUT (the runs come from the store)");
			return CLI_USAGE;
		}
		return cli_report_history(&r->view);
	}
	if (r->view.db || r->view.by || r->view.nmetrics) {
		cli_error("--db, --by and --metric go with --history");
		return CLI_USAGE;
	}
	if (!r->nside[0] != !r->nside[1]) {
		cli_error("--base and --new go together: each side needs one or more inputs");
		return CLI_USAGE;
	}
	if (r->nside[0]) {
		if (nin) {
			cli_error("with --base and --new, no other input ('%s')", in[0]);
			return CLI_USAGE;
		}
		return cli_report_compare(&r->view, r->side[0], r->nside[0], r->side[1],
					  r->nside[1]);
	}
	if (nin != 2) {
		cli_error("--compare takes two inputs, BASE and NEW, not %d (several a side: --base "
			  "INPUT... --new INPUT...)", nin);
		return CLI_USAGE;
	}
	return cli_report_compare(&r->view, in, 1, in + 1, 1);
}

/*
 * Which frames may turn out janky is known only once every frame is in; their causes must be
 * written while the input's sections are at hand: as `analyze --janky` does, every frame but
 * those the source called on time, and those within 1.5 refresh periods with no deadline.
 */
static int may_be_janky(const struct gfxstat_frame *f)
{
	int64_t p = f->vsync_period_ns, iv = f->interval_ns;
	int has_deadline = f->expected_end_ns != GFXSTAT_NS_NONE ||
			   f->fi[GFXSTAT_FI_FRAME_DEADLINE] != GFXSTAT_NS_NONE;

	if (f->janky == 0)
		return 0;
	return !(f->janky < 0 && !has_deadline && iv != GFXSTAT_NS_NONE && p > 0 &&
		 p != GFXSTAT_NS_NONE && 2 * iv <= 3 * p);
}

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct report_run *r = user;

	r->frames++;
	/* untimed frames too: the library ranks them (before gfxstat_html_frame() counts it) */
	if (may_be_janky(f)) {
		/* with its class and cluster keys: the verdict's top cause, the timeline's colour */
		gfxstat_causes_why(r->src ? r->src->causes : NULL, f,
				   f->interval_ns != GFXSTAT_NS_NONE &&
						   f->present_ns != GFXSTAT_NS_NONE
					   ? f->present_ns - f->interval_ns : GFXSTAT_NS_NONE,
				   &r->why);
		if ((r->lib_rc = gfxstat_html_cause_why(r->h, f, &r->why)))
			return r->lib_rc;
	}
	if ((r->lib_rc = gfxstat_html_frame(r->h, f)) || (r->lib_rc = gfxstat_metrics_frame(r->m, f)))
		return r->lib_rc;
	r->lib_rc = gfxstat_gfx_model_frame(r->gfx, f);
	return r->lib_rc;
}

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *dir, const char *name, char *path, size_t cap)
{
	struct stat st;

	snprintf(path, cap, "%s/%s", dir, name);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

const char *cli_report_input(const char *path)
{
	static char buf[4096];

	if (!is_dir(path))
		return path;
	/* a session's capture, found as compare and every other command find it */
	return cli_session_capture(path, buf, sizeof(buf));
}

/* "model" and "android" of a session's device.json, for the header (no JSON parser here:
 * record writes flat string fields) */
static void device_meta(struct report_run *r, const char *dir)
{
	static const char *const keys[] = { "model", "android", "serial", "source", "why" };
	char path[4096], text[8192], line[600];
	size_t n, i, o = 0;
	FILE *f;

	if (!is_file(dir, "device.json", path, sizeof(path)) || !(f = fopen(path, "r")))
		return;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = 0;
	line[0] = 0;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char pat[32], *p, *e;

		snprintf(pat, sizeof(pat), "\"%s\":\"", keys[i]);
		if (!(p = strstr(text, pat)))
			continue;
		p += strlen(pat);
		e = strchr(p, '"');
		if (e && o < sizeof(line))
			o += (size_t)snprintf(line + o, sizeof(line) - o, "%s%s %.*s", o ? ", " : "",
					      keys[i], (int)(e - p), p);
	}
	if (line[0])
		gfxstat_html_meta(r->h, "device", line);
	if (line[0] && r->head)
		snprintf(r->head->device, sizeof(r->head->device), "%s", line);
}

/* A seed output folder: fps.csv rows, header left out. Return: CLI_OK or CLI_INPUT. */
static int read_seed(struct report_run *r, const char *dir)
{
	char path[4096], *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned long rows = 0;
	FILE *f;

	if (!is_file(dir, "fps.csv", path, sizeof(path)) || !(f = fopen(path, "r"))) {
		cli_error("%s: no capture (trace.txt.gz, latency.txt.gz, gfxinfo.txt.gz) and no "
			  "fps.csv in this folder", dir);
		return CLI_INPUT;
	}
	while ((n = getline(&line, &cap, f)) > 0) {
		if (!strncmp(line, "start time,", 11))
			continue;
		if (gfxstat_html_seed_row(r->h, line, (size_t)n)) {
			r->lib_rc = GFXSTAT_E_NOMEM;
			break;
		}
		rows++;
	}
	free(line);
	fclose(f);
	snprintf(path, sizeof(path), "%s/fps.csv: %lu windows (android_FPS_frome_GFX's output)",
		 dir, rows);
	gfxstat_html_meta(r->h, "input", path);
	return CLI_OK;
}

static void input_meta(struct report_run *r, const char *arg, const struct cli_source *s)
{
	char b[1200];

	snprintf(b, sizeof(b), "%s: %s%s%s%s%s, %llu bytes%s", arg, s->format,
		 s->layers_desc[0] ? " in " : "", s->layers_desc,
		 s->android[0] ? ", " : "", s->android, s->bytes,
		 s->warnings ? ", some lines skipped (see gfxstat inspect)" : "");
	gfxstat_html_meta(r->h, "input", b);
	if (s->have_sf && s->sf.nmodes > 1) {
		unsigned i;
		size_t o = 0;

		/* their times are on the timeline (from the start), not here in the trace clock */
		for (i = 0; i < s->sf.nmodes && o < sizeof(b); i++)
			o += (size_t)snprintf(b + o, sizeof(b) - o, "%s%.1f Hz", i ? ", then " : "",
					      1e9 / (double)s->sf.modes[i].period_ns);
		if (o < sizeof(b))
			snprintf(b + o, sizeof(b) - o, " (each switch is marked on the timeline)");
		gfxstat_html_meta(r->h, "refresh modes", b);
	}
}

static int write_file(void *user, const void *buf, size_t n)
{
	return fwrite(buf, 1, n, user) == n ? 0 : errno ? errno : EIO;
}

static int write_report(struct report_run *r, char **inputs, int n)
{
	char title[512];
	size_t o = 0;
	struct cli_output out;
	int i, rc;

	if (!r->title) {
		o = (size_t)snprintf(title, sizeof(title), "gfxstat report:");
		for (i = 0; i < n && o < sizeof(title); i++)
			o += (size_t)snprintf(title + o, sizeof(title) - o, " %s", inputs[i]);
		r->title = title;
	}
	if (cli_output_create(&out, r->out, 0))
		return CLI_OUTPUT;
	rc = gfxstat_html_write(r->h, r->frames ? r->m : NULL, r->mo.window_ns, r->title,
				write_file, out.f);
	if (rc) {
		/* the report as it was before stays */
		cli_output_close(&out, 0);
		cli_error("cannot write '%s': %s", r->out, gfxstat_strerror(rc));
		return rc == GFXSTAT_E_NOMEM || rc == GFXSTAT_E_INVAL ? CLI_INPUT : CLI_OUTPUT;
	}
	return cli_output_finish(&out, 1);
}

/* The app (else the layer) with the most frames, for the index page. */
static void headline(struct report_run *r)
{
	const struct gfxstat_layer_metrics *b = NULL;
	struct cli_report_head *h = r->head;
	size_t i, n = r->frames ? gfxstat_metrics_count(r->m) : 0;

	for (i = 0; i < n; i++) {
		const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(r->m, i);

		if (!b || l->is_app > b->is_app || (l->is_app == b->is_app && l->frames > b->frames))
			b = l;
	}
	if (!b || !h)
		return;
	snprintf(h->line, sizeof(h->line), "%s: %llu frames, %.1f FPS, %.1f %% janky", b->name,
		 (unsigned long long)b->frames, b->fps,
		 b->frames ? 100.0 * (double)b->janky_frames / (double)b->frames : 0.0);
	snprintf(h->app, sizeof(h->app), "%s", b->name);
	h->fps = cli_metric_value(b, CLI_M_FPS);
	h->janky_pct = cli_metric_value(b, CLI_M_JANKY_PCT);
	h->p90_ms = cli_metric_value(b, CLI_M_P90);
	h->duration_s = b->duration_s;
	free(h->wfps);
	h->nw = 0;
	if ((h->wfps = malloc((b->nwindows ? b->nwindows : 1) * sizeof(*h->wfps)))) {
		if (b->nwindows) /* no window: window_fps may be NULL, and memcpy's may not */
			memcpy(h->wfps, b->window_fps, b->nwindows * sizeof(*h->wfps));
		h->nw = b->nwindows;
	}
}

static int run(struct report_run *r, char **inputs, int n)
{
	struct gfxstat_gfx_opts go;
	struct gfxstat_gfx_sink sink = { gfxstat_html_seed_window, NULL, NULL };
	int i, rc = CLI_OK, nseed = 0;
	char ver[64];

	gfxstat_gfx_opts_init(&go);
	/* causes from thread states where the trace has the scheduler's events, as analyze */
	cli_source_thread_states();
	/* the trace's CPU, GPU, thermal and power series: the timeline's context lanes */
	cli_source_system(r->mo.window_ns);
	sink.user = r->h = gfxstat_html_new(cli_report_assets);
	r->m = cli_metrics_new(&r->mo);
	r->gfx = gfxstat_gfx_model_new(&go, &sink);
	if (!r->h || !r->m || !r->gfx) {
		cli_error("out of memory");
		rc = CLI_INPUT;
		goto out;
	}
	snprintf(ver, sizeof(ver), "gfxstat %s", GFXSTAT_VERSION);
	gfxstat_html_meta(r->h, "made by", ver);
	cli_catch_signals();
	for (i = 0; i < n && !cli_stop_signal && !r->lib_rc; i++) {
		const char *path = cli_report_input(inputs[i]);
		struct cli_source src;
		size_t k;
		int src_rc;

		if (is_dir(inputs[i]))
			device_meta(r, inputs[i]);
		if (!path) {
			if ((src_rc = read_seed(r, inputs[i])))
				rc = src_rc;
			nseed++;
			continue;
		}
		r->src = &src;
		src_rc = cli_source_read(path, on_frame, r, &src);
		r->src = NULL;
		if (src_rc) {
			rc = src_rc;
			continue;
		}
		input_meta(r, path, &src);
		/* the context lanes and a session's screenshots, on the frames' clock */
		if (!r->lib_rc)
			r->lib_rc = cli_report_lanes(r->h, is_dir(inputs[i]) ? inputs[i] : NULL, &src);
		cli_source_report(&src, 0);
		/* the report of a damaged input is written (what could be read, said in it), and
		 * the run exits 3 as every command does */
		if (cli_source_damaged(&src))
			rc = CLI_INPUT;
		/* Android's own summaries (dumpsys gfxinfo), shown beside the frames' figures */
		for (k = 0; src.summary && k < src.summary->ngfxinfo_own && !r->lib_rc; k++) {
			const struct gfxstat_gfxinfo_own *o = &src.summary->gfxinfo_own[k];
			int app = o->kind == GFXSTAT_BLOCK_PROCESS;

			r->lib_rc = gfxstat_metrics_own_summary(r->m, app ? o->app : o->name, app,
								o->total_frames, o->janky_frames);
		}
		cli_source_free(&src);
	}
	if (cli_interrupted()) {
		/* a report of part of the input would look whole: none, and the old one stays */
		rc = cli_interrupted();
		goto out;
	}
	if (r->lib_rc || gfxstat_metrics_finish(r->m) || gfxstat_gfx_model_finish(r->gfx)) {
		cli_error("%s", gfxstat_strerror(r->lib_rc ? r->lib_rc : GFXSTAT_E_NOMEM));
		rc = CLI_INPUT;
		goto out;
	}
	if (rc == CLI_OK && !r->frames && !nseed) {
		cli_error("no frames in the input: nothing to report");
		rc = CLI_INPUT;
	}
	/* inputs that are not one recording (refused as overlapping): no report */
	if ((rc == CLI_OK || r->frames) && !cli_source_refused()) {
		int wrc = write_report(r, inputs, n);

		rc = wrc > CLI_OUTPUT ? wrc : wrc ? CLI_OUTPUT : rc;
	}
	headline(r);
out:
	gfxstat_gfx_model_free(r->gfx);
	gfxstat_metrics_free(r->m);
	gfxstat_html_free(r->h);
	return rc;
}

int cli_report_write(const char *session_dir, const char *out)
{
	struct report_run r;
	char path[4096], *inputs[1];

	memset(&r, 0, sizeof(r));
	gfxstat_metrics_opts_init(&r.mo);
	if (!out) {
		snprintf(path, sizeof(path), "%s/report.html", session_dir);
		out = path;
	}
	r.out = out;
	inputs[0] = (char *)session_dir;
	return run(&r, inputs, 1);
}

int cli_report_one(const char *input, const char *out, struct cli_report_head *head)
{
	struct report_run r;
	char *inputs[1];

	memset(&r, 0, sizeof(r));
	gfxstat_metrics_opts_init(&r.mo);
	r.out = out;
	r.head = head;
	inputs[0] = (char *)input;
	cli_source_end_recording(); /* each recording of an index on its own */
	return run(&r, inputs, 1);
}

/* A session folder of a run: a raw capture, or an fps.csv of android_FPS_frome_GFX. */
static int is_session(const char *dir)
{
	char path[4096];

	return is_dir(dir) && (cli_report_input(dir) || is_file(dir, "fps.csv", path, sizeof(path)));
}

int cmd_report(int argc, char **argv)
{
	struct report_run r;
	char path[4096];
	int first;

	memset(&r, 0, sizeof(r));
	gfxstat_metrics_opts_init(&r.mo);
	r.out = "report.html";
	first = cli_parse(&report_cmd, argc, argv, report_opt, &r);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;
	if ((r.nside[0] || r.nside[1]) && !r.compare) {
		cli_error("--base and --new go with --compare");
		free(r.side[0]);
		free(r.side[1]);
		return CLI_USAGE;
	}
	if (r.history || r.compare) {
		int vrc = report_view(&r, argc - first, argv + first);

		free(r.side[0]);
		free(r.side[1]);
		return vrc;
	}
	if (r.view.db || r.view.app || r.view.by || r.view.nmetrics) {
		cli_error("--db, --app, --by and --metric go with --history or --compare");
		return CLI_USAGE;
	}
	if (first == argc) {
		cli_error("no input; give a trace, a dump, a session folder or a folder of fps.csv");
		return CLI_USAGE;
	}
	if (first + 1 == argc && is_dir(argv[first]) && !is_session(argv[first]))
		return cli_report_index(argv[first], strcmp(r.out, "report.html") ? r.out : NULL,
					r.title);
	if (first + 1 == argc && is_dir(argv[first]) && !strcmp(r.out, "report.html") &&
	    cli_report_input(argv[first])) {
		snprintf(path, sizeof(path), "%s/report.html", argv[first]);
		r.out = path;
	}
	return run(&r, argv + first, argc - first);
}
