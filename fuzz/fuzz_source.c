/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the whole pipeline behind `gfxstat analyze`. Bytes go through the one entry
 * point (gfxstat_source: containers unwrapped, format detected, parsed, produced, modelled)
 * into the metrics of every layer and app, then every figure and janky frame is read. The
 * parsers have their own targets; this one feeds the model and the metrics what the parsers
 * really make of odd input (a one-frame stream, times near INT64_MAX, a huge period).
 *
 * Input layout: 1 option byte, then the input.
 *   bits 0-5  chunk size (0 = one feed); odd: what is held to the end goes through
 *             temporary files in /tmp (the model's, the decoder's and the metrics' stores)
 *   bit 6     two inputs of one recording: the bytes cut at the middle
 *   bit 7     metrics over scroll frames only (--scroll-only), and no app sections
 * Every chunk is copied into a buffer of exactly its size and freed after the feed, so
 * AddressSanitizer sees a reader that keeps a pointer into a chunk. Frames must carry times
 * a clock can give (the model refuses the others).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (!(cond))                                                               \
			__builtin_trap();                                                  \
	} while (0)

#define NS_LIMIT ((int64_t)1 << 60) /* the model's bound on any time */

static int time_ok(int64_t t)
{
	return t == GFXSTAT_NS_NONE || (t >= -NS_LIMIT && t <= NS_LIMIT);
}

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	CHECK(time_ok(f->present_ns) && time_ok(f->actual_start_ns) && time_ok(f->actual_end_ns));
	CHECK(time_ok(f->duration_ns) && time_ok(f->expected_end_ns));
	CHECK(f->layer.n == 0 || f->layer.p);
	CHECK(f->interval_ns == GFXSTAT_NS_NONE || f->interval_ns > 0);
	return gfxstat_metrics_frame(user, f) < 0;
}

static int feed(struct gfxstat_source *s, const uint8_t *p, size_t n, size_t chunk)
{
	size_t off = 0;
	int rc = 0;

	if (!chunk)
		chunk = n ? n : 1;
	while (off < n && !rc) {
		size_t k = n - off < chunk ? n - off : chunk;
		uint8_t *c = malloc(k);

		if (!c)
			return GFXSTAT_E_NOMEM;
		memcpy(c, p + off, k);
		rc = gfxstat_source_feed(s, c, k);
		free(c);
		off += k;
	}
	return rc;
}

/* every figure of a layer, read as a report would (a bad pointer or length traps in ASan) */
static double read_layer(const struct gfxstat_layer_metrics *l)
{
	double sum = l->fps + l->fps_wall + l->fps_median + l->cadence_fps + l->refresh_hz;
	size_t i;

	CHECK(l->name && l->app);
	CHECK(l->janky_frames == l->njanky_list);
	CHECK(l->intervals <= l->frames);
	for (i = 0; i < l->nwindows; i++)
		sum += l->window_fps[i];
	for (i = 0; i < l->njank_windows; i++)
		sum += l->jank_windows[i].fps + (double)l->jank_windows[i].frames;
	for (i = 0; i < l->nscrolls; i++)
		sum += l->scrolls[i].fps;
	for (i = 0; i < l->njanky_list; i++) {
		const struct gfxstat_janky_frame *j = &l->janky_list[i];

		CHECK(j->index < l->frames);
		sum += (double)j->cadence_ns + (double)j->length_ns;
	}
	return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gfxstat_metrics_opts o;
	struct gfxstat_metrics *m;
	struct gfxstat_source_sink sink;
	struct gfxstat_source *s;
	struct gfxstat_janky_ref *all = NULL;
	size_t chunk, half, i, n;
	unsigned opt;
	volatile double sink_sum = 0;
	int rc;

	if (size < 1)
		return 0;
	opt = data[0];
	data++;
	size--;
	chunk = opt & 63;
	half = opt & 64 ? size / 2 : size;
	gfxstat_metrics_opts_init(&o);
	o.scroll_only = (opt & 128) != 0;
	m = gfxstat_metrics_new(&o);
	if (!m)
		return 0;
	if (chunk & 1)
		gfxstat_metrics_set_tmpdir(m, "/tmp");
	memset(&sink, 0, sizeof(sink));
	sink.frame = on_frame;
	sink.user = m;
	sink.flags = opt & 128 ? GFXSTAT_SOURCE_NO_CAUSES : 0;
	s = gfxstat_source_new(&sink);
	if (!s) {
		gfxstat_metrics_free(m);
		return 0;
	}
	if (chunk & 1)
		gfxstat_source_set_tmpdir(s, "/tmp");
	rc = gfxstat_source_begin(s, "fuzz-a");
	if (!rc)
		rc = feed(s, data, half, chunk);
	if (!rc)
		rc = gfxstat_source_end(s);
	if (!rc && half < size) {
		rc = gfxstat_source_begin(s, "fuzz-b");
		if (!rc)
			rc = feed(s, data + half, size - half, chunk);
		if (!rc)
			rc = gfxstat_source_end(s);
	}
	(void)gfxstat_source_summary(s);
	if (gfxstat_metrics_finish(m) == 0) {
		n = gfxstat_metrics_count(m);
		for (i = 0; i < n; i++)
			sink_sum += read_layer(gfxstat_metrics_get(m, i));
		n = gfxstat_metrics_janky_all(m, &all);
		for (i = 0; n != (size_t)-1 && i < n; i++)
			CHECK(all[i].layer && all[i].frame);
		free(all);
	}
	(void)sink_sum;
	gfxstat_source_free(s);
	gfxstat_metrics_free(m);
	return 0;
}
