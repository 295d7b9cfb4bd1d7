/* SPDX-License-Identifier: MIT */
/*
 * The report's fold of every other tool's metrics: one table per tool (PerfDog, GameBench,
 * Android, Apple, Tencent Matrix, Taobao, SoloX/mobileperf, android_FPS_frome_GFX), each
 * named after the tool and explained on hover, one row per app and layer. The numbers are
 * those of `analyze --json`: shown with the precision they deserve, exact in data-v.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "html_local.h"

void gx_wr_name(struct gx_wr *w, const char *name, size_t max)
{
	size_t n = strlen(name), head, tail;

	if (max < 8 || n <= max) {
		gx_wr_html(w, name, n);
		return;
	}
	/* the start and the end of a layer name say the most (package, activity, #N); cut on
	 * UTF-8 character boundaries */
	head = (max - 1) * 2 / 5;
	while (head && ((unsigned char)name[head] & 0xC0) == 0x80)
		head--;
	tail = n - (max - 1 - head);
	while (tail < n && ((unsigned char)name[tail] & 0xC0) == 0x80)
		tail++;
	gx_wr_puts(w, "<span class=\"nm\" title=\"");
	gx_wr_html(w, name, n);
	gx_wr_puts(w, "\">");
	gx_wr_html(w, name, head);
	gx_wr_puts(w, "\xe2\x80\xa6"); /* U+2026 */
	gx_wr_html(w, name + tail, n - tail);
	gx_wr_puts(w, "</span>");
}

void gx_wr_name_cell(struct gx_wr *w, const char *name, size_t max)
{
	size_t n = strlen(name), head, tail;

	gx_wr_puts(w, "<td class=\"t lay\" title=\"");
	gx_wr_html(w, name, n);
	gx_wr_puts(w, "\">");
	if (max < 8 || n <= max) {
		gx_wr_html(w, name, n);
	} else {
		head = (max - 1) * 2 / 5;
		while (head && ((unsigned char)name[head] & 0xC0) == 0x80)
			head--;
		tail = n - (max - 1 - head);
		while (tail < n && ((unsigned char)name[tail] & 0xC0) == 0x80)
			tail++;
		gx_wr_html(w, name, head);
		gx_wr_puts(w, "\xe2\x80\xa6");
		gx_wr_html(w, name + tail, n - tail);
	}
	gx_wr_puts(w, "</td>");
}

void gx_wr_num(struct gx_wr *w, const char *tag, const char *key, double v, int prec,
	       const char *unit)
{
	if (!isfinite(v))
		v = 0;
	gx_wr_printf(w, "<%s data-k=\"%s\" data-v=\"%.3f\">%.*f%s</%s>", tag, key, v, prec, v,
		     unit, tag);
}

void gx_wr_count(struct gx_wr *w, const char *tag, const char *key, uint64_t v)
{
	gx_wr_printf(w, "<%s data-k=\"%s\">%llu</%s>", tag, key, (unsigned long long)v, tag);
}

/* kind of row: 0 app, 1 layer of an app, 2 system layer (no app) */
static int row_kind(const struct gfxstat_layer_metrics *l)
{
	return l->is_app ? 0 : l->app[0] ? 1 : 2;
}

void gx_html_row_head(struct gx_wr *w, const struct gfxstat_layer_metrics *l)
{
	int k = row_kind(l);

	gx_wr_printf(w, "<tr class=\"%s\" data-kind=\"%s\" data-name=\"",
		     k == 0 ? "app" : k == 1 ? "lay" : "lay sys", l->is_app ? "app" : "layer");
	gx_wr_html(w, l->name, strlen(l->name));
	gx_wr_puts(w, "\"><td class=\"t\">");
	if (k == 0)
		gx_wr_puts(w, "<b>");
	gx_wr_name(w, l->name, 44);
	if (k == 0)
		gx_wr_puts(w, "</b>");
	gx_wr_puts(w, "</td>");
}

/* One column: its head and what the head says on hover. */
struct col {
	const char *head, *title;
};

