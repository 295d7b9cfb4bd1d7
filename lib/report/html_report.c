/* SPDX-License-Identifier: MIT */
/* gfxstat report: frames and causes collected, then one self-contained HTML file written. */
#include <stdio.h>
#include <stdlib.h>

#include "html_local.h"

struct gfxstat_html *gfxstat_html_new(const struct gfxstat_report_asset *assets)
{
	struct gfxstat_html *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->assets = assets;
	if (gx_rstore_init(&h->st, 0)) {
		free(h);
		return NULL;
	}
	if (gx_strmap_init(&h->unames, 65536)) { /* as many as the store's layers */
		gfxstat_html_free(h);
		return NULL;
	}
	return h;
}

void gfxstat_html_free(struct gfxstat_html *h)
{
	size_t i;

	if (!h)
		return;
	gx_rstore_free(&h->st);
	for (i = 0; i < 2 * h->nmeta; i++)
		free(h->meta[i]);
	free(h->meta);
	for (i = 0; i < h->ncauses; i++)
		free(h->causes[i].cause);
	free(h->causes);
	gx_strmap_free(&h->unames);
	for (i = 0; h->udur && i < h->capu; i++)
		free(h->udur[i]);
	free(h->udur);
	free(h->ucount);
	for (i = 0; i < h->nseed; i++)
		free(h->seed[i]);
	free(h->seed);
	free(h->modes);
	gx_html_why_free(h);
	gx_html_lanes_free(h);
	free(h);
}

/* The index of @f's layer among those with untimed frames (added with none counted). */
static long untimed_layer(struct gfxstat_html *h, const struct gfxstat_frame *f)
{
	int created = 0;
	long u = gx_strmap_add(&h->unames, f->layer.p, f->layer.n, &created);

	if (u >= 0 && (size_t)u >= h->capu) {
		size_t nc = h->capu ? h->capu * 2 : 16;
		uint64_t *n;
		int64_t **d;

		while (nc <= (size_t)u)
			nc *= 2;
		n = realloc(h->ucount, nc * sizeof(*n));
		if (!n)
			return GFXSTAT_E_NOMEM;
		memset(n + h->capu, 0, (nc - h->capu) * sizeof(*n));
		h->ucount = n;
		d = realloc(h->udur, nc * sizeof(*d));
		if (!d)
			return GFXSTAT_E_NOMEM;
		memset(d + h->capu, 0, (nc - h->capu) * sizeof(*d));
		h->udur = d;
		h->capu = nc;
	}
	return u;
}

int gfxstat_html_frame(void *hv, const struct gfxstat_frame *f)
{
	struct gfxstat_html *h = hv;

	if (f->present_ns == GFXSTAT_NS_NONE) {
		/* untimed: counted, as the metrics rank them (those with a duration) */
		long u = f->duration_ns != GFXSTAT_NS_NONE ? untimed_layer(h, f) : 0;

		if (u < 0)
			return (int)u;
		if (f->duration_ns != GFXSTAT_NS_NONE) {
			uint64_t k = h->ucount[u];

			/* 16 first, then doubled each time it is full (a power of two from 16) */
			if (!k || (k >= 16 && !(k & (k - 1)))) {
				int64_t *d = realloc(h->udur[u], (k ? 2 * k : 16) * sizeof(*d));

				if (!d)
					return GFXSTAT_E_NOMEM;
				h->udur[u] = d;
			}
			h->udur[u][k] = f->duration_ns;
			h->ucount[u]++;
		}
		return 0;
	}
	if (f->vsync_period_ns > 0 && f->vsync_period_ns != GFXSTAT_NS_NONE) {
		int64_t last = h->nmodes ? h->modes[h->nmodes - 1][1] : 0;
		int64_t d = f->vsync_period_ns - last;
		/* a switch: the period moved by over 2 % (measured periods jitter a little) */
		int moved = !last || 50 * (d < 0 ? -d : d) > last;

		if (moved && h->nmodes < GX_HTML_MAX_MODES) {
			if (gx_grow((void **)&h->modes, &h->capmodes, h->nmodes, sizeof(*h->modes),
				    16))
				return GFXSTAT_E_NOMEM;
			h->modes[h->nmodes][0] = f->present_ns;
			h->modes[h->nmodes++][1] = f->vsync_period_ns;
		} else if (!moved) {
			/* the same mode: its period as last measured, not as first estimated (a
			 * trace's first frames carry a rough one: 16.81 ms where 16.69 follows, a
			 * "59 Hz display" beside the verdict's 60) */
			h->modes[h->nmodes - 1][1] = f->vsync_period_ns;
		}
	}
	return gx_rstore_add(&h->st, f, 0);
}

