/* SPDX-License-Identifier: MIT */
/*
 * ftrace text parsed with two threads (gfxstat_trace_parser_set_threads(): blocks of whole
 * lines parsed ahead, lib/input/trace_text.c) against one: the same markers and scheduler
 * events in the same order, the same counts, on random traces of a few MB with what a real
 * one holds now and then (comments, blank and malformed lines, CRLF endings, lines over the
 * length limit, times going back, markers that do not parse, scheduler lines that do not),
 * fed whole, in 1 MB reads and in random cuts, with a sched function that narrows the kinds it
 * asks for at the first sched_waking (as lib/source/input_source.c does), and one that widens
 * them again midway (a block parsed ahead with fewer kinds is then read again); with a counter
 * function (GPU clocks and temperatures, lib/input/counter_line.c) or without.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../fuzz/trace_log.h"
#include "check.h"

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

struct text {
	char *s;
	size_t n, cap;
};

static void put(struct text *t, const char *s, size_t n)
{
	if (t->n + n > t->cap) {
		t->cap = (t->n + n) * 2;
		t->s = realloc(t->s, t->cap);
	}
	memcpy(t->s + t->n, s, n);
	t->n += n;
}

/* A random trace of about @bytes, one line after the other. */
static void make_trace(struct text *t, size_t bytes)
{
	static const char *const comms[] = { "RenderThread", "surfaceflinger", "app", "<idle>" };
	static const char *const marks[] = { "B|4646|Choreographer#doFrame 12", "E|4646",
					     "C|613|HW_VSYNC_0|1", "B|613|onMessageReceived 7",
					     "E", "S|4646|launch|3", "not a marker" };
	unsigned long long us = 1499898000000ULL;
	char line[70 * 1024];

	t->n = 0;
	put(t, "# tracer: nop\n#\n", 16);
	while (t->n < bytes) {
		unsigned k = rnd(100), cpu = rnd(8), pid = 600 + rnd(40);
		const char *comm = comms[rnd(4)];
		const char *eol = rnd(50) ? "\n" : "\r\n";
		int n;

		us += rnd(40);
		if (rnd(300) == 0)
			us -= 1000; /* a time going back */
		if (rnd(3000) == 0) {
			/* over the 64 kB limit: counted and dropped */
			n = 66 * 1024;
			memset(line, 'x', (size_t)n);
			line[n++] = '\n';
		} else if (k < 20) {
			n = snprintf(line, sizeof(line),
				     "%16s-%-5u (%5u) [%03u] ...1 %llu.%06llu: tracing_mark_write: %s%s",
				     comm, pid, pid, cpu, us / 1000000, us % 1000000,
				     marks[rnd(7)], eol);
		} else if (k < 50) {
			n = snprintf(line, sizeof(line),
				     "%16s-%-5u (-----) [%03u] d..2 %llu.%06llu: sched_switch: "
				     "prev_comm=%s prev_pid=%s%u prev_prio=120 prev_state=%s ==> "
				     "next_comm=%s next_pid=%u next_prio=120%s",
				     comm, pid, cpu, us / 1000000, us % 1000000, comm,
				     rnd(200) ? "" : "x", pid, rnd(20) ? "S" : "R+", comms[rnd(4)],
				     600 + rnd(40), eol);
		} else if (k < 65) {
			n = snprintf(line, sizeof(line),
				     "%16s-%-5u (-----) [%03u] d..3 %llu.%06llu: %s: comm=%s pid=%u "
				     "prio=120 target_cpu=%03u%s",
				     comm, pid, cpu, us / 1000000, us % 1000000,
				     /* sched_wakeup well before the first sched_waking too */
				     t->n < bytes / 8 || rnd(2) ? "sched_wakeup" : "sched_waking",
				     comms[rnd(4)], 600 + rnd(40), rnd(8), eol);
		} else if (k < 80) {
			n = snprintf(line, sizeof(line),
				     "%16s-%-5u (-----) [%03u] d..1 %llu.%06llu: cpu_idle: state=%u "
				     "cpu_id=%u%s",
				     comm, pid, cpu, us / 1000000, us % 1000000, rnd(3), cpu, eol);
		} else if (k < 88) {
			n = snprintf(line, sizeof(line),
				     "%16s-%-5u (%5u) [%03u] d..2 %llu.%06llu: sched_blocked_reason: "
				     "pid=%u iowait=%u caller=0x%x%s",
				     comm, pid, pid, cpu, us / 1000000, us % 1000000, pid, rnd(2),
				     rnd(100000), eol);
		} else if (k < 92) {
			n = snprintf(line, sizeof(line), "%s", rnd(2) ? "\n" : "# a comment\n");
		} else if (k < 94) {
			n = snprintf(line, sizeof(line), "garbage that is no ftrace line %u%s", k,
				     eol);
		} else if (k < 96) {
			/* counters: a GPU clock, a clock not the GPU's, a temperature, a bad one */
			unsigned c = rnd(4), v = 257 + rnd(700);

			n = snprintf(line, sizeof(line), "%16s-%-5u (-----) [%03u] d..2 %llu.%06llu: ",
				     comm, pid, cpu, us / 1000000, us % 1000000);
			if (c == 0)
				n += snprintf(line + n, sizeof(line) - (size_t)n,
					      "clk_set_rate: gpu_cc_gx_gfx3d_clk_src %u000%s", v, eol);
			else if (c == 1)
				n += snprintf(line + n, sizeof(line) - (size_t)n,
					      "clk_set_rate: l3_clk %u000%s", v, eol);
			else if (c == 2)
				n += snprintf(line + n, sizeof(line) - (size_t)n,
					      "thermal_temperature: thermal_zone=cpu-1-0 id=3 "
					      "temp_prev=%u temp=41000%s", v, eol);
			else
				n += snprintf(line + n, sizeof(line) - (size_t)n,
					      "gpu_frequency: state=%u gpu_id=x%s", v, eol);
		} else {
			n = snprintf(line, sizeof(line),
				     "%16s-%-5u (-----) [%03u] d..2 %llu.%06llu: binder_transaction: "
				     "transaction=%u dest_node=1 dest_proc=%u dest_thread=0 reply=0 "
				     "flags=0x10 code=0x3%s",
				     comm, pid, cpu, us / 1000000, us % 1000000, rnd(9999), pid, eol);
		}
		put(t, line, (size_t)n);
	}
	put(t, "  app-600 (600) [000] ...1 1.000000: tracing_mark_write: E|600", 62); /* no EOL */
}

