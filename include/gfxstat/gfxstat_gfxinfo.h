/* SPDX-License-Identifier: MIT */
/*
 * libgfxstat: `dumpsys gfxinfo <pkg> [framestats]` parser and hwui's own JankTracker.
 *
 * Ownership: gfxstat_gfxinfo_new() pairs with gfxstat_gfxinfo_free(), which accepts NULL.
 * Every pointer and slice handed to a callback (frames, blocks, table rows) borrows the
 * parser's memory and is valid only during that callback.
 */
#ifndef GFXSTAT_GFXINFO_H
#define GFXSTAT_GFXINFO_H

#include <stddef.h>
#include <stdint.h>

#include "gfxstat.h"

/* ---------------------------------------------------------------------------------------- */
/* ProfileData: the summary hwui prints, and the histogram behind it                          */

/* JankTracker's jank types, in Android's JankType order (bit i of gfxstat_frame.jank_reasons). */
enum gfxstat_jank_type {
	GFXSTAT_JANK_MISSED_VSYNC,           /* "Missed Vsync" */
	GFXSTAT_JANK_HIGH_INPUT_LATENCY,     /* "High input latency" */
	GFXSTAT_JANK_SLOW_UI,                /* "Slow UI thread" */
	GFXSTAT_JANK_SLOW_SYNC,              /* "Slow bitmap uploads" */
	GFXSTAT_JANK_SLOW_RT,                /* "Slow issue draw commands" ("Slow draw" once) */
	GFXSTAT_JANK_MISSED_DEADLINE,        /* "Frame deadline missed" (8+) */
	GFXSTAT_JANK_MISSED_DEADLINE_LEGACY, /* "Frame deadline missed (legacy)" (12+) */
	GFXSTAT_JANK_COUNT
};

/*
 * gfxstat_frame.jank_reasons: bit i is type i; this bit more says that High input latency
 * was reported twice for the frame (by both of Android 12+'s trackers), as it is counted.
 */
#define GFXSTAT_JANK_REASON_TWICE (1u << GFXSTAT_JANK_COUNT)

/**
 * gfxstat_jank_reason_count() - how much a frame adds to "Number <type>"
 * @reasons: a gfxstat_frame's jank_reasons
 * @t: the jank type
 *
 * Summed over a window's frames this gives the recomputed jank_counts exactly.
 * Return: 0, 1, or 2 (High input latency reported by both 12+ trackers).
 */
unsigned gfxstat_jank_reason_count(uint32_t reasons, enum gfxstat_jank_type t);

#define GFXSTAT_HIST_FAST 57   /* 1-4 ms wide buckets, labels 5 .. 133 ms */
#define GFXSTAT_HIST_SLOW 97   /* 50 ms wide buckets, labels 150 .. 4950 ms */
#define GFXSTAT_HIST_BUCKETS (GFXSTAT_HIST_FAST + GFXSTAT_HIST_SLOW)
#define GFXSTAT_GPU_BUCKETS 26 /* labels 1 .. 25 ms, then 4950 */

/* Android releases whose JankTracker differs (FORMATS.md section 5). */
enum gfxstat_gfxinfo_rules {
	GFXSTAT_RULES_UNKNOWN = 0,
	GFXSTAT_RULES_6,  /* 6.0-7.0: 14 columns, addFrame, Flags 1 and 4 exempt */
	GFXSTAT_RULES_7,  /* 7.1: 16 columns, addFrame, 5 jank types */
	GFXSTAT_RULES_8,  /* 8.x-9: finishFrame with a swap deadline */
	GFXSTAT_RULES_10, /* 10-11: as 8, 10 % stuffing margin, GPU histogram */
	GFXSTAT_RULES_12, /* 12-15: GpuCompleted vs FrameDeadline, plus the legacy tracker */
};

/*
 * One ProfileData summary: parsed from the dump, or recomputed from PROFILEDATA rows.
 * Fields the source does not give are -1 (counts, percentiles) or GFXSTAT_NS_NONE.
 */
struct gfxstat_profile {
	int64_t stats_since_ns;
	int64_t total_frames;
	int64_t janky_frames;
	int64_t janky_legacy;               /* 12+ only */
	int32_t percentile[4];              /* 50th, 90th, 95th, 99th, in ms */
	int64_t jank_counts[GFXSTAT_JANK_COUNT];
	int hist_entries;                   /* HISTOGRAM entries read (154 when complete) */
	uint32_t hist[GFXSTAT_HIST_BUCKETS];
	int32_t gpu_percentile[4];
	int gpu_hist_entries;               /* 26 when complete; 0 before Android 10 */
	uint32_t gpu_hist[GFXSTAT_GPU_BUCKETS];
	int filtered;                       /* "Note: Data has been filtered!" */
	int lines;                          /* summary lines read into this record */
};

