/* SPDX-License-Identifier: MIT */
/*
 * The kernel scheduler's own events (sched_switch, sched_waking, sched_blocked_reason,
 * cpu_frequency, binder_transaction, ...) as one event struct, whatever the trace format,
 * and the thread states built from them: what a thread was doing (running, waiting for a
 * CPU, sleeping, blocked in the kernel) over an interval such as one Choreographer#doFrame.
 *
 *   ftrace text  -> gfxstat_sched_line_parse()  \
 *                                                 -> struct gfxstat_sched_event
 *   Perfetto     -> (its FtraceEvent decoder)   /        -> gfxstat_thread_states_event()
 *
 * Ownership: a struct gfxstat_sched_event borrows the producer's memory (its strings are
 * valid during the callback only); the tracker copies what it keeps. Every
 * gfxstat_thread_states_new() has a gfxstat_thread_states_free() that accepts NULL.
 * Memory is bounded by the number of threads and CPUs, never by the length of the trace.
 */
#ifndef GFXSTAT_SCHED_H
#define GFXSTAT_SCHED_H

#include "gfxstat.h"

/* ---------------------------------------------------------------------------------------- */
/* One scheduler event                                                                          */

enum gfxstat_sched_kind {
	GFXSTAT_SCHED_NONE = 0,
	GFXSTAT_SCHED_SWITCH,              /* sched_switch: @sw */
	GFXSTAT_SCHED_WAKING,              /* sched_waking: @wake (the wakee); the waker is the
					    * event's own thread (@tid, @comm) */
	GFXSTAT_SCHED_WAKEUP,              /* sched_wakeup: @wake */
	GFXSTAT_SCHED_WAKEUP_NEW,          /* sched_wakeup_new: @wake */
	GFXSTAT_SCHED_BLOCKED_REASON,      /* sched_blocked_reason: @blocked */
	GFXSTAT_SCHED_CPU_FREQUENCY,       /* cpu_frequency: @freq (state in kHz) */
	GFXSTAT_SCHED_CPU_FREQUENCY_LIMITS, /* cpu_frequency_limits: @limits */
	GFXSTAT_SCHED_CPU_IDLE,            /* cpu_idle: @freq (state: the idle state entered, or
					    * GFXSTAT_CPU_IDLE_EXIT leaving idle) */
	GFXSTAT_SCHED_BINDER_TRANSACTION,  /* binder_transaction: @binder, sent by @tid */
	GFXSTAT_SCHED_BINDER_RECEIVED,     /* binder_transaction_received: @binder.transaction,
					    * received by @tid */
	GFXSTAT_SCHED_BINDER_REPLY,        /* binder_reply (kernels that have it): @binder, with
					    * reply = 1 */
	GFXSTAT_SCHED_TASK_RENAME,         /* task_rename: @rename */
	GFXSTAT_SCHED_TASK_NEWTASK,        /* task_newtask: @newtask, created by @tid */
	GFXSTAT_SCHED_KIND_COUNT
};

/*
 * A thread's state when it was switched out (sched_switch prev_state), as bits. The letters
 * are the kernel's (include/trace/events/sched.h, __print_flags of prev_state; 4.4-era
 * kernels print "x", "K", "W", "N" too, 4.14+ print "I" for TASK_IDLE), and the values are
 * those of Perfetto's TaskState atoms (src/trace_processor/types/task_state.h), which are
 * the 4.4 kernel's. "R" is no bit: a runnable thread has none of S..I set. A decoder of
 * binary traces, whose prev_state is the kernel's raw number (its bit layout changed in
 * 4.14), maps it to these bits by the kernel version, as Perfetto's TaskState does.
 */