static void table_head(struct gx_wr *w, const char *id, const struct col *c, size_t n)
{
	size_t i;

	gx_wr_printf(w, "<div class=\"scroll\"><table id=\"%s\" class=\"rows\"><thead><tr>"
		     "<th class=\"t\">app or layer</th>", id);
	for (i = 0; i < n; i++) {
		gx_wr_puts(w, "<th title=\"");
		gx_wr_html(w, c[i].title, strlen(c[i].title));
		gx_wr_puts(w, "\">");
		gx_wr_html(w, c[i].head, strlen(c[i].head));
		gx_wr_puts(w, "</th>");
	}
	gx_wr_puts(w, "</tr></thead><tbody>\n");
}

static void tool_head(struct gx_wr *w, const char *id, const char *name, const char *about)
{
	gx_wr_printf(w, "<section class=\"tool\" id=\"tool-%s\"><h3 title=\"", id);
	gx_wr_html(w, about, strlen(about));
	gx_wr_puts(w, "\">");
	gx_wr_html(w, name, strlen(name));
	gx_wr_puts(w, "</h3><p class=\"note\">");
	gx_wr_html(w, about, strlen(about));
	gx_wr_puts(w, "</p>");
}

#define NCOL(a) (sizeof(a) / sizeof((a)[0]))

/* a rate with no interval to measure it by (one frame, or only idle waits) */
#define NA_CELL "<td title=\"no interval under the idle rule (500 ms): no rate to give\">n/a</td>"

/* the rows in the summary's order: apps, layers of apps, system layers */
#define FOR_ROWS(m, l)                                                                     \
	for (size_t pass_ = 0; pass_ < 3; pass_++)                                         \
		for (size_t i_ = 0; i_ < gfxstat_metrics_count(m); i_++)                   \
			if ((l = gfxstat_metrics_get(m, i_)) && row_kind(l) == (int)pass_)

static void tool_perfdog(const struct gfxstat_metrics *m, struct gx_wr *w)
{
	static const struct col c[] = {
		{ "Jank", "frames longer than twice the mean of the 3 before and than 83.3 ms "
			  "(two film frames); idle waits included, PerfDog has no idle rule" },
		{ "Big jank", "the same, longer than 125 ms (three film frames)" },
		{ "Jank /10 min", "Jank per 10 minutes; only over a minute or more of frames" },
		{ "Big jank /10 min", "Big jank per 10 minutes; only over a minute or more" },
		{ "Stutter", "the Jank frames' time as a share of the recording (PerfDog does not "
			     "publish its formula: the common reading)" },
	};
	const struct gfxstat_layer_metrics *l;

	tool_head(w, "perfdog", "PerfDog", "PerfDog (Tencent's mobile performance tool): Jank "
		  "and Big jank, frames much longer than the ones just before them.");
	table_head(w, "perfdog-table", c, NCOL(c));
	FOR_ROWS(m, l) {
		gx_html_row_head(w, l);
		gx_wr_count(w, "td", "jank", l->jank);
		gx_wr_count(w, "td", "big_jank", l->big_jank);
		if (l->rates_valid) {
			gx_wr_num(w, "td", "jank_per_10min", l->jank_per_10min, 1, "");
			gx_wr_num(w, "td", "big_jank_per_10min", l->big_jank_per_10min, 1, "");
		} else {
			gx_wr_puts(w, "<td title=\"under a minute of frames\">-</td>"
				      "<td title=\"under a minute of frames\">-</td>");
		}
		gx_wr_printf(w, "<td data-k=\"stutter\" data-v=\"%.6f\">%.1f %%</td></tr>\n",
			     l->stutter, 100 * l->stutter);
	}
	gx_wr_puts(w, "</tbody></table></div></section>\n");
}

static void tool_gamebench(const struct gfxstat_metrics *m, struct gx_wr *w)
{
	static const struct col c[] = {
		{ "Median FPS", "the median of the FPS of each full second (the timeline's FPS "
				"lane), over seconds with frames" },
		{ "Low 1% FPS", "1000 / the mean of the slowest 1 % of frame times: the rate of the "
				"worst moments" },
	};
	const struct gfxstat_layer_metrics *l;

	tool_head(w, "gamebench", "GameBench", "GameBench (a game performance tool): the FPS "
		  "of each second, their median, and the rate of the slowest 1 % of frames.");
	table_head(w, "gamebench-table", c, NCOL(c));
	FOR_ROWS(m, l) {
		gx_html_row_head(w, l);
		if (l->intervals) {
			gx_wr_num(w, "td", "fps_median", l->fps_median, 1, "");
			gx_wr_num(w, "td", "fps_low_1pct", l->fps_low_1pct, 1, "");
		} else {
			gx_wr_puts(w, NA_CELL NA_CELL);
		}
		gx_wr_puts(w, "</tr>\n");
	}
	gx_wr_puts(w, "</tbody></table></div></section>\n");
}