static char *dup_n(const char *p, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, p, n);
		d[n] = 0;
	}
	return d;
}

int gfxstat_html_cause(struct gfxstat_html *h, const struct gfxstat_frame *f, const char *cause)
{
	struct gx_hcause *c;
	long l;

	/* an untimed frame (not in the charts) is found in the janky table by its rank among its
	 * layer's untimed frames: those gfxstat_html_frame() counted before it */
	if (f->present_ns == GFXSTAT_NS_NONE && f->duration_ns == GFXSTAT_NS_NONE)
		return 0; /* the metrics leave it out */
	l = f->present_ns == GFXSTAT_NS_NONE ? untimed_layer(h, f) : gx_rstore_layer(&h->st, f);
	if (l < 0)
		return (int)l;
	if (gx_grow((void **)&h->causes, &h->capcauses, h->ncauses, sizeof(*h->causes), 256))
		return GFXSTAT_E_NOMEM;
	c = &h->causes[h->ncauses];
	c->layer = l;
	c->present = f->present_ns;
	c->ord = f->present_ns == GFXSTAT_NS_NONE ? h->ucount[l] : 0;
	c->cause = dup_n(cause, strlen(cause));
	if (!c->cause)
		return GFXSTAT_E_NOMEM;
	h->ncauses++;
	h->causes_sorted = 0;
	return 0;
}

int gfxstat_html_meta(struct gfxstat_html *h, const char *key, const char *value)
{
	char **n = realloc(h->meta, (2 * h->nmeta + 2) * sizeof(*n));

	if (!n)
		return GFXSTAT_E_NOMEM;
	h->meta = n;
	n[2 * h->nmeta] = dup_n(key, strlen(key));
	n[2 * h->nmeta + 1] = dup_n(value, strlen(value));
	h->nmeta++;
	return n[2 * h->nmeta - 2] && n[2 * h->nmeta - 1] ? 0 : GFXSTAT_E_NOMEM;
}

int gfxstat_html_seed_row(struct gfxstat_html *h, const char *csv, size_t n)
{
	while (n && (csv[n - 1] == '\n' || csv[n - 1] == '\r'))
		n--;
	if (gx_grow((void **)&h->seed, &h->capseed, h->nseed, sizeof(*h->seed), 64))
		return GFXSTAT_E_NOMEM;
	h->seed[h->nseed] = dup_n(csv, n);
	if (!h->seed[h->nseed])
		return GFXSTAT_E_NOMEM;
	h->nseed++;
	return 0;
}

int gfxstat_html_seed_window(void *hv, const struct gfxstat_gfx_window *w)
{
	char b[1024], *big;
	size_t n = gfxstat_gfx_window_csv(w, b, sizeof(b));
	int rc;

	if (n < sizeof(b))
		return gfxstat_html_seed_row(hv, b, n);
	big = malloc(n + 1);
	if (!big)
		return GFXSTAT_E_NOMEM;
	gfxstat_gfx_window_csv(w, big, n + 1);
	rc = gfxstat_html_seed_row(hv, big, n);
	free(big);
	return rc;
}

static int cmp_cause(const void *a, const void *b)
{
	const struct gx_hcause *x = a, *y = b;

	if (x->layer != y->layer)
		return x->layer < y->layer ? -1 : 1;
	if (x->present != y->present)
		return x->present < y->present ? -1 : 1;
	return (x->ord > y->ord) - (x->ord < y->ord);
}

