/* SPDX-License-Identifier: MIT */
/*
 * gfxstat report --history: per metric, one app's trend from the history store, drawn with
 * each point's spread and the significant steps; the numbers are those of `gfxstat trend
 * --format json`, printed into the page by the same function.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_gate.h"
#include "cli_source.h"
#include "cli_store.h"
#include "cmd_compare.h"
#include "cmd_history.h"
#include "cmd_report.h"
#include "cmd_report_view.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_report.h"

/* ---- the trend ---------------------------------------------------------------------- */

#define TREND_COLS 9

static const char *const trend_head[TREND_COLS] = { "group", "runs", "mean", "sd", "min", "max",
						    "step", "95% CI of the step", "significant" };
static const char *const trend_keys[TREND_COLS] = { "key", "runs", "mean", "sd", "min", "max",
						    "step", "ci", "sig" };

/* one table's cells, kept as text, and its last two groups for the summary */
struct trend_table {
	char *text;     /* rows x TREND_COLS x 64 */
	const char **cells;
	size_t rows, cap;
	int err;
	struct cli_trend_point last, prev; /* their key and values are not kept: see keys */
	char last_key[64], prev_key[64];
};

#define SUM_COLS 7

static const char *const sum_head[SUM_COLS] = { "metric", "previous", "latest", "change",
						"95% interval", "verdict", "runs (previous, latest)" };
static const char *const sum_keys[SUM_COLS] = { "metric", "prev", "latest", "diff", "ci",
						"verdict", "runs" };

/* A metric in plain words, as the compare page names it (report_views.js LABEL). */
static const char *metric_words(const char *metric)
{
	static const char *const w[][2] = {
		{ "fps", "FPS" }, { "janky_pct", "janky frames" }, { "p50_ms", "median frame" },
		{ "p90_ms", "p90 frame" }, { "p99_ms", "p99 frame" }, { "jank_per_min", "jank/min" },
		{ "big_jank_per_min", "big jank/min" }, { "hitch_ms_per_s", "hitch time" },
		{ "scroll_fps", "scroll FPS" }, { "frozen_frames", "frozen frames" },
	};
	size_t i;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (!strcmp(w[i][0], metric))
			return w[i][1];
	return metric;
}

/* The decimals that give @ref three significant digits (33.9 FPS, 16.7 ms, 5.02 %, 0.123),
 * as the page's charts and the compare page print them. */
static int dec3(double ref)
{
	double a = fabs(ref);
	int dec;

	if (!(a > 0) || !isfinite(a))
		return 0; /* a mean of 0 (no frozen frame): "0" */
	if (a >= 100)
		return 0;
	dec = 2 - (int)floor(log10(a));
	return dec > 6 ? 6 : dec;
}

/* @v to @dec decimals; @sign: a change, signed, and a change that rounds to nothing "0" with
 * those decimals unsigned (never "+0.0000" or "-0.00") */
static void numd(char *b, size_t cap, double v, int dec, int sign)
{
	double unit = pow(10, -dec);

	if (sign && fabs(v) < unit / 2)
		snprintf(b, cap, "%.*f", dec, 0.0);
	else
		snprintf(b, cap, sign ? "%+.*f" : "%.*f", dec, v);
}

/* a metric's row of the summary: its latest group against the previous one, with trend's
 * step, interval and significance (the verdict's direction from cli_metrics[]) */
