/* SPDX-License-Identifier: MIT */
/*
 * The top of the report: the title, what was recorded in one line, and per app a verdict
 * (smooth, noticeable jank, janky) by the thresholds of docs/report.md, with its FPS against
 * the refresh rate and the content's cadence, its janky share, its worst moment and the top
 * cause of its janky frames. Plain HTML: it reads without JavaScript.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gfxstat/gfxstat_cause.h"
#include "html_local.h"

/* The verdict's thresholds (docs/report.md, "The verdict"). */
#define GX_VERDICT_MIN_FRAMES 10      /* fewer frames: too few to judge */
#define GX_VERDICT_SMOOTH_PCT 1.0     /* smooth: under 1 % of frames janky, */
#define GX_VERDICT_SMOOTH_FPS 0.95    /* and FPS at least 95 % of the content's rate */
#define GX_VERDICT_JANKY_PCT 5.0      /* janky: 5 % of frames or more janky, */
#define GX_VERDICT_JANKY_FPS 0.80     /* or FPS under 80 % of the content's rate */
#define GX_VERDICT_MAX 6              /* apps given a verdict at most (the busiest) */

enum state { ST_FEW, ST_SMOOTH, ST_NOTICEABLE, ST_JANKY };

static const char *const state_key[] = { "few", "smooth", "noticeable", "janky" };
static const char *const state_name[] = { "Too few frames to judge", "Smooth",
					  "Noticeable jank", "Janky" };

/* The rate the content asks for: its cadence, else the refresh rate. */
static double target_fps(const struct gfxstat_layer_metrics *l)
{
	return l->cadence_fps > 0 ? l->cadence_fps : l->refresh_hz;
}

static double janky_pct(const struct gfxstat_layer_metrics *l)
{
	return l->frames ? 100.0 * (double)l->janky_frames / (double)l->frames : 0.0;
}

static enum state judge(const struct gfxstat_layer_metrics *l)
{
	double pct = janky_pct(l), t = target_fps(l);
	/* FPS is judged where there are intervals to measure it by */
	int fps_known = l->intervals >= GX_VERDICT_MIN_FRAMES && t > 0 && isfinite(l->fps);

	if (l->frames < GX_VERDICT_MIN_FRAMES)
		return ST_FEW;
	if (pct >= GX_VERDICT_JANKY_PCT || (fps_known && l->fps < GX_VERDICT_JANKY_FPS * t))
		return ST_JANKY;
	if (pct < GX_VERDICT_SMOOTH_PCT && (!fps_known || l->fps >= GX_VERDICT_SMOOTH_FPS * t))
		return ST_SMOOTH;
	return ST_NOTICEABLE;
}

/* How late a janky frame was, as analyze's why: the library's janky_frame.late_ns
 * (GFXSTAT_NS_NONE when not known, counted apart by the clusters). */
static int64_t late_ns(const struct gfxstat_janky_frame *j)
{
	return j->late_ns;
}

/* The rank of untimed janky frame @j among @l's untimed frames (how causes are kept). */
static uint64_t untimed_ord(const struct gfxstat_layer_metrics *l,
			    const struct gfxstat_janky_frame *j)
{
	return j->present_ns == GFXSTAT_NS_NONE ? j->index - (l->frames - l->untimed) : 0;
}

/* Whether layer @y is @s itself, or one of app @s's layers. */
static int belongs(const struct gfxstat_layer_metrics *y, const struct gfxstat_layer_metrics *s)
{
	if (y->is_app)
		return 0;
	return s->is_app ? !strcmp(y->app, s->name) : y == s;
}

