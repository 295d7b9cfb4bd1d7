/* SPDX-License-Identifier: MIT */
/*
 * System context series (lib/produce/sys_context.c) from hand-made events whose per-window
 * values are worked out by hand in the comments: CPU load and frequency, clusters, GPU,
 * thermal, battery, rail power, the sys_stats fallbacks, limits and odd input.
 */
#include <stdio.h>

#include "check.h"
#include "gfxstat/gfxstat_sysctx.h"

#define S GFXSTAT_NSEC_PER_SEC
#define MS GFXSTAT_NSEC_PER_MSEC
#define NONE GFXSTAT_SERIES_NONE

static void sw(struct gfxstat_sysctx *x, int32_t cpu, int64_t ts, int32_t next)
{
	struct gfxstat_sched_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = GFXSTAT_SCHED_SWITCH;
	ev.ts_ns = ts;
	ev.cpu = cpu;
	ev.sw.next_pid = next;
	gfxstat_sysctx_sched(x, &ev);
}

static void freq(struct gfxstat_sysctx *x, int32_t cpu, int64_t ts, uint32_t khz)
{
	struct gfxstat_sched_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = GFXSTAT_SCHED_CPU_FREQUENCY;
	ev.ts_ns = ts;
	ev.cpu = 0; /* the CPU that wrote it: not the one it is about */
	ev.freq.cpu_id = cpu;
	ev.freq.state = khz;
	gfxstat_sysctx_sched(x, &ev);
}

static void ctr(struct gfxstat_sysctx *x, enum gfxstat_counter_kind k, int64_t ts,
		int32_t index, int64_t v, const char *name)
{
	struct gfxstat_counter c;

	c.kind = k;
	c.ts_ns = ts;
	c.index = index;
	c.value = v;
	c.name.p = name;
	c.name.n = strlen(name);
	gfxstat_sysctx_counter(x, &c);
}

static const struct gfxstat_series *find(const struct gfxstat_sysctx *x, const char *name)
{
	size_t i;

	for (i = 0; i < gfxstat_sysctx_nseries(x); i++)
		if (strcmp(gfxstat_sysctx_series(x, i)->name, name) == 0)
			return gfxstat_sysctx_series(x, i);
	return NULL;
}

/* The series' windows as "v0 v1 ..." ("-" for none) */
static const char *vals(const struct gfxstat_series *s)
{
	static char buf[512];
	size_t n = 0, i;

	buf[0] = 0;
	if (!s)
		return "(missing)";
	for (i = 0; i < s->n; i++) {
		int k = s->v[i] == NONE ? snprintf(buf + n, sizeof(buf) - n, "%s-", i ? " " : "")
					: snprintf(buf + n, sizeof(buf) - n, "%s%lld", i ? " " : "",
						   (long long)s->v[i]);

		if (k > 0 && (size_t)k < sizeof(buf) - n)
			n += (size_t)k;
	}
	return buf;
}