/**
 * gfxstat_profile_init() - a record with every field "absent" and empty histograms
 */
void gfxstat_profile_init(struct gfxstat_profile *p);

/**
 * gfxstat_profile_bucket() - ProfileData::frameCountIndexForFrameTime plus the slow path
 * @duration_ns: a frame time
 *
 * Return: the HISTOGRAM bucket (0..153) Android puts the frame in, its quirks included:
 * 136-199 ms land in the "150ms" bucket.
 */
unsigned gfxstat_profile_bucket(int64_t duration_ns);

/**
 * gfxstat_profile_bucket_ms() - the label of HISTOGRAM bucket @i, in ms (5, 6, ... 4950)
 * gfxstat_profile_gpu_bucket_ms() - the label of GPU HISTOGRAM bucket @i (1 .. 25, 4950)
 * Return: the label, or 0 when @i is out of range.
 */
uint32_t gfxstat_profile_bucket_ms(unsigned i);
uint32_t gfxstat_profile_gpu_bucket_ms(unsigned i);

/**
 * gfxstat_profile_percentile() - ProfileData::findPercentile over @p's histogram
 * @pct: 50, 90, 95 or 99 (any 0..100)
 * Return: the bucket label in ms, walking from the slow end as Android does; 0 if empty.
 */
uint32_t gfxstat_profile_percentile(const struct gfxstat_profile *p, int pct);

/**
 * gfxstat_profile_gpu_percentile() - ProfileData::findGPUPercentile
 */
uint32_t gfxstat_profile_gpu_percentile(const struct gfxstat_profile *p, int pct);

/**
 * gfxstat_jank_type_name() - "Missed Vsync", ... as in the "Number ...:" lines
 */
const char *gfxstat_jank_type_name(enum gfxstat_jank_type t);

/**
 * gfxstat_gfxinfo_rules_name() - "6.0-7.0", "7.1", "8-9", "10-11", "12+" or "unknown"
 */
const char *gfxstat_gfxinfo_rules_name(enum gfxstat_gfxinfo_rules r);

/* ---------------------------------------------------------------------------------------- */
/* The dump parser                                                                           */

/* F(name, severity, "what it counts"); severities as enum gfxstat_severity. */
#define GFXSTAT_GFXINFO_COUNTS(F)                                                          \
	F(processes, INFO, "'** Graphics info for pid' sections")                          \
	F(blocks, INFO, "process and window blocks")                                       \
	F(profiledata, INFO, "---PROFILEDATA--- blocks")                                   \
	F(rows, INFO, "framestats rows")                                                   \
	F(rows_flagged, INFO, "framestats rows with non-zero Flags (kept, marked)")        \
	F(rows_incomplete, INFO, "rows with no usable FrameCompleted (not counted)")       \
	F(rows_malformed, WARN, "framestats rows that are not integers, skipped")          \
	F(rows_short, WARN, "framestats rows with fewer fields than the header, skipped")  \
	F(rows_over_limit, WARN, "framestats rows over the per-window limit, skipped")     \
	F(header_swapped, INFO, "headers naming FrameInterval,FrameStartTime (12-14 bug)") \
	F(header_unknown_columns, INFO, "framestats columns with unknown names, ignored")  \
	F(header_malformed, WARN, "PROFILEDATA headers that do not start with Flags")      \
	F(profiledata_unterminated, WARN, "PROFILEDATA blocks cut off by the input end")   \
	F(summary_lines, INFO, "summary lines read")                                       \
	F(summary_malformed, WARN, "summary lines whose value did not parse")              \
	F(table_rows, INFO, "'Draw [Prepare] Process Execute' table rows")                 \
	F(presents_estimated, INFO, "presents estimated (DisplayPresentTime 0 or stale)")  \
	F(presents_moved, INFO, "presents under a refresh after the last, to the next")    \
	F(utf16, INFO, "streams read as UTF-16LE")

#define GFXSTAT_GFXINFO_COUNT__(name, sev, doc) GFXSTAT_GFXINFO_##name,
enum gfxstat_gfxinfo_count {
	GFXSTAT_GFXINFO_COUNTS(GFXSTAT_GFXINFO_COUNT__)
	GFXSTAT_GFXINFO_COUNT_N
};
#undef GFXSTAT_GFXINFO_COUNT__

