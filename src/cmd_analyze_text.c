/* SPDX-License-Identifier: MIT */
/*
 * gfxstat analyze, text: "how smooth was it?" first. Per app a headline (frames, FPS, janky
 * share by the library's one definition, frame-time percentiles, the worst frames with their
 * causes), then each layer in the same form; the other tools' metric families on demand.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_analyze.h"

#define WORST 3

static const struct {
	const char *name;
	unsigned bit;
} families[] = {
	{ "fps", AN_FPS },         { "perfdog", AN_PERFDOG }, { "android", AN_ANDROID },
	{ "gfx", AN_SEED },        { "apple", AN_APPLE },     { "matrix", AN_MATRIX },
	{ "taobao", AN_TAOBAO },   { "scrolls", AN_SCROLLS }, { "all", AN_ALL },
	{ "seed", AN_SEED }, /* gfx's old name, still taken: scripts may pass it */
};

int cli_analyze_families(const char *list, unsigned *out)
{
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
			if (strlen(families[i].name) == n && !strncmp(p, families[i].name, n))
				break;
		if (i == sizeof(families) / sizeof(families[0])) {
			cli_error("--metrics: unknown family '%.*s'; known: fps, perfdog, android, "
				  "gfx, apple, matrix, taobao, scrolls, all", (int)n, p);
			return -1;
		}
		*out |= families[i].bit;
		p += n + (p[n] == ',');
	}
	return 0;
}

static const char *const matrix_names[GFXSTAT_MATRIX_LEVELS] = {
	"best", "normal", "middle", "high", "frozen",
};

/* a janky frame and the layer it belongs to, for the worst-frames list */
struct worst {
	const struct gfxstat_layer_metrics *l;
	const struct gfxstat_janky_frame *j;
};

/* Keep @w (sorted, longest first, at most WORST) with frame @j of @l if it is among them. */
static void worst_add(struct worst *w, size_t *n, const struct gfxstat_layer_metrics *l,
		      const struct gfxstat_janky_frame *j)
{
	size_t k;

	if (j->length_ns == GFXSTAT_NS_NONE)
		return;
	for (k = *n; k > 0 && w[k - 1].j->length_ns < j->length_ns; k--)
		if (k < WORST)
			w[k] = w[k - 1];
	if (k >= WORST)
		return;
	w[k].l = l;
	w[k].j = j;
	if (*n < WORST)
		(*n)++;
}

/*
 * The start of the recording: its first present, of any layer -- the origin the HTML report's
 * times use (gx_html_time_origin()), so "at 1.916 s" is the same moment in both; the trace's
 * own clock follows in brackets, to find the frame in the trace.
 */
static int64_t origin_ns;

int64_t cli_analyze_origin(const struct gfxstat_metrics *m)
{
	size_t k, n = gfxstat_metrics_count(m);
	int have = 0;
	int64_t o = 0;

	for (k = 0; k < n; k++) {
		const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(m, k);

		if (l->frames > l->untimed && (!have || l->first_ns < o)) {
			o = l->first_ns;
			have = 1;
		}
	}
	return o;
}

static void set_origin(const struct gfxstat_metrics *m)
{
	origin_ns = cli_analyze_origin(m);
}

