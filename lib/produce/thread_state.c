/* SPDX-License-Identifier: MIT */
/*
 * Thread states from the scheduler's own events, and where a thread's time went over a span
 * (a Choreographer#doFrame, a DrawFrame). The state machine is Perfetto's
 * (src/trace_processor/importers/common/thread_state_tracker.cc):
 *   sched_switch   prev: closes its running state and opens the one prev_state says (R/R+
 *                  runnable_preempted, S sleeping, D uninterruptible); next: running on the CPU;
 *   sched_waking   a blocked (or never seen) thread becomes runnable; a waking for a thread that
 *                  is running or runnable is spurious and ignored; the waker is the thread on
 *                  whose line it appears;
 *   task_newtask   the new thread is runnable, woken by its parent;
 *   sched_blocked_reason  names the function of the uninterruptible sleep that just ended (it
 *                  is emitted as the thread is woken, so it applies to the last blocked state);
 *   the swapper (tid 0) is no thread.
 * Perfetto's text importer uses sched_waking only (systrace_line_parser.cc); a trace without
 * it (older kernels, or the category off) is read from sched_wakeup instead.
 * Memory: one small record per thread, one per CPU, and span records only for the threads
 * that had a span (an app's main thread and RenderThread): bounded by threads, not by time.
 */
#include <stdlib.h>

#include "produce_local.h"
#include "gfxstat/gfxstat_sched.h"

#define MAX_THREADS (1u << 17) /* pid_max is 32768 on most phones, up to 4194304 */
#define MAX_CPUS 64
/* tids below it are looked up in one load (two per sched_switch): pid_max is 32768 on most
 * phones; larger tids go to the hash */
#define DIRECT_TIDS 65536u
#define BINDER_DEPTH 4   /* nested synchronous calls kept per span thread */
#define OUTSTANDING 256  /* transactions of span threads awaiting their reply (direct-mapped) */
/* cpu_frequency events of one frequency domain come from one loop over its CPUs
 * (drivers/cpufreq/cpufreq.c, cpufreq_notify_post_transition and
 * cpufreq_driver_fast_switch: for_each_cpu(cpu, policy->cpus) trace_cpu_frequency()): one
 * after another, same state, within microseconds */
#define SAME_LOOP_NS 1000000

/* the rare paths out of gfxstat_thread_states_event()'s body: it then saves no register for
 * the common events (a portable build just inlines them) */
#ifdef __GNUC__
#define TS_NOINLINE __attribute__((noinline))
#else
#define TS_NOINLINE
#endif

struct bwait {
	int32_t id;          /* the request's debug id */
	int32_t dest_pid, dest_tid;
	int64_t start;
	int64_t end;         /* the reply reached the thread, or the span ended */
	int replied;
};

struct span {
	int open;
	int64_t start, acc;  /* accounted up to @acc */
	int64_t state_ns[GFXSTAT_TS_COUNT];
	uint64_t cpus;
	uint32_t max_freq;
	uint64_t khz_ns;     /* running time x frequency, where the frequency was known */
	int64_t run_known_ns, run_little_ns;
	int capped;
	/* binder: the open calls (a stack) and the finished ones, longest kept */
	unsigned nopen;
	struct bwait openb[BINDER_DEPTH];
	unsigned ndone;
	struct bwait done[GFXSTAT_SPAN_BINDER];
	int64_t binder_ns;
	/* the longest sleep, its waker; the longest D, its function; the longest wait for CPU */
	int64_t sleep_max;
	int32_t waker_tid, waker_pid;
	char waker_comm[GFXSTAT_COMM_LEN];
	unsigned waker_irq;
	int64_t blocked_max;
	int blocked_pending; /* the next sched_blocked_reason names the longest D */
	char blocked_fn[GFXSTAT_SPAN_FUNC_LEN];
	int io_wait;
	int64_t runnable_max;
	int32_t instead_tid;
	char instead_comm[GFXSTAT_COMM_LEN];
};

struct thread {
	int32_t tid, tgid;
	uint8_t state;       /* enum gfxstat_thread_state */
	int16_t cpu;         /* where it runs (or last ran, or waits), -1 unknown */
	int64_t since;       /* in @state since */
	int32_t span;        /* index in spans, or -1 */
	/* who ran instead while it waited for a CPU: the thread current on @cpu then */
	int32_t instead;     /* thread index, or -1 for an idle CPU, -2 unknown */
	char comm[GFXSTAT_COMM_LEN];
};

struct cpu {
	int32_t curr;        /* thread index running on it, or -1 (idle or unknown) */
	uint32_t freq;       /* kHz, 0 unknown */
	uint32_t top;        /* the highest frequency seen, or the policy's highest max */
	uint32_t limit;      /* the policy's current max (cpu_frequency_limits), 0 unknown */
	uint8_t linked;      /* its frequency always changed right after cpu - 1's, to the same */
	uint8_t unlinked;    /* once it did not */
	uint8_t little;      /* cached while topo_seen == topo: is_little() */
	uint32_t ctop;       /* ... and cluster_top() */
	uint32_t topo_seen;
};

struct outstanding {
	int32_t id;
	int32_t thread;      /* index of the span thread that sent it + 1; 0: empty */
	int reply;           /* a reply to that thread, not its request */
};

