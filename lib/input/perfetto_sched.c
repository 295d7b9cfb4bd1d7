/* SPDX-License-Identifier: MIT */
/*
 * Scheduler events and system counters of a Perfetto trace, without libperfetto
 * (perfetto_sched_local.h): FtraceEventBundle events (sched_switch, sched_waking, ...,
 * cpu_frequency, binder, task_*, gpu_frequency, thermal_temperature) and the bundle's
 * compact_sched columns become struct gfxstat_sched_event (gfxstat_sched.h) and struct
 * gfxstat_counter (gfxstat_sysctx.h), merged over the CPUs in time order; sys_stats,
 * process_stats, battery and power rail packets become counters. Field numbers are
 * google/perfetto's, cited per message below.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto_sched_local.h"
#include "protobuf_local.h"

enum {
	/* protos/perfetto/trace/ftrace/ftrace_event_bundle.proto */
	BUNDLE_CPU = 1,
	BUNDLE_EVENT = 2,
	BUNDLE_LOST_EVENTS = 3,
	BUNDLE_COMPACT_SCHED = 4,
	BUNDLE_FTRACE_CLOCK = 5,      /* enum FtraceClock: 0 unspecified (boot), 1 unknown,
				       * 2 global, 3 local, 4 mono_raw */
	BUNDLE_FTRACE_TIMESTAMP = 6,  /* with boot_timestamp: a snapshot of the two clocks */
	BUNDLE_BOOT_TIMESTAMP = 7,
	/* FtraceEventBundle.CompactSched: packed columns, one entry per event */
	CS_SWITCH_TIMESTAMP = 1,      /* delta-encoded from the previous switch */
	CS_SWITCH_PREV_STATE = 2,
	CS_SWITCH_NEXT_PID = 3,
	CS_SWITCH_NEXT_PRIO = 4,
	CS_INTERN_TABLE = 5,          /* repeated string: the task names */
	CS_SWITCH_NEXT_COMM_INDEX = 6,
	CS_WAKING_TIMESTAMP = 7,      /* delta-encoded from the previous waking */
	CS_WAKING_PID = 8,
	CS_WAKING_TARGET_CPU = 9,
	CS_WAKING_PRIO = 10,
	CS_WAKING_COMM_INDEX = 11,
	CS_WAKING_COMMON_FLAGS = 12,  /* newer traces; absent means 0 */
	/* protos/perfetto/trace/ftrace/ftrace_event.proto: FtraceEvent */
	EV_TIMESTAMP = 1,
	EV_PID = 2,                   /* the kernel pid (a thread id) current on the CPU */
	EV_COMMON_FLAGS = 5,          /* the kernel's trace_flag_type bits */
	EV_PRINT = 3,                 /* ftrace.proto PrintFtraceEvent { ip = 1, buf = 2 } */
	EV_SCHED_SWITCH = 4,
	EV_CPU_FREQUENCY = 11,
	EV_CPU_FREQUENCY_LIMITS = 12,
	EV_CPU_IDLE = 13,
	EV_SCHED_WAKEUP = 17,
	EV_SCHED_BLOCKED_REASON = 18,
	EV_SCHED_WAKING = 20,
	EV_BINDER_TRANSACTION = 50,
	EV_BINDER_TRANSACTION_RECEIVED = 51,
	EV_SCHED_WAKEUP_NEW = 114,
	EV_TASK_NEWTASK = 235,
	EV_TASK_RENAME = 236,
	EV_GPU_FREQUENCY = 332,
	EV_THERMAL_TEMPERATURE = 341,
	/* sched.proto SchedSwitchFtraceEvent */
	SW_PREV_COMM = 1,
	SW_PREV_PID = 2,
	SW_PREV_PRIO = 3,
	SW_PREV_STATE = 4,
	SW_NEXT_COMM = 5,
	SW_NEXT_PID = 6,
	SW_NEXT_PRIO = 7,
	/* sched.proto SchedWakeupFtraceEvent, SchedWakingFtraceEvent, SchedWakeupNew... */
	WK_COMM = 1,
	WK_PID = 2,
	WK_PRIO = 3,
	WK_TARGET_CPU = 5,
	/* sched.proto SchedBlockedReasonFtraceEvent */
	BR_PID = 1,
	BR_CALLER = 2,
	BR_IO_WAIT = 3,
	/* power.proto CpuFrequencyFtraceEvent, CpuIdleFtraceEvent: state = 1, cpu_id = 2;
	 * CpuFrequencyLimitsFtraceEvent: min_freq = 1, max_freq = 2, cpu_id = 3;
	 * GpuFrequencyFtraceEvent: gpu_id = 1, state = 2 */
	FQ_STATE = 1,
	FQ_CPU_ID = 2,
	LIM_MIN = 1,
	LIM_MAX = 2,
	LIM_CPU_ID = 3,
	GPU_ID = 1,
	GPU_STATE = 2,
	/* binder.proto BinderTransactionFtraceEvent; ..ReceivedFtraceEvent: debug_id = 1 */
	BT_DEBUG_ID = 1,
	BT_TARGET_NODE = 2,
	BT_TO_PROC = 3,
	BT_TO_THREAD = 4,
	BT_REPLY = 5,
	BT_CODE = 6,
	BT_FLAGS = 7,
	/* task.proto TaskNewtaskFtraceEvent: pid 1, comm 2, clone_flags 3, oom_score_adj 4;
	 * TaskRenameFtraceEvent: pid 1, oldcomm 2, newcomm 3, oom_score_adj 4 */
	TK_PID = 1,
	TK_COMM = 2,
	TK_CLONE_FLAGS = 3,
	TK_NEWCOMM = 3,
	TK_OOM = 4,
	/* thermal.proto ThermalTemperatureFtraceEvent */
	TH_ID = 1,
	TH_TEMP = 2,
	TH_ZONE = 4,
	/* protos/perfetto/trace/sys_stats/sys_stats.proto SysStats */
	SYS_MEMINFO = 1,              /* { key = 1 (MeminfoCounters), value = 2 (kB) } */
	SYS_CPU_STAT = 3,
	SYS_CPUFREQ_KHZ = 11,
	SYS_THERMAL_ZONE = 15,        /* { name = 1, temp = 2 (degrees C), type = 3 } */
	SYS_GPUFREQ_MHZ = 17,
	MEMINFO_MEM_AVAILABLE = 3,    /* protos/perfetto/common/sys_stats_counters.proto */
	/* SysStats.CpuTimes: cpu_id 1, user_ns 2, user_nice_ns 3, system_mode_ns 4, idle_ns 5,
	 * io_wait_ns 6, irq_ns 7, softirq_ns 8 */
	CT_CPU_ID = 1,
	CT_IDLE = 5,
	CT_IO_WAIT = 6,
	CT_SOFTIRQ = 8,
	/* protos/perfetto/trace/ps/process_stats.proto: processes = 1 { pid = 1,
	 * vm_rss_kb = 3 } */
	PS_PROCESS = 1,
	PS_PID = 1,
	PS_RSS_KB = 3,
	/* protos/perfetto/trace/power/battery_counters.proto */
	BAT_CHARGE_UAH = 1,
	BAT_CAPACITY_PCT = 2,         /* float */
	BAT_CURRENT_UA = 3,
	BAT_CURRENT_AVG_UA = 4,
	/* protos/perfetto/trace/power/power_rails.proto */
	RAIL_DESCRIPTOR = 1,          /* { index = 1, rail_name = 2 } */
	RAIL_ENERGY = 2,              /* { index = 1, timestamp_ms = 2 (boot), energy = 3 } */
	/* protos/perfetto/common/system_info.proto: utsname = 1 { release = 3 },
	 * num_cpus = 8 (perfetto v44+) */
	SI_UTSNAME = 1,
	SI_NUM_CPUS = 8,
	UTS_RELEASE = 3,
	/* TracePacket fields handed to gx_psched_packet() (trace_packet.proto) */
	PKT_SYS_STATS = 7,
	PKT_PROCESS_STATS = 9,
	PKT_BATTERY = 38,
	PKT_POWER_RAILS = 40,
	PKT_SYSTEM_INFO = 45,
};

/* Inlined where every event passes (a call costs as much as the work); not where few do. */
#if defined(__GNUC__)
#define PS_INLINE __attribute__((always_inline)) inline
#define PS_NOINLINE __attribute__((noinline))
#else
#define PS_INLINE inline
#define PS_NOINLINE
#endif

/* include/linux/trace_events.h enum trace_flag_type */
#define TRACE_FLAG_HARDIRQ 0x08u
#define TRACE_FLAG_SOFTIRQ 0x10u

#define NAME_NONE UINT32_MAX
#define WANT_FIELDS (EV_THERMAL_TEMPERATURE + 1)
#define AHEAD_MIN 4096 /* a smaller bundle does not start the decoding thread's work */
#define NAME_MAX_LEN 64
#define KIND_COUNTER 0x80u /* ps_ev.kind: a counter of an ftrace event, low bits its kind */
#define KIND_PRINT 0x40u   /* ps_ev.kind: an atrace marker, its payload at buf (u bytes) */
#define ORD_EVENT (1ull << 62)    /* bundle order: compact switches, wakings, then events */
#define ORD_WAKING (1ull << 61)

/*
 * One event held for merging. The kind-specific fields:
 *   switch: s1/s2 prev/next comm, a prev_pid, b prev_prio, x raw prev_state, c next_pid,
 *           d next_prio; wake: s1 comm, a pid, b prio, c target_cpu; blocked: a pid,
 *           b io_wait, x caller address; freq/idle: u state, a cpu_id; limits: u min, v max,
 *           a cpu_id; binder: a transaction, b dest_node, c dest_proc, d dest_thread,
 *           x reply, u flags, v code; rename: a pid, s1 old, s2 new, b oom_score_adj;
 *           newtask: a pid, s1 comm, x clone_flags, b oom_score_adj;
 *   counter (kind KIND_COUNTER | its kind): a index, x value, s1 name;
 *   print (KIND_PRINT): buf the payload (s1 bytes, from arena_get()), tid the writer, and
 *           its gfxstat_marker: a pid, b kind, c/d name offset/length in buf, u/v the
 *           track's, x value.
 */
struct ps_ev {
	int64_t ts;
	uint64_t seq; /* arrival order (in a bundle's scratch: its order in the bundle) */
	int64_t x;
	char *buf;
	int32_t cpu, tid;
	int32_t a, b, c, d;
	uint32_t u, v;
	uint32_t comm, s1, s2;
	/* the bytes last, in the 4 after s2: 80 bytes, not 88 (every held event is copied) */
	uint8_t kind;
	uint8_t irq;
	uint8_t compact; /* inferred from the CPU's previous switch */
};

struct ps_cpu {
	struct ps_ev *q; /* q[head, n) held, in (ts, seq) order */
	size_t head, n, cap;
	int64_t hi;      /* newest time pushed */
	int seen;
	int inheap;      /* in the heap of CPUs holding events */
};

/* The decoder's: the thread running on a CPU, from its switches in bundle order (its time
 * order), for what its compact events and its other events lack (infer()). */
struct ps_cur {
	int have;
	int32_t pid, prio;
	uint32_t comm;
};

/*
 * The held markers' payloads: bump-allocated in chunks by the decoder, given back one by one
 * by the merge, and a chunk reused once the decoder has moved on from it (sealed) and every
 * payload cut from it is back (markers go out within the merge window, roughly in the order
 * they came), instead of a malloc and a free per marker. Each payload is preceded by its chunk
 * (NULL: a payload too big for a chunk, malloc'ed alone). The decoder's counts and the
 * merge's are apart, so that the two may run on two threads: the merge learns how many were
 * cut from a chunk when the batch that sealed it arrives.
 */
#define ARENA_CHUNK (64 * 1024)
#define ARENA_SPARES 4

struct ps_chunk {
	struct ps_chunk *next; /* on the spare list */
	size_t used, given;    /* the decoder's: bytes and payloads cut */
	size_t freed, final;   /* the merge's: payloads back; given once sealed, else SIZE_MAX */
	char data[];
};

/* A chunk the decoder moved on from, with the payloads it cut from it. */
struct ps_sealed {
	struct ps_chunk *c;
	size_t given;
};

/* The chunks ready for reuse, shared by the decoder and the merge (once per chunk: a lock). */
struct ps_spares {
	pthread_mutex_t mu;
	struct ps_chunk *list;
	unsigned n;
};

/*
 * One bundle decoded (decode_bundle()), for the merge (apply_bundle()): its events and all the
 * decoder learnt meanwhile, so that the merge reads nothing of the decoder's.
 */
enum { BATCH_SKIP, BATCH_NOCPU, BATCH_CPU };
#define BATCH_KEEP 16384 /* events a buffer given back may hold and stay (1.3 MB) */

struct ps_batch {
	struct ps_ev *ev; /* ev[0, nev) as decoded (the bundle's runs, or sorted), and
			   * ev[idx[0, n)] in time order */
	uint32_t *idx;
	size_t nev, n, cap, idxcap;
	int kind;         /* BATCH_*: nothing to hold, markers without a CPU, a CPU's events */
	uint32_t cpu;
	int rc;
	struct gx_psched_counts counts;
	struct gfxstat_perfetto_sched_summary sum; /* the fields decoding counts (sum_add()) */
	struct gfxstat_str *names; /* names the decoder made, next in id order */
	size_t nnames, namescap;
	struct ps_sealed *sealed;
	size_t nsealed, sealedcap;
};

/* Where an FtraceEvent is in its bundle. */
struct ps_span {
	const uint8_t *p;
	size_t n;
};

/* A compact_sched intern_table entry, named on first use. */
struct ps_itab {
	const uint8_t *p;
	size_t n;
	uint32_t id;
};

/* A heap entry: a CPU and its oldest held event's key, kept beside it so that a compare
 * reads no queue. */
struct ps_hent {
	int64_t ts;
	uint64_t seq;
	uint32_t cpu;
};

struct gx_psched {
	struct gx_psched_sink sink;
	struct gfxstat_perfetto_sched_summary sum;
	size_t max_held;
	int64_t window_ns;
	int rc;
	int started;
	struct ps_cpu *cpus;
	size_t ncpu;
	uint16_t *active; /* indexes of CPUs seen, in first-seen order */
	size_t nactive;
	struct ps_hent *heap; /* the CPUs holding events, a binary heap by their oldest */
	size_t nheap;
	int ref_merge;    /* gx_psched_set_ref_merge(): the plain merge, for tests */
	size_t held;
	int64_t newest;
	int64_t last_out;
	uint64_t seq;
	struct gx_strmap names;
	struct ps_ev *tmp; /* one bundle's events */
	size_t ntmp, tmpcap;
	size_t ncsw, ncs;   /* tmp[0, ncsw) compact switches, [ncsw, ncs) compact wakings */
	struct ps_ev *tmp2; /* sort_bundle()'s other buffer */
	size_t tmp2cap;
	uint32_t *ord;      /* order_bundle()'s: tmp[ord[0, nord)] in time order */
	size_t nord, ordcap;
	struct ps_itab *itab;
	size_t nitab, itabcap;
	struct ps_span *evs; /* a bundle's FtraceEvents, found by its first pass */
	size_t nevs, evscap;
	uint32_t rail_name[GX_PSCHED_MAX_RAILS]; /* in names (the merge's: rails only) */
	struct ps_chunk *chunk; /* payloads are cut from this one */
	struct ps_sealed *sealed; /* chunks moved on from since the last batch */
	size_t nsealed, sealedcap;
	struct ps_spares *spares; /* the merge's own, which its decoder shares */
	struct ps_spares spares_own;
	int64_t clk_off;
	int have_clk_off;
	int cycled;        /* every CPU was read once */
	int64_t last_cpu;  /* of the previous bundle, -1 before the first */
	uint32_t num_cpus; /* SystemInfo.num_cpus, or 0 */
	int events;        /* a sched or counter sink: more than the print events are read */
	int slow;          /* gx_psched_set_slow(): the general readers only */
	struct gx_psched_counts counts_none; /* where the counts go without sink.counts */
	int want_counts;   /* sink.counts was given */
	uint8_t want[WANT_FIELDS]; /* wanted(): by FtraceEvent field */
	struct ps_cur *cur; /* the decoder's, by CPU (GX_PSCHED_MAX_CPUS: the bundles without) */
	size_t ncur;
	int threads;       /* gx_psched_set_threads(): decode ahead on a thread of its own */
	struct gx_ahead *ahead; /* that thread, once started */
	struct ps_slot *slots;  /* its AHEAD_SLOTS jobs */
	size_t ahead_bytes;     /* bundle bytes handed over and not merged */
	size_t ahead_min;  /* AHEAD_MIN, or gx_psched_set_ahead_min()'s */
	uint64_t ahead_taken, ahead_missed;
	/* The merge's: the bundles' decoder, a twin that owns the decoding state (tmp, evs,
	 * itab, names, the payloads' chunks, clk_off) and counts in its own sum and
	 * counts_none; what it made, in a batch; its names by id, as batches bring them. */
	struct gx_psched *dec;
	struct ps_batch batch;
	struct gfxstat_str *view;
	size_t nview, viewcap;
};

