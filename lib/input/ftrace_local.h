/* SPDX-License-Identifier: MIT */
/*
 * The ftrace header parser in two steps (ftrace_line.c), for the text parser's hot path
 * (trace_text.c): gx_ftrace_line_head() checks the whole header and sets the timestamp, event
 * and payload; gx_ftrace_line_fields() then sets the task, pid, tgid and cpu, for the events
 * that someone reads. Together they are gfxstat_ftrace_line_parse(). Library-internal.
 */
#ifndef GX_FTRACE_LOCAL_H
#define GX_FTRACE_LOCAL_H

#include <stdint.h>

#include "../gx_local.h"
#include "scan_local.h"

/* What gx_ftrace_line_fields() still has to convert: the pid, tgid and cpu digits, as the
 * 8 bytes that start with them and their number (tgid_k 0: unknown). */
struct gx_ftrace_lazy {
	uint64_t pid_w, tgid_w, cpu_w;
	unsigned char pid_k, tgid_k, cpu_k;
	unsigned char done; /* the fields are set already */
};

/**
 * gx_ftrace_line_head() - gfxstat_ftrace_line_parse() without the task, pid, tgid and cpu
 * @lz: what gx_ftrace_line_fields() needs to set them, on GFXSTAT_PARSE_OK
 *
 * Return: as gfxstat_ftrace_line_parse(); the same checks are made.
 */
GFXSTAT_HIDDEN enum gfxstat_parse_res gx_ftrace_line_head(const char *s, size_t n,
							  struct gfxstat_ftrace_line *out,
							  struct gx_ftrace_lazy *lz);

/* The task, pid, tgid and cpu of a line gx_ftrace_line_head() accepted (inline: it runs for
 * most lines, and a call costs as much as its three conversions). */
static inline void gx_ftrace_line_fields(struct gx_ftrace_lazy *lz,
					 struct gfxstat_ftrace_line *out)
{
	if (lz->done)
		return;
	lz->done = 1;
	out->pid = (int32_t)gx_digits8(lz->pid_w, lz->pid_k);
	out->tgid = lz->tgid_k ? (int32_t)gx_digits8(lz->tgid_w, lz->tgid_k) : -1;
	out->cpu = (int32_t)gx_digits8(lz->cpu_w, lz->cpu_k);
}

/* gfxstat_ftrace_line_parse() by its portable loops only, without the SSE2 path (tests). */
GFXSTAT_HIDDEN enum gfxstat_parse_res gx_ftrace_line_parse_loops(const char *s, size_t n,
								 struct gfxstat_ftrace_line *out);

#endif
