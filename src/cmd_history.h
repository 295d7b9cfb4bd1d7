/* SPDX-License-Identifier: MIT */
/* gfxstat history and gfxstat trend (src/main.c's table), and the trend for the report. */
#ifndef CMD_HISTORY_H
#define CMD_HISTORY_H

#include <stdio.h>

struct cli_store;

int cmd_history(int argc, char **argv);
int cmd_trend(int argc, char **argv);

/* One trend: @app and @metric required; @by "label" (NULL), "version" or "day"; the
 * others NULL for no filter. */
struct cli_trend_query {
	const char *app, *metric, *by, *device, *label;
};

/* One group of a trend, as cli_trend_json() prints it (valid during the callback only). */
struct cli_trend_point {
	const char *key;
	size_t runs;
	const double *values;      /* @runs values, in run order */
	double mean, sd, min, max;
	int has_step;              /* not the first group: @diff is the step from the previous */
	int has_ci;                /* both groups have >= 2 runs: @lo, @hi is Welch's 95 % */
	int significant;           /* the interval excludes 0 */
	double diff, lo, hi;
};

/*
 * cli_trend_json() - `gfxstat trend --format json` of @q on the open store @st, into @o
 * (one line): the common header, app, metric, unit, by, and per group its key, runs, mean,
 * sd, min, max, values and the step from the previous group (Welch 95 %, significant)
 * @point: called with each group as it is printed (may be NULL)
 * Return: CLI_OK, or CLI_OUTPUT after printing why; *@runs (may be NULL) gets the runs found.
 */
int cli_trend_json(FILE *o, struct cli_store *st, const struct cli_trend_query *q,
		   unsigned long *runs, void (*point)(void *user, const struct cli_trend_point *p),
		   void *user);

#endif
