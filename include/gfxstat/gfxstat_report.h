/* SPDX-License-Identifier: MIT */
/*
 * Reports people look at: one self-contained HTML file with charts (gfxstat report), and the
 * frames in the Trace Event Format that Perfetto UI and chrome://tracing open (gfxstat export).
 * Both collect frames (gfxstat_frame_fn), then write once the metrics are final, through a
 * write callback: the library never opens files.
 */
#ifndef GFXSTAT_REPORT_H
#define GFXSTAT_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "gfxstat.h"

/* Where output goes. Return 0, or non-zero to stop (the writer then returns it). */
typedef int (*gfxstat_write_fn)(void *user, const void *buf, size_t n);

/* A file embedded at build time (the HTML template, style, script, charting library). */
struct gfxstat_report_asset {
	const char *name;  /* the file's base name, e.g. "template.html" */
	const unsigned char *data;
	size_t len;
};

struct gfxstat_html;

/* Rows of the janky-frame table written into the HTML at most (the count is always given). */
#define GFXSTAT_HTML_MAX_JANKY_ROWS 2000

/**
 * gfxstat_html_new() - an HTML report being collected
 * @assets: the embedded files, ended by an entry with a NULL name; they must include
 *          "template.html", "report.css", "report.js", "uPlot.iife.min.js", "uPlot.min.css"
 *          and "LICENSE" (uPlot's); borrowed until gfxstat_html_free()
 * Return: NULL on allocation failure.
 */
struct gfxstat_html *gfxstat_html_new(const struct gfxstat_report_asset *assets);
void gfxstat_html_free(struct gfxstat_html *h);

/**
 * gfxstat_html_frame() - keep one frame's present time for the charts (a gfxstat_frame_fn)
 * Frames of a layer must come in present order; frames without a present are not drawn,
 * only counted (the janky table finds an untimed frame's cause by its rank among them).
 * Return: 0 or GFXSTAT_E_NOMEM.
 */
int gfxstat_html_frame(void *h, const struct gfxstat_frame *f);

/**
 * gfxstat_html_cause() - the cause of frame @f, should the metrics find it janky
 * @cause: one line (gfxstat_causes_explain()); copied
 * Give the cause of a frame without a present before passing that frame to
 * gfxstat_html_frame(): it is kept under the frame's rank among its layer's untimed ones.
 * Return: 0 or GFXSTAT_E_NOMEM.
 */
int gfxstat_html_cause(struct gfxstat_html *h, const struct gfxstat_frame *f, const char *cause);

struct gfxstat_cause;

/**
 * gfxstat_html_cause_why() - as gfxstat_html_cause() with @c->text, and @c's class,
 * signature and summary kept too: the verdict's top cause (clustered as `analyze` clusters
 * them) and the timeline's colour of the frame (gfxstat_cause.h); @c is copied
 * Return: 0 or GFXSTAT_E_NOMEM.
 */
int gfxstat_html_cause_why(struct gfxstat_html *h, const struct gfxstat_frame *f,
			   const struct gfxstat_cause *c);

/**
 * gfxstat_html_meta() - one row of the report's header ("inputs", "device", "source", ...)
 * Return: 0 or GFXSTAT_E_NOMEM. Both strings are copied.
 */
int gfxstat_html_meta(struct gfxstat_html *h, const char *key, const char *value);

/**
 * gfxstat_html_seed_row() - one fps.csv row of the seed's per-window table
 * @csv: the row as gfx.sh or gfxstat_gfx_window_csv() writes it (with or without '\n')
 * Return: 0 or GFXSTAT_E_NOMEM.
 */
int gfxstat_html_seed_row(struct gfxstat_html *h, const char *csv, size_t n);

/* A gfxstat_gfx_sink window callback: the row formatted as fps.csv, then kept. */
int gfxstat_html_seed_window(void *h, const struct gfxstat_gfx_window *w);

/**
 * gfxstat_html_write() - write the report
 * @m: the finished metrics of the same frames (NULL for a seed folder: its table only)
 * @window_ns: the window of the metrics' per-window FPS series (mo.window_ns)
 * @title: the page title
 * Return: 0, GFXSTAT_E_NOMEM, GFXSTAT_E_INVAL when an asset is missing, or @fn's non-zero.
 */
int gfxstat_html_write(struct gfxstat_html *h, const struct gfxstat_metrics *m,
		       int64_t window_ns, const char *title, gfxstat_write_fn fn, void *user);

/* ---------------------------------------------------------------------------------------- */
/* Views: pages drawn from numbers computed elsewhere (a trend from the history, a comparison) */