/* Whether @y found a frame presented at @t janky (its timed janky frames are in order). */
static int janky_at(const struct gfxstat_layer_metrics *y, int64_t t)
{
	size_t lo = 0, hi = y->njanky_list;

	while (hi > lo && y->janky_list[hi - 1].present_ns == GFXSTAT_NS_NONE)
		hi--;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (y->janky_list[mid].present_ns < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < y->njanky_list && y->janky_list[lo].present_ns == t;
}

/*
 * The cause kept for janky frame @j of @s. An app's janky frames are those of its own
 * timeline (its layers' presents merged), as in analyze: the frame a layer of the app
 * presented then (a layer that found it janky first) or, untimed, the one of that rank among
 * the app's untimed frames, taken layer after layer.
 */
static const struct gx_hwhy *why_for(struct gfxstat_html *h, const struct gfxstat_metrics *m,
				     const struct gfxstat_layer_metrics *s,
				     const struct gfxstat_janky_frame *j)
{
	const struct gx_hwhy *c = NULL, *x;
	uint64_t u = untimed_ord(s, j);
	size_t k, n = gfxstat_metrics_count(m);
	int cj = 0;

	if (!s->is_app)
		return gx_html_why_of(h, s->name, j->present_ns, u);
	for (k = 0; k < n; k++) {
		const struct gfxstat_layer_metrics *y = gfxstat_metrics_get(m, k);

		if (!belongs(y, s))
			continue;
		if (j->present_ns == GFXSTAT_NS_NONE) {
			if (u >= y->untimed) {
				u -= y->untimed;
				continue;
			}
			return gx_html_why_of(h, y->name, GFXSTAT_NS_NONE, u);
		}
		x = gx_html_why_of(h, y->name, j->present_ns, 0);
		if (x && (!c || (!cj && janky_at(y, j->present_ns)))) {
			c = x;
			cj = janky_at(y, j->present_ns);
		}
	}
	return c;
}

static int add_cluster(struct gfxstat_cause_clusters *cc, const struct gx_hwhy *c,
		       const struct gfxstat_janky_frame *j)
{
	return c ? gfxstat_cause_clusters_add(cc, (enum gfxstat_cause_class)c->cls, c->sig,
					      c->summary, late_ns(j))
		 : gfxstat_cause_clusters_add(cc, GFXSTAT_CAUSE_UNKNOWN,
					      "unknown|no cause recorded", "no cause recorded",
					      late_ns(j));
}

/* SurfaceFlinger's own refreshes, the "(display)" layer: the screen's timeline, no producer */
static int layer_is_display(const struct gfxstat_layer_metrics *l)
{
	return !l->is_app && (l->source == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY ||
			      l->source == GFXSTAT_SRC_FTRACE_DISPLAY);
}

/*
 * The clusters of the janky frames of @s (of the whole recording when @s is NULL, as
 * analyze's "causes": each app's from its own timeline, each other producer's (a layer of no
 * app) from its own; the display's only when no producer has a janky frame, as its janky
 * frames are the visible result of theirs: src/cmd_analyze_why.c cluster_all()), as
 * `analyze` clusters them: by cause, most jank time first. NULL when out of memory.
 * @display: set to 1 when the display's frames are the ones counted
 */
static struct gfxstat_cause_clusters *clusters(struct gfxstat_html *h,
					       const struct gfxstat_metrics *m,
					       const struct gfxstat_layer_metrics *s, int *display)
{
	struct gfxstat_cause_clusters *cc = gfxstat_cause_clusters_new();
	size_t i, k, n = s ? 1 : gfxstat_metrics_count(m);
	int d;

	for (d = 0; d < 2 && cc && !gfxstat_cause_clusters_frames(cc); d++) {
		*display = d;
		for (k = 0; k < n && cc; k++) {
			const struct gfxstat_layer_metrics *y = s ? s : gfxstat_metrics_get(m, k);

			if (!s && !y->is_app && y->app && y->app[0])
				continue; /* counted in its app's timeline */
			if (!s && layer_is_display(y) != d)
				continue;
			for (i = 0; i < y->njanky_list; i++)
				if (add_cluster(cc, why_for(h, m, y, &y->janky_list[i]),
						&y->janky_list[i])) {
					gfxstat_cause_clusters_free(cc);
					cc = NULL;
					break;
				}
		}
		if (s)
			break;
	}
	return cc;
}

/*
 * "5 of 33 janky frames, 1.0 s late in all" after the cluster's summary, as analyze's why
 * line: the lateness of the frames whose lateness is known, and how many are not known, so a
 * cluster of unknown lateness never reads "0 ms"
 */
static void cluster_line(struct gx_wr *w, const char *key, const struct gfxstat_cause_cluster *c,
			 uint64_t janky)
{
	double ms = (double)c->jank_ns / 1e6;

	gx_wr_printf(w, "<span data-k=\"%s\" data-class=\"%s\" data-frames=\"%llu\" "
		     "data-jank-ms=\"%.3f\" data-late-unknown=\"%llu\">", key,
		     gfxstat_cause_class_name(c->cls), (unsigned long long)c->frames, ms,
		     (unsigned long long)c->late_unknown);
	gx_wr_html(w, c->summary, strlen(c->summary));
	gx_wr_printf(w, "</span>: %llu of %llu janky frames, ", (unsigned long long)c->frames,
		     (unsigned long long)janky);
	if (c->late_unknown >= c->frames) {
		gx_wr_printf(w, "how late not known");
		return;
	}
	if (ms >= 999.5)
		gx_wr_printf(w, "%.1f s late in all", ms / 1e3);
	else /* under 10 ms a tenth: a frame 0.2 ms past its deadline is not "0 ms" */
		gx_wr_printf(w, "%.*f ms late in all", ms < 10 ? 1 : 0, ms);
	if (c->late_unknown)
		gx_wr_printf(w, " (%llu of them by an amount not known)",
			     (unsigned long long)c->late_unknown);
}

/* The layer of @s that presented janky frame @j (its cause's), or NULL. */
static const struct gfxstat_layer_metrics *frame_layer(struct gfxstat_html *h,
						       const struct gfxstat_metrics *m,
						       const struct gfxstat_layer_metrics *s,
						       const struct gfxstat_janky_frame *j,
						       const char **cause)
{
	size_t k, n = gfxstat_metrics_count(m);
	const struct gfxstat_layer_metrics *found = NULL;

	*cause = NULL;
	if (!s->is_app) {
		*cause = gx_html_cause_of(h, s->name, j->present_ns, untimed_ord(s, j));
		return s;
	}
	if (j->present_ns == GFXSTAT_NS_NONE)
		return NULL;
	for (k = 0; k < n; k++) {
		const struct gfxstat_layer_metrics *y = gfxstat_metrics_get(m, k);
		const char *c;

		if (!belongs(y, s))
			continue;
		c = gx_html_cause_of(h, y->name, j->present_ns, 0);
		if (c) {
			*cause = c;
			return y;
		}
		if (!found)
			for (size_t q = 0; q < y->njanky_list; q++)
				if (y->janky_list[q].present_ns == j->present_ns)
					found = y;
	}
	return found;
}

static size_t nlayers(const struct gfxstat_metrics *m, const struct gfxstat_layer_metrics *s)
{
	size_t k, n = 0;

	for (k = 0; k < gfxstat_metrics_count(m); k++)
		n += belongs(gfxstat_metrics_get(m, k), s);
	return n;
}

static void seconds(struct gx_wr *w, double s)
{
	gx_wr_printf(w, s < 10 ? "%.2f s" : s < 1000 ? "%.1f s" : "%.0f s", s);
}

static void verdict_card(struct gfxstat_html *h, const struct gfxstat_metrics *m,
			 const struct gfxstat_layer_metrics *l, int64_t t0, struct gx_wr *w)
{
	enum state st = judge(l);
	double pct = janky_pct(l), t = target_fps(l);
	const struct gfxstat_janky_frame *worst = NULL;
	const struct gfxstat_layer_metrics *wl = NULL;
	const char *cause = NULL;
	struct gfxstat_cause_clusters *cc;
	const struct gfxstat_cause_cluster *c;
	size_t i, nc;
	int display = 0;
	int differ = l->refresh_hz > 0 && fabs(t - l->refresh_hz) > 0.02 * l->refresh_hz;

	for (i = 0; i < l->njanky_list; i++) {
		const struct gfxstat_janky_frame *j = &l->janky_list[i];

		if (j->length_ns != GFXSTAT_NS_NONE && j->present_ns != GFXSTAT_NS_NONE &&
		    (!worst || j->length_ns > worst->length_ns))
			worst = j;
	}
	gx_wr_printf(w, "<article class=\"verdict v-%s\" data-kind=\"%s\" data-state=\"%s\" "
		     "data-name=\"", state_key[st], l->is_app ? "app" : "layer", state_key[st]);
	gx_wr_html(w, l->name, strlen(l->name));
	gx_wr_printf(w, "\"><div class=\"vhead\"><span class=\"badge\">%s</span><h2>",
		     state_name[st]);
	gx_wr_name(w, l->name, 48);
	gx_wr_puts(w, "</h2></div><p class=\"headline\">");
	/* the sentence */
	if (st == ST_FEW) {
		gx_wr_printf(w, "Only %llu frames: too few to say how smooth it was.",
			     (unsigned long long)l->frames);
	} else {
		/* (the badge says the state) */
		gx_wr_printf(w, "%.1f %% of its frames were janky (%llu of %llu)", pct,
			     (unsigned long long)l->janky_frames, (unsigned long long)l->frames);
		if (l->intervals && t > 0) {
			gx_wr_printf(w, ", and it drew %.1f FPS ", l->fps);
			if (differ)
				gx_wr_printf(w, "for content that runs at %.0f FPS on a %.0f Hz "
					     "display", t, l->refresh_hz);
			else
				gx_wr_printf(w, "of a possible %.0f (a %.0f Hz display)", t,
					     l->refresh_hz);
		}
		gx_wr_puts(w, ".");
	}
	gx_wr_puts(w, "</p><div class=\"tiles\">");
	/* the figures, each tagged with its analyze --json value */
	gx_wr_puts(w, "<div class=\"tile\">");
	if (l->intervals)
		gx_wr_num(w, "b", "fps", l->fps, 1, "");
	else
		gx_wr_puts(w, "<b title=\"no interval under the idle rule (500 ms): no rate to "
			   "give\">n/a</b>");
	gx_wr_printf(w, "<span>FPS of %.0f%s</span></div>", t, differ ? " (content)" : "");
	gx_wr_puts(w, "<div class=\"tile\">");
	gx_wr_num(w, "b", "janky_pct", pct, 1, " %");
	gx_wr_printf(w, "<span>janky: <span data-k=\"janky_frames\">%llu</span> of <span "
		     "data-k=\"frames\">%llu</span> frames</span></div>",
		     (unsigned long long)l->janky_frames, (unsigned long long)l->frames);
	if (worst) {
		double at = (double)(worst->present_ns - t0) / 1e9;

		wl = frame_layer(h, m, l, worst, &cause);
		gx_wr_printf(w, "<div class=\"tile\"><b data-k=\"worst_ms\" data-v=\"%.3f\">%.0f ms"
			     "</b><span>worst frame, at <a href=\"#timeline\" class=\"at\" "
			     "data-k=\"worst_s\" data-v=\"%.6f\" data-t=\"%.6f\" title=\"trace clock "
			     "%.6f s\" data-layer=\"", (double)worst->length_ns / 1e6,
			     (double)worst->length_ns / 1e6, at, at,
			     (double)worst->present_ns / 1e9);
		if (wl)
			gx_wr_html(w, wl->name, strlen(wl->name));
		gx_wr_puts(w, "\">");
		seconds(w, at);
		gx_wr_puts(w, "</a></span></div>");
	}
	gx_wr_puts(w, "</div>");
	if (worst) {
		const struct gfxstat_layer_metrics *y = wl;
		double at = (double)(worst->present_ns - t0) / 1e9;

		gx_wr_puts(w, "<p class=\"why\"><b>Worst moment:</b> at ");
		seconds(w, at);
		gx_wr_puts(w, " from the start, a frame");
		/* the layer, when the app has more than one */
		if (y && y != l && nlayers(m, l) > 1) {
			gx_wr_puts(w, " of ");
			gx_wr_name(w, y->name, 40);
		}
		gx_wr_printf(w, " took %.0f ms", (double)worst->length_ns / 1e6);
		if (worst->cadence_ns > 0)
			gx_wr_printf(w, " (due in %.1f)", (double)worst->cadence_ns / 1e6);
		gx_wr_puts(w, ".");
		if (cause) {
			gx_wr_puts(w, " Cause: ");
			gx_wr_html(w, cause, strlen(cause));
			gx_wr_puts(w, ".");
		}
		gx_wr_puts(w, "</p>");
	}
	cc = l->janky_frames ? clusters(h, m, l, &display) : NULL;
	nc = cc ? gfxstat_cause_clusters_get(cc, &c) : 0;
	if (nc) {
		gx_wr_puts(w, "<p class=\"why\"><b>Top cause:</b> ");
		cluster_line(w, "top_cause", &c[0], gfxstat_cause_clusters_frames(cc));
		gx_wr_puts(w, ".</p>");
	}
	gfxstat_cause_clusters_free(cc);
	gx_wr_puts(w, "</article>\n");
}

static int by_frames(const void *a, const void *b)
{
	const struct gfxstat_layer_metrics *x = *(const struct gfxstat_layer_metrics *const *)a;
	const struct gfxstat_layer_metrics *y = *(const struct gfxstat_layer_metrics *const *)b;

	if (x->frames != y->frames)
		return x->frames > y->frames ? -1 : 1;
	return strcmp(x->name, y->name);
}

void gx_html_verdict(struct gfxstat_html *h, const struct gfxstat_metrics *m, struct gx_wr *w)
{
	const struct gfxstat_layer_metrics *pick[GX_VERDICT_MAX + 1];
	size_t i, q, n = gfxstat_metrics_count(m), np = 0, apps = 0, nc, cap;
	int64_t t0 = gx_html_time_origin(h);
	struct gfxstat_cause_clusters *cc;
	const struct gfxstat_cause_cluster *c;
	int display = 0;

	/* the apps, busiest first; with none, the layers (kept sorted, the busiest few) */
	for (i = 0; i < n; i++)
		apps += gfxstat_metrics_get(m, i)->is_app != 0;
	cap = apps ? GX_VERDICT_MAX : 3;
	for (i = 0; i < n; i++) {
		const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(m, i);

		if (apps && !l->is_app)
			continue;
		pick[np] = l;
		for (q = np; q > 0 && by_frames(&pick[q], &pick[q - 1]) < 0; q--) {
			pick[q] = pick[q - 1];
			pick[q - 1] = l;
		}
		if (np < cap)
			np++;
	}
	gx_wr_puts(w, "<section id=\"verdict\"><div class=\"verdicts\">");
	for (i = 0; i < np; i++)
		verdict_card(h, m, pick[i], t0, w);
	gx_wr_puts(w, "</div>");
	/* the recording's top cause, as analyze's "causes": the janky frames of what draws,
	 * else the display's; the page says which */
	cc = clusters(h, m, NULL, &display);
	nc = cc ? gfxstat_cause_clusters_get(cc, &c) : 0;
	gx_wr_puts(w, "<p class=\"hint\">");
	if (nc) {
		gx_wr_puts(w, display ? "Across the recording, the top cause of janky frames (the "
					"display's: no app or other layer has a janky frame): "
				      : "Across the recording, the top cause of janky frames (those "
					"of the apps and other layers that draw; the display's own "
					"are how their late frames look on screen, so they are not "
					"ranked beside them): ");
		cluster_line(w, "recording_top_cause", &c[0], gfxstat_cause_clusters_frames(cc));
		gx_wr_puts(w, ". ");
	}
	gfxstat_cause_clusters_free(cc);
	gx_wr_printf(w, "<span title=\"A janky frame reached the screen later than the content's "
		     "rhythm allows: Android's own verdict where the trace carries one, else a "
		     "frame that took longer than the content's cadence.\">Smooth</span>: under "
		     "%.0f %% of frames janky and FPS at least %.0f %% of the content's rate; "
		     "janky: %.0f %% or more, or FPS under %.0f %%; noticeable jank in between.",
		     GX_VERDICT_SMOOTH_PCT, 100 * GX_VERDICT_SMOOTH_FPS, GX_VERDICT_JANKY_PCT,
		     100 * GX_VERDICT_JANKY_FPS);
	if (apps > GX_VERDICT_MAX)
		gx_wr_printf(w, " The %d busiest of %zu apps are shown; all are in the details.",
			     GX_VERDICT_MAX, apps);
	gx_wr_puts(w, "</p></section>\n");
}

void gx_html_top(struct gfxstat_html *h, const struct gfxstat_metrics *m, const char *title,
		 struct gx_wr *w)
{
	int64_t t0 = gx_html_time_origin(h), end = t0;
	size_t i, layers = 0, apps = 0;

	for (i = 0; i < h->st.nlayers; i++)
		if (h->st.layers[i].n && h->st.layers[i].present[h->st.layers[i].n - 1] > end)
			end = h->st.layers[i].present[h->st.layers[i].n - 1];
	for (i = 0; m && i < gfxstat_metrics_count(m); i++) {
		const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(m, i);

		apps += l->is_app != 0;
		layers += !l->is_app;
	}
	gx_wr_puts(w, "<header><h1>");
	gx_wr_html(w, title, strlen(title));
	gx_wr_puts(w, "</h1><p class=\"sub\">");
	if (m && gfxstat_metrics_count(m) && !h->st.nlayers) {
		/* no frame with a present (gfxinfo without framestats): no span, no clock */
		gx_wr_printf(w, "No present times in this dump: no clock, no span and no FPS; the "
			     "timeline shows the frames in the order drawn, each at its own duration; "
			     "%zu app%s, %zu layer%s.", apps, apps == 1 ? "" : "s", layers,
			     layers == 1 ? "" : "s");
	} else if (m && gfxstat_metrics_count(m)) {
		gx_wr_puts(w, "<span data-k=\"span_s\" data-v=\"");
		gx_wr_printf(w, "%.6f\">", (double)(end - t0) / 1e9);
		seconds(w, (double)(end - t0) / 1e9);
		gx_wr_printf(w, "</span> from the first frame to the last; %zu app%s, %zu layer%s",
			     apps, apps == 1 ? "" : "s", layers, layers == 1 ? "" : "s");
		if (h->nmodes > 1) {
			gx_wr_printf(w, "; the display switched refresh rate %zu time%s", h->nmodes - 1,
				     h->nmodes == 2 ? "" : "s");
		} else if (h->nmodes == 1) {
			gx_wr_printf(w, "; a %.0f Hz display", 1e9 / (double)h->modes[0][1]);
		}
		gx_wr_puts(w, ". Times are seconds from the first frame.");
	} else if (h->nseed) {
		gx_wr_printf(w, "%zu windows of android_FPS_frome_GFX's fps.csv.", h->nseed);
	}
	for (i = 0; i < h->nmeta; i++)
		if (!strcmp(h->meta[2 * i], "device")) {
			gx_wr_puts(w, " Device: ");
			gx_wr_html(w, h->meta[2 * i + 1], strlen(h->meta[2 * i + 1]));
			gx_wr_puts(w, ".");
		}
	gx_wr_puts(w, "</p></header>\n");
	if (m && gfxstat_metrics_count(m))
		gx_html_verdict(h, m, w);
}
