/* SPDX-License-Identifier: MIT */
/* lib/input's scheduler-event internals shared by sched_line.c and trace_text.c. */
#ifndef SCHED_LOCAL_H
#define SCHED_LOCAL_H

#include "../gx_local.h"
#include "gfxstat/gfxstat_sched.h"

/* gfxstat_sched_line_parse() for a line whose @kind (gfxstat_sched_kind_of(), not NONE) the
 * caller already knows: the text parser looks the name up once. */
GFXSTAT_HIDDEN enum gfxstat_parse_res
gx_sched_line_parse_kind(const struct gfxstat_ftrace_line *line, enum gfxstat_sched_kind kind,
			 struct gfxstat_sched_event *out);

#endif