struct gfxstat_gfxinfo_counts {
	uint64_t v[GFXSTAT_GFXINFO_COUNT_N];
};

/**
 * gfxstat_gfxinfo_count_name() - "rows_malformed", ...
 * gfxstat_gfxinfo_count_doc() - one line on what it counts
 * gfxstat_gfxinfo_count_severity() - how much a non-zero value matters
 */
const char *gfxstat_gfxinfo_count_name(enum gfxstat_gfxinfo_count c);
const char *gfxstat_gfxinfo_count_doc(enum gfxstat_gfxinfo_count c);
enum gfxstat_severity gfxstat_gfxinfo_count_severity(enum gfxstat_gfxinfo_count c);

enum gfxstat_gfxinfo_block_kind {
	GFXSTAT_BLOCK_PROCESS = 1, /* the summary right under "** Graphics info for pid" */
	GFXSTAT_BLOCK_WINDOW,      /* a "Window: ..." / "Package: ..." / "\t... (visibility=N)" */
};

/* One process or window block, passed when it ends (next block, or end of input). */
struct gfxstat_gfxinfo_block {
	enum gfxstat_gfxinfo_block_kind kind;
	int32_t pid;                  /* -1 before any "** Graphics info for pid" line */
	struct gfxstat_str app;       /* the process name in [...] */
	struct gfxstat_str name;      /* window name; empty for a process block */
	int has_summary;              /* the dump printed a summary for this block */
	struct gfxstat_profile dump;  /* that summary */
	int has_rows;                 /* a ---PROFILEDATA--- block was read */
	int columns;                  /* header columns (14, 16, 17, 18, 22, 23, 24, 25) */
	int header_swapped;           /* header said FrameInterval,FrameStartTime: swapped back */
	enum gfxstat_gfxinfo_rules rules; /* rules the recomputation used */
	uint64_t rows;                /* rows read */
	uint64_t rows_flagged;        /* of which Flags != 0 */
	uint64_t rows_incomplete;     /* of which never finished: FrameCompleted 0 or absurd;
					 rows - rows_incomplete - calc.total_frames more are left
					 out because their duration is 0 (12+) */
	int64_t frame_interval_ns;    /* the period used for the pre-12 and legacy rules */
	struct gfxstat_profile calc;  /* recomputed from the rows, for this version */
	uint64_t table_rows;          /* "Draw Prepare Process Execute" rows */
	uint64_t table_janky;         /* of which over 16 ms (hwui FrameInfoVisualizer) */
	int table_columns;            /* 4, or 3 for Android 4.1-4.4's "Draw Process Execute" */
	int64_t uptime_ns;            /* the dump's "Uptime:" (ms, CLOCK_MONOTONIC), or NONE */
	/* present times of the counted rows (docs/gfxinfo.md, "Present times"): */
	uint64_t presents_real;       /* DisplayPresentTime as dumped */
	uint64_t presents_estimated;  /* none or stale: completion + present_latency_ns */
	uint64_t presents_moved;      /* under 0.98 period after the previous: to the next one */
	int64_t present_latency_ns;   /* median DisplayPresentTime - completion; NONE if no
					 real present (then completion itself is the basis) */
};

/*
 * A block's own summary as the dump printed it (ProfileData::dump: "Total frames rendered",
 * "Janky frames"): Android's verdict over every frame since the stats were reset, where the
 * rows or the profile table hold only the last ones. Kept by the entry point per input
 * (gfxstat_source_summary), so that analyze shows it beside the figures of the frames.
 */
struct gfxstat_gfxinfo_own {
	enum gfxstat_gfxinfo_block_kind kind; /* a process's summary (its app), or a window's */
	int32_t pid;
	char app[512];                /* the process name in [...], "" when none */
	char name[512];               /* the window (the frames' layer); "" for a process */
	int64_t total_frames;         /* "Total frames rendered" */
	int64_t janky_frames;         /* "Janky frames", -1 when not printed */
};

/*
 * A row of the legacy "Draw Prepare Process Execute" table (debug.hwui.profile); Android
 * 4.1-4.4 print "Draw Process Execute" (core/java/android/view/HardwareRenderer.java, three
 * floats a frame): there prepare_ns is GFXSTAT_NS_NONE.
 */
struct gfxstat_gfxinfo_table_row {
	int64_t draw_ns, prepare_ns, process_ns, execute_ns;
};