static void summary_row(char *c, const char *metric, const struct trend_table *t)
{
	int mi = cli_metric_find(metric, strlen(metric));
	int higher = mi >= 0 && cli_metrics[mi].higher_better;
	const char *unit = mi >= 0 ? cli_metrics[mi].unit : "";
	const struct cli_trend_point *l = &t->last, *p = &t->prev;
	char a[32], b[32];
	size_t k;
	/* the change and its interval to the precision of the means they compare: a step of
	 * 0 beside means of 2.27 reads "0.00", not "+0.0000" */
	double ref = t->rows > 1 && fabs(p->mean) > fabs(l->mean) ? p->mean : l->mean;

	for (k = 0; k < SUM_COLS; k++)
		c[k * 64] = 0;
	snprintf(c, 64, "%s", metric_words(metric));
	numd(a, sizeof(a), p->mean, dec3(p->mean), 0);
	if (t->rows > 1)
		snprintf(c + 64, 64, "%.36s: %.16s%s%.6s", t->prev_key, a, unit[0] ? " " : "", unit);
	numd(a, sizeof(a), l->mean, dec3(l->mean), 0);
	snprintf(c + 128, 64, "%.36s: %.16s%s%.6s", t->last_key, a, unit[0] ? " " : "", unit);
	if (l->has_step) {
		numd(a, sizeof(a), l->diff, dec3(ref), 1);
		snprintf(c + 192, 64, "%s", a);
	}
	if (l->has_ci) {
		numd(a, sizeof(a), l->lo, dec3(ref), 1);
		numd(b, sizeof(b), l->hi, dec3(ref), 1);
		snprintf(c + 256, 64, "[%.24s, %.24s]", a, b);
	}
	if (!l->has_step)
		snprintf(c + 320, 64, "one group only");
	else if (!l->has_ci)
		snprintf(c + 320, 64, "not known (a group of 1 run)");
	else if (!l->significant)
		snprintf(c + 320, 64, "no significant change");
	else
		snprintf(c + 320, 64, "%s", (l->diff > 0) == higher ? "better" : "worse");
	if (t->rows > 1)
		snprintf(c + 384, 64, "%zu, %zu", p->runs, l->runs);
	else
		snprintf(c + 384, 64, "%zu", l->runs);
}

static void trend_point(void *user, const struct cli_trend_point *p)
{
	struct trend_table *t = user;
	char *c;
	size_t k;

	if (cli_grow((void **)&t->text, &t->cap, t->rows, TREND_COLS * 64, 16)) {
		t->err = 1;
		return;
	}
	c = t->text + t->rows * TREND_COLS * 64;
	for (k = 0; k < TREND_COLS; k++)
		c[k * 64] = 0;
	snprintf(c, 64, "%s", p->key);
	snprintf(c + 64, 64, "%zu", p->runs);
	snprintf(c + 128, 64, "%.3f", p->mean);
	snprintf(c + 192, 64, "%.3f", p->sd);
	snprintf(c + 256, 64, "%.3f", p->min);
	snprintf(c + 320, 64, "%.3f", p->max);
	if (p->has_step)
		snprintf(c + 384, 64, "%+.3f", p->diff);
	if (p->has_ci)
		snprintf(c + 448, 64, "[%+.3f, %+.3f]", p->lo, p->hi);
	snprintf(c + 512, 64, "%s", p->significant ? "*" : "");
	t->rows++;
	/* the summary's two groups (their strings copied: @p's are the caller's) */
	t->prev = t->last;
	memcpy(t->prev_key, t->last_key, sizeof(t->prev_key));
	t->last = *p;
	t->last.values = NULL;
	t->last.key = NULL;
	snprintf(t->last_key, sizeof(t->last_key), "%s", p->key);
}

