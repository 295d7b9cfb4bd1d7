/* SPDX-License-Identifier: MIT */
/* gfxstat analyze: every anchor tool's metric, per layer and per app, from the frames. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_json.h"
#include "cli_source.h"
#include "cmd_analyze.h"
#include "gfxstat/gfxstat.h"

enum {
	OPT_JSON = 256, OPT_CSV, OPT_FORMAT, OPT_ALL, OPT_METRICS, OPT_WINDOW, OPT_LAYER, OPT_APP,
	OPT_WAIT, OPT_TARGET, OPT_KPI, OPT_JANKY, OPT_SCROLL_ONLY, OPT_FAIL_IF, OPT_JUNIT,
	OPT_SAVE, OPT_DB, OPT_LABEL
};

static const struct cli_opt analyze_opts[] = {
	{ OPT_FORMAT, "format", "table|json|csv",
	  "table: the answer first; json: every metric; csv: the per-window FPS series" },
	{ OPT_JSON, "json", NULL, "same as --format json" },
	{ OPT_CSV, "csv", NULL, "same as --format csv" },
	{ OPT_ALL, "all", NULL, "table: every tool's metric family too" },
	{ OPT_METRICS, "metrics", "LIST", "table: these families too (fps,perfdog,android,seed,"
	  "apple,matrix,taobao,scrolls)" },
	{ OPT_JANKY, "janky", NULL, "list the janky frames with the cause of each, then stop" },
	{ OPT_WINDOW, "window", "SEC", "window of the FPS series (1)" },
	{ OPT_SCROLL_ONLY, "scroll-only", NULL, "every metric over scroll frames only (scroll FPS)" },
	{ OPT_LAYER, "layer", "SUBSTRING", "only layers whose name contains SUBSTRING" },
	{ OPT_APP, "app", "PKG", "only the layers of this package" },
	{ OPT_WAIT, "wait", "MS", "intervals this long are idle waits, left out of FPS (500)" },
	{ OPT_TARGET, "target", "FPS", "target FPS of the seed's score (60)" },
	{ OPT_KPI, "kpi", "MS", "frame-time KPI of the seed's score (100)" },
	{ OPT_FAIL_IF, "fail-if", "EXPR", "exit 1 when an app's metric meets EXPR, e.g. 'fps<55', "
	  "'janky_pct>5', 'p99_ms>50' (repeatable; docs/compare.md)" },
	{ OPT_JUNIT, "junit", "FILE", "write the gates as JUnit XML (one test case per gate and app)" },
	{ OPT_SAVE, "save", NULL, "store the run's metrics in the history (gfxstat history)" },
	{ OPT_DB, "db", "PATH|URL", "the history: a SQLite file or postgres:// URL (default "
	  "$XDG_DATA_HOME/gfxstat/history.db)" },
	{ OPT_LABEL, "label", "TEXT", "with --save: a build id, git sha or branch" },
	{ 'q', "quiet", NULL, "no warnings about skipped input lines" },
	{ 0, NULL, NULL, NULL },
};

static const char analyze_details[] =
	"Frame time is the interval between consecutive presents of a layer (an app: of the\n"
	"union of its layers' presents). Each metric follows its anchor's own definition; see\n"
	"docs/metrics.md for the formula and source of each:\n"
	"  fps, fps_wall       frames/active time (waits >= --wait left out, the seed's rule);\n"
	"                      intervals over the whole span\n"
	"  frame_ms p50..p99   nearest rank over counted frame times; max\n"
	"  fps_median          median of the per-window FPS (GameBench); fps_low_1pct: 1000 /\n"
	"                      mean of the slowest 1% of frame times (GameBench Low 1%)\n"
	"  jank, big_jank      PerfDog: > 2x the mean of the previous 3 frame times and\n"
	"                      > 83.3 ms (jank) / > 125 ms (big jank); stutter = jank time / span\n"
	"  cadence             the refresh multiple the content sustains (30 FPS game: 2 at 60 Hz);\n"
	"                      slow frames, hitch, seed D and Taobao windows are judged against it\n"
	"                      (--json 'refresh' keeps them against the refresh period)\n"
	"  janky               the source's own verdict where it gives one, else slow: one\n"
	"                      definition for the count and the --janky list\n"
	"  frozen_frames       Android: >= 700 ms; slow_frames: missed a vsync of the cadence\n"
	"  A B C D score       the seed's buckets and score, FPS term capped at 1\n"
	"  hitch_ms_per_s      Apple: time beyond the cadence period per second of activity\n"
	"  matrix              Tencent Matrix: dropped = (t - period) / period; levels at 3/9/24/42\n"
	"  jank_windows        Taobao jank-FPS windows under 5/6 of the cadence rate\n"
	"  scrolls             frames driven by input (an input section in the app's doFrame),\n"
	"                      through the fling, until 200 ms without a frame: per scroll FPS,\n"
	"                      hitch rate (Taobao scrollHitchRate), jank, longest frame, and\n"
	"                      the slope of the hitch rate over the scrolls (worse further on?)\n"
	"Thresholds in vsyncs follow the measured refresh rate; those in ms stay in ms.\n"
	"Several INPUTs are read as one recording: a layer's frames from all of them together.\n"
	"\n"
	"The table answers \"how smooth was it?\" first: per app, then per layer, its frames,\n"
	"FPS, janky share (the one definition above), frame-time p50/p90/p99 and the worst\n"
	"frames with their causes; --all or --metrics LIST add the families above.\n"
	"No frame (or none that --layer/--app match: the layers and apps found are listed),\n"
	"--scroll-only with no scroll, or an empty input exits 3; a damaged or truncated input\n"
	"exits 3 after the results of what could be read.\n";

static const struct cli_cmd analyze_cmd = {
	"gfxstat analyze",
	"gfxstat analyze [--format table|json|csv | --janky] [--all | --metrics LIST]\n"
	"                       [--window SEC] [--layer SUBSTRING] [--app PKG] [--scroll-only]\n"
	"                       [--wait MS] [--target FPS] [--kpi MS] [-q] INPUT...",
	"Frame rate and jank per layer and per app, by every anchor tool's definition.",
	analyze_details,
	analyze_opts,
};

/* The cause of a frame that may turn out janky, written while its input's sections are known;
 * keyed by layer and present (untimed frames: their rank among the layer's untimed ones). */
