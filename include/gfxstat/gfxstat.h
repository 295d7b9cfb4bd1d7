/* SPDX-License-Identifier: MIT */
/*
 * libgfxstat: Android frame-timing parsers and metrics.
 *
 * Ownership: every gfxstat_x_new() has a gfxstat_x_free() that accepts NULL; a struct
 * gfxstat_str handed to a callback borrows the caller's memory and is valid only during
 * that callback. The library never prints, exits or reads argv.
 * Time is integer nanoseconds (int64_t) everywhere.
 */
#ifndef GFXSTAT_H
#define GFXSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "gfxstat_err.h"

#define GFXSTAT_VERSION "0.1.0"

/* Longest input line accepted by default; longer lines are counted and skipped. */
#define GFXSTAT_MAX_LINE (64 * 1024)

#define GFXSTAT_NSEC_PER_USEC 1000LL
#define GFXSTAT_NSEC_PER_MSEC 1000000LL
#define GFXSTAT_NSEC_PER_SEC 1000000000LL

/* A borrowed slice of text: not NUL-terminated. */
struct gfxstat_str {
	const char *p;
	size_t n;
};

/* ---------------------------------------------------------------------------------------- */
/* Diagnostic counters                                                                         */

enum gfxstat_severity {
	GFXSTAT_SEV_INFO,  /* bookkeeping, never reported as a problem */
	GFXSTAT_SEV_WARN,  /* input skipped; reported at the end of a run */
	GFXSTAT_SEV_ERROR, /* the result is unreliable; the CLI exits with status 3 */
};

/* F(name, severity, "what it counts") */
#define GFXSTAT_STATS(F)                                                                   \
	F(bytes, INFO, "bytes read")                                                       \
	F(lines, INFO, "lines read")                                                       \
	F(blank_lines, INFO, "blank lines")                                                \
	F(comment_lines, INFO, "'#' header and comment lines")                             \
	F(events, INFO, "ftrace events")                                                   \
	F(marker_events, INFO, "trace_marker (atrace) events")                             \
	F(other_events, INFO, "other ftrace events skipped (sched_switch, ...)")           \
	F(marker_unsupported, INFO, "markers of an unsupported kind (clock sync, ...)")    \
	F(line_too_long, WARN, "lines over the length limit, skipped")                     \
	F(ftrace_line_malformed, WARN, "lines that are not ftrace events, skipped")        \
	F(marker_malformed, WARN, "trace_marker payloads that are not atrace markers")     \
	F(time_backwards, WARN, "events whose timestamp goes back in time")                \
	F(sched_events, INFO, "scheduler events read for thread states")                   \
	F(sched_malformed, WARN, "scheduler events whose payload could not be read")       \
	F(gfx_vsync_lines, INFO, "VSYNC-sf/VSYNC-app counter events")                      \
	F(gfx_post_framebuffer, INFO, "postFramebuffer events")                            \
	F(gfx_frames, INFO, "frames credited to a surface")                                \
	F(gfx_windows, INFO, "fps.csv rows")                                               \
	F(gfx_drop_rows, INFO, "dropFrames.csv rows")                                      \
	F(gfx_info_truncated, WARN, "dropFrames info lists cut at the size limit")         \
	F(gfx_keys_overflow, WARN, "frames dropped because the surface table was full")

#define GFXSTAT_STAT__(name, sev, doc) GFXSTAT_STAT_##name,
enum gfxstat_stat {
	GFXSTAT_STATS(GFXSTAT_STAT__)
	GFXSTAT_STAT_COUNT
};
#undef GFXSTAT_STAT__

struct gfxstat_stats {
	uint64_t v[GFXSTAT_STAT_COUNT];
};

/**
 * gfxstat_stat_name() - short name of a counter, e.g. "line_too_long"
 * gfxstat_stat_doc() - one-line description of a counter
 * gfxstat_stat_severity() - how much a non-zero value matters
 * @stat: one of GFXSTAT_STAT_*
 */
const char *gfxstat_stat_name(enum gfxstat_stat stat);
const char *gfxstat_stat_doc(enum gfxstat_stat stat);
enum gfxstat_severity gfxstat_stat_severity(enum gfxstat_stat stat);

/* ---------------------------------------------------------------------------------------- */
/* Pure parse functions                                                                       */

enum gfxstat_parse_res {
	GFXSTAT_PARSE_FAIL = -1,       /* malformed */
	GFXSTAT_PARSE_UNSUPPORTED = 0, /* well-formed but not for us (comment, clock sync, ...) */
	GFXSTAT_PARSE_OK = 1,
};

/* One ftrace text event. tgid is -1 when the column is absent or shows dashes. */
struct gfxstat_ftrace_line {
	struct gfxstat_str task;    /* may contain spaces and dashes; "<...>" when unknown */
	int32_t pid;                /* thread id */
	int32_t tgid;               /* process id, or -1 */
	int32_t cpu;
	int64_t ts_ns;              /* from the "sec.frac" text, exactly; no double */
	struct gfxstat_str ts_text; /* the timestamp as written, e.g. "1080841.601945" */
	struct gfxstat_str event;   /* "tracing_mark_write", "0", "sched_switch", ... */
	struct gfxstat_str payload; /* everything after "<event>: " */
};

/**
 * gfxstat_ftrace_line_parse() - parse one line of ftrace text
 * @s: the line, without its newline
 * @n: its length
 * @out: filled on GFXSTAT_PARSE_OK; the slices point into @s
 *
 * Accepted headers (the task name may contain anything; the header is anchored on "[cpu]"):
 *   "<task>-<pid> (<tgid>) [<cpu>] <flags> <sec>.<frac>: <event>: <payload>"
 *   "<task>-<pid> (-----) [<cpu>] ..."   tgid unknown, 5 or 7 wide
 *   "<task>-<pid> [<cpu>] <flags> <sec>.<frac>: ..."   no tgid column
 *   "<task>-<pid> [<cpu>] <sec>.<frac>: ..."           no irq-flags column
 * with 4- or 5-character irq flags. Lines starting with '#' and blank lines are
 * GFXSTAT_PARSE_UNSUPPORTED; anything else that does not match is GFXSTAT_PARSE_FAIL.
 */
enum gfxstat_parse_res gfxstat_ftrace_line_parse(const char *s, size_t n,
						 struct gfxstat_ftrace_line *out);

