/* SPDX-License-Identifier: MIT */
/*
 * The scheduler events and system counters of a Perfetto trace (perfetto_sched.c), for the
 * Perfetto decoder (perfetto_pb.c) that frames the packets: it hands over every
 * FtraceEventBundle and the packets that hold counters. Library-internal.
 *
 * Without a sched or counter sink only the print events are read (prints-only): the atrace
 * markers still go out merged in time order, for perfetto_pb.c, and everything else of a
 * bundle is skipped by its length.
 *
 * Delivery: counters of their own packets (sys_stats, battery, power rails, process_stats)
 * go out as they are decoded, in file order (each comes from one producer, in time order).
 * Scheduler events and the counters of ftrace events (gpu_frequency, thermal_temperature)
 * are held per CPU and go out merged in time order (equal times in file order) as soon as
 * no CPU can still bring an earlier one: every CPU heard from in the last @window_ns has
 * reached that time. Memory is bounded by max_held events; past it the oldest go out,
 * and an event older than one already delivered is dropped and counted (late).
 */
#ifndef GX_PERFETTO_SCHED_LOCAL_H
#define GX_PERFETTO_SCHED_LOCAL_H

#include <stddef.h>
#include <stdint.h>

#include "../gx_local.h"
#include "gfxstat/gfxstat_perfetto.h"

#define GX_PSCHED_MAX_HELD (1u << 19)                  /* events held for merging */
#define GX_PSCHED_WINDOW_NS (5 * GFXSTAT_NSEC_PER_SEC) /* a CPU this far behind no longer
							* holds the others back */
#define GX_PSCHED_MAX_CPUS 1024                        /* trace_processor's kMaxCpuCount */
#define GX_PSCHED_MAX_NAMES 65536                      /* distinct task/zone/rail names */
#define GX_PSCHED_MAX_RAILS 256

/* What perfetto_pb.c counts of every FtraceEvent (its summary and stats), counted in the one
 * pass over the events made here; added to, never reset. */
struct gx_psched_counts {
	uint64_t events;      /* FtraceEvents */
	uint64_t malformed;   /* events that did not decode (a print's too) or whose time is
			       * past INT64_MAX, and bundles that did not decode to the end */
	uint64_t other;       /* events that are no print */
	uint64_t prints;      /* print events */
	uint64_t markers;     /* prints that gfxstat_atrace_marker_parse() accepts */
	uint64_t unsupported; /* ... says are unsupported */
	uint64_t bad_markers; /* ... says are malformed */
};

struct gx_psched_sink {
	gfxstat_sched_fn sched;     /* may be NULL */
	gfxstat_counter_fn counter; /* may be NULL */
	void *user;
	/*
	 * print events that are atrace markers (their payload without its trailing newline, and
	 * @m its gfxstat_atrace_marker_parse(), made once when the event was decoded), merged in
	 * time order with the scheduler events, when not NULL. Non-zero stops.
	 */
	int (*print)(void *print_user, int64_t ts, int32_t pid, int32_t cpu, const char *buf,
		     size_t len, const struct gfxstat_marker *m);
	void *print_user;
	struct gx_psched_counts *counts; /* may be NULL */
	unsigned kinds; /* the scheduler events @sched takes (GFXSTAT_SCHED_BIT()s; 0: all):
			 * the others are not decoded */
};

struct gx_psched;

GFXSTAT_HIDDEN struct gx_psched *gx_psched_new(const struct gx_psched_sink *sink);
GFXSTAT_HIDDEN void gx_psched_free(struct gx_psched *s);

/* Tests: @slow non-zero reads everything the general way, the fast paths checked against it
 * (tests/unit/test_perfetto_sched_fast.c): compact_sched's columns each looked for through
 * the message (in any number of runs, packed or not) even when each is one packed run, and
 * read a row (an event) at a time rather than a column at a time; a
 * bundle's events, each FtraceEvent, its kind's message and a print's buf field by field
 * even when they are laid out as traced_probes writes them. */
GFXSTAT_HIDDEN void gx_psched_set_slow(struct gx_psched *s, int slow);

/* Tests: @on non-zero delivers with the plain merge (every CPU's queue scanned for each run of
 * events, each event of a bundle held one by one), the fast one checked against it
 * (tests/unit/test_perfetto_sched_merge.c). Before the first bundle. */
GFXSTAT_HIDDEN void gx_psched_set_ref_merge(struct gx_psched *s, int on);

/* Before the first bundle: @threads > 1 decodes the bundles handed over by gx_psched_ahead()
 * on a thread of its own, ahead of their merge; else (the default) in the caller's. The
 * outputs are the same either way. */
GFXSTAT_HIDDEN void gx_psched_set_threads(struct gx_psched *s, int threads);