struct cause_rec {
	char *layer;
	int64_t present;
	uint64_t ord;
	char *cause;
};

/* Untimed frames seen per layer, to rank them as the library does. */
struct untimed_count {
	char *layer;
	uint64_t n;
};

struct analyze_run {
	int json, csv, janky;
	unsigned families;        /* AN_*: the other tools' metrics in the table */
	struct cli_source *src;   /* the input being read, for its section tracker */
	unsigned long long njanky;
	struct cause_rec *causes;
	size_t ncauses, capcauses;
	struct untimed_count *untimed;
	size_t nuntimed;
	const char *layer, *app;
	struct gfxstat_metrics_opts mo;
	struct gfxstat_metrics *m;
	int lib_rc;
	struct cli_json_header hdr; /* --format json */
	struct cli_analyze_gates gates; /* --fail-if, --junit, --save */
};

static int analyze_opt(void *user, int id, const char *arg)
{
	struct analyze_run *r = user;
	long long ns;

	switch (id) {
	case OPT_FORMAT:
		if (strcmp(arg, "table") && strcmp(arg, "json") && strcmp(arg, "csv")) {
			cli_error("--format takes table, json or csv, not '%s'", arg);
			return -1;
		}
		r->json = !strcmp(arg, "json");
		r->csv = !strcmp(arg, "csv");
		return 0;
	case OPT_JSON:
		r->json = 1;
		return 0;
	case OPT_CSV:
		r->csv = 1;
		return 0;
	case OPT_ALL:
		r->families = AN_ALL;
		return 0;
	case OPT_METRICS:
		return cli_analyze_families(arg, &r->families);
	case OPT_JANKY:
		r->janky = 1;
		return 0;
	case OPT_SCROLL_ONLY:
		r->mo.scroll_only = 1;
		return 0;
	case OPT_WINDOW:
		if (cli_duration_ns("--window", arg, GFXSTAT_NSEC_PER_SEC, &ns))
			return -1;
		if (ns < GFXSTAT_NSEC_PER_MSEC) {
			cli_error("--window must be at least 0.001 s, not '%s'", arg);
			return -1;
		}
		r->mo.window_ns = ns;
		return 0;
	case OPT_WAIT:
		if (cli_duration_ns("--wait", arg, GFXSTAT_NSEC_PER_MSEC, &ns))
			return -1;
		if (ns < GFXSTAT_NSEC_PER_MSEC) {
			cli_error("--wait must be at least 1 ms, not '%s'", arg);
			return -1;
		}
		r->mo.wait_ns = ns;
		return 0;
	case OPT_TARGET:
		return cli_double("--target", arg, 0.001, 1e6, &r->mo.target_fps);
	case OPT_KPI:
		return cli_double("--kpi", arg, 0, 1e9, &r->mo.kpi_ms);
	case OPT_LAYER:
		r->layer = arg;
		return 0;
	case OPT_APP:
		r->app = arg;
		return 0;
	case OPT_FAIL_IF:
		return cli_analyze_gate_add(&r->gates, arg);
	case OPT_JUNIT:
		return cli_check_path("--junit", arg) ? -1 : (r->gates.junit = arg, 0);
	case OPT_SAVE:
		r->gates.save = 1;
		return 0;
	case OPT_DB:
		r->gates.db = arg;
		return 0;
	case OPT_LABEL:
		r->gates.label = arg;
		return 0;
	case 'q':
		cli_quiet = 1;
		return 0;
	}
	return -1;
}

