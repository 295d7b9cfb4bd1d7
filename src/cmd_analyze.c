/* SPDX-License-Identifier: MIT */
/* gfxstat analyze: every other tool's metric, per layer and per app, from the frames. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_input.h"
#include "cli_json.h"
#include "cli_source.h"
#include "cli_system.h"
#include "cmd_analyze.h"
#include "cmd_analyze_why.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_source.h"

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
	{ OPT_METRICS, "metrics", "LIST", "table: these families too (fps,perfdog,android,gfx,"
	  "apple,matrix,taobao,scrolls; gfx: android_FPS_frome_GFX's A/B/C/D buckets and score)" },
	{ OPT_JANKY, "janky", NULL, "list the janky frames with the cause of each, then stop" },
	{ OPT_WINDOW, "window", "SEC", "window of the FPS series (1)" },
	{ OPT_SCROLL_ONLY, "scroll-only", NULL, "every metric over scroll frames only (scroll FPS)" },
	{ OPT_LAYER, "layer", "SUBSTRING", "only layers whose name contains SUBSTRING" },
	{ OPT_APP, "app", "PKG", "only the layers of this package" },
	{ OPT_WAIT, "wait", "MS", "intervals this long are idle waits, left out of FPS (500)" },
	{ OPT_TARGET, "target", "FPS", "target FPS of android_FPS_frome_GFX's score (60)" },
	{ OPT_KPI, "kpi", "MS", "frame-time KPI of android_FPS_frome_GFX's score (100)" },
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
	"union of its layers' presents). Each metric follows the definition of the tool it comes\n"
	"from; see docs/metrics.md for the formula and source of each:\n"
	"  fps, fps_wall       frames/active time (waits >= --wait left out, as\n"
	"                      android_FPS_frome_GFX); intervals over the whole span\n"
	"  frame_ms p50..p99   nearest rank over counted frame times; max\n"
	"  fps_median          median of the per-window FPS (GameBench); fps_low_1pct: 1000 /\n"
	"                      mean of the slowest 1% of frame times (GameBench Low 1%)\n"
	"  jank, big_jank      PerfDog: > 2x the mean of the previous 3 frame times and\n"
	"                      > 83.3 ms (jank) / > 125 ms (big jank); stutter = jank time / span\n"
	"  cadence             the refresh multiple the content sustains (30 FPS game: 2 at 60 Hz);\n"
	"                      slow frames, hitch, D and Taobao windows are judged against it\n"
	"                      (--json 'refresh' keeps them against the refresh period)\n"
	"  janky               the source's own verdict where it gives one, else slow: one\n"
	"                      definition for the count and the --janky list\n"
	"  frozen_frames       Android: >= 700 ms; slow_frames: missed a vsync of the cadence\n"
	"  A B C D score       family gfx: android_FPS_frome_GFX's frame-time buckets and score,\n"
	"                      FPS term capped at 1 (JSON key \"seed\")\n"
	"  hitch_ms_per_s      Apple: time beyond the cadence period per second of activity\n"
	"  matrix              Tencent Matrix: dropped = (t - period) / period; levels at 3/9/24/42\n"
	"  jank_windows        Taobao jank-FPS windows under 5/6 of the cadence rate\n"
	"  scrolls             frames driven by input (an input section in the app's doFrame),\n"
	"                      through the fling, until 200 ms without a frame: per scroll FPS,\n"
	"                      hitch rate (Taobao scrollHitchRate), jank, longest frame, and\n"
	"                      the slope of the hitch rate over the scrolls (worse further on?)\n"
	"Thresholds in vsyncs follow the measured refresh rate; those in ms stay in ms.\n"
	"Files given one after another are read as one recording: a layer's frames from all of\n"
	"them together, in time order. A session folder of 'gfxstat record' is its capture. A\n"
	"run folder (record --repeat or --all) or a folder of recordings (every file in it but\n"
	".json, .csv, .log, .md and .xml) holds several recordings: each is analysed on its own\n"
	"and printed, then the mean +- sd of fps, janky_pct, p50/p90/p99_ms, jank and big jank\n"
	"per minute, hitch_ms_per_s, scroll_fps and frozen_frames over them, per app (JSON:\n"
	"\"recordings\" and \"summary\"); --fail-if judges the means, --save stores each\n"
	"recording; --csv and --janky take one recording.\n"
	"\n"
	"The table answers \"how smooth was it?\" first: per app, then per layer, its frames,\n"
	"FPS, janky share (the one definition above), frame-time p50/p90/p99 (of the intervals)\n"
	"and the worst frames with their causes (at a time from the recording's first present,\n"
	"the trace clock in brackets); --all or --metrics LIST add the families above. A janky\n"
	"frame's length, there and in --janky, is its own time where the source gives it\n"
	"(gfxinfo: IntendedVsync to its end; FrameTimeline: expected start to actual end; a\n"
	"trace: its doFrame's start to its present), else its interval. --janky's CSV has\n"
	"time_s (from the first present, as the worst frames) and trace_clock_s.\n"
	"A janky frame's cause is one class (busy, slow_cpu, cpu_starved, sleeping, blocked_io,\n"
	"gpu, gc, surfaceflinger, app_work, idle, unknown) with its evidence: where the trace has\n"
	"the scheduler's events (the 'sched freq' categories), from the states of the threads\n"
	"that did its work (docs/metrics.md). The table's \"why\" line and JSON's \"causes\" group\n"
	"the janky frames by cause, most jank time first, with how late they were (FrameTimeline:\n"
	"actual end past expected end; else its interval past the cadence period; or \"not known\");\n"
	"--janky --format json gives each frame's doFrame thread (main_thread) and RenderThread\n"
	"(render_thread; for a surface drawn without Choreographer, the thread that queued its\n"
	"buffer, from one queueBuffer to the next): states, CPUs, frequency, binder calls, waker.\n"
	"No frame (or none that --layer/--app match: the layers and apps found are listed),\n"
	"--scroll-only with no scroll, or an empty input exits 3; a damaged or truncated input\n"
	"exits 3 after the results of what could be read.\n"
	"--fail-if METRIC<N (<=, >, >=; metrics as in 'gfxstat compare') is judged on every app\n"
	"(every layer when none names an app) and on --app PKG: an app gated with --app that has\n"
	"no frames (in any recording) fails the gate, exit 1, as a failure in --junit FILE.\n";

static const struct cli_cmd analyze_cmd = {
	"gfxstat analyze",
	"gfxstat analyze [--format table|json|csv | --janky] [--all | --metrics LIST]\n"
	"                       [--window SEC] [--layer SUBSTRING] [--app PKG] [--scroll-only]\n"
	"                       [--wait MS] [--target FPS] [--kpi MS] [--fail-if EXPR]...\n"
	"                       [--junit FILE] [--save [--db PATH|URL] [--label L]] [-q] INPUT...",
	"Frame rate and jank per layer and per app, by the definitions of every tool gfxstat\n"
	"reproduces: PerfDog, GameBench, Android, Apple, Tencent Matrix, Taobao and\n"
	"android_FPS_frome_GFX (gfx.sh).",
	analyze_details,
	analyze_opts,
};

/* The cause of a frame that may turn out janky, written while its input's sections are known;
 * keyed by layer and present (untimed frames: their rank among the layer's untimed ones). */
