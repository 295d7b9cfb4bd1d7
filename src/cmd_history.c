/* SPDX-License-Identifier: MIT */
/* gfxstat history and gfxstat trend: the saved runs, and one metric over labels or versions. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cli_gate.h"
#include "cli_json.h"
#include "cli_store.h"
#include "cmd_history.h"
#include "gfxstat/gfxstat_compare.h"

enum {
	OPT_DB = 256, OPT_APP, OPT_DEVICE, OPT_LABEL, OPT_METRIC, OPT_BY, OPT_FORMAT, OPT_FAIL_IF,
	OPT_JUNIT
};

#define MAX_TREND_GATES 32

static const struct cli_opt history_opts[] = {
	{ OPT_DB, "db", "PATH|URL", "history store: SQLite file or postgresql:// URL" },
	{ OPT_APP, "app", "PKG", "only this package" },
	{ OPT_DEVICE, "device", "SERIAL", "only this device" },
	{ OPT_LABEL, "label", "L", "only runs with this label" },
	/* (--metric, --by, --format are trend's: history lists runs, it groups nothing) */
	{ 0, NULL, NULL, NULL },
};

static const struct cli_opt trend_opts[] = {
	{ OPT_DB, "db", "PATH|URL", "history store: SQLite file or postgresql:// URL" },
	{ OPT_APP, "app", "PKG", "only this package (with --fail-if: every app when not given)" },
	{ OPT_DEVICE, "device", "SERIAL", "only this device" },
	{ OPT_LABEL, "label", "L", "only runs with this label" },
	{ OPT_METRIC, "metric", "NAME", "the metric (janky_pct, fps, p99_ms, ...)" },
	{ OPT_BY, "by", "label|version|day", "how runs are grouped (label)" },
	{ OPT_FORMAT, "format", "table|json", "output format (table)" },
	{ OPT_FAIL_IF, "fail-if", "EXPR", "'METRIC stepped_up' (or _down, _worse): exit 1 on a "
	  "significant step (repeatable)" },
	{ OPT_JUNIT, "junit", "FILE", "write the gates as JUnit XML" },
	{ 0, NULL, NULL, NULL },
};

static const struct cli_cmd history_cmd = {
	"gfxstat history",
	"gfxstat history [--db PATH|URL] [--app PKG] [--device SERIAL] [--label L]",
	"List the saved runs: when, label, device, source, and each app's FPS and janky %.",
	"Runs are saved by 'gfxstat compare --save' (and record/analyze --save). The store is\n"
	"$XDG_DATA_HOME/gfxstat/history.db unless --db names a SQLite file or a\n"
	"postgresql:// URL. One metric over labels, versions or days: 'gfxstat trend'.\n"
	"A store that cannot be opened or read exits with 5.\n",
	history_opts,
};

static const struct cli_cmd trend_cmd = {
	"gfxstat trend",
	"gfxstat trend --app PKG --metric NAME [--by label|version|day] [--db PATH|URL]\n"
	"                     [--device SERIAL] [--label L] [--format table|json]\n"
	"       gfxstat trend [--app PKG] [--metric NAME] --fail-if EXPR... [--junit FILE] "
	"[options]",
	"One metric of one app over labels, versions or days, with each point's spread.",
	"Groups come in the order of their first run. A step between neighbours is marked\n"
	"significant ('*') when Welch's 95 % interval of the difference excludes 0 (both\n"
	"groups need >= 2 runs; see docs/compare.md). --format json prints the header, then\n"
	"\"points\": per group key, runs, mean, sd, min, max, the values, and the step from\n"
	"the previous group (diff, lo, hi, significant; null for the first); 'gfxstat report\n"
	"--history' draws the same points.\n"
	"--fail-if 'METRIC stepped_up' (stepped_down, stepped_worse: the metric's worse way)\n"
	"judges the latest group of each app (--app, else every app saved) against the one\n"
	"before: it fails when Welch's 95 % interval of the step excludes 0 in that direction,\n"
	"saying the step, its interval and both groups; --junit FILE writes the verdicts. An\n"
	"app with a single group, or a group with one run, cannot step: skipped, and said (save\n"
	"two or more runs a label: 'record --repeat', 'compare --save' saves each recording of\n"
	"NEW). --app PKG with no run fails. --metric is then optional (its table is printed).\n"
	"A store that cannot be opened or read exits with 5.\n",
	trend_opts,
};