enum gfxstat_marker_kind {
	GFXSTAT_MARKER_BEGIN = 'B',       /* B|pid|name */
	GFXSTAT_MARKER_END = 'E',         /* E or E|pid */
	GFXSTAT_MARKER_COUNTER = 'C',     /* C|pid|name|value[|category] */
	GFXSTAT_MARKER_ASYNC_BEGIN = 'S', /* S|pid|name|cookie */
	GFXSTAT_MARKER_ASYNC_END = 'F',   /* F|pid|name|cookie */
	GFXSTAT_MARKER_INSTANT = 'I',     /* I|pid|name */
	GFXSTAT_MARKER_TRACK_INSTANT = 'N', /* N|pid|track|name */
	GFXSTAT_MARKER_TRACK_BEGIN = 'G', /* G|pid|track|name|cookie */
	GFXSTAT_MARKER_TRACK_END = 'H',   /* H|pid|track|cookie or H|pid|track|name|cookie */
};

struct gfxstat_marker {
	enum gfxstat_marker_kind kind;
	int32_t pid;              /* -1 for a bare "E" */
	struct gfxstat_str name;  /* slice, counter or instant name; empty if none */
	struct gfxstat_str track; /* N/G/H track name; empty otherwise */
	int64_t value;            /* counter value, or S/F/G/H cookie; 0 otherwise */
};

/**
 * gfxstat_atrace_marker_parse() - parse an atrace trace_marker payload
 * @s: the payload (text after "tracing_mark_write: " or "0: ")
 * @n: its length; trailing '\n', '\r' and '\0' are ignored
 * @out: filled on GFXSTAT_PARSE_OK; slices point into @s
 *
 * Accepted forms, as Perfetto's ParseSystraceTracePoint:
 *   B|pid|name   (name is the whole rest, may contain '|')    E   E|pid[|...]
 *   C|pid|name|value[|category]   S|pid|name|cookie   F|pid|name|cookie
 *   I|pid|name   N|pid|track|name   G|pid|track|name|cookie
 *   H|pid|track|cookie   H|pid|track|name|cookie
 * "trace_event_clock_sync: ..." is GFXSTAT_PARSE_UNSUPPORTED; anything else is a failure.
 */
enum gfxstat_parse_res gfxstat_atrace_marker_parse(const char *s, size_t n,
						   struct gfxstat_marker *out);

/**
 * gfxstat_parse_decimal_ns() - parse "SEC[.FRAC]" into integer nanoseconds, exactly
 * @s: text; @n: its length; @scale_ns: nanoseconds per unit (1e9 for seconds, 1e6 for ms)
 * @out: result, rounded half up to the nanosecond
 *
 * Return: 0, or GFXSTAT_E_BAD_TIMESTAMP if @s is not a non-negative decimal or overflows.
 */
int gfxstat_parse_decimal_ns(const char *s, size_t n, int64_t scale_ns, int64_t *out);

/* ---------------------------------------------------------------------------------------- */
/* Streaming line reader: chunks of any size in, whole lines out                             */

/* Called once per line, without its '\n' or trailing '\r'. Return non-zero to stop. */
typedef int (*gfxstat_line_fn)(void *user, const char *line, size_t n);

struct gfxstat_line_reader;

/**
 * gfxstat_line_reader_new() - make a line reader
 * @max_line: longest line passed on (0 = GFXSTAT_MAX_LINE); longer ones are skipped
 * @fn: called for every line
 * @user: passed to @fn
 * @stats: counters to update (bytes, lines, line_too_long); may be NULL
 *
 * A UTF-8 byte-order mark at the start of the stream is dropped. Memory is bounded by
 * @max_line, whatever the input length.
 */
struct gfxstat_line_reader *gfxstat_line_reader_new(size_t max_line, gfxstat_line_fn fn,
						    void *user, struct gfxstat_stats *stats);
void gfxstat_line_reader_free(struct gfxstat_line_reader *r);

/**
 * gfxstat_line_reader_feed() - push a chunk; chunks need not end on a line boundary
 * Return: 0, GFXSTAT_E_ABORTED if a callback asked to stop, or GFXSTAT_E_NOMEM.
 */
int gfxstat_line_reader_feed(struct gfxstat_line_reader *r, const void *buf, size_t n);

/**
 * gfxstat_line_reader_finish() - end of input: pass on a last line that has no '\n'
 * Return: as gfxstat_line_reader_feed(). The reader can then be fed a new stream.
 */
int gfxstat_line_reader_finish(struct gfxstat_line_reader *r);

/* ---------------------------------------------------------------------------------------- */
/* Trace text parser: lines -> ftrace events -> atrace markers                               */

/* Called for every trace_marker event that parsed as an atrace marker. Non-zero stops. */
typedef int (*gfxstat_marker_fn)(void *user, const struct gfxstat_ftrace_line *ev,
				 const struct gfxstat_marker *m);

struct gfxstat_trace_parser;

/**
 * gfxstat_trace_parser_new() - parse ftrace/atrace text fed in chunks
 * @fn: called for every atrace marker event, in input order
 * @user: passed to @fn
 *
 * Header comments, blank lines and non-marker events are skipped and counted; malformed
 * lines are counted (see gfxstat_trace_parser_stats()) and never stop the parse.
 */
struct gfxstat_trace_parser *gfxstat_trace_parser_new(gfxstat_marker_fn fn, void *user);
void gfxstat_trace_parser_free(struct gfxstat_trace_parser *p);
int gfxstat_trace_parser_feed(struct gfxstat_trace_parser *p, const void *buf, size_t n);
int gfxstat_trace_parser_finish(struct gfxstat_trace_parser *p);
struct gfxstat_stats *gfxstat_trace_parser_stats(struct gfxstat_trace_parser *p);
/**
 * gfxstat_trace_parser_set_threads() - how many threads may parse
 * @threads: 2 or more: of a feed's whole lines (when they are many), three blocks in four are
 *           parsed on a thread of the parser's own, ahead of the caller's thread, which hands
 *           on what they hold in input order; 1 (the default): all in the caller's. The
 *           callbacks, their order and the counts are the same either way, with the sched
 *           and counter functions (gfxstat_sched.h, gfxstat_sysctx.h) set or cleared between
 *           feeds (a sched function may narrow or widen its kinds from its own callback);
 *           once a callback stopped the parse, the counts may take in the rest of the block
 *           it stopped in.
 */
void gfxstat_trace_parser_set_threads(struct gfxstat_trace_parser *p, int threads);

/* ---------------------------------------------------------------------------------------- */
/* Refresh period detection from VSYNC counter toggles                                       */

struct gfxstat_vsync_detect;

struct gfxstat_vsync_detect *gfxstat_vsync_detect_new(void);
void gfxstat_vsync_detect_free(struct gfxstat_vsync_detect *d);

/**
 * gfxstat_vsync_detect_add() - offer a counter event
 * @name: counter name; HW_VSYNC_<n>, VSYNC-app and VSYNC-sf toggles are used
 * Return: 1 once enough intervals were seen to decide, else 0.
 */
int gfxstat_vsync_detect_add(struct gfxstat_vsync_detect *d, const char *name, size_t n,
			     int64_t ts_ns);