#define GFXSTAT_TASK_RUNNABLE 0x0000u        /* "R" */
#define GFXSTAT_TASK_INTERRUPTIBLE 0x0001u   /* "S" */
#define GFXSTAT_TASK_UNINTERRUPTIBLE 0x0002u /* "D" */
#define GFXSTAT_TASK_STOPPED 0x0004u         /* "T" */
#define GFXSTAT_TASK_TRACED 0x0008u          /* "t" */
#define GFXSTAT_TASK_EXIT_DEAD 0x0010u       /* "X" */
#define GFXSTAT_TASK_EXIT_ZOMBIE 0x0020u     /* "Z" */
#define GFXSTAT_TASK_DEAD 0x0040u            /* "x" */
#define GFXSTAT_TASK_WAKEKILL 0x0080u        /* "K" */
#define GFXSTAT_TASK_WAKING 0x0100u          /* "W" */
#define GFXSTAT_TASK_PARKED 0x0200u          /* "P" */
#define GFXSTAT_TASK_NOLOAD 0x0400u          /* "N" */
#define GFXSTAT_TASK_IDLE 0x0800u            /* "I": TASK_IDLE, D that is no load (4.14+) */
#define GFXSTAT_TASK_PREEMPTED 0x8000u       /* "+": switched out while runnable (preempted) */
#define GFXSTAT_TASK_UNKNOWN 0x80000000u     /* a state that could not be read */

/* cpu_idle's state when a CPU leaves idle: (u32)-1, printed as 4294967295 */
#define GFXSTAT_CPU_IDLE_EXIT 4294967295u

/* binder_transaction flags (include/uapi/linux/android/binder.h, enum transaction_flags) */
#define GFXSTAT_BINDER_TF_ONE_WAY 0x01u /* asynchronous: the sender does not wait */

/* @irq bits: the context the event was emitted in (the ftrace irq-flags column's third
 * letter: 'h' hard irq, 's' soft irq, 'H' both; kernel/trace/trace_output.c
 * trace_print_lat_fmt). 0 when the trace does not say. */
#define GFXSTAT_SCHED_IRQ_HARD 1u
#define GFXSTAT_SCHED_IRQ_SOFT 2u

/*
 * One scheduler event. The common fields say where and when it was emitted: @cpu is the CPU
 * whose buffer holds it and @tid the thread that was current on that CPU (the ftrace line's
 * "<task>-<pid>"), which for sched_waking is the waker, for binder_transaction the sender,
 * for task_newtask the parent. The union member named for @kind holds the payload (the bytes
 * of the other members are unspecified). Ids are -1 and strings empty when the event does not
 * give them.
 */
struct gfxstat_sched_event {
	enum gfxstat_sched_kind kind;
	int64_t ts_ns;
	int32_t cpu;
	int32_t tid;
	int32_t tgid;            /* the process of @tid, or -1 (most text traces lack it) */
	struct gfxstat_str comm; /* the name of @tid; "<...>" when the trace did not know it */
	unsigned irq;            /* GFXSTAT_SCHED_IRQ_*; read for the wakeup kinds only (else 0) */
	union {
		struct {
			struct gfxstat_str prev_comm, next_comm;
			int32_t prev_pid, prev_prio; /* switched out */
			uint32_t prev_state;         /* GFXSTAT_TASK_* bits */
			int32_t next_pid, next_prio; /* switched in */
		} sw;
		struct {
			struct gfxstat_str comm; /* the woken thread */
			int32_t pid, prio;
			int32_t target_cpu;      /* where it will run; -1 when absent */
		} wake;
		struct {
			int32_t pid;             /* the thread that was blocked (D) */
			int32_t io_wait;         /* 1 waiting on IO, 0 not, -1 unknown */
			struct gfxstat_str caller; /* "worker_thread+0x368/0x458", or empty */
			uint64_t caller_addr;    /* a binary trace's address, or 0 */
		} blocked;
		struct {
			uint32_t state;          /* kHz for cpu_frequency; the state for cpu_idle */
			int32_t cpu_id;
		} freq;
		struct {
			uint32_t min_khz, max_khz;
			int32_t cpu_id;          /* the first CPU of the frequency domain (policy) */
		} limits;
		struct {
			int32_t transaction;     /* the kernel's debug id */
			int32_t dest_node;
			int32_t dest_proc, dest_thread; /* dest_thread 0: any thread of dest_proc */
			int32_t reply;           /* 1: this is a reply */
			uint32_t flags;          /* GFXSTAT_BINDER_TF_* */
			uint32_t code;
		} binder;
		struct {
			int32_t pid;
			struct gfxstat_str oldcomm, newcomm;
			int32_t oom_score_adj;
		} rename;
		struct {
			int32_t pid;             /* the new thread */
			struct gfxstat_str comm;
			uint64_t clone_flags;
			int32_t oom_score_adj;
		} newtask;
	};
};

