/* SPDX-License-Identifier: MIT */
/*
 * What an ftrace text parser hands on, as a hash over every field and a count: the marker,
 * sched and counter functions of fuzz/fuzz_trace_ahead.c and tests/unit/test_trace_ahead.c,
 * which parse the same text with one thread and with two and compare the logs. The sched
 * function narrows the kinds it asks for at the first sched_waking (as
 * lib/source/input_source.c does) and, with @widen, asks for every kind again once @widen_at
 * things were handed on.
 */
#ifndef GX_FUZZ_TRACE_LOG_H
#define GX_FUZZ_TRACE_LOG_H

#include <stdint.h>
#include <string.h>

#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_sched.h"
#include "gfxstat/gfxstat_sysctx.h"

struct trace_log {
	uint64_t h, n, counters;
	struct gfxstat_trace_parser *p;
	int narrow, widen;
	uint64_t widen_at;
};

static void trace_log_init(struct trace_log *l, struct gfxstat_trace_parser *p, int widen,
			   uint64_t widen_at)
{
	memset(l, 0, sizeof(*l));
	l->h = 1469598103934665603ULL; /* FNV-1a */
	l->p = p;
	l->narrow = 1;
	l->widen = widen;
	l->widen_at = widen_at;
}

static void trace_log_mix(struct trace_log *l, const void *p, size_t n)
{
	const unsigned char *s = p;

	while (n--) {
		l->h ^= *s++;
		l->h *= 1099511628211ULL;
	}
}

static void trace_log_str(struct trace_log *l, struct gfxstat_str s)
{
	trace_log_mix(l, &s.n, sizeof(s.n));
	trace_log_mix(l, s.p, s.n);
}

static int trace_log_marker(void *user, const struct gfxstat_ftrace_line *ev,
			    const struct gfxstat_marker *m)
{
	struct trace_log *l = user;

	l->n++;
	trace_log_str(l, ev->task);
	trace_log_mix(l, &ev->pid, sizeof(ev->pid));
	trace_log_mix(l, &ev->tgid, sizeof(ev->tgid));
	trace_log_mix(l, &ev->cpu, sizeof(ev->cpu));
	trace_log_mix(l, &ev->ts_ns, sizeof(ev->ts_ns));
	trace_log_str(l, ev->ts_text);
	trace_log_str(l, ev->payload);
	trace_log_mix(l, &m->kind, sizeof(m->kind));
	trace_log_mix(l, &m->pid, sizeof(m->pid));
	trace_log_str(l, m->name);
	trace_log_mix(l, &m->value, sizeof(m->value));
	return 0;
}

static int trace_log_sched(void *user, const struct gfxstat_sched_event *ev)
{
	struct trace_log *l = user;
	char line[512];
	size_t k = gfxstat_sched_event_format(ev, line, sizeof(line));

	l->n++;
	trace_log_mix(l, line, k < sizeof(line) ? k : sizeof(line));
	if (l->narrow && ev->kind == GFXSTAT_SCHED_WAKING) {
		l->narrow = 0;
		gfxstat_trace_parser_set_sched_kinds(l->p, GFXSTAT_THREAD_STATES_KINDS &
							   ~GFXSTAT_SCHED_BIT(GFXSTAT_SCHED_WAKEUP));
	}
	if (l->widen && l->n >= l->widen_at) {
		l->widen = 0;
		gfxstat_trace_parser_set_sched_kinds(l->p, 0); /* every kind */
	}
	return 0;
}

static int trace_log_counter(void *user, const struct gfxstat_counter *c)
{
	struct trace_log *l = user;

	l->n++;
	l->counters++;
	trace_log_mix(l, &c->kind, sizeof(c->kind));
	trace_log_mix(l, &c->ts_ns, sizeof(c->ts_ns));
	trace_log_mix(l, &c->index, sizeof(c->index));
	trace_log_mix(l, &c->value, sizeof(c->value));
	trace_log_str(l, c->name);
	return 0;
}

#endif
