/* SPDX-License-Identifier: MIT */
/*
 * libgfxstat: Perfetto protobuf traces, decoded without libperfetto (FORMATS.md section 6).
 *
 * Ownership: gfxstat_perfetto_new() has gfxstat_perfetto_free(), which accepts NULL; every
 * pointer handed to a sink callback (ftrace line, marker, frame and their slices) borrows
 * the decoder's memory and is valid only during that callback.
 *
 * Delivery: atrace markers go out while the trace is fed, merged over the CPUs in timestamp
 * order (stable for equal timestamps) through a bounded window, with the scheduler events
 * when there is a sink.sched; counters (sink.counter) as they are decoded.
 * gfxstat_perfetto_finish() delivers what the window still holds, then every process the
 * trace names (sink.process, by pid), every complete FrameTimeline frame in present order
 * (stable), then the incomplete frames. Memory grows with the frames and the process and
 * package names of the trace, not with its events (docs/perfetto.md).
 *
 * What is decoded:
 *   - ftrace `print` events (FtraceEvent.print = 3, PrintFtraceEvent.buf = 2) go through
 *     gfxstat_atrace_marker_parse(), as text traces do;
 *   - FrameTimeline (TracePacket.frame_timeline_event = 76): expected/actual display and
 *     surface frames, paired with their FrameEnd by cookie and with their expected frame by
 *     token (and pid and layer name for surface frames), become struct gfxstat_frame records;
 *   - compressed_packets (TracePacket field 50, zlib) are inflated and decoded, one level;
 *   - ProcessTree (TracePacket.process_tree = 2) and PackagesList (packages_list = 47): the
 *     process name and package of each pid, which name the app of FrameTimeline frames;
 *   - SystemInfo (system_info = 45): the build fingerprint and SDK level;
 *   - with sink.sched / sink.counter (lib/input/perfetto_sched.c): the scheduler events of
 *     the ftrace bundles (compact_sched included) as struct gfxstat_sched_event, and the
 *     counters (sys_stats, process_stats, battery, power rails, gpu_frequency,
 *     thermal_temperature) as struct gfxstat_counter (docs/perfetto.md);
 *   - ClockSnapshot: timestamps of packets in another clock (Android 12's FrameTimeline
 *     uses MONOTONIC) are converted to the trace clock (BOOTTIME unless the snapshot says
 *     otherwise) with the latest snapshot seen.
 * gzip-wrapped files are not unwrapped here.
 */
#ifndef GFXSTAT_PERFETTO_H
#define GFXSTAT_PERFETTO_H

#include <stddef.h>
#include <stdint.h>

#include "gfxstat.h"
#include "gfxstat_sched.h"
#include "gfxstat_sysctx.h"

/* Default limits; see struct gfxstat_perfetto_limits. */
#define GFXSTAT_PERFETTO_MAX_PACKET (16u << 20)
#define GFXSTAT_PERFETTO_MAX_INFLATED (64u << 20)
#define GFXSTAT_PERFETTO_MAX_OPEN 4096u
#define GFXSTAT_PERFETTO_MAX_LAYER 1024u
#define GFXSTAT_PERFETTO_MAX_BUILD 256

/* FrameTimelineEvent.JankType bits (proto values, as they appear in traces) */
#define GFXSTAT_JANK_UNSPECIFIED 0
#define GFXSTAT_JANK_NONE 0x1
#define GFXSTAT_JANK_SF_SCHEDULING 0x2
#define GFXSTAT_JANK_PREDICTION_ERROR 0x4
#define GFXSTAT_JANK_DISPLAY_HAL 0x8
#define GFXSTAT_JANK_SF_CPU_DEADLINE_MISSED 0x10
#define GFXSTAT_JANK_SF_GPU_DEADLINE_MISSED 0x20
#define GFXSTAT_JANK_APP_DEADLINE_MISSED 0x40
#define GFXSTAT_JANK_BUFFER_STUFFING 0x80
#define GFXSTAT_JANK_UNKNOWN 0x100
#define GFXSTAT_JANK_SF_STUFFING 0x200
#define GFXSTAT_JANK_DROPPED 0x400
#define GFXSTAT_JANK_NON_ANIMATING 0x800
#define GFXSTAT_JANK_APP_RESYNCED_JITTER 0x1000
#define GFXSTAT_JANK_DISPLAY_NOT_ON 0x2000
#define GFXSTAT_JANK_DISPLAY_MODE_CHANGE 0x4000
#define GFXSTAT_JANK_DISPLAY_POWER_MODE_CHANGE 0x8000

