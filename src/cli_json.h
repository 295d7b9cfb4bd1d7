/* SPDX-License-Identifier: MIT */
/*
 * The header every JSON output starts with (docs/output.md, docs/schema/gfxstat.schema.json):
 * the tool and schema versions, the command, each input, the device, refresh rates and span.
 * A header owns copies of everything it is given; cli_json_header_free() releases them.
 */
#ifndef CLI_JSON_H
#define CLI_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "gfxstat/gfxstat.h"

/* Bumped when a field changes meaning or goes away; new fields do not bump it. */
#define CLI_SCHEMA_VERSION 1

#define CLI_JSON_MAX_RATES 8

struct cli_source;

struct cli_json_input {
	char *path;
	char format[32];       /* what was read: "ftrace-text", "perfetto", ... or "" */
	char containers[128];  /* outermost first, as "gzip > systrace-html"; "" for none */
	unsigned long long bytes;
};

/* A device as the input names it; "" / 0 when it does not. */
struct cli_json_device {
	char serial[64];
	char model[96];
	char android[32];      /* the release, "13" */
	int sdk;
	char build[256];       /* the build fingerprint */
};

struct cli_json_rate {
	int hz;                /* the rate rounded, the bucket's key */
	int64_t period_sum;    /* of the frames in the bucket, for the mean period */
	uint64_t frames;
};

struct cli_json_header {
	const char *command;
	struct cli_json_input *inputs;
	size_t ninputs;
	struct cli_json_device dev;
	int64_t first_ns, last_ns;  /* presents seen, GFXSTAT_NS_NONE when none */
	unsigned recordings;        /* recordings the output covers (cli_json_header_recording) */
	struct cli_json_rate rates[CLI_JSON_MAX_RATES];
	size_t nrates;
};

/* An empty header for @command ("analyze"); nothing allocated yet. */
void cli_json_header_init(struct cli_json_header *h, const char *command);
void cli_json_header_free(struct cli_json_header *h);

/**
 * cli_json_header_input() - one more input, as its reader describes it
 * @format: what was read, or NULL when unknown
 * @containers: "gzip > systrace-html", its last element the content's format; may be NULL
 *
 * Also takes the device from a record session's device.json beside @path, when there is one.
 * Return: 0, or -1 when out of memory.
 */
int cli_json_header_input(struct cli_json_header *h, const char *path, const char *format,
			  const char *containers, unsigned long long bytes);

/* One more recording (of several, each its own timeline): a header over several has no span,
 * since their clocks are unrelated; each recording's entry says its own. */
void cli_json_header_recording(struct cli_json_header *h);

/* An input read through cli_source: as above, plus the build a Perfetto trace names. */
int cli_json_header_source(struct cli_json_header *h, const struct cli_source *src);

/* A frame of the output: widens the span and counts its refresh period. */
void cli_json_header_frame(struct cli_json_header *h, const struct gfxstat_frame *f);

/* A refresh period known apart from the frames (a dump's period line), for @frames frames. */
void cli_json_header_period(struct cli_json_header *h, int64_t period_ns, uint64_t frames);

/* The header as one JSON object, no newline: `{"gfxstat_version":...}`. */
void cli_json_header_write(FILE *o, const struct cli_json_header *h);

/* `{"header":{...},` to start a document whose body follows. */
void cli_json_begin(FILE *o, const struct cli_json_header *h);

struct gfxstat_metrics;
/* `analyze --format json`: the header, then every layer and app (cli_json_layer()). */
void cli_json_analyze(FILE *o, const struct cli_json_header *h, const struct gfxstat_metrics *m);
/* `analyze --format csv`: the FPS series, one row per time window of @window_ns per layer. */
void cli_csv_analyze(FILE *o, const struct gfxstat_metrics *m, int64_t window_ns);

/* @v, or null for GFXSTAT_NS_NONE; in JSON */
void cli_json_ns(FILE *o, int64_t v);

#endif