/**
 * gfxstat_vsync_detect_result() - the refresh period, or 0 when the toggles say nothing
 * @source: set to the counter family used ("HW_VSYNC", "VSYNC-app", "VSYNC-sf") or NULL
 * @intervals: set to the number of intervals the result rests on; may be NULL
 */
int64_t gfxstat_vsync_detect_result(const struct gfxstat_vsync_detect *d, const char **source,
				    unsigned *intervals);

/* ---------------------------------------------------------------------------------------- */
/* The seed's per-surface FPS monitor (android_FPS_frome_GFX gfx.sh, bugs fixed)            */

struct gfxstat_gfx_opts {
	double target;       /* -t: target FPS (60) */
	double kpi_ms;       /* -k: frame-time KPI for the score (100) */
	int type;            /* -T: 0-4 (0) */
	int64_t delay_ns;    /* -d: window length (1 s) */
	long frames;         /* -f: a window is written when it has more frames than this (20) */
	int64_t period_ns;   /* refresh period; 0 = detect from the trace, else 16.667 ms */
	const char *focus;   /* initial "pkg/activity" ("unknown") */
};

/* One fps.csv row. Text fields are valid during the callback only. */
struct gfxstat_gfx_window {
	struct gfxstat_str start_text, end_text; /* trace timestamps as written */
	int64_t start_ns, end_ns;
	uint64_t frames, waits, a, b, c, d;
	int64_t time_ns;    /* sum of counted intervals */
	int64_t max_ns;     /* longest counted interval */
	int64_t wait_ns;    /* sum of waits (intervals >= 500 ms) */
	double fps;         /* as printed: one decimal, or truncated when >= target */
	double score;       /* rounded to 2 decimals */
	int tx;
	struct gfxstat_str app, surface;
	int final;          /* written by the end-of-input flush */
};

/* One dropFrames.csv row. */
struct gfxstat_gfx_drop {
	int kind;           /* 1: frame interval >= 42 ms (types 1, 3); 2: vsync gap > period */
	struct gfxstat_str start_text, end_text;
	int64_t start_ns, end_ns;
	int64_t used_ns;    /* the interval or the gap */
	struct gfxstat_str vsync_name;
	int tx;
	struct gfxstat_str app, surface;
	struct gfxstat_str info; /* counter names of that vsync, '\n'-joined */
};

struct gfxstat_gfx_sink {
	int (*window)(void *user, const struct gfxstat_gfx_window *w);
	int (*drop)(void *user, const struct gfxstat_gfx_drop *d);
	void *user;
};

struct gfxstat_gfx;

/**
 * gfxstat_gfx_opts_init() - fill @o with gfx.sh's defaults
 */
void gfxstat_gfx_opts_init(struct gfxstat_gfx_opts *o);

/**
 * gfxstat_gfx_new() - make a monitor; rows go to @sink as windows close
 * @stats: counters to update; may be NULL
 * Return: NULL on allocation failure or invalid options (type outside 0-4, target <= 0).
 */
struct gfxstat_gfx *gfxstat_gfx_new(const struct gfxstat_gfx_opts *o,
				    const struct gfxstat_gfx_sink *sink,
				    struct gfxstat_stats *stats);
void gfxstat_gfx_free(struct gfxstat_gfx *g);

/**
 * gfxstat_gfx_marker() - feed one atrace marker event (a gfxstat_marker_fn)
 * Return: 0, or non-zero if a sink callback asked to stop or memory ran out.
 */
int gfxstat_gfx_marker(void *g, const struct gfxstat_ftrace_line *ev,
		       const struct gfxstat_marker *m);

/**
 * gfxstat_gfx_finish() - end of input: flush every surface with frames, like the seed's END
 */
int gfxstat_gfx_finish(struct gfxstat_gfx *g);

/**
 * gfxstat_gfx_period() - the refresh period in use (0 while still detecting)
 * @source: "option", "HW_VSYNC", "VSYNC-app", "VSYNC-sf" or "default"
 */
int64_t gfxstat_gfx_period(const struct gfxstat_gfx *g, const char **source);

/**
 * gfxstat_gfx_window_score() - fill @w->fps and @w->score from its counts, as gfx.sh does
 * @w: frames, time_ns, max_ns, a, b and c set
 * @target: -t; @kpi_ms: -k
 *
 * fps = frames / time printed "%.1f", truncated to an integer when >= @target (compared as a
 * number); score = 60*min(fps/target,1) + 20*min(kpi/max,1) + 10*(1-A/N) + 7*(1-B/N)
 * + 3*(1-C/N), rounded to 2 decimals.
 */
void gfxstat_gfx_window_score(struct gfxstat_gfx_window *w, double target, double kpi_ms);

/*
 * The same fps.csv/dropFrames.csv columns computed from the per-frame model (any input),
 * one key per real layer: TX is always 0, app is the frame's app, Surface its layer. Frames
 * without a present time and SurfaceFlinger's own refreshes ("(display)") are skipped; a
 * frame whose present is not after its layer's previous one is counted and skipped.
 */
struct gfxstat_gfx_model;
struct gfxstat_frame;

struct gfxstat_gfx_model_stats {
	uint64_t frames;          /* frames offered */
	uint64_t used;            /* frames credited to a surface */
	uint64_t no_present;      /* skipped: no present time */
	uint64_t display;         /* skipped: the display's own refreshes */
	uint64_t out_of_order;    /* skipped: present not after the layer's previous one */
	uint64_t period_fallback; /* frames without vsync_period_ns, judged with the fallback */
	uint64_t keys_overflow;   /* skipped: the surface table was full */
	uint64_t windows, drops;  /* rows given to the sink */
};

/**
 * gfxstat_gfx_model_new() - the seed's windows over model frames; rows go to @sink
 * @o: as for gfxstat_gfx_new(); o->period_ns (0 = none) is the D threshold for frames
 *     without vsync_period_ns (else the last period seen, else 16.667 ms); o->focus unused
 * Return: NULL on allocation failure or invalid options.
 */
struct gfxstat_gfx_model *gfxstat_gfx_model_new(const struct gfxstat_gfx_opts *o,
						const struct gfxstat_gfx_sink *sink);
void gfxstat_gfx_model_free(struct gfxstat_gfx_model *g);

/**
 * gfxstat_gfx_model_frame() - offer one frame (a gfxstat_frame_fn), in present order
 * Return: 0, a sink's non-zero return, or GFXSTAT_E_NOMEM.
 */
int gfxstat_gfx_model_frame(void *g, const struct gfxstat_frame *f);

/**
 * gfxstat_gfx_model_finish() - end of input: flush every surface with frames
 * Return: as gfxstat_gfx_model_frame(). The monitor may then be freed, not fed.
 */
