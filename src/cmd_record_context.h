/* SPDX-License-Identifier: MIT */
/*
 * gfxstat record's device context, the CLI's part: context.csv (one row per sample, flushed),
 * the summary's "context" member (min, mean and max of every series, and what the device
 * refused). The sampling is the library's (gfxstat_capture_context()).
 */
#ifndef CMD_RECORD_CONTEXT_H
#define CMD_RECORD_CONTEXT_H

#include <stdio.h>

#include "gfxstat/gfxstat_capture.h"

struct cmd_context {
	FILE *csv;
	int write_failed;    /* an errno value */
};

/* One sample's row of @dir/context.csv, created with its header at the first. Return: 0, or
 * an errno value. */
int cmd_context_sample(struct cmd_context *x, const char *dir,
		       const struct gfxstat_context_info *ci,
		       const struct gfxstat_context_sample *s);
/* Close context.csv. Return: 0, or an errno value. */
int cmd_context_close(struct cmd_context *x);
/* The summary's ,"context":{...} member (null when not sampled). */
void cmd_context_json(FILE *f, const struct gfxstat_context_info *ci);

/* The value @v of a series of @kind as context.csv writes it ("37.5" for a load). */
const char *cmd_context_value(enum gfxstat_context_kind kind, int64_t v, char *buf, size_t cap);

#endif