const char *gx_html_cause_of(struct gfxstat_html *h, const char *name, int64_t present,
			     uint64_t ord)
{
	struct gx_hcause key, *c;

	if (!h->causes_sorted) {
		qsort(h->causes, h->ncauses, sizeof(*h->causes), cmp_cause);
		h->causes_sorted = 1;
	}
	key.layer = present == GFXSTAT_NS_NONE ? gx_strmap_find(&h->unames, name, strlen(name))
					       : gx_rstore_find(&h->st, name);
	key.present = present;
	key.ord = present == GFXSTAT_NS_NONE ? ord : 0;
	if (key.layer < 0 || !h->ncauses)
		return NULL;
	c = bsearch(&key, h->causes, h->ncauses, sizeof(*h->causes), cmp_cause);
	return c ? c->cause : NULL;
}

size_t gx_csv_split(char *row, char **fields, size_t max)
{
	size_t n = 0;
	char *r = row, *o;

	while (n < max) {
		fields[n++] = o = r;
		if (*r == '"') {
			/* quoted: "" is a quote; the field ends at the closing quote */
			for (r++; *r; r++) {
				if (*r == '"' && r[1] == '"')
					r++;
				else if (*r == '"') {
					r++;
					break;
				}
				*o++ = *r;
			}
			while (*r && *r != ',')
				r++;
		} else {
			while (*r && *r != ',')
				*o++ = *r++;
		}
		if (!*r) {
			*o = 0;
			break;
		}
		*o = 0;
		r++;
	}
	return n;
}

static const struct gfxstat_report_asset *asset(const struct gfxstat_report_asset *assets,
					       const char *name)
{
	const struct gfxstat_report_asset *a;

	for (a = assets; a && a->name; a++)
		if (!strcmp(a->name, name))
			return a;
	return NULL;
}

/* the earliest present of any layer: the charts' time origin */
int64_t gx_html_time_origin(const struct gfxstat_html *h)
{
	int64_t t0 = GFXSTAT_NS_NONE;
	size_t i;

	for (i = 0; i < h->st.nlayers; i++)
		if (h->st.layers[i].n && (t0 == GFXSTAT_NS_NONE || h->st.layers[i].present[0] < t0))
			t0 = h->st.layers[i].present[0];
	return t0 == GFXSTAT_NS_NONE ? 0 : t0;
}

static double rel_s(int64_t t, int64_t t0)
{
	return (double)(t - t0) / 1e9;
}

/* A layer's frames with no present time (a gfxinfo dump without framestats): "u", their own
 * durations in microseconds in the order read; "uj", the janky ones by their rank among them
 * (janky_frame.index past the layer's timed frames, as the janky table finds their causes),
 * with "ujl" their time in ms, "ujc" their cause and "ujk" their class. */
static void data_untimed(struct gfxstat_html *h, const struct gfxstat_layer_metrics *l,
			 struct gx_wr *w)
{
	long u = l->untimed ? gx_strmap_find(&h->unames, l->name, strlen(l->name)) : -1;
	uint64_t base = l->frames - l->untimed, k, n = u >= 0 ? h->ucount[u] : 0;
	size_t i, pass;

	if (u < 0 || !n)
		return;
	gx_wr_puts(w, ",\"u\":\"");
	for (k = 0; k < n; k++)
		gx_wr_printf(w, "%s%lld", k ? "," : "", (long long)((h->udur[u][k] + 500) / 1000));
	gx_wr_puts(w, "\"");
	for (pass = 0; pass < 4; pass++) {
		static const char *const key[] = { "uj", "ujl", "ujc", "ujk" };
		int first = 1;

		gx_wr_printf(w, ",\"%s\":[", key[pass]);
		for (i = 0; i < l->njanky_list; i++) {
			const struct gfxstat_janky_frame *j = &l->janky_list[i];
			uint64_t ord = j->index - base;
			const char *c;

			if (j->present_ns != GFXSTAT_NS_NONE || j->index < base || ord >= n)
				continue;
			gx_wr_puts(w, first ? "" : ",");
			first = 0;
			if (pass == 0)
				gx_wr_printf(w, "%llu", (unsigned long long)ord);
			else if (pass == 1 && j->length_ns != GFXSTAT_NS_NONE)
				gx_wr_printf(w, "%.3f", (double)j->length_ns / 1e6);
			else if (pass == 2 && (c = gx_html_cause_of(h, l->name, GFXSTAT_NS_NONE, ord)))
				gx_wr_json_str(w, c, strlen(c));
			else if (pass == 3)
				gx_wr_printf(w, "\"%s\"", gx_html_class_name(gx_html_why_of(
					h, l->name, GFXSTAT_NS_NONE, ord)));
			else
				gx_wr_puts(w, "null");
		}
		gx_wr_puts(w, "]");
	}
}

