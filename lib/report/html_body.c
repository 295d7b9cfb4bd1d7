/* SPDX-License-Identifier: MIT */
/* The report's summary and tables: plain HTML, readable without JavaScript. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "html_local.h"

/* One row of the figures of a layer or app: this tool's own numbers (analyze's headline). */
static void layer_row(struct gx_wr *w, const struct gfxstat_layer_metrics *l)
{
	gx_html_row_head(w, l);
	gx_wr_count(w, "td", "frames", l->frames);
	if (l->intervals)
		gx_wr_num(w, "td", "fps", l->fps, 1, "");
	else
		/* (analyze --json: null) */
		gx_wr_puts(w, "<td title=\"no interval under the idle rule (500 ms): no rate to "
			   "give\">n/a</td>");
	gx_wr_num(w, "td", "janky_pct", l->frames ? 100.0 * (double)l->janky_frames /
		  (double)l->frames : 0.0, 1, " %");
	gx_wr_count(w, "td", "janky_frames", l->janky_frames);
	if (l->intervals || l->frame_ms_max > 0) {
		gx_wr_num(w, "td", "p50", l->frame_ms_p50, 1, "");
		gx_wr_num(w, "td", "p90", l->frame_ms_p90, 1, "");
		gx_wr_num(w, "td", "p99", l->frame_ms_p99, 1, "");
		gx_wr_num(w, "td", "max", l->frame_ms_max, 1, "");
	} else {
		gx_wr_puts(w, "<td></td><td></td><td></td><td></td>");
	}
	gx_wr_num(w, "td", "refresh_hz", l->refresh_hz, 1, "");
	gx_wr_num(w, "td", "cadence_fps", l->cadence_fps, 1, "");
	gx_wr_printf(w, "<td>%.2f</td><td class=\"t\">%s</td></tr>\n", l->duration_s,
		     gfxstat_frame_source_name(l->source));
}

static void summary_head(struct gx_wr *w, const char *id)
{
	gx_wr_printf(w, "<div class=\"scroll\"><table id=\"%s\" class=\"rows\"><thead><tr>"
		     "<th class=\"t\">app or layer</th><th>frames</th>"
		     "<th title=\"frames per second while drawing: frames / active time, idle "
		     "waits of 500 ms or more left out\">FPS</th>"
		     "<th title=\"the share of frames that were janky: Android's own verdict where "
		     "the trace carries one, else longer than the content's cadence\">janky</th>"
		     "<th>janky frames</th>"
		     "<th title=\"half of the frames took at most this long\">p50 ms</th>"
		     "<th title=\"9 frames in 10 took at most this long\">p90 ms</th>"
		     "<th title=\"99 frames in 100 took at most this long\">p99 ms</th>"
		     "<th title=\"the longest frame (idle waits left out)\">worst ms</th>"
		     "<th title=\"the display's refresh rate\">refresh Hz</th>"
		     "<th title=\"the rate the content runs at: the refresh rate, or a fraction "
		     "of it it keeps to (30 FPS on a 60 Hz display)\">content FPS</th>"
		     "<th title=\"from its first frame to its last\">span s</th>"
		     "<th class=\"t\" title=\"where the frame times come from\">source</th>"
		     "</tr></thead><tbody>\n", id);
}

/* apps first, then the layers of apps, then system layers folded away */
static void summary(struct gx_wr *w, const struct gfxstat_metrics *m)
{
	size_t i, n = gfxstat_metrics_count(m), nsys = 0, napp = 0;
	int pass;

	for (i = 0; i < n; i++)
		napp += gfxstat_metrics_get(m, i)->app[0] != 0 || gfxstat_metrics_get(m, i)->is_app;
	gx_wr_puts(w, "<section id=\"summary\"><h2>Apps and layers</h2>");
	if (!n)
		gx_wr_puts(w, "<p>No frames.</p>");
	else
		summary_head(w, "summary-table");
	for (pass = 0; pass < 3; pass++) {
		for (i = 0; i < n; i++) {
			const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(m, i);
			int kind = l->is_app ? 0 : l->app[0] ? 1 : 2;

			if (kind != pass)
				continue;
			/* system layers folded, unless there is nothing else */
			if (pass == 2 && napp && !nsys++) {
				gx_wr_puts(w, "</tbody></table></div><details class=\"system\">"
					   "<summary>System layers (no app)</summary>");
				summary_head(w, "system-table");
			}
			layer_row(w, l);
		}
	}
	if (n)
		gx_wr_puts(w, "</tbody></table></div>");
	if (nsys)
		gx_wr_puts(w, "</details>");
	gx_wr_puts(w, "</section>\n");
}