TEST(cpu_load_and_freq)
{
	struct gfxstat_sysctx *x = gfxstat_sysctx_new(S);
	const struct gfxstat_series *s;
	const struct gfxstat_sysctx_counts *c;
	int64_t max;

	/*
	 * CPU 0 runs pid 100 from 0 to 0.5 s, idles to 1.25 s, runs pid 200 to the end (2 s):
	 * window 0 is 500 permille busy, window 1 750 (0.75 s of 1 s).
	 */
	sw(x, 0, 0, 100);
	sw(x, 0, 500 * MS, 0);
	sw(x, 0, 1250 * MS, 200);
	/*
	 * CPUs 0 and 1 at 1 GHz from 0, 2 GHz from 0.25 s (one policy: same values, same
	 * order); CPU 2 at 500 MHz throughout. CPU 0, window 0: (0.25 x 1e6 + 0.75 x 2e6) / 1
	 * = 1750000 kHz; window 1: 2000000.
	 */
	freq(x, 0, 0, 1000000);
	freq(x, 1, 0, 1000000);
	freq(x, 2, 0, 500000);
	freq(x, 0, 250 * MS, 2000000);
	freq(x, 1, 250 * MS, 2000000);
	/* CPU 1 is busy from its first switch at 0.5 s on: all of its known time */
	sw(x, 1, 500 * MS, 300);
	CHECK(gfxstat_sysctx_finish(x, 2 * S) == 0);

	CHECK_CSTR(vals(find(x, "cpu0.load")), "500 750");
	CHECK_CSTR(vals(find(x, "cpu0.freq")), "1750000 2000000");
	CHECK_CSTR(vals(find(x, "cpu1.load")), "1000 1000");
	CHECK_CSTR(vals(find(x, "cpu2.freq")), "500000 500000");
	CHECK(find(x, "cpu2.load") == NULL);
	/* clusters: {0, 1} and {2}; cluster 0's load is over both CPUs' known time: window 0
	 * (0.5 + 0.5) / (1 + 0.5) = 666, window 1 (0.75 + 1) / 2 = 875 */
	s = find(x, "cluster0.load");
	CHECK_CSTR(vals(s), "666 875");
	CHECK(s && s->cpus == 3);
	CHECK_CSTR(vals(find(x, "cluster0.freq")), "1750000 2000000");
	s = find(x, "cluster1.freq");
	CHECK_CSTR(vals(s), "500000 500000");
	CHECK(s && s->cpus == 4);
	CHECK(find(x, "cluster1.load") == NULL); /* CPU 2 has no switches */
	s = find(x, "cpu0.load");
	CHECK(s && s->start_ns == 0 && s->window_ns == S && s->n == 2);
	CHECK(s && strcmp(s->unit, "permille") == 0 && s->kind == GFXSTAT_SERIES_CPU_LOAD);
	CHECK_EQ(gfxstat_series_mean(s, &max), 625);
	CHECK_EQ(max, 750);
	/* order: per CPU frequency then load, then clusters */
	CHECK_CSTR(gfxstat_sysctx_series(x, 0)->name, "cpu0.freq");
	CHECK_CSTR(gfxstat_sysctx_series(x, 1)->name, "cpu0.load");
	CHECK_CSTR(gfxstat_sysctx_series(x, 2)->name, "cpu1.freq");
	c = gfxstat_sysctx_counts(x);
	CHECK_EQ(c->sched[GFXSTAT_SCHED_SWITCH], 4);
	CHECK_EQ(c->sched[GFXSTAT_SCHED_CPU_FREQUENCY], 5);
	CHECK_EQ(c->clusters, 2);
	CHECK_EQ(c->cpus, 3);
	gfxstat_sysctx_free(x);
}

