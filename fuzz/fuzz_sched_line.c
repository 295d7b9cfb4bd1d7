/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the scheduler events of ftrace text into thread states. The input is trace
 * text, fed through gfxstat_trace_parser_feed() with the thread-state tracker as its
 * scheduler callback; every "B" marker begins a span on its thread and every "E" ends it, and
 * each ended span must hold together: no state time below 0, the states adding up to the span
 * exactly, binder waits inside it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_sched.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (!(cond))                                                               \
			__builtin_trap();                                                  \
	} while (0)

struct run {
	struct gfxstat_thread_states *t;
	uint64_t spans;
};

static void check_span(const struct gfxstat_thread_span *s)
{
	int64_t sum = 0;
	unsigned k;

	CHECK(s->end_ns >= s->start_ns);
	for (k = 0; k < GFXSTAT_TS_COUNT; k++) {
		CHECK(s->state_ns[k] >= 0);
		sum += s->state_ns[k];
	}
	CHECK(sum == s->end_ns - s->start_ns);
	CHECK(s->nbinder <= GFXSTAT_SPAN_BINDER);
	for (k = 0; k < s->nbinder; k++)
		CHECK(s->binder[k].dur_ns >= 0);
	CHECK(s->binder_ns >= 0);
	CHECK(!s->max_freq_khz || s->mean_freq_khz <= s->max_freq_khz);
	CHECK(s->blocked_fn[GFXSTAT_SPAN_FUNC_LEN - 1] == 0);
}

static int on_marker(void *user, const struct gfxstat_ftrace_line *ev,
		     const struct gfxstat_marker *m)
{
	struct run *r = user;
	struct gfxstat_thread_span s;

	if (m->kind == GFXSTAT_MARKER_BEGIN) {
		CHECK(gfxstat_thread_states_span_begin(r->t, ev->pid, ev->ts_ns, ev->cpu) !=
		      GFXSTAT_E_NOMEM);
	} else if (m->kind == GFXSTAT_MARKER_END &&
		   gfxstat_thread_states_span_end(r->t, ev->pid, ev->ts_ns, &s)) {
		CHECK(s.tid == ev->pid);
		check_span(&s);
		r->spans++;
	}
	return 0;
}

static int on_sched(void *user, const struct gfxstat_sched_event *ev)
{
	struct run *r = user;

	CHECK(ev->kind > GFXSTAT_SCHED_NONE && ev->kind < GFXSTAT_SCHED_KIND_COUNT);
	return gfxstat_thread_states_event(r->t, ev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run r;
	struct gfxstat_trace_parser *p;
	const struct gfxstat_sched_counts *c;

	memset(&r, 0, sizeof(r));
	r.t = gfxstat_thread_states_new();
	CHECK(r.t);
	p = gfxstat_trace_parser_new(on_marker, &r);
	CHECK(p);
	gfxstat_trace_parser_set_sched_fn(p, on_sched, &r, 0);
	CHECK(gfxstat_trace_parser_feed(p, data, size) == 0);
	CHECK(gfxstat_trace_parser_finish(p) == 0);
	c = gfxstat_thread_states_counts(r.t);
	CHECK(c->spans == r.spans);
	gfxstat_trace_parser_free(p);
	gfxstat_thread_states_free(r.t);
	return 0;
}