int gfxstat_gfx_model_finish(struct gfxstat_gfx_model *g);

/* What the monitor did with the frames it was offered. */
const struct gfxstat_gfx_model_stats *gfxstat_gfx_model_stats(const struct gfxstat_gfx_model *g);

/* The seed's CSV header lines (without newline). */
extern const char gfxstat_gfx_fps_header[];
extern const char gfxstat_gfx_drop_header[];

/**
 * gfxstat_gfx_window_csv() - format a row of fps.csv, with '\n'
 * gfxstat_gfx_drop_csv() - format a row of dropFrames.csv, with '\n'
 * @buf: destination; @cap: its size
 * Return: the length written (without NUL), or the length needed if it is >= @cap.
 */
size_t gfxstat_gfx_window_csv(const struct gfxstat_gfx_window *w, char *buf, size_t cap);
size_t gfxstat_gfx_drop_csv(const struct gfxstat_gfx_drop *d, char *buf, size_t cap);

/**
 * gfxstat_awk_number() - format a number the way awk's print does
 * An integral value prints as an integer, anything else with "%.6g".
 * Return: as snprintf.
 */
int gfxstat_awk_number(char *buf, size_t cap, double v);

/* ---------------------------------------------------------------------------------------- */
/* The per-frame model: one record per presented (or dropped) frame, whatever the source      */

#define GFXSTAT_NS_NONE INT64_MIN /* an optional time the source does not give */

enum gfxstat_frame_source {
	GFXSTAT_SRC_FTRACE = 1,            /* SurfaceFlinger atrace markers (text, HTML, Perfetto) */
	GFXSTAT_SRC_FRAMETIMELINE,         /* Perfetto FrameTimeline, actual surface frames */
	GFXSTAT_SRC_FRAMETIMELINE_DISPLAY, /* Perfetto FrameTimeline, actual display frames */
	GFXSTAT_SRC_SF_LATENCY,            /* dumpsys SurfaceFlinger --latency <layer> */
	GFXSTAT_SRC_GFXINFO,               /* dumpsys gfxinfo <pkg> framestats (or legacy table) */
	GFXSTAT_SRC_APP,                   /* app-side: Choreographer#doFrame/DrawFrame in a trace
					    * without SurfaceFlinger; rendered, not proven presented */
	GFXSTAT_SRC_FTRACE_DISPLAY,        /* SurfaceFlinger's refreshes from its markers
					    * ("(display)"), verdict from FrameMissed counters */
};

/* hwui FrameInfo columns by meaning, whatever the Android version's column order. */
#define GFXSTAT_FRAMEINFO(F)                                                                \
	F(FLAGS, "Flags")                                                                   \
	F(FRAME_TIMELINE_VSYNC_ID, "FrameTimelineVsyncId")                                  \
	F(INTENDED_VSYNC, "IntendedVsync")                                                  \
	F(VSYNC, "Vsync")                                                                   \
	F(OLDEST_INPUT_EVENT, "OldestInputEvent")                                           \
	F(NEWEST_INPUT_EVENT, "NewestInputEvent")                                           \
	F(INPUT_EVENT_ID, "InputEventId")                                                   \
	F(HANDLE_INPUT_START, "HandleInputStart")                                           \
	F(ANIMATION_START, "AnimationStart")                                                \
	F(PERFORM_TRAVERSALS_START, "PerformTraversalsStart")                               \
	F(DRAW_START, "DrawStart")                                                          \
	F(FRAME_DEADLINE, "FrameDeadline")                                                  \
	F(FRAME_START_TIME, "FrameStartTime")                                               \
	F(FRAME_INTERVAL, "FrameInterval")                                                  \
	F(WORKLOAD_TARGET, "WorkloadTarget")                                                \
	F(ANIMATION_TIME, "AnimationTime")                                                  \
	F(SYNC_QUEUED, "SyncQueued")                                                        \
	F(SYNC_START, "SyncStart")                                                          \
	F(ISSUE_DRAW_COMMANDS_START, "IssueDrawCommandsStart")                              \
	F(SWAP_BUFFERS, "SwapBuffers")                                                      \
	F(FRAME_COMPLETED, "FrameCompleted")                                                \
	F(DEQUEUE_BUFFER_DURATION, "DequeueBufferDuration")                                 \
	F(QUEUE_BUFFER_DURATION, "QueueBufferDuration")                                     \
	F(GPU_COMPLETED, "GpuCompleted")                                                    \
	F(SWAP_BUFFERS_COMPLETED, "SwapBuffersCompleted")                                   \
	F(DISPLAY_PRESENT_TIME, "DisplayPresentTime")                                       \
	F(COMMAND_SUBMISSION_COMPLETED, "CommandSubmissionCompleted")

#define GFXSTAT_FI__(id, name) GFXSTAT_FI_##id,
enum gfxstat_frameinfo {
	GFXSTAT_FRAMEINFO(GFXSTAT_FI__)
	GFXSTAT_FI_COUNT
};
#undef GFXSTAT_FI__

/*
 * The stages of gfxinfo's legacy profile table ("Draw Prepare Process Execute", the ms a
 * frame spent in each; libs/hwui FrameInfoVisualizer::dumpData: Draw is IntendedVsync to
 * SyncStart, the UI thread's input, animation, layout and display-list recording; Prepare
 * SyncStart to IssueDrawCommandsStart, the RenderThread's sync and texture uploads; Process to
 * SwapBuffers, the RenderThread issuing GPU commands; Execute to FrameCompleted, the swap,
 * waiting for the GPU or a buffer). Android 4.1-4.4 print no Prepare.
 */
enum gfxstat_legacy_stage {
	GFXSTAT_LEGACY_DRAW,
	GFXSTAT_LEGACY_PREPARE,
	GFXSTAT_LEGACY_PROCESS,
	GFXSTAT_LEGACY_EXECUTE,
	GFXSTAT_LEGACY_COUNT
};

/*
 * One frame. Optional fields are GFXSTAT_NS_NONE (times) or -1 (codes) when the source does
 * not give them. Text fields borrow the producer's memory: valid during the callback only.
 */