/* Builtin clock ids (builtin_clock.proto) */
#define GFXSTAT_CLOCK_REALTIME 1
#define GFXSTAT_CLOCK_MONOTONIC 3
#define GFXSTAT_CLOCK_MONOTONIC_RAW 5
#define GFXSTAT_CLOCK_BOOTTIME 6

struct gfxstat_perfetto_sink {
	/* each atrace marker of an ftrace print event; may be NULL. Non-zero stops. */
	gfxstat_marker_fn marker;
	/* each completed FrameTimeline actual surface or display frame, in present order, with
	 * app, vsync_period_ns and duration_ns (docs/perfetto.md); may be NULL */
	gfxstat_frame_fn frame;
	/*
	 * at gfxstat_perfetto_finish(), each actual frame whose FrameEnd never came, with
	 * actual_end_ns and present_ns GFXSTAT_NS_NONE; may be NULL (they are only counted)
	 */
	gfxstat_frame_fn incomplete;
	void *user;
	/*
	 * each process the trace names (ProcessTree), once per pid in pid order, at finish
	 * after the markers and before the frames: @name is the process name (cmdline[0], e.g.
	 * "com.a.b:svc" or "/system/bin/surfaceflinger"); gfxstat_perfetto_app() gives its
	 * package. May be NULL. Non-zero stops.
	 */
	int (*process)(void *user, int32_t pid, struct gfxstat_str name);
	/*
	 * the scheduler events of the ftrace bundles (sched_switch, sched_waking, ...,
	 * compact_sched included; docs/perfetto.md "Scheduler events"); may be NULL. They go out
	 * with the atrace markers while the trace is fed, merged over the CPUs in time order
	 * (the thread states that time a doFrame need both in one order; the events held for
	 * merging are bounded). Non-zero stops.
	 */
	gfxstat_sched_fn sched;
	/*
	 * counter samples (gfxstat_sysctx.h): sys_stats, process_stats, battery, power rails,
	 * and the gpu_frequency and thermal_temperature ftrace events; may be NULL. Non-zero
	 * stops.
	 */
	gfxstat_counter_fn counter;
	/* the kinds of scheduler event @sched takes (GFXSTAT_SCHED_BIT()s; 0: all): the others
	 * are not decoded (nor counted in the summary's sched[]) */
	unsigned sched_kinds;
};

/* What the scheduler part decoded (with a sched or counter sink; zero without). */
struct gfxstat_perfetto_sched_summary {
	uint64_t bundles;           /* FtraceEventBundles looked at */
	uint64_t prints;            /* atrace markers delivered merged with the events */
	uint64_t sched[GFXSTAT_SCHED_KIND_COUNT];       /* events delivered, by kind */
	uint64_t counter[GFXSTAT_COUNTER_KIND_COUNT];   /* samples delivered, by kind */
	uint64_t compact_bundles;   /* bundles with compact_sched */
	uint64_t compact_switch;    /* sched_switch decoded from compact_sched */
	uint64_t compact_waking;    /* sched_waking decoded from compact_sched */
	uint64_t compact_skipped;   /* compact events before the CPU's first switch: no
				     * previous/current thread to infer (trace_processor
				     * skips them too: compact_sched_*_skipped) */
	uint64_t compact_errors;    /* columns of unequal length, or a bad name index */
	uint64_t lost_events;       /* bundles whose CPU buffer overwrote events */
	uint64_t late;              /* events older than one already delivered, dropped */
	uint64_t forced;            /* events delivered early because the holding limit was hit */
	uint64_t held_max;          /* most events held at once */
	uint64_t clock_unconverted; /* bundles in a non-boot ftrace clock without a snapshot */
	uint64_t malformed;         /* events or messages that did not decode, skipped */
	uint64_t bad_cpu;           /* bundles of a CPU >= 1024, skipped */
	int kernel_major, kernel_minor; /* SystemInfo utsname release, 0 when absent (4.4 is
					 * then assumed for prev_state, as trace_processor) */
};

struct gfxstat_perfetto_limits {
	size_t max_packet;     /* one TracePacket; bigger ones are counted and skipped */
	size_t max_inflated;   /* one inflated compressed_packets field */
	size_t max_open;       /* FrameTimeline slices kept (open ones, and expected frames for
				* matching); each new slice replaces the one max_open before it */
	size_t max_layer;      /* layer name bytes kept; longer names are cut (process names
				* too; longer package names are skipped) */
};

