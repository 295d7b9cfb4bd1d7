/* SPDX-License-Identifier: MIT */
/*
 * analyze --fail-if / --junit / --save: gates on a run's metrics (the mean over its
 * recordings when it has several, each analysed on its own), and its history.
 */
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
#include "gfxstat/gfxstat_compare.h"

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
	if (cli_gate_parse(expr, CLI_GATE_ONE_RUN, &g->gates[g->n]))
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

/* The row of key @name (an app when @is_app) in @m, or NULL. */
static const struct gfxstat_layer_metrics *row_of(const struct gfxstat_metrics *m,
						  const char *name, int is_app)
{
	size_t i, n = m ? gfxstat_metrics_count(m) : 0;

	for (i = 0; i < n; i++) {
		const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(m, i);

		if (l->is_app == is_app && !strcmp(l->name, name) && l->frames)
			return l;
	}
	return NULL;
}

static int add_key(struct cli_analyze_key **k, size_t *n, const char *name, int is_app)
{
	struct cli_analyze_key *nk;
	size_t i;

	for (i = 0; i < *n; i++)
		if ((*k)[i].is_app == is_app && !strcmp((*k)[i].name, name))
			return 0;
	nk = realloc(*k, (*n + 1) * sizeof(*nk));
	if (!nk)
		return -1;
	*k = nk;
	memset(&nk[*n], 0, sizeof(*nk));
	nk[*n].name = name;
	nk[(*n)++].is_app = is_app;
	return 0;
}

size_t cli_analyze_keys(const struct cli_analyze_rec *r, size_t nr, const char *app,
			struct cli_analyze_key **out)
{
	struct cli_analyze_key *k = NULL;
	size_t nk = 0, i, q, n;
	int any_app = 0, j;
	double *v = malloc((nr ? nr : 1) * sizeof(*v));

	*out = NULL;
	if (!v)
		return (size_t)-1;
	for (i = 0; i < nr; i++)
		for (q = 0, n = r[i].m ? gfxstat_metrics_count(r[i].m) : 0; q < n; q++)
			any_app |= gfxstat_metrics_get(r[i].m, q)->is_app;
	/* gates and summaries judge apps; a run whose layers name no app, its layers; --app
	 * is a key whether it has frames or not */
	if (app && add_key(&k, &nk, app, 1))
		goto nomem;
	for (i = 0; i < nr && !app; i++)
		for (q = 0, n = r[i].m ? gfxstat_metrics_count(r[i].m) : 0; q < n; q++) {
			const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(r[i].m, q);

			if (l->is_app == any_app && l->frames && add_key(&k, &nk, l->name, l->is_app))
				goto nomem;
		}
	for (q = 0; q < nk; q++) {
		struct cli_analyze_key *key = &k[q];

		for (i = 0; i < nr; i++)
			key->n += row_of(r[i].m, key->name, key->is_app) != NULL;
		for (j = 0; j < CLI_M_COUNT; j++) {
			size_t nv = 0;

			for (i = 0; i < nr; i++) {
				const struct gfxstat_layer_metrics *l =
					row_of(r[i].m, key->name, key->is_app);
				double x = l ? cli_metric_value(l, j) : NAN;

				if (!isnan(x))
					v[nv++] = x;
			}
			key->nv[j] = nv;
			key->mean[j] = key->sd[j] = key->min[j] = key->max[j] = NAN;
			if (!nv)
				continue;
			key->mean[j] = gfxstat_mean_sd(v, nv, &key->sd[j]);
			key->min[j] = key->max[j] = v[0];
			for (i = 1; i < nv; i++) {
				key->min[j] = v[i] < key->min[j] ? v[i] : key->min[j];
				key->max[j] = v[i] > key->max[j] ? v[i] : key->max[j];
			}
		}
	}
	free(v);
	*out = k;
	return nk;
nomem:
	free(v);
	free(k);
	return (size_t)-1;
}

const struct gfxstat_layer_metrics *cli_analyze_row(const struct cli_analyze_rec *r,
						     const struct cli_analyze_key *k)
{
	return row_of(r->m, k->name, k->is_app);
}