struct cause_rec {
	const char *layer; /* interned in the run's pool */
	int64_t present;
	uint64_t ord;
	int janky;           /* the source's verdict: 1, or -1 none */
	unsigned char *why;  /* packed (cli_why_pack()): its text, class, evidence and threads */
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
	struct cli_why_pool *pool; /* the causes' signatures, summaries and layer names */
	struct untimed_count *untimed;
	size_t nuntimed;
	const char *layer, *app;
	struct gfxstat_metrics_opts mo;
	struct gfxstat_metrics *m;
	int lib_rc;
	struct cli_json_header hdr; /* --format json */
	unsigned long long frames_seen; /* the recording's frames before --layer/--app */
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
	struct gfxstat_cause why;
	struct cause_rec *c;

	/* an untimed frame is found again by its rank among all the untimed frames of its layer
	 * that the library keeps (those with a duration), janky or not: janky_frame.index
	 * counts them all (metrics.c), so on time ones are ranked too */
	if (f->present_ns == GFXSTAT_NS_NONE) {
		if (f->duration_ns == GFXSTAT_NS_NONE)
			return 0; /* the library leaves it out: it says nothing measurable */
		if (untimed_rank(r, f, &ord))
			return GFXSTAT_E_NOMEM;
	}
	if (f->janky == 0)
		return 0;
	if (f->janky < 0 && !has_deadline && iv != GFXSTAT_NS_NONE && p > 0 &&
	    p != GFXSTAT_NS_NONE && 2 * iv <= 3 * p)
		return 0;
	gfxstat_causes_why(r->src ? r->src->causes : NULL, f,
			   iv != GFXSTAT_NS_NONE && f->present_ns != GFXSTAT_NS_NONE
				   ? f->present_ns - iv : GFXSTAT_NS_NONE, &why);
	if (cli_grow((void **)&r->causes, &r->capcauses, r->ncauses, sizeof(*r->causes), 256))
		return GFXSTAT_E_NOMEM;
	if (!r->pool && !(r->pool = cli_why_pool_new()))
		return GFXSTAT_E_NOMEM;
	c = &r->causes[r->ncauses];
	{
		char *name = dup_n(f->layer.p, f->layer.n);

		c->layer = name ? cli_why_intern(r->pool, name) : NULL;
		free(name);
	}
	c->why = cli_why_pack(r->pool, &why, r->janky && r->json);
	c->present = f->present_ns;
	c->ord = ord;
	c->janky = f->janky;
	if (!c->layer || !c->why) {
		free(c->why);
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

/* The cause recorded for the frame of @layer at @present (untimed: of rank @ord), or NULL. */
static const struct cause_rec *cause_at(const struct analyze_run *r, const char *layer,
					int64_t present, uint64_t ord)
{
	struct cause_rec key;

	if (!r->ncauses)
		return NULL;
	key.layer = layer;
	key.present = present;
	key.ord = present == GFXSTAT_NS_NONE ? ord : 0;
	return bsearch(&key, r->causes, r->ncauses, sizeof(*r->causes), cmp_cause);
}

/*
 * The cause recorded for janky frame @j of @l (causes sorted), and in *@on the layer it was
 * on. An app's janky frames are those of its own timeline (its layers' presents merged):
 * frame @j is the one a layer of the app presented at that time (a layer the source called
 * janky first), or, untimed, the one of that rank among the app's untimed frames, which the
 * library takes layer after layer (build_apps() in metrics.c).
 */
static const struct cause_rec *rec_of(struct analyze_run *r, const struct gfxstat_metrics *m,
				      const struct gfxstat_layer_metrics *l,
				      const struct gfxstat_janky_frame *j, const char **on)
{
	const struct cause_rec *c = NULL, *x;
	uint64_t u = j->present_ns == GFXSTAT_NS_NONE ? j->index - (l->frames - l->untimed) : 0;
	const size_t *members;
	size_t k, n;

	*on = l->name;
	if (!l->is_app)
		return cause_at(r, l->name, j->present_ns, u);
	*on = NULL;
	/* the app's own layers, in layer order (not a scan of every layer per frame) */
	n = gfxstat_metrics_app_layers(m, l, &members);
	for (k = 0; k < n; k++) {
		const struct gfxstat_layer_metrics *y = gfxstat_metrics_get(m, members[k]);

		if (j->present_ns == GFXSTAT_NS_NONE && u >= y->untimed) {
			u -= y->untimed;
			continue;
		}
		x = cause_at(r, y->name, j->present_ns, u);
		if (j->present_ns == GFXSTAT_NS_NONE) {
			*on = y->name;
			return x;
		}
		if (x && (!c || (x->janky > 0 && c->janky <= 0))) {
			c = x;
			*on = y->name;
		}
	}
	return c;
}

static const char *table_cause(void *user, const struct gfxstat_metrics *m,
			       const struct gfxstat_layer_metrics *l,
			       const struct gfxstat_janky_frame *j, const char **on)
{
	const struct cause_rec *c = rec_of(user, m, l, j, on);

	return c ? cli_why_text(c->why) : NULL;
}

/* The same, with its class, evidence and threads (causes sorted). */
static const struct cli_why *why_of(void *user, const struct gfxstat_metrics *m,
					  const struct gfxstat_layer_metrics *l,
					  const struct gfxstat_janky_frame *j, const char **on)
{
	struct analyze_run *r = user;
	const struct cause_rec *c = rec_of(r, m, l, j, on);

	return c ? cli_why_unpack(r->pool, c->why) : NULL;
}

/* The table's "why" line under each headline. */
static void why_line(void *user, const struct gfxstat_metrics *m,
		     const struct gfxstat_layer_metrics *l)
{
	cli_why_line(m, l, why_of, user);
}

/* --janky: every janky frame of every layer, by present, with the cause recorded for it */
static int print_janky(struct analyze_run *r)
{
	size_t i, nrows;
	struct gfxstat_janky_ref *rows;
	int64_t origin = cli_analyze_origin(r->m);

	nrows = gfxstat_metrics_janky_all(r->m, &rows);
	if (nrows == (size_t)-1)
		return -1;
	if (r->ncauses) /* never qsort(NULL, 0, ...) */
		qsort(r->causes, r->ncauses, sizeof(*r->causes), cmp_cause);
	for (i = 0; i < nrows; i++) {
		const struct gfxstat_janky_frame *j = rows[i].frame;
		const struct gfxstat_layer_metrics *l = rows[i].layer;
		const struct cause_rec *c = cause_at(r, l->name, j->present_ns,
						     j->index - (l->frames - l->untimed));
		if (!r->njanky++)
			printf("time_s,trace_clock_s,layer,frame_ms,vsyncs,cadence_fps,cause\n");
		/* from the recording's start, as the worst lines and the report say it; the
		 * trace's own clock beside it, to find the frame in the trace */
		if (j->present_ns != GFXSTAT_NS_NONE)
			printf("%.6f,%.6f,", (double)(j->present_ns - origin) / 1e9,
			       (double)j->present_ns / 1e9);
		else
			printf(",,");
		printf("\"%s\",", csv_name(l->name));
		if (j->length_ns != GFXSTAT_NS_NONE)
			printf("%.3f,%.1f,", (double)j->length_ns / 1e6,
			       (double)j->length_ns / (double)l->period_ns);
		else
			printf(",,");
		printf("%.1f,\"%s\"\n", 1e9 / (double)j->cadence_ns,
		       c ? cli_why_text(c->why) : "unknown (no cause recorded for this frame)");
	}
	free(rows);
	return 0;
}

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct analyze_run *r = user;

	r->frames_seen++;
	if (r->layer && !cli_str_contains(f->layer, r->layer))
		return 0;
	if (r->app && (f->app.n != strlen(r->app) || memcmp(f->app.p, r->app, f->app.n)))
		return 0;
	/* --janky, the table's worst frames and JSON's causes: known only while reading */
	if ((r->janky || !r->csv) && (r->lib_rc = record_cause(r, f)))
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

/* Forget the causes of the recording before (each recording is analysed on its own). */
static void forget_causes(struct analyze_run *r)
{
	size_t i;

	for (i = 0; i < r->ncauses; i++)
		free(r->causes[i].why);
	free(r->causes);
	cli_why_pool_free(r->pool);
	r->pool = NULL;
	for (i = 0; i < r->nuntimed; i++)
		free(r->untimed[i].layer);
	free(r->untimed);
	r->causes = NULL;
	r->untimed = NULL;
	r->ncauses = r->capcauses = r->nuntimed = 0;
}

static void free_run(struct analyze_run *r)
{
	forget_causes(r);
	cli_analyze_gates_free(&r->gates);
	cli_json_header_free(&r->hdr);
}

/*
 * Android's own summaries in a dumpsys gfxinfo input ("Total frames rendered", "Janky
 * frames"), kept beside the figures of the frames read: a window's for its layer, a process's
 * for its app (not with --layer: beside some of its layers it would not compare).
 * Return: 0 or GFXSTAT_E_NOMEM.
 */
static int own_summaries(struct analyze_run *r, const struct cli_source *src)
{
	const struct gfxstat_source_summary *sum = src->summary;
	size_t i;
	int rc = 0;

	for (i = 0; sum && i < sum->ngfxinfo_own && !rc; i++) {
		const struct gfxstat_gfxinfo_own *o = &sum->gfxinfo_own[i];
		int app = o->kind == GFXSTAT_BLOCK_PROCESS;

		if (!app || !r->layer)
			rc = gfxstat_metrics_own_summary(r->m, app ? o->app : o->name, app,
							 o->total_frames, o->janky_frames);
	}
	return rc;
}

/* What reading one recording left: its last input, damage, and how many inputs were read. */
struct read_state {
	struct cli_source last;
	unsigned long long damaged;
	int nread;
};

/*
 * Read recording @rec of @in into a new r->m (finished). Return: CLI_OK, or the exit code of
 * an input that could not be read (the others are still read), CLI_INPUT when out of memory.
 */
static int read_recording(struct analyze_run *r, const struct cli_inputs *in, size_t rec,
			  struct read_state *st)
{
	size_t i;
	int rc = CLI_OK;

	memset(st, 0, sizeof(*st));
	forget_causes(r);
	r->frames_seen = 0;
	cli_source_end_recording();
	cli_json_header_recording(&r->hdr);
	r->m = cli_metrics_new(&r->mo);
	if (!r->m) {
		cli_error("out of memory");
		return CLI_INPUT;
	}
	for (i = 0; i < in->nfile && !cli_stop_signal; i++) {
		struct cli_source src;
		int src_rc;

		if (in->file[i].rec != rec)
			continue;
		r->src = &src;
		src_rc = cli_source_read(in->file[i].path, on_frame, r, &src);
		r->src = NULL;
		if (src_rc) {
			rc = src_rc;
			continue;
		}
		cli_source_report(&src, 0);
		if (cli_json_header_source(&r->hdr, &src) || own_summaries(r, &src))
			r->lib_rc = GFXSTAT_E_NOMEM;
		st->damaged += src.warnings;
		st->last = src;
		st->nread++;
		cli_source_free(&src);
	}
	if (cli_interrupted())
		return cli_interrupted(); /* results of part of a file would look whole */
	if (!r->lib_rc && gfxstat_metrics_finish(r->m))
		r->lib_rc = GFXSTAT_E_NOMEM; /* so the caller stops: no layer can be read */
	if (r->lib_rc) {
		cli_error("%s", gfxstat_strerror(r->lib_rc));
		return CLI_INPUT;
	}
	{
		uint64_t dropped_frames, dropped = gfxstat_metrics_dropped(r->m, &dropped_frames);

		if (dropped)
			cli_warn("%llu layer%s past the 65536-layer limit left out (%llu frames)",
				 (unsigned long long)dropped, dropped == 1 ? "" : "s",
				 (unsigned long long)dropped_frames);
	}
	return rc;
}

/*
 * A recording with no frame that --layer/--app match says what it holds. Return: the exit
 * code (CLI_INPUT, or the reading's own error).
 */
static int no_frames(struct analyze_run *r, const struct read_state *st, int rc)
{
	if (st->nread && !cli_stop_signal)
		rc = cli_source_no_frames(&st->last, r->layer, r->app);
	return rc ? rc : CLI_INPUT;
}

/* The first file of recording @rec. */
static const char *first_file(const struct cli_inputs *in, size_t rec)
{
	size_t i;

	for (i = 0; i < in->nfile; i++)
		if (in->file[i].rec == rec)
			return in->file[i].path;
	return in->name[rec];
}

/* One recording: the answer as it always was. */
static int analyze_single(struct analyze_run *r, const struct cli_inputs *in, const char *op0)
{
	struct read_state st;
	struct cli_analyze_rec one;
	int rc = read_recording(r, in, 0, &st);
	size_t n = gfxstat_metrics_count(r->m);

	one.name = in->name[0];
	one.input = first_file(in, 0);
	one.format = st.nread ? st.last.format : NULL;
	one.m = r->m;
	if ((rc == CLI_INPUT && r->lib_rc) || rc > CLI_OUTPUT)
		return rc;
	if (!n) {
		rc = no_frames(r, &st, rc);
		/* the gated app is missing from an input that has frames: a gate failure, with
		 * its JUnit, not a pass and not only "nothing found" */
		if (r->app && r->gates.n && r->frames_seen && !cli_stop_signal)
			rc = cli_analyze_gates_run(&r->gates, &one, 1, r->app);
		return rc;
	}
	if (r->mo.scroll_only && !any_scroll(r->m)) {
		/* every metric would be 0 over no frames: that is no answer, not a good one */
		cli_error("--scroll-only: no scroll found (no frame of the app's work handled input; "
			  "record with the 'input' and 'view' categories)");
		return CLI_INPUT;
	}
	if (r->ncauses) /* never qsort(NULL, 0, ...) */
		qsort(r->causes, r->ncauses, sizeof(*r->causes), cmp_cause);
	if (r->janky && r->json) {
		if (cli_why_janky_json(stdout, &r->hdr, r->m, why_of, r))
			rc = CLI_INPUT;
	} else if (r->janky) {
		if (print_janky(r))
			rc = CLI_INPUT;
		else if (!r->njanky)
			printf("no janky frames\n");
		if (cli_why_no_sched(r->m, why_of, r))
			cli_info("the causes have no thread states: %s", CLI_WHY_NO_SCHED);
	} else if (r->json) {
		cli_system_set(st.nread == 1 ? st.last.sys : NULL);
		if (cli_why_analyze_json(stdout, &r->hdr, r->m, why_of, r))
			rc = CLI_INPUT;
	} else if (r->csv) {
		cli_csv_analyze(stdout, r->m, r->mo.window_ns);
	} else {
		if (r->ncauses)
			qsort(r->causes, r->ncauses, sizeof(*r->causes), cmp_cause);
		cli_analyze_text(r->m, r->families, table_cause, r);
		/* said once: the causes above are the sections' alone */
		if (cli_why_no_sched(r->m, why_of, r))
			printf("(the causes have no thread states: %s)\n", CLI_WHY_NO_SCHED);
	}
	if (fflush(stdout)) {
		cli_error("cannot write standard output: %s", strerror(errno));
		rc = CLI_OUTPUT;
	}
	/* damage is said after the results, as in every command */
	if (rc == CLI_OK && st.damaged)
		rc = cli_damaged(st.nread == 1 ? st.last.path : "the inputs", st.damaged);
	if (rc == CLI_OK && !r->janky) {
		int grc = cli_analyze_save(&r->gates, r->m, st.nread == 1 ? st.last.path : op0,
					   st.nread == 1 ? st.last.format : "several inputs");

		if (grc == CLI_OK)
			grc = cli_analyze_gates_run(&r->gates, &one, 1, r->app);
		rc = grc;
	}
	return rc;
}

/*
 * Several recordings (a run folder, a folder of recordings): each analysed on its own and
 * printed (the table) or kept (JSON), then the mean +- sd over them; the gates judge the
 * means; --save stores each recording as a run.
 */
static int analyze_multi(struct analyze_run *r, const struct cli_inputs *in)
{
	struct cli_analyze_rec *rec = calloc(in->nrec, sizeof(*rec));
	size_t i, k, nok = 0, nseen = 0;
	int rc = CLI_OK;

	if (!rec) {
		cli_error("out of memory");
		return CLI_INPUT;
	}
	for (i = 0; i < in->nfailed && !r->json; i++)
		printf("left out: %s (the iteration failed)\n", in->failed[i]);
	for (i = 0; i < in->nrec && !cli_stop_signal; i++) {
		struct read_state st;
		int one = read_recording(r, in, i, &st);

		rec[i].name = in->name[i];
		rec[i].input = first_file(in, i);
		rec[i].format = st.nread ? st.last.format : NULL;
		rec[i].m = r->m;
		r->m = NULL;
		if (!r->json)
			printf("%srecording %zu of %zu: %s\n\n", i || in->nfailed ? "\n" : "", i + 1,
			       in->nrec, rec[i].name);
		if ((one == CLI_INPUT && r->lib_rc) || one > CLI_OUTPUT) {
			rc = one;
			break;
		}
		if (!gfxstat_metrics_count(rec[i].m)) {
			one = no_frames(r, &st, one);
			if (!r->json)
				printf("no frames%s%s\n", r->app ? " of " : "", r->app ? r->app : "");
		} else if (!r->json) {
			if (r->ncauses)
				qsort(r->causes, r->ncauses, sizeof(*r->causes), cmp_cause);
			cli_analyze_text(rec[i].m, r->families, table_cause, r);
		}
		if (one == CLI_OK && st.damaged)
			one = cli_damaged(st.nread == 1 ? st.last.path : rec[i].name, st.damaged);
		nok += gfxstat_metrics_count(rec[i].m) > 0;
		nseen += r->frames_seen > 0;
		if (one && rc == CLI_OK)
			rc = one;
	}
	if ((rc != CLI_INPUT || !r->lib_rc) && rc <= CLI_OUTPUT) {
		if (r->json) {
			cli_json_begin(stdout, &r->hdr);
			fputs("\n\"recordings\":[", stdout);
			for (i = 0; i < in->nrec; i++) {
				size_t n = rec[i].m ? gfxstat_metrics_count(rec[i].m) : 0;

				printf("%s\n{\"name\":", i ? "," : "");
				cli_json_str(stdout, rec[i].name);
				fputs(",\"input\":", stdout);
				cli_json_str(stdout, rec[i].input);
				fputs(",\"layers\":[", stdout);
				for (k = 0; k < n; k++) {
					fputs(k ? ",\n" : "\n", stdout);
					cli_json_layer(stdout, gfxstat_metrics_get(rec[i].m, k));
				}
				fputs("]}", stdout);
			}
			fputs("],\n\"failed_iterations\":[", stdout);
			for (i = 0; i < in->nfailed; i++) {
				fputs(i ? "," : "", stdout);
				cli_json_str(stdout, in->failed[i]);
			}
			fputs("],\n\"summary\":", stdout);
			cli_analyze_summary_json(stdout, rec, in->nrec, r->app);
			fputs("}\n", stdout);
		} else {
			cli_analyze_summary_text(rec, in->nrec, r->app);
		}
		if (fflush(stdout)) {
			cli_error("cannot write standard output: %s", strerror(errno));
			rc = CLI_OUTPUT;
		}
	}
	/* the gates judge the means whatever a recording lacked (a gated --app missing from
	 * recordings that have frames fails them: exit 1); --save: each recording */
	if ((rc == CLI_OK || (rc == CLI_INPUT && !r->lib_rc)) && !cli_stop_signal &&
	    (nok || (r->app && r->gates.n && nseen))) {
		int grc = CLI_OK;

		for (i = 0; i < in->nrec && grc == CLI_OK && r->gates.save; i++)
			if (rec[i].m && gfxstat_metrics_count(rec[i].m))
				grc = cli_analyze_save(&r->gates, rec[i].m, rec[i].name,
						       rec[i].format ? rec[i].format : "recording");
		if (grc == CLI_OK)
			grc = cli_analyze_gates_run(&r->gates, rec, in->nrec, r->app);
		if (grc == CLI_JANK || rc == CLI_OK)
			rc = grc;
	} else if (rc == CLI_OK && !nok) {
		rc = CLI_INPUT;
	}
	for (i = 0; i < in->nrec; i++)
		gfxstat_metrics_free(rec[i].m);
	free(rec);
	return rc;
}

int cmd_analyze(int argc, char **argv)
{
	struct analyze_run r;
	struct cli_inputs in;
	int first, rc;

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
		cli_error("no input; give a trace or dump file, a session or run folder, or '-' for "
			  "standard input");
		cli_analyze_gates_free(&r.gates);
		return CLI_USAGE;
	}
	if (cli_inputs_expand(argv + first, (size_t)(argc - first), 0, &in)) {
		free_run(&r);
		return CLI_INPUT;
	}
	if (!in.nrec) {
		cli_error("no recording to analyze: every iteration failed (%s%s)", in.failed[0],
			  in.nfailed > 1 ? ", ..." : "");
		rc = CLI_INPUT;
	} else if (in.nrec > 1 && (r.csv || r.janky)) {
		cli_error("%s lists one recording; %zu were given (%s, %s%s): give one of them",
			  r.csv ? "--csv" : "--janky", in.nrec, in.name[0], in.name[1],
			  in.nrec > 2 ? ", ..." : "");
		rc = CLI_USAGE;
	} else {
		cli_catch_signals();
		/* causes from thread states, where the trace has the scheduler's events */
		cli_source_thread_states();
		/* --json: the system around the frames (CPU, GPU, thermal, power) per window */
		if (r.json && !r.janky)
			cli_source_system(r.mo.window_ns);
		cli_analyze_text_why(why_line, &r);
		cli_analyze_text_wait(r.mo.wait_ns);
		if (in.nrec == 1)
			rc = analyze_single(&r, &in, argv[first]);
		else
			rc = analyze_multi(&r, &in);
	}
	gfxstat_metrics_free(r.m);
	r.m = NULL;
	cli_inputs_free(&in);
	free_run(&r);
	return rc;
}