static int cmp_span(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

static int64_t wait_ns = 500 * GFXSTAT_NSEC_PER_MSEC; /* the library's default --wait */

void cli_analyze_text_wait(int64_t ns)
{
	if (ns > 0)
		wait_ns = ns;
}

/*
 * The time an app's frames cover: the union of its layers' spans (first to last present
 * each), a gap between them shorter than an idle wait (--wait) taken as covered. Its layers
 * may be windows of dumps taken far apart (gfxinfo of every process, again later): first to
 * last would count the time between the dumps, where it drew nothing that was read; two
 * layers of one frame each, 30 ms apart, cover those 30 ms. Return: the time in ns, or -1
 * when out of memory or not an app.
 */
static int64_t app_cover_ns(const struct gfxstat_metrics *m, const struct gfxstat_layer_metrics *l)
{
	const size_t *members;
	size_t n = l->is_app ? gfxstat_metrics_app_layers(m, l, &members) : 0, k, ns = 0;
	int64_t (*sp)[2], total = 0, a = 0, b = 0;

	if (!n)
		return -1;
	sp = malloc(n * sizeof(*sp));
	if (!sp)
		return -1;
	for (k = 0; k < n; k++) {
		const struct gfxstat_layer_metrics *y = gfxstat_metrics_get(m, members[k]);

		if (y->frames > y->untimed) {
			sp[ns][0] = y->first_ns;
			sp[ns][1] = y->last_ns;
			ns++;
		}
	}
	qsort(sp, ns, sizeof(*sp), cmp_span);
	for (k = 0; k < ns; k++) {
		if (k && sp[k][0] - b < wait_ns) {
			if (sp[k][1] > b)
				b = sp[k][1];
			continue;
		}
		total += b - a;
		a = sp[k][0];
		b = sp[k][1];
	}
	total += b - a;
	free(sp);
	return total;
}

/* "over 12.22 s", or for an app whose layers' spans leave gaps, the time they cover. */
static void print_over(const struct gfxstat_metrics *m, const struct gfxstat_layer_metrics *l)
{
	int64_t cover = app_cover_ns(m, l), span = l->last_ns - l->first_ns;

	/* a gap under a millisecond is rounding, not another window's time */
	if (cover >= 0 && span - cover >= GFXSTAT_NSEC_PER_MSEC)
		printf(" over %.2f s (its layers' spans, gaps of an idle wait or more left out; "
		       "%.2f s first to last)",
		       (double)cover / 1e9, l->duration_s);
	else
		printf(" over %.2f s", l->duration_s);
}

static cli_headline_fn why_fn;
static void *why_user;

void cli_analyze_text_why(cli_headline_fn fn, void *user)
{
	why_fn = fn;
	why_user = user;
}

static void headline(const struct gfxstat_metrics *m, const struct gfxstat_layer_metrics *l,
		     cli_cause_fn cause, void *user)
{
	struct worst w[WORST];
	size_t nw = 0, k, i;

	if (l->untimed && l->untimed == l->frames)
		/* gfxinfo's legacy profile table: durations, no times: no rate can be said */
		printf("  frames %llu with no present time: FPS n/a; janky %llu",
		       (unsigned long long)l->frames, (unsigned long long)l->janky_frames);
	else {
		printf("  frames %llu", (unsigned long long)l->frames);
		print_over(m, l);
		if (!l->intervals)
			/* one frame, or only idle waits between them: a rate of 0 would be a
			 * claim */
			printf(" at %.1f Hz: FPS n/a (no interval under --wait); janky %llu",
			       l->refresh_hz, (unsigned long long)l->janky_frames);
		else
			printf(" at %.1f Hz: FPS %.1f; janky %llu", l->refresh_hz, l->fps,
			       (unsigned long long)l->janky_frames);
	}
	if (l->frames)
		printf(" (%.2f%%)", 100.0 * (double)l->janky_frames / (double)l->frames);
	if (l->untimed && l->untimed != l->frames)
		printf("; %llu with no present time", (unsigned long long)l->untimed);
	printf("\n");
	/* Android's own verdict, where the dump prints one, beside the frames' (it counts every
	 * frame since its stats were reset; the rows or the profile table only the last ones) */
	if (l->own_total >= 0) {
		printf("  android   ");
		if (l->own_janky >= 0)
			printf("janky %lld of %lld frames (%.2f%%)", (long long)l->own_janky,
			       (long long)l->own_total, l->own_total ? 100.0 * (double)l->own_janky /
			       (double)l->own_total : 0.0);
		else
			printf("%lld frames", (long long)l->own_total);
		printf(": the dump's own summary, of every frame since its stats were reset (the "
		       "line above: the %llu frames read)\n", (unsigned long long)l->frames);
	}
	if (why_fn)
		why_fn(why_user, m, l);
	if (l->intervals)
		printf("  frame ms  p50 %.1f  p90 %.1f  p99 %.1f  max %.1f\n", l->frame_ms_p50,
		       l->frame_ms_p90, l->frame_ms_p99, l->frame_ms_max);
	else if (l->untimed && l->frame_ms_max > 0)
		printf("  work ms   p50 %.1f  p90 %.1f  p99 %.1f  max %.1f (the frames' own durations; "
		       "from Android 6 hwui caps each column at 50 ms)\n", l->frame_ms_p50,
		       l->frame_ms_p90, l->frame_ms_p99, l->frame_ms_max);
	else if (l->frames < 2)
		printf("  frame ms  none: one frame has no interval\n");
	else
		printf("  frame ms  none: every interval is an idle wait (>= --wait)\n");
	/* its own timeline's janky frames: an app's are those of its merged presents, so that
	 * every figure under the app is the app's (a layer's interval can be longer) */
	for (i = 0; i < l->njanky_list; i++)
		worst_add(w, &nw, l, &l->janky_list[i]);
	for (k = 0; k < nw; k++) {
		const char *on = NULL;
		const char *c = cause ? cause(user, m, w[k].l, w[k].j, &on) : NULL;

		printf("  %s %.1f ms", k ? "         " : "worst    ", (double)w[k].j->length_ns / 1e6);
		if (w[k].j->present_ns != GFXSTAT_NS_NONE)
			printf(" at %.3f s (trace clock %.3f s)",
			       (double)(w[k].j->present_ns - origin_ns) / 1e9,
			       (double)w[k].j->present_ns / 1e9);
		if (l->is_app && on)
			printf(" on %s", cli_shown(on));
		printf(": %s\n", c ? cli_shown(c) : "cause unknown");
	}
}

static void family_lines(const struct gfxstat_layer_metrics *l, unsigned fam)
{
	size_t i;

	if (fam & AN_FPS) {
		printf("  cadence   %.1f FPS (%u vsync%s)%s; waits %llu (%.2f s idle)\n",
		       l->cadence_fps, l->cadence_vsyncs, l->cadence_vsyncs == 1 ? "" : "s",
		       l->cadence_changes ? " most of the time" : "",
		       (unsigned long long)l->waits, l->wait_s);
		printf("  FPS %.1f (active)  %.1f (wall)  median %.1f  low 1%% %.1f  p95 %.1f ms\n",
		       l->fps, l->fps_wall, l->fps_median, l->fps_low_1pct, l->frame_ms_p95);
	}
	if (fam & AN_PERFDOG) {
		printf("  PerfDog   jank %llu  big jank %llu", (unsigned long long)l->jank,
		       (unsigned long long)l->big_jank);
		/* a rate per 10 minutes from seconds of data would be an extrapolation */
		if (l->rates_valid)
			printf("  (%.1f / %.1f per 10 min)", l->jank_per_10min,
			       l->big_jank_per_10min);
		printf("  stutter %.2f%%\n", l->stutter * 100);
	}
	if (fam & AN_ANDROID) {
		printf("  Android   slow %llu  frozen %llu (%.2f%%)", (unsigned long long)l->slow_frames,
		       (unsigned long long)l->frozen_frames, l->frozen_share * 100);
		/* frozen counts idle waits too, which frame time leaves out: say so, not "max 0" */
		if (l->frozen_frames && l->frame_ms_max < 700)
			printf(" [idle waits >= 700 ms, left out of frame time]");
		if (l->source_judged)
			printf("  janky by the source %llu of %llu (%.2f%%)",
			       (unsigned long long)l->source_janky, (unsigned long long)l->source_judged,
			       100.0 * (double)l->source_janky / (double)l->source_judged);
		printf("\n");
	}
	if (fam & AN_SEED)
		printf("  gfx       A %llu  B %llu  C %llu  D %llu  score %.2f\n",
		       (unsigned long long)l->a, (unsigned long long)l->b, (unsigned long long)l->c,
		       (unsigned long long)l->d, l->score);
	if (fam & AN_APPLE)
		printf("  Apple     hitch %.1f ms/s\n", l->hitch_ms_per_s);
	if (fam & AN_MATRIX) {
		printf("  Matrix    dropped %.3f/frame (", l->matrix_dropped_per_frame);
		for (i = 0; i < GFXSTAT_MATRIX_LEVELS; i++)
			printf("%s%s %llu", i ? ", " : "", matrix_names[i],
			       (unsigned long long)l->matrix_levels[i]);
		printf(")\n");
	}
	if (fam & AN_TAOBAO) {
		printf("  Taobao    %zu jank-FPS windows under 5/6 of the cadence", l->njank_windows);
		for (i = 0; i < l->njank_windows && i < 5; i++)
			printf("%s%.0f FPS/%u frames", i ? ", " : ": ", l->jank_windows[i].fps,
			       l->jank_windows[i].frames);
		printf("%s\n", l->njank_windows > 5 ? ", ..." : "");
	}
	if ((fam & AN_SCROLLS) && l->nscrolls) {
		printf("  scrolls   %zu; hitch rate %s further on (slope %+.2f ms/s per scroll)\n",
		       l->nscrolls, l->scroll_hitch_slope > 0 ? "grows" : "does not grow",
		       l->scroll_hitch_slope);
		for (i = 0; i < l->nscrolls && i < 10; i++) {
			const struct gfxstat_scroll *sc = &l->scrolls[i];

			printf("    #%zu at %.3f s: %.2f s, %u frames, %.1f FPS, hitch %.1f ms/s, "
			       "jank %u, longest %.1f ms\n", i + 1,
			       (double)(sc->start_ns - origin_ns) / 1e9,
			       (double)(sc->end_ns - sc->start_ns) / 1e9, sc->frames, sc->fps,
			       sc->hitch_ms_per_s, sc->jank, (double)sc->longest_ns / 1e6);
		}
		if (l->nscrolls > 10)
			printf("    ...\n");
	}
}

void cli_analyze_text(const struct gfxstat_metrics *m, unsigned fam, cli_cause_fn cause,
		      void *user)
{
	size_t n = gfxstat_metrics_count(m), k, nl;
	const size_t *members;

	set_origin(m);
	/* apps first: the answer to "how smooth was it?" is per app */
	for (k = 0; k < n; k++) {
		const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(m, k);

		if (!l->is_app)
			continue;
		nl = gfxstat_metrics_app_layers(m, l, &members);
		/* names from the input: shown, never raw to the terminal (cli_shown()) */
		printf("app %s  (%zu layer%s)\n", cli_shown(l->name), nl, nl == 1 ? "" : "s");
		headline(m, l, cause, user);
		family_lines(l, fam);
		printf("\n");
	}
	for (k = 0; k < n; k++) {
		const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(m, k);

		if (l->is_app)
			continue;
		if (l->app[0])
			printf("layer %s  (app %s)\n", cli_shown(l->name), cli_shown(l->app));
		else
			printf("layer %s\n", cli_shown(l->name));
		headline(m, l, cause, user);
		family_lines(l, fam);
		printf("\n");
	}
	if (!fam)
		printf("(the other tools' metrics: --all, or --metrics fps,perfdog,android,gfx,"
		       "apple,matrix,taobao,scrolls)\n");
}

/* "738, 738, 740" frames of @k in each recording that has it */
static void key_frames(const struct cli_analyze_rec *r, size_t nr,
		       const struct cli_analyze_key *k)
{
	size_t i, shown = 0;

	for (i = 0; i < nr; i++) {
		const struct gfxstat_layer_metrics *l = cli_analyze_row(&r[i], k);

		if (!l)
			continue;
		if (shown++ == 8) {
			printf(", ...");
			break;
		}
		printf("%s%llu", shown > 1 ? ", " : "", (unsigned long long)l->frames);
	}
}

void cli_analyze_summary_text(const struct cli_analyze_rec *r, size_t nr, const char *app)
{
	struct cli_analyze_key *k;
	size_t nk = cli_analyze_keys(r, nr, app, &k), i;
	int j;

	if (nk == (size_t)-1) {
		cli_error("out of memory");
		return;
	}
	printf("\nover the %zu recordings, each analysed on its own: mean +- sd (min .. max)\n",
	       nr);
	for (i = 0; i < nk; i++) {
		printf("%s %s  (in %zu of %zu recordings", k[i].is_app ? "app" : "layer", k[i].name,
		       k[i].n, nr);
		if (k[i].n) {
			printf(": ");
			key_frames(r, nr, &k[i]);
			printf(" frames");
		}
		printf(")\n");
		for (j = 0; j < CLI_M_COUNT && k[i].n; j++) {
			printf("  %-17s", cli_metrics[j].name);
			if (!k[i].nv[j])
				printf(" %10s\n", "-");
			else
				printf(" %10.2f +- %-8.2f (%.2f .. %.2f)%s\n", k[i].mean[j], k[i].sd[j],
				       k[i].min[j], k[i].max[j], k[i].nv[j] < k[i].n ? " (not in all)"
				       : "");
		}
	}
	free(k);
}