/* Called for every scheduler event, in trace order. Return non-zero to stop the producer. */
typedef int (*gfxstat_sched_fn)(void *user, const struct gfxstat_sched_event *ev);

/**
 * gfxstat_sched_kind_of() - the scheduler event an ftrace event name stands for
 * @event: the name ("sched_switch", ...), as gfxstat_ftrace_line.event
 *
 * Cheap (its length and a few bytes, then one comparison): the text parser calls it on every
 * event that is not a trace marker. Return: GFXSTAT_SCHED_NONE for any other event.
 */
enum gfxstat_sched_kind gfxstat_sched_kind_of(struct gfxstat_str event);

/**
 * gfxstat_sched_line_parse() - read the payload of a scheduler event of ftrace text
 * @line: a parsed ftrace line (gfxstat_ftrace_line_parse())
 * @out: filled on GFXSTAT_PARSE_OK; its strings point into the line
 *
 * The payloads are the kernel's "key=value" lists, keys in any order, unknown keys skipped:
 *   sched_switch: prev_comm=S prev_pid=N prev_prio=N prev_state=S ==> next_comm=S next_pid=N
 *                 next_prio=N   (prev_state "R", "R+", "S", "D", "D|K", "x", "I", ...)
 *   sched_waking / sched_wakeup / sched_wakeup_new: comm=S pid=N prio=N [success=1]
 *                 target_cpu=NNN
 *   sched_blocked_reason: pid=N iowait=0|1 caller=FUNC+0xOFF/0xLEN
 *   cpu_frequency, cpu_idle: state=N cpu_id=N
 *   cpu_frequency_limits: min=N max=N cpu_id=N
 *   binder_transaction: transaction=N dest_node=N dest_proc=N dest_thread=N reply=0|1
 *                 flags=0xH code=0xH
 *   binder_transaction_received: transaction=N
 *   task_rename: pid=N oldcomm=S newcomm=S oom_score_adj=N
 *   task_newtask: pid=N comm=S clone_flags=H oom_score_adj=N
 * A task name (comm) may hold spaces and '=': a value runs to the next " key=" the event
 * has. Return: GFXSTAT_PARSE_UNSUPPORTED for other events, GFXSTAT_PARSE_FAIL when a field
 * the event needs is missing or not a number.
 */
enum gfxstat_parse_res gfxstat_sched_line_parse(const struct gfxstat_ftrace_line *line,
						struct gfxstat_sched_event *out);

/**
 * gfxstat_task_state_parse() - the GFXSTAT_TASK_* bits of a prev_state text ("R+", "D|K")
 * Return: the bits, or GFXSTAT_TASK_UNKNOWN for a letter it does not know.
 */
uint32_t gfxstat_task_state_parse(struct gfxstat_str s);

struct gfxstat_trace_parser;

/* A set of event kinds: GFXSTAT_SCHED_BIT(GFXSTAT_SCHED_SWITCH) | ... */
#define GFXSTAT_SCHED_BIT(kind) (1u << (kind))

/**
 * gfxstat_trace_parser_set_sched_fn() - also hand the scheduler events of ftrace text to @fn
 * @kinds: the kinds wanted (GFXSTAT_SCHED_BIT()s; 0: all); the payloads of the others are
 * not read
 *
 * Off by default: without it the text parser drops non-marker events after reading their
 * name, and reads no scheduler payload (the cost a caller that needs no thread states does
 * not pay). Events whose payload cannot be read are counted (sched_malformed).
 */
void gfxstat_trace_parser_set_sched_fn(struct gfxstat_trace_parser *p, gfxstat_sched_fn fn,
				       void *user, unsigned kinds);
/* Narrow (or widen) the kinds read, mid-stream: a consumer that learns it needs fewer (the
 * thread states need no sched_wakeup once the trace shows sched_waking). */
void gfxstat_trace_parser_set_sched_kinds(struct gfxstat_trace_parser *p, unsigned kinds);

/* ---------------------------------------------------------------------------------------- */
/* Thread states                                                                                */

/*
 * Perfetto's thread_state model (src/trace_processor/importers/common/
 * thread_state_tracker.cc): a thread is running from its sched_switch in, runnable from
 * its sched_waking (waiting for a CPU), runnable_preempted when switched out with prev_state
 * R/R+, sleeping when switched out with S (or I), uninterruptible with D (the function it
 * blocked in from sched_blocked_reason), unknown before any event about it.
 */
