/* SPDX-License-Identifier: MIT */
/* gfxstat compare's pieces: the sides, segments and the block bootstrap, the output. */
#ifndef CMD_COMPARE_H
#define CMD_COMPARE_H

#include <stddef.h>

#include "cli_gate.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_compare.h"

#define LEVEL 0.95
#define MAX_GATES 32
#define MAX_SEGMENTS 8
/* segments: the half-width x 1.5, from 300 pairs of same-setting gfxsim recordings */
#define SEG_WIDEN 1.5

/* One key's (app's or layer's) frames, for the block bootstrap. */
struct keyed_frames {
	char *key;
	struct gfxstat_frame *f;
	size_t n, cap;
};

struct side {
	const char *path;
	char **recs;             /* the recordings' input files */
	size_t nrec;
	char **failed;           /* iterations marked failed, left out */
	size_t nfailed;
	struct gfxstat_metrics **m; /* one per recording */
	struct keyed_frames *keys;
	size_t nkeys;
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
	struct side *cur;        /* the side being read */
	int keep_frames;
	int lib_rc;
	struct gfxstat_metrics *cur_m;
};

struct result {
	const char *key;
	struct gfxstat_ci ci[CLI_M_COUNT];
	enum cli_verdict v[CLI_M_COUNT];
};

struct keyed_frames *cmp_key_get(struct side *s, const char *p, size_t n);
int cmp_key_match(const struct compare *c, const struct gfxstat_layer_metrics *l);
const struct gfxstat_layer_metrics *cmp_find_row(const struct compare *c,
						  const struct gfxstat_metrics *m, const char *key);

/*
 * cmp_point() - every metric of @k on side @s (the recording's own when it is one, else
 * its frames in order); cmp_boot_key() - the block bootstrap interval of every metric of one
 * key, into @res (whose base, new_ and diff are set). Return: 0 or a GFXSTAT_E_* code.
 */
int cmp_point(const struct compare *c, struct side *s, struct keyed_frames *k, double *out);
int cmp_boot_key(const struct compare *c, struct keyed_frames *kb, struct keyed_frames *kn,
		 struct result *res);
/* cmp_seg_key() - Welch's t over segments of time of every metric of one key, as above */
int cmp_seg_key(const struct compare *c, struct keyed_frames *kb, struct keyed_frames *kn,
		struct result *res);

void cmp_print_json(const struct compare *c, struct side *s, int boot, const struct result *res,
		    size_t nres, const struct cli_gate_result *g, size_t ng);
void cmp_print_table(const struct compare *c, struct side *s, int boot,
		     const struct result *res, size_t nres);

/* gfxstat compare (src/main.c's table) */
int cmd_compare(int argc, char **argv);

#endif
