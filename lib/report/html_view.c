/* SPDX-License-Identifier: MIT */
/* View pages of the report: a trend from the history store, a comparison side by side. */
#include <string.h>

#include "html_local.h"

static void view_body(const struct gfxstat_html_view *v, struct gx_wr *w)
{
	size_t i, r, c;

	gx_wr_puts(w, "<header><h1>");
	gx_wr_html(w, v->title, strlen(v->title));
	gx_wr_puts(w, "</h1><table class=\"meta\">");
	for (i = 0; i < v->nmeta; i++) {
		const char *k = v->meta[2 * i], *val = v->meta[2 * i + 1];

		gx_wr_puts(w, "<tr><th>");
		gx_wr_html(w, k, strlen(k));
		gx_wr_puts(w, "</th><td class=\"t\">");
		gx_wr_html(w, val, strlen(val));
		gx_wr_puts(w, "</td></tr>\n");
	}
	gx_wr_puts(w, "</table></header>\n<section id=\"view\" data-view=\"");
	gx_wr_html(w, v->kind, strlen(v->kind));
	gx_wr_puts(w, "\"><div id=\"view-charts\" class=\"needs-js\"></div>"
		      "<div id=\"view-tables\"></div>\n");
	for (i = 0; i < v->ntables; i++) {
		const struct gfxstat_html_table *t = &v->tables[i];

		if (t->caption) {
			gx_wr_puts(w, "<h3>");
			gx_wr_html(w, t->caption, strlen(t->caption));
			gx_wr_puts(w, "</h3>");
		}
		gx_wr_puts(w, "<table class=\"view\"");
		if (t->id) {
			gx_wr_puts(w, " id=\"");
			gx_wr_html(w, t->id, strlen(t->id));
			gx_wr_puts(w, "\"");
		}
		if (t->attr) {
			gx_wr_puts(w, " data-view=\"");
			gx_wr_html(w, t->attr, strlen(t->attr));
			gx_wr_puts(w, "\"");
		}
		gx_wr_puts(w, "><thead><tr>");
		for (c = 0; c < t->ncols; c++) {
			gx_wr_puts(w, c ? "<th>" : "<th class=\"t\">");
			gx_wr_html(w, t->head[c], strlen(t->head[c]));
			gx_wr_puts(w, "</th>");
		}
		gx_wr_puts(w, "</tr></thead><tbody>\n");
		for (r = 0; r < t->nrows; r++) {
			const char *const *row = t->cells + r * t->ncols;

			gx_wr_puts(w, "<tr data-key=\"");
			if (t->ncols && row[0])
				gx_wr_html(w, row[0], strlen(row[0]));
			gx_wr_puts(w, "\">");
			for (c = 0; c < t->ncols; c++) {
				gx_wr_puts(w, c ? "<td" : "<td class=\"t\"");
				if (t->keys && t->keys[c]) {
					gx_wr_puts(w, " data-k=\"");
					gx_wr_html(w, t->keys[c], strlen(t->keys[c]));
					gx_wr_puts(w, "\"");
				}
				gx_wr_puts(w, ">");
				if (row[c])
					gx_wr_html(w, row[c], strlen(row[c]));
				gx_wr_puts(w, "</td>");
			}
			gx_wr_puts(w, "</tr>\n");
		}
		gx_wr_puts(w, "</tbody></table>\n");
	}
	gx_wr_puts(w, "</section>\n");
}

/* the data block: '<' as \u003c (it occurs only inside JSON strings) */
static void view_data(const struct gfxstat_html_view *v, struct gx_wr *w)
{
	size_t i, run = 0;

	for (i = 0; i < v->data_len; i++) {
		if (v->data[i] != '<')
			continue;
		gx_wr_put(w, v->data + run, i - run);
		gx_wr_puts(w, "\\u003c");
		run = i + 1;
	}
	gx_wr_put(w, v->data + run, v->data_len - run);
}

/* what view_part() draws from: the page and the script that draws its charts */
struct view_ctx {
	const struct gfxstat_html_view *v;
	const struct gfxstat_report_asset *js;
};

static void view_part(void *ctx, const char *name, struct gx_wr *w)
{
	const struct view_ctx *c = ctx;

	if (!strcmp(name, "body"))
		view_body(c->v, w);
	else if (!strcmp(name, "data"))
		view_data(c->v, w);
	else if (!strcmp(name, "views-js")) {
		/* after report.js, which leaves a page whose data carries "view" to this one */
		gx_wr_puts(w, "<script>");
		gx_wr_put(w, (const char *)c->js->data, c->js->len);
		gx_wr_puts(w, "</script>");
	}
}

int gfxstat_html_view_write(const struct gfxstat_report_asset *assets,
			    const struct gfxstat_html_view *v, gfxstat_write_fn fn, void *user)
{
	struct view_ctx c = { v, NULL };
	const struct gfxstat_report_asset *a;

	if (!v || !v->kind || !v->title || (v->data_len && !v->data))
		return GFXSTAT_E_INVAL;
	for (a = assets; a && a->name; a++)
		if (!strcmp(a->name, "report_views.js"))
			c.js = a;
	if (!c.js)
		return GFXSTAT_E_INVAL;
	return gx_html_fill(assets, v->title, view_part, &c, fn, user);
}