struct gfxstat_thread_states {
	struct thread *threads;
	uint32_t nthreads, cap;
	uint32_t *direct;    /* tid -> thread index + 1, for tids under DIRECT_TIDS */
	uint32_t *slots;     /* tid hash -> thread index + 1, for the others */
	uint32_t nslots;
	struct span *spans;
	uint32_t nspans, capspans;
	struct cpu cpus[MAX_CPUS];
	int ncpus;           /* highest CPU seen + 1 */
	uint32_t topo;       /* bumped when a CPU's top, link or the CPU count changes */
	int have_sched, have_freq, have_waking;
	int last_freq_cpu;
	uint32_t last_freq;
	int64_t last_freq_ts;
	struct outstanding out[OUTSTANDING];
	struct gfxstat_sched_counts counts;
};

const char *gfxstat_thread_state_name(enum gfxstat_thread_state s)
{
	static const char *const names[GFXSTAT_TS_COUNT] = {
		"running", "runnable", "runnable_preempted", "sleeping", "uninterruptible", "unknown",
	};

	return (unsigned)s < GFXSTAT_TS_COUNT ? names[s] : "?";
}

struct gfxstat_thread_states *gfxstat_thread_states_new(void)
{
	struct gfxstat_thread_states *t = calloc(1, sizeof(*t));
	int i;

	if (!t)
		return NULL;
	t->topo = 1; /* a CPU's topo_seen starts at 0: not computed */
	t->nslots = 1024;
	t->slots = calloc(t->nslots, sizeof(*t->slots));
	t->direct = calloc(DIRECT_TIDS, sizeof(*t->direct));
	if (!t->slots || !t->direct) {
		free(t->slots);
		free(t->direct);
		free(t);
		return NULL;
	}
	for (i = 0; i < MAX_CPUS; i++)
		t->cpus[i].curr = -1;
	t->last_freq_cpu = -1;
	return t;
}

void gfxstat_thread_states_free(struct gfxstat_thread_states *t)
{
	if (!t)
		return;
	free(t->threads);
	free(t->slots);
	free(t->direct);
	free(t->spans);
	free(t);
}

static uint32_t tid_hash(int32_t tid)
{
	return (uint32_t)tid * 2654435761u;
}

static long find(const struct gfxstat_thread_states *t, int32_t tid)
{
	uint32_t j = tid_hash(tid) & (t->nslots - 1);

	if ((uint32_t)tid < DIRECT_TIDS)
		return (long)t->direct[tid] - 1;

	while (t->slots[j]) {
		if (t->threads[t->slots[j] - 1].tid == tid)
			return (long)t->slots[j] - 1;
		j = (j + 1) & (t->nslots - 1);
	}
	return -1;
}

static int rehash(struct gfxstat_thread_states *t)
{
	uint32_t ns = t->nslots * 2, i, *s = calloc(ns, sizeof(*s));

	if (!s)
		return -1;
	for (i = 0; i < t->nthreads; i++) {
		uint32_t j = tid_hash(t->threads[i].tid) & (ns - 1);

		if ((uint32_t)t->threads[i].tid < DIRECT_TIDS)
			continue; /* in the direct table */
		while (s[j])
			j = (j + 1) & (ns - 1);
		s[j] = i + 1;
	}
	free(t->slots);
	t->slots = s;
	t->nslots = ns;
	return 0;
}

/*
 * Room for the two threads an event may create, made before it is handled: thread_of()
 * never moves the array, so the thread pointers a handler holds stay valid.
 */
static TS_NOINLINE int grow(struct gfxstat_thread_states *t)
{
	uint32_t nc;
	struct thread *n;

	nc = t->cap ? t->cap * 2 : 256;
	n = realloc(t->threads, nc * sizeof(*n));
	if (!n)
		return GFXSTAT_E_NOMEM;
	t->threads = n;
	t->cap = nc;
	return 0;
}

/* the test inline, the growth (a call of realloc()) out of line: no register saved for it on
 * each event */
static inline int reserve(struct gfxstat_thread_states *t)
{
	return t->nthreads + 2 <= t->cap ? 0 : grow(t);
}

/* The thread @tid, created in state unknown; NULL for the swapper or past the limit. */
static struct thread *thread_of(struct gfxstat_thread_states *t, int32_t tid)
{
	long i;
	uint32_t j;
	struct thread *th;

	if (tid <= 0)
		return NULL;
	i = find(t, tid);
	if (i >= 0)
		return &t->threads[i];
	if (t->nthreads >= MAX_THREADS) {
		t->counts.threads_dropped++;
		return NULL;
	}
	if (t->nthreads == t->cap || (2 * (t->nthreads + 1) > t->nslots && rehash(t)))
		return NULL; /* reserve() failed: out of memory */
	th = &t->threads[t->nthreads];
	memset(th, 0, sizeof(*th));
	th->tid = tid;
	th->tgid = -1;
	th->state = GFXSTAT_TS_UNKNOWN;
	th->cpu = -1;
	th->span = -1;
	th->instead = -2;
	if ((uint32_t)tid < DIRECT_TIDS) {
		t->direct[tid] = ++t->nthreads;
	} else {
		j = tid_hash(tid) & (t->nslots - 1);
		while (t->slots[j])
			j = (j + 1) & (t->nslots - 1);
		t->slots[j] = ++t->nthreads;
	}
	t->counts.threads = t->nthreads;
	return th;
}