static void pcts(struct gx_wr *w, const char *key, uint64_t n, const double *v)
{
	if (!n) {
		gx_wr_puts(w, "<td>-</td>");
		return;
	}
	gx_wr_printf(w, "<td data-k=\"%s\">%.1f / %.1f / %.1f</td>", key, v[0], v[1], v[3]);
}

static void tool_android(const struct gfxstat_metrics *m, struct gx_wr *w)
{
	static const struct col c[] = {
		{ "Slow frames", "frames that missed at least one refresh of the content's cadence "
				 "(Android vitals' slow frames)" },
		{ "Frozen frames", "frames of 700 ms or more (Android vitals); in a trace of "
				   "presents only an idle screen looks the same" },
		{ "Android's own verdict", "frames Android itself called janky (FrameTimeline, "
					   "or JankTracker in gfxinfo framestats), of those it judged" },
		{ "dumpsys gfxinfo summary", "the dump's own 'Janky frames' of 'Total frames "
					     "rendered', since its stats were reset" },
		{ "CPU ms P50/P90/P99", "Macrobenchmark frameDurationCpuMs: the frames' own work "
					"time" },
		{ "Overrun ms P50/P90/P99", "Macrobenchmark frameOverrunMs: how far past their "
					    "deadline frames ended (negative: early)" },
	};
	const struct gfxstat_layer_metrics *l;

	tool_head(w, "android", "Android", "Android's own measures: Android vitals' slow and "
		  "frozen frames, the verdicts Android writes into the trace, and Jetpack "
		  "Macrobenchmark's FrameTimingMetric.");
	table_head(w, "android-table", c, NCOL(c));
	FOR_ROWS(m, l) {
		gx_html_row_head(w, l);
		gx_wr_count(w, "td", "slow_frames", l->slow_frames);
		gx_wr_count(w, "td", "frozen_frames", l->frozen_frames);
		if (l->source_judged)
			gx_wr_printf(w, "<td><span data-k=\"source_janky\">%llu</span> of %llu</td>",
				     (unsigned long long)l->source_janky,
				     (unsigned long long)l->source_judged);
		else
			gx_wr_puts(w, "<td title=\"the source gives no verdict\">-</td>");
		if (l->own_total >= 0 && l->own_janky >= 0)
			gx_wr_printf(w, "<td><span data-k=\"own_janky\">%lld</span> of <span "
				     "data-k=\"own_total\">%lld</span></td>", (long long)l->own_janky,
				     (long long)l->own_total);
		else
			gx_wr_puts(w, "<td>-</td>");
		pcts(w, "macro_cpu", l->macro_cpu_n, l->macro_cpu_ms);
		pcts(w, "macro_overrun", l->macro_overrun_n, l->macro_overrun_ms);
		gx_wr_puts(w, "</tr>\n");
	}
	gx_wr_puts(w, "</tbody></table></div></section>\n");
}

static void tool_apple(const struct gfxstat_metrics *m, struct gx_wr *w)
{
	static const struct col c[] = {
		{ "Hitch time ratio ms/s", "milliseconds frames were late beyond the content's "
					   "cadence, per second of drawing: under 5 good, over 10 "
					   "bad (Apple's guidance)" },
	};
	const struct gfxstat_layer_metrics *l;

	tool_head(w, "apple", "Apple", "Apple's hitch time ratio (Xcode, MetricKit): how late "
		  "frames were, in ms per second.");
	table_head(w, "apple-table", c, NCOL(c));
	FOR_ROWS(m, l) {
		gx_html_row_head(w, l);
		gx_wr_num(w, "td", "hitch_ms_per_s", l->hitch_ms_per_s, 1, "");
		gx_wr_puts(w, "</tr>\n");
	}
	gx_wr_puts(w, "</tbody></table></div></section>\n");
}

