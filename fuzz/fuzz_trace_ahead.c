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
 * scheduler events and counters (a hash over every field, in order) and the same counts, fed
 * whole and fed in chunks.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_sched.h"
#include "gfxstat/gfxstat_sysctx.h"
#include "../lib/input/trace_text_local.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (!(cond))                                                               \
			__builtin_trap();                                                  \
	} while (0)

struct run {
	uint64_t h, n;
	struct gfxstat_trace_parser *p;
	int narrow;
};

static void mix(struct run *r, const void *p, size_t n)
{
	const unsigned char *s = p;

	while (n--) {
		r->h ^= *s++;
		r->h *= 1099511628211ULL;
	}
}

static void mix_str(struct run *r, struct gfxstat_str s)
{
	mix(r, &s.n, sizeof(s.n));
	mix(r, s.p, s.n);
}

static int on_marker(void *user, const struct gfxstat_ftrace_line *ev,
		     const struct gfxstat_marker *m)
{
	struct run *r = user;

	r->n++;
	mix_str(r, ev->task);
	mix(r, &ev->pid, sizeof(ev->pid));
	mix(r, &ev->tgid, sizeof(ev->tgid));
	mix(r, &ev->cpu, sizeof(ev->cpu));
	mix(r, &ev->ts_ns, sizeof(ev->ts_ns));
	mix_str(r, ev->payload);
	mix(r, &m->kind, sizeof(m->kind));
	mix_str(r, m->name);
	mix(r, &m->value, sizeof(m->value));
	return 0;
}

static int on_sched(void *user, const struct gfxstat_sched_event *ev)
{
	struct run *r = user;
	char line[512];
	size_t k = gfxstat_sched_event_format(ev, line, sizeof(line));

	r->n++;
	mix(r, line, k < sizeof(line) ? k : sizeof(line));
	if (r->narrow && ev->kind == GFXSTAT_SCHED_WAKING) {
		r->narrow = 0;
		gfxstat_trace_parser_set_sched_kinds(r->p, GFXSTAT_THREAD_STATES_KINDS &
							   ~GFXSTAT_SCHED_BIT(GFXSTAT_SCHED_WAKEUP));
	}
	return 0;
}

static int on_counter(void *user, const struct gfxstat_counter *c)
{
	struct run *r = user;

	r->n++;
	mix(r, &c->kind, sizeof(c->kind));
	mix(r, &c->ts_ns, sizeof(c->ts_ns));
	mix(r, &c->index, sizeof(c->index));
	mix(r, &c->value, sizeof(c->value));
	mix_str(r, c->name);
	return 0;
}

static void parse(const uint8_t *data, size_t size, int threads, int chunked, struct run *r,
		  struct gfxstat_stats *st)
{
	struct gfxstat_trace_parser *p = gfxstat_trace_parser_new(on_marker, r);
	size_t off = 0, i = 0;

	memset(r, 0, sizeof(*r));
	r->h = 1469598103934665603ULL;
	if (!p)
		return;
	r->p = p;
	r->narrow = 1;
	gfxstat_trace_parser_set_threads(p, threads);
	gx_trace_parser_set_ahead_sizes(p, 1, 16 + (size ? data[0] : 0));
	gfxstat_trace_parser_set_sched_fn(p, on_sched, r, GFXSTAT_THREAD_STATES_KINDS);
	if (size > 1 && (data[1] & 1))
		gfxstat_trace_parser_set_counter_fn(p, on_counter, r);
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
	struct run a, b;
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