/* @t through a parser with @threads, fed whole (@cut 0) or in pieces of up to @cut bytes
 * (random sizes when @rand_cut), with a counter function when @counters; the log and the
 * counts. */
static void run(const struct text *t, int threads, size_t cut, int rand_cut, int widen,
		int counters, struct trace_log *l, struct gfxstat_stats *st)
{
	struct gfxstat_trace_parser *p = gfxstat_trace_parser_new(trace_log_marker, l);
	size_t off = 0;

	trace_log_init(l, p, widen, 20000);
	CHECK(p != NULL);
	if (!p)
		return;
	gfxstat_trace_parser_set_threads(p, threads);
	gfxstat_trace_parser_set_sched_fn(p, trace_log_sched, l, GFXSTAT_THREAD_STATES_KINDS);
	if (counters)
		gfxstat_trace_parser_set_counter_fn(p, trace_log_counter, l);
	while (off < t->n) {
		size_t k = !cut ? t->n : rand_cut ? 1 + rnd((unsigned)cut) : cut;

		if (k > t->n - off)
			k = t->n - off;
		CHECK_EQ(gfxstat_trace_parser_feed(p, t->s + off, k), 0);
		off += k;
	}
	CHECK_EQ(gfxstat_trace_parser_finish(p), 0);
	*st = *gfxstat_trace_parser_stats(p);
	gfxstat_trace_parser_free(p);
}