int cli_analyze_gates_run(const struct cli_analyze_gates *g, const struct cli_analyze_rec *r,
			  size_t nr, const char *app)
{
	struct cli_analyze_key *keys;
	size_t nk, i, k, q, nres = 0;
	struct cli_gate_result *res;
	int failed = 0, rc = CLI_OK;

	if (!g->n)
		return CLI_OK;
	nk = cli_analyze_keys(r, nr, app, &keys);
	res = nk == (size_t)-1 ? NULL : calloc(g->n * (nk ? nk : 1), sizeof(*res));
	if (!res) {
		free(nk == (size_t)-1 ? NULL : keys);
		cli_error("out of memory");
		return CLI_OUTPUT;
	}
	for (k = 0; k < g->n; k++) {
		for (i = 0; i < nk; i++) {
			const struct cli_analyze_key *key = &keys[i];
			struct cli_gate_result *out = &res[nres++];

			for (q = 0; q < nr && cli_analyze_row(&r[q], key); q++)
				;
			if (!key->n) {
				/* the gated app is not there: that is no pass */
				cli_gate_fail(&g->gates[k], key->name, out, "%s has no frames in %s",
					      key->name, nr == 1 ? r[0].name : "any recording");
			} else if (app && q < nr) {
				cli_gate_fail(&g->gates[k], key->name, out, "%s has no frames in %zu "
					      "of the %zu recordings (%s)", key->name, nr - key->n, nr,
					      r[q].name);
			} else {
				struct cli_gate_input in;
				size_t len;

				memset(&in, 0, sizeof(in));
				in.app = key->name;
				in.new_value = key->mean[g->gates[k].metric];
				cli_gate_eval(&g->gates[k], &in, out);
				len = strlen(out->msg);
				if (!out->skipped && key->n > 1 && len < sizeof(out->msg))
					snprintf(out->msg + len, sizeof(out->msg) - len,
						 " (the mean of %zu recordings)",
						 key->nv[g->gates[k].metric]);
			}
			if (out->failed) {
				failed++;
				cli_error("gate '%s' failed on %s: %s", g->gates[k].expr, key->name,
					  out->msg);
			} else if (out->skipped) {
				cli_warn("gate '%s' skipped on %s: %s", g->gates[k].expr, key->name,
					 out->msg);
			}
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
	free(keys);
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

static void json_num(FILE *o, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", o);
	else
		fprintf(o, "%.6g", fabs(v) < 1e-9 ? 0.0 : v);
}

void cli_analyze_summary_json(FILE *o, const struct cli_analyze_rec *r, size_t nr,
			      const char *app)
{
	struct cli_analyze_key *k;
	size_t nk = cli_analyze_keys(r, nr, app, &k), i, q;
	int j;

	if (nk == (size_t)-1)
		nk = 0;
	fputs("[", o);
	for (i = 0; i < nk; i++) {
		fprintf(o, "%s\n{\"kind\":\"%s\",\"name\":", i ? "," : "", k[i].is_app ? "app" : "layer");
		cli_json_str(o, k[i].name);
		fprintf(o, ",\"recordings\":%zu,\"frames\":[", k[i].n);
		for (q = 0; q < nr; q++) {
			const struct gfxstat_layer_metrics *l = cli_analyze_row(&r[q], &k[i]);

			fputs(q ? "," : "", o);
			if (l)
				fprintf(o, "%llu", (unsigned long long)l->frames);
			else
				fputs("null", o);
		}
		fputs("],\"metrics\":{", o);
		for (j = 0; j < CLI_M_COUNT; j++) {
			fprintf(o, "%s\"%s\":{\"n\":%zu,\"mean\":", j ? "," : "", cli_metrics[j].name,
				k[i].nv[j]);
			json_num(o, k[i].mean[j]);
			fputs(",\"sd\":", o);
			json_num(o, k[i].sd[j]);
			fputs(",\"min\":", o);
			json_num(o, k[i].min[j]);
			fputs(",\"max\":", o);
			json_num(o, k[i].max[j]);
			fputs("}", o);
		}
		fputs("}}", o);
	}
	fputs("]", o);
	free(k);
}