static void arena_put(struct gx_psched *s, char *buf);
static void set_wanted(struct gx_psched *s, unsigned kinds);

/* ---------------------------------------------------------------------------------------- */
/* Task states                                                                              */

uint32_t gx_prev_state_bits(int64_t raw64, int major, int minor)
{
	uint32_t raw = (uint32_t)((uint64_t)raw64 & 0xffff), b = raw & 0x3f;
	int v414, v48;

	if (!major)
		major = 4, minor = 4;
	v414 = major > 4 || (major == 4 && minor >= 14);
	v48 = major > 4 || (major == 4 && minor >= 8);
	/* S D T t X Z (0x01..0x20) never moved and are GFXSTAT_TASK_*'s own values */
	if (v414) {
		if (raw & 0xfe00)
			return GFXSTAT_TASK_UNKNOWN; /* past REPORT_TASK_MAX: not this layout */
		if (raw & 0x40)
			b |= GFXSTAT_TASK_PARKED;
		if (raw & 0x80)
			b |= GFXSTAT_TASK_IDLE; /* REPORT_TASK_IDLE */
		if (raw & 0x100)
			b |= GFXSTAT_TASK_PREEMPTED; /* REPORT_TASK_MAX */
		return b;
	}
	/* before 4.14: the scheduler's own flags, which are GFXSTAT_TASK_*'s (the 4.4 layout) */
	b |= raw & (GFXSTAT_TASK_DEAD | GFXSTAT_TASK_WAKEKILL | GFXSTAT_TASK_WAKING |
		    GFXSTAT_TASK_PARKED | GFXSTAT_TASK_NOLOAD);
	if (b == (GFXSTAT_TASK_UNINTERRUPTIBLE | GFXSTAT_TASK_NOLOAD))
		b = GFXSTAT_TASK_IDLE; /* TASK_IDLE, as trace_processor shows it */
	if (raw & (v48 ? 0x1000u : 0x800u))
		b |= GFXSTAT_TASK_PREEMPTED; /* TASK_STATE_MAX */
	return b;
}

/* ---------------------------------------------------------------------------------------- */
/* Setup                                                                                    */

/* One state with its defaults: the merge's, or (@merge not NULL) its decoder's. */
static struct gx_psched *state_new(const struct gx_psched_sink *sink, struct gx_psched *merge)
{
	struct gx_psched *s = calloc(1, sizeof(*s));
	size_t i;

	if (!s)
		return NULL;
	if (sink)
		s->sink = *sink;
	s->want_counts = s->sink.counts != NULL;
	if (!s->sink.counts || merge)
		s->sink.counts = &s->counts_none; /* a decoder's counts go out in its batches */
	s->events = s->sink.sched || s->sink.counter;
	set_wanted(s, s->sink.kinds);
	s->max_held = GX_PSCHED_MAX_HELD;
	s->window_ns = GX_PSCHED_WINDOW_NS;
	s->newest = INT64_MIN;
	s->last_out = INT64_MIN;
	s->last_cpu = -1;
	s->spares = merge ? merge->spares : &s->spares_own;
	s->ahead_min = AHEAD_MIN;
	if (!merge && pthread_mutex_init(&s->spares_own.mu, NULL)) {
		free(s);
		return NULL;
	}
	for (i = 0; i < GX_PSCHED_MAX_RAILS; i++)
		s->rail_name[i] = NAME_NONE;
	if (gx_strmap_init(&s->names, GX_PSCHED_MAX_NAMES)) {
		if (!merge)
			pthread_mutex_destroy(&s->spares_own.mu);
		free(s);
		return NULL;
	}
	return s;
}

struct gx_psched *gx_psched_new(const struct gx_psched_sink *sink)
{
	struct gx_psched *s = state_new(sink, NULL);

	if (!s)
		return NULL;
	s->dec = state_new(sink, s);
	if (!s->dec) {
		gx_strmap_free(&s->names);
		pthread_mutex_destroy(&s->spares_own.mu);
		free(s);
		return NULL;
	}
	return s;
}

static void batch_free(struct gx_psched *s, struct ps_batch *b);
static void ahead_stop(struct gx_psched *s);

/* One state's own memory, the merge's or its decoder's (what one does not use is NULL). */
static void state_free(struct gx_psched *x)
{
	free(x->chunk); /* the decoder's, not sealed: its payloads are all back by now */
	free(x->cpus);
	free(x->active);
	free(x->heap);
	free(x->tmp);
	free(x->tmp2);
	free(x->ord);
	free(x->itab);
	free(x->evs);
	free(x->sealed);
	free(x->cur);
	free(x->view);
	gx_strmap_free(&x->names);
	free(x);
}

void gx_psched_free(struct gx_psched *s)
{
	size_t i;

	if (!s)
		return;
	ahead_stop(s); /* the decoder's thread gone, its batches given back */
	/* every payload back first (the decoder's chunks are counted), then the chunks */
	for (i = 0; i < s->ncpu; i++) {
		size_t k;

		for (k = s->cpus[i].head; k < s->cpus[i].n; k++)
			arena_put(s, s->cpus[i].q[k].buf);
		free(s->cpus[i].q);
	}
	batch_free(s, &s->batch);
	state_free(s->dec);
	while (s->spares_own.list) {
		struct ps_chunk *c = s->spares_own.list;

		s->spares_own.list = c->next;
		free(c);
	}
	pthread_mutex_destroy(&s->spares_own.mu);
	state_free(s);
}

void gx_psched_set_limits(struct gx_psched *s, size_t max_held, int64_t window_ns)
{
	if (s->started)
		return;
	if (max_held)
		s->max_held = max_held;
	if (window_ns > 0)
		s->window_ns = window_ns;
}

void gx_psched_set_slow(struct gx_psched *s, int slow)
{
	s->slow = slow;
	s->dec->slow = slow;
}

void gx_psched_set_ref_merge(struct gx_psched *s, int on)
{
	s->ref_merge = on;
	s->dec->ref_merge = on;
}

const struct gfxstat_perfetto_sched_summary *gx_psched_summary(const struct gx_psched *s)
{
	return &s->sum;
}

/* The id of a name (cut at a NUL and at NAME_MAX_LEN), or NAME_NONE when the table is full. */
static uint32_t name_id(struct gx_psched *s, const uint8_t *p, size_t n)
{
	const uint8_t *z = n ? memchr(p, 0, n) : NULL;
	long id;

	if (z)
		n = (size_t)(z - p);
	if (n > NAME_MAX_LEN)
		n = NAME_MAX_LEN;
	id = gx_strmap_add(&s->names, n ? (const char *)p : "", n, NULL);
	if (id == GFXSTAT_E_NOMEM)
		s->rc = GFXSTAT_E_NOMEM;
	return id < 0 ? NAME_NONE : (uint32_t)id;
}

/* An event's name, made by the decoder: from the merge's view of its names. */
static struct gfxstat_str name_str(const struct gx_psched *s, uint32_t id, const char *none)
{
	struct gfxstat_str r;

	if (id >= s->nview) { /* (NAME_NONE too: nview <= GX_PSCHED_MAX_NAMES) */
		r.p = none;
		r.n = strlen(none);
	} else {
		r = s->view[id];
	}
	return r;
}

/* A name the merge made itself (a power rail's). */
static struct gfxstat_str own_name_str(const struct gx_psched *s, uint32_t id)
{
	struct gfxstat_str r = { "", 0 };

	if (id < s->names.n) {
		r.p = s->names.keys[id].p;
		r.n = s->names.keys[id].n;
	}
	return r;
}

/* A chunk ready for reuse, or NULL. */
static struct ps_chunk *spare_take(struct gx_psched *s)
{
	struct ps_spares *sp = s->spares;
	struct ps_chunk *c;

	pthread_mutex_lock(&sp->mu);
	c = sp->list;
	if (c) {
		sp->list = c->next;
		sp->n--;
	}
	pthread_mutex_unlock(&sp->mu);
	return c;
}

/* Chunk @c is sealed and all its payloads are back: kept for reuse, or freed. */
static void spare_give(struct gx_psched *s, struct ps_chunk *c)
{
	struct ps_spares *sp = s->spares;

	pthread_mutex_lock(&sp->mu);
	if (sp->n < ARENA_SPARES) {
		c->next = sp->list;
		sp->list = c;
		sp->n++;
		c = NULL;
	}
	pthread_mutex_unlock(&sp->mu);
	free(c);
}

/* @n bytes for a payload, 8-aligned; NULL when memory ran out. The decoder's. */
static char *arena_get(struct gx_psched *s, size_t n)
{
	size_t need = sizeof(struct ps_chunk *) + ((n + 7) & ~(size_t)7);
	struct ps_chunk *c = s->chunk;
	char *b;

	if (need > ARENA_CHUNK / 4) {
		b = malloc(need);
		if (!b)
			return NULL;
		memset(b, 0, sizeof(struct ps_chunk *));
		return b + sizeof(struct ps_chunk *);
	}
	if (!c || c->used + need > ARENA_CHUNK) {
		/* the full chunk lives on until its last payload is back (arena_put()) */
		if (c) {
			if (s->nsealed == s->sealedcap &&
			    gx_grow((void **)&s->sealed, &s->sealedcap, s->nsealed,
				    sizeof(*s->sealed), 8))
				return NULL;
			s->sealed[s->nsealed].c = c;
			s->sealed[s->nsealed].given = c->given;
			s->nsealed++;
			s->chunk = NULL;
		}
		c = spare_take(s);
		if (!c) {
			c = malloc(sizeof(*c) + ARENA_CHUNK);
			if (!c)
				return NULL;
		}
		c->used = c->given = c->freed = 0;
		c->final = SIZE_MAX;
		s->chunk = c;
	}
	b = c->data + c->used;
	c->used += need;
	c->given++;
	memcpy(b, &c, sizeof(c));
	return b + sizeof(struct ps_chunk *);
}

/* A payload from arena_get() given back (NULL: nothing). The merge's. */
static void arena_put(struct gx_psched *s, char *buf)
{
	struct ps_chunk *c;

	if (!buf)
		return;
	memcpy(&c, buf - sizeof(c), sizeof(c));
	if (!c) {
		free(buf - sizeof(c));
		return;
	}
	if (++c->freed == c->final)
		spare_give(s, c);
}

/* The CPU @cpu, made when first seen; NULL when memory ran out. */
static struct ps_cpu *cpu_get(struct gx_psched *s, uint32_t cpu)
{
	struct ps_cpu *c;

	if (cpu >= s->ncpu) {
		size_t n = (size_t)cpu + 1, i;
		struct ps_cpu *nc = realloc(s->cpus, n * sizeof(*nc));

		if (!nc)
			return NULL;
		for (i = s->ncpu; i < n; i++) {
			memset(&nc[i], 0, sizeof(nc[i]));
			nc[i].hi = INT64_MIN;
		}
		s->cpus = nc;
		s->ncpu = n;
	}
	c = &s->cpus[cpu];
	if (!c->seen) {
		uint16_t *na = realloc(s->active, (s->nactive + 1) * sizeof(*na));

		if (!na)
			return NULL;
		s->active = na;
		{
			struct ps_hent *nh = realloc(s->heap, (s->nactive + 1) * sizeof(*nh));

			if (!nh)
				return NULL;
			s->heap = nh;
		}
		s->active[s->nactive++] = (uint16_t)cpu;
		c->seen = 1;
	}
	return c;
}

/* ---------------------------------------------------------------------------------------- */
/* Delivery                                                                                 */

static int emit_counter(struct gx_psched *s, enum gfxstat_counter_kind k, int64_t ts,
			int32_t index, int64_t value, struct gfxstat_str name)
{
	struct gfxstat_counter c;

	if (s->rc)
		return s->rc;
	c.kind = k;
	c.ts_ns = ts;
	c.index = index;
	c.value = value;
	c.name = name;
	s->sum.counter[k]++;
	if (s->sink.counter && s->sink.counter(s->sink.user, &c))
		s->rc = GFXSTAT_E_ABORTED;
	return s->rc;
}

/* emit() sets a switch's fields without a blank first: they must cover every other member */
#define SW_END (offsetof(struct gfxstat_sched_event, sw.next_prio) + sizeof(int32_t))
#define SW_COVERS(m) (offsetof(struct gfxstat_sched_event, m) + \
		      sizeof(((struct gfxstat_sched_event *)0)->m) <= SW_END)
_Static_assert(SW_COVERS(wake) && SW_COVERS(blocked) && SW_COVERS(freq) && SW_COVERS(limits) &&
		       SW_COVERS(binder) && SW_COVERS(rename) && SW_COVERS(newtask),
	       "a switch's fields no longer cover the union");

static PS_INLINE int emit(struct gx_psched *s, const struct ps_ev *e)
{
	static const struct gfxstat_sched_event zero_ev;
	struct gfxstat_sched_event ev;

	s->last_out = e->ts;
	if (e->kind == KIND_PRINT) {
		struct gfxstat_marker m;

		s->sum.prints++;
		if (!s->sink.print)
			return s->rc;
		m.kind = (enum gfxstat_marker_kind)e->b;
		m.pid = e->a;
		m.name.p = e->buf + e->c;
		m.name.n = (size_t)(uint32_t)e->d;
		m.track.p = e->buf + e->u;
		m.track.n = e->v;
		m.value = e->x;
		if (s->sink.print(s->sink.print_user, e->ts, e->tid, e->cpu, e->buf, e->s1, &m))
			s->rc = GFXSTAT_E_ABORTED;
		return s->rc;
	}
	if (e->kind & KIND_COUNTER)
		return emit_counter(s, (enum gfxstat_counter_kind)(e->kind & ~KIND_COUNTER), e->ts,
				    e->a, e->x, name_str(s, e->s1, ""));
	/* a switch sets every byte of the union that any of its members reads (sw is the
	 * largest member, without holes), and every common field: no blank first (a third of
	 * the events); the other kinds leave members unset, which must read 0 */
	if (e->kind != GFXSTAT_SCHED_SWITCH)
		ev = zero_ev; /* a copy (wide moves), where a memset becomes a rep stos */
	ev.kind = (enum gfxstat_sched_kind)e->kind;
	ev.ts_ns = e->ts;
	ev.cpu = e->cpu;
	ev.tid = e->tid;
	ev.tgid = -1;
	ev.comm = name_str(s, e->comm, "<...>");
	ev.irq = e->irq;
	switch (ev.kind) {
	case GFXSTAT_SCHED_SWITCH:
		ev.sw.prev_comm = name_str(s, e->s1, "");
		ev.sw.next_comm = name_str(s, e->s2, "");
		ev.sw.prev_pid = e->a;
		ev.sw.prev_prio = e->b;
		ev.sw.prev_state = gx_prev_state_bits(e->x, s->sum.kernel_major,
						      s->sum.kernel_minor);
		ev.sw.next_pid = e->c;
		ev.sw.next_prio = e->d;
		break;
	case GFXSTAT_SCHED_WAKING:
	case GFXSTAT_SCHED_WAKEUP:
	case GFXSTAT_SCHED_WAKEUP_NEW:
		ev.wake.comm = name_str(s, e->s1, "");
		ev.wake.pid = e->a;
		ev.wake.prio = e->b;
		ev.wake.target_cpu = e->c;
		break;
	case GFXSTAT_SCHED_BLOCKED_REASON:
		ev.blocked.pid = e->a;
		ev.blocked.io_wait = e->b;
		ev.blocked.caller.p = "";
		ev.blocked.caller_addr = (uint64_t)e->x;
		break;
	case GFXSTAT_SCHED_CPU_FREQUENCY:
	case GFXSTAT_SCHED_CPU_IDLE:
		ev.freq.state = e->u;
		ev.freq.cpu_id = e->a;
		break;
	case GFXSTAT_SCHED_CPU_FREQUENCY_LIMITS:
		ev.limits.min_khz = e->u;
		ev.limits.max_khz = e->v;
		ev.limits.cpu_id = e->a;
		break;
	case GFXSTAT_SCHED_BINDER_TRANSACTION:
	case GFXSTAT_SCHED_BINDER_RECEIVED:
		ev.binder.transaction = e->a;
		ev.binder.dest_node = e->b;
		ev.binder.dest_proc = e->c;
		ev.binder.dest_thread = e->d;
		ev.binder.reply = (int32_t)e->x;
		ev.binder.flags = e->u;
		ev.binder.code = e->v;
		break;
	case GFXSTAT_SCHED_TASK_RENAME:
		ev.rename.pid = e->a;
		ev.rename.oldcomm = name_str(s, e->s1, "");
		ev.rename.newcomm = name_str(s, e->s2, "");
		ev.rename.oom_score_adj = e->b;
		break;
	case GFXSTAT_SCHED_TASK_NEWTASK:
		ev.newtask.pid = e->a;
		ev.newtask.comm = name_str(s, e->s1, "");
		ev.newtask.clone_flags = (uint64_t)e->x;
		ev.newtask.oom_score_adj = e->b;
		break;
	default:
		return 0;
	}
	s->sum.sched[ev.kind]++;
	if (s->sink.sched && s->sink.sched(s->sink.user, &ev))
		s->rc = GFXSTAT_E_ABORTED;
	return s->rc;
}