static void tool_matrix(const struct gfxstat_metrics *m, struct gx_wr *w)
{
	static const struct col c[] = {
		{ "Dropped", "refreshes missed in all: for each frame, (time - refresh period) / "
			     "period, rounded down" },
		{ "Dropped per frame", "Dropped / frames" },
		{ "best", "frames that dropped under 3 refreshes" },
		{ "normal", "frames that dropped 3 to 8" },
		{ "middle", "frames that dropped 9 to 23" },
		{ "high", "frames that dropped 24 to 41" },
		{ "frozen", "frames that dropped 42 or more" },
	};
	static const char *const lv[GFXSTAT_MATRIX_LEVELS] = { "best", "normal", "middle",
							       "high", "frozen" };
	const struct gfxstat_layer_metrics *l;
	size_t k;

	tool_head(w, "matrix", "Tencent Matrix", "Tencent Matrix's FrameTracer: refreshes "
		  "dropped per frame, and frames by how many they dropped.");
	table_head(w, "matrix-table", c, NCOL(c));
	FOR_ROWS(m, l) {
		gx_html_row_head(w, l);
		gx_wr_count(w, "td", "matrix_dropped", l->matrix_dropped);
		gx_wr_num(w, "td", "matrix_dropped_per_frame", l->matrix_dropped_per_frame, 2, "");
		for (k = 0; k < GFXSTAT_MATRIX_LEVELS; k++) {
			char key[32];

			snprintf(key, sizeof(key), "matrix_%s", lv[k]);
			gx_wr_count(w, "td", key, l->matrix_levels[k]);
		}
		gx_wr_puts(w, "</tr>\n");
	}
	gx_wr_puts(w, "</tbody></table></div></section>\n");
}

static void tool_taobao(struct gfxstat_html *h, const struct gfxstat_metrics *m,
			struct gx_wr *w)
{
	static const struct col c[] = {
		{ "Jank windows", "runs of frames starting at a long one (over 2 refreshes) whose "
				  "FPS fell under 5/6 of the content's rate: shaded orange on the "
				  "timeline" },
		{ "Scrolls", "scrolls found in the trace (input events, or the app's own scroll "
			     "sections): shaded blue on the timeline" },
	};
	const struct gfxstat_layer_metrics *l;
	int64_t t0 = gx_html_time_origin(h);
	int any = 0;
	size_t i;

	tool_head(w, "taobao", "Taobao", "Taobao's APM (Alibaba): jank-FPS windows, and each "
		  "scroll's FPS and hitch rate.");
	table_head(w, "taobao-table", c, NCOL(c));
	FOR_ROWS(m, l) {
		gx_html_row_head(w, l);
		gx_wr_printf(w, "<td data-k=\"jank_windows\">%zu</td><td data-k=\"scrolls\">%zu"
			     "</td></tr>\n", l->njank_windows, l->nscrolls);
		any |= l->nscrolls != 0;
	}
	gx_wr_puts(w, "</tbody></table></div>\n");
	if (!any) {
		gx_wr_puts(w, "</section>\n");
		return;
	}
	/* each scroll, its times from the start of the recording (long: laid out when seen) */
	gx_wr_puts(w, "<h4>Scrolls</h4><div class=\"scroll big\"><table id=\"scrolls\" "
		      "class=\"scrolls\"><thead><tr><th class=\"t\">app or layer</th><th>#</th>"
		      "<th title=\"seconds from the start of the recording\">start s</th>"
		      "<th>duration s</th><th>frames</th><th title=\"frames per second of the "
		      "scroll\">FPS</th><th title=\"Taobao's scrollHitchRate: ms late per second "
		      "of scrolling\">hitch ms/s</th><th title=\"PerfDog Jank in the scroll\">"
		      "jank</th><th>longest ms</th></tr></thead><tbody>\n");
	FOR_ROWS(m, l) {
		for (i = 0; i < l->nscrolls; i++) {
			const struct gfxstat_scroll *s = &l->scrolls[i];

			gx_wr_printf(w, "<tr data-t=\"%.6f\">", (double)(s->start_ns - t0) / 1e9);
			gx_wr_name_cell(w, l->name, 44);
			gx_wr_printf(w, "<td>%zu</td><td>%.2f</td><td>%.2f</td>"
				     "<td>%u</td><td>%.1f</td><td>%.1f</td><td>%u</td><td>%.1f</td>"
				     "</tr>\n", i + 1, (double)(s->start_ns - t0) / 1e9,
				     (double)(s->end_ns - s->start_ns) / 1e9, s->frames, s->fps,
				     s->hitch_ms_per_s, s->jank, (double)s->longest_ns / 1e6);
		}
	}
	gx_wr_puts(w, "</tbody></table></div></section>\n");
}