TEST(counters)
{
	struct gfxstat_sysctx *x = gfxstat_sysctx_new(0); /* 1 s */
	const struct gfxstat_sysctx_counts *c;
	const struct gfxstat_series *s;

	/* GPU at 585 MHz from 0.5 s, 300 MHz from 1.5 s, to 2 s: window 0 only 0.5 s known
	 * (585000), window 1 (0.5 x 585000 + 0.5 x 300000) = 442500 */
	ctr(x, GFXSTAT_COUNTER_GPU_FREQ, 500 * MS, 0, 585000, "");
	ctr(x, GFXSTAT_COUNTER_GPU_FREQ, 1500 * MS, 0, 300000, "");
	ctr(x, GFXSTAT_COUNTER_GPU_FREQ, 0, 1, 400000, "");
	ctr(x, GFXSTAT_COUNTER_GPU_FREQ, 250 * MS, 1, 0, "");
	ctr(x, GFXSTAT_COUNTER_GPU_FREQ, 1750 * MS, 1, 200000, "");
	/* thermal: the mean of the samples in each window */
	ctr(x, GFXSTAT_COUNTER_THERMAL, 200 * MS, -1, 41000, "skin-therm");
	ctr(x, GFXSTAT_COUNTER_THERMAL, 800 * MS, -1, 43000, "skin-therm");
	ctr(x, GFXSTAT_COUNTER_THERMAL, 1100 * MS, -1, 45000, "skin-therm");
	ctr(x, GFXSTAT_COUNTER_THERMAL, 1100 * MS, -1, 30000, "battery zone");
	/* battery current: the mean, rounded down; capacity: the last sample */
	ctr(x, GFXSTAT_COUNTER_BATTERY_CURRENT, 100 * MS, -1, -91250, "");
	ctr(x, GFXSTAT_COUNTER_BATTERY_CURRENT, 600 * MS, -1, 312, "");
	ctr(x, GFXSTAT_COUNTER_BATTERY_CAPACITY, 100 * MS, -1, 100000, "");
	ctr(x, GFXSTAT_COUNTER_BATTERY_CAPACITY, 900 * MS, -1, 99000, "");
	/* a rail: 0 uWs at 0, 1e6 uWs at 1 s (1 W = 1e6 uW), 1.5e6 at 2 s (0.5 W) */
	ctr(x, GFXSTAT_COUNTER_RAIL_ENERGY, 0, 3, 0, "S4M_VDD_CPUCL0");
	ctr(x, GFXSTAT_COUNTER_RAIL_ENERGY, S, 3, 1000000, "S4M_VDD_CPUCL0");
	ctr(x, GFXSTAT_COUNTER_RAIL_ENERGY, 2 * S, 3, 1500000, "S4M_VDD_CPUCL0");
	/* an unnamed rail; a counter going down (a reset) gives no power for that gap */
	ctr(x, GFXSTAT_COUNTER_RAIL_ENERGY, 0, 9, 500, "");
	ctr(x, GFXSTAT_COUNTER_RAIL_ENERGY, S, 9, 100, "");
	/* memory; a process's RSS is only counted */
	ctr(x, GFXSTAT_COUNTER_MEM_AVAILABLE, 300 * MS, -1, 2000000, "");
	ctr(x, GFXSTAT_COUNTER_MEM_AVAILABLE, 1300 * MS, -1, 1000000, "");
	ctr(x, GFXSTAT_COUNTER_PROCESS_RSS, 300 * MS, 123, 4567, "");
	CHECK(gfxstat_sysctx_finish(x, 2 * S) == 0);

	CHECK_CSTR(vals(find(x, "gpu0.freq")), "585000 442500");
	CHECK_CSTR(vals(find(x, "gpu0.active")), "1000 1000");
	/* GPU 1 at 400 MHz for 0.25 s, off (0) until 1.75 s, then 200 MHz: its frequency over
	 * the time on, and the share of time on (250 and 250 permille) */
	CHECK_CSTR(vals(find(x, "gpu1.freq")), "400000 200000");
	CHECK_CSTR(vals(find(x, "gpu1.active")), "250 250");
	CHECK_CSTR(vals(find(x, "thermal.skin-therm")), "42000 45000");
	s = find(x, "thermal.battery_zone"); /* a series starts at its first window */
	CHECK_CSTR(vals(s), "30000");
	CHECK(s && s->start_ns == S);
	CHECK_CSTR(vals(find(x, "battery.current")), "-45469");
	CHECK_CSTR(vals(find(x, "battery.capacity")), "99000");
	CHECK_CSTR(vals(find(x, "rail.S4M_VDD_CPUCL0")), "1000000 500000");
	CHECK_CSTR(vals(find(x, "mem.available")), "2000000 1000000");
	CHECK(find(x, "rail9") == NULL); /* no power: its only gap was a reset */
	CHECK_EQ(gfxstat_sysctx_nseries(x), 10);
	c = gfxstat_sysctx_counts(x);
	CHECK_EQ(c->counter[GFXSTAT_COUNTER_PROCESS_RSS], 1);
	CHECK_EQ(c->counter[GFXSTAT_COUNTER_RAIL_ENERGY], 5);
	CHECK_EQ(c->backwards, 0);
	CHECK_CSTR(find(x, "thermal.skin-therm")->unit, "mC");
	CHECK_CSTR(find(x, "rail.S4M_VDD_CPUCL0")->unit, "uW");
	gfxstat_sysctx_free(x);
}

TEST(sys_stats_fallbacks)
{
	struct gfxstat_sysctx *x = gfxstat_sysctx_new(S);

	/*
	 * CPU 3 has no sched_switch: its load comes from sys_stats CPU times. Busy 0 and idle 0
	 * at 0; busy 250 ms and idle 750 ms at 1 s: 250 permille over window 0. Its polled
	 * frequency (1.2 GHz from 0) stands in for cpu_frequency events.
	 */
	ctr(x, GFXSTAT_COUNTER_CPU_BUSY_TIME, 0, 3, 0, "");
	ctr(x, GFXSTAT_COUNTER_CPU_IDLE_TIME, 0, 3, 0, "");
	ctr(x, GFXSTAT_COUNTER_CPU_BUSY_TIME, S, 3, 250 * MS, "");
	ctr(x, GFXSTAT_COUNTER_CPU_IDLE_TIME, S, 3, 750 * MS, "");
	ctr(x, GFXSTAT_COUNTER_CPU_FREQ_SAMPLE, 0, 3, 1200000, "");
	/* CPU 0 has both: the events win */
	ctr(x, GFXSTAT_COUNTER_CPU_BUSY_TIME, 0, 0, 0, "");
	ctr(x, GFXSTAT_COUNTER_CPU_IDLE_TIME, 0, 0, 0, "");
	ctr(x, GFXSTAT_COUNTER_CPU_BUSY_TIME, S, 0, 900 * MS, "");
	ctr(x, GFXSTAT_COUNTER_CPU_IDLE_TIME, S, 0, 100 * MS, "");
	sw(x, 0, 0, 0);
	ctr(x, GFXSTAT_COUNTER_CPU_FREQ_SAMPLE, 0, 0, 1000, "");
	freq(x, 0, 0, 2000);
	CHECK(gfxstat_sysctx_finish(x, S) == 0);
	CHECK_CSTR(vals(find(x, "cpu3.load")), "250");
	CHECK_CSTR(vals(find(x, "cpu3.freq")), "1200000");
	CHECK_CSTR(vals(find(x, "cpu0.load")), "0");
	CHECK_CSTR(vals(find(x, "cpu0.freq")), "2000");
	CHECK_EQ(gfxstat_sysctx_nseries(x), 4 + 2); /* and cluster0 freq/load of CPU 0 */
	gfxstat_sysctx_free(x);
}