/* One layer's chart data: presents as microsecond deltas from the origin, janky indices. */
static void data_layer(struct gfxstat_html *h, const struct gfxstat_layer_metrics *l,
		       int64_t t0, int64_t window_ns, struct gx_wr *w)
{
	long li = gx_rstore_find(&h->st, l->name);
	const struct gx_rlayer *r = li >= 0 ? &h->st.layers[li] : NULL;
	size_t i, k;
	int64_t prev = 0;
	char b[32];

	gx_wr_puts(w, "{\"name\":");
	gx_wr_json_str(w, l->name, strlen(l->name));
	gx_wr_puts(w, ",\"app\":");
	gx_wr_json_str(w, l->app, strlen(l->app));
	gx_wr_printf(w, ",\"kind\":\"%s\",\"sys\":%d,\"frames\":%llu,\"refresh_hz\":%.3f,"
		     "\"cadence_fps\":%.3f,\"period_ms\":%.6f,\"cadence_ms\":%.6f",
		     l->is_app ? "app" : "layer", !l->app[0], (unsigned long long)l->frames,
		     l->refresh_hz, l->cadence_fps, (double)l->period_ns / 1e6,
		     l->cadence_fps > 0 ? 1e3 / l->cadence_fps : 0.0);
	if (l->intervals || l->frame_ms_max > 0)
		gx_wr_printf(w, ",\"p50\":%.3f,\"p90\":%.3f,\"p99\":%.3f", l->frame_ms_p50,
			     l->frame_ms_p90, l->frame_ms_p99);
	/* last_s: the FPS line runs to the last frame (past the last full window) */
	gx_wr_printf(w, ",\"first_s\":%.6f,\"last_s\":%.6f,\"window_s\":%.6f,\"wfps\":[",
		     rel_s(l->first_ns, t0), rel_s(l->last_ns, t0), (double)window_ns / 1e9);
	for (i = 0; i < l->nwindows; i++)
		gx_wr_printf(w, "%s%.3f", i ? "," : "", l->window_fps[i]);
	gx_wr_puts(w, "],\"scrolls\":[");
	for (i = 0; i < l->nscrolls; i++)
		gx_wr_printf(w, "%s[%.6f,%.6f]", i ? "," : "", rel_s(l->scrolls[i].start_ns, t0),
			     rel_s(l->scrolls[i].end_ns, t0));
	gx_wr_puts(w, "],\"jw\":[");
	for (i = 0; i < l->njank_windows; i++)
		gx_wr_printf(w, "%s[%.6f,%.6f]", i ? "," : "",
			     rel_s(l->jank_windows[i].start_ns, t0),
			     rel_s(l->jank_windows[i].start_ns + l->jank_windows[i].dur_ns, t0));
	gx_wr_puts(w, "],\"t\":\"");
	/* an app's frames are its layers' frames: drawn there, not twice */
	for (i = 0; r && !l->is_app && i < r->n; i++) {
		int64_t us = (r->present[i] - t0 + 500) / 1000;

		snprintf(b, sizeof(b), "%s%lld", i ? "," : "", (long long)(us - prev));
		gx_wr_puts(w, b);
		prev = us;
	}
	gx_wr_puts(w, "\",\"j\":[");
	for (i = 0, k = 0; r && !l->is_app && i < l->njanky_list; i++) {
		long at;

		if (l->janky_list[i].present_ns == GFXSTAT_NS_NONE)
			continue;
		at = gx_rlayer_at(r, l->janky_list[i].present_ns);
		if (at >= 0)
			gx_wr_printf(w, "%s%ld", k++ ? "," : "", at);
	}
	gx_wr_puts(w, "],\"jc\":[");
	for (i = 0, k = 0; r && !l->is_app && i < l->njanky_list; i++) {
		const char *c;

		if (l->janky_list[i].present_ns == GFXSTAT_NS_NONE ||
		    gx_rlayer_at(r, l->janky_list[i].present_ns) < 0)
			continue;
		c = gx_html_cause_of(h, l->name, l->janky_list[i].present_ns, 0);
		gx_wr_puts(w, k++ ? "," : "");
		if (c)
			gx_wr_json_str(w, c, strlen(c));
		else
			gx_wr_puts(w, "null");
	}
	/* beside "j": each janky frame's own time (ms, as the janky table's; null: unknown) and
	 * its cause class (the timeline's colours) */
	gx_wr_puts(w, "],\"jl\":[");
	for (i = 0, k = 0; r && !l->is_app && i < l->njanky_list; i++) {
		const struct gfxstat_janky_frame *j = &l->janky_list[i];

		if (j->present_ns == GFXSTAT_NS_NONE || gx_rlayer_at(r, j->present_ns) < 0)
			continue;
		if (j->length_ns != GFXSTAT_NS_NONE)
			gx_wr_printf(w, "%s%.3f", k++ ? "," : "", (double)j->length_ns / 1e6);
		else
			gx_wr_puts(w, k++ ? ",null" : "null");
	}
	gx_wr_puts(w, "],\"jk\":[");
	for (i = 0, k = 0; r && !l->is_app && i < l->njanky_list; i++) {
		const struct gfxstat_janky_frame *j = &l->janky_list[i];

		if (j->present_ns == GFXSTAT_NS_NONE || gx_rlayer_at(r, j->present_ns) < 0)
			continue;
		gx_wr_printf(w, "%s\"%s\"", k++ ? "," : "",
			     gx_html_class_name(gx_html_why_of(h, l->name, j->present_ns, 0)));
	}
	gx_wr_puts(w, "]");
	if (!l->is_app)
		data_untimed(h, l, w);
	gx_wr_puts(w, "}");
}