int cli_report_history(const struct cli_report_view *v)
{
	struct cli_store *st = NULL;
	struct trend_table tt[CLI_REPORT_MAX_METRICS];
	struct gfxstat_html_table tab[CLI_REPORT_MAX_METRICS + 1];
	char *sum_text = NULL;
	const char *sum_cells[CLI_REPORT_MAX_METRICS * SUM_COLS];
	size_t nsum = 0;
	const char *names[CLI_REPORT_MAX_METRICS], *meta[8];
	char title[512], db[4096], captions[CLI_REPORT_MAX_METRICS][96];
	struct cli_sbuf data = { 0 };
	struct gfxstat_html_view view;
	size_t nm = v->nmetrics, i, r, ntab = 0;
	unsigned long total = 0;
	int rc, nseries = 0;

	if (!v->app) {
		cli_error("--history needs --app PKG");
		return CLI_USAGE;
	}
	if (!nm)
		for (nm = 0; nm < CLI_M_COUNT; nm++)
			names[nm] = cli_metrics[nm].name;
	else
		memcpy(names, v->metrics, nm * sizeof(*names));
	rc = cli_store_open(v->db, &st);
	if (rc)
		return rc;
	memset(tt, 0, sizeof(tt));
	cli_sb_puts(&data, "{\"view\":\"trend\",\"app\":");
	cli_sb_str(&data, v->app);
	cli_sb_printf(&data, ",\"by\":\"%s\",\"series\":[", v->by ? v->by : "label");
	for (i = 0; i < nm && !rc; i++) {
		struct cli_trend_query q = { v->app, names[i], v->by, v->device, v->label };
		unsigned long runs = 0;
		FILE *f = tmpfile();

		if (!f) {
			cli_error("cannot make a temporary file: %s", strerror(errno));
			rc = CLI_OUTPUT;
			break;
		}
		rc = cli_trend_json(f, st, &q, &runs, trend_point, &tt[i]);
		if (!rc && runs) {
			if (nseries++)
				cli_sb_puts(&data, ",");
			cli_sb_file(&data, f);
			total += runs;
		}
		fclose(f);
		if (tt[i].err)
			data.err = 1;
	}
	cli_sb_puts(&data, "]}");
	cli_store_close(st);
	if (!rc && data.err) {
		cli_error("out of memory");
		rc = CLI_INPUT;
	}
	if (!rc && !total) {
		cli_error("no runs of %s in the history store%s", v->app,
			  v->label || v->device ? " that match" : "");
		rc = CLI_INPUT;
	}
	/* the summary first: per metric, the latest group against the previous one */
	if (!rc && !(sum_text = calloc(nm ? nm : 1, SUM_COLS * 64))) {
		cli_error("out of memory");
		rc = CLI_INPUT;
	}
	for (i = 0; i < nm && !rc; i++) {
		if (!tt[i].rows)
			continue;
		summary_row(sum_text + nsum * SUM_COLS * 64, names[i], &tt[i]);
		for (r = 0; r < SUM_COLS; r++)
			sum_cells[nsum * SUM_COLS + r] = sum_text + nsum * SUM_COLS * 64 + r * 64;
		nsum++;
	}
	if (!rc && nsum) {
		memset(&tab[ntab], 0, sizeof(tab[ntab]));
		tab[ntab].id = "trend-summary";
		tab[ntab].caption = "Latest against previous (green: significantly better, red: "
				    "significantly worse, by Welch's 95 % interval)";
		tab[ntab].ncols = SUM_COLS;
		tab[ntab].nrows = nsum;
		tab[ntab].head = sum_head;
		tab[ntab].keys = sum_keys;
		tab[ntab].cells = sum_cells;
		ntab++;
	}
	for (i = 0; i < nm && !rc; i++) {
		const char **cells;

		if (!tt[i].rows)
			continue;
		cells = malloc(tt[i].rows * TREND_COLS * sizeof(*cells));
		if (!cells) {
			cli_error("out of memory");
			rc = CLI_INPUT;
			break;
		}
		for (r = 0; r < tt[i].rows * TREND_COLS; r++)
			cells[r] = tt[i].text + r * 64;
		tt[i].cells = cells;
		snprintf(captions[i], sizeof(captions[i]), "%s by %s", metric_words(names[i]),
			 v->by ? v->by : "label");
		memset(&tab[ntab], 0, sizeof(tab[ntab]));
		tab[ntab].caption = captions[i];
		tab[ntab].attr = names[i];
		tab[ntab].ncols = TREND_COLS;
		tab[ntab].nrows = tt[i].rows;
		tab[ntab].head = trend_head;
		tab[ntab].keys = trend_keys;
		tab[ntab].cells = cells;
		ntab++;
	}
	if (!rc) {
		snprintf(title, sizeof(title), "%s", v->title ? v->title : "");
		if (!v->title)
			snprintf(title, sizeof(title), "gfxstat trend: %s", v->app);
		/* the page is shared: no password in it */
		cli_store_redact(v->db ? v->db : "the default store", db, sizeof(db));
		meta[0] = "history";
		meta[1] = db;
		meta[2] = "app";
		meta[3] = v->app;
		meta[4] = "grouped by";
		meta[5] = v->by ? v->by : "label";
		meta[6] = "made by";
		meta[7] = "gfxstat " GFXSTAT_VERSION;
		memset(&view, 0, sizeof(view));
		view.kind = "trend";
		view.title = title;
		view.meta = meta;
		view.nmeta = 4;
		view.tables = tab;
		view.ntables = ntab;
		view.data = data.p;
		view.data_len = data.n;
		rc = cli_view_write_page(v->out, &view);
	}
	for (i = 0; i < nm; i++) {
		free(tt[i].text);
		free(tt[i].cells);
	}
	free(sum_text);
	free(data.p);
	return rc;
}