TEST(odd_input)
{
	struct gfxstat_sysctx *x = gfxstat_sysctx_new(100 * S); /* capped at 60 s */
	const struct gfxstat_sysctx_counts *c;
	const struct gfxstat_series *s;

	/* out of order for one CPU: refused and counted */
	sw(x, 0, 2 * S, 1);
	sw(x, 0, 1 * S, 0);
	/* CPUs out of range */
	sw(x, 64, S, 1);
	sw(x, -1, S, 1);
	/* a sample too far from the series' others */
	ctr(x, GFXSTAT_COUNTER_THERMAL, 0, -1, 1, "z");
	ctr(x, GFXSTAT_COUNTER_THERMAL, (int64_t)GFXSTAT_SYSCTX_MAX_WINDOWS * 60 * S, -1, 1, "z");
	/* an earlier window than the series' first: it grows at the front */
	ctr(x, GFXSTAT_COUNTER_MEM_AVAILABLE, 120 * S, -1, 5, "");
	ctr(x, GFXSTAT_COUNTER_MEM_AVAILABLE, 0, -1, 7, "");
	/* unknown kinds are ignored */
	ctr(x, GFXSTAT_COUNTER_KIND_COUNT, 0, -1, 7, "");
	CHECK(gfxstat_sysctx_finish(x, 3 * S) == 0);
	CHECK(gfxstat_sysctx_finish(x, 4 * S) == 0); /* once */
	sw(x, 0, 3 * S, 0);                                   /* after finish: ignored */
	c = gfxstat_sysctx_counts(x);
	CHECK_EQ(c->backwards, 1);
	CHECK_EQ(c->cpus_dropped, 2);
	CHECK_EQ(c->out_of_range, 1);
	CHECK_EQ(c->sched[GFXSTAT_SCHED_SWITCH], 4);
	s = find(x, "mem.available");
	CHECK(s && s->window_ns == 60 * S && s->start_ns == 0);
	CHECK_CSTR(vals(s), "7 - 5");
	CHECK(gfxstat_sysctx_series(x, 99) == NULL);
	gfxstat_sysctx_free(x);
	gfxstat_sysctx_free(NULL);
	CHECK_CSTR(gfxstat_sysctx_sched_name(GFXSTAT_SCHED_BLOCKED_REASON), "sched_blocked_reason");
	CHECK_CSTR(gfxstat_sysctx_sched_name(GFXSTAT_SCHED_KIND_COUNT), "?");
	CHECK_CSTR(gfxstat_counter_kind_name(GFXSTAT_COUNTER_RAIL_ENERGY), "rail_energy");
	CHECK_CSTR(gfxstat_counter_kind_unit(GFXSTAT_COUNTER_BATTERY_CAPACITY), "m%");
	CHECK_CSTR(gfxstat_counter_kind_name(GFXSTAT_COUNTER_KIND_COUNT), "?");
}

TEST(series_limit)
{
	struct gfxstat_sysctx *x = gfxstat_sysctx_new(S);
	char name[16];
	int i;

	for (i = 0; i < GFXSTAT_SYSCTX_MAX_SERIES + 10; i++) {
		snprintf(name, sizeof(name), "z%d", i);
		ctr(x, GFXSTAT_COUNTER_THERMAL, 0, -1, i, name);
	}
	CHECK(gfxstat_sysctx_finish(x, GFXSTAT_NS_NONE) == 0); /* the last sample's time */
	CHECK_EQ(gfxstat_sysctx_nseries(x), GFXSTAT_SYSCTX_MAX_SERIES);
	CHECK_EQ(gfxstat_sysctx_counts(x)->series_dropped, 10);
	gfxstat_sysctx_free(x);
}

TEST_SUITE(test_sys_context)
{
	RUN(cpu_load_and_freq);
	RUN(counters);
	RUN(sys_stats_fallbacks);
	RUN(odd_input);
	RUN(series_limit);
}