static void tool_solox(const struct gfxstat_metrics *m, struct gx_wr *w)
{
	static const struct col c[] = {
		{ "Wall FPS", "frames over the whole span, idle waits included: (frames - 1) / "
			      "(last - first)" },
	};
	const struct gfxstat_layer_metrics *l;

	tool_head(w, "solox", "SoloX, mobileperf", "SoloX and mobileperf (open-source Android "
		  "performance tools): frames over wall-clock time, idle included.");
	table_head(w, "solox-table", c, NCOL(c));
	FOR_ROWS(m, l) {
		gx_html_row_head(w, l);
		if (l->intervals)
			gx_wr_num(w, "td", "fps_wall", l->fps_wall, 1, "");
		else
			gx_wr_puts(w, NA_CELL);
		gx_wr_puts(w, "</tr>\n");
	}
	gx_wr_puts(w, "</tbody></table></div></section>\n");
}

static void tool_gfx(const struct gfxstat_metrics *m, struct gx_wr *w)
{
	static const struct col c[] = {
		{ "FPS", "frames / active time, idle waits (500 ms or more) left out: the FPS "
			 "this report shows everywhere" },
		{ "idle waits", "intervals of 500 ms or more: nothing to draw, left out of FPS" },
		{ "A", "frames of 100 ms or more" },
		{ "B", "frames of 50 to 100 ms" },
		{ "C", "frames of 42 to 50 ms" },
		{ "D", "frames that missed a refresh of the content's cadence" },
		{ "score", "60 x FPS/target (at most 60) + 20 x min(KPI 100 ms / longest frame, 1) "
			   "+ 10, 7 and 3 x the share of frames not in A, B and C" },
	};
	const struct gfxstat_layer_metrics *l;

	tool_head(w, "gfx", "android_FPS_frome_GFX", "android_FPS_frome_GFX (gfx.sh, a busybox "
		  "awk script run on the phone; gfxstat gfx reproduces it): FPS with idle waits "
		  "left out, frames in buckets A to D, a score out of 100, and its per-window "
		  "table below.");
	table_head(w, "gfx-table", c, NCOL(c));
	FOR_ROWS(m, l) {
		gx_html_row_head(w, l);
		if (l->intervals)
			gx_wr_num(w, "td", "fps", l->fps, 1, "");
		else
			gx_wr_puts(w, NA_CELL);
		gx_wr_printf(w, "<td>%llu (%.1f s)</td>", (unsigned long long)l->waits, l->wait_s);
		gx_wr_count(w, "td", "seed_a", l->a);
		gx_wr_count(w, "td", "seed_b", l->b);
		gx_wr_count(w, "td", "seed_c", l->c);
		gx_wr_count(w, "td", "seed_d", l->d);
		gx_wr_printf(w, "<td data-k=\"score\" data-v=\"%.2f\">%.1f</td></tr>\n", l->score,
			     l->score);
	}
	gx_wr_puts(w, "</tbody></table></div></section>\n");
}

void gx_html_tools(struct gfxstat_html *h, const struct gfxstat_metrics *m, struct gx_wr *w)
{
	if (!m || !gfxstat_metrics_count(m))
		return;
	tool_perfdog(m, w);
	tool_gamebench(m, w);
	tool_android(m, w);
	tool_apple(m, w);
	tool_matrix(m, w);
	tool_taobao(h, m, w);
	tool_solox(m, w);
	tool_gfx(m, w);
}
