/* SPDX-License-Identifier: MIT */
/* gfxstat compare's output: the table and --format json. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_json.h"
#include "cmd_compare.h"

/*
 * A number, or null. Values within 1e-9 of 0 are 0: the metrics are ms, FPS, % and counts,
 * and below that is only the rounding of a sum (a difference of equal means).
 */
static void json_num(double v)
{
	if (isnan(v) || isinf(v))
		printf("null");
	else
		printf("%.6g", fabs(v) < 1e-9 ? 0.0 : v);
}

static void json_side(const struct side *s)
{
	size_t i;

	printf("{\"path\":");
	if (s->nargs == 1) {
		cli_json_str(stdout, s->args[0]);
	} else {
		/* several inputs: their names joined, as a person would list them */
		char joined[1024];
		size_t o = 0;

		joined[0] = 0;
		for (i = 0; i < s->nargs && o + 1 < sizeof(joined); i++) {
			o += (size_t)snprintf(joined + o, sizeof(joined) - o, "%s%s", i ? " " : "",
					      s->args[i]);
			if (o >= sizeof(joined))
				o = sizeof(joined) - 1;
		}
		cli_json_str(stdout, joined);
	}
	printf(",\"inputs\":[");
	for (i = 0; i < s->nargs; i++) {
		printf(i ? "," : "");
		cli_json_str(stdout, s->args[i]);
	}
	printf("],\"recordings\":%zu,\"recording_paths\":[", s->nrec);
	for (i = 0; i < s->nrec; i++) {
		printf(i ? "," : "");
		cli_json_str(stdout, s->rec[i].path);
	}
	printf("],\"failed_iterations\":[");
	for (i = 0; i < s->in.nfailed; i++) {
		printf(i ? "," : "");
		cli_json_str(stdout, s->in.failed[i]);
	}
	printf("]}");
}

/* the key's values in each recording of one side that has it */
static void json_recordings(const struct key_side *ks)
{
	size_t q;
	int j;

	printf("[");
	for (q = 0; q < ks->n; q++) {
		const struct rec *r = ks->rec[q];

		printf("%s{\"path\":", q ? "," : "");
		cli_json_str(stdout, r->path);
		printf(",\"frames\":%llu,\"refresh_hz_max\":", (unsigned long long)ks->row[q]->frames);
		json_num(r->min_period > 0 ? 1e9 / (double)r->min_period : NAN);
		for (j = 0; j < CLI_M_COUNT; j++) {
			printf(",\"%s\":", cli_metrics[j].name);
			json_num(cli_metric_value(ks->row[q], j));
		}
		printf("}");
	}
	printf("]");
}

static const char *presence(const struct result *r)
{
	return r->side[0].n && r->side[1].n ? "both" : r->side[0].n ? "base" : r->side[1].n
		? "new" : "neither";
}

void cmp_print_json(const struct compare *c, const struct side *s, int welch,
		    const struct result *res, size_t nres, const struct cli_gate_result *g,
		    size_t ng)
{
	size_t i;
	int j;

	cli_json_begin(stdout, &c->hdr);
	printf("\"method\":\"%s\",\"level\":%.2f",
	       welch ? "welch" : c->block ? "block_bootstrap" : "welch_segments", LEVEL);
	if (!welch && !c->block)
		printf(",\"segment_s\":%.3f,\"max_segments\":%d,\"widen\":%.2f",
		       (double)c->seg_ns / 1e9, MAX_SEGMENTS, SEG_WIDEN);
	if (!welch && c->block)
		printf(",\"block_s\":%.3f,\"resamples\":%ld,\"seed\":%llu",
		       (double)c->block_ns / 1e9, c->resamples, c->seed);
	printf(",\"base\":");
	json_side(&s[0]);
	printf(",\"new\":");
	json_side(&s[1]);
	printf(",\"%s\":[", c->layer ? "layers" : "apps");
	for (i = 0; i < nres; i++) {
		printf("%s{\"name\":", i ? "," : "");
		cli_json_str(stdout, res[i].key);
		printf(",\"in\":\"%s\",\"base_recordings\":", presence(&res[i]));
		json_recordings(&res[i].side[0]);
		printf(",\"new_recordings\":");
		json_recordings(&res[i].side[1]);
		printf(",\"metrics\":[");
		for (j = 0; j < CLI_M_COUNT; j++) {
			const struct gfxstat_ci *ci = &res[i].ci[j];
			int have = ci->method != GFXSTAT_CI_NONE;

			printf("%s{\"name\":\"%s\",\"unit\":\"%s\",\"base\":", j ? "," : "",
			       cli_metrics[j].name, cli_metrics[j].unit);
			json_num(ci->base);
			printf(",\"new\":");
			json_num(ci->new_);
			printf(",\"diff\":");
			json_num(ci->diff);
			printf(",\"ci\":");
			if (have) {
				printf("[");
				json_num(ci->lo);
				printf(",");
				json_num(ci->hi);
				printf("]");
			} else {
				printf("null");
			}
			printf(",\"verdict\":\"%s\"}", cli_verdict_name(res[i].v[j]));
		}
		printf("]}");
	}
	printf("],\"gates\":[");
	for (i = 0; i < ng; i++) {
		const struct result *r = NULL;
		size_t q;

		for (q = 0; q < nres && !r; q++)
			if (!strcmp(res[q].key, g[i].app))
				r = &res[q];
		printf("%s{\"gate\":", i ? "," : "");
		cli_json_str(stdout, g[i].gate->expr);
		printf(",\"app\":");
		cli_json_str(stdout, g[i].app);
		printf(",\"metric\":\"%s\",\"value\":", cli_metrics[g[i].gate->metric].name);
		json_num(r ? r->ci[g[i].gate->metric].new_ : NAN);
		printf(",\"result\":\"%s\",\"message\":",
		       g[i].failed ? "failed" : g[i].skipped ? "skipped" : "passed");
		cli_json_str(stdout, g[i].msg);
		printf("}");
	}
	printf("]}\n");
}

