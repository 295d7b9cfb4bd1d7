/* SPDX-License-Identifier: MIT */
/*
 * The report's fold of every other tool's metrics: one table per tool (PerfDog, GameBench,
 * Android, Apple, Tencent Matrix, Taobao, SoloX/mobileperf, android_FPS_frome_GFX), each
 * named after the tool and explained on hover, one row per app and layer. The numbers are
 * those of `analyze --json`: shown with the precision they deserve, exact in data-v.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html_local.h"

/* Where to cut a long name: its first head bytes and the bytes from tail on, on UTF-8
 * character boundaries. The start and the end of a layer name say the most (package,
 * activity, #N). Return: 0 when the name fits whole. */
static int name_cut(const char *name, size_t n, size_t max, size_t *head, size_t *tail)
{
	if (max < 8 || n <= max)
		return 0;
	*head = (max - 1) * 2 / 5;
	while (*head && ((unsigned char)name[*head] & 0xC0) == 0x80)
		(*head)--;
	*tail = n - (max - 1 - *head);
	while (*tail < n && ((unsigned char)name[*tail] & 0xC0) == 0x80)
		(*tail)++;
	return 1;
}

static void wr_cut(struct gx_wr *w, const char *name, size_t n, size_t head, size_t tail)
{
	gx_wr_html(w, name, head);
	gx_wr_puts(w, "\xe2\x80\xa6"); /* U+2026 */
	gx_wr_html(w, name + tail, n - tail);
}

void gx_wr_name(struct gx_wr *w, const char *name, size_t max)
{
	size_t n = strlen(name), head, tail;

	if (!name_cut(name, n, max, &head, &tail)) {
		gx_wr_html(w, name, n);
		return;
	}
	gx_wr_puts(w, "<span class=\"nm\" title=\"");
	gx_wr_html(w, name, n);
	gx_wr_puts(w, "\">");
	wr_cut(w, name, n, head, tail);
	gx_wr_puts(w, "</span>");
}

