/* SPDX-License-Identifier: MIT */
/*
 * What metrics.c (the frames in, the apps, the results out) and metrics_compute.c (each
 * stream's figures) share: a stream's frames, kept in an external store so that memory does
 * not grow with them.
 */
#ifndef GFXSTAT_METRICS_LOCAL_H
#define GFXSTAT_METRICS_LOCAL_H

#include "../gx_local.h"

/* What a frame says about itself, besides its present. */
struct fx {
	int64_t overrun; /* its end - its own deadline (Macrobenchmark frameOverrun), or NONE */
	int64_t dur;     /* its own work (duration_ns), or NONE */
	int64_t start;   /* SurfaceFlinger-marker frames: when the app began it, or NONE */
	int64_t own_late; /* its end - its deadline by the source's own account, or NONE */
	int64_t len;     /* its own length as a janky frame shows it (frame_len()), or NONE */
	signed char verdict; /* the source's own janky verdict: 1, 0, or -1 none */
};

/* A timed frame of a stream, as its store keeps it: its present, refresh period (NONE when
 * unknown), render time (NONE), whether its app work handled input (1/0, -1 unknown), and
 * what it says about itself. */
struct frec {
	int64_t present, period, render;
	struct fx x;
	signed char input;
};

struct stream {
	char *name, *app;
	int is_app;
	enum gfxstat_frame_source source;
	/* its frames in present order (struct frec) and those with no present (struct fx,
	 * gfxinfo's legacy table), in stores that go to the metrics' temporary file past a few
	 * kB each (gx_xsort without a comparator: read back in the order put) */
	struct gx_xsort frames, untimed;
	size_t src;      /* the stream whose stores hold its frames: itself, or (an app of one
			  * layer whose presents strictly increase) that layer */
	size_t n, nu;    /* frames, untimed frames */
	int dup;         /* two of its frames share a present */
	struct gfxstat_janky_frame *jl;
	size_t njl, capjl;
	struct gfxstat_scroll *scrolls;
	size_t mbeg, mn; /* an app's layers: members[mbeg .. mbeg + mn) */
	struct gfxstat_layer_metrics m;
	double *window_fps;
	struct gfxstat_jank_window *jw;
	size_t jwcap; /* room in jw: a window takes at least one interval, so <= intervals */
	int64_t last;
};

/* Compute @s's figures (s->m), reading the stores of @src (the stream s->src); its sorts'
 * runs go to @file. Return: 0, GFXSTAT_E_NOMEM or GFXSTAT_E_IO. */
GFXSTAT_HIDDEN int gx_metrics_compute(const struct gfxstat_metrics_opts *o, struct stream *s,
				      struct stream *src, struct gx_xfile *file,
				      size_t *windows_left);

#endif