/*
 * gx_psched_ahead() - hand over a bundle that gx_psched_bundle() will be given next (after
 * those handed over before it), to be decoded meanwhile. [d, d + n) must stay as it is until
 * then, or until gx_psched_ahead_end(). Return 1 when it was taken, 0 when not (no thread,
 * enough handed over already, or a small bundle with none pending: decoded in the caller's
 * thread it costs less): the caller tries again later, or passes it as usual. A
 * gx_psched_bundle() of another bundle while some are handed over returns GFXSTAT_E_INVAL:
 * the decoder's state (the threads each CPU runs, the clock) has moved past it.
 */
GFXSTAT_HIDDEN int gx_psched_ahead(struct gx_psched *s, const uint8_t *d, size_t n);

struct gfxstat_perfetto;

/* Tests: the size under which a bundle does not start the thread's work (default 4 kB; 0: every
 * bundle is handed over). gx_perfetto_set_ahead_eager() sets it
 * to 0 for a whole decoder, whose scan then never pauses either (perfetto_pb.c). */
GFXSTAT_HIDDEN void gx_psched_set_ahead_min(struct gx_psched *s, size_t bytes);
GFXSTAT_HIDDEN void gx_perfetto_set_ahead_eager(struct gfxstat_perfetto *p);

/* Nothing handed over waits: the next bundle is the caller's to decode, or to hand over. */
GFXSTAT_HIDDEN int gx_psched_ahead_idle(const struct gx_psched *s);

/* Before the bytes handed over go away: what was not merged is dropped (an input that
 * stopped; none otherwise). */
GFXSTAT_HIDDEN void gx_psched_ahead_end(struct gx_psched *s);

/* Tests: bundles merged from a batch decoded ahead, and bundles that came while others were
 * handed over (GFXSTAT_E_INVAL); gx_perfetto_ahead_stats() those of a whole decoder's
 * (perfetto_pb.c). */
GFXSTAT_HIDDEN void gx_psched_ahead_stats(const struct gx_psched *s, uint64_t *taken,
					  uint64_t *missed);
GFXSTAT_HIDDEN void gx_perfetto_ahead_stats(const struct gfxstat_perfetto *p, uint64_t *taken,
					    uint64_t *missed);

/* Change the holding limits before the first bundle (0 keeps a default). */
GFXSTAT_HIDDEN void gx_psched_set_limits(struct gx_psched *s, size_t max_held,
					 int64_t window_ns);

/**
 * gx_psched_bundle() - one FtraceEventBundle (TracePacket.ftrace_events = 1)
 * Return: 0, GFXSTAT_E_ABORTED when a callback asked to stop, or GFXSTAT_E_NOMEM.
 */
GFXSTAT_HIDDEN int gx_psched_bundle(struct gx_psched *s, const uint8_t *d, size_t n);

/**
 * gx_psched_packet() - one field of a TracePacket that may hold counters
 * @field: its TracePacket field number: sys_stats 7, process_stats 9, battery 38,
 *         power_rails 40, system_info 45 (the kernel version); others are ignored
 * @ts: the packet's timestamp on the trace clock
 * Return: as gx_psched_bundle().
 */
GFXSTAT_HIDDEN int gx_psched_packet(struct gx_psched *s, uint32_t field, int64_t ts,
				    const uint8_t *d, size_t n);

/* Does TracePacket field @field interest gx_psched_packet()? */
static inline int gx_psched_wants(uint32_t field)
{
	return field == 7 || field == 9 || field == 38 || field == 40 || field == 45;
}

/* End of input: everything held goes out. Return: as gx_psched_bundle(). */
GFXSTAT_HIDDEN int gx_psched_finish(struct gx_psched *s);

GFXSTAT_HIDDEN const struct gfxstat_perfetto_sched_summary *
gx_psched_summary(const struct gx_psched *s);

/**
 * gx_prev_state_bits() - a binary trace's raw sched_switch prev_state as GFXSTAT_TASK_* bits
 * @raw: the kernel's value (cut to 16 bits, as trace_processor does)
 * @major, @minor: the kernel version; 0.0 for unknown (4.4 is assumed)
 *
 * trace_processor's TaskState::FromRawPrevState (src/trace_processor/types/task_state.cc):
 * 4.14+ report TASK_REPORT bits (0x40 parked, 0x80 idle, 0x100 preempted); older kernels
 * the scheduler's flags (0x40 dead .. 0x400 noload, D|N meaning idle), preemption at 0x1000
 * from 4.8 and 0x800 before.
 */
GFXSTAT_HIDDEN uint32_t gx_prev_state_bits(int64_t raw, int major, int minor);

#endif
