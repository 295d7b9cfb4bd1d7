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
	"  frozen_frames       Android: >= 700 ms; slow_frames: missed a vsync (>= 1.5 periods)\n"
	"  A B C D score       the seed's buckets and score, FPS term capped at 1\n"
	"  hitch_ms_per_s      Apple: time beyond the refresh period per second of activity\n"
	"  matrix              Tencent Matrix: dropped = (t - period) / period; levels at 3/9/24/42\n"
	"  jank_windows        Taobao jank-FPS windows under 5/6 of the refresh rate\n"
	"  scrolls             frames driven by input (an input section in the app's doFrame),\n"
	"                      through the fling, until 200 ms without a frame: per scroll FPS,\n"
	"                      hitch rate (Taobao scrollHitchRate), jank, longest frame, and\n"
	"                      the slope of the hitch rate over the scrolls (worse further on?)\n"
	"Thresholds in vsyncs follow the measured refresh rate; those in ms stay in ms.\n"
	"Several INPUTs are read as one recording: a layer's frames from all of them together.\n"
	"\n"
	"Exit status: 0 ok, 2 usage, 3 unreadable input or no frames source, 5 cannot write.\n";

static const struct cli_cmd analyze_cmd = {
	"gfxstat analyze",
	"gfxstat analyze [--json|--csv|--janky] [--window SEC] [--layer SUBSTRING] [--app PKG]\n"
	"                       [--scroll-only] [--wait MS] [--target FPS] [--kpi MS] [-q] INPUT...",
	"Frame rate and jank per layer and per app, by every anchor tool's definition.",
	analyze_details,
	analyze_opts,
};

struct analyze_run {
	int json, csv, janky;
	struct cli_source *src;   /* the input being read, for its section tracker */
	unsigned long long njanky;
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

/*
 * A janky frame: it missed a vsync (an interval of 1.5 periods or more that is not an idle
 * wait), or the source itself called it janky.
 */
static int janky_frame(struct analyze_run *r, const struct gfxstat_frame *f)
{
	int64_t p = f->vsync_period_ns > 0 && f->vsync_period_ns != GFXSTAT_NS_NONE
			    ? f->vsync_period_ns : r->mo.default_period_ns;
	int64_t iv = f->interval_ns;
	int slow = iv != GFXSTAT_NS_NONE && 2 * iv >= 3 * p && iv < r->mo.wait_ns;
	char cause[512];

	if (!slow && f->janky <= 0)
		return 0;
	gfxstat_causes_explain(r->src ? r->src->causes : NULL, f,
			       iv != GFXSTAT_NS_NONE ? f->present_ns - iv : GFXSTAT_NS_NONE,
			       cause, sizeof(cause));
	if (!r->njanky++)
		printf("time_s,layer,frame_ms,vsyncs,cause\n");
	printf("%.6f,\"%.*s\",%s%.3f,%.1f,\"%s\"\n", (double)f->present_ns / 1e9, (int)f->layer.n,
	       f->layer.p, "", iv != GFXSTAT_NS_NONE ? (double)iv / 1e6 : 0.0,
	       iv != GFXSTAT_NS_NONE ? (double)iv / (double)p : 0.0, cause);
	return 0;
}

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct analyze_run *r = user;

	if (r->layer && !cli_str_contains(f->layer, r->layer))
		return 0;
	if (r->app && (f->app.n != strlen(r->app) || memcmp(f->app.p, r->app, f->app.n)))
		return 0;
	if (r->janky)
		return janky_frame(r, f);
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
	fprintf(o, ",\"fps\":%.3f,\"fps_wall\":%.3f,\"active_s\":%.6f,\"waits\":%llu,\"wait_s\":%.6f",
	       l->fps, l->fps_wall, l->active_s, (unsigned long long)l->waits, l->wait_s);
	fprintf(o, ",\"frame_ms\":{\"p50\":%.3f,\"p90\":%.3f,\"p95\":%.3f,\"p99\":%.3f,\"max\":%.3f}",
	       l->frame_ms_p50, l->frame_ms_p90, l->frame_ms_p95, l->frame_ms_p99,
	       l->frame_ms_max);
	fprintf(o, ",\"fps_median\":%.3f,\"fps_low_1pct\":%.3f", l->fps_median, l->fps_low_1pct);
	fprintf(o, ",\"window_fps\":[");
	for (i = 0; i < l->nwindows; i++)
		fprintf(o, "%s%.3f", i ? "," : "", l->window_fps[i]);
	fprintf(o, "]");
	fprintf(o, ",\"jank\":%llu,\"big_jank\":%llu,\"jank_per_10min\":%.3f,"
	       "\"big_jank_per_10min\":%.3f,\"stutter\":%.6f",
	       (unsigned long long)l->jank, (unsigned long long)l->big_jank, l->jank_per_10min,
	       l->big_jank_per_10min, l->stutter);
	fprintf(o, ",\"frozen_frames\":%llu,\"frozen_share\":%.6f,\"slow_frames\":%llu",
	       (unsigned long long)l->frozen_frames, l->frozen_share,
	       (unsigned long long)l->slow_frames);
	fprintf(o, ",\"seed\":{\"A\":%llu,\"B\":%llu,\"C\":%llu,\"D\":%llu,\"score\":%.2f}",
	       (unsigned long long)l->a, (unsigned long long)l->b, (unsigned long long)l->c,
	       (unsigned long long)l->d, l->score);
	fprintf(o, ",\"hitch_ms_per_s\":%.3f", l->hitch_ms_per_s);
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
	printf("  frames %llu over %.2f s at %.1f Hz; %llu waits (%.2f s idle)\n",
	       (unsigned long long)l->frames, l->duration_s, l->refresh_hz,
	       (unsigned long long)l->waits, l->wait_s);
	printf("  FPS %.1f (active)  %.1f (wall)  median %.1f  low 1%% %.1f\n", l->fps,
	       l->fps_wall, l->fps_median, l->fps_low_1pct);
	printf("  frame ms  p50 %.1f  p90 %.1f  p95 %.1f  p99 %.1f  max %.1f\n", l->frame_ms_p50,
	       l->frame_ms_p90, l->frame_ms_p95, l->frame_ms_p99, l->frame_ms_max);
	printf("  PerfDog   jank %llu  big jank %llu  (%.1f / %.1f per 10 min)  stutter %.2f%%\n",
	       (unsigned long long)l->jank, (unsigned long long)l->big_jank, l->jank_per_10min,
	       l->big_jank_per_10min, l->stutter * 100);
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
	printf(")\n  Taobao    %zu jank-FPS windows under %.0f FPS", l->njank_windows,
	       l->refresh_hz * 5 / 6);
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
		gfxstat_metrics_free(r.m);
		return CLI_INPUT;
	}
	n = gfxstat_metrics_count(r.m);
	if (r.janky) {
		if (!r.njanky)
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
	gfxstat_metrics_free(r.m);
	return rc;
}
