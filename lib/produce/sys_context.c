/* SPDX-License-Identifier: MIT */
/*
 * The system around the frames (gfxstat_sysctx.h): per-CPU frequency and load, the same per
 * cpufreq cluster, GPU frequency, temperatures, battery current and capacity, power per rail
 * and free memory, as series with one value per window. Scheduler events and counter
 * samples are folded into per-window sums as they come, so memory is one pair of integers
 * per window per series, whatever the number of events.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../gx_local.h"
#include "gfxstat/gfxstat_sysctx.h"

#define MAX_WINDOW_NS (60 * GFXSTAT_NSEC_PER_SEC) /* value x ns sums stay within int64 */

/* How a series folds its samples into a window (a and b of struct sx_win). */
enum sx_agg {
	AGG_LEVEL, /* a level held from one sample to the next: a = sum value x ns, b = ns */
	AGG_MEAN,  /* samples: a = their sum, b = their number */
	AGG_LAST,  /* samples: a = the last, b = 1 */
};

struct sx_win {
	int64_t a, b;
};

struct sx_series {
	enum gfxstat_series_kind kind;
	enum sx_agg agg;
	int hidden;          /* a fallback, published only when the preferred source is absent */
	char name[GFXSTAT_SYSCTX_NAME];
	int32_t index;
	uint64_t hash;       /* of kind, index and name, to find it again */
	int64_t base;        /* the absolute window index of w[0] */
	struct sx_win *w;
	size_t n, cap;
	/* a level's current value, since @since (AGG_LEVEL series fed by samples) */
	int have_level;
	int zero_is_off;     /* a level of 0 is no value (the GPU powered down), not a 0 */
	int64_t since, level;
	/* a cumulative counter's previous sample (energy; CPU busy and idle times) */
	int have_prev;
	int64_t prev_ts, prev_v, prev_idle;
	int64_t busy_ts, busy;   /* a CPU's busy time, waiting for the idle time of its sample */
	int64_t last_ts;     /* of the last sample, to refuse older ones */
	int64_t *out;
	struct gfxstat_series pub;
};

struct sx_cpu {
	int seen;
	/* sched_switch: whether a thread other than the idle task runs, since @run_since */
	int have_run, running;
	int64_t run_since;
	/* cpu_frequency: the frequency since @freq_since, and the values seen (the cluster's
	 * signature: the CPUs of one policy get the same values in the same order) */
	int have_freq;
	uint32_t freq;
	int64_t freq_since;
	uint64_t sig, nfreq;
	int cluster;
	struct sx_series *load, *freqs;             /* from events */
	struct sx_series *stat_load, *sample_freq;  /* from sys_stats, fallbacks */
	struct sx_series *freq_max, *freq_min;      /* cpu_frequency_limits of its policy */
};

struct gfxstat_sysctx {
	int64_t window_ns;
	int finished;
	struct gfxstat_sysctx_counts counts;
	struct sx_cpu cpu[GFXSTAT_SYSCTX_MAX_CPUS];
	struct sx_series *series[GFXSTAT_SYSCTX_MAX_SERIES];
	size_t nseries;
	const struct gfxstat_series **pub; /* published, in order */
	size_t npub;
	int64_t newest;
	int nomem;
};

/* ---------------------------------------------------------------------------------------- */
/* Series                                                                                   */

static const char *const series_units[GFXSTAT_SERIES_KIND_COUNT] = {
	[GFXSTAT_SERIES_CPU_FREQ] = "kHz",        [GFXSTAT_SERIES_CPU_LOAD] = "permille",
	[GFXSTAT_SERIES_CLUSTER_FREQ] = "kHz",    [GFXSTAT_SERIES_CLUSTER_LOAD] = "permille",
	[GFXSTAT_SERIES_GPU_FREQ] = "kHz",        [GFXSTAT_SERIES_GPU_ACTIVE] = "permille",
	[GFXSTAT_SERIES_THERMAL] = "mC",
	[GFXSTAT_SERIES_BATTERY_CURRENT] = "uA",  [GFXSTAT_SERIES_BATTERY_CAPACITY] = "m%",
	[GFXSTAT_SERIES_RAIL_POWER] = "uW",       [GFXSTAT_SERIES_MEM_AVAILABLE] = "kB",
	[GFXSTAT_SERIES_CPU_FREQ_MAX] = "kHz",    [GFXSTAT_SERIES_CPU_FREQ_MIN] = "kHz",
};