static const char *csv_name(const char *s);

static char *dup_n(const char *p, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, p, n);
		d[n] = 0;
	}
	return d;
}

/* the rank of an untimed frame among its layer's untimed frames */
static int untimed_rank(struct analyze_run *r, const struct gfxstat_frame *f, uint64_t *ord)
{
	size_t i;
	struct untimed_count *nu;

	for (i = 0; i < r->nuntimed; i++)
		if (strlen(r->untimed[i].layer) == f->layer.n &&
		    !memcmp(r->untimed[i].layer, f->layer.p, f->layer.n)) {
			*ord = r->untimed[i].n++;
			return 0;
		}
	nu = realloc(r->untimed, (r->nuntimed + 1) * sizeof(*nu));
	if (!nu)
		return -1;
	r->untimed = nu;
	nu[r->nuntimed].layer = dup_n(f->layer.p, f->layer.n);
	if (!nu[r->nuntimed].layer)
		return -1;
	nu[r->nuntimed].n = 1;
	r->nuntimed++;
	*ord = 0;
	return 0;
}

/*
 * --janky: which frames are janky is decided by the library once every frame is in (the one
 * definition, against the content's cadence); the cause must be written now, while the input's
 * sections are at hand. So every frame that could be janky gets its cause recorded: all but
 * those the source itself called on time, and those within 1.5 refresh periods of the previous
 * present with no deadline of their own (on time whatever the cadence).
 */
static int record_cause(struct analyze_run *r, const struct gfxstat_frame *f)
{
	int64_t p = f->vsync_period_ns, iv = f->interval_ns;
	int has_deadline = f->expected_end_ns != GFXSTAT_NS_NONE ||
			   f->fi[GFXSTAT_FI_FRAME_DEADLINE] != GFXSTAT_NS_NONE;
	uint64_t ord = 0;
	char cause[512];
	struct cause_rec *c;

	if (f->janky == 0)
		return 0;
	if (f->janky < 0 && !has_deadline && iv != GFXSTAT_NS_NONE && p > 0 &&
	    p != GFXSTAT_NS_NONE && 2 * iv <= 3 * p)
		return 0;
	if (f->present_ns == GFXSTAT_NS_NONE && untimed_rank(r, f, &ord))
		return GFXSTAT_E_NOMEM;
	gfxstat_causes_explain(r->src ? r->src->causes : NULL, f,
			       iv != GFXSTAT_NS_NONE && f->present_ns != GFXSTAT_NS_NONE
				       ? f->present_ns - iv : GFXSTAT_NS_NONE,
			       cause, sizeof(cause));
	if (r->ncauses == r->capcauses) {
		size_t nc = r->capcauses ? r->capcauses * 2 : 256;
		struct cause_rec *n = realloc(r->causes, nc * sizeof(*n));

		if (!n)
			return GFXSTAT_E_NOMEM;
		r->causes = n;
		r->capcauses = nc;
	}
	c = &r->causes[r->ncauses];
	c->layer = dup_n(f->layer.p, f->layer.n);
	c->cause = dup_n(cause, strlen(cause));
	c->present = f->present_ns;
	c->ord = ord;
	if (!c->layer || !c->cause) {
		free(c->layer);
		free(c->cause);
		return GFXSTAT_E_NOMEM;
	}
	r->ncauses++;
	return 0;
}

