/* SPDX-License-Identifier: MIT */
/* lib/input's scheduler-event internals shared by sched_line.c and trace_text.c. */
#ifndef SCHED_LOCAL_H
#define SCHED_LOCAL_H

#include "../gx_local.h"
#include "gfxstat/gfxstat_sched.h"
#include "scan_local.h"

/* gfxstat_sched_line_parse() for a line whose @kind (gfxstat_sched_kind_of(), not NONE) the
 * caller already knows: the text parser looks the name up once. */
GFXSTAT_HIDDEN enum gfxstat_parse_res
gx_sched_line_parse_kind(const struct gfxstat_ftrace_line *line, enum gfxstat_sched_kind kind,
			 struct gfxstat_sched_event *out);

/* gx_sched_line_parse_kind() by the key tables only, without the fast paths (unit tests) */
GFXSTAT_HIDDEN enum gfxstat_parse_res
gx_sched_line_parse_general(const struct gfxstat_ftrace_line *line, enum gfxstat_sched_kind kind,
			    struct gfxstat_sched_event *out);

/* gfxstat_sched_kind_of(), the four names that make most scheduler lines compared as words
 * inline (the text parser asks for every line that is no marker) */
static inline enum gfxstat_sched_kind gx_sched_kind_fast(struct gfxstat_str e)
{
#if GX_SWAR
	uint32_t t;

	if (e.n == 12) {
		uint64_t w = gx_load8(e.p);

		memcpy(&t, e.p + 8, 4);
		if (w == gx_load8("sched_sw") && t == gx_load4("itch"))
			return GFXSTAT_SCHED_SWITCH;
		if (w == gx_load8("sched_wa")) {
			if (t == gx_load4("king"))
				return GFXSTAT_SCHED_WAKING;
			if (t == gx_load4("keup"))
				return GFXSTAT_SCHED_WAKEUP;
		}
	} else if (e.n == 8) {
		return gx_load8(e.p) == gx_load8("cpu_idle") ? GFXSTAT_SCHED_CPU_IDLE
							   : GFXSTAT_SCHED_NONE;
	} else if (e.n == 13 && gx_load8(e.p) == gx_load8("cpu_freq") &&
		   gx_load8(e.p + 5) == gx_load8("requency")) {
		return GFXSTAT_SCHED_CPU_FREQUENCY;
	}
#endif
	return gfxstat_sched_kind_of(e);
}

#endif
