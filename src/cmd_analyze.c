/* SPDX-License-Identifier: MIT */
/* gfxstat analyze: every anchor tool's metric, per layer and per app, from the frames. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_source.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_gfxinfo.h"
#include "gfxstat/gfxstat_perfetto.h"

enum {
	OPT_JSON = 256, OPT_CSV, OPT_WINDOW, OPT_LAYER, OPT_APP, OPT_WAIT, OPT_TARGET, OPT_KPI,
	OPT_JANKY, OPT_SCROLL_ONLY
};

static const struct cli_opt analyze_opts[] = {
	{ OPT_JSON, "json", NULL, "one JSON object with a 'layers' array" },
	{ OPT_CSV, "csv", NULL, "the per-window FPS series, one row per window per layer" },
	{ OPT_JANKY, "janky", NULL, "list the janky frames with the cause of each, then stop" },
	{ OPT_WINDOW, "window", "SEC", "window of the FPS series (1)" },
	{ OPT_SCROLL_ONLY, "scroll-only", NULL, "every metric over scroll frames only (scroll FPS)" },
	{ OPT_LAYER, "layer", "SUBSTRING", "only layers whose name contains SUBSTRING" },
	{ OPT_APP, "app", "PKG", "only the layers of this package" },
	{ OPT_WAIT, "wait", "MS", "intervals this long are idle waits, left out of FPS (500)" },
	{ OPT_TARGET, "target", "FPS", "target FPS of the seed's score (60)" },
	{ OPT_KPI, "kpi", "MS", "frame-time KPI of the seed's score (100)" },
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
	"Exit status: 0 ok, 2 usage, 3 unreadable input, no frames source, or --scroll-only\n"
	"with no scroll, 5 cannot write.\n";

static const struct cli_cmd analyze_cmd = {
	"gfxstat analyze",
	"gfxstat analyze [--json|--csv|--janky] [--window SEC] [--layer SUBSTRING] [--app PKG]\n"
	"                       [--scroll-only] [--wait MS] [--target FPS] [--kpi MS] [-q] INPUT...",
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
};

static int analyze_opt(void *user, int id, const char *arg)
{
	struct analyze_run *r = user;
	long long ns;

	switch (id) {
	case OPT_JSON:
		r->json = 1;
		return 0;
	case OPT_CSV:
		r->csv = 1;
		return 0;
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

/* one row of the --janky list, with the layer it belongs to */
struct janky_row {
	const struct gfxstat_layer_metrics *l;
	const struct gfxstat_janky_frame *j;
};

static int cmp_row(const void *a, const void *b)
{
	const struct janky_row *x = a, *y = b;
	int64_t p = x->j->present_ns, q = y->j->present_ns;

	/* by present; untimed frames (no present) last, in their order */
	if ((p == GFXSTAT_NS_NONE) != (q == GFXSTAT_NS_NONE))
		return p == GFXSTAT_NS_NONE ? 1 : -1;
	if (p != q)
		return p < q ? -1 : 1;
	if (x->l != y->l)
		return strcmp(x->l->name, y->l->name);
	return (x->j->index > y->j->index) - (x->j->index < y->j->index);
}

