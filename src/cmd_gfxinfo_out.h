/* SPDX-License-Identifier: MIT */
/*
 * gfxstat gfxinfo's run state, shared by the command (cmd_gfxinfo.c: options, dumpsys's own
 * text, the comparison) and its machine-readable writers (cmd_gfxinfo_out.c: --format csv,
 * --format json, --rows). CLI-only.
 */
#ifndef CMD_GFXINFO_OUT_H
#define CMD_GFXINFO_OUT_H

#include <stdint.h>
#include <stdio.h>

#include "cli_json.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_gfxinfo.h"

/* a summary seen earlier, to give the frame rate between two dumps of one window */
struct gfxinfo_seen {
	char *key; /* pid-independent: app, kind, window name */
	struct gfxstat_gfxinfo_block b; /* its strings are not valid after the callback */
};

struct gfxinfo_run {
	struct gfxinfo_seen *seen;
	size_t nseen, capseen;
	struct gfxstat_gfxinfo_opts o;
	struct gfxstat_gfxinfo *g;
	int frames, csv, all;
	int json;                 /* --format json: blocks go to @jo until the header is known */
	FILE *jo;
	char *jbody;
	size_t njbody, jblocks;
	struct cli_json_header hdr;
	int lib_rc;
	int32_t last_pid;
	int header_done;
	uint64_t row_no;
	unsigned long long blocks_shown, content, mismatches;
};

/* How far a window's rows cover the frames its dump counts. */
enum gfxinfo_cover {
	COVER_NONE,    /* nothing to compare */
	COVER_ALL,     /* the rows hold every counted frame: all must agree */
	COVER_PART,    /* the dump counts more frames than the ring holds */
	COVER_MORE,    /* the rows hold more frames than the dump counts */
};

enum gfxinfo_cover cmd_gfxinfo_coverage(const struct gfxstat_gfxinfo_block *b);

/* --format csv: the header line, then one line per block */
void cmd_gfxinfo_csv_header(void);
void cmd_gfxinfo_csv_block(const struct gfxstat_gfxinfo_block *b);
/* --rows: the header line, then one line per framestats row */
void cmd_gfxinfo_rows_header(void);
void cmd_gfxinfo_row(struct gfxinfo_run *r, const struct gfxstat_frame *f);
/* --format json: one block into r->jo; at the end the document (header, then the blocks) */
void cmd_gfxinfo_json_block(struct gfxinfo_run *r, const struct gfxstat_gfxinfo_block *b);
void cmd_gfxinfo_json_document(struct gfxinfo_run *r, char **paths, int n,
			       unsigned long long bytes);

#endif