/* The kind of a cause: its text up to the first number ("measure/layout", "FrameTimeline:
 * App Deadline Missed"), so that the breakdown counts kinds, not durations. */
static size_t cause_kind(const char *c)
{
	size_t n = 0;

	while (c[n] && !(c[n] >= '0' && c[n] <= '9') && c[n] != '(')
		n++;
	while (n && (c[n - 1] == ' ' || c[n - 1] == ','))
		n--;
	return n;
}

struct kind {
	const char *p;
	size_t n;
	uint64_t count;
};

#define MAX_KINDS 64

/* The cause of janky frame @j of @l as the table says it. */
static const char *janky_cause(struct gfxstat_html *h, const struct gfxstat_layer_metrics *l,
			       const struct gfxstat_janky_frame *j)
{
	const char *c = gx_html_cause_of(h, l->name, j->present_ns,
					 j->index - (l->frames - l->untimed));

	return c ? c : "unknown (no cause recorded for this frame)";
}

static void janky_head(struct gx_wr *w, const char *id)
{
	gx_wr_printf(w, "<table id=\"%s\" class=\"janky sortable\"><thead><tr>", id);
	gx_wr_puts(w, "<th class=\"sort\" title=\"seconds from the start of the recording (the "
		   "trace clock on hover)\">time s</th><th class=\"sort t\">layer</th>"
		   "<th class=\"sort\" title=\"how long the frame took: its interval from the frame "
		   "before, or after an idle wait its own duration\">frame ms</th>"
		   "<th class=\"sort\" title=\"the frame's time in display refreshes\">refreshes"
		   "</th><th class=\"sort\" title=\"the rate the content ran at\">content FPS</th>"
		   "<th class=\"sort t\">cause</th></tr></thead><tbody>");
}

static void janky_row(struct gfxstat_html *h, struct gx_wr *w,
		      const struct gfxstat_layer_metrics *l, const struct gfxstat_janky_frame *j,
		      int64_t t0)
{
	const char *c = janky_cause(h, l, j);

	/* time from the start; data-t for the timeline (the script puts the trace clock in the
	 * row's tooltip: t0 + data-t, not written in every row) */
	if (j->present_ns != GFXSTAT_NS_NONE)
		gx_wr_printf(w, "<tr data-t=\"%.6f\" data-class=\"%s\"><td>%.3f</td>",
			     (double)(j->present_ns - t0) / 1e9,
			     gx_html_class_name(gx_html_why_of(h, l->name, j->present_ns, 0)),
			     (double)(j->present_ns - t0) / 1e9);
	else
		/* no present: its rank among the layer's untimed frames (the timeline of a dump
		 * with no times is one of ranks: report.js goes there on a click) */
		gx_wr_printf(w, "<tr data-ord=\"%llu\" data-class=\"%s\"><td></td>",
			     (unsigned long long)(j->index - (l->frames - l->untimed)),
			     gx_html_class_name(gx_html_why_of(h, l->name, GFXSTAT_NS_NONE,
							       j->index - (l->frames - l->untimed))));
	gx_wr_name_cell(w, l->name, 40);
	if (j->length_ns != GFXSTAT_NS_NONE)
		gx_wr_printf(w, "<td>%.1f</td><td>%.1f</td>", (double)j->length_ns / 1e6,
			     (double)j->length_ns / (double)l->period_ns);
	else
		gx_wr_puts(w, "<td></td><td></td>");
	gx_wr_printf(w, "<td>%.1f</td><td class=\"t\">", 1e9 / (double)j->cadence_ns);
	gx_wr_html(w, c, strlen(c));
	gx_wr_puts(w, "</td></tr>\n");
}

/* the janky frames listed first: the longest */
#define GX_HTML_WORST_ROWS 20

static int longer(const void *a, const void *b)
{
	const struct gfxstat_janky_ref *x = a, *y = b;
	int64_t p = x->frame->length_ns, q = y->frame->length_ns;

	if (p != q)
		return p > q ? -1 : 1;
	return (x->frame->present_ns > y->frame->present_ns) -
	       (x->frame->present_ns < y->frame->present_ns);
}