struct hist {
	const char *db, *app, *device, *label, *metric, *by;
	int metric_id, json;
	struct cli_gate gates[MAX_TREND_GATES];
	size_t ngates;
	const char *junit;
	char **apps;             /* --fail-if without --app: every app saved */
	size_t napps;
	unsigned long rows;
	/* trend groups */
	struct group {
		char key[128];
		double *v;
		size_t n;
	} *g;
	size_t ng;
};

static int history_opt(void *user, int id, const char *arg)
{
	struct hist *h = user;

	switch (id) {
	case OPT_DB:
		h->db = arg;
		return 0;
	case OPT_APP:
		h->app = arg;
		return 0;
	case OPT_DEVICE:
		h->device = arg;
		return 0;
	case OPT_LABEL:
		h->label = arg;
		return 0;
	case OPT_METRIC:
		h->metric = arg;
		h->metric_id = cli_metric_find(arg, strlen(arg));
		if (h->metric_id < 0 && strcmp(arg, "frames")) {
			cli_error("unknown metric '%s'", arg);
			return -1;
		}
		return 0;
	case OPT_BY:
		if (strcmp(arg, "label") && strcmp(arg, "version") && strcmp(arg, "day")) {
			cli_error("--by must be label, version or day, not '%s'", arg);
			return -1;
		}
		h->by = arg;
		return 0;
	case OPT_FORMAT:
		if (strcmp(arg, "table") && strcmp(arg, "json")) {
			cli_error("--format must be table or json, not '%s'", arg);
			return -1;
		}
		h->json = !strcmp(arg, "json");
		return 0;
	case OPT_FAIL_IF:
		if (h->ngates == MAX_TREND_GATES) {
			cli_error("at most %d --fail-if gates", MAX_TREND_GATES);
			return -1;
		}
		return cli_gate_parse(arg, CLI_GATE_HISTORY, &h->gates[h->ngates++]);
	case OPT_JUNIT:
		h->junit = arg;
		return cli_check_path("--junit", arg) ? -1 : 0;
	}
	return -1;
}

static void when_text(const char *ns, char *buf, size_t cap)
{
	time_t t = (time_t)(strtoll(ns ? ns : "0", NULL, 10) / 1000000000LL);
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, cap, "?");
}

static const char *or_dash(const char *s)
{
	return s && s[0] ? s : "-";
}

static int history_row(void *user, int ncol, const char *const *c)
{
	struct hist *h = user;
	char when[32];

	if (ncol < 10)
		return 0;
	if (!h->rows++)
		/* source: as wide as the longest frame format's name ("systrace-html") */
		printf("%-5s %-20s %-16s %-14s %-13s %-28s %-12s %8s %9s  %s\n", "run", "when (UTC)",
		       "label", "device", "source", "app", "version", "FPS", "janky %",
		       "session");
	when_text(c[1], when, sizeof(when));
	/* labels, apps and paths come from the store: shown, not sent raw to the terminal */
	printf("%-5s %-20s %-16s %-14s %-13s %-28s %-12s %8.2f %9.2f  %s\n", c[0], when,
	       cli_shown(or_dash(c[2])), cli_shown(or_dash(c[3])), cli_shown(or_dash(c[4])),
	       cli_shown(or_dash(c[5])), cli_shown(or_dash(c[6])),
	       c[7] ? atof(c[7]) : NAN, c[8] ? atof(c[8]) : NAN, cli_shown(or_dash(c[9])));
	return 0;
}

