/* SPDX-License-Identifier: MIT */
/* gfxstat report's timeline beyond the frames: system context and screenshots. */
#ifndef CMD_REPORT_LANES_H
#define CMD_REPORT_LANES_H

#include "cli_source.h"
#include "gfxstat/gfxstat_report.h"

/*
 * cli_report_lanes() - the context lanes and screenshots of one input into @h: the system
 * series @src holds (a trace's CPU, GPU, thermal and power counters), then, for a session
 * folder @dir (NULL: none), its context.csv (lanes the trace did not fill) and its
 * screenshots (screens.csv), placed on the trace's clock.
 * Return: 0, or GFXSTAT_E_NOMEM (what cannot be read is said with cli_warn and left out).
 */
int cli_report_lanes(struct gfxstat_html *h, const char *dir, const struct cli_source *src);

#endif