/*
 * Deliver what no CPU can precede any more (all of it with @all). traced_probes reads the
 * CPUs' buffers one after the other, again and again, and each CPU's events come in time
 * order; so once every CPU was read (a CPU's bundle came again after another CPU's, or
 * SystemInfo's num_cpus were all seen), the oldest held event goes out when every CPU heard
 * from within window_ns of the newest event has reached its time: a CPU not heard from yet
 * was empty when read, so its events come after what the others had then. An event
 * window_ns older than the newest goes out whatever the CPUs say.
 */
/* The CPUs heard from within the window, by the newest time each reached: the two earliest,
 * so that each event's check in the drains is one compare (neither changes while they run). */
struct window_lows {
	int64_t m1, m2;
	const struct ps_cpu *m1c; /* the CPU of m1 */
};

static void window_lows(const struct gx_psched *s, struct window_lows *w)
{
	int64_t lo = s->newest - s->window_ns;
	size_t i;

	w->m1 = w->m2 = INT64_MAX;
	w->m1c = NULL;
	for (i = 0; i < s->nactive; i++) {
		const struct ps_cpu *c = &s->cpus[s->active[i]];

		if (c->hi < lo)
			continue;
		if (c->hi < w->m1) {
			w->m2 = w->m1;
			w->m1 = c->hi;
			w->m1c = c;
		} else if (c->hi < w->m2) {
			w->m2 = c->hi;
		}
	}
}

/* May @h, the earliest event held (of CPU @c), go out now? Past max_held it must (counted as
 * forced); at the end (@all) it may; else only once it is older than the window, or no CPU
 * can still bring something earlier: until every CPU was read once, one not yet seen may hold
 * older events; another CPU heard from in the window that has not reached h's time may too. */
static inline int may_go(struct gx_psched *s, const struct ps_cpu *c, const struct ps_ev *h,
			 int all, const struct window_lows *w)
{
	if (all)
		return 1;
	if (s->held > s->max_held) {
		s->sum.forced++;
		return 1;
	}
	return h->ts <= s->newest - s->window_ns ||
	       (s->cycled && (c == w->m1c ? w->m2 : w->m1) >= h->ts);
}

static int drain_ref(struct gx_psched *s, int all)
{
	struct window_lows w;
	size_t i;

	if (!s->held)
		return s->rc; /* (newest is set once something was held) */
	window_lows(s, &w);
	while (s->held && !s->rc) {
		struct ps_cpu *best = NULL, *c;
		const struct ps_ev *h, *next = NULL; /* next: the earliest head of the others */

		for (i = 0; i < s->nactive; i++) {
			c = &s->cpus[s->active[i]];
			if (c->head == c->n)
				continue;
			h = &c->q[c->head];
			if (!best || h->ts < best->q[best->head].ts ||
			    (h->ts == best->q[best->head].ts && h->seq < best->q[best->head].seq)) {
				if (best)
					next = &best->q[best->head];
				best = c;
			} else if (!next || h->ts < next->ts ||
				   (h->ts == next->ts && h->seq < next->seq)) {
				next = h;
			}
		}
		if (!best)
			break;
		/* the other CPUs' heads do not move while @best's are emitted: its events go out
		 * one after the other, without a new scan, as long as each is still the earliest
		 * (a CPU's events come in runs: a bundle holds many) */
		for (;;) {
			h = &best->q[best->head];
			if (!may_go(s, best, h, all, &w))
				return 0;
			emit(s, h);
			if (h->buf)
				arena_put(s, h->buf);
			best->head++;
			s->held--;
			if (best->head == best->n) {
				best->head = best->n = 0;
				break;
			}
			if (s->rc)
				break;
			h = &best->q[best->head];
			if (next && !(h->ts < next->ts || (h->ts == next->ts && h->seq < next->seq)))
				break;
		}
	}
	return s->rc;
}