/* thread_of() without a call for the swapper (a third of the threads a sched_switch names) and
 * for a thread the direct table knows: the events name the same few hundred threads over and
 * over */
static inline struct thread *thread_get(struct gfxstat_thread_states *t, int32_t tid)
{
	if (tid <= 0)
		return NULL;
	if ((uint32_t)tid < DIRECT_TIDS && t->direct[tid])
		return &t->threads[t->direct[tid] - 1];
	return thread_of(t, tid);
}

static inline void set_comm(char *dst, struct gfxstat_str s)
{
	size_t n = s.n < GFXSTAT_COMM_LEN - 1 ? s.n : GFXSTAT_COMM_LEN - 1;

	/* "<...>": the trace did not know the name; keep the one it gave before */
	if (!n || (s.n == 5 && memcmp(s.p, "<...>", 5) == 0))
		return;
	/* a name of 8 to 15 bytes as two overlapping 8-byte copies: it is set on every
	 * sched_switch, and a memcpy() call of a variable length costs more than the copy */
	if (n >= 8) {
		memcpy(dst, s.p, 8);
		memcpy(dst + n - 8, s.p + n - 8, 8);
	} else {
		memcpy(dst, s.p, n);
	}
	dst[n] = 0;
}

static void copy_cstr(char *dst, const char *src, size_t cap)
{
	size_t n = strlen(src);

	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
}

static struct span *span_of(struct gfxstat_thread_states *t, const struct thread *th)
{
	return th->span >= 0 && t->spans[th->span].open ? &t->spans[th->span] : NULL;
}

static int cpu_ok(struct gfxstat_thread_states *t, int32_t cpu)
{
	if (cpu < 0 || cpu >= MAX_CPUS) {
		t->counts.cpus_dropped++;
		return 0;
	}
	if (cpu >= t->ncpus) {
		t->ncpus = cpu + 1;
		t->topo++;
	}
	return 1;
}

/* The first CPU of @c's frequency domain, as far as the trace shows. */
static int leader(const struct gfxstat_thread_states *t, int c)
{
	while (c > 0 && t->cpus[c].linked && !t->cpus[c].unlinked)
		c--;
	return c;
}

/* The top frequency of @c's cluster: the highest frequency or policy max its CPUs showed. */
static uint32_t cluster_top(const struct gfxstat_thread_states *t, int c)
{
	int l = leader(t, c), i;
	uint32_t top = 0;

	for (i = l; i < t->ncpus && (i == l || leader(t, i) == l); i++)
		if (t->cpus[i].top > top)
			top = t->cpus[i].top;
	return top;
}

static uint32_t system_top(const struct gfxstat_thread_states *t)
{
	uint32_t top = 0;
	int i;

	for (i = 0; i < t->ncpus; i++)
		if (t->cpus[i].top > top)
			top = t->cpus[i].top;
	return top;
}

/* Is @c in the slowest of two or more clusters (a little core)? */
static int is_little(const struct gfxstat_thread_states *t, int c)
{
	uint32_t mine = cluster_top(t, c), lowest = UINT32_MAX, highest = 0;
	int i;

	if (!mine)
		return 0;
	for (i = 0; i < t->ncpus; i++) {
		uint32_t x = t->cpus[i].top;

		if (!x || leader(t, i) != i)
			continue;
		x = cluster_top(t, i);
		if (x < lowest)
			lowest = x;
		if (x > highest)
			highest = x;
	}
	return lowest < highest && mine == lowest;
}

/* The policy max in force on @c's cluster, 0 unknown. */
static uint32_t cluster_limit(const struct gfxstat_thread_states *t, int c)
{
	return t->cpus[c].limit ? t->cpus[c].limit : t->cpus[leader(t, c)].limit;
}

/* The cluster facts of CPU @c that account() asks for each time a thread of a span runs:
 * computed again only after a CPU's top frequency, its link or the CPU count changed. */
static const struct cpu *cpu_topo(struct gfxstat_thread_states *t, int c)
{
	struct cpu *cp = &t->cpus[c];

	if (cp->topo_seen != t->topo) {
		cp->ctop = cluster_top(t, c);
		cp->little = (uint8_t)is_little(t, c);
		cp->topo_seen = t->topo;
	}
	return cp;
}

/* Account @th's time up to @ts into its open span, in its current state. */
static void account(struct gfxstat_thread_states *t, struct thread *th, int64_t ts)
{
	struct span *sp = span_of(t, th);
	int64_t d;

	if (!sp || ts <= sp->acc)
		return;
	d = ts - sp->acc;
	sp->state_ns[th->state] += d;
	sp->acc = ts;
	if (th->state == GFXSTAT_TS_RUNNING && th->cpu >= 0 && th->cpu < MAX_CPUS) {
		const struct cpu *c = &t->cpus[th->cpu];
		uint32_t lim = cluster_limit(t, th->cpu);

		if (c->freq) {
			sp->khz_ns += (uint64_t)d * c->freq;
			sp->run_known_ns += d;
			/* every frequency in the mean is in the maximum too (the fuzzer found a
			 * thread accounted at its CPU's frequency that the maximum never saw) */
			if (c->freq > sp->max_freq)
				sp->max_freq = c->freq;
		}
		const struct cpu *topo = cpu_topo(t, th->cpu);

		if (topo->little)
			sp->run_little_ns += d;
		if (lim && lim < topo->ctop)
			sp->capped = 1;
	}
}