/* One plain-HTML table of a view page: it reads without JavaScript. */
struct gfxstat_html_table {
	const char *id;           /* the table's id, or NULL */
	const char *caption;      /* a heading above it, or NULL */
	const char *attr;         /* data-view="..." on the table (e.g. the metric), or NULL */
	size_t ncols, nrows;
	const char *const *head;  /* @ncols column titles */
	const char *const *keys;  /* @ncols data-k names of the cells (NULL: none) */
	const char *const *cells; /* @nrows x @ncols texts, row by row (NULL: an empty cell); the
				   * first cell of a row is also the row's data-key */
};

/* A view page; everything is borrowed for the call only. */
struct gfxstat_html_view {
	const char *kind;         /* "trend" or "compare": what the page's script draws */
	const char *title;
	const char *const *meta;  /* key, value, key, value, ...: the header's rows */
	size_t nmeta;
	const struct gfxstat_html_table *tables;
	size_t ntables;
	const char *data;         /* a JSON object for the charts and the script's tables */
	size_t data_len;
};

/**
 * gfxstat_html_view_write() - write one self-contained view page (the report's template,
 * style, script and charting library, @v's header and tables as plain HTML, @v->data as the
 * page's data block with '<' escaped, so that it cannot end the block)
 * @assets: as gfxstat_html_new() takes them, and "report_views.js" (the view pages' script)
 * Return: 0, GFXSTAT_E_NOMEM, GFXSTAT_E_INVAL when an asset is missing, or @fn's non-zero.
 */
int gfxstat_html_view_write(const struct gfxstat_report_asset *assets,
			    const struct gfxstat_html_view *v, gfxstat_write_fn fn, void *user);

/* ---------------------------------------------------------------------------------------- */
/* Trace Event Format (JSON) export                                                           */

struct gfxstat_trace_event;

/* Return: NULL on allocation failure. */
struct gfxstat_trace_event *gfxstat_trace_event_new(void);
void gfxstat_trace_event_free(struct gfxstat_trace_event *t);

/**
 * gfxstat_trace_event_frame() - keep one frame (a gfxstat_frame_fn); frames without a
 * present are not exported. Return: 0 or GFXSTAT_E_NOMEM.
 */
int gfxstat_trace_event_frame(void *t, const struct gfxstat_frame *f);

/**
 * gfxstat_trace_event_marker() - keep one atrace marker (a gfxstat_marker_fn, as struct
 * gfxstat_source_sink's marker): B and E markers become the app's own sections
 * (Choreographer#doFrame, DrawFrame, ...) in the export; others are ignored.
 * Return: 0 or GFXSTAT_E_NOMEM.
 */
int gfxstat_trace_event_marker(void *t, const struct gfxstat_ftrace_line *ev,
			       const struct gfxstat_marker *m);

/**
 * gfxstat_trace_event_write() - write {"traceEvents":[...]}: per layer one track (a thread
 * of process "gfxstat frames") where each frame is a complete event ("X") from its latch (else
 * its FrameTimeline expected start, else its layer's previous present) to its present, named
 * "frame" or "janky frame" (category "frame" or "frame,janky") by @m's janky list; per layer an
 * FPS counter ("C") per metrics window; the sections kept by gfxstat_trace_event_marker() as
 * complete events (category "section") on their own process and thread (named by
 * "thread_name" metadata), B matched with the next E of the same thread; a section still open
 * at the end lasts to the last section marker (args "unfinished").
 * Timestamps are microseconds of the trace's clock, with nanosecond decimals.
 * Return: 0, GFXSTAT_E_NOMEM, or @fn's non-zero.
 */
int gfxstat_trace_event_write(struct gfxstat_trace_event *t, const struct gfxstat_metrics *m,
			      int64_t window_ns, gfxstat_write_fn fn, void *user);

struct gfxstat_series;

/**
 * gfxstat_trace_event_series() - keep one system series (gfxstat_sysctx.h: a CPU's frequency
 * or load, a cluster's, the GPU's, a temperature, the battery, a rail's power), copied.
 * gfxstat_trace_event_write() gives it a counter track ("C" events) on process 2, "gfxstat
 * system": one event per window that has a value, at the window's start, its arg named by
 * the series' unit ({"kHz":1800000}), and one with the last value at the last window's end.
 * Return: 0, GFXSTAT_E_NOMEM, or GFXSTAT_E_LIMIT past GFXSTAT_TRACE_MAX_VALUES values kept.
 */
#define GFXSTAT_TRACE_MAX_VALUES (1u << 22)
int gfxstat_trace_event_series(struct gfxstat_trace_event *t, const struct gfxstat_series *s);

#endif