static int cmp_cause(const void *a, const void *b)
{
	const struct cause_rec *x = a, *y = b;
	int c = strcmp(x->layer, y->layer);

	if (c)
		return c;
	if (x->present != y->present)
		return x->present < y->present ? -1 : 1;
	return (x->ord > y->ord) - (x->ord < y->ord);
}

/* The table's worst frames: the cause recorded for janky frame @j of @l (causes sorted). */
static const char *table_cause(void *user, const struct gfxstat_layer_metrics *l,
			       const struct gfxstat_janky_frame *j)
{
	struct analyze_run *r = user;
	struct cause_rec key, *c;

	if (!r->ncauses)
		return NULL;
	key.layer = (char *)l->name;
	key.present = j->present_ns;
	key.ord = j->present_ns == GFXSTAT_NS_NONE ? j->index - (l->frames - l->untimed) : 0;
	c = bsearch(&key, r->causes, r->ncauses, sizeof(*r->causes), cmp_cause);
	return c ? c->cause : NULL;
}

/* --janky: every janky frame of every layer, by present, with the cause recorded for it */
static int print_janky(struct analyze_run *r)
{
	size_t i, nrows;
	struct gfxstat_janky_ref *rows;

	nrows = gfxstat_metrics_janky_all(r->m, &rows);
	if (nrows == (size_t)-1)
		return -1;
	if (r->ncauses) /* never qsort(NULL, 0, ...) */
		qsort(r->causes, r->ncauses, sizeof(*r->causes), cmp_cause);
	for (i = 0; i < nrows; i++) {
		const struct gfxstat_janky_frame *j = rows[i].frame;
		const struct gfxstat_layer_metrics *l = rows[i].layer;
		struct cause_rec key, *c;

		key.layer = (char *)l->name;
		key.present = j->present_ns;
		key.ord = j->present_ns == GFXSTAT_NS_NONE ? j->index - (l->frames - l->untimed) : 0;
		c = bsearch(&key, r->causes, r->ncauses, sizeof(*r->causes), cmp_cause);
		if (!r->njanky++)
			printf("time_s,layer,frame_ms,vsyncs,cadence_fps,cause\n");
		if (j->present_ns != GFXSTAT_NS_NONE)
			printf("%.6f,", (double)j->present_ns / 1e9);
		else
			printf(",");
		printf("\"%s\",", csv_name(l->name));
		if (j->length_ns != GFXSTAT_NS_NONE)
			printf("%.3f,%.1f,", (double)j->length_ns / 1e6,
			       (double)j->length_ns / (double)l->period_ns);
		else
			printf(",,");
		printf("%.1f,\"%s\"\n", 1e9 / (double)j->cadence_ns,
		       c ? c->cause : "unknown (no cause recorded for this frame)");
	}
	free(rows);
	return 0;
}

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct analyze_run *r = user;

	if (r->layer && !cli_str_contains(f->layer, r->layer))
		return 0;
	if (r->app && (f->app.n != strlen(r->app) || memcmp(f->app.p, r->app, f->app.n)))
		return 0;
	/* --janky and the table's worst frames name causes: known only while reading */
	if ((r->janky || (!r->json && !r->csv)) && (r->lib_rc = record_cause(r, f)))
		return r->lib_rc;
	cli_json_header_frame(&r->hdr, f);
	r->lib_rc = gfxstat_metrics_frame(r->m, f);
	return r->lib_rc;
}

/* a layer name for a quoted CSV field: '"' doubled (names with quotes are rare) */
static const char *csv_name(const char *s)
{
	static char buf[1024];
	size_t o = 0;

	for (; *s && o + 2 < sizeof(buf); s++) {
		if (*s == '"')
			buf[o++] = '"';
		buf[o++] = *s;
	}
	buf[o] = 0;
	return buf;
}

static int any_scroll(const struct gfxstat_metrics *m)
{
	size_t k, n = gfxstat_metrics_count(m);

	for (k = 0; k < n; k++)
		if (gfxstat_metrics_get(m, k)->nscrolls)
			return 1;
	return 0;
}

static void free_run(struct analyze_run *r)
{
	size_t i;

	for (i = 0; i < r->ncauses; i++) {
		free(r->causes[i].layer);
		free(r->causes[i].cause);
	}
	free(r->causes);
	for (i = 0; i < r->nuntimed; i++)
		free(r->untimed[i].layer);
	free(r->untimed);
	cli_analyze_gates_free(&r->gates);
	gfxstat_metrics_free(r->m);
	cli_json_header_free(&r->hdr);
}