/* The length of the state @th is leaving, within its span (0 without one). */
static int64_t in_span(struct gfxstat_thread_states *t, const struct thread *th, int64_t ts)
{
	const struct span *sp = span_of(t, th);
	int64_t from;

	if (!sp)
		return 0;
	from = th->since > sp->start ? th->since : sp->start;
	return ts > from ? ts - from : 0;
}

static void set_state(struct gfxstat_thread_states *t, struct thread *th, int state, int64_t ts)
{
	if (th->span >= 0) /* no call for the threads that never had a span: nearly all */
		account(t, th, ts);
	th->state = (uint8_t)state;
	th->since = ts;
}

/* The state a thread switched out with prev_state @st is in. */
static int state_of(uint32_t st)
{
	if (st & GFXSTAT_TASK_UNKNOWN)
		return GFXSTAT_TS_UNKNOWN;
	if (st & GFXSTAT_TASK_UNINTERRUPTIBLE)
		return GFXSTAT_TS_UNINTERRUPTIBLE;
	if (!(st & ~(uint32_t)GFXSTAT_TASK_PREEMPTED))
		return GFXSTAT_TS_RUNNABLE_PREEMPTED; /* "R", "R+" */
	/* S; I (an idle kernel thread waiting for work); T, t, P, x, X, Z: not waiting for a
	 * CPU, not in the kernel's uninterruptible wait */
	return GFXSTAT_TS_SLEEPING;
}

/* out of line and returning 0, as on_wake() and on_rare(): gfxstat_thread_states_event()
 * jumps to them and saves no register itself */
static TS_NOINLINE int on_switch(struct gfxstat_thread_states *t,
				 const struct gfxstat_sched_event *ev)
{
	struct thread *prev, *next;
	int c = ev->cpu;

	if (!cpu_ok(t, c))
		return 0;
	t->have_sched = 1;
	/* the thread switched out is, nearly always, the one switched in last on this CPU */
	if (t->cpus[c].curr >= 0 && t->threads[t->cpus[c].curr].tid == ev->sw.prev_pid)
		prev = &t->threads[t->cpus[c].curr];
	else
		prev = thread_get(t, ev->sw.prev_pid);
	if (prev) {
		if (!prev->comm[0]) /* else named when switched in, or renamed since */
			set_comm(prev->comm, ev->sw.prev_comm);
		if (prev->state != GFXSTAT_TS_RUNNING && prev->state != GFXSTAT_TS_UNKNOWN) {
			/* it was not running: events were lost, so is the time since its last */
			struct span *sp = span_of(t, prev);

			t->counts.data_loss++;
			if (sp && ev->ts_ns > sp->acc) {
				sp->state_ns[GFXSTAT_TS_UNKNOWN] += ev->ts_ns - sp->acc;
				sp->acc = ev->ts_ns;
			}
		}
		set_state(t, prev, state_of(ev->sw.prev_state), ev->ts_ns);
		prev->cpu = (int16_t)c;
	}
	next = thread_get(t, ev->sw.next_pid);
	/* preempted: the thread switched in runs instead of it */
	if (prev && prev->state == GFXSTAT_TS_RUNNABLE_PREEMPTED)
		prev->instead = next ? (int32_t)(next - t->threads) : -1;
	t->cpus[c].curr = next ? (int32_t)(next - t->threads) : -1;
	if (!next)
		return 0;
	set_comm(next->comm, ev->sw.next_comm);
	if (next->state == GFXSTAT_TS_RUNNABLE || next->state == GFXSTAT_TS_RUNNABLE_PREEMPTED) {
		struct span *sp = span_of(t, next);
		int64_t l = in_span(t, next, ev->ts_ns);

		if (sp && l > sp->runnable_max) {
			sp->runnable_max = l;
			sp->instead_tid = -1;
			sp->instead_comm[0] = 0;
			if (next->instead >= 0) {
				const struct thread *o = &t->threads[next->instead];

				sp->instead_tid = o->tid;
				copy_cstr(sp->instead_comm, o->comm, sizeof(sp->instead_comm));
			} else if (next->instead == -1) {
				sp->instead_tid = 0;
				copy_cstr(sp->instead_comm, "<idle>", sizeof(sp->instead_comm));
			}
		}
	}
	set_state(t, next, GFXSTAT_TS_RUNNING, ev->ts_ns);
	next->cpu = (int16_t)c;
	{
		struct span *sp = span_of(t, next);

		if (sp) {
			sp->cpus |= 1ull << c;
			if (t->cpus[c].freq > sp->max_freq)
				sp->max_freq = t->cpus[c].freq;
		}
	}
	return 0;
}

