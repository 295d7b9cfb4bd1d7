/* SPDX-License-Identifier: MIT */
/*
 * The model stage: every parser's frames pass through one filter that gives each surface one
 * identity, names its app, reconciles sources that describe the same frames, and guarantees
 * what every later stage relies on: per layer, presents strictly increase and intervals are
 * the difference of consecutive presents; every frame carries the refresh period in force.
 *
 *   parse (lib/input) -> model (lib/model) -> analysis (lib/analysis) -> report (lib/report)
 */
#ifndef GFXSTAT_MODEL_H
#define GFXSTAT_MODEL_H

#include "gfxstat.h"

/**
 * gfxstat_layer_canonical() - the one name of a surface, whatever the source calls it
 * @name: a layer name as a source writes it; @n: its length
 *
 * FrameTimeline names a surface by its transaction name, "TX - " + the layer name
 * (frameworks/native services/surfaceflinger/Layer.h: mTransactionName{"TX - " + mName}), and
 * SurfaceFlinger's Android 12+ counter is "BufferTX - " + the layer name; both prefixes go.
 * Return: a slice of @name.
 */
struct gfxstat_str gfxstat_layer_canonical(const char *name, size_t n);

/* F(name, severity, "what it counts") */
#define GFXSTAT_MODEL_STATS(F)                                                             \
	F(frames_in, INFO, "frames from the parsers")                                      \
	F(frames_out, INFO, "frames in the model")                                         \
	F(not_increasing, WARN, "frames whose present was not after their layer's previous one, "  \
				"dropped")                                                 \
	F(within_one_vsync, WARN, "frames presented within 3/4 of a vsync of their layer's "  \
				  "previous one (one buffer per refresh), dropped")                \
	F(untimed, INFO, "records with neither a present nor a duration (not frames)")      \
	F(repeated, INFO, "gfxinfo rows already read from an earlier poll")                \
	F(markers_compared, INFO, "SurfaceFlinger marker frames of layers FrameTimeline covers")  \
	F(markers_agree, INFO, "of them, matched by FrameTimeline: the same vsync id, else a "     \
			       "present within one vsync")                                 \
	F(markers_by_token, INFO, "of them, whose refresh named its vsync id (Android 12+)")     \
	F(markers_replaced, INFO, "marker frames replaced by FrameTimeline's (same frames)")    \
	F(identical_inputs, WARN, "inputs byte-identical to an earlier one, read once")     \
	F(truncated_names, WARN, "frames whose process name is the kernel's cut 15-character "  \
				  "name, which no single package of the recording ends with: "  \
				  "app left empty")                                            \
	F(out_of_range, ERROR, "frames with a time beyond any clock (over 2^60 ns) or a "   \
			       "refresh period over 2^40 ns, dropped as damaged")

#define GFXSTAT_MODEL_STAT__(name, sev, doc) GFXSTAT_MODEL_##name,
enum gfxstat_model_stat {
	GFXSTAT_MODEL_STATS(GFXSTAT_MODEL_STAT__)
	GFXSTAT_MODEL_STAT_COUNT
};
#undef GFXSTAT_MODEL_STAT__

struct gfxstat_model_stats {
	uint64_t v[GFXSTAT_MODEL_STAT_COUNT];
};

const char *gfxstat_model_stat_name(enum gfxstat_model_stat s);
const char *gfxstat_model_stat_doc(enum gfxstat_model_stat s);
enum gfxstat_severity gfxstat_model_stat_severity(enum gfxstat_model_stat s);

/* A surface as the model knows it. Strings are owned by the model. */
struct gfxstat_model_layer {
	const char *name;    /* canonical */
	const char *app;     /* "" when no source names it */
	enum gfxstat_frame_source source; /* of its last frame */
	uint64_t frames;     /* in the current input */
	int64_t first_present, last_present; /* in the current input */
	int64_t active_ns;   /* in the current input: the sum of intervals under an idle wait
			      * (GFXSTAT_MODEL_WAIT_NS), and their number: FPS while drawing;
			      * app-side frames' intervals in whole vsync periods (at least one) */
	uint64_t active_intervals;
};

/* An interval this long is an idle wait, not a frame time (the seed's rule; analyze --wait). */
#define GFXSTAT_MODEL_WAIT_NS (500 * GFXSTAT_NSEC_PER_MSEC)

struct gfxstat_model;

/**
 * gfxstat_model_new() - a model that passes normalised frames to @fn
 * Frames are passed on at once, except between gfxstat_model_input_begin(m, 1) and
 * gfxstat_model_input_end(), where they are held to be reconciled and ordered first.
 */
struct gfxstat_model *gfxstat_model_new(gfxstat_frame_fn fn, void *user);
void gfxstat_model_free(struct gfxstat_model *m);

/**
 * gfxstat_model_set_tmpdir() - where held frames wait for the input's end
 * @dir: a directory; past 4 MB of held frames, the most of each goes to a file with no name
 *       there (gone with the process). NULL (the default): all in memory, as also when no file
 *       can be written there. Borrowed: it must outlive @m. Takes effect at the next
 *       gfxstat_model_input_begin().
 */
void gfxstat_model_set_tmpdir(struct gfxstat_model *m, const char *dir);
/* Bytes of the current input's held frames that waited in that file (0 when all fitted in
 * memory); known once gfxstat_model_input_end() has passed them on. */
uint64_t gfxstat_model_held_to_file(const struct gfxstat_model *m);

/**
 * gfxstat_model_process() - a process the input names: @pid is @name (a package or a command)
 * Return: 0 or GFXSTAT_E_NOMEM.
 */
int gfxstat_model_process(struct gfxstat_model *m, int32_t pid, struct gfxstat_str name);

/**
 * gfxstat_model_input_begin() - a new input of the same recording starts
 * @hold: hold its frames until gfxstat_model_input_end() (for inputs that describe the same
 * frames twice, as a Perfetto trace with markers and FrameTimeline, or that are not in time
 * order); 0 to stream them
 * @format: the input's format name; inputs are compared in time only with inputs of the
 * same format (different sources may use different clocks)
 */
void gfxstat_model_input_begin(struct gfxstat_model *m, int hold, const char *format);

/**
 * gfxstat_model_frame() - a gfxstat_frame_fn taking the parsers' frames
 * Return: 0; the callback's non-zero value; GFXSTAT_E_OVERLAP when the frame lies inside the
 * time span of an earlier input of the same format (see gfxstat_model_overlap()).
 */
int gfxstat_model_frame(void *m, const struct gfxstat_frame *f);

/* End of the current input: held frames are reconciled, ordered and passed on. */
int gfxstat_model_input_end(struct gfxstat_model *m);

/**
 * gfxstat_model_overlap() - whether a frame fell inside an earlier input's span (then every
 * later frame is refused with GFXSTAT_E_OVERLAP); @earlier_end: that input's last present;
 * @at: the frame's present
 */
int gfxstat_model_overlap(const struct gfxstat_model *m, int64_t *earlier_end, int64_t *at);

size_t gfxstat_model_layer_count(const struct gfxstat_model *m);
const struct gfxstat_model_layer *gfxstat_model_layer(const struct gfxstat_model *m, size_t i);
/* Counters of the current input (reset by gfxstat_model_input_begin()). */
const struct gfxstat_model_stats *gfxstat_model_stats(const struct gfxstat_model *m);
void gfxstat_model_count(struct gfxstat_model *m, enum gfxstat_model_stat s);

#endif
