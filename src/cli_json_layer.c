/* SPDX-License-Identifier: MIT */
/* One layer's (or app's) metrics as JSON: `analyze --json` and record's summary.json. */
#include <stdio.h>

#include "cli.h"
#include "cli_json.h"
#include "gfxstat/gfxstat.h"

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
	cli_json_layer_open(o, l);
	fputc('}', o);
}

void cli_json_layer_open(FILE *o, const struct gfxstat_layer_metrics *l)
{
	char name[128];
	size_t i;
	int first, rate;

	/* an app's entry combines its layers: it is no layer, and its name is the app */
	fprintf(o, "{\"layer\":");
	if (l->is_app)
		fputs("null", o);
	else
		cli_json_str(o, l->name);
	fprintf(o, ",\"app\":");
	if (l->app[0] || l->is_app)
		cli_json_str(o, l->app[0] ? l->app : l->name);
	else
		fputs("null", o);
	fprintf(o, ",\"kind\":\"%s\",\"source\":\"%s\"", l->is_app ? "app" : "layer",
	       gfxstat_frame_source_name(l->source));
	fprintf(o, ",\"frames\":%llu,\"duration_s\":%.6f,\"refresh_hz\":%.3f,\"period_ns\":%lld"
		",\"refresh_assumed\":%s",
	       (unsigned long long)l->frames, l->duration_s, l->refresh_hz,
	       (long long)l->period_ns, l->period_assumed ? "true" : "false");
	fprintf(o, ",\"untimed\":%llu,\"cadence_vsyncs\":%u,\"cadence_fps\":%.3f,"
		"\"cadence_changes\":%u", (unsigned long long)l->untimed, l->cadence_vsyncs,
		l->cadence_fps, l->cadence_changes);
	/* no rate can be said (no present times, or no interval under --wait): null, as the
	 * table's "FPS n/a", never a rate of 0 for a layer that drew */
	rate = !(l->untimed && l->untimed == l->frames) && l->intervals;
	fputs(",\"fps\":", o);
	rate ? fprintf(o, "%.3f", l->fps) : fputs("null", o);
	fputs(",\"fps_wall\":", o);
	rate ? fprintf(o, "%.3f", l->fps_wall) : fputs("null", o);
	fprintf(o, ",\"active_s\":%.6f,\"waits\":%llu,\"wait_s\":%.6f", l->active_s,
		(unsigned long long)l->waits, l->wait_s);
	/* no frame time at all (every interval a wait): null, not a "max 0" */
	if (l->intervals || l->frame_ms_max > 0)
		fprintf(o, ",\"frame_ms\":{\"p50\":%.3f,\"p90\":%.3f,\"p95\":%.3f,\"p99\":%.3f,"
			"\"max\":%.3f}", l->frame_ms_p50, l->frame_ms_p90, l->frame_ms_p95,
			l->frame_ms_p99, l->frame_ms_max);
	else
		fprintf(o, ",\"frame_ms\":null");
	fputs(",\"fps_median\":", o);
	rate ? fprintf(o, "%.3f", l->fps_median) : fputs("null", o);
	fputs(",\"fps_low_1pct\":", o);
	rate ? fprintf(o, "%.3f", l->fps_low_1pct) : fputs("null", o);
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
			gfxstat_frame_jank_type_str((int32_t)1 << i, name, sizeof(name));
			fprintf(o, "%s\"%s\":%llu", first ? "" : ",", name,
			       (unsigned long long)l->ft_jank[i]);
			first = 0;
		}
		fprintf(o, "},\"present_type\":{");
		for (i = 0, first = 1; i < 6; i++) {
			if (!l->ft_present[i])
				continue;
			fprintf(o, "%s\"%s\":%llu", first ? "" : ",",
				gfxstat_frame_present_type_name((int32_t)i),
				(unsigned long long)l->ft_present[i]);
			first = 0;
		}
		fprintf(o, "},\"jank_reasons\":{");
		for (i = 0, first = 1; i < GFXSTAT_GFXINFO_REASONS; i++) {
			if (!l->gfxinfo_reasons[i])
				continue;
			fprintf(o, "%s\"%s\":%llu", first ? "" : ",", gfxstat_frame_reason_name(i),
				(unsigned long long)l->gfxinfo_reasons[i]);
			first = 0;
		}
		fprintf(o, "}}");
	}
	/* Android's own summary (dumpsys gfxinfo), over every frame since its stats were reset */
	if (l->own_total >= 0) {
		fprintf(o, ",\"android_summary\":{\"frames\":%lld,\"janky\":", (long long)l->own_total);
		if (l->own_janky >= 0)
			fprintf(o, "%lld}", (long long)l->own_janky);
		else
			fprintf(o, "null}");
	}
}

void cli_json_analyze(FILE *o, const struct cli_json_header *h, const struct gfxstat_metrics *m)
{
	size_t k, n = gfxstat_metrics_count(m);

	/* one entry a line: line-oriented tools (grep, the suite's awk) see one layer at a time */
	cli_json_begin(o, h);
	fputs("\n\"layers\":[", o);
	for (k = 0; k < n; k++) {
		fputs("\n", o);
		cli_json_layer(o, gfxstat_metrics_get(m, k));
		if (k + 1 < n)
			fputc(',', o);
	}
	fputs("]}\n", o);
}

/* a quoted CSV field, '"' doubled (RFC 4180) */
static void csv_quoted(FILE *o, const char *s)
{
	fputc('"', o);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', o);
		fputc(*s, o);
	}
	fputc('"', o);
}

void cli_csv_analyze(FILE *o, const struct gfxstat_metrics *m, int64_t window_ns)
{
	size_t k, n = gfxstat_metrics_count(m);

	/* window: the index of the --window long time window (gfxinfo's Android windows are
	 * layers); an app's rows have no layer */
	fputs("kind,layer,app,window,start_s,fps\n", o);
	for (k = 0; k < n; k++) {
		const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(m, k);
		const char *app = l->app[0] ? l->app : l->is_app ? l->name : "";
		uint32_t w;

		for (w = 0; w < l->nwindows; w++) {
			fprintf(o, "%s,", l->is_app ? "app" : "layer");
			if (!l->is_app)
				csv_quoted(o, l->name);
			fputc(',', o);
			if (app[0])
				csv_quoted(o, app);
			fprintf(o, ",%u,%.3f,%.3f\n", w,
				(double)l->first_ns / 1e9 + (double)w * (double)window_ns / 1e9,
				l->window_fps[w]);
		}
	}
}
