/* SPDX-License-Identifier: MIT */
/* gfxstat compare's output: the table and --format json. */
#include <math.h>
#include <stdio.h>

#include "cli.h"
#include "cmd_compare.h"

static void json_num(double v)
{
	if (isnan(v))
		printf("null");
	else
		printf("%.6g", v);
}

void cmp_print_json(const struct compare *c, struct side *s, int boot,
		       const struct result *res, size_t nres, const struct cli_gate_result *g,
		       size_t ng)
{
	size_t i, k;
	int j;

	printf("{\"method\":\"%s\",\"level\":%.2f",
	       !boot ? "welch" : c->block ? "block_bootstrap" : "welch_segments", LEVEL);
	if (boot && !c->block)
		printf(",\"segment_s\":%.3f,\"max_segments\":%d,\"widen\":%.2f",
		       (double)c->seg_ns / 1e9, MAX_SEGMENTS, SEG_WIDEN);
	if (boot && c->block)
		printf(",\"block_s\":%.3f,\"resamples\":%ld,\"seed\":%llu",
		       (double)c->block_ns / 1e9, c->resamples, c->seed);
	for (k = 0; k < 2; k++) {
		printf(",\"%s\":{\"path\":", k ? "new" : "base");
		cli_json_str(stdout, s[k].path);
		printf(",\"recordings\":%zu,\"failed_iterations\":[", s[k].nrec);
		for (i = 0; i < s[k].nfailed; i++) {
			printf(i ? "," : "");
			cli_json_str(stdout, s[k].failed[i]);
		}
		printf("]}");
	}
	printf(",\"%s\":[", c->layer ? "layers" : "apps");
	for (i = 0; i < nres; i++) {
		printf("%s{\"name\":", i ? "," : "");
		cli_json_str(stdout, res[i].key);
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
		printf("%s{\"gate\":", i ? "," : "");
		cli_json_str(stdout, g[i].gate->expr);
		printf(",\"app\":");
		cli_json_str(stdout, g[i].app);
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
		printf(" %+10.2f", v);
	else
		printf(" %10.2f", v);
}

void cmp_print_table(const struct compare *c, struct side *s, int boot,
			const struct result *res, size_t nres)
{
	size_t i, k;
	int j;

	printf("base %s: %zu recording%s; new %s: %zu recording%s\n", s[0].path, s[0].nrec,
	       s[0].nrec == 1 ? "" : "s", s[1].path, s[1].nrec, s[1].nrec == 1 ? "" : "s");
	for (k = 0; k < 2; k++)
		for (i = 0; i < s[k].nfailed; i++)
			printf("left out: %s (the iteration failed)\n", s[k].failed[i]);
	if (boot && !c->block)
		printf("95 %% interval: Welch's t over segments of time, one per %.3g s of each "
		       "recording (2 to %d), x %.2g for what differs between recordings (fewer "
		       "than 3 recordings a side; calibration: docs/compare.md)\n",
		       (double)c->seg_ns / 1e9, MAX_SEGMENTS, SEG_WIDEN);
	else if (boot)
		printf("95 %% interval: block bootstrap, %.3g s blocks of time resampled %ld times "
		       "(frames inside a block are not independent; fewer than 3 recordings a "
		       "side)\n", (double)c->block_ns / 1e9, c->resamples);
	else
		printf("95 %% interval: Welch's t over the per-recording values\n");
	for (i = 0; i < nres; i++) {
		printf("\n%s %s\n  %-17s %10s %10s %10s  %-23s %s\n", c->layer ? "layer" : "app",
		       res[i].key, "metric", "base", "new", "diff", "95% CI", "verdict");
		for (j = 0; j < CLI_M_COUNT; j++) {
			const struct gfxstat_ci *ci = &res[i].ci[j];
			char iv[64] = "-";

			if (ci->method != GFXSTAT_CI_NONE)
				snprintf(iv, sizeof(iv), "[%+.2f, %+.2f]", ci->lo, ci->hi);
			printf("  %-17s", cli_metrics[j].name);
			num(ci->base, 0);
			num(ci->new_, 0);
			num(ci->diff, 1);
			printf("  %-23s %s\n", iv, cli_verdict_name(res[i].v[j]));
		}
	}
}