/* --janky: every janky frame of every layer, by present, with the cause recorded for it */
static int print_janky(struct analyze_run *r)
{
	size_t n = gfxstat_metrics_count(r->m), k, i, nrows = 0, w = 0;
	struct janky_row *rows;

	for (k = 0; k < n; k++) {
		const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(r->m, k);

		if (!l->is_app)
			nrows += l->njanky_list;
	}
	rows = malloc((nrows ? nrows : 1) * sizeof(*rows));
	if (!rows)
		return -1;
	for (k = 0; k < n; k++) {
		const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(r->m, k);

		for (i = 0; !l->is_app && i < l->njanky_list; i++) {
			rows[w].l = l;
			rows[w++].j = &l->janky_list[i];
		}
	}
	qsort(rows, nrows, sizeof(*rows), cmp_row);
	qsort(r->causes, r->ncauses, sizeof(*r->causes), cmp_cause);
	for (i = 0; i < nrows; i++) {
		const struct gfxstat_janky_frame *j = rows[i].j;
		const struct gfxstat_layer_metrics *l = rows[i].l;
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
	if (r->janky && (r->lib_rc = record_cause(r, f)))
		return r->lib_rc;
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

void cli_json_str(FILE *o, const char *s)
{
	fputc('"', o);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(o, "\\%c", c);
		else if (c < 0x20)
			fprintf(o, "\\u%04x", c);
		else
			fputc(c, o);
	}
	fputc('"', o);
}

static const char *const matrix_names[GFXSTAT_MATRIX_LEVELS] = {
	"best", "normal", "middle", "high", "frozen",
};

/* Macrobenchmark's P50/P90/P95/P99 of a metric, or null when no frame gave it */
static void json_pcts(FILE *o, uint64_t n, const double *v)
{
	if (!n) {
		fprintf(o, "null");
		return;
	}
	fprintf(o, "{\"count\":%llu,\"P50\":%.3f,\"P90\":%.3f,\"P95\":%.3f,\"P99\":%.3f}",
		(unsigned long long)n, v[0], v[1], v[2], v[3]);
}

void cli_json_layer(FILE *o, const struct gfxstat_layer_metrics *l)
{
	char name[128];
	size_t i;
	int first;

	fprintf(o, "{\"name\":");
	cli_json_str(o, l->name);
	fprintf(o, ",\"app\":");
	cli_json_str(o, l->app);
	fprintf(o, ",\"kind\":\"%s\",\"source\":\"%s\"", l->is_app ? "app" : "layer",
	       gfxstat_frame_source_name(l->source));
	fprintf(o, ",\"frames\":%llu,\"duration_s\":%.6f,\"refresh_hz\":%.3f,\"period_ns\":%lld",
	       (unsigned long long)l->frames, l->duration_s, l->refresh_hz,
	       (long long)l->period_ns);
	fprintf(o, ",\"untimed\":%llu,\"cadence_vsyncs\":%u,\"cadence_fps\":%.3f,"
		"\"cadence_changes\":%u", (unsigned long long)l->untimed, l->cadence_vsyncs,
		l->cadence_fps, l->cadence_changes);
	fprintf(o, ",\"fps\":%.3f,\"fps_wall\":%.3f,\"active_s\":%.6f,\"waits\":%llu,\"wait_s\":%.6f",
	       l->fps, l->fps_wall, l->active_s, (unsigned long long)l->waits, l->wait_s);
	/* no frame time at all (every interval a wait): null, not a "max 0" */
	if (l->intervals || l->frame_ms_max > 0)
		fprintf(o, ",\"frame_ms\":{\"p50\":%.3f,\"p90\":%.3f,\"p95\":%.3f,\"p99\":%.3f,"
			"\"max\":%.3f}", l->frame_ms_p50, l->frame_ms_p90, l->frame_ms_p95,
			l->frame_ms_p99, l->frame_ms_max);
	else
		fprintf(o, ",\"frame_ms\":null");
	fprintf(o, ",\"fps_median\":%.3f,\"fps_low_1pct\":%.3f", l->fps_median, l->fps_low_1pct);
	fprintf(o, ",\"window_fps\":[");
	for (i = 0; i < l->nwindows; i++)
		fprintf(o, "%s%.3f", i ? "," : "", l->window_fps[i]);
	fprintf(o, "]");
	fprintf(o, ",\"jank\":%llu,\"big_jank\":%llu", (unsigned long long)l->jank,
		(unsigned long long)l->big_jank);
	if (l->rates_valid)
		fprintf(o, ",\"jank_per_10min\":%.3f,\"big_jank_per_10min\":%.3f",
			l->jank_per_10min, l->big_jank_per_10min);
	else
		fprintf(o, ",\"jank_per_10min\":null,\"big_jank_per_10min\":null");
	fprintf(o, ",\"stutter\":%.6f,\"janky_frames\":%llu", l->stutter,
		(unsigned long long)l->janky_frames);
	fprintf(o, ",\"frozen_frames\":%llu,\"frozen_share\":%.6f,\"slow_frames\":%llu",
	       (unsigned long long)l->frozen_frames, l->frozen_share,
	       (unsigned long long)l->slow_frames);
	fprintf(o, ",\"seed\":{\"A\":%llu,\"B\":%llu,\"C\":%llu,\"D\":%llu,\"score\":%.2f}",
	       (unsigned long long)l->a, (unsigned long long)l->b, (unsigned long long)l->c,
	       (unsigned long long)l->d, l->score);
	fprintf(o, ",\"hitch_ms_per_s\":%.3f", l->hitch_ms_per_s);
	fprintf(o, ",\"refresh\":{\"slow_frames\":%llu,\"D\":%llu,\"hitch_ms_per_s\":%.3f,"
		"\"jank_windows\":%zu}", (unsigned long long)l->refresh.slow_frames,
		(unsigned long long)l->refresh.d, l->refresh.hitch_ms_per_s,
		l->refresh.njank_windows);
	fprintf(o, ",\"macrobenchmark\":{\"frameDurationCpuMs\":");
	json_pcts(o, l->macro_cpu_n, l->macro_cpu_ms);
	fprintf(o, ",\"frameOverrunMs\":");
	json_pcts(o, l->macro_overrun_n, l->macro_overrun_ms);
	fprintf(o, "}");
	fprintf(o, ",\"matrix\":{\"dropped\":%llu,\"dropped_per_frame\":%.6f",
	       (unsigned long long)l->matrix_dropped, l->matrix_dropped_per_frame);
	for (i = 0; i < GFXSTAT_MATRIX_LEVELS; i++)
		fprintf(o, ",\"%s\":%llu", matrix_names[i], (unsigned long long)l->matrix_levels[i]);
	fprintf(o, "},\"jank_windows\":[");
	for (i = 0; i < l->njank_windows; i++) {
		const struct gfxstat_jank_window *w = &l->jank_windows[i];

		fprintf(o, "%s{\"start_ns\":%lld,\"frames\":%u,\"dur_ms\":%.3f,\"fps\":%.3f,"
		       "\"longest_ms\":%.3f}", i ? "," : "", (long long)w->start_ns, w->frames,
		       (double)w->dur_ns / 1e6, w->fps, (double)w->longest_ns / 1e6);
	}
	fprintf(o, "],\"scrolls\":[");
	for (i = 0; i < l->nscrolls; i++) {
		const struct gfxstat_scroll *sc = &l->scrolls[i];

		fprintf(o, "%s{\"start_ns\":%lld,\"duration_s\":%.6f,\"frames\":%u,\"fps\":%.3f,"
		       "\"hitch_ms_per_s\":%.3f,\"jank\":%u,\"longest_ms\":%.3f}", i ? "," : "",
		       (long long)sc->start_ns, (double)(sc->end_ns - sc->start_ns) / 1e9, sc->frames,
		       sc->fps, sc->hitch_ms_per_s, sc->jank, (double)sc->longest_ns / 1e6);
	}
	fprintf(o, "],\"scroll_hitch_slope\":%.6f", l->scroll_hitch_slope);
	if (l->source_judged) {
		fprintf(o, ",\"android\":{\"judged\":%llu,\"janky\":%llu",
		       (unsigned long long)l->source_judged, (unsigned long long)l->source_janky);
		fprintf(o, ",\"jank_type\":{");
		for (i = 0, first = 1; i < GFXSTAT_FT_JANK_BITS; i++) {
			if (!l->ft_jank[i])
				continue;
			gfxstat_perfetto_jank_type_str((int32_t)1 << i, name, sizeof(name));
			fprintf(o, "%s\"%s\":%llu", first ? "" : ",", name,
			       (unsigned long long)l->ft_jank[i]);
			first = 0;
		}
		fprintf(o, "},\"present_type\":{");
		for (i = 0, first = 1; i < 6; i++) {
			if (!l->ft_present[i])
				continue;
			fprintf(o, "%s\"%s\":%llu", first ? "" : ",", gfxstat_perfetto_present_type_name((int32_t)i),
			       (unsigned long long)l->ft_present[i]);
			first = 0;
		}
		fprintf(o, "},\"jank_reasons\":{");
		for (i = 0, first = 1; i < GFXSTAT_GFXINFO_REASONS; i++) {
			if (!l->gfxinfo_reasons[i])
				continue;
			fprintf(o, "%s\"%s\":%llu", first ? "" : ",", gfxstat_jank_type_name((enum gfxstat_jank_type)i),
			       (unsigned long long)l->gfxinfo_reasons[i]);
			first = 0;
		}
		fprintf(o, "}}");
	}
	fprintf(o, "}");
}

static void print_table_layer(const struct gfxstat_layer_metrics *l)
{
	size_t i;

	if (l->is_app || !l->app[0])
		printf("%s %s\n", l->is_app ? "app" : "layer", l->name);
	else
		printf("layer %s  (app %s)\n", l->name, l->app);
	printf("  frames %llu over %.2f s at %.1f Hz; %llu waits (%.2f s idle)",
	       (unsigned long long)l->frames, l->duration_s, l->refresh_hz,
	       (unsigned long long)l->waits, l->wait_s);
	if (l->untimed)
		printf("; %llu with no present time", (unsigned long long)l->untimed);
	printf("\n  cadence   %.1f FPS (%u vsync%s)%s; janky %llu of %llu\n", l->cadence_fps,
	       l->cadence_vsyncs, l->cadence_vsyncs == 1 ? "" : "s",
	       l->cadence_changes ? " most of the time" : "", (unsigned long long)l->janky_frames,
	       (unsigned long long)l->frames);
	printf("  FPS %.1f (active)  %.1f (wall)  median %.1f  low 1%% %.1f\n", l->fps,
	       l->fps_wall, l->fps_median, l->fps_low_1pct);
	if (l->intervals || l->frame_ms_max > 0)
		printf("  frame ms  p50 %.1f  p90 %.1f  p95 %.1f  p99 %.1f  max %.1f\n",
		       l->frame_ms_p50, l->frame_ms_p90, l->frame_ms_p95, l->frame_ms_p99,
		       l->frame_ms_max);
	else
		printf("  frame ms  none: every interval is an idle wait (>= --wait)\n");
	printf("  PerfDog   jank %llu  big jank %llu", (unsigned long long)l->jank,
	       (unsigned long long)l->big_jank);
	if (l->rates_valid)
		printf("  (%.1f / %.1f per 10 min)", l->jank_per_10min, l->big_jank_per_10min);
	printf("  stutter %.2f%%\n", l->stutter * 100);
	printf("  Android   slow %llu  frozen %llu (%.2f%%)", (unsigned long long)l->slow_frames,
	       (unsigned long long)l->frozen_frames, l->frozen_share * 100);
	if (l->source_judged)
		printf("  janky by the source %llu of %llu (%.2f%%)",
		       (unsigned long long)l->source_janky, (unsigned long long)l->source_judged,
		       100.0 * (double)l->source_janky / (double)l->source_judged);
	printf("\n  seed      A %llu  B %llu  C %llu  D %llu  score %.2f\n",
	       (unsigned long long)l->a, (unsigned long long)l->b, (unsigned long long)l->c,
	       (unsigned long long)l->d, l->score);
	printf("  Apple     hitch %.1f ms/s    Matrix dropped %.3f/frame (", l->hitch_ms_per_s,
	       l->matrix_dropped_per_frame);
	for (i = 0; i < GFXSTAT_MATRIX_LEVELS; i++)
		printf("%s%s %llu", i ? ", " : "", matrix_names[i],
		       (unsigned long long)l->matrix_levels[i]);
	printf(")\n  Taobao    %zu jank-FPS windows under 5/6 of the cadence", l->njank_windows);
	for (i = 0; i < l->njank_windows && i < 5; i++)
		printf("%s%.0f FPS/%u frames", i ? ", " : ": ", l->jank_windows[i].fps,
		       l->jank_windows[i].frames);
	printf("%s\n", l->njank_windows > 5 ? ", ..." : "");
	if (l->nscrolls) {
		printf("  scrolls   %zu; hitch rate %s further on (slope %+.2f ms/s per scroll)\n",
		       l->nscrolls, l->scroll_hitch_slope > 0 ? "grows" : "does not grow",
		       l->scroll_hitch_slope);
		for (i = 0; i < l->nscrolls && i < 10; i++) {
			const struct gfxstat_scroll *sc = &l->scrolls[i];

			printf("    #%zu at %.3f s: %.2f s, %u frames, %.1f FPS, hitch %.1f ms/s, "
			       "jank %u, longest %.1f ms\n", i + 1, (double)sc->start_ns / 1e9,
			       (double)(sc->end_ns - sc->start_ns) / 1e9, sc->frames, sc->fps,
			       sc->hitch_ms_per_s, sc->jank, (double)sc->longest_ns / 1e6);
		}
		if (l->nscrolls > 10)
			printf("    ...\n");
	}
	printf("\n");
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
	gfxstat_metrics_free(r->m);
}

int cmd_analyze(int argc, char **argv)
{
	struct analyze_run r;
	int first, i, rc = CLI_OK;
	size_t k, n;

	memset(&r, 0, sizeof(r));
	gfxstat_metrics_opts_init(&r.mo);
	first = cli_parse(&analyze_cmd, argc, argv, analyze_opt, &r);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;
	if (r.json && r.csv) {
		cli_error("--json and --csv cannot be used together");
		return CLI_USAGE;
	}
	if (first == argc) {
		cli_error("no input; give a trace or dump file, or '-' for standard input");
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
		cli_source_free(&src);
	}
	if (r.lib_rc || gfxstat_metrics_finish(r.m)) {
		cli_error("%s", gfxstat_strerror(r.lib_rc ? r.lib_rc : GFXSTAT_E_NOMEM));
		free_run(&r);
		return CLI_INPUT;
	}
	n = gfxstat_metrics_count(r.m);
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
		printf("{\"layers\":[");
		for (k = 0; k < n; k++) {
			if (k)
				printf(",\n");
			cli_json_layer(stdout, gfxstat_metrics_get(r.m, k));
		}
		printf("]}\n");
	} else if (r.csv) {
		printf("kind,name,app,window,start_s,fps\n");
		for (k = 0; k < n; k++) {
			const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(r.m, k);
			uint32_t w;

			for (w = 0; w < l->nwindows; w++)
				printf("%s,\"%s\",%s,%u,%.3f,%.3f\n", l->is_app ? "app" : "layer",
				       csv_name(l->name), l->app, w,
				       (double)l->first_ns / 1e9 + (double)w * (double)r.mo.window_ns / 1e9,
				       l->window_fps[w]);
		}
	} else {
		if (!n)
			printf("no frames\n");
		for (k = 0; k < n; k++)
			print_table_layer(gfxstat_metrics_get(r.m, k));
	}
	if (fflush(stdout)) {
		cli_error("cannot write standard output: %s", strerror(errno));
		rc = CLI_OUTPUT;
	}
	free_run(&r);
	return rc;
}
