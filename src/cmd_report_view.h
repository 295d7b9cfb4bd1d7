/* SPDX-License-Identifier: MIT */
/* gfxstat report --history and --compare: view pages over the history store and compare. */
#ifndef CMD_REPORT_VIEW_H
#define CMD_REPORT_VIEW_H

#include <stddef.h>
#include <stdio.h>

#include "cli.h"

struct gfxstat_html_view;

#define CLI_REPORT_MAX_METRICS 32

struct cli_report_view {
	const char *out, *title;
	const char *db, *app, *by, *device, *label; /* --history's query */
	const char *metrics[CLI_REPORT_MAX_METRICS];
	size_t nmetrics;                            /* 0: every metric compare decides on */
};

/*
 * cli_report_history() - one page with, per metric, the trend of @v->app from the store
 * (the points of `gfxstat trend --format json`)
 * Return: CLI_OK, or an exit code after printing why.
 */
int cli_report_history(const struct cli_report_view *v);

/*
 * cli_report_compare() - one page with BASE and NEW side by side: per app the verdict, both
 * sides' FPS and frame-time timelines and frame-time distributions overlaid, and the table of
 * `gfxstat compare --format json --base BASE... --new NEW...` (the sides' operands, expanded
 * as compare expands them)
 * Return: CLI_OK, or an exit code after printing why.
 */
int cli_report_compare(const struct cli_report_view *v, char *const *base, size_t nbase,
		       char *const *new_, size_t nnew);

/* The view pages' growable text buffer; a failed growth sticks (err). */
struct cli_sbuf {
	char *p;
	size_t n, cap;
	int err;
};

void cli_sb_put(struct cli_sbuf *b, const char *s, size_t n);
void cli_sb_puts(struct cli_sbuf *b, const char *s);
void cli_sb_printf(struct cli_sbuf *b, const char *fmt, ...) CLI_PRINTF(2, 3);
/* @s as a JSON string literal */
void cli_sb_str(struct cli_sbuf *b, const char *s);
/* all of @f from its start */
void cli_sb_file(struct cli_sbuf *b, FILE *f);
/* the page @v to @out ("-": standard output); CLI_OK or an exit code after printing why */
int cli_view_write_page(const char *out, const struct gfxstat_html_view *v);

#endif