struct gfxstat_sysctx *gfxstat_sysctx_new(int64_t window_ns)
{
	struct gfxstat_sysctx *x = calloc(1, sizeof(*x));
	size_t i;

	if (!x)
		return NULL;
	if (window_ns <= 0)
		window_ns = GFXSTAT_NSEC_PER_SEC;
	if (window_ns > MAX_WINDOW_NS)
		window_ns = MAX_WINDOW_NS;
	x->window_ns = window_ns;
	x->newest = INT64_MIN;
	for (i = 0; i < GFXSTAT_SYSCTX_MAX_CPUS; i++)
		x->cpu[i].cluster = -1;
	return x;
}

static void series_free(struct sx_series *se)
{
	if (!se)
		return;
	free(se->w);
	free(se->out);
	free(se);
}

void gfxstat_sysctx_free(struct gfxstat_sysctx *x)
{
	size_t i;

	if (!x)
		return;
	for (i = 0; i < x->nseries; i++)
		series_free(x->series[i]);
	free(x->pub);
	free(x);
}

static uint64_t series_hash(enum gfxstat_series_kind k, int32_t index, struct gfxstat_str name)
{
	uint64_t h = gx_hash(name.p ? name.p : "", name.p ? name.n : 0);

	return h ^ ((uint64_t)k << 56) ^ (uint64_t)(uint32_t)index * 0x9e3779b97f4a7c15ULL;
}

/* Keep a name's letters that read well in a key ("skin-therm"); others become '_'. */
static void name_copy(char *dst, size_t cap, const char *prefix, struct gfxstat_str name,
		      int32_t index)
{
	size_t n, i;

	if (!name.n)
		n = (size_t)snprintf(dst, cap, "%s%d", prefix, (int)index);
	else
		n = (size_t)snprintf(dst, cap, "%s.", prefix);
	if (n >= cap || !name.n)
		return;
	for (i = 0; i < name.n && n + 1 < cap; i++) {
		char c = name.p[i];

		dst[n++] = (gx_isdigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    c == '-' || c == '_' || c == '.') ? c : '_';
	}
	dst[n] = 0;
}

/* The series of (@kind, @index, @name), made on first use; NULL past the limit. */
static struct sx_series *series_get(struct gfxstat_sysctx *x, enum gfxstat_series_kind kind,
				    enum sx_agg agg, int32_t index, struct gfxstat_str name,
				    const char *prefix, int hidden)
{
	uint64_t h = series_hash(kind, index, name);
	struct sx_series *se;
	size_t i;

	for (i = 0; i < x->nseries; i++) {
		se = x->series[i];
		if (se->hash == h && se->kind == kind && se->index == index &&
		    se->hidden == hidden)
			return se;
	}
	if (x->nseries >= GFXSTAT_SYSCTX_MAX_SERIES) {
		x->counts.series_dropped++;
		return NULL;
	}
	se = calloc(1, sizeof(*se));
	if (!se) {
		x->nomem = 1;
		return NULL;
	}
	se->kind = kind;
	se->agg = agg;
	se->hidden = hidden;
	se->index = index;
	se->hash = h;
	se->last_ts = INT64_MIN;
	name_copy(se->name, sizeof(se->name), prefix, name, index);
	x->series[x->nseries++] = se;
	return se;
}

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* The window of absolute index @k, grown to; NULL when it is too far from the others. */
static struct sx_win *win_at(struct gfxstat_sysctx *x, struct sx_series *se, int64_t k)
{
	if (!se->n) {
		se->base = k;
	} else if (k < se->base) {
		/* an earlier window: shift the others up */
		int64_t shift = se->base - k;

		if (shift > GFXSTAT_SYSCTX_MAX_WINDOWS ||
		    se->n + (size_t)shift > GFXSTAT_SYSCTX_MAX_WINDOWS) {
			x->counts.out_of_range++;
			return NULL;
		}
		if (se->n + (size_t)shift > se->cap) {
			size_t cap = se->n + (size_t)shift + 16;
			struct sx_win *nw = realloc(se->w, cap * sizeof(*nw));

			if (!nw) {
				x->nomem = 1;
				return NULL;
			}
			se->w = nw;
			se->cap = cap;
		}
		memmove(se->w + shift, se->w, se->n * sizeof(*se->w));
		memset(se->w, 0, (size_t)shift * sizeof(*se->w));
		se->n += (size_t)shift;
		se->base = k;
	}
	if (k - se->base >= GFXSTAT_SYSCTX_MAX_WINDOWS) {
		x->counts.out_of_range++;
		return NULL;
	}
	while ((size_t)(k - se->base) >= se->n) {
		if (gx_grow((void **)&se->w, &se->cap, se->n, sizeof(*se->w), 16)) {
			x->nomem = 1;
			return NULL;
		}
		se->w[se->n].a = se->w[se->n].b = 0;
		se->n++;
	}
	return &se->w[k - se->base];
}