static void data_block(struct gfxstat_html *h, const struct gfxstat_metrics *m, int64_t window_ns,
		       struct gx_wr *w)
{
	int64_t t0 = gx_html_time_origin(h), end = t0;
	size_t i, n = m ? gfxstat_metrics_count(m) : 0;
	struct gfxstat_metrics_opts mo;

	/* the recording's end (its last present) and the library's idle rule, for the timeline:
	 * every chart spans [0, end_s]; an interval of wait_ms or more is a gap, not a frame */
	for (i = 0; i < h->st.nlayers; i++)
		if (h->st.layers[i].n && h->st.layers[i].present[h->st.layers[i].n - 1] > end)
			end = h->st.layers[i].present[h->st.layers[i].n - 1];
	gfxstat_metrics_opts_init(&mo);
	gx_wr_printf(w, "{\"t0_ns\":\"%lld\",\"end_s\":%.6f,\"wait_ms\":%.3f,\"layers\":[",
		     (long long)t0, rel_s(end, t0), (double)mo.wait_ns / 1e6);
	for (i = 0; i < n; i++) {
		gx_wr_puts(w, i ? ",\n" : "");
		data_layer(h, gfxstat_metrics_get(m, i), t0, window_ns, w);
	}
	gx_wr_puts(w, "],\"modes\":[");
	for (i = 0; i < h->nmodes; i++)
		gx_wr_printf(w, "%s[%.6f,%.3f]", i ? "," : "", rel_s(h->modes[i][0], t0),
			     1e9 / (double)h->modes[i][1]);
	gx_wr_puts(w, "],\"seed\":[");
	for (i = 0; i < h->nseed; i++) {
		char *row = dup_n(h->seed[i], strlen(h->seed[i])), *f[16];
		size_t nf = row ? gx_csv_split(row, f, 16) : 0;

		/* start time, FPS, app, Surface: the FPS lane of a folder of fps.csv */
		if (nf == 16) {
			gx_wr_printf(w, "%s[%s,%s,", i ? "," : "", f[0][0] ? f[0] : "null",
				     f[2][0] ? f[2] : "null");
			gx_wr_json_str(w, f[14], strlen(f[14]));
			gx_wr_puts(w, ",");
			gx_wr_json_str(w, f[15], strlen(f[15]));
			gx_wr_puts(w, "]");
		} else {
			gx_wr_puts(w, i ? ",null" : "null");
		}
		free(row);
	}
	gx_wr_puts(w, "]");
	gx_html_lanes_data(h, t0, w);
	gx_wr_puts(w, "}");
}

