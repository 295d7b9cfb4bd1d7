/* SPDX-License-Identifier: MIT */
/* The header of every JSON output (cli_json.h); docs/output.md describes each field. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_json.h"
#include "cli_source.h"
#include "gfxstat/gfxstat_source.h"

void cli_json_header_init(struct cli_json_header *h, const char *command)
{
	memset(h, 0, sizeof(*h));
	h->command = command;
	h->first_ns = GFXSTAT_NS_NONE;
	h->last_ns = GFXSTAT_NS_NONE;
}

void cli_json_header_free(struct cli_json_header *h)
{
	size_t i;

	for (i = 0; i < h->ninputs; i++)
		free(h->inputs[i].path);
	free(h->inputs);
	h->inputs = NULL;
	h->ninputs = 0;
}

/* The string value of "key" in a flat JSON object, unescaped enough for device.json. */
static void json_field(const char *doc, const char *key, char *out, size_t cap)
{
	char pat[40];
	const char *p;
	size_t n = 0;

	snprintf(pat, sizeof(pat), "\"%s\":\"", key);
	p = strstr(doc, pat);
	if (!p)
		return;
	for (p += strlen(pat); *p && *p != '"' && n + 1 < cap; p++) {
		if (*p == '\\' && p[1])
			p++;
		out[n++] = *p;
	}
	out[n] = 0;
}

/* A record session folder names its device in device.json (written by `gfxstat record`). */
static void session_device(struct cli_json_device *d, const char *path)
{
	char file[4096], doc[8192];
	const char *slash = strrchr(path, '/'), *p;
	FILE *f;
	size_t n;

	if (!strcmp(path, "-"))
		return;
	if (slash)
		snprintf(file, sizeof(file), "%.*s/device.json", (int)(slash - path), path);
	else
		snprintf(file, sizeof(file), "device.json");
	f = fopen(file, "r");
	if (!f)
		return;
	n = fread(doc, 1, sizeof(doc) - 1, f);
	fclose(f);
	doc[n] = 0;
	json_field(doc, "serial", d->serial, sizeof(d->serial));
	json_field(doc, "model", d->model, sizeof(d->model));
	json_field(doc, "android", d->android, sizeof(d->android));
	p = strstr(doc, "\"sdk\":");
	if (p)
		d->sdk = (int)strtol(p + 6, NULL, 10);
}

int cli_json_header_input(struct cli_json_header *h, const char *path, const char *format,
			  const char *containers, unsigned long long bytes)
{
	struct cli_json_input *in = realloc(h->inputs, (h->ninputs + 1) * sizeof(*in));

	if (!in)
		return -1;
	h->inputs = in;
	in += h->ninputs;
	memset(in, 0, sizeof(*in));
	in->path = strdup(path);
	if (!in->path)
		return -1;
	snprintf(in->format, sizeof(in->format), "%s", format ? format : "");
	snprintf(in->containers, sizeof(in->containers), "%s", containers ? containers : "");
	in->bytes = bytes;
	h->ninputs++;
	session_device(&h->dev, path);
	return 0;
}

void cli_json_header_recording(struct cli_json_header *h)
{
	h->recordings++;
}

int cli_json_header_source(struct cli_json_header *h, const struct cli_source *src)
{
	const struct gfxstat_source_summary *sum = src->summary;

	if (cli_json_header_input(h, src->path, src->format, src->layers_desc, src->bytes))
		return -1;
	if (sum && sum->have_perfetto && sum->perfetto.build[0]) {
		const struct gfxstat_perfetto_summary *ps = &sum->perfetto;

		snprintf(h->dev.build, sizeof(h->dev.build), "%s", ps->build);
		if (ps->release[0])
			snprintf(h->dev.android, sizeof(h->dev.android), "%s", ps->release);
		if (ps->sdk)
			h->dev.sdk = (int)ps->sdk;
	}
	return 0;
}

void cli_json_header_period(struct cli_json_header *h, int64_t period_ns, uint64_t frames)
{
	size_t i;
	int hz;

	if (period_ns <= 0 || period_ns == GFXSTAT_NS_NONE || !frames)
		return;
	/* periods measured per frame scatter around the mode's: one rate per whole Hz */
	hz = (int)((GFXSTAT_NSEC_PER_SEC + period_ns / 2) / period_ns);
	for (i = 0; i < h->nrates; i++)
		if (h->rates[i].hz == hz)
			break;
	if (i == h->nrates) {
		if (h->nrates == CLI_JSON_MAX_RATES)
			return;
		h->rates[h->nrates++].hz = hz;
	}
	h->rates[i].period_sum += period_ns * (int64_t)frames;
	h->rates[i].frames += frames;
}