/* a wakeup of a thread with a span (on_wake_filter() drops the others), out of line */
static TS_NOINLINE int on_wake(struct gfxstat_thread_states *t,
				   const struct gfxstat_sched_event *ev)
{
	struct thread *th, *waker;
	struct span *sp;
	int64_t l;
	long i;

	i = find(t, ev->wake.pid);
	th = &t->threads[i];
	set_comm(th->comm, ev->wake.comm);
	if (th->state == GFXSTAT_TS_RUNNING || th->state == GFXSTAT_TS_RUNNABLE ||
	    th->state == GFXSTAT_TS_RUNNABLE_PREEMPTED)
		return 0; /* spurious: only a blocked thread wakes up */
	/* the waker is current on the CPU it wakes from */
	if (ev->cpu >= 0 && ev->cpu < MAX_CPUS && t->cpus[ev->cpu].curr >= 0 &&
	    t->threads[t->cpus[ev->cpu].curr].tid == ev->tid)
		waker = &t->threads[t->cpus[ev->cpu].curr];
	else
		waker = thread_of(t, ev->tid);
	if (waker) {
		set_comm(waker->comm, ev->comm);
		if (ev->tgid >= 0)
			waker->tgid = ev->tgid;
	}
	sp = span_of(t, th);
	l = in_span(t, th, ev->ts_ns);
	if (sp && th->state != GFXSTAT_TS_UNKNOWN && l > sp->sleep_max) {
		sp->sleep_max = l;
		sp->waker_tid = ev->tid;
		sp->waker_pid = waker ? waker->tgid : -1;
		sp->waker_irq = ev->irq;
		sp->waker_comm[0] = 0;
		if (waker)
			copy_cstr(sp->waker_comm, waker->comm, sizeof(sp->waker_comm));
		else if (ev->tid == 0)
			copy_cstr(sp->waker_comm, "<idle>", sizeof(sp->waker_comm));
	}
	if (sp && th->state == GFXSTAT_TS_UNINTERRUPTIBLE && l > sp->blocked_max) {
		sp->blocked_max = l;
		sp->blocked_fn[0] = 0;
		sp->io_wait = -1;
		sp->blocked_pending = 1;
	}
	set_state(t, th, GFXSTAT_TS_RUNNABLE, ev->ts_ns);
	/* it waits for its target CPU: what runs there runs instead of it */
	th->instead = -2;
	if (ev->wake.target_cpu >= 0 && ev->wake.target_cpu < MAX_CPUS) {
		th->cpu = (int16_t)ev->wake.target_cpu;
		th->instead = t->cpus[th->cpu].curr;
	}
	return 0;
}

/* A wakeup: most are of threads without a span, dropped here before on_wake()'s call. */
static inline int on_wake_filter(struct gfxstat_thread_states *t,
				 const struct gfxstat_sched_event *ev)
{
	long i;

	if (ev->kind == GFXSTAT_SCHED_WAKING)
		t->have_waking = 1;
	else if (ev->kind == GFXSTAT_SCHED_WAKEUP && t->have_waking)
		return 0; /* its sched_waking said it already */
	/* only the states of threads with a span are ever told (a span begins running: the
	 * thread writes a marker), so a wakeup of any other thread changes nothing told */
	i = (uint32_t)ev->wake.pid < DIRECT_TIDS ? (long)t->direct[ev->wake.pid] - 1
						   : find(t, ev->wake.pid);
	if (i < 0 || !span_of(t, &t->threads[i]))
		return 0;
	return on_wake(t, ev);
}

static void on_newtask(struct gfxstat_thread_states *t, const struct gfxstat_sched_event *ev)
{
	struct thread *th = thread_of(t, ev->newtask.pid);

	if (!th)
		return;
	set_comm(th->comm, ev->newtask.comm);
	if (ev->tgid >= 0 && !(ev->newtask.clone_flags & 0x00010000)) /* not CLONE_THREAD */
		th->tgid = ev->newtask.pid;
	else if (ev->tgid >= 0)
		th->tgid = ev->tgid;
	if (th->state == GFXSTAT_TS_UNKNOWN)
		set_state(t, th, GFXSTAT_TS_RUNNABLE, ev->ts_ns);
}

static void on_blocked(struct gfxstat_thread_states *t, const struct gfxstat_sched_event *ev)
{
	struct thread *th = thread_get(t, ev->blocked.pid);
	struct span *sp = th ? span_of(t, th) : NULL;
	size_t n;

	if (!sp || !sp->blocked_pending)
		return;
	sp->blocked_pending = 0;
	sp->io_wait = ev->blocked.io_wait;
	n = ev->blocked.caller.n;
	if (n >= sizeof(sp->blocked_fn))
		n = sizeof(sp->blocked_fn) - 1;
	if (n) /* an empty caller may come with no pointer: memcpy(NULL) is undefined */
		memcpy(sp->blocked_fn, ev->blocked.caller.p, n);
	sp->blocked_fn[n] = 0;
}

