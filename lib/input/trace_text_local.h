/* SPDX-License-Identifier: MIT */
/* The text parser's knobs for tests and fuzzing (trace_text.c). Library-internal. */
#ifndef GX_TRACE_TEXT_LOCAL_H
#define GX_TRACE_TEXT_LOCAL_H

#include <stddef.h>

#include "../gx_local.h"
#include "gfxstat/gfxstat.h"

/* With two threads: parse ahead from @min bytes of whole lines in a feed (default 512 kB), in
 * blocks of about @block bytes (default 64 kB); 0 keeps a default. Small ones put the thread
 * and the block edges on every line of a small input. */
GFXSTAT_HIDDEN void gx_trace_parser_set_ahead_sizes(struct gfxstat_trace_parser *p, size_t min,
						    size_t block);

#endif
