/* SPDX-License-Identifier: MIT */
/* The report's summary and tables: plain HTML, readable without JavaScript. */
#include <stdio.h>
#include <stdlib.h>

#include "html_local.h"

/* a headline number, tagged so tests and scripts find it */
static void card(struct gx_wr *w, const char *key, const char *label, const char *val)
{
	gx_wr_printf(w, "<div class=\"card\"><b data-k=\"%s\">%s</b><span>%s</span></div>", key,
		     val, label);
}

static void cardf(struct gx_wr *w, const char *key, const char *label, double v)
{
	char b[64];

	snprintf(b, sizeof(b), "%.3f", v);
	card(w, key, label, b);
}

static void layer_block(struct gx_wr *w, const struct gfxstat_layer_metrics *l)
{
	char b[64];
	size_t i;

	gx_wr_printf(w, "<div class=\"layer%s\" data-kind=\"%s\" data-name=\"",
		     !l->is_app && !l->app[0] ? " sys" : "", l->is_app ? "app" : "layer");
	gx_wr_html(w, l->name, strlen(l->name));
	gx_wr_printf(w, "\"><h3>%s ", l->is_app ? "app" : "layer");
	gx_wr_html(w, l->name, strlen(l->name));
	gx_wr_puts(w, "</h3><div class=\"cards\">");
	snprintf(b, sizeof(b), "%llu", (unsigned long long)l->frames);
	card(w, "frames", "frames", b);
	cardf(w, "fps", "FPS (active)", l->fps);
	snprintf(b, sizeof(b), "%.2f %%", l->frames ? 100.0 * (double)l->janky_frames /
		 (double)l->frames : 0.0);
	card(w, "janky_pct", "janky", b);
	snprintf(b, sizeof(b), "%llu", (unsigned long long)l->janky_frames);
	card(w, "janky_frames", "janky frames", b);
	if (l->intervals || l->frame_ms_max > 0) {
		cardf(w, "p50", "p50 ms", l->frame_ms_p50);
		cardf(w, "p90", "p90 ms", l->frame_ms_p90);
		cardf(w, "p99", "p99 ms", l->frame_ms_p99);
		cardf(w, "max", "worst ms", l->frame_ms_max);
	}
	snprintf(b, sizeof(b), "%.2f", l->score);
	card(w, "score", "seed score", b);
	gx_wr_puts(w, "</div><table><tr><th>span s</th><th>refresh Hz</th><th>cadence FPS</th>"
		   "<th>FPS wall</th><th>PerfDog jank</th><th>big jank</th><th>slow</th>"
		   "<th>frozen</th><th>hitch ms/s</th><th>A</th><th>B</th><th>C</th><th>D</th>"
		   "<th>source</th></tr>");
	gx_wr_printf(w, "<tr><td>%.3f</td><td data-k=\"refresh_hz\">%.3f</td>"
		     "<td data-k=\"cadence_fps\">%.3f</td><td>%.3f</td><td>%llu</td><td>%llu</td>"
		     "<td>%llu</td><td>%llu</td><td>%.3f</td><td>%llu</td><td>%llu</td>"
		     "<td>%llu</td><td>%llu</td><td>%s</td></tr></table>", l->duration_s,
		     l->refresh_hz, l->cadence_fps, l->fps_wall, (unsigned long long)l->jank,
		     (unsigned long long)l->big_jank, (unsigned long long)l->slow_frames,
		     (unsigned long long)l->frozen_frames, l->hitch_ms_per_s,
		     (unsigned long long)l->a, (unsigned long long)l->b, (unsigned long long)l->c,
		     (unsigned long long)l->d, gfxstat_frame_source_name(l->source));
	if (l->source_judged)
		gx_wr_printf(w, "<p>Android's own verdict: %llu of %llu frames janky.</p>",
			     (unsigned long long)l->source_janky,
			     (unsigned long long)l->source_judged);
	if (l->nscrolls) {
		/* long tables are laid out only when scrolled to (report.css, .big) */
		gx_wr_puts(w, "<div class=\"big\"><table class=\"scrolls\"><tr><th>scroll</th>"
			   "<th>start s</th><th>duration s</th><th>frames</th><th>FPS</th>"
			   "<th>hitch ms/s</th>"
			   "<th>jank</th><th>longest ms</th></tr>");
		for (i = 0; i < l->nscrolls; i++) {
			const struct gfxstat_scroll *s = &l->scrolls[i];

			gx_wr_printf(w, "<tr><td>%zu</td><td>%.3f</td><td>%.3f</td><td>%u</td>"
				     "<td>%.3f</td><td>%.3f</td><td>%u</td><td>%.3f</td></tr>",
				     i + 1, (double)s->start_ns / 1e9,
				     (double)(s->end_ns - s->start_ns) / 1e9, s->frames, s->fps,
				     s->hitch_ms_per_s, s->jank, (double)s->longest_ns / 1e6);
		}
		gx_wr_puts(w, "</table></div>");
	}
	gx_wr_puts(w, "</div>\n");
}