/* one run's value of the metric, into its group (made in order of first appearance) */
static int trend_row(void *user, int ncol, const char *const *c)
{
	struct hist *h = user;
	char key[128];
	size_t i;
	double *nv;

	if (ncol < 4 || !c[3])
		return 0;
	if (!strcmp(h->by, "day"))
		when_text(c[0], key, 11); /* YYYY-MM-DD */
	else
		snprintf(key, sizeof(key), "%s", or_dash(!strcmp(h->by, "label") ? c[1] : c[2]));
	for (i = 0; i < h->ng && strcmp(h->g[i].key, key); i++)
		;
	if (i == h->ng) {
		struct group *ng = realloc(h->g, (h->ng + 1) * sizeof(*ng));

		if (!ng)
			return CLI_OUTPUT;
		h->g = ng;
		memset(&ng[i], 0, sizeof(ng[i]));
		snprintf(ng[i].key, sizeof(ng[i].key), "%s", key);
		h->ng++;
	}
	nv = realloc(h->g[i].v, (h->g[i].n + 1) * sizeof(*nv));
	if (!nv)
		return CLI_OUTPUT;
	h->g[i].v = nv;
	nv[h->g[i].n++] = atof(c[3]);
	h->rows++;
	return 0;
}

static void print_trend(const struct hist *h)
{
	size_t i, k;

	printf("app %s, %s by %s\n%-20s %5s %10s %9s %10s %10s  %s\n", cli_shown(h->app), h->metric,
	       h->by,
	       h->by, "runs", "mean", "sd", "min", "max", "step from the previous (95% CI)");
	for (i = 0; i < h->ng; i++) {
		const struct group *g = &h->g[i];
		double sd, lo = g->v[0], hi = g->v[0], mean = gfxstat_mean_sd(g->v, g->n, &sd);
		struct gfxstat_ci ci;

		for (k = 1; k < g->n; k++) {
			lo = g->v[k] < lo ? g->v[k] : lo;
			hi = g->v[k] > hi ? g->v[k] : hi;
		}
		printf("%-20s %5zu %10.3f %9.3f %10.3f %10.3f", cli_shown(g->key), g->n, mean, sd,
		       lo, hi);
		if (i && !gfxstat_ci_welch(h->g[i - 1].v, h->g[i - 1].n, g->v, g->n, 0.95, &ci)) {
			int sig = ci.lo > 0 || ci.hi < 0;

			printf("  %+.3f [%+.3f, %+.3f]%s", ci.diff, ci.lo, ci.hi, sig ? " *" : "");
		} else if (i) {
			printf("  %+.3f (too few runs for an interval)",
			       mean - gfxstat_mean_sd(h->g[i - 1].v, h->g[i - 1].n, &sd));
		}
		printf("\n");
	}
}

static void json_num(FILE *o, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", o);
	else
		fprintf(o, "%.10g", v);
}

/* The same groups as print_trend(), as one JSON document (the common header first); each
 * point also to @point, when given. */
static void json_trend(FILE *o, const struct hist *h,
		       void (*point)(void *user, const struct cli_trend_point *p), void *user)
{
	struct cli_json_header hdr;
	size_t i, k;

	cli_json_header_init(&hdr, "trend");
	cli_json_begin(o, &hdr);
	cli_json_header_free(&hdr);
	fputs("\"app\":", o);
	cli_json_str(o, h->app);
	fputs(",\"metric\":", o);
	cli_json_str(o, h->metric);
	fprintf(o, ",\"unit\":\"%s\",\"by\":\"%s\",\"level\":0.95,\"points\":[",
		h->metric_id >= 0 ? cli_metrics[h->metric_id].unit : "frames", h->by);
	for (i = 0; i < h->ng; i++) {
		const struct group *g = &h->g[i];
		struct cli_trend_point p;
		struct gfxstat_ci ci;
		double sd;

		memset(&p, 0, sizeof(p));
		p.key = g->key;
		p.runs = g->n;
		p.values = g->v;
		p.mean = gfxstat_mean_sd(g->v, g->n, &p.sd);
		p.min = p.max = g->v[0];
		for (k = 1; k < g->n; k++) {
			p.min = g->v[k] < p.min ? g->v[k] : p.min;
			p.max = g->v[k] > p.max ? g->v[k] : p.max;
		}
		if (i && !gfxstat_ci_welch(h->g[i - 1].v, h->g[i - 1].n, g->v, g->n, 0.95, &ci)) {
			p.has_step = p.has_ci = 1;
			p.diff = ci.diff;
			p.lo = ci.lo;
			p.hi = ci.hi;
			p.significant = ci.lo > 0 || ci.hi < 0;
		} else if (i) {
			p.has_step = 1;
			p.diff = p.mean - gfxstat_mean_sd(h->g[i - 1].v, h->g[i - 1].n, &sd);
		}
		fprintf(o, "%s{\"key\":", i ? "," : "");
		cli_json_str(o, p.key);
		fprintf(o, ",\"runs\":%zu,\"mean\":", p.runs);
		json_num(o, p.mean);
		fputs(",\"sd\":", o);
		json_num(o, p.sd);
		fputs(",\"min\":", o);
		json_num(o, p.min);
		fputs(",\"max\":", o);
		json_num(o, p.max);
		fputs(",\"values\":[", o);
		for (k = 0; k < g->n; k++) {
			fputs(k ? "," : "", o);
			json_num(o, g->v[k]);
		}
		fputs("],\"step\":", o);
		if (!p.has_step) {
			fputs("null", o);
		} else {
			fputs("{\"diff\":", o);
			json_num(o, p.diff);
			fputs(",\"lo\":", o);
			json_num(o, p.has_ci ? p.lo : NAN);
			fputs(",\"hi\":", o);
			json_num(o, p.has_ci ? p.hi : NAN);
			fprintf(o, ",\"significant\":%s}", p.significant ? "true" : "false");
		}
		fputs("}", o);
		if (point)
			point(user, &p);
	}
	fputs("]}\n", o);
}