/* Does heap entry @a go out before @b? (seq makes the keys unique.) */
static inline int hent_before(const struct ps_hent *a, const struct ps_hent *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

static inline void heap_set(struct gx_psched *s, size_t i, const struct ps_hent *h)
{
	s->heap[i] = *h;
}

/* The heap entry at @i moved earlier (or is new): up to its place. */
static void heap_up(struct gx_psched *s, size_t i)
{
	struct ps_hent h = s->heap[i];

	while (i > 0) {
		size_t up = (i - 1) / 2;

		if (!hent_before(&h, &s->heap[up]))
			break;
		heap_set(s, i, &s->heap[up]);
		i = up;
	}
	heap_set(s, i, &h);
}

/* The heap entry at @i moved later: down to its place. */
static PS_INLINE void heap_down(struct gx_psched *s, size_t i)
{
	struct ps_hent h = s->heap[i];

	for (;;) {
		size_t k = 2 * i + 1;

		if (k >= s->nheap)
			break;
		if (k + 1 < s->nheap && hent_before(&s->heap[k + 1], &s->heap[k]))
			k++;
		if (!hent_before(&s->heap[k], &h))
			break;
		heap_set(s, i, &s->heap[k]);
		i = k;
	}
	heap_set(s, i, &h);
}

/* CPU @c took events (its oldest can only have become older): into the heap, or up. */
static void heap_fix(struct gx_psched *s, struct ps_cpu *c)
{
	uint32_t cpu = (uint32_t)(c - s->cpus);
	size_t i = 0;

	if (c->head == c->n)
		return;
	if (!c->inheap) {
		c->inheap = 1;
		i = s->nheap++;
		s->heap[i].cpu = cpu;
	} else {
		/* a few CPUs, once a bundle: looked for rather than kept track of per move */
		while (s->heap[i].cpu != cpu)
			i++;
	}
	s->heap[i].ts = c->q[c->head].ts;
	s->heap[i].seq = c->q[c->head].seq;
	heap_up(s, i);
}

/*
 * drain_ref()'s delivery with the CPUs in a heap by their oldest event, instead of a scan of
 * every CPU for each run of one CPU's events: the same order (the keys are unique), the same
 * checks. The run of the heap's top goes on while it is before both its children's heads,
 * the earliest of the other CPUs.
 */
static int drain(struct gx_psched *s, int all)
{
	struct window_lows w;

	if (s->ref_merge)
		return drain_ref(s, all);
	if (!s->held)
		return s->rc;
	window_lows(s, &w);
	while (s->nheap && !s->rc) {
		struct ps_hent *top = &s->heap[0];
		struct ps_cpu *best = &s->cpus[top->cpu];
		const struct ps_hent *next = NULL; /* the earliest head of the other CPUs */
		const struct ps_ev *h, *q = best->q;
		size_t i = best->head, n = best->n;
		int stop = 0;
		/* may_go() short of the forced and @all cases, as one bound for the run (newest
		 * and the window's lows hold still while a drain runs): what is not past it */
		int64_t go = s->newest - s->window_ns, lo;

		if (s->cycled) {
			lo = best == w.m1c ? w.m2 : w.m1;
			if (lo > go)
				go = lo;
		}
		if (s->nheap > 1) {
			next = &s->heap[1];
			if (s->nheap > 2 && hent_before(&s->heap[2], next))
				next = &s->heap[2];
		}
		for (;;) {
			h = &q[i];
			if (!all) {
				if (s->held > s->max_held) {
					s->sum.forced++;
				} else if (h->ts > go) {
					stop = 1;
					break;
				}
			}
			emit(s, h);
			if (h->buf)
				arena_put(s, h->buf);
			i++;
			s->held--;
			if (i == n || s->rc)
				break;
			h = &q[i];
			if (next && !(h->ts < next->ts || (h->ts == next->ts && h->seq < next->seq)))
				break;
		}
		best->head = i;
		if (best->head == best->n) {
			best->head = best->n = 0;
			best->inheap = 0;
			s->nheap--;
			if (s->nheap) {
				heap_set(s, 0, &s->heap[s->nheap]);
				heap_down(s, 0);
			}
		} else {
			top->ts = best->q[best->head].ts;
			top->seq = best->q[best->head].seq;
			heap_down(s, 0);
		}
		if (stop)
			return 0;
	}
	return s->rc;
}

/* Hold one event of CPU @c (its ts already on the trace clock). */
static PS_NOINLINE int hold(struct gx_psched *s, struct ps_cpu *c, const struct ps_ev *e)
{
	size_t k;

	if (e->ts < s->last_out) {
		s->sum.late++;
		arena_put(s, e->buf);
		return 0;
	}
	if (c->n == c->cap) {
		if (c->head > c->cap / 2) {
			memmove(c->q, c->q + c->head, (c->n - c->head) * sizeof(*c->q));
			c->n -= c->head;
			c->head = 0;
		} else if (gx_grow((void **)&c->q, &c->cap, c->n, sizeof(*c->q), 256)) {
			arena_put(s, e->buf);
			return s->rc = GFXSTAT_E_NOMEM;
		}
	}
	/* in time order; an event earlier than the CPU's last is rare: insert it in place */
	k = c->n;
	while (k > c->head && c->q[k - 1].ts > e->ts)
		k--;
	if (k < c->n)
		memmove(c->q + k + 1, c->q + k, (c->n - k) * sizeof(*c->q));
	c->q[k] = *e;
	c->q[k].seq = s->seq++;
	c->n++;
	if (e->ts > c->hi)
		c->hi = e->ts;
	if (e->ts > s->newest)
		s->newest = e->ts;
	s->held++;
	if (s->held > s->sum.held_max)
		s->sum.held_max = s->held;
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* FtraceEvents                                                                             */

static PS_INLINE struct ps_ev *tmp_push(struct gx_psched *s)
{
	struct ps_ev *e;

	if (GX_UNLIKELY(s->ntmp == s->tmpcap) &&
	    gx_grow((void **)&s->tmp, &s->tmpcap, s->ntmp, sizeof(*s->tmp), 256)) {
		s->rc = GFXSTAT_E_NOMEM;
		return NULL;
	}
	e = &s->tmp[s->ntmp++];
	/* field by field: a blank copied or a memset becomes a rep stos, a loop of stores */
	e->ts = e->x = 0;
	e->seq = 0;
	e->cpu = e->tid = e->a = e->b = e->c = e->d = 0;
	e->u = e->v = 0;
	e->comm = e->s1 = e->s2 = NAME_NONE;
	e->buf = NULL; /* whoever keeps the event owns what it points to */
	e->kind = e->irq = e->compact = 0;
	return e;
}

static int64_t i64_of(const struct gx_pb_field *f)
{
	return f->wire == GX_PB_VARINT ? gx_pb_i64(f) : 0;
}

static int32_t i32_of(const struct gx_pb_field *f)
{
	return f->wire == GX_PB_VARINT ? gx_pb_i32(f) : 0;
}

static uint32_t name_of(struct gx_psched *s, const struct gx_pb_field *f)
{
	return f->wire == GX_PB_LEN ? name_id(s, f->data, f->len) : NAME_NONE;
}

/* Does decode_payload() read FtraceEvent field @num, and does someone take its kind? */
static inline int wanted(const struct gx_psched *s, uint32_t num)
{
	return num < WANT_FIELDS && s->want[num];
}

/* The kinds of FtraceEvent fields decode_payload() reads: a scheduler event's kind, or
 * KIND_COUNTER for a counter's. */
static const struct {
	uint16_t field;
	uint8_t kind;
} field_kinds[] = {
	{ EV_SCHED_SWITCH, GFXSTAT_SCHED_SWITCH },
	{ EV_CPU_FREQUENCY, GFXSTAT_SCHED_CPU_FREQUENCY },
	{ EV_CPU_FREQUENCY_LIMITS, GFXSTAT_SCHED_CPU_FREQUENCY_LIMITS },
	{ EV_CPU_IDLE, GFXSTAT_SCHED_CPU_IDLE },
	{ EV_SCHED_WAKEUP, GFXSTAT_SCHED_WAKEUP },
	{ EV_SCHED_BLOCKED_REASON, GFXSTAT_SCHED_BLOCKED_REASON },
	{ EV_SCHED_WAKING, GFXSTAT_SCHED_WAKING },
	{ EV_BINDER_TRANSACTION, GFXSTAT_SCHED_BINDER_TRANSACTION },
	{ EV_BINDER_TRANSACTION_RECEIVED, GFXSTAT_SCHED_BINDER_RECEIVED },
	{ EV_SCHED_WAKEUP_NEW, GFXSTAT_SCHED_WAKEUP_NEW },
	{ EV_TASK_NEWTASK, GFXSTAT_SCHED_TASK_NEWTASK },
	{ EV_TASK_RENAME, GFXSTAT_SCHED_TASK_RENAME },
	{ EV_GPU_FREQUENCY, KIND_COUNTER },
	{ EV_THERMAL_TEMPERATURE, KIND_COUNTER },
};

/* The fields read: every kind with a sched or counter sink (kinds 0), else those of the
 * kinds asked for (with a sched sink) and the counters (with a counter sink). */
static void set_wanted(struct gx_psched *s, unsigned kinds)
{
	size_t i;

	for (i = 0; i < sizeof(field_kinds) / sizeof(field_kinds[0]); i++) {
		unsigned k = field_kinds[i].kind;

		s->want[field_kinds[i].field] =
			!kinds ? s->events
			       : k == KIND_COUNTER ? s->sink.counter != NULL
						   : s->sink.sched && (kinds & GFXSTAT_SCHED_BIT(k));
	}
}

/* A varint field of one-byte tag @tag at *p: 1 with *v and *p past it, else 0. */
static inline int fx_varint(const uint8_t **p, const uint8_t *end, uint8_t tag, uint64_t *v)
{
	const uint8_t *q = *p;

	if (q >= end || *q != tag)
		return 0;
	q++;
	if (gx_pb_varint(&q, end, v) != GX_PB_FIELD)
		return 0;
	*p = q;
	return 1;
}

/* A string field of one-byte tag @tag and one-byte length at *p (a task name): 1 with its
 * bytes, else 0. */
static inline int fx_str(const uint8_t **p, const uint8_t *end, uint8_t tag,
			 const uint8_t **b, size_t *n)
{
	const uint8_t *q = *p;

	if (end - q < 2 || q[0] != tag || (q[1] & 0x80) || q[1] > end - q - 2)
		return 0;
	*b = q + 2;
	*n = q[1];
	*p = q + 2 + q[1];
	return 1;
}

#define FX_TAG(num) ((uint8_t)((num) << 3 | GX_PB_VARINT))
#define FX_STR(num) ((uint8_t)((num) << 3 | GX_PB_LEN))

/*
 * decode_payload()'s fast path: the message as traced_probes writes it, every field of the
 * kind once, in field-number order (src/traced/probes/ftrace/cpu_reader.cc, ParseEvent():
 * `for (const Field& field : info.fields)`, the fields event_info.cc lists in proto order;
 * a field the kernel's format lacks is left out, as sched_waking's success on newer
 * kernels), each with a one-byte tag. The values are the general loop's for that message;
 * anything else returns 0 and the general loop reads it (tests/unit/
 * test_perfetto_sched_fast.c holds the two equal). @e has decode_payload()'s defaults.
 */
static int payload_fast(struct gx_psched *s, uint32_t num, const uint8_t *p, size_t n,
			struct ps_ev *e)
{
	const uint8_t *end = p + n, *b1, *b2;
	uint64_t v[7];
	size_t n1, n2;

	switch (num) {
	case EV_CPU_IDLE:
	case EV_CPU_FREQUENCY:
		if (!fx_varint(&p, end, FX_TAG(FQ_STATE), &v[0]) ||
		    !fx_varint(&p, end, FX_TAG(FQ_CPU_ID), &v[1]) || p != end)
			return 0;
		e->u = (uint32_t)v[0];
		e->a = (int32_t)(uint32_t)v[1];
		return 1;
	case EV_BINDER_TRANSACTION:
		if (!fx_varint(&p, end, FX_TAG(BT_DEBUG_ID), &v[0]) ||
		    !fx_varint(&p, end, FX_TAG(BT_TARGET_NODE), &v[1]) ||
		    !fx_varint(&p, end, FX_TAG(BT_TO_PROC), &v[2]) ||
		    !fx_varint(&p, end, FX_TAG(BT_TO_THREAD), &v[3]) ||
		    !fx_varint(&p, end, FX_TAG(BT_REPLY), &v[4]) ||
		    !fx_varint(&p, end, FX_TAG(BT_CODE), &v[5]) ||
		    !fx_varint(&p, end, FX_TAG(BT_FLAGS), &v[6]) || p != end)
			return 0;
		e->a = (int32_t)(uint32_t)v[0];
		e->b = (int32_t)(uint32_t)v[1];
		e->c = (int32_t)(uint32_t)v[2];
		e->d = (int32_t)(uint32_t)v[3];
		e->x = (int32_t)(uint32_t)v[4];
		e->v = (uint32_t)v[5];
		e->u = (uint32_t)v[6];
		return 1;
	case EV_BINDER_TRANSACTION_RECEIVED:
		if (!fx_varint(&p, end, FX_TAG(BT_DEBUG_ID), &v[0]) || p != end)
			return 0;
		e->a = (int32_t)(uint32_t)v[0];
		return 1;
	case EV_SCHED_BLOCKED_REASON:
		if (!fx_varint(&p, end, FX_TAG(BR_PID), &v[0]) ||
		    !fx_varint(&p, end, FX_TAG(BR_CALLER), &v[1]) ||
		    !fx_varint(&p, end, FX_TAG(BR_IO_WAIT), &v[2]) || p != end)
			return 0;
		e->a = (int32_t)(uint32_t)v[0];
		e->x = (int64_t)v[1];
		e->b = (uint32_t)v[2] != 0;
		return 1;
	case EV_GPU_FREQUENCY:
		if (!fx_varint(&p, end, FX_TAG(GPU_ID), &v[0]) ||
		    !fx_varint(&p, end, FX_TAG(GPU_STATE), &v[1]) || p != end)
			return 0;
		e->a = (int32_t)(uint32_t)v[0];
		e->x = (uint32_t)v[1];
		return 1;
	case EV_SCHED_SWITCH:
		if (!fx_str(&p, end, FX_STR(SW_PREV_COMM), &b1, &n1) ||
		    !fx_varint(&p, end, FX_TAG(SW_PREV_PID), &v[0]) ||
		    !fx_varint(&p, end, FX_TAG(SW_PREV_PRIO), &v[1]) ||
		    !fx_varint(&p, end, FX_TAG(SW_PREV_STATE), &v[2]) ||
		    !fx_str(&p, end, FX_STR(SW_NEXT_COMM), &b2, &n2) ||
		    !fx_varint(&p, end, FX_TAG(SW_NEXT_PID), &v[3]) ||
		    !fx_varint(&p, end, FX_TAG(SW_NEXT_PRIO), &v[4]) || p != end)
			return 0;
		e->s1 = name_id(s, b1, n1); /* named in the message's order, as the loop does */
		e->a = (int32_t)(uint32_t)v[0];
		e->b = (int32_t)(uint32_t)v[1];
		e->x = (int64_t)v[2];
		e->s2 = name_id(s, b2, n2);
		e->c = (int32_t)(uint32_t)v[3];
		e->d = (int32_t)(uint32_t)v[4];
		return 1;
	case EV_SCHED_WAKING:
	case EV_SCHED_WAKEUP:
	case EV_SCHED_WAKEUP_NEW:
		/* comm 1, pid 2, prio 3, [success 4, not read,] target_cpu 5 */
		if (!fx_str(&p, end, FX_STR(WK_COMM), &b1, &n1) ||
		    !fx_varint(&p, end, FX_TAG(WK_PID), &v[0]) ||
		    !fx_varint(&p, end, FX_TAG(WK_PRIO), &v[1]))
			return 0;
		if (p < end && *p == FX_TAG(4) && !fx_varint(&p, end, FX_TAG(4), &v[3]))
			return 0;
		if (!fx_varint(&p, end, FX_TAG(WK_TARGET_CPU), &v[2]) || p != end)
			return 0;
		e->s1 = name_id(s, b1, n1);
		e->a = (int32_t)(uint32_t)v[0];
		e->b = (int32_t)(uint32_t)v[1];
		e->c = (int32_t)(uint32_t)v[2];
		return 1;
	}
	return 0;
}

/* The payload of an event into @e by its FtraceEvent field @num (one wanted() reads).
 * Return 1, 0 for another kind, -1 malformed. */
static int decode_payload(struct gx_psched *s, uint32_t num, const uint8_t *d, size_t n,
			  struct ps_ev *e)
{
	struct gx_pb r;
	struct gx_pb_field f;
	enum gx_pb_res res;

	/* what the text parser leaves when the event does not say (sched_line.c) */
	switch (num) {
	case EV_SCHED_SWITCH:
		e->kind = GFXSTAT_SCHED_SWITCH;
		e->a = e->c = -1;
		break;
	case EV_SCHED_WAKING:
		e->kind = GFXSTAT_SCHED_WAKING;
		e->a = e->c = -1;
		break;
	case EV_SCHED_WAKEUP:
		e->kind = GFXSTAT_SCHED_WAKEUP;
		e->a = e->c = -1;
		break;
	case EV_SCHED_WAKEUP_NEW:
		e->kind = GFXSTAT_SCHED_WAKEUP_NEW;
		e->a = e->c = -1;
		break;
	case EV_SCHED_BLOCKED_REASON:
		e->kind = GFXSTAT_SCHED_BLOCKED_REASON;
		e->a = e->b = -1;
		break;
	case EV_CPU_FREQUENCY:
		e->kind = GFXSTAT_SCHED_CPU_FREQUENCY;
		e->a = -1;
		break;
	case EV_CPU_IDLE:
		e->kind = GFXSTAT_SCHED_CPU_IDLE;
		e->a = -1;
		break;
	case EV_CPU_FREQUENCY_LIMITS:
		e->kind = GFXSTAT_SCHED_CPU_FREQUENCY_LIMITS;
		e->a = -1;
		break;
	case EV_BINDER_TRANSACTION:
		e->kind = GFXSTAT_SCHED_BINDER_TRANSACTION;
		e->b = e->c = e->d = -1;
		break;
	case EV_BINDER_TRANSACTION_RECEIVED:
		e->kind = GFXSTAT_SCHED_BINDER_RECEIVED;
		e->b = e->c = e->d = -1;
		break;
	case EV_TASK_RENAME:
		e->kind = GFXSTAT_SCHED_TASK_RENAME;
		e->a = -1;
		break;
	case EV_TASK_NEWTASK:
		e->kind = GFXSTAT_SCHED_TASK_NEWTASK;
		e->a = -1;
		break;
	case EV_GPU_FREQUENCY:
		e->kind = KIND_COUNTER | GFXSTAT_COUNTER_GPU_FREQ;
		break;
	case EV_THERMAL_TEMPERATURE:
		e->kind = KIND_COUNTER | GFXSTAT_COUNTER_THERMAL;
		e->a = -1;
		break;
	default:
		return 0;
	}
	if (!s->slow && payload_fast(s, num, d, n, e))
		return 1;
	gx_pb_init(&r, d, n);
	while ((res = gx_pb_next_fast(&r, &f)) == GX_PB_FIELD) {
		switch (num) {
		case EV_SCHED_SWITCH:
			if (f.num == SW_PREV_COMM)
				e->s1 = name_of(s, &f);
			else if (f.num == SW_PREV_PID)
				e->a = i32_of(&f);
			else if (f.num == SW_PREV_PRIO)
				e->b = i32_of(&f);
			else if (f.num == SW_PREV_STATE)
				e->x = i64_of(&f);
			else if (f.num == SW_NEXT_COMM)
				e->s2 = name_of(s, &f);
			else if (f.num == SW_NEXT_PID)
				e->c = i32_of(&f);
			else if (f.num == SW_NEXT_PRIO)
				e->d = i32_of(&f);
			break;
		case EV_SCHED_WAKING:
		case EV_SCHED_WAKEUP:
		case EV_SCHED_WAKEUP_NEW:
			if (f.num == WK_COMM)
				e->s1 = name_of(s, &f);
			else if (f.num == WK_PID)
				e->a = i32_of(&f);
			else if (f.num == WK_PRIO)
				e->b = i32_of(&f);
			else if (f.num == WK_TARGET_CPU)
				e->c = i32_of(&f);
			break;
		case EV_SCHED_BLOCKED_REASON:
			if (f.num == BR_PID)
				e->a = i32_of(&f);
			else if (f.num == BR_CALLER)
				e->x = i64_of(&f);
			else if (f.num == BR_IO_WAIT)
				e->b = i32_of(&f) != 0;
			break;
		case EV_CPU_FREQUENCY:
		case EV_CPU_IDLE:
			if (f.num == FQ_STATE)
				e->u = (uint32_t)i64_of(&f);
			else if (f.num == FQ_CPU_ID)
				e->a = i32_of(&f);
			break;
		case EV_CPU_FREQUENCY_LIMITS:
			if (f.num == LIM_MIN)
				e->u = (uint32_t)i64_of(&f);
			else if (f.num == LIM_MAX)
				e->v = (uint32_t)i64_of(&f);
			else if (f.num == LIM_CPU_ID)
				e->a = i32_of(&f);
			break;
		case EV_BINDER_TRANSACTION:
			if (f.num == BT_DEBUG_ID)
				e->a = i32_of(&f);
			else if (f.num == BT_TARGET_NODE)
				e->b = i32_of(&f);
			else if (f.num == BT_TO_PROC)
				e->c = i32_of(&f);
			else if (f.num == BT_TO_THREAD)
				e->d = i32_of(&f);
			else if (f.num == BT_REPLY)
				e->x = i32_of(&f);
			else if (f.num == BT_CODE)
				e->v = (uint32_t)i64_of(&f);
			else if (f.num == BT_FLAGS)
				e->u = (uint32_t)i64_of(&f);
			break;
		case EV_BINDER_TRANSACTION_RECEIVED:
			if (f.num == BT_DEBUG_ID)
				e->a = i32_of(&f);
			break;
		case EV_TASK_RENAME:
			if (f.num == TK_PID)
				e->a = i32_of(&f);
			else if (f.num == TK_COMM) /* oldcomm */
				e->s1 = name_of(s, &f);
			else if (f.num == TK_NEWCOMM)
				e->s2 = name_of(s, &f);
			else if (f.num == TK_OOM)
				e->b = i32_of(&f);
			break;
		case EV_TASK_NEWTASK:
			if (f.num == TK_PID)
				e->a = i32_of(&f);
			else if (f.num == TK_COMM)
				e->s1 = name_of(s, &f);
			else if (f.num == TK_CLONE_FLAGS)
				e->x = i64_of(&f);
			else if (f.num == TK_OOM)
				e->b = i32_of(&f);
			break;
		case EV_GPU_FREQUENCY:
			if (f.num == GPU_ID)
				e->a = i32_of(&f);
			else if (f.num == GPU_STATE)
				e->x = (uint32_t)i64_of(&f);
			break;
		case EV_THERMAL_TEMPERATURE:
			if (f.num == TH_ID)
				e->a = i32_of(&f);
			else if (f.num == TH_TEMP)
				e->x = i32_of(&f);
			else if (f.num == TH_ZONE)
				e->s1 = name_of(s, &f);
			break;
		}
	}
	return res == GX_PB_MALFORMED ? -1 : 1;
}

/* Add @ts to the bundle's clock offset; 0, or -1 when it leaves 0..INT64_MAX. */
static int bundle_ts(int64_t off, uint64_t raw, int64_t *out)
{
	int64_t t;

	if (raw > INT64_MAX)
		return -1;
	t = (int64_t)raw;
	if ((off > 0 && t > INT64_MAX - off) || (off < 0 && t < -off))
		return -1;
	*out = t + off;
	return 0;
}

/*
 * A print event's payload (PrintFtraceEvent.buf = 2, the last one) without its trailing
 * newlines and NULs. Return 0, or -1 when the message does not decode.
 */
static int print_buf(const uint8_t *d, size_t n, const uint8_t **buf, size_t *len, int slow)
{
	struct gx_pb r;
	struct gx_pb_field f;
	enum gx_pb_res res;
	const uint8_t *b = (const uint8_t *)"", *q = d + 1;
	size_t k = 0;

	/* traced_probes writes buf alone (ip is not in the print format's fields), its length
	 * in one or two bytes: as one field, the loop's result without the loop */
	if (!slow && n >= 2 && d[0] == (2 << 3 | GX_PB_LEN)) {
		if (!(q[0] & 0x80)) {
			k = q[0];
			q++;
		} else if (n >= 3 && !(q[1] & 0x80)) {
			k = (size_t)(q[0] & 0x7f) | (size_t)q[1] << 7;
			q += 2;
		} else {
			q = NULL;
		}
		if (q && k == (size_t)(d + n - q)) {
			b = q;
			goto trim;
		}
		b = (const uint8_t *)"";
		k = 0;
	}
	gx_pb_init(&r, d, n);
	while ((res = gx_pb_next_fast(&r, &f)) == GX_PB_FIELD)
		if (f.num == 2 && f.wire == GX_PB_LEN)
			b = f.data, k = f.len;
	if (res == GX_PB_MALFORMED) {
		*buf = b;
		*len = k;
		return -1;
	}
trim:
	while (k && (b[k - 1] == '\n' || b[k - 1] == '\0'))
		k--;
	*buf = b;
	*len = k;
	return 0;
}

/* An atrace marker (@m its parse) into the bundle's scratch, its payload copied. */
static int hold_print(struct gx_psched *s, int32_t cpu, int64_t off, uint64_t ts, uint32_t pid,
		      const uint8_t *buf, size_t len, uint64_t ord, const struct gfxstat_marker *m)
{
	struct ps_ev *e;
	int64_t t;

	if (bundle_ts(off, ts, &t))
		t = (int64_t)ts; /* the time as written */
	e = tmp_push(s);
	if (!e)
		return s->rc;
	e->buf = arena_get(s, len);
	if (!e->buf) {
		s->ntmp--;
		return s->rc = GFXSTAT_E_NOMEM;
	}
	memcpy(e->buf, buf, len);
	e->s1 = (uint32_t)len;
	/* the parse's slices point into buf (atrace_marker.c): kept as offsets into the copy */
	e->a = m->pid;
	e->b = (int32_t)m->kind;
	e->c = (int32_t)((const uint8_t *)m->name.p - buf);
	e->d = (int32_t)m->name.n;
	e->u = (uint32_t)((const uint8_t *)m->track.p - buf);
	e->v = (uint32_t)m->track.n;
	e->x = m->value;
	e->kind = KIND_PRINT;
	e->ts = t;
	e->seq = ORD_EVENT + ord;
	e->cpu = cpu;
	e->tid = (int32_t)pid;
	return 0;
}

/* A print event's payload, counted: 1 when it is an atrace marker someone takes (@m set). */
static PS_INLINE int print_marker(struct gx_psched *s, struct gx_psched_counts *cnt,
				  const uint8_t *buf, size_t len, struct gfxstat_marker *m)
{
	cnt->prints++;
	switch (gfxstat_atrace_marker_parse((const char *)buf, len, m)) {
	case GFXSTAT_PARSE_OK:
		cnt->markers++;
		break;
	case GFXSTAT_PARSE_UNSUPPORTED:
		cnt->unsupported++;
		return 0;
	default:
		cnt->bad_markers++;
		return 0;
	}
	return s->sink.print && len <= INT32_MAX;
}

/* One FtraceEvent into the bundle's scratch, read field by field. Return 0, or
 * GFXSTAT_E_NOMEM. */
static PS_NOINLINE int decode_event_loop(struct gx_psched *s, int32_t cpu, int64_t off,
					 const uint8_t *d, size_t n, uint64_t ord, int prints_only)
{
	struct gx_pb r;
	struct gx_pb_field f, ev = { 0 };
	struct gx_psched_counts *cnt = s->sink.counts;
	uint64_t ts = 0;
	int has_ts = 0, has_ev = 0, has_print = 0, bad_print = 0;
	uint32_t pid = 0, flags = 0;
	const uint8_t *buf = NULL;
	size_t len = 0;
	struct gfxstat_marker m;
	enum gx_pb_res res;
	struct ps_ev *e;
	int k;

	gx_pb_init(&r, d, n);
	/* traced_probes writes timestamp (tag 0x08), then pid (0x10) and the kind's message
	 * (src/traced/probes/ftrace/cpu_reader.cc: the page parser sets the timestamp, ParseEvent
	 * the rest): those two read with their tag bytes matched, as the loop below would read
	 * them; anything else (other orders too) is the loop's */
	if (r.p < r.end && r.p[0] == (EV_TIMESTAMP << 3 | GX_PB_VARINT)) {
		const uint8_t *q = r.p + 1;
		uint64_t v;

		if (gx_pb_varint(&q, r.end, &v) == GX_PB_FIELD) {
			ts = v, has_ts = 1;
			r.p = q;
		}
	}
	if (r.p < r.end && r.p[0] == (EV_PID << 3 | GX_PB_VARINT)) {
		const uint8_t *q = r.p + 1;
		uint64_t v;

		if (gx_pb_varint(&q, r.end, &v) == GX_PB_FIELD) {
			pid = (uint32_t)v;
			r.p = q;
		}
	}
	while ((res = gx_pb_next_fast(&r, &f)) == GX_PB_FIELD) {
		if (f.num == EV_TIMESTAMP && f.wire == GX_PB_VARINT) {
			ts = f.v, has_ts = 1;
		} else if (f.num == EV_PID && f.wire == GX_PB_VARINT) {
			pid = (uint32_t)f.v;
		} else if (f.num == EV_COMMON_FLAGS && f.wire == GX_PB_VARINT) {
			flags = (uint32_t)f.v;
		} else if (f.num == EV_PRINT && f.wire == GX_PB_LEN) {
			/* the last one; one that does not decode spoils the event */
			has_print = 1;
			if (print_buf(f.data, f.len, &buf, &len, s->slow)) {
				bad_print = 1;
				break;
			}
		} else if (f.wire == GX_PB_LEN && !has_ev) {
			ev = f, has_ev = 1; /* the oneof: the first message field */
		}
	}
	cnt->events++;
	if (res == GX_PB_MALFORMED) {
		s->sum.malformed++;
		cnt->malformed++;
		return 0;
	}
	if (bad_print || ts > INT64_MAX) {
		cnt->malformed++;
		if (has_print)
			return 0;
	} else if (!has_print) {
		cnt->other++;
	}
	/* a print event that is an atrace marker (a missing time is 0) */
	if (has_print) {
		if (!print_marker(s, cnt, buf, len, &m))
			return 0;
		return hold_print(s, cpu, off, ts, pid, buf, len, ord, &m);
	}
	/* without a sched or counter sink, only prints are read; and only the kinds
	 * decode_payload() knows (about a third of api32's events are others) */
	if (!has_ev || prints_only || !wanted(s, ev.num))
		return 0;
	e = tmp_push(s);
	if (!e)
		return s->rc;
	k = decode_payload(s, ev.num, ev.data, ev.len, e);
	if (k == 0) {
		s->ntmp--; /* an event that is not ours */
		return s->rc;
	}
	if (k < 0 || !has_ts || bundle_ts(off, ts, &e->ts)) {
		s->sum.malformed++;
		s->ntmp--;
		return s->rc;
	}
	e->seq = ORD_EVENT + ord;
	e->cpu = cpu;
	e->tid = (int32_t)pid;
	e->irq = (flags & TRACE_FLAG_HARDIRQ ? GFXSTAT_SCHED_IRQ_HARD : 0) |
		 (flags & TRACE_FLAG_SOFTIRQ ? GFXSTAT_SCHED_IRQ_SOFT : 0);
	return s->rc;
}

/* A length of protozero's nested message at @p (4 bytes there): padded to four bytes, written
 * once the message is done (include/perfetto/protozero/proto_utils.h,
 * kMessageLengthFieldSize). 1 with *len, 0 when the four bytes are not such a length. */
static PS_INLINE int len4(const uint8_t *p, uint32_t *len)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint32_t w; /* the four bytes as one word: one load, one test */

	memcpy(&w, p, 4);
	if ((w & 0x80808080u) != 0x00808080u)
		return 0;
	*len = (w & 0x7fu) | (w >> 1 & 0x3f80u) | (w >> 2 & 0x1fc000u) | (w >> 3 & 0xfe00000u);
#else
	if (!(p[0] & p[1] & p[2] & 0x80) || (p[3] & 0x80))
		return 0;
	*len = (uint32_t)(p[0] & 0x7f) | (uint32_t)(p[1] & 0x7f) << 7 |
	       (uint32_t)(p[2] & 0x7f) << 14 | (uint32_t)p[3] << 21;
#endif
	return 1;
}

/* A varint of at most 8 bytes from @w, its 8 bytes, and @stop, their bytes without the
 * continuation bit (not 0): gx_pb_varint()'s word read, for a value stepped over first. */
static PS_INLINE uint64_t ts_word(uint64_t w, uint64_t stop)
{
	uint64_t x = w & (stop ^ (stop - 1)) & 0x7f7f7f7f7f7f7f7fULL;

	x = (x & 0x007f007f007f007fULL) | ((x & 0x7f007f007f007f00ULL) >> 1);
	x = (x & 0x00003fff00003fffULL) | ((x & 0x3fff00003fff0000ULL) >> 2);
	return (x & 0x000000000fffffffULL) | ((x & 0x0fffffff00000000ULL) >> 4);
}

/*
 * decode_event_loop() for the FtraceEvent as traced_probes writes it: timestamp (tag 0x08,
 * at most INT64_MAX), pid (0x10), then the kind's message to the end (src/traced/probes/
 * ftrace/cpu_reader.cc: the page parser sets the timestamp, ParseEvent() the common pid and
 * then the kind's nested message); what the loop makes of it, without the loop. Return 1
 * when the event is not so (the loop reads it), else as decode_event_loop().
 */
static PS_INLINE int decode_event_fast(struct gx_psched *s, int32_t cpu, int64_t off,
				       const uint8_t *d, size_t n, uint64_t ord, int prints_only)
{
	const uint8_t *p = d + 1, *end = d + n, *buf;
	struct gx_psched_counts *cnt = s->sink.counts;
	struct gfxstat_marker m;
	uint64_t ts = 0, pid, tsw = 0, tss = 0;
	uint32_t tag, len;
	size_t blen;
	struct ps_ev *e;
	int k;

	if (n < 6 || d[0] != (EV_TIMESTAMP << 3 | GX_PB_VARINT))
		return 1;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
	/* the timestamp only stepped over (its value read below when the event is kept; most
	 * are not, and none in prints-only): at most 8 bytes, so at most 2^56 - 1 */
	if (end - p >= 8) {
		memcpy(&tsw, p, 8);
		tss = ~tsw & 0x8080808080808080ULL;
		if (!tss)
			return 1;
		p += ((unsigned)__builtin_ctzll(tss) >> 3) + 1;
	} else
#endif
	if (gx_pb_varint(&p, end, &ts) != GX_PB_FIELD || ts > INT64_MAX)
		return 1; /* (tss stays 0: ts is read) */
	if (end - p < 4 || p[0] != (EV_PID << 3 | GX_PB_VARINT))
		return 1;
	p++;
	if (gx_pb_varint(&p, end, &pid) != GX_PB_FIELD || end - p < 2)
		return 1;
	/* the message's tag, one or two bytes (a field number past 15), then its length: one
	 * byte, or protozero's four (padded) */
	if (!(p[0] & 0x80)) {
		tag = p[0];
		p++;
	} else if (!(p[1] & 0x80)) {
		tag = (uint32_t)(p[0] & 0x7f) | (uint32_t)p[1] << 7;
		p += 2;
	} else {
		return 1;
	}
	if ((tag & 7) != GX_PB_LEN || tag < 8 || p >= end)
		return 1;
	if (!(p[0] & 0x80)) {
		len = p[0];
		p++;
	} else if (end - p >= 4 && len4(p, &len)) {
		p += 4;
	} else {
		return 1;
	}
	if (len != (size_t)(end - p))
		return 1;
	cnt->events++;
	if ((tag >> 3) == EV_PRINT) {
		if (print_buf(p, len, &buf, &blen, 0)) {
			cnt->malformed++;
			return 0;
		}
		if (!print_marker(s, cnt, buf, blen, &m))
			return 0;
		if (tss)
			ts = ts_word(tsw, tss);
		return hold_print(s, cpu, off, ts, (uint32_t)pid, buf, blen, ord, &m);
	}
	cnt->other++;
	if (prints_only || !wanted(s, tag >> 3))
		return 0;
	if (tss)
		ts = ts_word(tsw, tss);
	e = tmp_push(s);
	if (!e)
		return s->rc;
	k = decode_payload(s, tag >> 3, p, len, e);
	if (k <= 0 || bundle_ts(off, ts, &e->ts)) {
		if (k)
			s->sum.malformed++;
		s->ntmp--;
		return s->rc;
	}
	e->seq = ORD_EVENT + ord;
	e->cpu = cpu;
	e->tid = (int32_t)(uint32_t)pid;
	return s->rc;
}

/* One FtraceEvent into the bundle's scratch. Return 0, or GFXSTAT_E_NOMEM. */
static PS_INLINE int decode_event(struct gx_psched *s, int32_t cpu, int64_t off,
				  const uint8_t *d, size_t n, uint64_t ord, int prints_only)
{
	int k = s->slow ? 1 : decode_event_fast(s, cpu, off, d, n, ord, prints_only);

	return k == 1 ? decode_event_loop(s, cpu, off, d, n, ord, prints_only) : k;
}

/* One column of compact_sched: packed (one or several runs) or not packed. */
struct col {
	struct gx_pb r;
	uint32_t num;
	const uint8_t *p, *end;
};

static void col_init(struct col *c, const uint8_t *d, size_t n, uint32_t num)
{
	gx_pb_init(&c->r, d, n);
	c->num = num;
	c->p = c->end = NULL;
}

/* A column known to be the one packed run [d, d + n) of its message: nothing to look for
 * past it (decode_compact() checked the message). */
static void col_init_run(struct col *c, const uint8_t *d, size_t n, uint32_t num)
{
	static const uint8_t none[1];

	if (!d)
		d = none, n = 0; /* an absent column: empty (NULL + 0 is undefined) */
	gx_pb_init(&c->r, NULL, 0);
	c->num = num;
	c->p = d;
	c->end = d + n;
}

static int col_next_slow(struct col *c, uint64_t *v);

/* Return: 1 with *v, 0 at the end of the column, -1 when it does not decode. Inline: the
 * next value of a packed run, every value of every compact_sched column. */
static inline int col_next(struct col *c, uint64_t *v)
{
	if (GX_LIKELY(c->p < c->end))
		return gx_pb_varint(&c->p, c->end, v) == GX_PB_FIELD ? 1 : -1;
	return col_next_slow(c, v);
}

/* col_next() past the end of a run: the column's next field in the message. */
static int col_next_slow(struct col *c, uint64_t *v)
{
	struct gx_pb_field f;
	enum gx_pb_res res;

	for (;;) {
		if (c->p < c->end)
			return gx_pb_varint(&c->p, c->end, v) == GX_PB_FIELD ? 1 : -1;
		res = gx_pb_next(&c->r, &f);
		if (res != GX_PB_FIELD)
			return res == GX_PB_END ? 0 : -1;
		if (f.num != c->num)
			continue;
		if (f.wire == GX_PB_VARINT) {
			*v = f.v;
			return 1;
		}
		if (f.wire != GX_PB_LEN)
			return -1;
		c->p = f.data;
		c->end = f.data + f.len;
	}
}

/* The name id of intern_table entry @i, or NAME_NONE (*bad set) when there is none. */
static uint32_t itab_name(struct gx_psched *s, uint64_t i, int *bad)
{
	if (i >= s->nitab) {
		*bad = 1;
		return NAME_NONE;
	}
	if (s->itab[i].id == NAME_NONE)
		s->itab[i].id = name_id(s, s->itab[i].p, s->itab[i].n);
	return s->itab[i].id;
}

/*
 * The columns of the switches (@wakings 0: timestamp, prev_state, next_pid, next_prio,
 * next_comm_index) or of the wakings (1: timestamp, pid, target_cpu, prio, comm_index,
 * common_flags) of CompactSched [d, d + n): each its one packed run from @run when not NULL
 * (an absent column is empty), else looked for through the message.
 */
static void cols(struct col *c, const uint8_t *d, size_t n, const uint8_t *const *run,
		 const size_t *runlen, int wakings)
{
	static const uint32_t nums[2][6] = {
		{ CS_SWITCH_TIMESTAMP, CS_SWITCH_PREV_STATE, CS_SWITCH_NEXT_PID,
		  CS_SWITCH_NEXT_PRIO, CS_SWITCH_NEXT_COMM_INDEX, 0 },
		{ CS_WAKING_TIMESTAMP, CS_WAKING_PID, CS_WAKING_TARGET_CPU, CS_WAKING_PRIO,
		  CS_WAKING_COMM_INDEX, CS_WAKING_COMMON_FLAGS },
	};
	int i;

	for (i = 0; i < 5 + wakings; i++) {
		uint32_t num = nums[wakings][i];

		if (run)
			col_init_run(&c[i], run[num], run[num] ? runlen[num] : 0, num);
		else
			col_init(&c[i], d, n, num);
	}
}

/* Column @c's next @n values into field @f (of type @t) of events @e[0, n): on a value short
 * or bad, *n cut to the rows before it and *bad set. */
#define COL_FILL(c, e, n, bad, f, t)                                                       \
	do {                                                                              \
		size_t i_;                                                                \
		uint64_t v_;                                                              \
		for (i_ = 0; i_ < *(n); i_++) {                                           \
			if (col_next((c), &v_) != 1) {                                    \
				*(n) = i_;                                                \
				*(bad) = 1;                                               \
				break;                                                    \
			}                                                                 \
			(e)[i_].f = (t)v_;                                                \
		}                                                                         \
	} while (0)

/*
 * One section of compact_sched (the switches, @wakings 0, or the wakings, 1) a column at a
 * time, as decode_compact()'s row loop (the reference, under gx_psched_set_slow()) reads it
 * a row at a time: the events the row loop keeps and *bad as it sets it. The row loop stops
 * at the first row where a column has no value, does not decode, the time overflows, or the
 * name is past the intern table; rows before it are kept; the stop is clean only when every
 * column ended there. So: the timestamps push the events (stopping at a bad one), each other
 * column cuts the rows to what it holds, the common_flags (optional: a short column leaves
 * 0, a long one is not read past the rows) likewise on a bad value only, the names last,
 * named in row order up to the first bad one (so that name_id() is called for the rows the
 * row loop names, in its order), and at a clean end each column must end there too.
 * (tests/unit/test_perfetto_sched_fast.c holds it to the row loop.)
 */
static int compact_section(struct gx_psched *s, int32_t cpu, int64_t off, struct col *c,
			   int wakings, uint64_t *ord, int *bad)
{
	size_t base = s->ntmp, n, i;
	uint64_t v, acc = 0, seq0 = (wakings ? ORD_WAKING : 0) + *ord;
	int ts_bad = 0, k, j;
	struct ps_ev *e;

	for (;;) {
		k = col_next(&c[0], &v);
		if (k <= 0) {
			ts_bad = k < 0;
			break;
		}
		if (v > (uint64_t)INT64_MAX - acc) {
			ts_bad = 1;
			break;
		}
		acc += v;
		e = tmp_push(s);
		if (!e)
			return s->rc;
		if (bundle_ts(off, acc, &e->ts)) {
			s->ntmp--;
			ts_bad = 1;
			break;
		}
		e->kind = wakings ? GFXSTAT_SCHED_WAKING : GFXSTAT_SCHED_SWITCH;
		e->compact = 1;
		e->cpu = cpu;
		e->seq = seq0 + (s->ntmp - 1 - base);
	}
	n = s->ntmp - base;
	e = n ? s->tmp + base : NULL; /* (tmp may be NULL when nothing was pushed) */
	if (!wakings) {
		COL_FILL(&c[1], e, &n, bad, x, int64_t);           /* prev_state */
		COL_FILL(&c[2], e, &n, bad, c, int32_t);           /* next_pid */
		COL_FILL(&c[3], e, &n, bad, d, int32_t);           /* next_prio */
	} else {
		COL_FILL(&c[1], e, &n, bad, a, int32_t);           /* pid */
		COL_FILL(&c[2], e, &n, bad, c, int32_t);           /* target_cpu */
		COL_FILL(&c[3], e, &n, bad, b, int32_t);           /* prio */
		for (i = 0; i < n; i++) {
			uint32_t fl;

			k = col_next(&c[5], &v);
			if (k == 0)
				break;
			if (k < 0) {
				n = i;
				*bad = 1;
				break;
			}
			fl = (uint32_t)v;
			e[i].irq = (fl & TRACE_FLAG_HARDIRQ ? GFXSTAT_SCHED_IRQ_HARD : 0) |
				   (fl & TRACE_FLAG_SOFTIRQ ? GFXSTAT_SCHED_IRQ_SOFT : 0);
		}
	}
	for (i = 0; i < n; i++) {
		int nb = 0;
		uint32_t id;

		if (col_next(&c[4], &v) != 1) {
			n = i;
			*bad = 1;
			break;
		}
		id = itab_name(s, v, &nb);
		if (nb) {
			n = i;
			*bad = 1;
			break;
		}
		if (wakings)
			e[i].s1 = id;
		else
			e[i].s2 = id;
	}
	if (ts_bad) {
		*bad = 1;
	} else if (!*bad) {
		/* the timestamps ended at row n: so must every other column */
		for (j = 1; j < 5; j++)
			if (col_next(&c[j], &v) != 0)
				*bad = 1;
	}
	s->ntmp = base + n;
	*ord += n;
	if (wakings)
		s->sum.compact_waking += n;
	else
		s->sum.compact_switch += n;
	return 0;
}

/*
 * compact_sched: each column holds one value per event; the timestamps are deltas from the
 * previous event of the column (trace_processor's FtraceTokenizer::TokenizeFtraceCompactSched
 * reads them so). A switch has no prev_* fields: they are the CPU's previous switch's next_*.
 */
static int decode_compact(struct gx_psched *s, int32_t cpu, int64_t off, const uint8_t *d,
			  size_t n)
{
	struct gx_pb r;
	struct gx_pb_field f;
	enum gx_pb_res res;
	struct col c[6];
	uint64_t v[6], acc;
	int k[6], bad = 0, i, ncol;
	uint64_t ord = 0;
	/* each column's packed run when it has exactly one (as traced_probes writes them):
	 * read straight from it, without looking through the message for more */
	const uint8_t *run[CS_WAKING_COMMON_FLAGS + 1] = { 0 };
	size_t runlen[CS_WAKING_COMMON_FLAGS + 1] = { 0 };
	int one_run = !s->slow;

	s->sum.compact_bundles++;
	s->nitab = 0;
	gx_pb_init(&r, d, n);
	while ((res = gx_pb_next_fast(&r, &f)) == GX_PB_FIELD) {
		if (f.num != CS_INTERN_TABLE && f.num <= CS_WAKING_COMMON_FLAGS) {
			if (f.wire != GX_PB_LEN || run[f.num])
				one_run = 0; /* not packed, or in several runs */
			run[f.num] = f.data;
			runlen[f.num] = f.len;
		}
		if (f.num != CS_INTERN_TABLE || f.wire != GX_PB_LEN)
			continue;
		if (gx_grow((void **)&s->itab, &s->itabcap, s->nitab, sizeof(*s->itab), 64))
			return s->rc = GFXSTAT_E_NOMEM;
		s->itab[s->nitab].p = f.data;
		s->itab[s->nitab].n = f.len;
		s->itab[s->nitab].id = NAME_NONE;
		s->nitab++;
	}
	if (res == GX_PB_MALFORMED) {
		s->sum.malformed++;
		return 0;
	}
	/* switches: timestamp, prev_state, next_pid, next_prio, next_comm_index */
	cols(c, d, n, one_run ? run : NULL, runlen, 0);
	if (!s->slow) {
		if (compact_section(s, cpu, off, c, 0, &ord, &bad))
			return s->rc;
		s->ncsw = s->ntmp;
		if (!bad) {
			cols(c, d, n, one_run ? run : NULL, runlen, 1);
			if (compact_section(s, cpu, off, c, 1, &ord, &bad))
				return s->rc;
		}
		s->ncs = s->ntmp;
		if (bad)
			s->sum.compact_errors++;
		return s->rc;
	}
	acc = 0;
	for (;;) {
		struct ps_ev *e;
		int any = 0, all = 1;

		for (i = 0; i < 5; i++) {
			k[i] = col_next(&c[i], &v[i]);
			any |= k[i] != 0;
			all &= k[i] == 1;
		}
		if (!any)
			break;
		if (!all || v[0] > (uint64_t)INT64_MAX - acc) {
			bad = 1; /* a column ended early or did not decode */
			break;
		}
		acc += v[0];
		e = tmp_push(s);
		if (!e)
			return s->rc;
		if (bundle_ts(off, acc, &e->ts)) {
			s->ntmp--;
			bad = 1;
			break;
		}
		e->kind = GFXSTAT_SCHED_SWITCH;
		e->compact = 1;
		e->cpu = cpu;
		e->seq = ord++;
		e->x = (int64_t)v[1];
		e->c = (int32_t)(uint32_t)v[2];
		e->d = (int32_t)(uint32_t)v[3];
		e->s2 = itab_name(s, v[4], &bad);
		if (bad) {
			s->ntmp--;
			break;
		}
		s->sum.compact_switch++;
	}
	s->ncsw = s->ntmp;
	/* wakings: timestamp, pid, target_cpu, prio, comm_index[, common_flags] */
	cols(c, d, n, one_run ? run : NULL, runlen, 1);
	acc = 0;
	ncol = 5;
	while (!bad) {
		struct ps_ev *e;
		int any = 0, all = 1;

		for (i = 0; i < ncol; i++) {
			k[i] = col_next(&c[i], &v[i]);
			any |= k[i] != 0;
			all &= k[i] == 1;
		}
		if (!any)
			break;
		if (!all || v[0] > (uint64_t)INT64_MAX - acc) {
			bad = 1;
			break;
		}
		k[5] = col_next(&c[5], &v[5]); /* optional: older traces lack it */
		if (k[5] < 0) {
			bad = 1;
			break;
		}
		acc += v[0];
		e = tmp_push(s);
		if (!e)
			return s->rc;
		if (bundle_ts(off, acc, &e->ts)) {
			s->ntmp--;
			bad = 1;
			break;
		}
		e->kind = GFXSTAT_SCHED_WAKING;
		e->compact = 1;
		e->cpu = cpu;
		e->seq = ORD_WAKING + ord++;
		e->a = (int32_t)(uint32_t)v[1];
		e->c = (int32_t)(uint32_t)v[2];
		e->b = (int32_t)(uint32_t)v[3];
		e->s1 = itab_name(s, v[4], &bad);
		if (k[5] == 1)
			e->irq = ((uint32_t)v[5] & TRACE_FLAG_HARDIRQ ? GFXSTAT_SCHED_IRQ_HARD : 0) |
				 ((uint32_t)v[5] & TRACE_FLAG_SOFTIRQ ? GFXSTAT_SCHED_IRQ_SOFT : 0);
		if (bad) {
			s->ntmp--;
			break;
		}
		s->sum.compact_waking++;
	}
	s->ncs = s->ntmp;
	if (bad)
		s->sum.compact_errors++;
	return s->rc;
}

static int cmp_ev(const void *a, const void *b)
{
	const struct ps_ev *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The decoder's record of CPU @cpu, made when first seen; NULL when memory ran out. */
static struct ps_cur *cur_get(struct gx_psched *w, uint32_t cpu)
{
	if (cpu >= w->ncur) {
		size_t n = (size_t)cpu + 1;
		struct ps_cur *nc = realloc(w->cur, n * sizeof(*nc));

		if (!nc)
			return NULL;
		memset(nc + w->ncur, 0, (n - w->ncur) * sizeof(*nc));
		w->cur = nc;
		w->ncur = n;
	}
	return &w->cur[cpu];
}

/* A thread renamed: the CPUs running it will name it so in their next switch. */
static void renamed(struct gx_psched *w, int32_t pid, uint32_t name)
{
	size_t i;

	for (i = 0; i < w->ncur; i++)
		if (w->cur[i].have && w->cur[i].pid == pid)
			w->cur[i].comm = name;
}

/*
 * What a bundle's event @e (taken in its CPU's time order) lacks, from the thread CPU @c was
 * running: a compact switch's prev_* and a compact waking's waker are that thread, and an
 * event of that thread is named so. Return 0 when the event cannot be told (a compact one
 * before the CPU's first switch: it has no payload), 1 when it is to be held.
 */
static inline int infer(struct gx_psched *w, struct ps_cur *c, struct ps_ev *e)
{
	if (e->kind == GFXSTAT_SCHED_SWITCH) {
		if (e->compact) {
			if (!c->have) {
				/* no previous thread to name: start from this one */
				w->sum.compact_skipped++;
				c->have = 1;
				c->pid = e->c;
				c->prio = e->d;
				c->comm = e->s2;
				return 0;
			}
			e->a = c->pid;
			e->b = c->prio;
			e->s1 = c->comm;
			e->tid = c->pid;
		}
		e->comm = e->s1;
		c->have = 1;
		c->pid = e->c;
		c->prio = e->d;
		c->comm = e->s2;
	} else if (e->compact) {
		if (!c->have) {
			w->sum.compact_skipped++;
			return 0;
		}
		e->tid = c->pid; /* the waker: the thread running on this CPU */
		e->comm = c->comm;
	} else {
		if (c->have && c->pid == e->tid)
			e->comm = c->comm;
		if (e->kind == GFXSTAT_SCHED_TASK_RENAME)
			renamed(w, e->a, e->s2);
	}
	return 1;
}

/*
 * The bundle's events by (ts, seq). They come as a few runs each in order (the compact
 * switches, the compact wakings, the events), merged here in one pass instead of a sort: the
 * keys are unique, so the result is the sort's. Anything else is sorted. Return 0 or
 * GFXSTAT_E_NOMEM.
 */
#define MAX_RUNS 4

static int sort_bundle(struct gx_psched *s)
{
	size_t start[MAX_RUNS + 1], pos[MAX_RUNS], i, k, nruns = 1, out;
	struct ps_ev *t;

	start[0] = 0;
	for (i = 1; i < s->ntmp; i++) {
		if (cmp_ev(&s->tmp[i - 1], &s->tmp[i]) <= 0)
			continue;
		if (nruns == MAX_RUNS) {
			qsort(s->tmp, s->ntmp, sizeof(*s->tmp), cmp_ev);
			return 0;
		}
		start[nruns++] = i;
	}
	if (nruns == 1)
		return 0;
	start[nruns] = s->ntmp;
	if (s->tmp2cap < s->tmpcap) {
		t = realloc(s->tmp2, s->tmpcap * sizeof(*t));
		if (!t)
			return s->rc = GFXSTAT_E_NOMEM;
		s->tmp2 = t;
		s->tmp2cap = s->tmpcap;
	}
	for (k = 0; k < nruns; k++)
		pos[k] = start[k];
	for (out = 0; out < s->ntmp; out++) {
		size_t b = MAX_RUNS;

		for (k = 0; k < nruns; k++)
			if (pos[k] < start[k + 1] &&
			    (b == MAX_RUNS || cmp_ev(&s->tmp[pos[k]], &s->tmp[pos[b]]) < 0))
				b = k;
		s->tmp2[out] = s->tmp[pos[b]++];
	}
	/* the two buffers swap: tmp's capacity goes with it */
	t = s->tmp;
	s->tmp = s->tmp2;
	s->tmp2 = t;
	i = s->tmpcap;
	s->tmpcap = s->tmp2cap;
	s->tmp2cap = i;
	return 0;
}

/* order_bundle() as the plain merge does it: the bundle sorted, then inferred in place. */
static int order_bundle_ref(struct gx_psched *w, struct ps_cur *c)
{
	size_t i;

	if (w->ntmp > 1 && sort_bundle(w))
		return w->rc;
	for (i = 0; i < w->ntmp; i++)
		if (infer(w, c, &w->tmp[i]))
			w->ord[w->nord++] = (uint32_t)i;
	return 0;
}

/* Is each of the bundle's three runs (compact switches [0, ncsw), compact wakings
 * [ncsw, ncs), events [ncs, ntmp)) in time order? Their seq rise within each. */
static int runs_in_order(const struct gx_psched *s)
{
	const struct ps_ev *t = s->tmp;
	size_t i;

	for (i = 1; i < s->ntmp; i++)
		if (t[i].ts < t[i - 1].ts && i != s->ncsw && i != s->ncs)
			return 0;
	return 1;
}

/* Event @e, next in time order, inferred and its index kept at *@out (the one infer() drops
 * has no payload: nothing to give back). */
static PS_INLINE void order_one(struct gx_psched *w, struct ps_cur *c, struct ps_ev *e,
				uint32_t **out)
{
	if (infer(w, c, e))
		*(*out)++ = (uint32_t)(e - w->tmp);
}

/*
 * The decoder's part of holding a bundle of CPU @c: its events in the CPU's time order, each
 * infer()red from the thread the CPU ran, those it cannot tell dropped, as indexes into tmp
 * (ord: four bytes written per event, not the event's eighty). The bundle comes as a few runs
 * each in order (the compact switches, the compact wakings, the events): they are merged in
 * one pass. The keys are unique, so the order is sort_bundle()'s. When the three runs are
 * each in time order (as traced_probes writes a CPU's events), the merge is of those three,
 * equal times going to the earlier run (its seq are lower); else the runs are found by their
 * keys, and more than MAX_RUNS are sorted first. Return 0 or GFXSTAT_E_NOMEM.
 */
static int order_bundle(struct gx_psched *w, struct ps_cur *c)
{
	size_t start[MAX_RUNS + 1], pos[MAX_RUNS], i, nruns = 1;
	uint32_t *out;

	w->nord = 0;
	if (!w->ntmp)
		return 0; /* (tmp may be NULL: no arithmetic on it) */
	if (w->ntmp > UINT32_MAX ||
	    gx_grow_to((void **)&w->ord, &w->ordcap, w->ntmp, sizeof(*w->ord), 256))
		return w->rc = GFXSTAT_E_NOMEM;
	if (w->ref_merge)
		return order_bundle_ref(w, c);
	out = w->ord;
	if (runs_in_order(w)) {
		struct ps_ev *sw = w->tmp, *swe = w->tmp + w->ncsw, *wk = swe;
		struct ps_ev *wke = w->tmp + w->ncs, *ev = wke, *eve = w->tmp + w->ntmp;

		/* while all three have events; then two; then the one left */
		while (sw < swe && wk < wke && ev < eve) {
			if (wk->ts < sw->ts)
				order_one(w, c, ev->ts < wk->ts ? ev++ : wk++, &out);
			else
				order_one(w, c, ev->ts < sw->ts ? ev++ : sw++, &out);
		}
		while (sw < swe && wk < wke)
			order_one(w, c, wk->ts < sw->ts ? wk++ : sw++, &out);
		if (sw < swe)
			wk = sw, wke = swe;
		while (wk < wke && ev < eve)
			order_one(w, c, ev->ts < wk->ts ? ev++ : wk++, &out);
		if (wk < wke)
			ev = wk, eve = wke;
		while (ev < eve)
			order_one(w, c, ev++, &out);
	} else {
		start[0] = 0;
		for (i = 1; i < w->ntmp; i++) {
			if (cmp_ev(&w->tmp[i - 1], &w->tmp[i]) <= 0)
				continue;
			if (nruns == MAX_RUNS) {
				qsort(w->tmp, w->ntmp, sizeof(*w->tmp), cmp_ev);
				nruns = 1;
				break;
			}
			start[nruns++] = i;
		}
		start[nruns] = w->ntmp;
		for (i = 0; i < nruns; i++)
			pos[i] = start[i];
		for (;;) {
			size_t b = 0, k;
			struct ps_ev *lim = NULL; /* the earliest head of the other runs */

			/* the run with the earliest head, and the earliest of the others' */
			for (k = 0; k < nruns; k++) {
				if (pos[k] == start[k + 1])
					continue;
				if (pos[b] == start[b + 1] ||
				    cmp_ev(&w->tmp[pos[k]], &w->tmp[pos[b]]) < 0) {
					if (pos[b] < start[b + 1] && b != k)
						lim = &w->tmp[pos[b]];
					b = k;
				} else if (!lim || cmp_ev(&w->tmp[pos[k]], lim) < 0) {
					lim = &w->tmp[pos[k]];
				}
			}
			if (pos[b] == start[b + 1])
				break;
			/* run b's events while each is before every other run's head */
			do {
				order_one(w, c, &w->tmp[pos[b]++], &out);
			} while (pos[b] < start[b + 1] &&
				 (!lim || cmp_ev(&w->tmp[pos[b]], lim) < 0));
		}
	}
	w->nord = (size_t)(out - w->ord);
	return 0;
}

/* Room in @c's queue for batch @b's events, as hold() makes it: the held moved down, or
 * twice the room. Return 0, or GFXSTAT_E_NOMEM. */
static int reserve(struct gx_psched *s, struct ps_cpu *c, const struct ps_batch *b)
{
	if (c->cap - c->n >= b->n)
		return 0;
	if (c->head > c->cap / 2 && c->cap - (c->n - c->head) >= b->n) {
		memmove(c->q, c->q + c->head, (c->n - c->head) * sizeof(*c->q));
		c->n -= c->head;
		c->head = 0;
	} else {
		size_t cap = c->cap ? c->cap : 256;
		struct ps_ev *nq;

		while (cap - c->n < b->n)
			cap *= 2;
		nq = realloc(c->q, cap * sizeof(*nq));
		if (!nq)
			return s->rc = GFXSTAT_E_NOMEM;
		c->q = nq;
		c->cap = cap;
	}
	return 0;
}

/* hold_bundle() as the plain merge does it: held one by one. */
static int hold_bundle_ref(struct gx_psched *s, struct ps_cpu *c, struct ps_batch *b)
{
	size_t i;

	for (i = 0; i < b->n && !s->rc; i++) {
		struct ps_ev *e = &b->ev[b->idx[i]];

		hold(s, c, e);
		e->buf = NULL; /* held (or freed as late) */
	}
	return s->rc;
}

/*
 * Batch @b's events (in its CPU's time order, inferred: order_bundle()) into CPU @c's queue:
 * each appended while it is not older than the queue's newest, with the queue's end, the
 * next seq and what is held kept in locals (the compiler cannot keep them in registers
 * through stores to the queue); one older than the last delivered is dropped (late), and
 * another older one goes through hold(), which puts it in its place. The payloads are the
 * queue's then (or given back, late); on an error, those of the events not taken stay @b's
 * (the taken ones' buf cleared).
 */
static int hold_bundle(struct gx_psched *s, struct ps_cpu *c, struct ps_batch *b)
{
	struct ps_ev *e, *q, *ev = b->ev;
	const uint32_t *ix, *ixend;
	size_t n, nheld = 0;
	uint64_t seq;
	int64_t floor, hi = c->hi;

	if (s->ref_merge)
		return hold_bundle_ref(s, c, b);
	if (!b->n)
		return s->rc; /* (idx may be NULL: no arithmetic on it, not even + 0) */
	ix = b->idx;
	ixend = b->idx + b->n;
	if (reserve(s, c, b))
		return s->rc;
	q = c->q;
	n = c->n;
	seq = s->seq;
	floor = s->last_out;
	if (n > c->head && q[n - 1].ts > floor)
		floor = q[n - 1].ts;
	for (; ix < ixend && !s->rc; ix++) {
		e = &ev[*ix];
		if (GX_LIKELY(e->ts >= floor)) {
			q[n] = *e;
			q[n].seq = seq++;
			n++;
			floor = e->ts;
			nheld++;
			continue;
		}
		c->n = n;
		s->seq = seq;
		if (e->ts < s->last_out) {
			s->sum.late++;
			arena_put(s, e->buf);
		} else {
			hold(s, c, e); /* older than the queue's newest: in its place */
		}
		q = c->q;
		n = c->n;
		seq = s->seq;
		floor = s->last_out;
		if (n > c->head && q[n - 1].ts > floor)
			floor = q[n - 1].ts;
	}
	c->n = n;
	s->seq = seq;
	if (n > c->head && q[n - 1].ts > hi)
		hi = q[n - 1].ts;
	if (s->rc) {
		const uint32_t *k;

		for (k = b->idx; k < ix; k++)
			ev[*k].buf = NULL; /* the queue's, or given back */
	}
	/* what hold() keeps for each event, for the appended ones at once (held only grew) */
	if (hi > c->hi)
		c->hi = hi;
	if (c->hi > s->newest)
		s->newest = c->hi;
	s->held += nheld;
	if (s->held > s->sum.held_max)
		s->sum.held_max = s->held;
	heap_fix(s, c);
	return s->rc;
}

/* The fields decoding counts, of a batch into the merge's summary. */
static void sum_add(struct gfxstat_perfetto_sched_summary *to,
		    const struct gfxstat_perfetto_sched_summary *d)
{
	to->compact_bundles += d->compact_bundles;
	to->compact_switch += d->compact_switch;
	to->compact_waking += d->compact_waking;
	to->compact_errors += d->compact_errors;
	to->compact_skipped += d->compact_skipped;
	to->lost_events += d->lost_events;
	to->clock_unconverted += d->clock_unconverted;
	to->malformed += d->malformed;
	to->bad_cpu += d->bad_cpu;
}

static void counts_add(struct gx_psched_counts *to, const struct gx_psched_counts *d)
{
	to->events += d->events;
	to->malformed += d->malformed;
	to->other += d->other;
	to->prints += d->prints;
	to->markers += d->markers;
	to->unsupported += d->unsupported;
	to->bad_markers += d->bad_markers;
}

/* The events of one bundle into the decoder's scratch (as they come: its runs), its counts
 * into its own sum and counts_none; @b->kind and ->cpu say what is to be held. */
static void decode_events(struct gx_psched *s, const uint8_t *d, size_t n, struct ps_batch *b)
{
	struct gx_pb r;
	struct gx_pb_field f, cs = { 0 };
	enum gx_pb_res res;
	uint64_t cpu = 0, clock = 0, fts = 0, bts = 0, ord = 0;
	int has_cpu = 0, has_cs = 0, has_fts = 0, has_bts = 0, slow;
	int64_t off = 0;
	size_t i;

	b->kind = BATCH_SKIP;
	if (s->rc)
		return;
	s->ntmp = 0;
	s->ncsw = s->ncs = 0;
	s->nevs = 0;
	slow = s->slow;
	gx_pb_init(&r, d, n);
	for (;;) {
		const uint8_t *p = r.p, *end = r.end;
		size_t nevs = s->nevs;
		uint32_t len;

		/* the events, one after the other: tag 0x12 and a length of one byte or
		 * protozero's padded four (len4()); what gx_pb_next_fast() reads of them, in
		 * fewer steps */
		while (!slow && end - p >= 5 && p[0] == (BUNDLE_EVENT << 3 | GX_PB_LEN)) {
			const uint8_t *q;

			if (!(p[1] & 0x80))
				len = p[1], q = p + 2;
			else if (len4(p + 1, &len))
				q = p + 5;
			else
				break;
			if (len > (size_t)(end - q))
				break;
			if (GX_UNLIKELY(nevs == s->evscap) &&
			    gx_grow((void **)&s->evs, &s->evscap, nevs, sizeof(*s->evs), 256)) {
				s->rc = GFXSTAT_E_NOMEM;
				return;
			}
			s->evs[nevs].p = q;
			s->evs[nevs].n = len;
			nevs++;
			p = q + len;
		}
		r.p = p;
		s->nevs = nevs;
		if ((res = gx_pb_next_fast(&r, &f)) != GX_PB_FIELD)
			break;
		if (f.num == BUNDLE_EVENT && f.wire == GX_PB_LEN) {
			/* kept for the second pass, which need not read the fields again */
			if (gx_grow((void **)&s->evs, &s->evscap, s->nevs, sizeof(*s->evs), 256)) {
				s->rc = GFXSTAT_E_NOMEM;
				return;
			}
			s->evs[s->nevs].p = f.data;
			s->evs[s->nevs].n = f.len;
			s->nevs++;
		} else if (f.wire == GX_PB_VARINT) {
			if (f.num == BUNDLE_CPU)
				cpu = f.v, has_cpu = 1;
			else if (f.num == BUNDLE_LOST_EVENTS && f.v)
				s->sum.lost_events++;
			else if (f.num == BUNDLE_FTRACE_CLOCK)
				clock = f.v;
			else if (f.num == BUNDLE_FTRACE_TIMESTAMP)
				fts = f.v, has_fts = 1;
			else if (f.num == BUNDLE_BOOT_TIMESTAMP)
				bts = f.v, has_bts = 1;
		} else if (f.num == BUNDLE_COMPACT_SCHED && f.wire == GX_PB_LEN) {
			cs = f, has_cs = 1;
		}
	}
	if (res == GX_PB_MALFORMED) {
		s->sum.malformed++; /* the fields before the bad one still count */
		s->sink.counts->malformed++;
	}
	/* without a usable CPU (trace_processor rejects such a bundle: no order) only its
	 * markers are taken, as perfetto_pb.c takes them, on a queue of their own */
	if (!has_cpu || cpu >= GX_PSCHED_MAX_CPUS) {
		if (!has_cpu)
			s->sum.malformed++;
		else
			s->sum.bad_cpu++;
		if (!s->sink.print && !s->want_counts)
			return;
		b->kind = BATCH_NOCPU;
		for (i = 0; i < s->nevs; i++)
			if (decode_event(s, (int32_t)(uint32_t)cpu, 0, s->evs[i].p, s->evs[i].n,
					 ord++, 1))
				return;
		return;
	}
	/* a clock other than boot: its bundles carry a snapshot of it and of boot time */
	if (clock) {
		if (has_fts && has_bts && fts <= INT64_MAX && bts <= INT64_MAX) {
			s->clk_off = (int64_t)bts - (int64_t)fts;
			s->have_clk_off = 1;
		}
		if (s->have_clk_off)
			off = s->clk_off;
		else
			s->sum.clock_unconverted++;
	}
	b->kind = BATCH_CPU;
	b->cpu = (uint32_t)cpu;
	if (has_cs && s->events && decode_compact(s, (int32_t)cpu, off, cs.data, cs.len))
		return;
	for (i = 0; i < s->nevs; i++)
		if (decode_event(s, (int32_t)cpu, off, s->evs[i].p, s->evs[i].n, ord++, 0))
			return;
}

/* Decoder @w's bundle [d, d + n) into batch @b: the events, counts, the names it made and the
 * chunks it sealed, all of it handed over (@b's buffers become the decoder's next ones). */
static void decode_bundle(struct gx_psched *w, const uint8_t *d, size_t n, struct ps_batch *b)
{
	size_t names0 = w->names.n, i, t;
	struct ps_ev *ev;
	struct ps_sealed *sl;
	uint32_t *ix;

	memset(&w->sum, 0, sizeof(w->sum));
	memset(&w->counts_none, 0, sizeof(w->counts_none));
	decode_events(w, d, n, b);
	if (!w->rc && b->kind != BATCH_SKIP) {
		struct ps_cur *c = cur_get(w, b->kind == BATCH_CPU ? b->cpu : GX_PSCHED_MAX_CPUS);

		if (!c)
			w->rc = GFXSTAT_E_NOMEM;
		else
			order_bundle(w, c);
	}
	ev = b->ev, b->ev = w->tmp, w->tmp = ev;
	t = b->cap, b->cap = w->tmpcap, w->tmpcap = t;
	ix = b->idx, b->idx = w->ord, w->ord = ix;
	t = b->idxcap, b->idxcap = w->ordcap, w->ordcap = t;
	b->nev = w->ntmp;
	b->n = w->nord; /* (0 when not ordered: an error, each event given back) */
	w->ntmp = 0;
	w->nord = 0;
	b->counts = w->counts_none;
	b->sum = w->sum;
	sl = b->sealed, b->sealed = w->sealed, w->sealed = sl;
	t = b->sealedcap, b->sealedcap = w->sealedcap, w->sealedcap = t;
	b->nsealed = w->nsealed;
	w->nsealed = 0;
	b->nnames = 0;
	if (gx_grow_to((void **)&b->names, &b->namescap, w->names.n - names0, sizeof(*b->names),
		       64) &&
	    !w->rc)
		w->rc = GFXSTAT_E_NOMEM;
	for (i = names0; i < w->names.n && !w->rc; i++) {
		b->names[b->nnames].p = w->names.keys[i].p;
		b->names[b->nnames].n = w->names.keys[i].n;
		b->nnames++;
	}
	b->rc = w->rc;
}

/* What batch @b brought besides its events, into the merge: names, chunks, counts. */
static void batch_take(struct gx_psched *s, struct ps_batch *b)
{
	size_t i;

	if (b->nnames && !s->rc) {
		if (gx_grow_to((void **)&s->view, &s->viewcap, s->nview + b->nnames,
			       sizeof(*s->view), 256))
			s->rc = GFXSTAT_E_NOMEM;
		for (i = 0; i < b->nnames && !s->rc; i++)
			s->view[s->nview++] = b->names[i];
	}
	b->nnames = 0;
	for (i = 0; i < b->nsealed; i++) {
		struct ps_chunk *c = b->sealed[i].c;

		c->final = b->sealed[i].given;
		if (c->freed == c->final)
			spare_give(s, c);
	}
	b->nsealed = 0;
	counts_add(s->sink.counts, &b->counts);
	sum_add(&s->sum, &b->sum);
}

/* Batch @b's payloads given back: the events' (one infer() dropped has none). */
static void batch_put(struct gx_psched *s, struct ps_batch *b)
{
	size_t i;

	for (i = 0; i < b->nev; i++)
		arena_put(s, b->ev[i].buf);
	b->nev = b->n = 0;
}

/* What the merge would have counted of batch @b but never merges (the input stopped, or a
 * bundle came out of turn): its payloads back and the decoder's names and chunks taken, its
 * counts not (the bundle was not read). */
static void batch_drop(struct gx_psched *s, struct ps_batch *b)
{
	batch_put(s, b);
	memset(&b->counts, 0, sizeof(b->counts));
	memset(&b->sum, 0, sizeof(b->sum));
	batch_take(s, b);
}

/* Batch @b dropped, then its buffers freed. */
static void batch_free(struct gx_psched *s, struct ps_batch *b)
{
	batch_drop(s, b);
	free(b->ev);
	free(b->idx);
	free(b->names);
	free(b->sealed);
	memset(b, 0, sizeof(*b));
}

/* Batch @b into the merge: its events inferred and held, then what may go out. */
static int apply_bundle(struct gx_psched *s, struct ps_batch *b)
{
	struct ps_cpu *c;

	s->started = 1;
	s->sum.bundles++;
	batch_take(s, b);
	if (b->rc && !s->rc)
		s->rc = b->rc;
	if (s->rc || b->kind == BATCH_SKIP)
		goto out;
	if (b->kind == BATCH_CPU) {
		if (s->ncpu > b->cpu && s->cpus[b->cpu].seen && s->last_cpu != (int64_t)b->cpu)
			s->cycled = 1; /* a CPU read again after another one: all were read */
		s->last_cpu = (int64_t)b->cpu;
	}
	c = cpu_get(s, b->kind == BATCH_CPU ? b->cpu : GX_PSCHED_MAX_CPUS);
	if (!c) {
		s->rc = GFXSTAT_E_NOMEM;
		goto out;
	}
	if (b->kind == BATCH_CPU && s->num_cpus && s->nactive >= s->num_cpus)
		s->cycled = 1;
	if (hold_bundle(s, c, b))
		goto out;
	b->nev = b->n = 0; /* (the payloads are the queue's now) */
	if (b->cap > BATCH_KEEP) {
		/* the buffers go round (decoder, slots): one grown by a big bundle is not kept
		 * in each of them */
		free(b->ev);
		free(b->idx);
		b->ev = NULL;
		b->idx = NULL;
		b->cap = b->idxcap = 0;
	}
	return drain(s, 0);
out:
	batch_put(s, b);
	return s->rc;
}

/* ---------------------------------------------------------------------------------------- */
/* Decoding ahead                                                                           */

/*
 * The decoder on a thread of its own, a few bundles ahead of the merge: perfetto_pb.c hands
 * over the bundles of the whole packets it has (gx_psched_ahead()) and then each bundle in its
 * turn (gx_psched_bundle()), which takes its batch. The decoder's state is the thread's alone
 * while it runs; the merge's is the caller's; they meet in the slots (a ring, each slot
 * published by a count: submitted by the merge, decoded by the thread) and the spare chunks.
 * Decoding is about half of the work on a trace with the scheduler's events, so two cores
 * take nearly half the time; the order and the outputs are the single thread's.
 */
#define AHEAD_SLOTS 32         /* fewer: the merge and the decoder wait for each other
				* where one's share of the bundles' work varies (8 slots: 0.62 s
				* instead of 0.46 on api32 x200) */
#define AHEAD_BYTES (2u << 20) /* bundle bytes handed over and not yet merged */

struct ps_slot {
	const uint8_t *d;
	size_t n;
	struct ps_batch b;
};

/* The thread's job: slot @k's bundle decoded into its batch. */
static void ahead_job(void *user, size_t k)
{
	struct gx_psched *s = user;

	decode_bundle(s->dec, s->slots[k].d, s->slots[k].n, &s->slots[k].b);
}

/* Everything submitted and not merged: waited for, then dropped. */
static void ahead_cancel(struct gx_psched *s)
{
	if (!s->ahead)
		return;
	while (gx_ahead_pending(s->ahead)) /* (each waited for) */
		batch_drop(s, &s->slots[gx_ahead_take(s->ahead)].b);
	s->ahead_bytes = 0;
}

static void ahead_stop(struct gx_psched *s)
{
	size_t i;

	if (!s->ahead)
		return;
	ahead_cancel(s);
	gx_ahead_free(s->ahead);
	s->ahead = NULL;
	for (i = 0; i < AHEAD_SLOTS; i++)
		batch_free(s, &s->slots[i].b);
	free(s->slots);
	s->slots = NULL;
}

/* The thread, started on first use; 0 when it could not be (decoding stays the caller's). */
static int ahead_start(struct gx_psched *s)
{
	s->slots = calloc(AHEAD_SLOTS, sizeof(*s->slots));
	s->ahead = s->slots ? gx_ahead_new(AHEAD_SLOTS, ahead_job, s) : NULL;
	if (s->ahead)
		return 1;
	free(s->slots);
	s->slots = NULL;
	s->threads = 0;
	return 0;
}

void gx_psched_set_threads(struct gx_psched *s, int threads)
{
	if (!s->started)
		s->threads = threads > 1;
}

void gx_psched_set_ahead_min(struct gx_psched *s, size_t bytes)
{
	s->ahead_min = bytes;
}

int gx_psched_ahead(struct gx_psched *s, const uint8_t *d, size_t n)
{
	size_t k;

	if (!s->threads || s->rc)
		return 0;
	/* a small bundle does not start the thread's work: waking it and waiting for its batch
	 * cost more than decoding here (nowinandroid's bundles are mostly under 1 kB among
	 * FrameTimeline's packets, perfetto_sim's all); once it works, every bundle goes */
	if (n < s->ahead_min && gx_psched_ahead_idle(s))
		return 0;
	if (!s->ahead && !ahead_start(s))
		return 0;
	if (s->ahead_bytes && s->ahead_bytes + n > AHEAD_BYTES)
		return 0;
	k = gx_ahead_next(s->ahead);
	if (k == GX_AHEAD_FULL)
		return 0;
	s->slots[k].d = d;
	s->slots[k].n = n;
	s->ahead_bytes += n;
	gx_ahead_submit(s->ahead);
	return 1;
}

int gx_psched_ahead_idle(const struct gx_psched *s)
{
	return !s->ahead || !gx_ahead_pending(s->ahead);
}

void gx_psched_ahead_end(struct gx_psched *s)
{
	ahead_cancel(s);
}

void gx_psched_ahead_stats(const struct gx_psched *s, uint64_t *taken, uint64_t *missed)
{
	*taken = s->ahead_taken;
	*missed = s->ahead_missed;
}

int gx_psched_bundle(struct gx_psched *s, const uint8_t *d, size_t n)
{
	if (s->rc)
		return s->rc;
	if (!gx_psched_ahead_idle(s)) {
		struct ps_slot *sl = &s->slots[gx_ahead_head(s->ahead)];

		if (sl->d == d && sl->n == n) {
			gx_ahead_take(s->ahead);
			s->ahead_bytes -= n;
			s->ahead_taken++;
			return apply_bundle(s, &sl->b);
		}
		/* not the bundle handed over: the decoder has read past this one (its threads'
		 * names, its clock) and cannot be taken back. The caller broke the contract of
		 * gx_psched_ahead(): stopped rather than merged out of order. */
		s->ahead_missed++;
		ahead_cancel(s);
		return s->rc = GFXSTAT_E_INVAL;
	}
	decode_bundle(s->dec, d, n, &s->batch);
	return apply_bundle(s, &s->batch);
}

/* ---------------------------------------------------------------------------------------- */
/* Counter packets                                                                          */

/* A string field as a borrowed name (cut at a NUL). */
static struct gfxstat_str str_of(const struct gx_pb_field *f)
{
	struct gfxstat_str r = { "", 0 };

	if (f->wire == GX_PB_LEN && f->len) {
		const uint8_t *z = memchr(f->data, 0, f->len);

		r.p = (const char *)f->data;
		r.n = z ? (size_t)(z - f->data) : f->len;
	}
	return r;
}

static const struct gfxstat_str no_name = { "", 0 };

/* A repeated scalar (packed or not) of @num as counters, index = position. */
static int repeated_counter(struct gx_psched *s, const uint8_t *d, size_t n, uint32_t num,
			    enum gfxstat_counter_kind k, int64_t scale, int64_t ts)
{
	struct col c;
	uint64_t v;
	int32_t i = 0;
	int r;

	col_init(&c, d, n, num);
	while ((r = col_next(&c, &v)) == 1) {
		if (v > (uint64_t)(INT64_MAX / scale)) {
			s->sum.malformed++;
		} else if (emit_counter(s, k, ts, i, (int64_t)v * scale, no_name)) {
			return s->rc;
		}
		i++;
	}
	if (r < 0)
		s->sum.malformed++;
	return s->rc;
}

static int decode_sys_stats(struct gx_psched *s, int64_t ts, const uint8_t *d, size_t n)
{
	struct gx_pb r, q;
	struct gx_pb_field f, g;
	enum gx_pb_res res;

	gx_pb_init(&r, d, n);
	while ((res = gx_pb_next(&r, &f)) == GX_PB_FIELD && !s->rc) {
		if (f.wire != GX_PB_LEN)
			continue;
		if (f.num == SYS_MEMINFO) {
			uint64_t key = 0, val = 0;

			gx_pb_init(&q, f.data, f.len);
			while (gx_pb_next(&q, &g) == GX_PB_FIELD)
				if (g.wire == GX_PB_VARINT && g.num == 1)
					key = g.v;
				else if (g.wire == GX_PB_VARINT && g.num == 2)
					val = g.v;
			if (key == MEMINFO_MEM_AVAILABLE && val <= INT64_MAX)
				emit_counter(s, GFXSTAT_COUNTER_MEM_AVAILABLE, ts, -1, (int64_t)val,
					     no_name);
		} else if (f.num == SYS_CPU_STAT) {
			uint64_t t[10] = { 0 }, busy, idle;
			int32_t cpu = -1;

			gx_pb_init(&q, f.data, f.len);
			while (gx_pb_next(&q, &g) == GX_PB_FIELD) {
				if (g.wire != GX_PB_VARINT)
					continue;
				if (g.num == CT_CPU_ID)
					cpu = gx_pb_i32(&g);
				else if (g.num < 10)
					t[g.num] = g.v > UINT64_MAX / 16 ? UINT64_MAX / 16 : g.v;
			}
			/* busy: user, nice, system, irq, softirq; idle: idle, iowait */
			busy = t[2] + t[3] + t[4] + t[7] + t[CT_SOFTIRQ];
			idle = t[CT_IDLE] + t[CT_IO_WAIT];
			if (cpu < 0 || busy > INT64_MAX || idle > INT64_MAX) {
				s->sum.malformed++;
				continue;
			}
			if (!emit_counter(s, GFXSTAT_COUNTER_CPU_BUSY_TIME, ts, cpu,
					  (int64_t)busy, no_name))
				emit_counter(s, GFXSTAT_COUNTER_CPU_IDLE_TIME, ts, cpu,
					     (int64_t)idle, no_name);
		} else if (f.num == SYS_THERMAL_ZONE) {
			struct gfxstat_str zone = no_name, type = no_name;
			uint64_t temp = 0;
			int has_temp = 0;

			gx_pb_init(&q, f.data, f.len);
			while (gx_pb_next(&q, &g) == GX_PB_FIELD)
				if (g.num == 1)
					zone = str_of(&g);
				else if (g.num == 2 && g.wire == GX_PB_VARINT)
					temp = g.v, has_temp = 1;
				else if (g.num == 3)
					type = str_of(&g);
			/* traced_probes writes the zone's temp / 1000: whole degrees */
			if (has_temp && temp <= INT64_MAX / 1000) {
				/* the type ("skin-therm") says more than the zone's file name;
				 * sysfs ends it with a newline */
				while (type.n && (type.p[type.n - 1] == '\n' ||
						  type.p[type.n - 1] == ' '))
					type.n--;
				emit_counter(s, GFXSTAT_COUNTER_THERMAL, ts, -1,
					     (int64_t)temp * 1000, type.n ? type : zone);
			}
		}
	}
	if (res == GX_PB_MALFORMED) {
		s->sum.malformed++;
		return s->rc;
	}
	/* the repeated scalars, in their own pass: one value per CPU or GPU, in order */
	if (!s->rc)
		repeated_counter(s, d, n, SYS_CPUFREQ_KHZ, GFXSTAT_COUNTER_CPU_FREQ_SAMPLE, 1, ts);
	if (!s->rc)
		repeated_counter(s, d, n, SYS_GPUFREQ_MHZ, GFXSTAT_COUNTER_GPU_FREQ, 1000, ts);
	return s->rc;
}

static int decode_process_stats(struct gx_psched *s, int64_t ts, const uint8_t *d, size_t n)
{
	struct gx_pb r, q;
	struct gx_pb_field f, g;
	enum gx_pb_res res;

	gx_pb_init(&r, d, n);
	while ((res = gx_pb_next(&r, &f)) == GX_PB_FIELD && !s->rc) {
		int32_t pid = -1;
		uint64_t rss = 0;
		int has_rss = 0;

		if (f.num != PS_PROCESS || f.wire != GX_PB_LEN)
			continue;
		gx_pb_init(&q, f.data, f.len);
		while (gx_pb_next(&q, &g) == GX_PB_FIELD)
			if (g.num == PS_PID && g.wire == GX_PB_VARINT)
				pid = gx_pb_i32(&g);
			else if (g.num == PS_RSS_KB && g.wire == GX_PB_VARINT)
				rss = g.v, has_rss = 1;
		if (pid > 0 && has_rss && rss <= INT64_MAX)
			emit_counter(s, GFXSTAT_COUNTER_PROCESS_RSS, ts, pid, (int64_t)rss, no_name);
	}
	if (res == GX_PB_MALFORMED)
		s->sum.malformed++;
	return s->rc;
}

/* An IEEE-754 single (little-endian fixed32) in thousandths, rounded; -1 if not finite. */
static int float_milli(uint32_t bits, int64_t *out)
{
	float fv;

	memcpy(&fv, &bits, sizeof(fv));
	if (!(fv > -1e12f && fv < 1e12f))
		return -1;
	*out = (int64_t)(fv * 1000.0f + (fv >= 0 ? 0.5f : -0.5f));
	return 0;
}

static int decode_battery(struct gx_psched *s, int64_t ts, const uint8_t *d, size_t n)
{
	struct gx_pb r;
	struct gx_pb_field f;
	enum gx_pb_res res;
	int64_t v;

	gx_pb_init(&r, d, n);
	while ((res = gx_pb_next(&r, &f)) == GX_PB_FIELD && !s->rc) {
		if (f.num == BAT_CAPACITY_PCT && f.wire == GX_PB_FIXED32) {
			if (float_milli((uint32_t)f.v, &v) == 0)
				emit_counter(s, GFXSTAT_COUNTER_BATTERY_CAPACITY, ts, -1, v, no_name);
			continue;
		}
		if (f.wire != GX_PB_VARINT)
			continue;
		if (f.num == BAT_CHARGE_UAH)
			emit_counter(s, GFXSTAT_COUNTER_BATTERY_CHARGE, ts, -1, gx_pb_i64(&f),
				     no_name);
		else if (f.num == BAT_CURRENT_UA)
			emit_counter(s, GFXSTAT_COUNTER_BATTERY_CURRENT, ts, -1, gx_pb_i64(&f),
				     no_name);
		else if (f.num == BAT_CURRENT_AVG_UA)
			emit_counter(s, GFXSTAT_COUNTER_BATTERY_CURRENT_AVG, ts, -1,
				     gx_pb_i64(&f), no_name);
	}
	if (res == GX_PB_MALFORMED)
		s->sum.malformed++;
	return s->rc;
}

static int decode_power_rails(struct gx_psched *s, int64_t ts, const uint8_t *d, size_t n)
{
	struct gx_pb r, q;
	struct gx_pb_field f, g;
	enum gx_pb_res res;

	gx_pb_init(&r, d, n);
	while ((res = gx_pb_next(&r, &f)) == GX_PB_FIELD && !s->rc) {
		uint64_t index = UINT64_MAX, ms = 0, energy = 0;
		int has_energy = 0;
		uint32_t name = NAME_NONE;

		if (f.wire != GX_PB_LEN)
			continue;
		gx_pb_init(&q, f.data, f.len);
		while (gx_pb_next(&q, &g) == GX_PB_FIELD) {
			if (g.num == 1 && g.wire == GX_PB_VARINT)
				index = g.v;
			else if (f.num == RAIL_DESCRIPTOR && g.num == 2)
				name = name_of(s, &g);
			else if (f.num == RAIL_ENERGY && g.num == 2 && g.wire == GX_PB_VARINT)
				ms = g.v;
			else if (f.num == RAIL_ENERGY && g.num == 3 && g.wire == GX_PB_VARINT)
				energy = g.v, has_energy = 1;
		}
		if (f.num == RAIL_DESCRIPTOR && index < GX_PSCHED_MAX_RAILS) {
			s->rail_name[index] = name;
		} else if (f.num == RAIL_ENERGY && has_energy && index <= INT32_MAX &&
			   energy <= INT64_MAX) {
			/* the sample's own boot-time stamp (ms), as trace_processor uses it */
			int64_t t = ms && ms <= (uint64_t)(INT64_MAX / GFXSTAT_NSEC_PER_MSEC)
					    ? (int64_t)ms * GFXSTAT_NSEC_PER_MSEC : ts;

			emit_counter(s, GFXSTAT_COUNTER_RAIL_ENERGY, t, (int32_t)index,
				     (int64_t)energy,
				     own_name_str(s, index < GX_PSCHED_MAX_RAILS ? s->rail_name[index]
										 : NAME_NONE));
		}
	}
	if (res == GX_PB_MALFORMED)
		s->sum.malformed++;
	return s->rc;
}

/* utsname.release "5.10.107-android13-4-..." -> 5, 10; and the number of CPUs */
static void decode_system_info(struct gx_psched *s, const uint8_t *d, size_t n)
{
	struct gx_pb r, q;
	struct gx_pb_field f, g;

	gx_pb_init(&r, d, n);
	while (gx_pb_next(&r, &f) == GX_PB_FIELD) {
		if (f.num == SI_NUM_CPUS && f.wire == GX_PB_VARINT && f.v <= GX_PSCHED_MAX_CPUS)
			s->num_cpus = (uint32_t)f.v;
		if (f.num != SI_UTSNAME || f.wire != GX_PB_LEN)
			continue;
		gx_pb_init(&q, f.data, f.len);
		while (gx_pb_next(&q, &g) == GX_PB_FIELD) {
			const uint8_t *p, *end;
			int maj = 0, min = 0, k;

			if (g.num != UTS_RELEASE || g.wire != GX_PB_LEN)
				continue;
			p = g.data;
			end = p + g.len;
			for (k = 0; p < end && gx_isdigit((char)*p) && k < 4; p++, k++)
				maj = maj * 10 + (*p - '0');
			if (!k || p >= end || *p != '.')
				continue;
			for (p++, k = 0; p < end && gx_isdigit((char)*p) && k < 4; p++, k++)
				min = min * 10 + (*p - '0');
			if (!k || !maj)
				continue;
			s->sum.kernel_major = maj;
			s->sum.kernel_minor = min;
		}
	}
}

int gx_psched_packet(struct gx_psched *s, uint32_t field, int64_t ts, const uint8_t *d,
		     size_t n)
{
	if (s->rc)
		return s->rc;
	switch (field) {
	case PKT_SYS_STATS:
		return decode_sys_stats(s, ts, d, n);
	case PKT_PROCESS_STATS:
		return decode_process_stats(s, ts, d, n);
	case PKT_BATTERY:
		return decode_battery(s, ts, d, n);
	case PKT_POWER_RAILS:
		return decode_power_rails(s, ts, d, n);
	case PKT_SYSTEM_INFO:
		decode_system_info(s, d, n);
		return 0;
	}
	return 0;
}

int gx_psched_finish(struct gx_psched *s)
{
	if (s->rc)
		return s->rc;
	return drain(s, 1);
}
