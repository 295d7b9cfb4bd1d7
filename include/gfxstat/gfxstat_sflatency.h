/* SPDX-License-Identifier: MIT */
/*
 * dumpsys SurfaceFlinger --latency <layer> and --list.
 *
 * Ownership: gfxstat_sfl_new() pairs with gfxstat_sfl_free(), which accepts NULL. The layer
 * name is copied. Frames and gaps handed to callbacks are valid only during the callback.
 * The caller owns the counters it passes in.
 *
 * A --latency dump is a refresh-period line, then 127 rows "desired \t actual \t ready"
 * (FrameTracker's ring, oldest first; tabs or runs of spaces), then an empty line. Polling
 * the same layer gives dumps whose windows overlap: the parser stitches them so that each
 * frame is passed on once, in order, and a poll that came too late (the new window holds
 * no frame already seen, although the ring was full) is reported as a gap, never bridged
 * by a long frame interval.
 */
#ifndef GFXSTAT_SFLATENCY_H
#define GFXSTAT_SFLATENCY_H

#include <stddef.h>
#include <stdint.h>

#include "gfxstat.h"

/* Fence::SIGNAL_TIME_PENDING: the present fence had not signalled when dumped. */
#define GFXSTAT_SFL_PENDING INT64_MAX
/* FrameTracker's ring: 128 records, 127 printed. */
#define GFXSTAT_SFL_RING_ROWS 127
/* Rows kept per dump (several blocks when several layers share the name); more are dropped. */
#define GFXSTAT_SFL_MAX_ROWS 4096

/* F(name, severity, "what it counts"), as GFXSTAT_STATS */
#define GFXSTAT_SFL_STATS(F)                                                               \
	F(dumps, INFO, "--latency dumps (period lines)")                                   \
	F(rows, INFO, "rows read")                                                         \
	F(frames, INFO, "frames passed on")                                                \
	F(empty_rows, INFO, "unused all-zero ring rows")                                   \
	F(pending_rows, INFO, "rows whose present fence was pending (taken from a later dump)") \
	F(pending_at_end, WARN, "frames still pending in the last dump, not passed on")    \
	F(invalid_rows, WARN, "rows with an invalid (-1) present time, not passed on")     \
	F(overlap_rows, INFO, "rows already seen in the previous dump")                    \
	F(gaps, WARN, "polls too far apart: frames between two dumps are missing")         \
	F(resets, WARN, "dumps unrelated to the previous one (layer recreated or cleared)") \
	F(stale_dumps, INFO, "dumps with no frame newer than the last one seen")           \
	F(unresponsive, WARN, "'SurfaceFlinger appears to be unresponsive' warnings")      \
	F(extra_blocks, WARN, "blocks of other layers with the same name, skipped")        \
	F(no_rows, WARN, "dumps with a period line but no rows (layer name not found?)")   \
	F(rows_without_period, WARN, "rows before any period line, skipped")               \
	F(too_many_rows, WARN, "rows over the per-dump limit, skipped")                    \
	F(malformed, WARN, "lines that are neither a period, a row nor a known message")   \
	F(line_too_long, WARN, "lines over the length limit, skipped")                     \
	F(bad_period, ERROR, "period lines over 2^40 ns (no display's), read as no period")

#define GFXSTAT_SFL_STAT__(name, sev, doc) GFXSTAT_SFL_STAT_##name,
enum gfxstat_sfl_stat {
	GFXSTAT_SFL_STATS(GFXSTAT_SFL_STAT__)
	GFXSTAT_SFL_STAT_COUNT
};
#undef GFXSTAT_SFL_STAT__

struct gfxstat_sfl_stats {
	uint64_t v[GFXSTAT_SFL_STAT_COUNT];
};

const char *gfxstat_sfl_stat_name(enum gfxstat_sfl_stat s);
const char *gfxstat_sfl_stat_doc(enum gfxstat_sfl_stat s);
enum gfxstat_severity gfxstat_sfl_stat_severity(enum gfxstat_sfl_stat s);

/* One row as printed: desiredPresentTime, actualPresentTime, frameReadyTime. */
struct gfxstat_sfl_row {
	int64_t desired_ns;
	int64_t actual_ns;
	int64_t ready_ns;
};

/**
 * gfxstat_sfl_row_parse() - parse one row "desired actual ready"
 * @s: the line, without '\n' (a trailing '\r' is ignored); tabs or spaces between columns
 * @n: its length
 * @out: filled on GFXSTAT_PARSE_OK
 * Return: GFXSTAT_PARSE_OK for three signed 64-bit integers, GFXSTAT_PARSE_UNSUPPORTED for
 * a blank line, GFXSTAT_PARSE_FAIL for anything else (the period line included).
 */
enum gfxstat_parse_res gfxstat_sfl_row_parse(const char *s, size_t n,
					     struct gfxstat_sfl_row *out);