/* The body and data parts of the main report, for gx_html_fill(). */
struct report_parts {
	struct gfxstat_html *h;
	const struct gfxstat_metrics *m;
	int64_t window_ns;
	const char *title;
};

static void report_part(void *ctx, const char *name, struct gx_wr *w)
{
	struct report_parts *r = ctx;

	if (!strcmp(name, "top"))
		gx_html_top(r->h, r->m, r->title, w);
	else if (!strcmp(name, "body"))
		gx_html_body(r->h, r->m, r->title, w);
	else if (!strcmp(name, "data"))
		data_block(r->h, r->m, r->window_ns, w);
}

int gx_html_fill(const struct gfxstat_report_asset *assets, const char *title,
		 void (*part)(void *ctx, const char *name, struct gx_wr *w), void *ctx,
		 gfxstat_write_fn fn, void *user)
{
	static const char *const need[] = { "template.html", "report.css", "report.js",
					    "uPlot.iife.min.js", "uPlot.min.css", "LICENSE" };
	const struct gfxstat_report_asset *tpl = asset(assets, "template.html");
	struct gx_wr *w;
	const char *p, *end;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (!asset(assets, need[i]))
			return GFXSTAT_E_INVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return GFXSTAT_E_NOMEM;
	w->fn = fn;
	w->user = user;
	p = (const char *)tpl->data;
	end = p + tpl->len;
	/* the template with its <!--@name--> markers replaced */
	while (p < end) {
		const char *mk = strstr(p, "<!--@"), *close;
		const struct gfxstat_report_asset *a = NULL;
		char name[32];
		size_t nn;

		if (!mk || mk >= end || !(close = strstr(mk, "-->"))) {
			gx_wr_put(w, p, (size_t)(end - p));
			break;
		}
		gx_wr_put(w, p, (size_t)(mk - p));
		nn = (size_t)(close - mk - 5);
		snprintf(name, sizeof(name), "%.*s", (int)(nn < 31 ? nn : 31), mk + 5);
		p = close + 3;
		if (!strcmp(name, "title"))
			gx_wr_html(w, title, strlen(title));
		else if (!strcmp(name, "license") && (a = asset(assets, "LICENSE")))
			gx_wr_html(w, (const char *)a->data, a->len);
		else if ((!strcmp(name, "css") && (a = asset(assets, "report.css"))) ||
			 (!strcmp(name, "js") && (a = asset(assets, "report.js"))) ||
			 (!strcmp(name, "uplot-css") && (a = asset(assets, "uPlot.min.css"))) ||
			 (!strcmp(name, "uplot-js") && (a = asset(assets, "uPlot.iife.min.js"))))
			gx_wr_put(w, (const char *)a->data, a->len);
		else
			part(ctx, name, w);
	}
	rc = gx_wr_flush(w);
	free(w);
	return rc;
}

int gfxstat_html_write(struct gfxstat_html *h, const struct gfxstat_metrics *m,
		       int64_t window_ns, const char *title, gfxstat_write_fn fn, void *user)
{
	struct report_parts r = { h, m, window_ns, title };

	return gx_html_fill(h->assets, title, report_part, &r, fn, user);
}
