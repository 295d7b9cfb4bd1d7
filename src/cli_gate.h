/* SPDX-License-Identifier: MIT */
/*
 * The metrics people decide on (compare, gates, history), --fail-if gates and their JUnit XML.
 * Shared by `compare` and, through the lead's wiring, `analyze --fail-if/--junit`.
 */
#ifndef CLI_GATE_H
#define CLI_GATE_H

#include <stddef.h>

#if defined(__GNUC__)
#define CLI_GATE_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CLI_GATE_PRINTF(a, b)
#endif

struct gfxstat_layer_metrics;

enum cli_metric {
	CLI_M_FPS, CLI_M_JANKY_PCT, CLI_M_P50, CLI_M_P90, CLI_M_P99, CLI_M_JANK_PER_MIN,
	CLI_M_BIG_JANK_PER_MIN, CLI_M_HITCH, CLI_M_SCROLL_FPS, CLI_M_FROZEN, CLI_M_COUNT
};

struct cli_metric_def {
	const char *name;   /* the name in gates, JSON and the history store */
	const char *unit;
	int higher_better;  /* 1: FPS; 0: everything else */
	const char *doc;
};

extern const struct cli_metric_def cli_metrics[CLI_M_COUNT];

/* The metric's value for one layer or app; NAN when it has none (no scroll: no scroll FPS). */
double cli_metric_value(const struct gfxstat_layer_metrics *l, int metric);
/* The metric called @name (length @n), or -1. */
int cli_metric_find(const char *name, size_t n);

enum cli_gate_kind {
	CLI_GATE_ABS,       /* fps<55: on the new run's value */
	CLI_GATE_REGRESSED, /* janky_pct regressed: significantly worse than the base */
	CLI_GATE_WORSE_BY,  /* fps worse_by>3%: significantly worse, by more than this */
	CLI_GATE_STEP_UP,   /* trend: janky_pct stepped_up: the latest group significantly up */
	CLI_GATE_STEP_DOWN, /* trend: fps stepped_down */
	CLI_GATE_STEP_WORSE, /* trend: up or down, whichever is worse for the metric */
};

/* What a gate is judged against: one run (analyze), a base (compare), a history (trend). */
enum cli_gate_mode { CLI_GATE_ONE_RUN, CLI_GATE_BASE, CLI_GATE_HISTORY };

struct cli_gate {
	char expr[128];     /* as given */
	int metric;
	enum cli_gate_kind kind;
	char op[3];         /* "<", "<=", ">", ">=" (ABS and WORSE_BY, which takes ">" only) */
	double value;
	int percent;        /* WORSE_BY: value is a % of the base */
};

/*
 * cli_gate_parse() - parse a --fail-if expression (see docs/compare.md for the grammar);
 * @mode: CLI_GATE_ONE_RUN (analyze: METRIC<N and the like), CLI_GATE_BASE (compare: those,
 * 'regressed' and 'worse_by'), CLI_GATE_HISTORY (trend: 'stepped_up', 'stepped_down',
 * 'stepped_worse' only)
 * Return: 0, or -1 after printing a usage error that lists the metric names.
 */
int cli_gate_parse(const char *expr, enum cli_gate_mode mode, struct cli_gate *g);

enum cli_verdict { CLI_V_NA, CLI_V_SAME, CLI_V_BETTER, CLI_V_WORSE };
const char *cli_verdict_name(enum cli_verdict v);

/* What a gate sees of one app and one metric (have_base 0 for analyze). */
struct cli_gate_input {
	const char *app;
	double new_value;   /* NAN: the run has no value */
	int have_base;
	double base_value, diff, lo, hi;
	enum cli_verdict verdict;
};

struct cli_gate_result {
	const struct cli_gate *gate;
	char app[200];
	int failed, skipped;
	char msg[300];      /* why it failed or was skipped, or the numbers that passed */
};

/* cli_gate_eval() - judge @in by @g (whose metric @in is for), into @r. */
void cli_gate_eval(const struct cli_gate *g, const struct cli_gate_input *in,
		   struct cli_gate_result *r);

/*
 * cli_gate_fail() - @g failed on @app for a reason other than its numbers (the gated app has
 * no frames, or is not on both sides), said by @fmt, into @r
 */
void cli_gate_fail(const struct cli_gate *g, const char *app, struct cli_gate_result *r,
		   const char *fmt, ...) CLI_GATE_PRINTF(4, 5);

/*
 * cli_junit_write() - JUnit XML at @path: one testsuite @suite, one testcase per result
 * (classname "gfxstat.<app>", name the gate), <failure> or <skipped> as judged
 * Return: 0, or an errno value.
 */
int cli_junit_write(const char *path, const char *suite, const struct cli_gate_result *r,
		    size_t n);

#endif