static void on_freq(struct gfxstat_thread_states *t, const struct gfxstat_sched_event *ev)
{
	int c = ev->freq.cpu_id;
	struct cpu *cp;

	if (!cpu_ok(t, c))
		return;
	t->have_freq = 1;
	cp = &t->cpus[c];
	/* the domain: right after cpu - 1's change to the same frequency, in the same loop */
	if (c > 0) {
		if (t->last_freq_cpu == c - 1 && t->last_freq == ev->freq.state &&
		    ev->ts_ns - t->last_freq_ts <= SAME_LOOP_NS) {
			t->topo += !cp->linked;
			cp->linked = 1;
		} else {
			t->topo += !cp->unlinked;
			cp->unlinked = 1;
		}
	}
	t->last_freq_cpu = c;
	t->last_freq = ev->freq.state;
	t->last_freq_ts = ev->ts_ns;
	if (cp->curr >= 0) {
		struct thread *th = &t->threads[cp->curr];
		struct span *sp = span_of(t, th);

		account(t, th, ev->ts_ns); /* the time so far ran at the old frequency */
		if (sp && ev->freq.state > sp->max_freq)
			sp->max_freq = ev->freq.state;
	}
	cp->freq = ev->freq.state;
	if (cp->freq > cp->top) {
		cp->top = cp->freq;
		t->topo++;
	}
}

static void on_limits(struct gfxstat_thread_states *t, const struct gfxstat_sched_event *ev)
{
	int c = ev->limits.cpu_id;

	if (!cpu_ok(t, c))
		return;
	t->cpus[c].limit = ev->limits.max_khz;
	if (ev->limits.max_khz > t->cpus[c].top) {
		t->cpus[c].top = ev->limits.max_khz;
		t->topo++;
	}
}

static struct outstanding *slot_of(struct gfxstat_thread_states *t, int32_t id)
{
	return &t->out[(uint32_t)id % OUTSTANDING];
}

/* A finished (or cut) binder wait joins the span's longest ones. */
static void binder_done(struct span *sp, const struct bwait *b, int64_t end, int replied)
{
	struct bwait w = *b;
	int64_t from = w.start > sp->start ? w.start : sp->start;
	unsigned i;

	if (end < from)
		end = from;
	w.end = end;
	w.replied = replied;
	sp->binder_ns += end - from;
	for (i = 0; i < sp->ndone; i++)
		if (end - w.start > sp->done[i].end - sp->done[i].start)
			break;
	if (i >= GFXSTAT_SPAN_BINDER)
		return;
	if (sp->ndone < GFXSTAT_SPAN_BINDER)
		sp->ndone++;
	memmove(&sp->done[i + 1], &sp->done[i], (sp->ndone - 1 - i) * sizeof(sp->done[0]));
	sp->done[i] = w;
}

/*
 * Synchronous binder calls of span threads (Perfetto's binder_tracker.cc): the sender's
 * binder_transaction opens the wait; the server's binder_transaction_received names the
 * serving thread; the server's reply (binder_transaction reply=1, dest_thread = the sender)
 * is then received by the sender (binder_transaction_received), which ends the wait.
 */
static void on_binder(struct gfxstat_thread_states *t, const struct gfxstat_sched_event *ev)
{
	struct thread *th = thread_get(t, ev->tid);
	struct outstanding *o;

	if (!th)
		return;
	set_comm(th->comm, ev->comm);
	if (ev->tgid >= 0)
		th->tgid = ev->tgid;
	if (ev->kind == GFXSTAT_SCHED_BINDER_RECEIVED) {
		o = slot_of(t, ev->binder.transaction);
		if (!o->thread || o->id != ev->binder.transaction)
			return;
		{
			struct thread *snd = &t->threads[o->thread - 1];
			struct span *sp = span_of(t, snd);

			o->thread = 0;
			if (!sp || !sp->nopen)
				return;
			if (o->reply && snd == th) {
				/* the reply reached the sender: its innermost call returns */
				sp->nopen--;
				binder_done(sp, &sp->openb[sp->nopen], ev->ts_ns, 1);
			} else if (!o->reply) {
				unsigned i;

				for (i = sp->nopen; i-- > 0;)
					if (sp->openb[i].id == ev->binder.transaction) {
						sp->openb[i].dest_tid = ev->tid;
						break;
					}
			}
		}
		return;
	}
	if (ev->binder.reply) {
		/* a server replies to dest_thread: the sender receives it next */
		struct thread *snd = ev->binder.dest_thread > 0 ? thread_of(t, ev->binder.dest_thread)
							       : NULL;
		struct span *sp = snd ? span_of(t, snd) : NULL;

		if (!sp || !sp->nopen)
			return;
		if (sp->openb[sp->nopen - 1].dest_tid < 0)
			sp->openb[sp->nopen - 1].dest_tid = ev->tid;
		o = slot_of(t, ev->binder.transaction);
		if (o->thread)
			t->counts.binder_lost++;
		o->id = ev->binder.transaction;
		o->thread = (int32_t)(snd - t->threads) + 1;
		o->reply = 1;
		return;
	}
	if (ev->binder.flags & GFXSTAT_BINDER_TF_ONE_WAY)
		return; /* asynchronous: nothing waits for it */
	{
		struct span *sp = span_of(t, th);
		struct bwait *b;

		if (!sp)
			return;
		if (sp->nopen == BINDER_DEPTH) {
			/* deeper than kept: the outermost is the one the frame waited on */
			t->counts.binder_lost++;
			return;
		}
		b = &sp->openb[sp->nopen++];
		b->id = ev->binder.transaction;
		b->dest_pid = ev->binder.dest_proc;
		b->dest_tid = ev->binder.dest_thread > 0 ? ev->binder.dest_thread : -1;
		b->start = ev->ts_ns;
		b->end = GFXSTAT_NS_NONE;
		b->replied = 0;
		o = slot_of(t, ev->binder.transaction);
		if (o->thread)
			t->counts.binder_lost++;
		o->id = ev->binder.transaction;
		o->thread = (int32_t)(th - t->threads) + 1;
		o->reply = 0;
	}
}