void cli_json_header_frame(struct cli_json_header *h, const struct gfxstat_frame *f)
{
	if (f->present_ns != GFXSTAT_NS_NONE) {
		if (h->first_ns == GFXSTAT_NS_NONE || f->present_ns < h->first_ns)
			h->first_ns = f->present_ns;
		if (h->last_ns == GFXSTAT_NS_NONE || f->present_ns > h->last_ns)
			h->last_ns = f->present_ns;
	}
	cli_json_header_period(h, f->vsync_period_ns, 1);
}

void cli_json_ns(FILE *o, int64_t v)
{
	if (v == GFXSTAT_NS_NONE)
		fputs("null", o);
	else
		fprintf(o, "%lld", (long long)v);
}

static void str_or_null(FILE *o, const char *s)
{
	if (s && s[0])
		cli_json_str(o, s);
	else
		fputs("null", o);
}

/* "gzip > systrace-html > ftrace-text": the wrappers, without the content's own format */
static void containers(FILE *o, const char *s)
{
	const char *sep;
	int first = 1;

	fputc('[', o);
	while (s && (sep = strstr(s, " > ")) != NULL) {
		fprintf(o, "%s\"%.*s\"", first ? "" : ",", (int)(sep - s), s);
		first = 0;
		s = sep + 3;
	}
	fputc(']', o);
}

static int cmp_rate(const void *a, const void *b)
{
	const struct cli_json_rate *x = a, *y = b;

	if (x->frames != y->frames)
		return x->frames > y->frames ? -1 : 1;
	return x->hz - y->hz;
}

void cli_json_header_write(FILE *o, const struct cli_json_header *h)
{
	struct cli_json_rate r[CLI_JSON_MAX_RATES];
	const struct cli_json_device *d = &h->dev;
	size_t i;

	fprintf(o, "{\"gfxstat_version\":\"%s\",\"schema_version\":%d,\"command\":",
		GFXSTAT_VERSION, CLI_SCHEMA_VERSION);
	cli_json_str(o, h->command);
	fputs(",\"inputs\":[", o);
	for (i = 0; i < h->ninputs; i++) {
		const struct cli_json_input *in = &h->inputs[i];

		fputs(i ? ",{\"path\":" : "{\"path\":", o);
		cli_json_str(o, in->path);
		fputs(",\"format\":", o);
		str_or_null(o, in->format);
		fputs(",\"containers\":", o);
		containers(o, in->containers);
		fprintf(o, ",\"bytes\":%llu}", in->bytes);
	}
	fputs("],\"device\":{\"serial\":", o);
	str_or_null(o, d->serial);
	fputs(",\"model\":", o);
	str_or_null(o, d->model);
	fputs(",\"android\":", o);
	str_or_null(o, d->android);
	fputs(",\"sdk\":", o);
	if (d->sdk > 0)
		fprintf(o, "%d", d->sdk);
	else
		fputs("null", o);
	fputs(",\"build\":", o);
	str_or_null(o, d->build);
	/* most frames first: the first rate is the one the recording mostly ran at */
	memcpy(r, h->rates, h->nrates * sizeof(*r));
	qsort(r, h->nrates, sizeof(*r), cmp_rate);
	fputs("},\"refresh\":[", o);
	for (i = 0; i < h->nrates; i++) {
		int64_t p = r[i].period_sum / (int64_t)r[i].frames;

		fprintf(o, "%s{\"hz\":%.3f,\"period_ns\":%lld,\"frames\":%llu}", i ? "," : "",
			1e9 / (double)p, (long long)p, (unsigned long long)r[i].frames);
	}
	fputs("],\"span\":", o);
	if (h->first_ns == GFXSTAT_NS_NONE || h->recordings > 1)
		fputs("null", o);
	else
		fprintf(o, "{\"first_ns\":%lld,\"last_ns\":%lld,\"duration_s\":%.6f}",
			(long long)h->first_ns, (long long)h->last_ns,
			(double)(h->last_ns - h->first_ns) / 1e9);
	fputc('}', o);
}

void cli_json_begin(FILE *o, const struct cli_json_header *h)
{
	fputs("{\"header\":", o);
	cli_json_header_write(o, h);
	fputc(',', o);
}