/* What was decoded. Frame counts are indexed by the GFXSTAT_SRC_FRAMETIMELINE* sources. */
struct gfxstat_perfetto_summary {
	uint64_t bytes;              /* bytes fed */
	uint64_t packets;            /* TracePackets, including those inside compressed_packets */
	uint64_t compressed;         /* compressed_packets fields inflated */
	uint64_t compressed_bytes;   /* bytes they inflated to */
	uint64_t ftrace_bundles;
	uint64_t ftrace_events;
	uint64_t print_events;       /* ftrace print events (each is offered to the marker parser) */
	uint64_t markers;            /* print events that parsed as atrace markers */
	uint64_t clock_snapshots;
	uint64_t ft_events;          /* FrameTimelineEvent messages */
	uint64_t ft_expected_display, ft_actual_display, ft_expected_surface, ft_actual_surface;
	uint64_t ft_frame_end;
	uint64_t frames_surface;     /* actual surface frames emitted (complete) */
	uint64_t frames_display;     /* actual display frames emitted (complete) */
	uint64_t janky_surface, janky_display;
	uint64_t incomplete;         /* actual frames without a FrameEnd at finish */
	uint64_t no_expected;        /* actual frames emitted without a matching expected frame */
	uint64_t expected_duplicate; /* expected surface frames of a (token, pid) already seen */
	uint64_t invalid_events;     /* FrameTimeline events without cookie/token/pid, skipped */
	uint64_t layer_cut;          /* layer names cut at max_layer */
	uint64_t end_unmatched;      /* FrameEnd with a cookie of no open slice */
	uint64_t duplicate_cookie;   /* a start reusing the cookie of an open slice */
	uint64_t evicted;            /* actual frames still open when max_open newer slices came */
	uint64_t bad_timestamp;      /* FrameEnd/start times >= INT64_MAX - 10 s (kBadTimestamp) */
	uint64_t clock_converted;    /* packets whose timestamp was converted to the trace clock */
	uint64_t clock_unconverted;  /* packets in another clock with no snapshot to convert */
	uint64_t packet_too_big;     /* packets over max_packet, skipped */
	uint64_t inflate_failed;     /* compressed_packets that failed or exceeded max_inflated */
	uint64_t nested_compressed;  /* compressed_packets inside compressed_packets, skipped */
	uint64_t malformed;          /* packets or messages that do not decode, skipped */
	uint64_t truncated;          /* a packet cut by the end of input (0 or 1) */
	uint64_t broken;             /* the stream could not be followed; the rest was ignored */
	uint64_t processes;          /* distinct pids named by ProcessTree packets */
	uint64_t packages;           /* PackagesList entries */
	uint64_t frames_app;         /* actual surface frames given an app (process or layer) */
	uint64_t held_to_file;       /* bytes of the frames held to finish that waited in the
				      * temporary file (gfxstat_perfetto_set_tmpdir()) */
	uint32_t trace_clock;        /* the trace clock id (BOOTTIME unless a snapshot says) */
	uint32_t ft_clock;           /* clock id of the last FrameTimeline packet, 0 if none */
	int32_t sdk;                 /* SystemInfo.android_sdk_version (Android 13+), 0 if absent */
	char build[GFXSTAT_PERFETTO_MAX_BUILD]; /* SystemInfo.android_build_fingerprint, e.g.
					 * "google/bluejay/bluejay:13/TQ1A.220812.001.A1/...", or ""
					 * (cut to fit, NUL-terminated) */
	char release[16];            /* the Android release in the fingerprint ("13"), or "" */
	struct gfxstat_perfetto_sched_summary sched;
};

struct gfxstat_perfetto;

/**
 * gfxstat_perfetto_new() - make a push decoder for a Perfetto protobuf trace
 * @sink: callbacks and their user pointer (copied); NULL callbacks are skipped
 * @stats: counters to update (bytes, events, marker_events, other_events, marker_unsupported,
 *         marker_malformed); may be NULL
 *
 * Return: the decoder, or NULL if memory ran out.
 */
struct gfxstat_perfetto *gfxstat_perfetto_new(const struct gfxstat_perfetto_sink *sink,
					      struct gfxstat_stats *stats);

/**
 * gfxstat_perfetto_free() - free a decoder; NULL does nothing
 * @p: the decoder
 */
void gfxstat_perfetto_free(struct gfxstat_perfetto *p);

/**
 * gfxstat_perfetto_set_tmpdir() - where the FrameTimeline frames held to the end wait
 * @p: the decoder, before its first frame
 * @dir: a directory; past 4 MB of frames, their records go to a file with no name there (gone
 *       with the process) and come back at finish. NULL (the default): all in memory, as also
 *       when no file can be written there. Borrowed: it must outlive @p.
 */
void gfxstat_perfetto_set_tmpdir(struct gfxstat_perfetto *p, const char *dir);