struct gfxstat_frame {
	enum gfxstat_frame_source source;
	struct gfxstat_str layer;    /* layer or window name */
	struct gfxstat_str app;      /* package, when known; else empty */
	int32_t pid;                 /* owning process, or -1 */
	int64_t present_ns;          /* when it reached the display (the source's clock) */
	int64_t interval_ns;         /* since the layer's previous present; NONE for its first */
	int64_t vsync_period_ns;     /* refresh period at this frame, or NONE */
	int64_t latch_ns;            /* SF latched the buffer; --latency frameReady */
	int64_t desired_present_ns;  /* --latency desiredPresent; FrameTimeline expected present */
	int64_t expected_start_ns;   /* FrameTimeline expected slice, start and end (deadline) */
	int64_t expected_end_ns;
	int64_t actual_start_ns;     /* FrameTimeline actual slice; ftrace: when the app began
				      * the frame, its Choreographer#doFrame start, where the
				      * trace has the app's sections (gfxstat_causes_frame()) */
	int64_t actual_end_ns;
	int64_t duration_ns;         /* the frame's own work, where the source measures it: gfxinfo
				      * (legacy Draw+Prepare+Process+Execute, framestats
				      * FrameCompleted - IntendedVsync), app-side doFrame start to
				      * DrawFrame end, FrameTimeline actual end - start; else NONE */
	int64_t token;               /* FrameTimeline token / gfxinfo FrameTimelineVsyncId, or -1 */
	int64_t display_token;       /* FrameTimeline display frame token, or -1 */
	int32_t jank_type;           /* FrameTimeline JankType bitmask (proto values), or -1 */
	int32_t present_type;        /* FrameTimeline PresentType, or -1 */
	int32_t prediction_type;     /* FrameTimeline PredictionType, or -1 */
	int32_t janky;               /* the source's own verdict (JankTracker, FrameTimeline): 0/1/-1 */
	uint32_t jank_reasons;       /* gfxinfo: bit i set = JankTracker type i (Missed Vsync = 0) */
	int32_t input;               /* the app handled input for this frame: 1, 0, or -1 unknown */
	int64_t fi[GFXSTAT_FI_COUNT]; /* gfxinfo FrameInfo values; NONE when the column is absent */
	int64_t legacy_ns[GFXSTAT_LEGACY_COUNT]; /* gfxinfo legacy table row: each stage's time;
						  * NONE when absent */
};

/* Called once per frame. Return non-zero to stop the producer. */
typedef int (*gfxstat_frame_fn)(void *user, const struct gfxstat_frame *f);

/**
 * gfxstat_frame_init() - a frame with every optional field set to "absent"
 */
void gfxstat_frame_init(struct gfxstat_frame *f, enum gfxstat_frame_source source);

/**
 * gfxstat_frame_source_name() - "ftrace", "frametimeline", "frametimeline_display",
 * "sf-latency", "gfxinfo", "app" or "ftrace_display"
 */
const char *gfxstat_frame_source_name(enum gfxstat_frame_source source);

/**
 * gfxstat_frame_jank_type_str() - the names of a jank_type bitmask (FrameTimeline's JankType,
 * trace_processor's strings), e.g. "App Deadline Missed, Buffer Stuffing"; as
 * gfxstat_perfetto_jank_type_str(). Return: as snprintf.
 * gfxstat_frame_present_type_name() - a present_type's name ("On-time Present", ...)
 * gfxstat_frame_reason_name() - JankTracker reason @bit of jank_reasons ("Missed Vsync", ...)
 * The names of the model's codes, for a program that reads frames from any source.
 */
size_t gfxstat_frame_jank_type_str(int32_t jank_type, char *buf, size_t cap);
const char *gfxstat_frame_present_type_name(int32_t present_type);
const char *gfxstat_frame_reason_name(unsigned bit);

/**
 * gfxstat_frameinfo_name() - the FrameInfo column name, e.g. "IntendedVsync"
 */
const char *gfxstat_frameinfo_name(enum gfxstat_frameinfo i);

/* ---------------------------------------------------------------------------------------- */
/* Frames from SurfaceFlinger's atrace markers, Android 4.1 to 14                            */

struct gfxstat_sf_frames;

/**
 * gfxstat_sf_frames_new() - per-layer frames from ftrace/atrace markers
 * @fn: called once per presented frame, in present order
 * @user: passed to @fn
 *
 * SurfaceFlinger is found by its VSYNC counters. A frame of a layer is a buffer latched by
 * SF's main thread (the layer's queued-buffer counter lowered, or "BufferTX - <layer>" on
 * Android 12+) in a refresh that reaches the display (postFramebuffer, "postFramebuffer for
 * <display>", "presentFrameAndReleaseLayers for <display>", or, in a trace that has none of
 * them, the end of handleMessageRefresh / onMessageRefresh / composite). Its present time is
 * the next vsync after that marker on one grid, the toggles of one VSYNC counter family
 * (VSYNC-sf when the trace has it): the next toggle when it comes within half a period of
 * the predicted vsync, else the prediction. Each refresh also gives a frame of source
 * GFXSTAT_SRC_FTRACE_DISPLAY, layer "(display)", janky from SF's FrameMissed /
 * PrevFrameMissed counters (-1 without them). Every frame carries the refresh period in
 * force. Feed it with gfxstat_sf_frames_marker().
 */
struct gfxstat_sf_frames *gfxstat_sf_frames_new(gfxstat_frame_fn fn, void *user);
void gfxstat_sf_frames_free(struct gfxstat_sf_frames *sf);

/* A gfxstat_marker_fn. */
int gfxstat_sf_frames_marker(void *sf, const struct gfxstat_ftrace_line *ev,
			     const struct gfxstat_marker *m);

/* End of input: refreshes still waiting for their vsync are stamped with the prediction. */
int gfxstat_sf_frames_finish(struct gfxstat_sf_frames *sf);

/* What the trace showed, for `gfxstat inspect`. */
struct gfxstat_sf_summary {
	int32_t sf_pid;             /* -1 when no SurfaceFlinger VSYNC counter was seen */
	int32_t sf_main_tid;
	uint64_t refreshes;         /* present markers (or composition ends) */
	uint64_t frames;
	uint64_t latched_unpresented; /* latches with no present marker before the end */
	uint64_t display_frames;    /* "(display)" frames emitted, one per stamped refresh */
	uint64_t nonincreasing;     /* presents that did not move a layer forward: dropped */
	uint64_t time_jumps;        /* the clock went back by more than 100 ms: grid restarted */
	uint64_t over_limit;        /* counter events of names past the name table's limit: lost */
	uint32_t markers_seen;      /* GFXSTAT_SF_SEEN_* bits */
	int64_t first_ts, last_ts;
	unsigned nmodes;            /* refresh-rate changes, first one included; a change needs
				     * several consecutive vsync intervals at the new period */
	struct {
		int64_t from_ns;
		int64_t period_ns;
	} modes[16];
};