/* a table cell; "-" where there is no value (no scroll) */
static void num(double v, int sign)
{
	if (isnan(v))
		printf(" %10s", "-");
	else if (sign)
		printf(" %+10.2f", fabs(v) < 1e-9 ? 0.0 : v);
	else
		printf(" %10.2f", v);
}

/* "1 recording (738 frames)", "3 recordings (738, 738, 738 frames)", of one side */
static void side_frames(const struct side *s, const struct key_side *ks)
{
	size_t q;

	printf("%zu of %zu recording%s", ks->n, s->nrec, s->nrec == 1 ? "" : "s");
	if (!ks->n)
		return;
	printf(" (");
	for (q = 0; q < ks->n && q < 8; q++)
		printf("%s%llu", q ? ", " : "", (unsigned long long)ks->row[q]->frames);
	printf("%s frames)", ks->n > 8 ? ", ..." : "");
}

static double max_hz(const struct result *r)
{
	double hz = 0;
	size_t q;
	int k;

	for (k = 0; k < 2; k++)
		for (q = 0; q < r->side[k].n; q++)
			if (r->side[k].rec[q]->min_period > 0 &&
			    1e9 / (double)r->side[k].rec[q]->min_period > hz)
				hz = 1e9 / (double)r->side[k].rec[q]->min_period;
	return hz;
}

void cmp_print_table(const struct compare *c, const struct side *s, int welch,
		     const struct result *res, size_t nres)
{
	size_t i, k;
	int j;

	for (k = 0; k < 2; k++) {
		printf("%s ", k ? "; new" : "base");
		for (i = 0; i < s[k].nargs; i++)
			printf("%s%s", i ? " " : "", cli_shown(s[k].args[i]));
		printf(": %zu recording%s", s[k].nrec, s[k].nrec == 1 ? "" : "s");
	}
	printf("\n");
	for (k = 0; k < 2; k++)
		for (i = 0; i < s[k].in.nfailed; i++)
			printf("left out: %s (the iteration failed)\n", cli_shown(s[k].in.failed[i]));
	if (!welch && !c->block)
		printf("95 %% interval: Welch's t over segments of time, one per %.3g s of each "
		       "recording (2 to %d), x %.2g for what differs between recordings (fewer "
		       "than 3 recordings a side; calibration: docs/compare.md)\n",
		       (double)c->seg_ns / 1e9, MAX_SEGMENTS, SEG_WIDEN);
	else if (!welch)
		printf("95 %% interval: block bootstrap, %.3g s blocks of time resampled %ld times "
		       "(frames inside a block are not independent; fewer than 3 recordings a "
		       "side)\n", (double)c->block_ns / 1e9, c->resamples);
	else
		printf("95 %% interval: Welch's t over the per-recording values\n");
	for (i = 0; i < nres; i++) {
		const struct result *r = &res[i];

		/* names from the input: never raw to the terminal (cli_shown()) */
		printf("\n%s %s\n  base: ", c->layer ? "layer" : "app", cli_shown(r->key));
		side_frames(&s[0], &r->side[0]);
		printf("; new: ");
		side_frames(&s[1], &r->side[1]);
		/* the rate every FPS here is bounded by; unknown when no frame carries one */
		if (max_hz(r) > 0)
			printf("; refresh up to %.1f Hz", max_hz(r));
		else
			printf("; refresh unknown");
		printf("\n");
		if (!r->side[0].n || !r->side[1].n)
			printf("  not compared: %s\n", !r->side[0].n && !r->side[1].n
			       ? "in neither BASE nor NEW" : !r->side[0].n ? "not in BASE"
			       : "not in NEW");
		printf("  %-17s %10s %10s %10s  %-23s %s\n", "metric", "base", "new", "diff",
		       "95% CI", "verdict");
		for (j = 0; j < CLI_M_COUNT; j++) {
			const struct gfxstat_ci *ci = &r->ci[j];
			char iv[64] = "-";

			if (ci->method != GFXSTAT_CI_NONE)
				snprintf(iv, sizeof(iv), "[%+.2f, %+.2f]",
					 fabs(ci->lo) < 1e-9 ? 0.0 : ci->lo,
					 fabs(ci->hi) < 1e-9 ? 0.0 : ci->hi);
			printf("  %-17s", cli_metrics[j].name);
			num(ci->base, 0);
			num(ci->new_, 0);
			num(ci->diff, 1);
			printf("  %-23s %s\n", iv, cli_verdict_name(r->v[j]));
		}
	}
}