struct gfxstat_gfxinfo_sink {
	/*
	 * One per PROFILEDATA row, in order, when the block ends; source GFXSTAT_SRC_GFXINFO.
	 * A block without rows gives one per legacy table row instead (present_ns NONE).
	 * Counted rows (janky >= 0) have a present_ns and a duration_ns, on one basis, strictly
	 * increasing, >= 0.98 period apart; the others neither. A header of no release's length
	 * with no summary is judged by the release its columns name (docs/gfxinfo.md).
	 */
	gfxstat_frame_fn frame;
	/* one per block, after its frames */
	int (*block)(void *user, const struct gfxstat_gfxinfo_block *b);
	/* one per legacy table row, as read; @b is the block being read (its counts partial) */
	int (*table_row)(void *user, const struct gfxstat_gfxinfo_block *b,
			 const struct gfxstat_gfxinfo_table_row *row);
	void *user;
};

struct gfxstat_gfxinfo_opts {
	int android;                 /* force a release's rules: 6, 7, 8 ... 15; 0 = from the dump */
	int64_t frame_interval_ns;   /* vsync period for pre-12 and legacy rules; 0 = from the
					rows (FrameInterval, else the IntendedVsync spacing) */
	int64_t forgiveness_ns;      /* dequeue-time forgiveness (compositor offset + 4 ms);
					the dump does not show it: 0 */
	size_t max_rows;             /* rows kept per window; 0 = 4096 */
};

/**
 * gfxstat_gfxinfo_opts_init() - defaults: rules from the dump, nothing forced
 */
void gfxstat_gfxinfo_opts_init(struct gfxstat_gfxinfo_opts *o);

struct gfxstat_gfxinfo;

/**
 * gfxstat_gfxinfo_new() - parse `dumpsys gfxinfo` text fed in chunks
 * @o: options, or NULL for the defaults
 * @sink: callbacks; any may be NULL
 * @stats: line-reader counters (bytes, lines, line_too_long); may be NULL
 *
 * Accepts UTF-8 (with or without a BOM), UTF-16LE with a BOM, LF, CRLF and CRCRLF. Every
 * block of every process is read: the summary lines, the legacy table, PROFILEDATA in any
 * column layout from Android 6 to 16. Rows of a window are kept (up to max_rows) until the
 * block ends, then run through the JankTracker of the dump's release and passed to
 * @sink->frame; unknown lines are skipped.
 * Return: NULL on allocation failure.
 */
struct gfxstat_gfxinfo *gfxstat_gfxinfo_new(const struct gfxstat_gfxinfo_opts *o,
					    const struct gfxstat_gfxinfo_sink *sink,
					    struct gfxstat_stats *stats);
void gfxstat_gfxinfo_free(struct gfxstat_gfxinfo *g);

/**
 * gfxstat_gfxinfo_feed() - push a chunk; chunks need not end on a line or character
 * Return: 0, GFXSTAT_E_ABORTED if a callback asked to stop, or GFXSTAT_E_NOMEM.
 */
int gfxstat_gfxinfo_feed(struct gfxstat_gfxinfo *g, const void *buf, size_t n);

/**
 * gfxstat_gfxinfo_finish() - end of a stream: flush the last line and the open block
 * Return: as gfxstat_gfxinfo_feed(). A new stream may follow.
 */
int gfxstat_gfxinfo_finish(struct gfxstat_gfxinfo *g);

/**
 * gfxstat_gfxinfo_counts() - the parser's counters
 */
const struct gfxstat_gfxinfo_counts *gfxstat_gfxinfo_counts(const struct gfxstat_gfxinfo *g);

/**
 * gfxstat_gfxinfo_fps_between() - frame rate between two summaries of one window or process
 * @a: the earlier block (has_summary, dump.total_frames and uptime_ns set)
 * @b: the later one
 * @fps: set to (b.total - a.total) / (b.uptime - a.uptime)
 *
 * "Total frames rendered" counts since "Stats since"; when both dumps share that reset time
 * the frames between them are the difference, over the time between the dumps ("Uptime:"
 * lines, the clock of "Stats since").
 * Return: 0; GFXSTAT_E_INVAL when a field is missing, the stats were reset in between
 * (Stats since differs) or the dumps are not in order.
 */
int gfxstat_gfxinfo_fps_between(const struct gfxstat_gfxinfo_block *a,
				const struct gfxstat_gfxinfo_block *b, double *fps);

#endif