enum {
	GFXSTAT_SF_SEEN_POSTFRAMEBUFFER = 1 << 0,      /* <= 13 */
	GFXSTAT_SF_SEEN_POSTFRAMEBUFFER_FOR = 1 << 1,  /* 14 up to QPR1 */
	GFXSTAT_SF_SEEN_PRESENT_AND_RELEASE = 1 << 2,  /* 14 QPR2+ */
	GFXSTAT_SF_SEEN_HANDLE_MESSAGE_REFRESH = 1 << 3, /* <= 10 */
	GFXSTAT_SF_SEEN_ON_MESSAGE_REFRESH = 1 << 4,   /* 11-12 */
	GFXSTAT_SF_SEEN_ON_MESSAGE_INVALIDATE = 1 << 5, /* 11-12 */
	GFXSTAT_SF_SEEN_COMMIT_COMPOSITE = 1 << 6,     /* 13+ */
	GFXSTAT_SF_SEEN_BUFFER_TX = 1 << 7,            /* 12+ BLAST */
	GFXSTAT_SF_SEEN_HW_VSYNC_ID = 1 << 8,          /* 10+: HW_VSYNC_<display id> */
	GFXSTAT_SF_SEEN_VSYNC_LEGACY = 1 << 9,         /* 4.x: a single "VSYNC" counter */
	GFXSTAT_SF_SEEN_VSYNC_APPSF = 1 << 10,         /* 12+: VSYNC-appSf */
	GFXSTAT_SF_SEEN_TX = 1 << 11,                  /* 8.1-11: "TX - <layer>" */
};

void gfxstat_sf_frames_summary(const struct gfxstat_sf_frames *sf,
			       struct gfxstat_sf_summary *out);

/**
 * gfxstat_layer_app() - the package in a layer name, e.g. "com.a.b" in
 * "SurfaceView[com.a.b/com.a.b.Main](BLAST)#12"; empty when there is none
 */
struct gfxstat_str gfxstat_layer_app(const char *name, size_t n);

/**
 * gfxstat_frame_csv_header() - the `gfxstat frames` CSV header line, with '\n'
 * gfxstat_frame_csv() - one frame as a CSV row: source,layer,app,pid,present_ns,interval_ns,
 * then the optional fields (empty when absent) and the FrameInfo columns
 * gfxstat_frame_json() - one frame as a JSON object on one line; absent fields are null
 * (docs/output.md: codes as names with the raw value beside them)
 * Return: as snprintf: the length written, or needed when it is >= @cap.
 */
size_t gfxstat_frame_csv_header(char *buf, size_t cap);
size_t gfxstat_frame_csv(const struct gfxstat_frame *f, char *buf, size_t cap);
size_t gfxstat_frame_json(const struct gfxstat_frame *f, char *buf, size_t cap);

/* ---------------------------------------------------------------------------------------- */
/* Metrics of every anchor tool, per layer and per app, from the frames                      */

struct gfxstat_metrics_opts {
	int64_t wait_ns;   /* intervals this long are idle waits, out of the FPS (500 ms) */
	int64_t window_ns; /* per-window FPS series (1 s) */
	int64_t frozen_ns; /* Android's frozen frame (700 ms) */
	double target_fps; /* the seed score's target (60) */
	double kpi_ms;     /* the seed score's KPI (100) */
	int64_t default_period_ns; /* when neither the source nor the intervals give one */
	int64_t settle_ns; /* a scroll ends at a gap this long (200 ms) */
	int scroll_only;   /* every metric over scroll frames only (Taobao's scroll FPS) */
};

/* A scroll: frames driven by input, through the fling, until the content settles. */
struct gfxstat_scroll {
	int64_t start_ns, end_ns; /* first and last present */
	uint32_t frames;
	double fps;
	double hitch_ms_per_s;    /* Taobao scrollHitchRate, in ms per s */
	uint32_t jank;            /* PerfDog jank within the scroll */
	int64_t longest_ns;
};

/* A Taobao jank-FPS window (seed 001): a run of frames that starts at a long one. */
struct gfxstat_jank_window {
	int64_t start_ns;  /* present time of the frame before the window's first interval */
	uint32_t frames;
	int64_t dur_ns;
	int64_t longest_ns;
	double fps;
};

enum gfxstat_matrix_level {
	GFXSTAT_MATRIX_BEST, GFXSTAT_MATRIX_NORMAL, GFXSTAT_MATRIX_MIDDLE, GFXSTAT_MATRIX_HIGH,
	GFXSTAT_MATRIX_FROZEN, GFXSTAT_MATRIX_LEVELS
};

#define GFXSTAT_FT_JANK_BITS 17 /* FrameTimeline JankType bits, JANK_NONE = bit 0 */
#define GFXSTAT_GFXINFO_REASONS 7

/* A janky frame: when, how long, and what it was judged against. */
struct gfxstat_janky_frame {
	int64_t present_ns;  /* NONE for an untimed frame */
	/* its own time where the source gives it (gfxinfo: IntendedVsync to its end; FrameTimeline:
	 * expected start to actual end; a trace: its doFrame's start to its present), else its
	 * interval when counted; after an idle wait (or first): its own duration, else its
	 * overrun, else NONE -- never an idle gap (docs/metrics.md) */
	int64_t length_ns;
	int64_t cadence_ns;  /* the cadence period in force (refresh period x cadence) */
	uint64_t index;      /* its position among the layer's frames, from 0 */
	/* how late it was by Android's own account: a FrameTimeline frame's actual end past its
	 * expected end, a gfxinfo row's GpuCompleted past its FrameDeadline (Android 12+); else
	 * its interval past cadence_ns (a frame with a start: only its latency past the median);
	 * NONE when neither says it was late */
	int64_t late_ns;
};

