/* SPDX-License-Identifier: MIT */
/*
 * libgfxstat: the system around the frames. What the CPUs, the GPU, the battery and the
 * thermal zones did while the app drew, as series with one value per window.
 *
 *   Perfetto counters (sys_stats, battery, power rails, process_stats, gpu_frequency,
 *   thermal_temperature)              -> struct gfxstat_counter      \
 *   scheduler events (gfxstat_sched.h: sched_switch, cpu_frequency) ---> gfxstat_sysctx
 *                                                                        -> series per window
 *
 * Ownership: a struct gfxstat_counter borrows its producer's memory (its name is valid during
 * the callback only). Every gfxstat_sysctx_new() has a gfxstat_sysctx_free() that accepts
 * NULL; the series it returns are valid until gfxstat_sysctx_free(). Memory is one value per
 * window per series, with limits (GFXSTAT_SYSCTX_MAX_*), never one per event.
 */
#ifndef GFXSTAT_SYSCTX_H
#define GFXSTAT_SYSCTX_H

#include "gfxstat.h"
#include "gfxstat_sched.h"

/* ---------------------------------------------------------------------------------------- */
/* One counter sample                                                                         */

/*
 * What a counter measures, and its unit. Values are integers in that unit, as the trace
 * holds them (a float battery capacity becomes thousandths of a percent).
 */
enum gfxstat_counter_kind {
	GFXSTAT_COUNTER_NONE = 0,
	GFXSTAT_COUNTER_GPU_FREQ,          /* kHz; index: gpu id (ftrace gpu_frequency, or
					    * sys_stats gpufreq_mhz x 1000) */
	GFXSTAT_COUNTER_CPU_FREQ_SAMPLE,   /* kHz; index: cpu (sys_stats cpufreq_khz, polled;
					    * cpu_frequency events are scheduler events) */
	GFXSTAT_COUNTER_CPU_BUSY_TIME,     /* ns since boot, user+nice+system+irq+softirq;
					    * index: cpu (sys_stats cpu_stat) */
	GFXSTAT_COUNTER_CPU_IDLE_TIME,     /* ns since boot, idle+iowait; index: cpu */
	GFXSTAT_COUNTER_THERMAL,           /* millidegrees Celsius; index: zone id or -1;
					    * name: the zone (thermal_temperature's thermal_zone,
					    * sys_stats thermal_zone's type) */
	GFXSTAT_COUNTER_BATTERY_CHARGE,    /* uAh (battery coulomb counter) */
	GFXSTAT_COUNTER_BATTERY_CAPACITY,  /* thousandths of a percent (100000 = full) */
	GFXSTAT_COUNTER_BATTERY_CURRENT,   /* uA; > 0 drawn from the battery, < 0 charging */
	GFXSTAT_COUNTER_BATTERY_CURRENT_AVG, /* uA, the fuel gauge's average */
	GFXSTAT_COUNTER_RAIL_ENERGY,       /* uWs since boot; index: rail; name: the rail's
					    * name ("S4M_VDD_CPUCL0") when its descriptor came */
	GFXSTAT_COUNTER_MEM_AVAILABLE,     /* kB (sys_stats meminfo MemAvailable) */
	GFXSTAT_COUNTER_PROCESS_RSS,       /* kB; index: pid (process_stats vm_rss_kb) */
	GFXSTAT_COUNTER_KIND_COUNT
};

struct gfxstat_counter {
	enum gfxstat_counter_kind kind;
	int64_t ts_ns;           /* on the trace clock */
	int32_t index;           /* cpu, gpu, rail, zone or pid; -1 when the kind has none */
	int64_t value;
	struct gfxstat_str name; /* a rail's or zone's name, or empty */
};

/* Called for every counter sample. Return non-zero to stop the producer. */
typedef int (*gfxstat_counter_fn)(void *user, const struct gfxstat_counter *c);

struct gfxstat_trace_parser;

/**
 * gfxstat_trace_parser_set_counter_fn() - also hand ftrace text's GPU frequency and thermal
 * events to @fn, as counter samples (lib/input/counter_line.c)
 *
 * gpu_frequency (index: gpu_id), kgsl_pwrlevel / kgsl_clk / devfreq_frequency of a GPU /
 * clk_set_rate of a GPU clock (kHz; name: the device or clock) and thermal_temperature (index:
 * zone id; name: the zone). Off by default: without it these lines are dropped after their
 * name is read. Lines that cannot be read are counted (sched_malformed).
 */