/* The events other than sched_switch and the wakeups: a few in ten, out of the hot path. */
static TS_NOINLINE int on_rare(struct gfxstat_thread_states *t,
				   const struct gfxstat_sched_event *ev)
{
	switch (ev->kind) {
	case GFXSTAT_SCHED_TASK_NEWTASK:
		on_newtask(t, ev);
		break;
	case GFXSTAT_SCHED_BLOCKED_REASON:
		on_blocked(t, ev);
		break;
	case GFXSTAT_SCHED_CPU_FREQUENCY:
		on_freq(t, ev);
		break;
	case GFXSTAT_SCHED_CPU_FREQUENCY_LIMITS:
		on_limits(t, ev);
		break;
	case GFXSTAT_SCHED_BINDER_TRANSACTION:
	case GFXSTAT_SCHED_BINDER_RECEIVED:
	case GFXSTAT_SCHED_BINDER_REPLY:
		on_binder(t, ev);
		break;
	case GFXSTAT_SCHED_TASK_RENAME: {
		struct thread *th = thread_of(t, ev->rename.pid);

		if (th)
			set_comm(th->comm, ev->rename.newcomm);
		break;
	}
	default:
		break; /* cpu_idle: the swapper's sched_switch says the same */
	}
	return 0;
}

/* The event to its handler: each a jump, no register saved here. */
static inline int dispatch(struct gfxstat_thread_states *t, const struct gfxstat_sched_event *ev)
{
	unsigned k = (unsigned)ev->kind;

	if (k == GFXSTAT_SCHED_SWITCH)
		return on_switch(t, ev);
	if (k == GFXSTAT_SCHED_WAKING || k == GFXSTAT_SCHED_WAKEUP ||
	    k == GFXSTAT_SCHED_WAKEUP_NEW)
		return on_wake_filter(t, ev);
	if (k != GFXSTAT_SCHED_CPU_IDLE) /* the swapper's sched_switch says the same */
		return on_rare(t, ev);
	return 0;
}

/* reserve()'s growth, then the event: out of line, a call of realloc() saves registers */
static TS_NOINLINE int grow_then(struct gfxstat_thread_states *t,
				 const struct gfxstat_sched_event *ev)
{
	if (grow(t))
		return GFXSTAT_E_NOMEM;
	return dispatch(t, ev);
}

int gfxstat_thread_states_event(void *p, const struct gfxstat_sched_event *ev)
{
	struct gfxstat_thread_states *t = p;
	unsigned k = (unsigned)ev->kind;

	if (k < GFXSTAT_SCHED_KIND_COUNT)
		t->counts.events[k]++;
	if (t->nthreads + 2 > t->cap) /* reserve() */
		return grow_then(t, ev);
	return dispatch(t, ev);
}

int gfxstat_thread_states_span_begin(struct gfxstat_thread_states *t, int32_t tid,
				     int64_t ts_ns, int32_t cpu)
{
	struct thread *th;
	struct span *sp;

	if (reserve(t))
		return GFXSTAT_E_NOMEM;
	th = thread_of(t, tid);
	if (!th)
		return GFXSTAT_E_LIMIT;
	if (th->span < 0) {
		if (t->nspans == t->capspans) {
			uint32_t nc = t->capspans ? t->capspans * 2 : 16;
			struct span *n = realloc(t->spans, nc * sizeof(*n));

			if (!n)
				return GFXSTAT_E_NOMEM;
			t->spans = n;
			t->capspans = nc;
		}
		th->span = (int32_t)t->nspans++;
	}
	sp = &t->spans[th->span];
	memset(sp, 0, sizeof(*sp));
	sp->open = 1;
	sp->start = sp->acc = ts_ns;
	sp->io_wait = -1;
	sp->waker_tid = sp->waker_pid = sp->instead_tid = -1;
	/* a thread that writes a marker runs: where the trace has scheduler events, it is
	 * running now, whatever was known of it (not seen yet: its last switch was before the
	 * trace began; the wakeups of threads without a span are not followed) */
	if (t->have_sched) {
		th->state = GFXSTAT_TS_RUNNING;
		th->since = ts_ns;
		/* the marker's CPU, where the trace gives it; else the last one known */
		if (cpu >= 0 && cpu < MAX_CPUS) {
			th->cpu = (int16_t)cpu;
			t->cpus[cpu].curr = (int32_t)(th - t->threads);
		}
	}
	if (th->state == GFXSTAT_TS_RUNNING && th->cpu >= 0 && th->cpu < MAX_CPUS) {
		sp->cpus |= 1ull << th->cpu;
		sp->max_freq = t->cpus[th->cpu].freq;
	}
	return 0;
}