void gx_wr_name_cell(struct gx_wr *w, const char *name, size_t max)
{
	size_t n = strlen(name), head, tail;

	gx_wr_puts(w, "<td class=\"t lay\" title=\"");
	gx_wr_html(w, name, n);
	gx_wr_puts(w, "\">");
	if (name_cut(name, n, max, &head, &tail))
		wr_cut(w, name, n, head, tail);
	else
		gx_wr_html(w, name, n);
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

/* How a column's cell is written from the row's metrics. */
enum cell {
	CELL_COUNT,  /* uint64_t at off */
	CELL_SIZE,   /* size_t at off */
	CELL_NUM,    /* double at off, with prec decimals */
	CELL_RATE,   /* a double that needs an interval: n/a without one */
	CELL_PER10,  /* a per-10-minute rate: "-" under a minute of frames */
	CELL_FN,     /* written by fn */
};

/* One column: its head, what the head says on hover, and how its cells are written. */
struct col {
	const char *head, *title;
	enum cell cell;
	const char *key; /* data-k of the cell, read by the tests and the page's script */
	size_t off;      /* of the value in struct gfxstat_layer_metrics */
	int prec;
	void (*fn)(struct gx_wr *w, const struct gfxstat_layer_metrics *l);
};

/* One tool's table. */
struct tool {
	const char *id, *name, *about;
	const struct col *col;
	size_t ncol;
};

#define NCOL(a) (sizeof(a) / sizeof((a)[0]))
#define AT(f) offsetof(struct gfxstat_layer_metrics, f)
#define COUNT(h, t, k, f) { h, t, CELL_COUNT, k, AT(f), 0, 0 }
#define NUM(h, t, k, f, p) { h, t, CELL_NUM, k, AT(f), p, 0 }
#define RATE(h, t, k, f) { h, t, CELL_RATE, k, AT(f), 1, 0 }
#define FN(h, t, fn) { h, t, CELL_FN, 0, 0, 0, fn }

/* a rate with no interval to measure it by (one frame, or only idle waits) */
#define NA_CELL "<td title=\"no interval under the idle rule (500 ms): no rate to give\">n/a</td>"

static double at_double(const struct gfxstat_layer_metrics *l, size_t off)
{
	double v;

	memcpy(&v, (const char *)l + off, sizeof(v));
	return v;
}

static void write_cell(struct gx_wr *w, const struct col *c,
		       const struct gfxstat_layer_metrics *l)
{
	const char *p = (const char *)l + c->off;
	uint64_t u;
	size_t z;

	switch (c->cell) {
	case CELL_COUNT:
		memcpy(&u, p, sizeof(u));
		gx_wr_count(w, "td", c->key, u);
		break;
	case CELL_SIZE:
		memcpy(&z, p, sizeof(z));
		gx_wr_count(w, "td", c->key, z);
		break;
	case CELL_NUM:
		gx_wr_num(w, "td", c->key, at_double(l, c->off), c->prec, "");
		break;
	case CELL_RATE:
		if (l->intervals)
			gx_wr_num(w, "td", c->key, at_double(l, c->off), c->prec, "");
		else
			gx_wr_puts(w, NA_CELL);
		break;
	case CELL_PER10:
		if (l->rates_valid)
			gx_wr_num(w, "td", c->key, at_double(l, c->off), 1, "");
		else
			gx_wr_puts(w, "<td title=\"under a minute of frames\">-</td>");
		break;
	case CELL_FN:
		c->fn(w, l);
		break;
	}
}

/* the rows in the summary's order: apps, layers of apps, system layers */
#define FOR_ROWS(m, l)                                                                     \
	for (size_t pass_ = 0; pass_ < 3; pass_++)                                         \
		for (size_t i_ = 0; i_ < gfxstat_metrics_count(m); i_++)                   \
			if ((l = gfxstat_metrics_get(m, i_)) && row_kind(l) == (int)pass_)

/* The tool's heading, note and table, one row per app and layer; the caller closes the
 * section (Taobao adds its scrolls). */
static void write_tool(struct gx_wr *w, const struct tool *t, const struct gfxstat_metrics *m)
{
	const struct gfxstat_layer_metrics *l;
	size_t i;

	gx_wr_printf(w, "<section class=\"tool\" id=\"tool-%s\"><h3 title=\"", t->id);
	gx_wr_html(w, t->about, strlen(t->about));
	gx_wr_puts(w, "\">");
	gx_wr_html(w, t->name, strlen(t->name));
	gx_wr_puts(w, "</h3><p class=\"note\">");
	gx_wr_html(w, t->about, strlen(t->about));
	gx_wr_printf(w, "</p><div class=\"scroll\"><table id=\"%s-table\" class=\"rows\"><thead>"
		     "<tr><th class=\"t\">app or layer</th>", t->id);
	for (i = 0; i < t->ncol; i++) {
		gx_wr_puts(w, "<th title=\"");
		gx_wr_html(w, t->col[i].title, strlen(t->col[i].title));
		gx_wr_puts(w, "\">");
		gx_wr_html(w, t->col[i].head, strlen(t->col[i].head));
		gx_wr_puts(w, "</th>");
	}
	gx_wr_puts(w, "</tr></thead><tbody>\n");
	FOR_ROWS(m, l) {
		gx_html_row_head(w, l);
		for (i = 0; i < t->ncol; i++)
			write_cell(w, &t->col[i], l);
		gx_wr_puts(w, "</tr>\n");
	}
	gx_wr_puts(w, "</tbody></table></div>");
}

static void cell_stutter(struct gx_wr *w, const struct gfxstat_layer_metrics *l)
{
	gx_wr_printf(w, "<td data-k=\"stutter\" data-v=\"%.6f\">%.1f %%</td>", l->stutter,
		     100 * l->stutter);
}

static const struct col perfdog_col[] = {
	COUNT("Jank", "frames longer than twice the mean of the 3 before and than 83.3 ms (two "
		      "film frames); idle waits included, PerfDog has no idle rule", "jank", jank),
	COUNT("Big jank", "the same, longer than 125 ms (three film frames)", "big_jank",
	      big_jank),
	{ "Jank /10 min", "Jank per 10 minutes; only over a minute or more of frames",
	  CELL_PER10, "jank_per_10min", AT(jank_per_10min), 1, 0 },
	{ "Big jank /10 min", "Big jank per 10 minutes; only over a minute or more", CELL_PER10,
	  "big_jank_per_10min", AT(big_jank_per_10min), 1, 0 },
	FN("Stutter", "the Jank frames' time as a share of the recording (PerfDog does not "
		      "publish its formula: the common reading)", cell_stutter),
};

static const struct col gamebench_col[] = {
	RATE("Median FPS", "the median of the FPS of each full second (the timeline's FPS "
			   "lane), over seconds with frames", "fps_median", fps_median),
	RATE("Low 1% FPS", "1000 / the mean of the slowest 1 % of frame times: the rate of the "
			   "worst moments", "fps_low_1pct", fps_low_1pct),
};

static void pcts(struct gx_wr *w, const char *key, uint64_t n, const double *v)
{
	if (!n) {
		gx_wr_puts(w, "<td>-</td>");
		return;
	}
	gx_wr_printf(w, "<td data-k=\"%s\">%.1f / %.1f / %.1f</td>", key, v[0], v[1], v[3]);
}

static void cell_source_verdict(struct gx_wr *w, const struct gfxstat_layer_metrics *l)
{
	if (l->source_judged)
		gx_wr_printf(w, "<td><span data-k=\"source_janky\">%llu</span> of %llu</td>",
			     (unsigned long long)l->source_janky,
			     (unsigned long long)l->source_judged);
	else
		gx_wr_puts(w, "<td title=\"the source gives no verdict\">-</td>");
}

static void cell_own_summary(struct gx_wr *w, const struct gfxstat_layer_metrics *l)
{
	if (l->own_total >= 0 && l->own_janky >= 0)
		gx_wr_printf(w, "<td><span data-k=\"own_janky\">%lld</span> of <span "
			     "data-k=\"own_total\">%lld</span></td>", (long long)l->own_janky,
			     (long long)l->own_total);
	else
		gx_wr_puts(w, "<td>-</td>");
}

static void cell_macro_cpu(struct gx_wr *w, const struct gfxstat_layer_metrics *l)
{
	pcts(w, "macro_cpu", l->macro_cpu_n, l->macro_cpu_ms);
}

static void cell_macro_overrun(struct gx_wr *w, const struct gfxstat_layer_metrics *l)
{
	pcts(w, "macro_overrun", l->macro_overrun_n, l->macro_overrun_ms);
}

static const struct col android_col[] = {
	COUNT("Slow frames", "frames that missed at least one refresh of the content's cadence "
			     "(Android vitals' slow frames)", "slow_frames", slow_frames),
	COUNT("Frozen frames", "frames of 700 ms or more (Android vitals); in a trace of "
			       "presents only an idle screen looks the same", "frozen_frames",
	      frozen_frames),
	FN("Android's own verdict", "frames Android itself called janky (FrameTimeline, or "
				    "JankTracker in gfxinfo framestats), of those it judged",
	   cell_source_verdict),
	FN("dumpsys gfxinfo summary", "the dump's own 'Janky frames' of 'Total frames "
				      "rendered', since its stats were reset", cell_own_summary),
	FN("CPU ms P50/P90/P99", "Macrobenchmark frameDurationCpuMs: the frames' own work time",
	   cell_macro_cpu),
	FN("Overrun ms P50/P90/P99", "Macrobenchmark frameOverrunMs: how far past their "
				     "deadline frames ended (negative: early)", cell_macro_overrun),
};

static const struct col apple_col[] = {
	NUM("Hitch time ratio ms/s", "milliseconds frames were late beyond the content's "
				     "cadence, per second of drawing: under 5 good, over 10 bad "
				     "(Apple's guidance)", "hitch_ms_per_s", hitch_ms_per_s, 1),
};

#define LEVEL(k) (AT(matrix_levels) + (k) * sizeof(uint64_t))
static const struct col matrix_col[] = {
	COUNT("Dropped", "refreshes missed in all: for each frame, (time - refresh period) / "
			 "period, rounded down", "matrix_dropped", matrix_dropped),
	NUM("Dropped per frame", "Dropped / frames", "matrix_dropped_per_frame",
	    matrix_dropped_per_frame, 2),
	{ "best", "frames that dropped under 3 refreshes", CELL_COUNT, "matrix_best", LEVEL(0), 0, 0 },
	{ "normal", "frames that dropped 3 to 8", CELL_COUNT, "matrix_normal", LEVEL(1), 0, 0 },
	{ "middle", "frames that dropped 9 to 23", CELL_COUNT, "matrix_middle", LEVEL(2), 0, 0 },
	{ "high", "frames that dropped 24 to 41", CELL_COUNT, "matrix_high", LEVEL(3), 0, 0 },
	{ "frozen", "frames that dropped 42 or more", CELL_COUNT, "matrix_frozen", LEVEL(4), 0, 0 },
};

static const struct col taobao_col[] = {
	{ "Jank windows", "runs of frames starting at a long one (over 2 refreshes) whose FPS "
			  "fell under 5/6 of the content's rate: shaded orange on the timeline",
	  CELL_SIZE, "jank_windows", AT(njank_windows), 0, 0 },
	{ "Scrolls", "scrolls found in the trace (input events, or the app's own scroll "
		     "sections): shaded blue on the timeline", CELL_SIZE, "scrolls", AT(nscrolls), 0, 0 },
};

static const struct col solox_col[] = {
	RATE("Wall FPS", "frames over the whole span, idle waits included: (frames - 1) / (last "
			 "- first)", "fps_wall", fps_wall),
};

static void cell_waits(struct gx_wr *w, const struct gfxstat_layer_metrics *l)
{
	gx_wr_printf(w, "<td>%llu (%.1f s)</td>", (unsigned long long)l->waits, l->wait_s);
}

static void cell_score(struct gx_wr *w, const struct gfxstat_layer_metrics *l)
{
	gx_wr_printf(w, "<td data-k=\"score\" data-v=\"%.2f\">%.1f</td>", l->score, l->score);
}

static const struct col gfx_col[] = {
	RATE("FPS", "frames / active time, idle waits (500 ms or more) left out: the FPS this "
		    "report shows everywhere", "fps", fps),
	FN("idle waits", "intervals of 500 ms or more: nothing to draw, left out of FPS",
	   cell_waits),
	COUNT("A", "frames of 100 ms or more", "seed_a", a),
	COUNT("B", "frames of 50 to 100 ms", "seed_b", b),
	COUNT("C", "frames of 42 to 50 ms", "seed_c", c),
	COUNT("D", "frames that missed a refresh of the content's cadence", "seed_d", d),
	FN("score", "60 x FPS/target (at most 60) + 20 x min(KPI 100 ms / longest frame, 1) + "
		    "10, 7 and 3 x the share of frames not in A, B and C", cell_score),
};

#define TOOL(id, name, about, col) { id, name, about, col, NCOL(col) }
static const struct tool tools[] = {
	TOOL("perfdog", "PerfDog", "PerfDog (Tencent's mobile performance tool): Jank and Big "
	     "jank, frames much longer than the ones just before them.", perfdog_col),
	TOOL("gamebench", "GameBench", "GameBench (a game performance tool): the FPS of each "
	     "second, their median, and the rate of the slowest 1 % of frames.", gamebench_col),
	TOOL("android", "Android", "Android's own measures: Android vitals' slow and frozen "
	     "frames, the verdicts Android writes into the trace, and Jetpack Macrobenchmark's "
	     "FrameTimingMetric.", android_col),
	TOOL("apple", "Apple", "Apple's hitch time ratio (Xcode, MetricKit): how late frames "
	     "were, in ms per second.", apple_col),
	TOOL("matrix", "Tencent Matrix", "Tencent Matrix's FrameTracer: refreshes dropped per "
	     "frame, and frames by how many they dropped.", matrix_col),
	TOOL("taobao", "Taobao", "Taobao's APM (Alibaba): jank-FPS windows, and each scroll's FPS "
	     "and hitch rate.", taobao_col),
	TOOL("solox", "SoloX, mobileperf", "SoloX and mobileperf (open-source Android "
	     "performance tools): frames over wall-clock time, idle included.", solox_col),
	TOOL("gfx", "android_FPS_frome_GFX", "android_FPS_frome_GFX (gfx.sh, a busybox awk "
	     "script run on the phone; gfxstat gfx reproduces it): FPS with idle waits left "
	     "out, frames in buckets A to D, a score out of 100, and its per-window table "
	     "below.", gfx_col),
};

/* Taobao's scrolls, each with its times from the start of the recording (long: laid out
 * when seen). */
static void taobao_scrolls(struct gfxstat_html *h, const struct gfxstat_metrics *m,
			   struct gx_wr *w)
{
	const struct gfxstat_layer_metrics *l;
	int64_t t0 = gx_html_time_origin(h);
	int any = 0;
	size_t i;

	FOR_ROWS(m, l)
		any |= l->nscrolls != 0;
	if (!any)
		return;
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
	gx_wr_puts(w, "</tbody></table></div>");
}

void gx_html_tools(struct gfxstat_html *h, const struct gfxstat_metrics *m, struct gx_wr *w)
{
	size_t i;

	if (!m || !gfxstat_metrics_count(m))
		return;
	for (i = 0; i < NCOL(tools); i++) {
		write_tool(w, &tools[i], m);
		if (tools[i].col == taobao_col) {
			gx_wr_puts(w, "\n");
			taobao_scrolls(h, m, w);
		}
		gx_wr_puts(w, "</section>\n");
	}
}