static int64_t sat_add(int64_t a, int64_t b)
{
	if (b > 0 && a > INT64_MAX - b)
		return INT64_MAX;
	if (b < 0 && a < INT64_MIN - b)
		return INT64_MIN;
	return a + b;
}

static int64_t sat_mul(int64_t v, int64_t dt)
{
	if (v && dt && (v > INT64_MAX / dt || v < INT64_MIN / dt))
		return v > 0 ? INT64_MAX : INT64_MIN;
	return v * dt;
}

/* A level @v over [t0, t1): a += v x ns, b += ns in each window it crosses. */
static void span(struct gfxstat_sysctx *x, struct sx_series *se, int64_t t0, int64_t t1,
		 int64_t v)
{
	int64_t k, k1;

	if (!se || t1 <= t0)
		return;
	k = floor_div(t0, x->window_ns);
	k1 = floor_div(t1 - 1, x->window_ns);
	if (k1 - k >= GFXSTAT_SYSCTX_MAX_WINDOWS) {
		x->counts.out_of_range++;
		return;
	}
	for (; k <= k1; k++) {
		int64_t ws = k * x->window_ns, we = ws + x->window_ns;
		int64_t a = t0 > ws ? t0 : ws, b = t1 < we ? t1 : we;
		struct sx_win *w = win_at(x, se, k);

		if (!w)
			return;
		w->a = sat_add(w->a, sat_mul(v, b - a));
		w->b += b - a;
	}
}

/* One sample of a MEAN or LAST series. */
static void sample(struct gfxstat_sysctx *x, struct sx_series *se, int64_t ts, int64_t v)
{
	struct sx_win *w;

	if (!se)
		return;
	w = win_at(x, se, floor_div(ts, x->window_ns));
	if (!w)
		return;
	if (se->agg == AGG_LAST) {
		w->a = v;
		w->b = 1;
	} else {
		w->a = sat_add(w->a, v);
		w->b++;
	}
}

/* A new level of a level series fed by samples: the old one holds until @ts. */
static void level_to(struct gfxstat_sysctx *x, struct sx_series *se, int64_t ts, int64_t v)
{
	if (!se)
		return;
	if (se->have_level && !(se->zero_is_off && se->level == 0))
		span(x, se, se->since, ts, se->level);
	se->have_level = 1;
	se->since = ts;
	se->level = v;
}