static void janky_table(struct gfxstat_html *h, const struct gfxstat_metrics *m, struct gx_wr *w)
{
	size_t i, q, nrows = 0, nk = 0, nw = 0;
	struct kind kinds[MAX_KINDS];
	uint64_t other = 0;
	struct gfxstat_janky_ref *rows, worst[GX_HTML_WORST_ROWS + 1];
	int64_t t0 = gx_html_time_origin(h);

	nrows = gfxstat_metrics_janky_all(m, &rows);
	if (nrows == (size_t)-1) {
		w->err = w->err ? w->err : GFXSTAT_E_NOMEM;
		return;
	}
	gx_wr_printf(w, "<section id=\"janky\"><h2>Janky frames</h2><p><span data-k=\"janky_total\">"
		     "%zu</span> janky frames: frames that reached the screen later than the "
		     "content's rhythm allows (Android's own verdict where the trace carries one, "
		     "else longer than the content's cadence). Click a row to see the frame on "
		     "the timeline.", nrows);
	/* the longest first (an insertion into a short sorted list) */
	for (i = 0; i < nrows; i++) {
		/* (a frame with no present too: its own duration is its length) */
		if (rows[i].frame->length_ns == GFXSTAT_NS_NONE)
			continue;
		worst[nw] = rows[i];
		for (q = nw; q > 0 && longer(&worst[q], &worst[q - 1]) < 0; q--) {
			struct gfxstat_janky_ref t = worst[q];

			worst[q] = worst[q - 1];
			worst[q - 1] = t;
		}
		if (nw < GX_HTML_WORST_ROWS)
			nw++;
	}
	if (nw) {
		gx_wr_printf(w, "</p><h3>The %zu longest</h3><div class=\"scroll\">", nw);
		janky_head(w, "janky-worst");
		for (i = 0; i < nw; i++)
			janky_row(h, w, worst[i].layer, worst[i].frame, t0);
		gx_wr_puts(w, "</tbody></table></div><p>");
	}
	/* all of them in time order, folded: thousands of rows are laid out only when asked */
	gx_wr_printf(w, "</p><details id=\"janky-all\"%s><summary>All %zu janky frames in time "
		     "order", nw ? "" : " open", nrows);
	if (nrows > GFXSTAT_HTML_MAX_JANKY_ROWS)
		gx_wr_printf(w, " (the first %d; <code>gfxstat analyze --janky</code> lists them "
			     "all)", GFXSTAT_HTML_MAX_JANKY_ROWS);
	gx_wr_puts(w, "</summary><div class=\"big scroll\">");
	janky_head(w, "janky-table");
	for (i = 0; i < nrows; i++) {
		const struct gfxstat_janky_frame *j = rows[i].frame;
		const struct gfxstat_layer_metrics *l = rows[i].layer;
		const char *c = janky_cause(h, l, j);
		size_t kn;

		kn = cause_kind(c);
		for (q = 0; q < nk; q++)
			if (kinds[q].n == kn && !memcmp(kinds[q].p, c, kn))
				break;
		if (q < nk)
			kinds[q].count++;
		else if (nk < MAX_KINDS)
			kinds[nk++] = (struct kind){ c, kn, 1 };
		else
			other++;
		if (i < GFXSTAT_HTML_MAX_JANKY_ROWS)
			janky_row(h, w, l, j, t0);
	}
	gx_wr_puts(w, "</tbody></table></div></details>");
	if (nk) {
		gx_wr_puts(w, "<h3>Causes</h3><div class=\"scroll\"><table id=\"cause-kinds\"><tr>"
			   "<th class=\"t\">cause</th><th>frames</th></tr>");
		for (q = 0; q < nk; q++) {
			gx_wr_puts(w, "<tr><td class=\"t\">");
			gx_wr_html(w, kinds[q].p, kinds[q].n);
			gx_wr_printf(w, "</td><td>%llu</td></tr>", (unsigned long long)kinds[q].count);
		}
		if (other)
			gx_wr_printf(w, "<tr><td class=\"t\">other</td><td>%llu</td></tr>",
				     (unsigned long long)other);
		gx_wr_puts(w, "</table></div>");
	}
	gx_wr_puts(w, "</section>\n");
	free(rows);
}

/* a seed table longer than this is folded in a <details> */
#define GX_HTML_FOLD_ROWS 1000

