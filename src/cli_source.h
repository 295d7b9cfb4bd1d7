/* SPDX-License-Identifier: MIT */
/* One input of `frames`, `inspect` (and later `analyze`): detect its format, parse it. */
#ifndef CLI_SOURCE_H
#define CLI_SOURCE_H

#include <stdio.h>

#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_model.h"

struct cli_source {
	const char *path;
	const char *format;          /* the frame source, e.g. "ftrace-text" */
	char layers_desc[128];       /* containers, outermost first: "gzip > systrace-html" */
	int fmt;                     /* enum gfxstat_format of the decoded content */
	char extra[512];             /* what the format's parser adds for inspect */
	char android[320];           /* the build the input names, or "" */
	unsigned long long warnings; /* non-INFO counters of the format's parser, summed */
	unsigned long long bytes;
	struct gfxstat_stats stats;  /* parser counters */
	int have_sf;                 /* an ftrace input: sf summary valid */
	int have_app;                /* its frames are app-side (no SurfaceFlinger frame) */
	struct gfxstat_sf_summary sf;
	size_t nlayers;              /* layers of the recording so far (cli_source_layer()) */
	struct gfxstat_model_stats model; /* what the model did with this input's frames */
	int interrupted;
	struct gfxstat_causes *causes; /* app sections seen so far, while reading */
	const struct gfxstat_source_summary *summary; /* the library's, until the next input */
	/* with cli_source_system(): the input's system series and what it held (scheduler
	 * events, counters), until the next input; NULL without */
	const struct gfxstat_sysctx *sys;
};

/*
 * cli_source_read() - read @path ("-" = standard input), calling @fn for every frame
 * Return: CLI_OK, or an exit code after printing the error; on CLI_OK @src must be freed.
 */
int cli_source_read(const char *path, gfxstat_frame_fn fn, void *user, struct cli_source *src);
/* The same, with every atrace marker of the input passed to @marker_fn too (export). */
int cli_source_read_all(const char *path, gfxstat_frame_fn fn, gfxstat_marker_fn marker_fn,
			void *user, struct cli_source *src);

/* Print the skipped-line warnings (always) and, with @verbose, the whole inspection. */
void cli_source_report(const struct cli_source *src, int verbose);
void cli_source_free(struct cli_source *src);

/*
 * cli_source_no_frames() - say that no frame was found (or none matched --layer/--app), what
 * was found instead and what would help; @last: the last input read, or NULL
 * Return: CLI_INPUT.
 */
int cli_source_no_frames(const struct cli_source *last, const char *layer, const char *app);
/* After the results are written: CLI_INPUT after saying so when @src was damaged, else 0. */
int cli_source_damaged(const struct cli_source *src);

/* An input of this run was refused (it overlaps an earlier one in time): the inputs are not
 * one recording, so a file the user named is not written (an earlier one stays). */
int cli_source_refused(void);

/* Layer i of the recording, with its frames in @src's input (0 = none in this input). */
const struct gfxstat_model_layer *cli_source_layer(const struct cli_source *src, size_t i);

/*
 * Every cli_source_read() of a run belongs to one recording (one model: identities, order,
 * overlap checks). cli_source_end_recording() ends it, so that the next input starts a new
 * one (inspect describes each input on its own); at exit it is ended anyway.
 */
void cli_source_end_recording(void);

/* The run needs no app sections (no causes, no app-work starts): call before reading. */
void cli_source_no_causes(void);
/* The run explains late frames from thread states (scheduler events): call before reading. */
void cli_source_thread_states(void);
/* The run wants the system series (CPU, GPU, thermal, power) per @window_ns (0: 1 s) and
 * what system events each input holds (src->sys): call before reading. */
void cli_source_system(int64_t window_ns);
/* inspect: the system events @src holds and those it lacks, as lines or a JSON object. */
void cli_source_system_report(const struct cli_source *src, FILE *o, int json);

#endif
