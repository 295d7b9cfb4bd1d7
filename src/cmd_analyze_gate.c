/* SPDX-License-Identifier: MIT */
/* analyze --fail-if / --junit / --save: gates on one run's metrics, and its history. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_gate.h"
#include "cli_store.h"
#include "cmd_analyze.h"
#include "gfxstat/gfxstat.h"

int cli_analyze_gate_add(struct cli_analyze_gates *g, const char *expr)
{
	struct cli_gate *ng;

	ng = realloc(g->gates, (g->n + 1) * sizeof(*ng));
	if (!ng) {
		cli_error("out of memory");
		return -1;
	}
	g->gates = ng;
	/* no base here: "regressed" and "worse_by" belong to compare */
	if (cli_gate_parse(expr, 0, &g->gates[g->n]))
		return -1;
	g->n++;
	return 0;
}

void cli_analyze_gates_free(struct cli_analyze_gates *g)
{
	free(g->gates);
	g->gates = NULL;
	g->n = 0;
}

/* Gates judge apps; a recording whose layers name no app is judged per layer. */
static int judged(const struct gfxstat_metrics *m, size_t i, int any_app)
{
	const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(m, i);

	return any_app ? l->is_app : !l->is_app;
}

int cli_analyze_gates_run(const struct cli_analyze_gates *g, const struct gfxstat_metrics *m)
{
	size_t n = gfxstat_metrics_count(m), i, k, nres = 0, cap;
	struct cli_gate_result *res;
	int any_app = 0, failed = 0, rc = CLI_OK;

	if (!g->n)
		return CLI_OK;
	for (i = 0; i < n; i++)
		any_app |= gfxstat_metrics_get(m, i)->is_app;
	cap = g->n * (n ? n : 1);
	res = calloc(cap, sizeof(*res));
	if (!res) {
		cli_error("out of memory");
		return CLI_OUTPUT;
	}
	for (k = 0; k < g->n; k++) {
		for (i = 0; i < n; i++) {
			const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(m, i);
			struct cli_gate_input in;

			if (!judged(m, i, any_app))
				continue;
			memset(&in, 0, sizeof(in));
			in.app = l->is_app ? l->app : l->name;
			in.new_value = cli_metric_value(l, g->gates[k].metric);
			cli_gate_eval(&g->gates[k], &in, &res[nres]);
			if (res[nres].failed) {
				failed++;
				cli_error("gate '%s' failed on %s: %s", g->gates[k].expr, in.app,
					  res[nres].msg);
			}
			nres++;
		}
	}
	if (g->junit) {
		int e = cli_junit_write(g->junit, "gfxstat analyze", res, nres);

		if (e) {
			cli_error("cannot write %s: %s", g->junit, strerror(e));
			rc = CLI_OUTPUT;
		}
	}
	free(res);
	if (rc == CLI_OK && failed)
		rc = CLI_JANK;
	return rc;
}

int cli_analyze_save(const struct cli_analyze_gates *g, const struct gfxstat_metrics *m,
		     const char *input, const char *format)
{
	struct cli_store *st = NULL;
	struct cli_store_run run;
	int64_t id = 0;
	int rc;

	if (!g->save)
		return CLI_OK;
	memset(&run, 0, sizeof(run));
	run.label = g->label;
	run.source = format;
	run.session_path = input;
	run.kind = "analyze";
	rc = cli_store_open(g->db, &st);
	if (rc)
		return rc;
	rc = cli_store_save_all(st, &run, m, &id);
	cli_store_close(st);
	if (rc == CLI_OK && !cli_quiet)
		cli_info("saved as run %lld", (long long)id);
	return rc;
}