enum gfxstat_thread_state {
	GFXSTAT_TS_RUNNING,
	GFXSTAT_TS_RUNNABLE,
	GFXSTAT_TS_RUNNABLE_PREEMPTED,
	GFXSTAT_TS_SLEEPING,
	GFXSTAT_TS_UNINTERRUPTIBLE,
	GFXSTAT_TS_UNKNOWN,
	GFXSTAT_TS_COUNT
};

/* "running", "runnable", "runnable_preempted", "sleeping", "uninterruptible", "unknown" */
const char *gfxstat_thread_state_name(enum gfxstat_thread_state s);

#define GFXSTAT_COMM_LEN 16     /* the kernel's TASK_COMM_LEN, NUL included */
#define GFXSTAT_SPAN_BINDER 4   /* binder waits kept per span: the longest */
#define GFXSTAT_SPAN_FUNC_LEN 64

/* A synchronous binder transaction the thread sent during a span, and waited on. */
struct gfxstat_span_binder {
	int32_t dest_pid;                    /* the process it called */
	int32_t dest_tid;                    /* the thread that served it, or -1 when not seen */
	char dest_comm[GFXSTAT_COMM_LEN];    /* that process's name (its main thread's), or "" */
	char dest_thread_comm[GFXSTAT_COMM_LEN]; /* the serving thread's name, or "" */
	int64_t start_ns;
	int64_t dur_ns;                      /* until its reply reached the thread, within the span */
	int replied;                         /* 0: still waiting when the span ended */
};

/*
 * A thread over an interval: where its time went. The state times add up to end - start
 * exactly. Frequencies are 0 and ids -1 when the trace does not give them.
 */
struct gfxstat_thread_span {
	int32_t tid;
	int64_t start_ns, end_ns;
	int64_t state_ns[GFXSTAT_TS_COUNT];
	uint64_t cpus;             /* bit c: it ran on CPU c (CPUs 0-63) */
	uint32_t max_freq_khz;     /* the highest frequency of those CPUs while it ran */
	uint32_t mean_freq_khz;    /* their frequency, weighted by its running time */
	uint32_t cluster_max_khz;  /* the highest top frequency of the clusters it ran on */
	uint32_t system_max_khz;   /* the top frequency of the fastest cluster of the device */
	int little;                /* it ran mostly on the slowest of two or more clusters */
	int capped;                /* a cluster it ran on was limited below its top frequency */
	/* the synchronous binder calls it waited on, longest first */
	unsigned nbinder;
	struct gfxstat_span_binder binder[GFXSTAT_SPAN_BINDER];
	int64_t binder_ns;         /* all of them, within the span */
	/* what woke it from its longest sleep (sleeping or uninterruptible) in the span */
	int64_t longest_sleep_ns;
	int32_t waker_tid, waker_pid; /* the thread on whose CPU sched_waking for it appeared */
	char waker_comm[GFXSTAT_COMM_LEN];
	unsigned waker_irq;        /* GFXSTAT_SCHED_IRQ_*: woken from an interrupt (a timer, a
				    * device), not by that thread's own work */
	/* its longest uninterruptible stretch */
	int64_t longest_blocked_ns;
	char blocked_fn[GFXSTAT_SPAN_FUNC_LEN]; /* sched_blocked_reason's caller, or "" */
	int io_wait;               /* 1, 0, or -1 unknown */
	/* its longest wait for a CPU, and what ran on that CPU instead */
	int64_t longest_runnable_ns;
	int32_t instead_tid;
	char instead_comm[GFXSTAT_COMM_LEN];
};

/* What the tracker counted (bookkeeping; nothing here is an error of the input). */
struct gfxstat_sched_counts {
	uint64_t events[GFXSTAT_SCHED_KIND_COUNT];
	uint64_t threads;          /* threads tracked */
	uint64_t threads_dropped;  /* events about threads past the thread limit, ignored */
	uint64_t cpus_dropped;     /* events about CPUs past the CPU limit, ignored */
	uint64_t data_loss;        /* switched out while not running: events were lost */
	uint64_t binder_lost;      /* transactions forgotten (the outstanding table was full) */
	uint64_t spans;            /* spans ended */
};

struct gfxstat_thread_states;