/* apps first, then the layers of apps, then system layers folded away */
static void summary(struct gx_wr *w, const struct gfxstat_metrics *m)
{
	size_t i, n = gfxstat_metrics_count(m), nsys = 0;
	int pass;

	gx_wr_puts(w, "<section id=\"summary\"><h2>Summary</h2>");
	if (!n)
		gx_wr_puts(w, "<p>No frames.</p>");
	for (pass = 0; pass < 3; pass++) {
		for (i = 0; i < n; i++) {
			const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(m, i);
			int kind = l->is_app ? 0 : l->app[0] ? 1 : 2;

			if (kind != pass)
				continue;
			if (pass == 2 && !nsys++)
				gx_wr_puts(w, "<details class=\"system\"><summary>System layers (no "
					   "app)</summary>");
			layer_block(w, l);
		}
	}
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

static void janky_table(struct gfxstat_html *h, const struct gfxstat_metrics *m, struct gx_wr *w)
{
	size_t i, q, nrows = 0, nk = 0;
	struct kind kinds[MAX_KINDS];
	uint64_t other = 0;
	struct gfxstat_janky_ref *rows;

	nrows = gfxstat_metrics_janky_all(m, &rows);
	if (nrows == (size_t)-1) {
		w->err = w->err ? w->err : GFXSTAT_E_NOMEM;
		return;
	}
	gx_wr_printf(w, "<section id=\"janky\"><h2>Janky frames</h2><p><span data-k=\"janky_total\">"
		     "%zu</span> janky frames (the library's one definition: the source's own "
		     "verdict where it gives one, else slower than the content's cadence).", nrows);
	if (nrows > GFXSTAT_HTML_MAX_JANKY_ROWS)
		gx_wr_printf(w, " The first %d are listed; <code>gfxstat analyze --janky</code> "
			     "lists them all.", GFXSTAT_HTML_MAX_JANKY_ROWS);
	gx_wr_puts(w, "</p><div class=\"big\"><table id=\"janky-table\" class=\"sortable\">"
		   "<thead><tr>"
		   "<th class=\"sort\">time s</th><th class=\"sort t\">layer</th>"
		   "<th class=\"sort\">frame ms</th><th class=\"sort\">vsyncs</th>"
		   "<th class=\"sort\">cadence FPS</th><th class=\"sort t\">cause</th></tr></thead>"
		   "<tbody>");
	for (i = 0; i < nrows; i++) {
		const struct gfxstat_janky_frame *j = rows[i].frame;
		const struct gfxstat_layer_metrics *l = rows[i].layer;
		const char *c = j->present_ns != GFXSTAT_NS_NONE ?
				gx_html_cause_of(h, l->name, j->present_ns) : NULL;
		size_t kn;

		if (!c)
			c = "unknown (no cause recorded for this frame)";
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
		if (i >= GFXSTAT_HTML_MAX_JANKY_ROWS)
			continue;
		if (j->present_ns != GFXSTAT_NS_NONE)
			gx_wr_printf(w, "<tr><td>%.6f</td>", (double)j->present_ns / 1e9);
		else
			gx_wr_puts(w, "<tr><td></td>");
		gx_wr_puts(w, "<td class=\"t\">");
		gx_wr_html(w, l->name, strlen(l->name));
		if (j->length_ns != GFXSTAT_NS_NONE)
			gx_wr_printf(w, "</td><td>%.3f</td><td>%.1f</td>", (double)j->length_ns / 1e6,
				     (double)j->length_ns / (double)l->period_ns);
		else
			gx_wr_puts(w, "</td><td></td><td></td>");
		gx_wr_printf(w, "<td>%.1f</td><td class=\"t\">", 1e9 / (double)j->cadence_ns);
		gx_wr_html(w, c, strlen(c));
		gx_wr_puts(w, "</td></tr>\n");
	}
	gx_wr_puts(w, "</tbody></table></div>");
	if (nk) {
		gx_wr_puts(w, "<h3>Causes</h3><table id=\"cause-kinds\"><tr><th class=\"t\">cause"
			   "</th><th>frames</th></tr>");
		for (q = 0; q < nk; q++) {
			gx_wr_puts(w, "<tr><td class=\"t\">");
			gx_wr_html(w, kinds[q].p, kinds[q].n);
			gx_wr_printf(w, "</td><td>%llu</td></tr>", (unsigned long long)kinds[q].count);
		}
		if (other)
			gx_wr_printf(w, "<tr><td class=\"t\">other</td><td>%llu</td></tr>",
				     (unsigned long long)other);
		gx_wr_puts(w, "</table>");
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

	if (!hdr) {
		w->err = w->err ? w->err : GFXSTAT_E_NOMEM;
		return;
	}
	memcpy(hdr, gfxstat_gfx_fps_header, strlen(gfxstat_gfx_fps_header) + 1);
	nf = gx_csv_split(hdr, f, 16);
	gx_wr_printf(w, "<section id=\"seed\"><h2>The seed's per-window table (fps.csv)</h2>"
		     "<p><span data-k=\"seed_rows\">%zu</span> windows, the columns of "
		     "android_FPS_frome_GFX's fps.csv.</p>%s<div class=\"big\">"
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

	gx_wr_puts(w, "<h1>");
	gx_wr_html(w, title, strlen(title));
	gx_wr_puts(w, "</h1><table class=\"meta\">");
	for (i = 0; i < h->nmeta; i++) {
		gx_wr_puts(w, "<tr><th>");
		gx_wr_html(w, h->meta[2 * i], strlen(h->meta[2 * i]));
		gx_wr_puts(w, "</th><td class=\"t\">");
		gx_wr_html(w, h->meta[2 * i + 1], strlen(h->meta[2 * i + 1]));
		gx_wr_puts(w, "</td></tr>");
	}
	gx_wr_puts(w, "</table>\n");
	if (m) {
		summary(w, m);
		janky_table(h, m, w);
	}
	if (h->nseed)
		seed_table(h, w);
}