void gfxstat_trace_parser_set_counter_fn(struct gfxstat_trace_parser *p, gfxstat_counter_fn fn,
					 void *user);

/* "gpu_freq", "cpu_freq_sample", ..., or "?" */
const char *gfxstat_counter_kind_name(enum gfxstat_counter_kind k);
/* "kHz", "ns", "mC", "uAh", "m%", "uA", "uWs", "kB", or "" */
const char *gfxstat_counter_kind_unit(enum gfxstat_counter_kind k);
/* The ftrace name of a scheduler event kind ("sched_switch", ...), or "?" */
const char *gfxstat_sysctx_sched_name(enum gfxstat_sched_kind k);

/**
 * gfxstat_sched_event_format() - a scheduler event as the kernel's ftrace text line
 * @ev: the event
 * @buf: destination (NUL-terminated when @cap > 0)
 * @cap: its size
 *
 * "<comm>-<tid> (<tgid>|-----) [<cpu>] ..<irq>. <sec>.<nsec>: <event>: <payload>", the
 * payload as the kernel's TP_printk writes it, with nine fraction digits so that
 * gfxstat_ftrace_line_parse() and gfxstat_sched_line_parse() give the same event back.
 * Return: the length written (without NUL), or the length needed if it is >= @cap.
 */
size_t gfxstat_sched_event_format(const struct gfxstat_sched_event *ev, char *buf, size_t cap);

/* ---------------------------------------------------------------------------------------- */
/* System context series                                                                      */

#define GFXSTAT_SYSCTX_MAX_CPUS 64        /* CPUs with series; others are counted, ignored */
#define GFXSTAT_SYSCTX_MAX_SERIES 256     /* series kept; later ones are counted, ignored */
#define GFXSTAT_SYSCTX_MAX_WINDOWS 100000 /* windows per series: a day at 1 s */
#define GFXSTAT_SYSCTX_NAME 48

#define GFXSTAT_SERIES_NONE INT64_MIN /* a window the series has no value for */

enum gfxstat_series_kind {
	GFXSTAT_SERIES_CPU_FREQ,     /* kHz, time-weighted mean (cpu_frequency) */
	GFXSTAT_SERIES_CPU_LOAD,     /* permille of the window's known time the CPU ran a thread
				      * other than its idle task (sched_switch), or of its
				      * busy+idle time (sys_stats cpu_stat) */
	GFXSTAT_SERIES_CLUSTER_FREQ, /* kHz: a cluster's (cpufreq policy's) frequency */
	GFXSTAT_SERIES_CLUSTER_LOAD, /* permille, over the cluster's CPUs */
	GFXSTAT_SERIES_GPU_FREQ,     /* kHz, time-weighted mean while the GPU is on (a frequency
				      * of 0 is the GPU powered down, as Mali reports it) */
	GFXSTAT_SERIES_GPU_ACTIVE,   /* permille of the window's known time the GPU was on */
	GFXSTAT_SERIES_THERMAL,      /* millidegrees C, mean of the samples in the window */
	GFXSTAT_SERIES_BATTERY_CURRENT, /* uA, mean of the samples */
	GFXSTAT_SERIES_BATTERY_CAPACITY, /* thousandths of a percent, last sample */
	GFXSTAT_SERIES_RAIL_POWER,   /* uW: a rail's energy over time, time-weighted */
	GFXSTAT_SERIES_MEM_AVAILABLE, /* kB, mean of the samples */
	GFXSTAT_SERIES_CPU_FREQ_MAX, /* kHz, time-weighted: the cpufreq policy's highest allowed
				      * frequency (cpu_frequency_limits max; index: the policy's
				      * first CPU, its cpu_id) */
	GFXSTAT_SERIES_CPU_FREQ_MIN, /* kHz, the same for its lowest allowed (min) */
	GFXSTAT_SERIES_KIND_COUNT
};

