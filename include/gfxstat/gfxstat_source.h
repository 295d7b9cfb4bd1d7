/* SPDX-License-Identifier: MIT */
/*
 * The one entry point for any input: bytes in (a file or a stream, in chunks of any size),
 * the model's frames out. It unwraps containers (systrace HTML, atrace -z, gzip, UTF-16),
 * detects the format, runs the right parser (ftrace/atrace text, Perfetto, dumpsys gfxinfo,
 * dumpsys SurfaceFlinger --latency), and passes every frame through the model
 * (gfxstat_model.h). Several inputs fed one after the other are one recording.
 *
 *   source (lib/source) -> parse (lib/input) -> model (lib/model) -> analysis -> report
 */
#ifndef GFXSTAT_SOURCE_H
#define GFXSTAT_SOURCE_H

#include "gfxstat.h"
#include "gfxstat_container.h"
#include "gfxstat_gfxinfo.h"
#include "gfxstat_model.h"
#include "gfxstat_perfetto.h"
#include "gfxstat_sflatency.h"
#include "gfxstat_sysctx.h"

struct gfxstat_source_sink {
	gfxstat_frame_fn frame;   /* every frame of the model, in order; may be NULL */
	gfxstat_marker_fn marker; /* every atrace marker (text and Perfetto), in time order */
	void *user;
	unsigned flags;           /* GFXSTAT_SOURCE_* */
};

/* The caller needs no app sections (no causes, no app-work starts, no input flags): the
 * section tracker is not run, which is faster (gfx's seed windows use presents only). */
#define GFXSTAT_SOURCE_NO_CAUSES 1u
/* The caller wants the causes of late frames from thread states: the scheduler events of the
 * input (sched_switch, sched_waking, cpu_frequency, binder, ...) are read and each doFrame and
 * DrawFrame's thread is timed (gfxstat_sched.h, gfxstat_cause.h). Costs a payload parse per
 * scheduler event; ignored with GFXSTAT_SOURCE_NO_CAUSES. */
#define GFXSTAT_SOURCE_THREAD_STATES 2u
/* The caller wants the system around the frames (gfxstat_sysctx.h): per-CPU frequency and
 * load, clusters, GPU, thermal, battery, power rails, per window, and which scheduler events
 * and counters the input holds (gfxstat_source_sysctx()). Reads every scheduler event. */
#define GFXSTAT_SOURCE_SYSTEM 4u

/* What one input held: the last input's after gfxstat_source_end(). */
struct gfxstat_source_summary {
	const char *name;            /* as given to gfxstat_source_begin() */
	const char *format;          /* "ftrace-text", "perfetto", "gfxinfo", "sf-latency", "empty" */
	enum gfxstat_format fmt;     /* of the decoded content */
	char containers[128];        /* outermost first: "gzip > systrace-html" */
	uint64_t bytes;              /* bytes fed */
	struct gfxstat_stats stats;  /* trace text counters (text and Perfetto print events) */
	int have_sf;                 /* SurfaceFlinger markers were looked for: @sf is valid */
	struct gfxstat_sf_summary sf;
	int have_perfetto;
	struct gfxstat_perfetto_summary perfetto;
	int have_gfxinfo;
	struct gfxstat_gfxinfo_counts gfxinfo;
	int have_sfl;
	struct gfxstat_sfl_stats sfl;
	struct gfxstat_unwrap_stats unwrap;
	int have_app;                /* frames are the app's own (no SurfaceFlinger frame) */
	struct gfxstat_app_frames_summary app;
	struct gfxstat_model_stats model; /* what the model did with this input's frames */
	uint64_t damaged;            /* ERROR-severity counters of any parser: data lost */
	uint64_t held_to_file;       /* bytes of frames held to the input's end that waited in
				      * the temporary file (gfxstat_source_set_tmpdir()) */
	/* dumpsys gfxinfo: each block's own summary (at most 4096), in dump order; valid
	 * until the next gfxstat_source_begin() */
	const struct gfxstat_gfxinfo_own *gfxinfo_own;
	size_t ngfxinfo_own;
};

struct gfxstat_source;

/* A recording; frames and markers go to @sink. NULL on allocation failure. */
struct gfxstat_source *gfxstat_source_new(const struct gfxstat_source_sink *sink);
void gfxstat_source_free(struct gfxstat_source *s);

/**
 * gfxstat_source_begin() - a new input of the recording starts
 * @name: its name (a path, or "-"); a --latency dump does not name its layer, so its file
 * name stands for it
 * Return: 0 or GFXSTAT_E_NOMEM.
 */
int gfxstat_source_begin(struct gfxstat_source *s, const char *name);

/* Bytes of the current input. Return: 0, a sink's non-zero value, or a GFXSTAT_E_* code. */
int gfxstat_source_feed(struct gfxstat_source *s, const void *buf, size_t n);

/**
 * gfxstat_source_end() - the current input ended: parsers finish, held frames are passed on
 * Return: as gfxstat_source_feed(); GFXSTAT_E_OVERLAP when the input overlaps an earlier one
 * in time (gfxstat_model_overlap() says where).
 */
int gfxstat_source_end(struct gfxstat_source *s);

const struct gfxstat_source_summary *gfxstat_source_summary(const struct gfxstat_source *s);
/* The first error of the current input (0: none; GFXSTAT_E_ABORTED: a sink stopped it). */
int gfxstat_source_last_error(const struct gfxstat_source *s);
/* The recording's surfaces (with their frames in the current input) and counters. */
const struct gfxstat_model *gfxstat_source_model(const struct gfxstat_source *s);
struct gfxstat_model *gfxstat_source_model_mut(struct gfxstat_source *s);
/* The app sections seen so far (to explain late frames); valid until the next begin. */
struct gfxstat_causes *gfxstat_source_causes(const struct gfxstat_source *s);
/* With GFXSTAT_SOURCE_SYSTEM: the current input's system series and counts (the series once
 * gfxstat_source_end() made them); valid until the next begin. NULL without the flag. */
const struct gfxstat_sysctx *gfxstat_source_sysctx(const struct gfxstat_source *s);
/* The window of the system series (1 s when 0), for the inputs begun after it. */
void gfxstat_source_set_sys_window(struct gfxstat_source *s, int64_t window_ns);
/* Where a long input's frames held to its end wait, past a few MB (gfxstat_model_set_tmpdir(),
 * gfxstat_perfetto_set_tmpdir()), for the inputs begun after it; NULL: in memory. Borrowed. */
void gfxstat_source_set_tmpdir(struct gfxstat_source *s, const char *dir);
/* Threads an input's parsing may use (gfxstat_perfetto_set_threads(),
 * gfxstat_trace_parser_set_threads()), for the inputs begun after it; 1 (the default): the
 * caller's only. */
void gfxstat_source_set_threads(struct gfxstat_source *s, int threads);

#endif