/* NULL on allocation failure. */
struct gfxstat_thread_states *gfxstat_thread_states_new(void);
void gfxstat_thread_states_free(struct gfxstat_thread_states *t);

/**
 * gfxstat_thread_states_event() - feed one scheduler event (a gfxstat_sched_fn)
 * @t: the tracker (void *, to be a callback)
 * Return: 0 (an event it cannot use is ignored and counted), or GFXSTAT_E_NOMEM.
 */
int gfxstat_thread_states_event(void *t, const struct gfxstat_sched_event *ev);

/**
 * gfxstat_thread_states_span_begin() - start timing thread @tid at @ts_ns
 * @cpu: the CPU @tid is seen running on at @ts_ns (it wrote a trace marker there), or -1
 *
 * One span per thread: a new begin replaces an open one. Where the input has scheduler
 * events, the thread is running at @ts_ns (it wrote the marker that begins the span): on
 * @cpu, or on the CPU it was last seen on when @cpu is -1. Only the states of threads with an
 * open span are followed (their wakeups, binder calls); other threads are known by name and
 * by the CPU they run on.
 * Return: 0, GFXSTAT_E_LIMIT past the thread limit, or GFXSTAT_E_NOMEM.
 */
int gfxstat_thread_states_span_begin(struct gfxstat_thread_states *t, int32_t tid,
				     int64_t ts_ns, int32_t cpu);

/**
 * gfxstat_thread_states_span_end() - end @tid's span at @ts_ns and say where its time went
 * @out: end_ns is @ts_ns (or the latest event inside, if the clock went back), and the state
 * times add up to end_ns - start_ns
 * Return: 1 with @out filled, 0 when @tid has no open span (@out untouched).
 */
int gfxstat_thread_states_span_end(struct gfxstat_thread_states *t, int32_t tid, int64_t ts_ns,
				   struct gfxstat_thread_span *out);

/* The event kinds the tracker reads (cpu_idle is not one: the swapper's switches say it). */
#define GFXSTAT_THREAD_STATES_KINDS                                                        \
	(GFXSTAT_SCHED_BIT(GFXSTAT_SCHED_SWITCH) | GFXSTAT_SCHED_BIT(GFXSTAT_SCHED_WAKING) |   \
	 GFXSTAT_SCHED_BIT(GFXSTAT_SCHED_WAKEUP) | GFXSTAT_SCHED_BIT(GFXSTAT_SCHED_WAKEUP_NEW) | \
	 GFXSTAT_SCHED_BIT(GFXSTAT_SCHED_BLOCKED_REASON) |                                    \
	 GFXSTAT_SCHED_BIT(GFXSTAT_SCHED_CPU_FREQUENCY) |                                     \
	 GFXSTAT_SCHED_BIT(GFXSTAT_SCHED_CPU_FREQUENCY_LIMITS) |                              \
	 GFXSTAT_SCHED_BIT(GFXSTAT_SCHED_BINDER_TRANSACTION) |                                \
	 GFXSTAT_SCHED_BIT(GFXSTAT_SCHED_BINDER_RECEIVED) |                                   \
	 GFXSTAT_SCHED_BIT(GFXSTAT_SCHED_BINDER_REPLY) |                                      \
	 GFXSTAT_SCHED_BIT(GFXSTAT_SCHED_TASK_RENAME) |                                       \
	 GFXSTAT_SCHED_BIT(GFXSTAT_SCHED_TASK_NEWTASK))

/* The kinds the tracker still reads: GFXSTAT_THREAD_STATES_KINDS, without sched_wakeup once
 * it has seen a sched_waking (the same wakeup, told twice). */
unsigned gfxstat_thread_states_kinds(const struct gfxstat_thread_states *t);

/* Whether the input had sched_switch events so far: thread states mean something. */
int gfxstat_thread_states_have_sched(const struct gfxstat_thread_states *t);
/* Whether it had cpu_frequency events so far. */
int gfxstat_thread_states_have_freq(const struct gfxstat_thread_states *t);
const struct gfxstat_sched_counts *
gfxstat_thread_states_counts(const struct gfxstat_thread_states *t);

/**
 * gfxstat_thread_states_comm() - the last name the trace gave thread @tid
 * Return: its name (valid until the next event), or "" when unknown.
 */
const char *gfxstat_thread_states_comm(const struct gfxstat_thread_states *t, int32_t tid);

#endif
