/* SPDX-License-Identifier: MIT */
/*
 * gfxstat record --source pageflip, the CLI's part: pageflip.csv (one row per poll of the
 * whole display's page-flip counter, flushed), its live view and the summary's "display"
 * member. The polling and judging are the library's (gfxstat_capture.h).
 */
#ifndef CMD_RECORD_PAGEFLIP_H
#define CMD_RECORD_PAGEFLIP_H

#include <stdint.h>
#include <stdio.h>

#include "gfxstat/gfxstat_capture.h"

struct cmd_pageflip {
	FILE *csv;
	uint64_t flips_1s;   /* since the last view */
	int64_t span_1s;
	int write_failed;    /* an errno value */
};

/* Create @dir/pageflip.csv with its header. Return: 0, or an errno value. */
int cmd_pageflip_open(struct cmd_pageflip *p, const char *dir);
/* One poll's row. */
void cmd_pageflip_sample(struct cmd_pageflip *p, const struct gfxstat_pageflip_sample *s);
/* The live view: a table on a terminal, else one plain line. */
void cmd_pageflip_view(struct cmd_pageflip *p, const struct gfxstat_pageflip_totals *t, int tty,
		       const char *prefix, const char *serial, const char *why, double secs);
/* Close pageflip.csv. Return: 0, or an errno value. */
int cmd_pageflip_close(struct cmd_pageflip *p);
/* The summary's ,"display":{...} member. */
void cmd_pageflip_json(FILE *f, const struct gfxstat_pageflip_totals *t);

#endif