static const char trend_sql[] =
	"SELECT r.created_ns, r.label, m.app_version, m.value"
	" FROM runs r JOIN metrics m ON m.run_id = r.id"
	" WHERE m.is_app = 1 AND m.app = $1 AND m.metric = $2"
	" AND (CAST($3 AS TEXT) IS NULL OR r.device_serial = $3)"
	" AND (CAST($4 AS TEXT) IS NULL OR r.label = $4)"
	" ORDER BY r.created_ns, r.id";

static void hist_free(struct hist *h)
{
	size_t i;

	for (i = 0; i < h->ng; i++)
		free(h->g[i].v);
	free(h->g);
	h->g = NULL;
	h->ng = 0;
}

int cli_trend_json(FILE *o, struct cli_store *st, const struct cli_trend_query *q,
		   unsigned long *runs, void (*point)(void *user, const struct cli_trend_point *p),
		   void *user)
{
	struct hist h;
	const char *p[4];
	int rc;

	memset(&h, 0, sizeof(h));
	h.app = q->app;
	h.metric = q->metric;
	h.metric_id = cli_metric_find(q->metric, strlen(q->metric));
	h.by = q->by ? q->by : "label";
	p[0] = h.app;
	p[1] = h.metric;
	p[2] = q->device;
	p[3] = q->label;
	rc = cli_store_query(st, trend_sql, p, 4, trend_row, &h);
	if (!rc)
		json_trend(o, &h, point, user);
	if (runs)
		*runs = h.rows;
	hist_free(&h);
	return rc;
}

static const char apps_sql[] =
	"SELECT DISTINCT m.app FROM runs r JOIN metrics m ON m.run_id = r.id"
	" WHERE m.is_app = 1 AND (CAST($1 AS TEXT) IS NULL OR r.device_serial = $1)"
	" AND (CAST($2 AS TEXT) IS NULL OR r.label = $2) ORDER BY m.app";

static int app_row(void *user, int ncol, const char *const *c)
{
	struct hist *h = user;
	char **na;

	if (ncol < 1 || !c[0])
		return 0;
	na = realloc(h->apps, (h->napps + 1) * sizeof(*na));
	if (!na || !(na[h->napps] = strdup(c[0]))) {
		if (na)
			h->apps = na;
		return CLI_OUTPUT;
	}
	h->apps = na;
	h->napps++;
	return 0;
}

/*
 * Judge step gate @g on @app, whose groups of the gate's metric are in @h: the latest group
 * against the one before, by Welch's 95 % interval of the difference of their means.
 */
