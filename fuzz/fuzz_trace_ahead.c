/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: ftrace text parsed with two threads (lib/input/trace_text.c: blocks of whole
 * lines parsed ahead on the parser's thread, handed on in order in the caller's) against one.
 * The input is the text; its first byte sets the block size (16 to 271 bytes, so that a small
 * input has many blocks and their edges fall anywhere), and the parse ahead starts from one
 * byte of whole lines. Each way it is fed whole and in chunks whose sizes come from the input's
 * own bytes, with a sched function that narrows the kinds it asks for at the first
 * sched_waking (as lib/source/input_source.c does), and a counter function (GPU clocks and
 * temperatures, lib/input/counter_line.c) when the second byte is odd.
 *
 * Checked: no crash, sanitizer or ThreadSanitizer report; the two ways give the same markers,
 * scheduler events and counters (a hash over every field, in order: trace_log.h, shared with
 * tests/unit/test_trace_ahead.c) and the same counts, fed whole and fed in chunks.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../lib/input/trace_text_local.h"
#include "trace_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (!(cond))                                                               \
			__builtin_trap();                                                  \
	} while (0)

static void parse(const uint8_t *data, size_t size, int threads, int chunked,
		  struct trace_log *r, struct gfxstat_stats *st)
{
	struct gfxstat_trace_parser *p = gfxstat_trace_parser_new(trace_log_marker, r);
	size_t off = 0, i = 0;

	trace_log_init(r, p, 0, 0);
	if (!p)
		return;
	gfxstat_trace_parser_set_threads(p, threads);
	gx_trace_parser_set_ahead_sizes(p, 1, 16 + (size ? data[0] : 0));
	gfxstat_trace_parser_set_sched_fn(p, trace_log_sched, r, GFXSTAT_THREAD_STATES_KINDS);
	if (size > 1 && (data[1] & 1))
		gfxstat_trace_parser_set_counter_fn(p, trace_log_counter, r);
	while (off < size) {
		size_t k = chunked ? (size_t)data[i++ % size] * 7 % 509 + 1 : size;

		if (k > size - off)
			k = size - off;
		gfxstat_trace_parser_feed(p, data + off, k);
		off += k;
	}
	gfxstat_trace_parser_finish(p);
	*st = *gfxstat_trace_parser_stats(p);
	gfxstat_trace_parser_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace_log a, b;
	struct gfxstat_stats sa, sb;
	int chunked;

	for (chunked = 0; chunked < 2; chunked++) {
		memset(&sa, 0, sizeof(sa));
		memset(&sb, 0, sizeof(sb));
		parse(data, size, 1, chunked, &a, &sa);
		parse(data, size, 2, chunked, &b, &sb);
		CHECK(a.h == b.h && a.n == b.n);
		CHECK(memcmp(&sa, &sb, sizeof(sa)) == 0);
	}
	return 0;
}
