/* SPDX-License-Identifier: MIT */
/*
 * The live view of `gfxstat record`: per layer FPS over the trace time since the last view
 * and since the start, jank and big jank (PerfDog), the longest frame; and one summary table
 * when the capture ends. Every rate is on the trace's clock (frame present times), never the
 * host's: frames that arrive in bursts (a Perfetto pull, a --latency poll) count right.
 * Layers are found by a hashed map, so a name of any length is one row and lookups stay
 * constant time.
 */
#ifndef CLI_LIVE_H
#define CLI_LIVE_H

#include <stdio.h>

#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_capture.h"

struct cli_live;

struct cli_live *cli_live_new(void);
void cli_live_free(struct cli_live *l);

/* Account one frame. Return: 0, or -1 when memory ran out. */
int cli_live_frame(struct cli_live *l, const struct gfxstat_frame *f);

/* The number of layers seen. */
size_t cli_live_layers(const struct cli_live *l);

/*
 * cli_live_view() - one refresh: a table @width columns wide (names shortened in the middle
 * when needed) on a terminal, else one plain line per layer that drew since the last view,
 * prefixed with @prefix and @host_s; then the "since the last view" counters restart
 */
void cli_live_view(struct cli_live *l, FILE *o, int tty, int width, const char *prefix,
		   double host_s);

/*
 * cli_live_context() - the device's line of the live view, from the context's newest sample:
 * all CPUs' load, the hottest thermal zone and the battery's power (what the device gives of
 * them). On a terminal always; else one plain line per new sample, like the layers'.
 */
void cli_live_context(struct cli_live *l, FILE *o, int tty, const char *prefix, double host_s,
		      const struct gfxstat_context_info *ci);

/* cli_live_summary() - the closing table, one row per layer; @width 0: names never cut. */
void cli_live_summary(const struct cli_live *l, FILE *o, int width);

/* The terminal's width in columns (TIOCGWINSZ, else $COLUMNS, else 80). */
int cli_live_width(int fd);

/* @s in at most @w bytes: the start and the end with "..." between. Return: @buf. */
const char *cli_live_fit(const char *s, int w, char *buf, size_t cap);

#endif