static void judge_step(const struct hist *h, const struct cli_gate *g, const char *app,
		       struct cli_gate_result *r)
{
	const struct cli_metric_def *m = &cli_metrics[g->metric];
	const struct group *prev, *last;
	struct gfxstat_ci ci;
	int up, down, want_up, want_down;

	if (!h->ng) {
		/* the gated app is not there: that is no pass */
		cli_gate_fail(g, app, r, "no run of %s with %s in the store%s", app, m->name,
			      h->device || h->label ? " that matches" : "");
		return;
	}
	memset(r, 0, sizeof(*r));
	r->gate = g;
	snprintf(r->app, sizeof(r->app), "%s", app);
	last = &h->g[h->ng - 1];
	if (h->ng < 2) {
		r->skipped = 1;
		snprintf(r->msg, sizeof(r->msg), "%s: one %s (%.60s, %zu run%s): no step yet",
			 m->name, h->by, last->key, last->n, last->n == 1 ? "" : "s");
		return;
	}
	prev = &h->g[h->ng - 2];
	if (gfxstat_ci_welch(prev->v, prev->n, last->v, last->n, 0.95, &ci)) {
		r->skipped = 1;
		snprintf(r->msg, sizeof(r->msg), "%s: too few runs for an interval (%.60s: %zu, "
			 "%.60s: %zu; 2 or more each)", m->name, prev->key, prev->n, last->key, last->n);
		return;
	}
	up = ci.lo > 0;
	down = ci.hi < 0;
	want_up = g->kind == CLI_GATE_STEP_UP ||
		  (g->kind == CLI_GATE_STEP_WORSE && !m->higher_better);
	want_down = g->kind == CLI_GATE_STEP_DOWN ||
		    (g->kind == CLI_GATE_STEP_WORSE && m->higher_better);
	r->failed = (up && want_up) || (down && want_down);
	/* keys cut at 60 bytes: the message fits a JUnit attribute and one terminal line */
	snprintf(r->msg, sizeof(r->msg), "%s %s by %+.3f (95%% CI %+.3f..%+.3f) from %.60s (%zu "
		 "runs, mean %.3f) to %.60s (%zu runs, mean %.3f)", m->name, up ? "stepped up" : down
		 ? "stepped down" : "did not step significantly", ci.diff, ci.lo, ci.hi, prev->key,
		 prev->n, ci.base, last->key, last->n, ci.new_);
}

/* trend --fail-if: every gate on every app; the verdicts printed and in --junit. */
static int trend_gates(struct hist *h, struct cli_store *st)
{
	struct cli_gate_result *res = NULL;
	size_t g, a, n = 0;
	int rc = CLI_OK, failed = 0;

	if (h->app) {
		h->apps = malloc(sizeof(*h->apps));
		if (!h->apps || !(h->apps[0] = strdup(h->app)))
			return CLI_OUTPUT;
		h->napps = 1;
	} else {
		const char *p[2] = { h->device, h->label };

		rc = cli_store_query(st, apps_sql, p, 2, app_row, h);
		if (rc)
			return rc;
	}
	res = calloc(h->ngates * (h->napps ? h->napps : 1), sizeof(*res));
	if (!res)
		return CLI_OUTPUT;
	for (g = 0; g < h->ngates && !rc; g++) {
		if (!h->napps) {
			cli_gate_fail(&h->gates[g], "", &res[n++], "no app has runs in the store%s",
				      h->device || h->label ? " that match" : "");
		}
		for (a = 0; a < h->napps && !rc; a++) {
			const char *p[4] = { h->apps[a], cli_metrics[h->gates[g].metric].name,
					     h->device, h->label };

			hist_free(h);
			rc = cli_store_query(st, trend_sql, p, 4, trend_row, h);
			if (!rc)
				judge_step(h, &h->gates[g], h->apps[a], &res[n++]);
		}
	}
	for (g = 0; g < n && !rc; g++) {
		const struct cli_gate_result *r = &res[g];

		printf("gate '%s' on %s: %s: %s\n", r->gate->expr,
		       cli_shown(r->app[0] ? r->app : "(all)"),
		       r->failed ? "failed" : r->skipped ? "skipped" : "passed", r->msg);
		if (r->failed) {
			cli_error("gate '%s' failed on %s: %s", r->gate->expr,
				  r->app[0] ? r->app : "(all)", r->msg);
			failed = 1;
		}
	}
	if (!rc && h->junit) {
		int e = cli_junit_write(h->junit, "gfxstat trend", res, n);

		if (e) {
			cli_error("cannot write '%s': %s", h->junit, strerror(e));
			rc = CLI_OUTPUT;
		}
	}
	free(res);
	return rc ? rc : failed ? CLI_JANK : CLI_OK;
}

