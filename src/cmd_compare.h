/* SPDX-License-Identifier: MIT */
/* gfxstat compare's pieces: the sides, segments and the block bootstrap, the output. */
#ifndef CMD_COMPARE_H
#define CMD_COMPARE_H

#include <stddef.h>

#include "cli_gate.h"
#include "cli_input.h"
#include "cli_json.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_compare.h"

#define LEVEL 0.95
#define MAX_GATES 32
#define MAX_SEGMENTS 8
/* segments: the half-width x 1.5, from 300 pairs of same-setting gfxsim recordings */
#define SEG_WIDEN 1.5
/* an FPS above this x the highest refresh rate in force is impossible (clock jitter aside) */
#define FPS_SLACK 1.02

/* One key's (app's or layer's) frames in one recording, by present, for the intervals. */
struct keyed_frames {
	char *key;
	struct gfxstat_frame *f;
	size_t n, cap;
	char **layers;           /* the frames' layer names (they borrow them) */
	size_t nlayers;
	int sorted;
};

/* One recording of a side, analysed on its own. */
struct rec {
	const char *path;        /* the file read (the side's inputs own it) */
	const char *name;        /* as given: the file, session or iteration folder */
	struct gfxstat_metrics *m;
	struct keyed_frames *keys;
	size_t nkeys;
	int64_t min_period;      /* the shortest refresh period of its frames, 0 if none */
};

struct side {
	const char *label;       /* "BASE" or "NEW" */
	char **args;             /* as given */
	size_t nargs;
	struct cli_inputs in;    /* the recordings, failed iterations named */
	struct rec *rec;
	size_t nrec;
};

/* One key on one side: the recordings that have frames of it. */
struct key_side {
	struct keyed_frames **k; /* its frames in each (NULL under the Welch method) */
	const struct gfxstat_layer_metrics **row; /* its metrics in each */
	struct rec **rec;
	size_t n;
};

struct compare {
	const char *app, *layer;
	int json, save;
	const char *junit, *db, *label;
	long resamples;
	unsigned long long seed;
	long long block_ns;
	int block;               /* --method block: the block bootstrap, not segments */
	long long seg_ns;        /* --segment: one segment per this much span (5 s) */
	struct cli_gate gates[MAX_GATES];
	size_t ngates;
	struct rec *cur;         /* the recording being read */
	int keep_frames;
	int lib_rc;
	struct cli_json_header hdr;
};

struct result {
	const char *key;
	struct key_side side[2]; /* BASE, NEW */
	struct gfxstat_ci ci[CLI_M_COUNT];
	enum cli_verdict v[CLI_M_COUNT];
};

int cmp_key_match(const struct compare *c, const struct gfxstat_layer_metrics *l);
const struct gfxstat_layer_metrics *cmp_find_row(const struct compare *c,
						  const struct gfxstat_metrics *m, const char *key);

/*
 * cmp_boot_key() - the block bootstrap interval of every metric of one key, into @res (whose
 * base, new_ and diff are set): blocks of time of every recording of a side, drawn together;
 * cmp_seg_key() - Welch's t over segments of time of each recording of a side, as above.
 * Return: 0 or a GFXSTAT_E_* code.
 */
int cmp_boot_key(const struct compare *c, const struct key_side *kb, const struct key_side *kn,
		 struct result *res);
int cmp_seg_key(const struct compare *c, const struct key_side *kb, const struct key_side *kn,
		struct result *res);

void cmp_print_json(const struct compare *c, const struct side *s, int welch,
		    const struct result *res, size_t nres, const struct cli_gate_result *g,
		    size_t ng);
void cmp_print_table(const struct compare *c, const struct side *s, int welch,
		     const struct result *res, size_t nres);

/* gfxstat compare (src/main.c's table) */
int cmd_compare(int argc, char **argv);

#endif
