/* SPDX-License-Identifier: MIT */
/* analyze's text report (cmd_analyze_text.c): the answer first, other tools' metrics on demand. */
#ifndef CMD_ANALYZE_H
#define CMD_ANALYZE_H

#include "gfxstat/gfxstat.h"

/* The metric families of the other tools, shown with --all or --metrics LIST. */
enum {
	AN_FPS = 1 << 0,      /* cadence, FPS active/wall, GameBench median and low 1% */
	AN_PERFDOG = 1 << 1,
	AN_ANDROID = 1 << 2,  /* slow, frozen, the source's own verdicts */
	AN_SEED = 1 << 3,
	AN_APPLE = 1 << 4,
	AN_MATRIX = 1 << 5,
	AN_TAOBAO = 1 << 6,
	AN_SCROLLS = 1 << 7,
	AN_ALL = (1 << 8) - 1,
};

/*
 * cli_analyze_families() - parse --metrics LIST ("perfdog,seed" or "all") into AN_* bits
 * Return: 0, or -1 after printing which name is unknown.
 */
int cli_analyze_families(const char *list, unsigned *out);

/* The cause recorded for janky frame @j of layer @l, or NULL. */
typedef const char *(*cli_cause_fn)(void *user, const struct gfxstat_layer_metrics *l,
				   const struct gfxstat_janky_frame *j);

/* The text report: per app a headline, then per layer; @families adds the other tools'. */
void cli_analyze_text(const struct gfxstat_metrics *m, unsigned families, cli_cause_fn cause,
		      void *user);

/* analyze --fail-if / --junit / --save (cmd_analyze_gate.c) */
struct cli_gate;
struct cli_analyze_gates {
	struct cli_gate *gates;
	size_t n;
	const char *junit;   /* --junit FILE */
	int save;            /* --save */
	const char *db;      /* --db PATH or URL */
	const char *label;   /* --label TEXT */
};

/* Parse one --fail-if; return 0, or -1 after a usage error naming the metrics. */
int cli_analyze_gate_add(struct cli_analyze_gates *g, const char *expr);
void cli_analyze_gates_free(struct cli_analyze_gates *g);
/* Judge every app (or layer, when no app is named): CLI_OK, CLI_JANK or CLI_OUTPUT. */
int cli_analyze_gates_run(const struct cli_analyze_gates *g, const struct gfxstat_metrics *m);
/* --save: store the run in the history; CLI_OK or the store's exit code. */
int cli_analyze_save(const struct cli_analyze_gates *g, const struct gfxstat_metrics *m,
		     const char *input, const char *format);

#endif