/*
 * One series: v[i] is the value of the window [start_ns + i * window_ns, + window_ns), or
 * GFXSTAT_SERIES_NONE. Windows are aligned on multiples of window_ns of the trace clock, so
 * series of one recording line up.
 */
struct gfxstat_series {
	enum gfxstat_series_kind kind;
	char name[GFXSTAT_SYSCTX_NAME]; /* "cpu0.freq", "cpu0.freq_max", "cluster1.load",
					 * "gpu0.freq", "gpu0.active", "gpu.kgsl-3d0.freq",
					 * "thermal.skin-therm", "rail.S4M_VDD_CPUCL0", ... */
	const char *unit;        /* "kHz", "permille", "mC", "uA", "m%", "uW", "kB" */
	int32_t index;           /* cpu, cluster, gpu, rail or zone id, or -1 */
	uint64_t cpus;           /* cluster series: bit c for each of its CPUs */
	int64_t window_ns;
	int64_t start_ns;
	size_t n;
	const int64_t *v;
};

/* What the recording held: every scheduler event kind and counter kind seen, and counts. */
struct gfxstat_sysctx_counts {
	uint64_t sched[GFXSTAT_SCHED_KIND_COUNT];
	uint64_t counter[GFXSTAT_COUNTER_KIND_COUNT];
	uint64_t clusters;        /* cpufreq clusters found (CPUs whose frequency moves together) */
	uint64_t cpus;            /* CPUs seen */
	uint64_t cpus_dropped;    /* events of CPUs past GFXSTAT_SYSCTX_MAX_CPUS */
	uint64_t series_dropped;  /* samples of series past GFXSTAT_SYSCTX_MAX_SERIES */
	uint64_t out_of_range;    /* samples beyond GFXSTAT_SYSCTX_MAX_WINDOWS of the others */
	uint64_t backwards;       /* samples older than the last of their series, ignored */
};

struct gfxstat_sysctx;

/**
 * gfxstat_sysctx_new() - collect system series
 * @window_ns: the window (1 s when 0 or negative; at most 600 s)
 *
 * Return: the collector, or NULL if memory ran out.
 */
struct gfxstat_sysctx *gfxstat_sysctx_new(int64_t window_ns);
void gfxstat_sysctx_free(struct gfxstat_sysctx *x);

/**
 * gfxstat_sysctx_sched() - one scheduler event (a gfxstat_sched_fn)
 * @x: the collector (void *, to be a callback)
 *
 * sched_switch gives each CPU's load, cpu_frequency its frequency, cpu_frequency_limits its
 * policy's limits; every kind is counted.
 * Events come in time order per CPU (the producers' promise). Return: 0.
 */
int gfxstat_sysctx_sched(void *x, const struct gfxstat_sched_event *ev);

/**
 * gfxstat_sysctx_counter() - one counter sample (a gfxstat_counter_fn)
 * Return: 0.
 */
int gfxstat_sysctx_counter(void *x, const struct gfxstat_counter *c);

/**
 * gfxstat_sysctx_finish() - the recording ended at @end_ns: make the series
 * @end_ns: the recording's last time (states last until then), or GFXSTAT_NS_NONE for the
 *          last event's time
 *
 * Finds the clusters, then builds the series. Later events are ignored.
 * Return: 0 or GFXSTAT_E_NOMEM.
 */
int gfxstat_sysctx_finish(struct gfxstat_sysctx *x, int64_t end_ns);

/* The series after gfxstat_sysctx_finish(): CPUs, clusters, GPU, thermal, battery, rails. */
size_t gfxstat_sysctx_nseries(const struct gfxstat_sysctx *x);
const struct gfxstat_series *gfxstat_sysctx_series(const struct gfxstat_sysctx *x, size_t i);
const struct gfxstat_sysctx_counts *gfxstat_sysctx_counts(const struct gfxstat_sysctx *x);

/**
 * gfxstat_series_mean() - the mean of a series' windows that have a value
 * @max: its largest value, or GFXSTAT_SERIES_NONE; may be NULL
 * Return: the mean (rounded down), or GFXSTAT_SERIES_NONE when no window has one.
 */
int64_t gfxstat_series_mean(const struct gfxstat_series *s, int64_t *max);

#endif
