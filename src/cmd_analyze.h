/* SPDX-License-Identifier: MIT */
/* analyze's text report (cmd_analyze_text.c): the answer first, other tools' metrics on demand. */
#ifndef CMD_ANALYZE_H
#define CMD_ANALYZE_H

#include <stdio.h>

#include "cli_gate.h"
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

/*
 * The cause recorded for janky frame @j of layer or app @l of @m, or NULL; *@on is set to the
 * layer the frame was on (for an app: one of its layers; NULL when none is known).
 */
typedef const char *(*cli_cause_fn)(void *user, const struct gfxstat_metrics *m,
				   const struct gfxstat_layer_metrics *l,
				   const struct gfxstat_janky_frame *j, const char **on);

/* A line under each headline of the text report (the "why" of its janky frames). */
typedef void (*cli_headline_fn)(void *user, const struct gfxstat_metrics *m,
				const struct gfxstat_layer_metrics *l);
/* Set it, for every later cli_analyze_text() (NULL: none). */
void cli_analyze_text_why(cli_headline_fn fn, void *user);

/* The idle wait of the run (--wait), for every later cli_analyze_text(): an app's layers
 * apart by one or more are windows of different times (the time its frames cover). */
void cli_analyze_text_wait(int64_t wait_ns);

/* The text report: per app a headline, then per layer; @families adds the other tools'. */
/* The start of the recording, the origin of the times analyze shows: the first present of any
 * layer (the HTML report's gx_html_time_origin()), 0 when no frame has one. */
int64_t cli_analyze_origin(const struct gfxstat_metrics *m);

void cli_analyze_text(const struct gfxstat_metrics *m, unsigned families, cli_cause_fn cause,
		      void *user);

/* analyze --fail-if / --junit / --save (cmd_analyze_gate.c) */
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

/* One recording of the run (a file or files read together, a session, an iteration). */
struct cli_analyze_rec {
	const char *name;            /* as given: the file, session or iteration folder */
	const char *input;           /* its first file */
	const char *format;          /* what its last file was read as, or NULL */
	struct gfxstat_metrics *m;   /* NULL when it could not be read */
};

/* An app (or, when no recording names one, a layer) over the recordings. */
struct cli_analyze_key {
	const char *name;
	int is_app;
	size_t n;                    /* recordings with frames of it */
	size_t nv[CLI_M_COUNT];      /* recordings with a value of each decision metric */
	double mean[CLI_M_COUNT], sd[CLI_M_COUNT];
	double min[CLI_M_COUNT], max[CLI_M_COUNT];
};

/*
 * cli_analyze_keys() - every app of @nr recordings (every layer when none names an app; only
 * @app when given, whether it has frames or not) with the mean, sd, min and max of each
 * decision metric (cli_gate.h) over the recordings that have it
 * Return: the number of keys in *@out (free() it), or (size_t)-1 when out of memory.
 */
size_t cli_analyze_keys(const struct cli_analyze_rec *r, size_t nr, const char *app,
			struct cli_analyze_key **out);
/* The row of @k in recording @r, or NULL when it has no frames of it. */
const struct gfxstat_layer_metrics *cli_analyze_row(const struct cli_analyze_rec *r,
						     const struct cli_analyze_key *k);

/*
 * cli_analyze_gates_run() - judge every key of cli_analyze_keys() on its mean; a gated
 * @app with no frames (in any recording) fails. Return: CLI_OK, CLI_JANK or CLI_OUTPUT.
 */
int cli_analyze_gates_run(const struct cli_analyze_gates *g, const struct cli_analyze_rec *r,
			  size_t nr, const char *app);
/* --save: store one recording in the history; CLI_OK or the store's exit code. */
int cli_analyze_save(const struct cli_analyze_gates *g, const struct gfxstat_metrics *m,
		     const char *input, const char *format);

/* Several recordings: the mean +- sd over them, as a table, or as JSON's "summary" array. */
void cli_analyze_summary_text(const struct cli_analyze_rec *r, size_t nr, const char *app);
void cli_analyze_summary_json(FILE *o, const struct cli_analyze_rec *r, size_t nr,
			      const char *app);

#endif
