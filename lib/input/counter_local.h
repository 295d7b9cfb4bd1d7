/* SPDX-License-Identifier: MIT */
/*
 * The counter-like ftrace events of trace text (counter_line.c): GPU frequency, GPU clocks
 * and thermal zones, read as struct gfxstat_counter samples, the same samples Perfetto's
 * counter packets give (perfetto_sched.c). trace_text.c hands them the lines that are no
 * scheduler event. Library-internal.
 */
#ifndef GX_COUNTER_LOCAL_H
#define GX_COUNTER_LOCAL_H

#include "../gx_local.h"
#include "gfxstat/gfxstat_sysctx.h"

/* The events counter_line.c reads. */
enum gx_counter_event {
	GX_CEV_NONE = 0,
	GX_CEV_GPU_FREQUENCY,   /* power/gpu_frequency */
	GX_CEV_KGSL_PWRLEVEL,   /* kgsl/kgsl_pwrlevel (Adreno) */
	GX_CEV_KGSL_CLK,        /* kgsl/kgsl_clk, the variant with active_freq */
	GX_CEV_CLK_SET_RATE,    /* clk/clk_set_rate of a GPU clock */
	GX_CEV_DEVFREQ,         /* devfreq/devfreq_frequency of a GPU device */
	GX_CEV_THERMAL,         /* thermal/thermal_temperature */
};

/* The event of a line's name, or GX_CEV_NONE; by its length first, so that most names are
 * refused by one switch. */
GFXSTAT_HIDDEN enum gx_counter_event gx_counter_event_of(struct gfxstat_str event);

/**
 * gx_counter_line_parse() - a counter sample from a line of event @e
 * @line: the line (its ts_ns and payload are read; out->name points into its payload)
 * @out: the sample, on GFXSTAT_PARSE_OK
 *
 * Return: GFXSTAT_PARSE_OK; GFXSTAT_PARSE_UNSUPPORTED for a line that is no GPU or thermal
 * value (a clock that is not a GPU's, a kgsl_clk without a frequency); GFXSTAT_PARSE_FAIL
 * when a field the event needs is missing or not a number.
 */
GFXSTAT_HIDDEN enum gfxstat_parse_res gx_counter_line_parse(const struct gfxstat_ftrace_line *line,
							    enum gx_counter_event e,
							    struct gfxstat_counter *out);

/* gx_counter_line_parse() of a line of whichever event it is: GFXSTAT_PARSE_UNSUPPORTED too
 * for a line of none of them. */
GFXSTAT_HIDDEN enum gfxstat_parse_res gx_counter_line_read(const struct gfxstat_ftrace_line *line,
							   struct gfxstat_counter *out);

/* The line, if it is one of these events, to @fn; a malformed one is counted in @stats
 * (sched_malformed). Return: what @fn returned, or 0. */
GFXSTAT_HIDDEN int gx_counter_line_feed(const struct gfxstat_ftrace_line *line,
					gfxstat_counter_fn fn, void *user,
					struct gfxstat_stats *stats);

#endif