/**
 * gfxstat_perfetto_set_threads() - how many threads may decode
 * @p: the decoder, before the first feed
 * @threads: 2 or more: the ftrace bundles of the packets a feed holds whole are decoded on a
 *           thread of the decoder's own, ahead of their merge in the caller's (about half the
 *           time on a trace with the scheduler's events, given two cores); 1 (the default):
 *           all in the caller's. The outputs are the same either way; the callbacks are
 *           always called from the caller's thread.
 */
void gfxstat_perfetto_set_threads(struct gfxstat_perfetto *p, int threads);

/**
 * gfxstat_perfetto_limits_init() - fill @l with the default limits
 * @l: the limits
 */
void gfxstat_perfetto_limits_init(struct gfxstat_perfetto_limits *l);

/**
 * gfxstat_perfetto_set_limits() - change the limits before the first feed
 * @p: the decoder
 * @l: the new limits; a 0 field keeps the default
 *
 * Return: 0, GFXSTAT_E_INVAL once data was fed, or GFXSTAT_E_NOMEM.
 */
int gfxstat_perfetto_set_limits(struct gfxstat_perfetto *p,
				const struct gfxstat_perfetto_limits *l);

/**
 * gfxstat_perfetto_feed() - push a chunk of the trace; chunks need not match packets
 * @p: the decoder
 * @buf: the bytes
 * @n: their number
 *
 * One TracePacket at a time is buffered, up to the max_packet limit; bigger packets are
 * counted and skipped. Malformed packets are counted and skipped; a stream that cannot be
 * followed (a bad record header) is counted in summary.broken and the rest is ignored.
 * Return: 0, GFXSTAT_E_ABORTED if a callback asked to stop (sticky), or GFXSTAT_E_NOMEM.
 */
int gfxstat_perfetto_feed(struct gfxstat_perfetto *p, const void *buf, size_t n);

/**
 * gfxstat_perfetto_finish() - end of input
 * @p: the decoder
 *
 * Counts a packet cut by the end of input and offers every actual frame still waiting for
 * its FrameEnd to sink->incomplete (oldest first). The decoder then takes no more input.
 * Return: as gfxstat_perfetto_feed().
 */
int gfxstat_perfetto_finish(struct gfxstat_perfetto *p);

/**
 * gfxstat_perfetto_summary() - what was decoded so far
 * @p: the decoder
 *
 * Return: the decoder's summary, valid until gfxstat_perfetto_free().
 */
const struct gfxstat_perfetto_summary *gfxstat_perfetto_summary(const struct gfxstat_perfetto *p);

/**
 * gfxstat_perfetto_app() - the package of process @pid, as the trace names it
 * @p: the decoder, during or after gfxstat_perfetto_finish()
 * @pid: the process id
 *
 * The process's name (cmdline[0], up to a ':') when PackagesList lists it; else, for an app
 * uid, the listed package of that uid that the name starts with, or the only one of that uid;
 * else the name itself when it looks like a package ("a.b", no '/'). FrameTimeline surface
 * frames get this as their app, or the package in their layer name when it is empty.
 * Return: the package (valid until gfxstat_perfetto_free()), or an empty string.
 */
struct gfxstat_str gfxstat_perfetto_app(const struct gfxstat_perfetto *p, int32_t pid);

/**
 * gfxstat_perfetto_jank_type_str() - trace_processor's string for a JankType bitmask
 * @jank_type: the bitmask (proto values)
 * @buf: destination
 * @cap: its size
 *
 * "Unspecified" for 0, "None" for JANK_NONE, else the names of the set bits joined with ", "
 * in trace_processor's order (FORMATS.md 6.3), e.g. "App Deadline Missed, Buffer Stuffing".
 * Bits no name is known for are ignored. A negative value gives "".
 * Return: the length written (without NUL), or the length needed if it is >= @cap.
 */
size_t gfxstat_perfetto_jank_type_str(int32_t jank_type, char *buf, size_t cap);

/**
 * gfxstat_perfetto_present_type_name() - "On-time Present", "Late Present", ...
 * @present_type: a PresentType value
 *
 * Return: trace_processor's string; "Unspecified Present" for values it does not know.
 */
const char *gfxstat_perfetto_present_type_name(int32_t present_type);

/**
 * gfxstat_perfetto_prediction_type_name() - "Valid Prediction", "Expired Prediction", ...
 * @prediction_type: a PredictionType value
 *
 * Return: trace_processor's string; "Unspecified Prediction" for values it does not know.
 */
const char *gfxstat_perfetto_prediction_type_name(int32_t prediction_type);

/**
 * gfxstat_perfetto_clock_name() - "BOOTTIME", "MONOTONIC", ... or "?" for a builtin clock id
 * @clock_id: the id
 *
 * Return: a static string.
 */
const char *gfxstat_perfetto_clock_name(uint32_t clock_id);

#endif