/* Everything `gfxstat analyze` reports for one layer or one app. */
struct gfxstat_layer_metrics {
	const char *name;           /* layer name, or the package for an app */
	const char *app;
	int is_app;                 /* the frames of all the app's layers, merged */
	enum gfxstat_frame_source source;
	uint64_t frames;
	int64_t first_ns, last_ns;
	double duration_s;
	int64_t period_ns;          /* the most common refresh period of its frames */
	double refresh_hz;
	/* 1: neither the frames nor their intervals gave the period (app-side frames, or an
	 * estimate under 6.9 ms, faster than 144 Hz): period_ns is default_period_ns (60 Hz) */
	int period_assumed;
	uint64_t intervals;         /* counted intervals (shorter than a wait) */
	uint64_t waits;
	double wait_s;
	double active_s;
	double fps, fps_wall;
	double frame_ms_p50, frame_ms_p90, frame_ms_p95, frame_ms_p99, frame_ms_max;
	double fps_median, fps_low_1pct;
	/* at most 131072 windows (36 hours of 1 s windows), 4194304 over all layers: a span
	 * beyond is damage (a time far from the others), not a recording */
	uint32_t nwindows;
	const double *window_fps;   /* FPS of each full window */
	uint64_t jank, big_jank;    /* PerfDog */
	double jank_per_10min, big_jank_per_10min, stutter;
	uint64_t frozen_frames, slow_frames;
	double frozen_share;
	uint64_t a, b, c, d;        /* the seed's buckets */
	double score;
	double hitch_ms_per_s;      /* Apple hitch ratio */
	uint64_t matrix_levels[GFXSTAT_MATRIX_LEVELS];
	uint64_t matrix_dropped;
	double matrix_dropped_per_frame;
	size_t njank_windows;
	const struct gfxstat_jank_window *jank_windows; /* Taobao, FPS under 5/6 refresh */
	size_t nscrolls;
	const struct gfxstat_scroll *scrolls;
	double scroll_hitch_slope;  /* least-squares slope of hitch_ms_per_s over scroll index */
	/* the content's cadence: the refresh-period multiple the layer sustains (2 = 30 FPS at
	 * 60 Hz); slow frames, hitch, seed D and the Taobao windows are judged against it */
	uint32_t cadence_vsyncs;    /* the most common cadence over the counted intervals */
	double cadence_fps;
	uint32_t cadence_changes;   /* times the cadence in force changed */
	struct {                    /* the same figures judged against the refresh period */
		uint64_t slow_frames, d;
		double hitch_ms_per_s;
		size_t njank_windows;
	} refresh;
	int rates_valid;            /* per-10-minute rates mean something: >= 1 min of frames */
	uint64_t untimed;           /* frames with no present (gfxinfo legacy table), in frames */
	/* the one definition of a janky frame (docs/metrics.md): the source's own verdict where
	 * it gives one, else slow against the cadence; janky_frames counts janky_list */
	uint64_t janky_frames;
	size_t njanky_list;
	const struct gfxstat_janky_frame *janky_list; /* in present order; untimed ones last */
	/* Macrobenchmark FrameTimingMetric: frameDurationCpuMs, frameOverrunMs (ms) */
	uint64_t macro_cpu_n, macro_overrun_n;
	double macro_cpu_ms[4], macro_overrun_ms[4]; /* P50, P90, P95, P99 */
	/* Android's own verdicts, where the source gives them */
	uint64_t source_janky;      /* frames the source marked janky (FrameTimeline, JankTracker) */
	uint64_t source_judged;     /* frames that carried a verdict */
	uint64_t ft_jank[GFXSTAT_FT_JANK_BITS];
	uint64_t ft_present[6];
	uint64_t gfxinfo_reasons[GFXSTAT_GFXINFO_REASONS];
	/* the source's own summary where it prints one (dumpsys gfxinfo "Total frames
	 * rendered" / "Janky frames": a window's for a layer, its process's for an app), over
	 * every frame since its stats were reset, not only those read; -1 when none */
	int64_t own_total, own_janky;
};

struct gfxstat_metrics;

void gfxstat_metrics_opts_init(struct gfxstat_metrics_opts *o);
struct gfxstat_metrics *gfxstat_metrics_new(const struct gfxstat_metrics_opts *o);
void gfxstat_metrics_free(struct gfxstat_metrics *m);
/* Where each layer's frames wait until gfxstat_metrics_finish() past a few kB, and its sorts'
 * runs: an unnamed temporary file in @dir, so that memory does not grow with the frames;
 * NULL (the default): in memory. Call before the first frame. Borrowed. */
void gfxstat_metrics_set_tmpdir(struct gfxstat_metrics *m, const char *dir);

/* A gfxstat_frame_fn: frames of each layer must come in present order. */
int gfxstat_metrics_frame(void *m, const struct gfxstat_frame *f);

/**
 * gfxstat_metrics_own_summary() - the source's own count of a layer's (@is_app 0) or an app's
 * frames and janky frames (@janky -1: not given), as it printed it, kept beside the figures
 * computed from the frames (own_total, own_janky); for a name given twice the later wins (a
 * later dump counts on from the same reset). Call before gfxstat_metrics_finish().
 * Return: 0 or GFXSTAT_E_NOMEM.
 */
int gfxstat_metrics_own_summary(struct gfxstat_metrics *m, const char *name, int is_app,
				int64_t total, int64_t janky);

/* Compute everything; then read the layers and apps. Return: 0 or GFXSTAT_E_NOMEM. */
int gfxstat_metrics_finish(struct gfxstat_metrics *m);
size_t gfxstat_metrics_count(const struct gfxstat_metrics *m);
/* The layers of @app, a row gfxstat_metrics_get() gave (their indices for it, in layer
 * order) in *@idx; their number. 0 and NULL for a layer. Valid until gfxstat_metrics_free(). */
size_t gfxstat_metrics_app_layers(const struct gfxstat_metrics *m,
				  const struct gfxstat_layer_metrics *app, const size_t **idx);
/* Layers left out past the 65536-layer limit (each counted once, up to 16 M names; their
 * frames always), and their frames in
 * *@frames when not NULL. 0: none. */
uint64_t gfxstat_metrics_dropped(const struct gfxstat_metrics *m, uint64_t *frames);

/* A janky frame with the layer it belongs to. */
struct gfxstat_janky_ref {
	const struct gfxstat_layer_metrics *layer;
	const struct gfxstat_janky_frame *frame;
};

/**
 * gfxstat_metrics_janky_all() - every janky frame of every layer (apps merge them again, so
 * they are left out), in present order, frames with no present last in their order
 * @out: set to a new array, to free() (NULL when there is none)
 * Return: the number of frames, or (size_t)-1 when out of memory.
 */
size_t gfxstat_metrics_janky_all(const struct gfxstat_metrics *m,
				 struct gfxstat_janky_ref **out);
const struct gfxstat_layer_metrics *gfxstat_metrics_get(const struct gfxstat_metrics *m,
							 size_t i);

/**
 * gfxstat_jank_windows() - Taobao's jank-FPS windows over a sequence of frame intervals
 * @iv: intervals in order; @n: their count; @period_ns: the refresh period
 * @out: windows found (all of them, whatever their FPS); @cap: room in @out
 * Return: the number of windows found (may exceed @cap).
 */
size_t gfxstat_jank_windows(const int64_t *iv, size_t n, int64_t period_ns,
			    struct gfxstat_jank_window *out, size_t cap);

/* ---------------------------------------------------------------------------------------- */
/* Why a frame was late                                                                       */

struct gfxstat_causes;

/**
 * gfxstat_causes_new() - track app sections (Choreographer#doFrame, DrawFrame and what
 * they contain) per process, to explain late frames; feed it with gfxstat_causes_marker()
 */
struct gfxstat_causes *gfxstat_causes_new(void);
void gfxstat_causes_free(struct gfxstat_causes *c);
int gfxstat_causes_marker(void *c, const struct gfxstat_ftrace_line *ev,
			  const struct gfxstat_marker *m);