static void seed_table(struct gfxstat_html *h, struct gx_wr *w)
{
	char *hdr = malloc(strlen(gfxstat_gfx_fps_header) + 1), *f[16];
	size_t i, k, nf;
	double origin;

	if (!hdr) {
		w->err = w->err ? w->err : GFXSTAT_E_NOMEM;
		return;
	}
	memcpy(hdr, gfxstat_gfx_fps_header, strlen(gfxstat_gfx_fps_header) + 1);
	nf = gx_csv_split(hdr, f, 16);
	/* times from the first frame; a folder of fps.csv alone: from its first window */
	origin = h->st.nlayers ? (double)gx_html_time_origin(h) / 1e9 : HUGE_VAL;
	for (i = 0; !h->st.nlayers && i < h->nseed; i++) {
		char *e;
		double t = strtod(h->seed[i], &e);

		if (e != h->seed[i] && t < origin)
			origin = t;
	}
	if (origin == HUGE_VAL)
		origin = 0;
	gx_wr_printf(w, "<section id=\"seed\"><h3>android_FPS_frome_GFX's per-window table "
		     "(fps.csv)</h3><p class=\"note\"><span data-k=\"seed_rows\">%zu</span> "
		     "windows, the columns of its fps.csv; start and end time in seconds from "
		     "the start of the recording (fps.csv has them on the trace clock).</p>%s"
		     "<div class=\"big scroll\">"
		     "<table id=\"seed-table\"><tr>", h->nseed,
		     /* thousands of rows cost the browser seconds: folded until asked for */
		     h->nseed > GX_HTML_FOLD_ROWS ? "<details><summary>Show the table</summary>"
						   : "");
	for (k = 0; k < nf; k++) {
		gx_wr_puts(w, "<th>");
		gx_wr_html(w, f[k], strlen(f[k]));
		gx_wr_puts(w, "</th>");
	}
	gx_wr_puts(w, "</tr>\n");
	free(hdr);
	for (i = 0; i < h->nseed; i++) {
		char *row = malloc(strlen(h->seed[i]) + 1);

		if (!row) {
			w->err = w->err ? w->err : GFXSTAT_E_NOMEM;
			return;
		}
		memcpy(row, h->seed[i], strlen(h->seed[i]) + 1);
		nf = gx_csv_split(row, f, 16);
		gx_wr_puts(w, "<tr>");
		for (k = 0; k < nf; k++) {
			char *e;
			double t = k < 2 ? strtod(f[k], &e) : 0;

			/* start and end: from the start of the recording (fps.csv has the trace clock) */
			if (k < 2 && e != f[k] && !*e) {
				gx_wr_printf(w, "<td>%.3f</td>", t - origin);
				continue;
			}
			gx_wr_puts(w, k >= 14 ? "<td class=\"t\">" : "<td>");
			gx_wr_html(w, f[k], strlen(f[k]));
			gx_wr_puts(w, "</td>");
		}
		gx_wr_puts(w, "</tr>\n");
		free(row);
	}
	gx_wr_puts(w, "</table></div>");
	gx_wr_puts(w, h->nseed > GX_HTML_FOLD_ROWS ? "</details></section>\n" : "</section>\n");
}

void gx_html_body(struct gfxstat_html *h, const struct gfxstat_metrics *m, const char *title,
		  struct gx_wr *w)
{
	size_t i;

	(void)title; /* written at the top (gx_html_top()) */
	gx_wr_puts(w, "<section id=\"details\">");
	if (m) {
		summary(w, m);
		/* drawn by the script after the page is interactive */
		gx_wr_puts(w, "<section id=\"dist\" class=\"needs-js\"><h2>How long frames took"
			   "</h2><p class=\"hint\">Frames of the layer chosen on the timeline, by "
			   "how long each took (idle waits left out); the count is on a log scale, "
			   "so that a few slow frames show beside thousands of quick ones.</p>"
			   "<div id=\"chart-hist\" class=\"chart\"></div></section>\n");
		janky_table(h, m, w);
	}
	if ((m && gfxstat_metrics_count(m)) || h->nseed) {
		/* folded, unless it is all there is (a folder of fps.csv) */
		gx_wr_printf(w, "<details id=\"tools\"%s><summary><h2>Every other tool's metrics"
			     "</h2> PerfDog, GameBench, Android, Apple, Tencent Matrix, Taobao, "
			     "SoloX, android_FPS_frome_GFX</summary>\n", m ? "" : " open");
		gx_html_tools(h, m, w);
		if (h->nseed)
			seed_table(h, w);
		gx_wr_puts(w, "</details>\n");
	}
	gx_wr_puts(w, "<section id=\"about\"><h2>The recording</h2><div class=\"scroll\">"
		   "<table class=\"meta\">");
	for (i = 0; i < h->nmeta; i++) {
		gx_wr_puts(w, "<tr><th>");
		gx_wr_html(w, h->meta[2 * i], strlen(h->meta[2 * i]));
		gx_wr_puts(w, "</th><td class=\"t\">");
		gx_wr_html(w, h->meta[2 * i + 1], strlen(h->meta[2 * i + 1]));
		gx_wr_puts(w, "</td></tr>");
	}
	gx_wr_puts(w, "</table></div></section></section>\n");
}
