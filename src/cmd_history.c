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
#include "cli_store.h"
#include "cmd_history.h"
#include "gfxstat/gfxstat_compare.h"

enum { OPT_DB = 256, OPT_APP, OPT_DEVICE, OPT_LABEL, OPT_METRIC, OPT_BY };

static const struct cli_opt history_opts[] = {
	{ OPT_DB, "db", "PATH|URL", "history store: SQLite file or postgresql:// URL" },
	{ OPT_APP, "app", "PKG", "only this package" },
	{ OPT_DEVICE, "device", "SERIAL", "only this device" },
	{ OPT_LABEL, "label", "L", "only runs with this label" },
	{ OPT_METRIC, "metric", "NAME", "trend: the metric (janky_pct, fps, p99_ms, ...)" },
	{ OPT_BY, "by", "label|version|day", "trend: how runs are grouped (label)" },
	{ 0, NULL, NULL, NULL },
};

static const struct cli_cmd history_cmd = {
	"gfxstat history",
	"gfxstat history [--db PATH|URL] [--app PKG] [--device SERIAL] [--label L]",
	"List the saved runs: when, label, device, source, and each app's FPS and janky %.",
	"Runs are saved by 'gfxstat compare --save' (and record/analyze --save). The store is\n"
	"$XDG_DATA_HOME/gfxstat/history.db unless --db names a SQLite file or a\n"
	"postgresql:// URL.\n\nExit status: 0 ok, 2 usage, 5 the store cannot be read.\n",
	history_opts,
};

static const struct cli_cmd trend_cmd = {
	"gfxstat trend",
	"gfxstat trend --app PKG --metric NAME [--by label|version|day] [--db PATH|URL]\n"
	"                     [--device SERIAL]",
	"One metric of one app over labels, versions or days, with each point's spread.",
	"Groups come in the order of their first run. A step between neighbours is marked\n"
	"significant ('*') when Welch's 95 % interval of the difference excludes 0 (both\n"
	"groups need >= 2 runs; see docs/compare.md).\n\n"
	"Exit status: 0 ok, 2 usage, 5 the store cannot be read.\n",
	history_opts,
};

struct hist {
	const char *db, *app, *device, *label, *metric, *by;
	int metric_id;
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
		printf("%-5s %-20s %-16s %-14s %-9s %-28s %-12s %8s %9s  %s\n", "run", "when (UTC)",
		       "label", "device", "source", "app", "version", "fps", "janky_pct",
		       "session");
	when_text(c[1], when, sizeof(when));
	printf("%-5s %-20s %-16s %-14s %-9s %-28s %-12s %8.2f %9.2f  %s\n", c[0], when,
	       or_dash(c[2]), or_dash(c[3]), or_dash(c[4]), or_dash(c[5]), or_dash(c[6]),
	       c[7] ? atof(c[7]) : NAN, c[8] ? atof(c[8]) : NAN, or_dash(c[9]));
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

	printf("app %s, %s by %s\n%-20s %5s %10s %9s %10s %10s  %s\n", h->app, h->metric, h->by,
	       h->by, "runs", "mean", "sd", "min", "max", "step from the previous (95% CI)");
	for (i = 0; i < h->ng; i++) {
		const struct group *g = &h->g[i];
		double sd, lo = g->v[0], hi = g->v[0], mean = gfxstat_mean_sd(g->v, g->n, &sd);
		struct gfxstat_ci ci;

		for (k = 1; k < g->n; k++) {
			lo = g->v[k] < lo ? g->v[k] : lo;
			hi = g->v[k] > hi ? g->v[k] : hi;
		}
		printf("%-20s %5zu %10.3f %9.3f %10.3f %10.3f", g->key, g->n, mean, sd, lo, hi);
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
	static const char trend_sql[] =
		"SELECT r.created_ns, r.label, m.app_version, m.value"
		" FROM runs r JOIN metrics m ON m.run_id = r.id"
		" WHERE m.is_app = 1 AND m.app = $1 AND m.metric = $2"
		" AND (CAST($3 AS TEXT) IS NULL OR r.device_serial = $3)"
		" AND (CAST($4 AS TEXT) IS NULL OR r.label = $4)"
		" ORDER BY r.created_ns, r.id";
	struct hist h;
	struct cli_store *st;
	size_t i;
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
	if (trend && (!h.app || !h.metric)) {
		cli_error("trend needs --app PKG and --metric NAME");
		return CLI_USAGE;
	}
	rc = cli_store_open(h.db, &st);
	if (rc)
		return rc;
	if (trend) {
		const char *p[4] = { h.app, h.metric, h.device, h.label };

		rc = cli_store_query(st, trend_sql, p, 4, trend_row, &h);
		if (!rc && h.ng)
			print_trend(&h);
	} else {
		const char *p[3] = { h.app, h.device, h.label };

		rc = cli_store_query(st, hist_sql, p, 3, history_row, &h);
	}
	if (!rc && !h.rows)
		printf("no runs saved%s\n", h.app || h.device || h.label ? " that match" : "");
	cli_store_close(st);
	for (i = 0; i < h.ng; i++)
		free(h.g[i].v);
	free(h.g);
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
