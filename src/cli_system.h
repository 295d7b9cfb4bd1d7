/* SPDX-License-Identifier: MIT */
/*
 * The system around the frames in the JSON outputs: which scheduler events and counters an
 * input holds and lacks (inspect), and its series per window (analyze --json), from the
 * library's gfxstat_sysctx (gfxstat_sysctx.h).
 */
#ifndef CLI_SYSTEM_H
#define CLI_SYSTEM_H

#include <stdio.h>

#include "gfxstat/gfxstat_sysctx.h"

/*
 * cli_system_json() - {"window_s":..,"holds":{name:count,..},"lacks":[name,..],"cpus":N,
 * "clusters":N,"series":...} of @x ("null" for NULL); "series" is the number of series, or
 * with @values every series: name, unit, kind, index, cpus, start_ns, window_ns, mean, max
 * and values (one per window, null where the window has none).
 */
void cli_system_json(FILE *o, const struct gfxstat_sysctx *x, int values);

/* analyze --json: the recording's system, written as a last field by cli_system_field(). */
void cli_system_set(const struct gfxstat_sysctx *x);
/* ',\n"system":{...}' when cli_system_set() was given one, else nothing. */
void cli_system_field(FILE *o);

#endif