/**
 * gfxstat_causes_input() - whether the app work that produced @f handled input (an "input"
 * or "deliverInputEvent" section, or a RecyclerView/ListView scroll, inside its doFrame)
 * Return: 1, 0, or -1 when the trace shows no app work for it.
 */
int gfxstat_causes_input(const struct gfxstat_causes *c, const struct gfxstat_frame *f);

/**
 * gfxstat_causes_frame() - the app work that produced frame @f of a SurfaceFlinger layer
 * @f: a frame with pid and latch_ns (else present_ns); frames of a layer in present order
 * @start: set to when the app began the frame: the start of the Choreographer#doFrame that
 *         the DrawFrame which queued it started in (the DrawFrame's own start when there is
 *         none; before Android 5, the doFrame's)
 * @input: set to whether that doFrame handled input (1, 0, or -1 unknown)
 *
 * A process's frames of work are its DrawFrames (doFrames before Android 5). Buffers leave a
 * layer's BufferQueue in the order they were queued, so each frame of a layer takes the oldest
 * frame of work that ended by its latch and after the one the layer's previous frame took, at
 * most 3 back (the queue's depth); a layer's first frame takes the latest. Each call advances
 * the layer: call it once per frame. The input source (gfxstat_source.h) sets ftrace frames'
 * actual_start_ns from it, and the metrics judge such frames from that start.
 * Return: 1 when a frame of work was found, else 0 (@start and @input untouched).
 */
int gfxstat_causes_frame(struct gfxstat_causes *c, const struct gfxstat_frame *f, int64_t *start,
			 int *input);

/**
 * gfxstat_causes_explain() - the primary cause of frame @f, as one line of text
 * @c: the tracker (may be NULL for gfxinfo and FrameTimeline frames)
 * @prev_present: the layer's previous present, or GFXSTAT_NS_NONE
 * Return: as snprintf.
 */
int gfxstat_causes_explain(const struct gfxstat_causes *c, const struct gfxstat_frame *f,
			   int64_t prev_present, char *buf, size_t cap);

/* ---------------------------------------------------------------------------------------- */
/* App-side frames: the app's own doFrame and DrawFrame, for traces without SurfaceFlinger   */

struct gfxstat_app_frames;

/* Longest a frame list held until gfxstat_app_frames_finish() may grow. */
#define GFXSTAT_APP_FRAMES_MAX (1u << 20)

/**
 * gfxstat_app_frames_new() - frames an app rendered, from its atrace sections
 * @fn: receives the frames, all of them at gfxstat_app_frames_finish(), in present order
 * @user: passed to @fn
 *
 * A frame is a RenderThread "DrawFrame" ("DrawFrames <vsync id>" on Android 12+) matched to
 * the main thread's "Choreographer#doFrame" ("Choreographer#doFrame <vsync id>") of the same
 * process, as androidx Macrobenchmark's FrameTimingQuery does: by vsync id when both carry
 * one, else the doFrame that contains the DrawFrame's start (the UI thread waits in the
 * doFrame until RenderThread has synced the frame). A doFrame feeds at most one frame; a
 * DrawFrame with no doFrame (a RenderThread-only animation) is counted, not a frame. The
 * frame has source GFXSTAT_SRC_APP, pid = the app's process, layer "<process> (app-side)"
 * ("pid <n> (app-side)" when no name was given), app = the process name up to ':' when it is a
 * package, present_ns = the end of the last "queueBuffer" inside the DrawFrame, or the end of
 * the DrawFrame when the process traces no queueBuffer (rendered, not proven presented; in a
 * process that does trace queueBuffer, a DrawFrame without one queued nothing and is no
 * frame), duration_ns = doFrame start to DrawFrame end (Macrobenchmark's frameDurationCpu),
 * token = the vsync id or -1, vsync_period_ns from VSYNC-app/VSYNC-sf/HW_VSYNC toggles when
 * the trace has them. Presents strictly increase per process (a frame that would not is
 * dropped and counted). Frames are held until finish because the refresh period, and
 * whether SurfaceFlinger gave frames at all, are known only then: a caller with SF frames
 * frees the tracker without finishing it. Feed it with gfxstat_app_frames_marker().
 */
struct gfxstat_app_frames *gfxstat_app_frames_new(gfxstat_frame_fn fn, void *user);
void gfxstat_app_frames_free(struct gfxstat_app_frames *af);
/* Where the frames held until gfxstat_app_frames_finish() wait past a few MB: an unnamed
 * temporary file in @dir; NULL (the default): in memory. Call before the first frame. */
void gfxstat_app_frames_set_tmpdir(struct gfxstat_app_frames *af, const char *dir);

/* A gfxstat_marker_fn. Return: 0, or GFXSTAT_E_NOMEM. */
int gfxstat_app_frames_marker(void *af, const struct gfxstat_ftrace_line *ev,
			      const struct gfxstat_marker *m);

/**
 * gfxstat_app_frames_task() - name a process (a gfxstat_task_fn: pass it to
 * gfxstat_unwrap_set_task_fn() with @af as user, for systrace's PROCESS DUMP)
 * @pid: the process; @tid: 0 for a process entry (thread entries, @tid > 0, are ignored)
 * @name: its name; copied (up to 127 bytes). The last name given for a pid wins.
 * Return: 0, or GFXSTAT_E_NOMEM.
 */
int gfxstat_app_frames_task(void *af, int32_t pid, int32_t tid, struct gfxstat_str name);

/**
 * gfxstat_app_frames_finish() - end of input: pass every frame to @fn
 * Return: 0, GFXSTAT_E_ABORTED if @fn asked to stop, or GFXSTAT_E_NOMEM.
 */
int gfxstat_app_frames_finish(struct gfxstat_app_frames *af);

struct gfxstat_app_frames_summary {
	uint64_t frames;          /* frames passed (or to be passed) on */
	uint64_t do_frames;       /* Choreographer#doFrame slices on a main thread */
	uint64_t draw_frames;     /* DrawFrame slices */
	uint64_t lone_draws;      /* DrawFrames with no doFrame: not frames */
	uint64_t extra_draws;     /* further DrawFrames inside a doFrame already drawn */
	uint64_t no_buffer;       /* DrawFrames that queued no buffer (queueBuffer traced) */
	uint64_t not_increasing;  /* frames dropped: present not after the previous one */
	uint64_t backwards;       /* DrawFrames ending before their doFrame began: not frames */
	uint64_t over_limit;      /* frames dropped beyond GFXSTAT_APP_FRAMES_MAX */
	unsigned processes;       /* processes with at least one frame */
	int64_t vsync_period_ns;  /* from VSYNC toggles, or 0 */
};

/* What the trace showed (complete after gfxstat_app_frames_finish()). */
void gfxstat_app_frames_summary(const struct gfxstat_app_frames *af,
				struct gfxstat_app_frames_summary *out);

#endif