TEST(ahead_equals_one_thread)
{
	static struct text t;
	int iter, diffs = 0;

	for (iter = 0; iter < 8; iter++) {
		struct trace_log a, b;
		struct gfxstat_stats sa, sb;
		size_t cut = iter % 3 == 0 ? 0 : iter % 3 == 1 ? (1u << 20) : (3u << 20);
		int widen = iter % 4 >= 2, counters = iter % 2;

		make_trace(&t, (2u << 20) + rnd(3u << 20));
		run(&t, 1, cut, iter % 3 == 2, widen, counters, &a, &sa);
		run(&t, 2, cut, iter % 3 == 2, widen, counters, &b, &sb);
		if (a.h != b.h || a.n != b.n || memcmp(&sa, &sb, sizeof(sa))) {
			if (!diffs)
				fprintf(stderr, "two threads differ: iteration %d (%llu and %llu "
						"handed on, %llu and %llu counters)\n",
					iter, (unsigned long long)a.n, (unsigned long long)b.n,
					(unsigned long long)a.counters,
					(unsigned long long)b.counters);
			diffs++;
		}
		/* the trace did hold what it is for */
		CHECK(sa.v[GFXSTAT_STAT_line_too_long] > 0);
		CHECK(sa.v[GFXSTAT_STAT_time_backwards] > 0);
		CHECK(sa.v[GFXSTAT_STAT_sched_malformed] > 0);
		CHECK(sa.v[GFXSTAT_STAT_marker_malformed] + sa.v[GFXSTAT_STAT_marker_unsupported] >
		      0);
		CHECK(a.n > 5000);
		CHECK(counters ? a.counters > 50 : a.counters == 0);
	}
	CHECK_EQ(diffs, 0);
	free(t.s);
	t.s = NULL;
	t.cap = 0;
}

/* A counter function with the sched function cleared (or kinds set without one): the sched
 * lines are not read, the counters are; once this called a sched function that was NULL. */
TEST(counters_without_sched_fn)
{
	static const char trace[] =
		"  app-600 (600) [000] d..2 1.000000: sched_switch: prev_comm=app prev_pid=600 "
		"prev_prio=120 prev_state=S ==> next_comm=swapper next_pid=0 next_prio=120\n"
		"  app-600 (600) [000] d..2 1.000100: clk_set_rate: gpu_cc_gx_gfx3d_clk_src "
		"585000000\n"
		"  app-600 (600) [000] d..2 1.000200: sched_waking: comm=app pid=601 prio=120 "
		"target_cpu=001\n"
		"  app-600 (600) [000] d..2 1.000300: thermal_temperature: thermal_zone=cpu-1-0 "
		"id=3 temp_prev=40000 temp=41000\n";
	int way;

	for (way = 0; way < 2; way++) {
		struct trace_log l;
		struct gfxstat_trace_parser *p = gfxstat_trace_parser_new(trace_log_marker, &l);

		trace_log_init(&l, p, 0, 0);
		CHECK(p != NULL);
		if (!p)
			return;
		gfxstat_trace_parser_set_counter_fn(p, trace_log_counter, &l);
		if (way == 0) {
			gfxstat_trace_parser_set_sched_fn(p, trace_log_sched, &l, 0);
			gfxstat_trace_parser_set_sched_fn(p, NULL, NULL, 0);
		} else {
			gfxstat_trace_parser_set_sched_kinds(p, 0);
		}
		CHECK_EQ(gfxstat_trace_parser_feed(p, trace, sizeof(trace) - 1), 0);
		CHECK_EQ(gfxstat_trace_parser_finish(p), 0);
		CHECK_EQ(l.counters, 2);
		CHECK_EQ(l.n, 2); /* the counters only */
		gfxstat_trace_parser_free(p);
	}
}

TEST_SUITE(test_trace_ahead)
{
	RUN(ahead_equals_one_thread);
	RUN(counters_without_sched_fn);
}