static int run(const struct cli_cmd *cmd, int argc, char **argv, int trend)
{
	static const char hist_sql[] =
		"SELECT r.id, r.created_ns, r.label, r.device_serial, r.source, m.app,"
		" MAX(m.app_version), MAX(CASE WHEN m.metric = 'fps' THEN m.value END),"
		" MAX(CASE WHEN m.metric = 'janky_pct' THEN m.value END), r.session_path"
		" FROM runs r JOIN metrics m ON m.run_id = r.id"
		" WHERE m.is_app = 1 AND (CAST($1 AS TEXT) IS NULL OR m.app = $1)"
		" AND (CAST($2 AS TEXT) IS NULL OR r.device_serial = $2)"
		" AND (CAST($3 AS TEXT) IS NULL OR r.label = $3)"
		" GROUP BY r.id, r.created_ns, r.label, r.device_serial, r.source, m.app,"
		" r.session_path ORDER BY r.id, m.app";
	struct hist h;
	struct cli_store *st;
	int first, rc;

	memset(&h, 0, sizeof(h));
	h.by = "label";
	first = cli_parse(cmd, argc, argv, history_opt, &h);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;
	if (first < argc) {
		cli_error("unexpected operand '%s'", argv[first]);
		return CLI_USAGE;
	}
	if (h.json && !trend) {
		cli_error("--format goes with trend");
		return CLI_USAGE;
	}
	if (trend && !h.ngates && (!h.app || !h.metric)) {
		cli_error("trend needs --app PKG and --metric NAME (or --fail-if EXPR)");
		return CLI_USAGE;
	}
	if (trend && h.metric && !h.app) {
		cli_error("--metric needs --app PKG");
		return CLI_USAGE;
	}
	if (h.ngates && h.json) {
		cli_error("--fail-if prints its verdicts as text (and --junit FILE), not with --format "
			  "json");
		return CLI_USAGE;
	}
	if (h.junit && !h.ngates) {
		cli_error("--junit goes with --fail-if");
		return CLI_USAGE;
	}
	rc = cli_store_open(h.db, &st);
	if (rc)
		return rc;
	if (trend && h.json) {
		struct cli_trend_query q = { h.app, h.metric, h.by, h.device, h.label };

		rc = cli_trend_json(stdout, st, &q, NULL, NULL, NULL);
		cli_store_close(st);
		if (!rc && fflush(stdout)) {
			cli_error("cannot write standard output");
			rc = CLI_OUTPUT;
		}
		return rc;
	} else if (trend && h.metric) {
		const char *p[4] = { h.app, h.metric, h.device, h.label };

		rc = cli_store_query(st, trend_sql, p, 4, trend_row, &h);
		if (!rc && h.ng)
			print_trend(&h);
		if (!rc && !h.rows)
			printf("no runs saved that match\n");
		if (!rc && h.ngates)
			printf("\n");
		h.rows = 1; /* said */
	} else if (!trend) {
		const char *p[3] = { h.app, h.device, h.label };

		rc = cli_store_query(st, hist_sql, p, 3, history_row, &h);
	}
	if (!rc && !h.rows && !trend)
		printf("no runs saved%s\n", h.app || h.device || h.label ? " that match" : "");
	if (!rc && h.ngates)
		rc = trend_gates(&h, st);
	cli_store_close(st);
	hist_free(&h);
	for (first = 0; first < (int)h.napps; first++)
		free(h.apps[first]);
	free(h.apps);
	return rc;
}

int cmd_history(int argc, char **argv)
{
	return run(&history_cmd, argc, argv, 0);
}

int cmd_trend(int argc, char **argv)
{
	return run(&trend_cmd, argc, argv, 1);
}