int gfxstat_thread_states_span_end(struct gfxstat_thread_states *t, int32_t tid, int64_t ts_ns,
				   struct gfxstat_thread_span *out)
{
	long i = find(t, tid);
	struct thread *th;
	struct span *sp;
	unsigned k;
	int64_t run;

	if (i < 0)
		return 0;
	th = &t->threads[i];
	sp = span_of(t, th);
	if (!sp)
		return 0;
	account(t, th, ts_ns);
	while (sp->nopen) /* still waiting: cut at the span's end */
		binder_done(sp, &sp->openb[--sp->nopen], ts_ns, 0);
	sp->open = 0;
	t->counts.spans++;
	memset(out, 0, sizeof(*out));
	out->tid = tid;
	out->start_ns = sp->start;
	/* where the time was accounted up to: @ts_ns, or later if the clock went back inside the
	 * span; the states add up to end - start exactly either way */
	out->end_ns = sp->acc;
	memcpy(out->state_ns, sp->state_ns, sizeof(out->state_ns));
	out->cpus = sp->cpus;
	out->max_freq_khz = sp->max_freq;
	out->mean_freq_khz = sp->run_known_ns ? (uint32_t)(sp->khz_ns / (uint64_t)sp->run_known_ns)
					      : 0;
	for (k = 0; k < MAX_CPUS; k++)
		if (sp->cpus >> k & 1) {
			uint32_t top = cluster_top(t, (int)k);

			if (top > out->cluster_max_khz)
				out->cluster_max_khz = top;
		}
	out->system_max_khz = system_top(t);
	run = sp->state_ns[GFXSTAT_TS_RUNNING];
	out->little = run > 0 && 2 * sp->run_little_ns > run;
	out->capped = sp->capped;
	out->nbinder = sp->ndone;
	for (k = 0; k < sp->ndone; k++) {
		struct gfxstat_span_binder *b = &out->binder[k];
		const struct bwait *w = &sp->done[k];
		long d;

		b->dest_pid = w->dest_pid;
		b->dest_tid = w->dest_tid;
		b->start_ns = w->start;
		b->dur_ns = w->end - (w->start > sp->start ? w->start : sp->start);
		b->replied = w->replied;
		d = w->dest_pid > 0 ? find(t, w->dest_pid) : -1;
		if (d >= 0)
			copy_cstr(b->dest_comm, t->threads[d].comm, sizeof(b->dest_comm));
		d = w->dest_tid > 0 ? find(t, w->dest_tid) : -1;
		if (d >= 0)
			copy_cstr(b->dest_thread_comm, t->threads[d].comm,
				  sizeof(b->dest_thread_comm));
	}
	out->binder_ns = sp->binder_ns;
	out->longest_sleep_ns = sp->sleep_max;
	out->waker_tid = sp->waker_tid;
	out->waker_pid = sp->waker_pid;
	memcpy(out->waker_comm, sp->waker_comm, sizeof(out->waker_comm));
	out->waker_irq = sp->waker_irq;
	out->longest_blocked_ns = sp->blocked_max;
	memcpy(out->blocked_fn, sp->blocked_fn, sizeof(out->blocked_fn));
	out->io_wait = sp->io_wait;
	out->longest_runnable_ns = sp->runnable_max;
	out->instead_tid = sp->instead_tid;
	memcpy(out->instead_comm, sp->instead_comm, sizeof(out->instead_comm));
	return 1;
}

unsigned gfxstat_thread_states_kinds(const struct gfxstat_thread_states *t)
{
	unsigned k = GFXSTAT_THREAD_STATES_KINDS;

	return t->have_waking ? k & ~GFXSTAT_SCHED_BIT(GFXSTAT_SCHED_WAKEUP) : k;
}

int gfxstat_thread_states_have_sched(const struct gfxstat_thread_states *t)
{
	return t && t->have_sched;
}

int gfxstat_thread_states_have_freq(const struct gfxstat_thread_states *t)
{
	return t && t->have_freq;
}

const struct gfxstat_sched_counts *
gfxstat_thread_states_counts(const struct gfxstat_thread_states *t)
{
	return &t->counts;
}

const char *gfxstat_thread_states_comm(const struct gfxstat_thread_states *t, int32_t tid)
{
	long i = t ? find(t, tid) : -1;

	return i >= 0 ? t->threads[i].comm : "";
}

int32_t gx_thread_states_comm_pid(const struct gfxstat_thread_states *t, const char *comm,
				  size_t n)
{
	int32_t got = -1, pid;
	uint32_t i;

	if (!t || !n || n >= GFXSTAT_COMM_LEN)
		return -1;
	for (i = 0; i < t->nthreads; i++) {
		const struct thread *th = &t->threads[i];

		if (memcmp(th->comm, comm, n) || th->comm[n])
			continue;
		pid = th->tgid > 0 ? th->tgid : th->tid;
		if (got >= 0 && pid != got)
			return -2;
		got = pid;
	}
	return got;
}