int cmd_analyze(int argc, char **argv)
{
	struct analyze_run r;
	struct cli_source last;
	unsigned long long damaged = 0;
	int first, i, rc = CLI_OK, nread = 0;
	size_t n;

	memset(&r, 0, sizeof(r));
	cli_json_header_init(&r.hdr, "analyze");
	gfxstat_metrics_opts_init(&r.mo);
	first = cli_parse(&analyze_cmd, argc, argv, analyze_opt, &r);
	if (first == -2)
		return CLI_OK;
	if (first < 0) {
		cli_analyze_gates_free(&r.gates);
		return CLI_USAGE;
	}
	if (r.json && r.csv) {
		cli_error("--json and --csv cannot be used together");
		cli_analyze_gates_free(&r.gates);
		return CLI_USAGE;
	}
	if (first == argc) {
		cli_error("no input; give a trace or dump file, or '-' for standard input");
		cli_analyze_gates_free(&r.gates);
		return CLI_USAGE;
	}
	r.m = gfxstat_metrics_new(&r.mo);
	if (!r.m) {
		cli_error("out of memory");
		return CLI_INPUT;
	}
	cli_catch_signals();
	for (i = first; i < argc && !cli_stop_signal; i++) {
		struct cli_source src;
		int src_rc;

		r.src = &src;
		src_rc = cli_source_read(argv[i], on_frame, &r, &src);
		r.src = NULL;

		if (src_rc) {
			rc = src_rc;
			continue;
		}
		cli_source_report(&src, 0);
		if (cli_json_header_source(&r.hdr, &src))
			r.lib_rc = GFXSTAT_E_NOMEM;
		damaged += src.warnings;
		last = src;
		nread++;
		cli_source_free(&src);
	}
	if (r.lib_rc || gfxstat_metrics_finish(r.m)) {
		cli_error("%s", gfxstat_strerror(r.lib_rc ? r.lib_rc : GFXSTAT_E_NOMEM));
		free_run(&r);
		return CLI_INPUT;
	}
	{
		uint64_t dropped_frames, dropped = gfxstat_metrics_dropped(r.m, &dropped_frames);

		if (dropped)
			cli_warn("%llu layer%s past the 4096-layer limit left out (%llu frames)",
				 (unsigned long long)dropped, dropped == 1 ? "" : "s",
				 (unsigned long long)dropped_frames);
	}
	n = gfxstat_metrics_count(r.m);
	if (!n) {
		/* "no frames" is no answer: say what the input holds, exit 3 (issue 8) */
		if (nread && !cli_stop_signal)
			rc = cli_source_no_frames(&last, r.layer, r.app);
		free_run(&r);
		return rc ? rc : CLI_INPUT;
	}
	if (r.mo.scroll_only && n && !any_scroll(r.m)) {
		/* every metric would be 0 over no frames: that is no answer, not a good one */
		cli_error("--scroll-only: no scroll found (no frame of the app's work handled input; "
			  "record with the 'input' and 'view' categories)");
		free_run(&r);
		return CLI_INPUT;
	}
	if (r.janky) {
		if (print_janky(&r))
			rc = CLI_INPUT;
		else if (!r.njanky)
			printf("no janky frames\n");
	} else if (r.json) {
		cli_json_analyze(stdout, &r.hdr, r.m);
	} else if (r.csv) {
		cli_csv_analyze(stdout, r.m, r.mo.window_ns);
	} else {
		if (r.ncauses)
			qsort(r.causes, r.ncauses, sizeof(*r.causes), cmp_cause);
		cli_analyze_text(r.m, r.families, table_cause, &r);
	}
	if (fflush(stdout)) {
		cli_error("cannot write standard output: %s", strerror(errno));
		rc = CLI_OUTPUT;
	}
	/* damage is said after the results, as in every command */
	if (rc == CLI_OK && damaged)
		rc = cli_damaged(nread == 1 ? last.path : "the inputs", damaged);
	if (rc == CLI_OK && !r.janky) {
		int grc = cli_analyze_save(&r.gates, r.m, nread == 1 ? last.path : argv[first],
					   nread == 1 ? last.format : "several inputs");

		if (grc == CLI_OK)
			grc = cli_analyze_gates_run(&r.gates, r.m);
		rc = grc;
	}
	free_run(&r);
	return rc;
}