/* Is @ts older than the series' last sample? Such a sample is refused and counted. */
static int backwards(struct gfxstat_sysctx *x, struct sx_series *se, int64_t ts)
{
	if (!se)
		return 1;
	if (ts < se->last_ts) {
		x->counts.backwards++;
		return 1;
	}
	se->last_ts = ts;
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Input                                                                                    */

static const struct gfxstat_str no_name = { "", 0 };

static struct sx_cpu *cpu_of(struct gfxstat_sysctx *x, int32_t cpu)
{
	if (cpu < 0 || cpu >= GFXSTAT_SYSCTX_MAX_CPUS) {
		x->counts.cpus_dropped++;
		return NULL;
	}
	if (!x->cpu[cpu].seen) {
		x->cpu[cpu].seen = 1;
		x->counts.cpus++;
	}
	return &x->cpu[cpu];
}

int gfxstat_sysctx_sched(void *xv, const struct gfxstat_sched_event *ev)
{
	struct gfxstat_sysctx *x = xv;
	struct sx_cpu *c;

	if (x->finished || (unsigned)ev->kind >= GFXSTAT_SCHED_KIND_COUNT)
		return 0;
	x->counts.sched[ev->kind]++;
	if (ev->ts_ns > x->newest)
		x->newest = ev->ts_ns;
	if (ev->kind == GFXSTAT_SCHED_SWITCH) {
		c = cpu_of(x, ev->cpu);
		if (!c)
			return 0;
		if (!c->load)
			c->load = series_get(x, GFXSTAT_SERIES_CPU_LOAD, AGG_LEVEL, ev->cpu, no_name,
					     "cpu", 0);
		if (c->have_run) {
			if (ev->ts_ns < c->run_since) {
				x->counts.backwards++;
				return 0;
			}
			span(x, c->load, c->run_since, ev->ts_ns, c->running ? 1000 : 0);
		}
		/* the idle task is pid 0 on every CPU ("swapper/N") */
		c->have_run = 1;
		c->running = ev->sw.next_pid != 0;
		c->run_since = ev->ts_ns;
	} else if (ev->kind == GFXSTAT_SCHED_CPU_FREQUENCY) {
		c = cpu_of(x, ev->freq.cpu_id);
		if (!c)
			return 0;
		if (!c->freqs)
			c->freqs = series_get(x, GFXSTAT_SERIES_CPU_FREQ, AGG_LEVEL, ev->freq.cpu_id,
					      no_name, "cpu", 0);
		if (c->have_freq) {
			if (ev->ts_ns < c->freq_since) {
				x->counts.backwards++;
				return 0;
			}
			span(x, c->freqs, c->freq_since, ev->ts_ns, c->freq);
		}
		c->have_freq = 1;
		c->freq = ev->freq.state;
		c->freq_since = ev->ts_ns;
		c->sig = (c->sig ^ ev->freq.state) * 1099511628211ULL + 0x9e3779b97f4a7c15ULL;
		c->nfreq++;
	} else if (ev->kind == GFXSTAT_SCHED_CPU_FREQUENCY_LIMITS) {
		/* the policy's limits (power.h: written for policy->cpu, its first CPU) hold until
		 * the next event; they are levels, as a frequency is */
		c = cpu_of(x, ev->limits.cpu_id);
		if (!c)
			return 0;
		if (!c->freq_max)
			c->freq_max = series_get(x, GFXSTAT_SERIES_CPU_FREQ_MAX, AGG_LEVEL,
						 ev->limits.cpu_id, no_name, "cpu", 0);
		if (!c->freq_min)
			c->freq_min = series_get(x, GFXSTAT_SERIES_CPU_FREQ_MIN, AGG_LEVEL,
						 ev->limits.cpu_id, no_name, "cpu", 0);
		if (!backwards(x, c->freq_max, ev->ts_ns))
			level_to(x, c->freq_max, ev->ts_ns, ev->limits.max_khz);
		if (!backwards(x, c->freq_min, ev->ts_ns))
			level_to(x, c->freq_min, ev->ts_ns, ev->limits.min_khz);
	}
	return 0;
}

int gfxstat_sysctx_counter(void *xv, const struct gfxstat_counter *cn)
{
	struct gfxstat_sysctx *x = xv;
	struct sx_series *se = NULL;
	struct sx_cpu *c;

	if (x->finished || (unsigned)cn->kind >= GFXSTAT_COUNTER_KIND_COUNT)
		return 0;
	x->counts.counter[cn->kind]++;
	if (cn->ts_ns > x->newest)
		x->newest = cn->ts_ns;
	switch (cn->kind) {
	case GFXSTAT_COUNTER_GPU_FREQ:
		/* gpu_frequency has an id ("gpu0"); trace text's kgsl, devfreq and clock events
		 * a device or clock name ("gpu.kgsl-3d0"), each its own series */
		se = series_get(x, GFXSTAT_SERIES_GPU_FREQ, AGG_LEVEL, cn->name.n ? -1 : cn->index,
				cn->name, "gpu", 0);
		if (backwards(x, se, cn->ts_ns))
			break;
		se->zero_is_off = 1;
		level_to(x, se, cn->ts_ns, cn->value);
		/* and how much of the time it was on at all: known where a rate of 0 is the GPU
		 * powered down (gpu_frequency, as Mali reports it; kgsl_clk's flag=off), not
		 * from a clock's rate, which a disabled clock keeps */
		if (!cn->name.n || (cn->name.n >= 4 && memcmp(cn->name.p, "kgsl", 4) == 0))
			level_to(x, series_get(x, GFXSTAT_SERIES_GPU_ACTIVE, AGG_LEVEL,
					       cn->name.n ? -1 : cn->index, cn->name, "gpu", 0),
				 cn->ts_ns, cn->value ? 1000 : 0);
		break;
	case GFXSTAT_COUNTER_CPU_FREQ_SAMPLE:
		c = cpu_of(x, cn->index);
		if (!c)
			break;
		if (!c->sample_freq)
			c->sample_freq = series_get(x, GFXSTAT_SERIES_CPU_FREQ, AGG_LEVEL,
						    cn->index, no_name, "cpu", 1);
		if (!backwards(x, c->sample_freq, cn->ts_ns))
			level_to(x, c->sample_freq, cn->ts_ns, cn->value);
		break;
	case GFXSTAT_COUNTER_CPU_BUSY_TIME:
	case GFXSTAT_COUNTER_CPU_IDLE_TIME:
		c = cpu_of(x, cn->index);
		if (!c)
			break;
		if (!c->stat_load)
			c->stat_load = series_get(x, GFXSTAT_SERIES_CPU_LOAD, AGG_LEVEL, cn->index,
						  no_name, "cpu", 1);
		se = c->stat_load;
		if (!se)
			break;
		/* a sample's busy time comes first, then its idle time: from one sample to
		 * the next, the share of busy time is the load */
		if (cn->kind == GFXSTAT_COUNTER_CPU_BUSY_TIME) {
			se->busy_ts = cn->ts_ns;
			se->busy = cn->value;
			break;
		}
		if (cn->ts_ns != se->busy_ts)
			break; /* an idle time without its busy time */
		if (se->have_prev && cn->ts_ns > se->prev_ts) {
			int64_t db = se->busy - se->prev_v, di = cn->value - se->prev_idle;

			if (db >= 0 && di >= 0 && db <= INT64_MAX - di && db + di > 0 &&
			    db <= INT64_MAX / 1000)
				span(x, se, se->prev_ts, cn->ts_ns, db * 1000 / (db + di));
			else if (cn->ts_ns < se->prev_ts)
				x->counts.backwards++;
		}
		if (!se->have_prev || cn->ts_ns > se->prev_ts) {
			se->have_prev = 1;
			se->prev_ts = cn->ts_ns;
			se->prev_v = se->busy;
			se->prev_idle = cn->value;
		}
		break;
	case GFXSTAT_COUNTER_THERMAL:
		se = series_get(x, GFXSTAT_SERIES_THERMAL, AGG_MEAN, cn->name.n ? -1 : cn->index,
				cn->name, "thermal", 0);
		sample(x, se, cn->ts_ns, cn->value);
		break;
	case GFXSTAT_COUNTER_BATTERY_CURRENT:
		se = series_get(x, GFXSTAT_SERIES_BATTERY_CURRENT, AGG_MEAN, -1,
				(struct gfxstat_str){ "current", 7 }, "battery", 0);
		sample(x, se, cn->ts_ns, cn->value);
		break;
	case GFXSTAT_COUNTER_BATTERY_CAPACITY:
		se = series_get(x, GFXSTAT_SERIES_BATTERY_CAPACITY, AGG_LAST, -1,
				(struct gfxstat_str){ "capacity", 8 }, "battery", 0);
		sample(x, se, cn->ts_ns, cn->value);
		break;
	case GFXSTAT_COUNTER_MEM_AVAILABLE:
		se = series_get(x, GFXSTAT_SERIES_MEM_AVAILABLE, AGG_MEAN, -1,
				(struct gfxstat_str){ "available", 9 }, "mem", 0);
		sample(x, se, cn->ts_ns, cn->value);
		break;
	case GFXSTAT_COUNTER_RAIL_ENERGY:
		se = series_get(x, GFXSTAT_SERIES_RAIL_POWER, AGG_LEVEL, cn->index, cn->name,
				"rail", 0);
		if (!se || backwards(x, se, cn->ts_ns))
			break;
		/* energy since boot: its rise over the time between samples is the power */
		if (se->have_prev && cn->ts_ns > se->prev_ts && cn->value >= se->prev_v) {
			int64_t de = cn->value - se->prev_v;
			int64_t dus = (cn->ts_ns - se->prev_ts) / GFXSTAT_NSEC_PER_USEC;

			if (dus > 0 && de <= INT64_MAX / 1000000)
				span(x, se, se->prev_ts, cn->ts_ns, de * 1000000 / dus);
		}
		se->have_prev = 1;
		se->prev_ts = cn->ts_ns;
		se->prev_v = cn->value;
		break;
	default:
		break; /* counted only */
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Finish                                                                                   */

/* A cluster's series from its CPUs' per-window sums. */
static struct sx_series *cluster_series(struct gfxstat_sysctx *x, int cl, int load,
					uint64_t cpus)
{
	struct sx_series *se;
	int i;
	size_t k;

	se = series_get(x, load ? GFXSTAT_SERIES_CLUSTER_LOAD : GFXSTAT_SERIES_CLUSTER_FREQ,
			AGG_LEVEL, cl, no_name, "cluster", 0);
	if (!se)
		return NULL;
	se->pub.cpus = cpus;
	for (i = 0; i < GFXSTAT_SYSCTX_MAX_CPUS; i++) {
		struct sx_series *src;

		if (!(cpus & (1ULL << i)))
			continue;
		src = load ? x->cpu[i].load : x->cpu[i].freqs;
		if (!src)
			continue;
		for (k = 0; k < src->n; k++) {
			struct sx_win *w = win_at(x, se, src->base + (int64_t)k);

			if (!w)
				break;
			w->a = sat_add(w->a, src->w[k].a);
			w->b += src->w[k].b;
		}
		if (!load)
			break; /* the CPUs of a policy share its frequency: one is enough */
	}
	return se;
}

static void clusters(struct gfxstat_sysctx *x)
{
	int i, j, n = 0;

	for (i = 0; i < GFXSTAT_SYSCTX_MAX_CPUS; i++) {
		uint64_t cpus = 0;

		if (!x->cpu[i].have_freq || x->cpu[i].cluster >= 0)
			continue;
		for (j = i; j < GFXSTAT_SYSCTX_MAX_CPUS; j++)
			if (x->cpu[j].have_freq && x->cpu[j].cluster < 0 &&
			    x->cpu[j].sig == x->cpu[i].sig && x->cpu[j].nfreq == x->cpu[i].nfreq) {
				x->cpu[j].cluster = n;
				cpus |= 1ULL << j;
			}
		cluster_series(x, n, 0, cpus);
		cluster_series(x, n, 1, cpus);
		n++;
	}
	x->counts.clusters = (uint64_t)n;
}

/* Series shown together: a CPU's frequency and load, a cluster's, a GPU's. */
static int group_of(enum gfxstat_series_kind k)
{
	switch (k) {
	case GFXSTAT_SERIES_CPU_LOAD:
		return GFXSTAT_SERIES_CPU_FREQ;
	case GFXSTAT_SERIES_CLUSTER_LOAD:
		return GFXSTAT_SERIES_CLUSTER_FREQ;
	case GFXSTAT_SERIES_GPU_ACTIVE:
		return GFXSTAT_SERIES_GPU_FREQ;
	case GFXSTAT_SERIES_CPU_FREQ_MAX:
	case GFXSTAT_SERIES_CPU_FREQ_MIN:
		return GFXSTAT_SERIES_CPU_FREQ;
	default:
		return (int)k;
	}
}

static int cmp_pub(const void *a, const void *b)
{
	const struct gfxstat_series *x = *(const struct gfxstat_series *const *)a;
	const struct gfxstat_series *y = *(const struct gfxstat_series *const *)b;
	int ox = group_of(x->kind), oy = group_of(y->kind);

	/* per CPU its frequency then its load, per cluster the same; then the rest by kind */
	if (ox != oy)
		return ox < oy ? -1 : 1;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Should @se be published: not a fallback whose preferred source exists. */
static int published(const struct gfxstat_sysctx *x, const struct sx_series *se)
{
	if (!se->hidden)
		return 1;
	if (se->index < 0 || se->index >= GFXSTAT_SYSCTX_MAX_CPUS)
		return 0;
	if (se->kind == GFXSTAT_SERIES_CPU_FREQ)
		return !x->cpu[se->index].freqs;
	return !x->cpu[se->index].load;
}

int gfxstat_sysctx_finish(struct gfxstat_sysctx *x, int64_t end_ns)
{
	size_t i, k;
	int c;

	if (x->finished)
		return x->nomem ? GFXSTAT_E_NOMEM : 0;
	x->finished = 1;
	if (end_ns == GFXSTAT_NS_NONE)
		end_ns = x->newest;
	/* states and levels last until the end of the recording */
	for (c = 0; c < GFXSTAT_SYSCTX_MAX_CPUS; c++) {
		struct sx_cpu *p = &x->cpu[c];

		if (p->have_run)
			span(x, p->load, p->run_since, end_ns, p->running ? 1000 : 0);
		if (p->have_freq)
			span(x, p->freqs, p->freq_since, end_ns, p->freq);
	}
	for (i = 0; i < x->nseries; i++)
		if (x->series[i]->have_level)
			level_to(x, x->series[i], end_ns, 0);
	clusters(x);
	x->pub = calloc(x->nseries ? x->nseries : 1, sizeof(*x->pub));
	if (!x->pub)
		return GFXSTAT_E_NOMEM;
	for (i = 0; i < x->nseries; i++) {
		struct sx_series *se = x->series[i];
		struct gfxstat_series *p = &se->pub;

		if (!se->n || !published(x, se))
			continue;
		se->out = malloc(se->n * sizeof(*se->out));
		if (!se->out)
			return GFXSTAT_E_NOMEM;
		for (k = 0; k < se->n; k++) {
			const struct sx_win *w = &se->w[k];

			if (!w->b)
				se->out[k] = GFXSTAT_SERIES_NONE;
			else if (se->agg == AGG_LAST)
				se->out[k] = w->a;
			else
				se->out[k] = floor_div(w->a, w->b);
		}
		p->kind = se->kind;
		memcpy(p->name, se->name, sizeof(p->name));
		p->unit = series_units[se->kind];
		p->index = se->index;
		if (se->kind == GFXSTAT_SERIES_CPU_FREQ || se->kind == GFXSTAT_SERIES_CPU_LOAD ||
		    se->kind == GFXSTAT_SERIES_CPU_FREQ_MAX ||
		    se->kind == GFXSTAT_SERIES_CPU_FREQ_MIN) {
			size_t len = strlen(p->name);

			snprintf(p->name + len, sizeof(p->name) - len, "%s",
				 se->kind == GFXSTAT_SERIES_CPU_FREQ	   ? ".freq"
				 : se->kind == GFXSTAT_SERIES_CPU_LOAD	   ? ".load"
				 : se->kind == GFXSTAT_SERIES_CPU_FREQ_MAX ? ".freq_max"
									   : ".freq_min");
			p->cpus = 1ULL << se->index;
		} else if (se->kind == GFXSTAT_SERIES_CLUSTER_FREQ ||
			   se->kind == GFXSTAT_SERIES_CLUSTER_LOAD ||
			   se->kind == GFXSTAT_SERIES_GPU_FREQ ||
			   se->kind == GFXSTAT_SERIES_GPU_ACTIVE) {
			size_t len = strlen(p->name);

			snprintf(p->name + len, sizeof(p->name) - len, "%s",
				 se->kind == GFXSTAT_SERIES_CLUSTER_LOAD ? ".load"
				 : se->kind == GFXSTAT_SERIES_GPU_ACTIVE ? ".active" : ".freq");
		}
		p->window_ns = x->window_ns;
		p->start_ns = se->base * x->window_ns;
		p->n = se->n;
		p->v = se->out;
		x->pub[x->npub++] = p;
	}
	if (x->npub > 1)
		qsort(x->pub, x->npub, sizeof(*x->pub), cmp_pub);
	return x->nomem ? GFXSTAT_E_NOMEM : 0;
}

size_t gfxstat_sysctx_nseries(const struct gfxstat_sysctx *x)
{
	return x->npub;
}

const struct gfxstat_series *gfxstat_sysctx_series(const struct gfxstat_sysctx *x, size_t i)
{
	return i < x->npub ? x->pub[i] : NULL;
}

const struct gfxstat_sysctx_counts *gfxstat_sysctx_counts(const struct gfxstat_sysctx *x)
{
	return &x->counts;
}

int64_t gfxstat_series_mean(const struct gfxstat_series *s, int64_t *max)
{
	int64_t sum = 0, mx = GFXSTAT_SERIES_NONE, n = 0;
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (s->v[i] == GFXSTAT_SERIES_NONE)
			continue;
		sum = sat_add(sum, s->v[i]);
		n++;
		if (mx == GFXSTAT_SERIES_NONE || s->v[i] > mx)
			mx = s->v[i];
	}
	if (max)
		*max = mx;
	return n ? floor_div(sum, n) : GFXSTAT_SERIES_NONE;
}