enum gfxstat_sfl_gap_kind {
	GFXSTAT_SFL_GAP = 1,   /* the ring was full and shares no frame with the previous dump */
	GFXSTAT_SFL_RESET,     /* the ring restarted (not full, no shared frame) */
};

/* A discontinuity between two dumps. Times are presents; NONE when unknown. */
struct gfxstat_sfl_gap {
	enum gfxstat_sfl_gap_kind kind;
	uint64_t dump;         /* 0-based index of the dump that starts after the gap */
	int64_t last_present_ns; /* last frame passed on before the gap */
	int64_t next_present_ns; /* first frame after it */
	int64_t period_ns;     /* the refresh period of the dump after the gap */
};

struct gfxstat_sfl_sink {
	gfxstat_frame_fn frame;  /* every stitched frame, oldest first */
	int (*gap)(void *user, const struct gfxstat_sfl_gap *g); /* may be NULL */
	void *user;
};

struct gfxstat_sfl;

/**
 * gfxstat_sfl_new() - make a --latency parser
 * @layer: the layer name the dumps were taken for (the dump does not say); may be NULL
 * @sink: where frames and gaps go
 * @stats: counters to update; may be NULL
 *
 * Frames carry source GFXSTAT_SRC_SF_LATENCY, present_ns = actualPresentTime,
 * desired_present_ns, latch_ns = frameReadyTime (NONE when pending), vsync_period_ns from
 * the dump's period line, and interval_ns from the previous frame (NONE for the first
 * frame, after a gap or reset, and after a row with an invalid present time).
 * Return: NULL when out of memory.
 */
struct gfxstat_sfl *gfxstat_sfl_new(const char *layer, const struct gfxstat_sfl_sink *sink,
				    struct gfxstat_sfl_stats *stats);
void gfxstat_sfl_free(struct gfxstat_sfl *p);

/**
 * gfxstat_sfl_feed() - push text; chunks may be cut anywhere. Dumps may follow each other
 * in one stream (a new period line starts a new dump).
 * Return: 0, GFXSTAT_E_ABORTED if a callback asked to stop, or GFXSTAT_E_NOMEM.
 */
int gfxstat_sfl_feed(struct gfxstat_sfl *p, const void *buf, size_t n);

/**
 * gfxstat_sfl_end_file() - the current stream (one file of a directory of polls) ended:
 * its last line is read and its dump is stitched. Feeding may go on with the next file.
 * Return: as gfxstat_sfl_feed().
 */
int gfxstat_sfl_end_file(struct gfxstat_sfl *p);

/**
 * gfxstat_sfl_finish() - end of all input: frames still pending are counted
 * (pending_at_end), not passed on.
 * Return: as gfxstat_sfl_feed().
 */
int gfxstat_sfl_finish(struct gfxstat_sfl *p);

/* ---------------------------------------------------------------------------------------- */
/* --list                                                                                    */

/**
 * gfxstat_sflist_line() - the layer name on one line of --list output
 * @s: the line, without '\n'; @n: its length
 * @name: set to the name (a slice of @s) on GFXSTAT_PARSE_OK
 *
 * Accepted forms: a bare name, one per line (Android 7-14, "com.pkg/com.pkg.Main#0",
 * "SurfaceView[com.pkg/com.pkg.Main](BLAST)#12"), and Android 15's debug wrapper
 * "RequestedLayerState{<name> parentId=N relativeParentId=N mirrorId=... !handle z=N
 * layerStack=N}" (RequestedLayerState::getDebugString; every field after the name is
 * optional), from which the bare name is taken. Trailing '\r' and spaces are ignored.
 * Return: GFXSTAT_PARSE_OK, or GFXSTAT_PARSE_UNSUPPORTED for a blank line (or an empty name).
 */
enum gfxstat_parse_res gfxstat_sflist_line(const char *s, size_t n, struct gfxstat_str *name);

/**
 * gfxstat_sflist_score() - how likely a --list name is the frame-producing layer of @pkg
 * @name: a name from gfxstat_sflist_line()
 * @pkg: the package, e.g. "com.tencent.tmgp.sgame"; NULL or "" ranks any app layer
 *
 * Return: 0 for a layer that cannot be it (no @pkg in it; a container such as
 * "ActivityRecord{...}", "Task=", "WindowToken", "Surface(name=...)", a "Background for",
 * "Dim layer", "Letterbox", "Splash Screen", "animation-leash"), else a rank, higher is
 * better: SurfaceView[...] / "SurfaceView - ..." (games, video) 3, a BLAST buffer layer or
 * "<pkg>/<activity>#N" window 2, anything else naming @pkg 1. Pick the highest; on a tie,
 * the last listed.
 */
int gfxstat_sflist_score(struct gfxstat_str name, const char *pkg);

#endif
