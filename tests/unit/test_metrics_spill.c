/* SPDX-License-Identifier: MIT */
/*
 * The metrics keep each layer's frames in a store that goes to an unnamed temporary file past a
 * few kB (gfxstat_metrics_set_tmpdir()), and read them back in passes: a long recording gives
 * the same figures, frame for frame, through the file as in memory, and leaves nothing behind.
 * Two layers of one app, 150 k frames each (about 12 MB of frames each: hundreds of runs), with
 * scrolls, waits, a refresh rate that changes, frames of both layers in one vsync, own
 * durations, deadlines and starts.
 */
#define _GNU_SOURCE /* mkdtemp */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "open_files.h"
#include "gfxstat/gfxstat.h"

#define NF 150000

static uint64_t mix(uint64_t x) /* splitmix64's finaliser */
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* Frame @i of layer @l (0 or 1): 60 Hz for the first half, 120 Hz after; mostly one period
 * apart, sometimes 2-5, a gap of 0.25 s every 400 and a wait of 0.6 s every 5000 (@t: layer
 * 0's present); a scroll starts at each 400th frame; layer 1's half a
 * period after layer 0's, but on the same vsync every third frame, which the app merges. */
static void make(struct gfxstat_frame *f, int l, int i, int64_t *t)
{
	int64_t p = i < NF / 2 ? 16666667 : 8333333;
	uint64_t r = mix((uint64_t)i * 2 + (uint64_t)l);

	gfxstat_frame_init(f, GFXSTAT_SRC_FTRACE);
	f->layer.p = l ? "com.example/.Main#1" : "SurfaceView[com.example/.Main]#0";
	f->layer.n = strlen(f->layer.p);
	f->app.p = "com.example";
	f->app.n = strlen(f->app.p);
	if (!l)
		*t += i % 5000 == 4999 ? 600000000
		      : i % 400 == 399 ? 250000000 /* the content settles: a scroll ends */
				       : p * (int64_t)(r % 16 ? 1 : 2 + r % 4);
	f->present_ns = *t + (l && i % 3 ? p / 2 : 0);
	f->vsync_period_ns = p;
	if (r % 3)
		f->actual_start_ns = *t - (int64_t)(r % (3 * (uint64_t)p));
	f->duration_ns = (int64_t)(r >> 20) % (2 * p);
	f->input = i % 400 < 60;
	f->janky = r % 7 == 0 ? 1 : -1;
}

static struct gfxstat_metrics *run(const char *dir, int *file_seen)
{
	struct gfxstat_metrics *m = gfxstat_metrics_new(NULL);
	struct gfxstat_frame f;
	int64_t t = 1000000000;
	int i, l, rc = 0;

	CHECK(m != NULL);
	if (!m)
		return NULL;
	gfxstat_metrics_set_tmpdir(m, dir);
	for (i = 0; i < NF && !rc; i++)
		for (l = 0; l < 2 && !rc; l++) {
			make(&f, l, i, &t);
			rc = gfxstat_metrics_frame(m, &f);
		}
	CHECK_EQ(rc, 0);
	if (file_seen)
		*file_seen = dir && holds_file_in(dir);
	CHECK_EQ(gfxstat_metrics_finish(m), 0);
	return m;
}

/* Every figure of @a and @b equal, their lists too. Return: the differences. */
static int differ(const struct gfxstat_layer_metrics *a, const struct gfxstat_layer_metrics *b)
{
	struct gfxstat_layer_metrics x = *a, y = *b;
	size_t i;
	int d = 0;

	d += strcmp(a->name, b->name) != 0;
	d += a->nwindows != b->nwindows ||
	     memcmp(a->window_fps, b->window_fps, a->nwindows * sizeof(double)) != 0;
	/* field by field: the structs have padding */
	d += a->njank_windows != b->njank_windows;
	for (i = 0; i < a->njank_windows && i < b->njank_windows; i++) {
		const struct gfxstat_jank_window *u = &a->jank_windows[i], *v = &b->jank_windows[i];

		d += u->start_ns != v->start_ns || u->frames != v->frames ||
		     u->dur_ns != v->dur_ns || u->longest_ns != v->longest_ns || u->fps != v->fps;
	}
	d += a->nscrolls != b->nscrolls;
	for (i = 0; i < a->nscrolls && i < b->nscrolls; i++) {
		const struct gfxstat_scroll *u = &a->scrolls[i], *v = &b->scrolls[i];

		d += u->start_ns != v->start_ns || u->end_ns != v->end_ns ||
		     u->frames != v->frames || u->fps != v->fps ||
		     u->hitch_ms_per_s != v->hitch_ms_per_s || u->jank != v->jank ||
		     u->longest_ns != v->longest_ns;
	}
	d += a->njanky_list != b->njanky_list ||
	     memcmp(a->janky_list, b->janky_list, a->njanky_list * sizeof(*a->janky_list)) != 0;
	x.name = y.name = x.app = y.app = NULL;
	x.window_fps = y.window_fps = NULL;
	x.jank_windows = y.jank_windows = NULL;
	x.scrolls = y.scrolls = NULL;
	x.janky_list = y.janky_list = NULL;
	d += memcmp(&x, &y, sizeof(x)) != 0;
	return d;
}

TEST(long_recording_through_a_file)
{
	char dir[] = "/tmp/gfxstat-test-metrics-XXXXXX";
	struct gfxstat_metrics *a, *b;
	int seen = 0;
	size_t i, n;

	CHECK(mkdtemp(dir) != NULL);
	a = run(dir, &seen);
	b = run(NULL, NULL);
	if (can_see_open_files())
		CHECK(seen); /* the frames went through the file */
	n = gfxstat_metrics_count(a);
	CHECK_EQ(n, 3); /* two layers and their app */
	CHECK_EQ(gfxstat_metrics_count(b), n);
	for (i = 0; i < n && i < gfxstat_metrics_count(b); i++) {
		const struct gfxstat_layer_metrics *x = gfxstat_metrics_get(a, i);

		CHECK_EQ(differ(x, gfxstat_metrics_get(b, i)), 0);
		if (!x->is_app)
			CHECK_EQ(x->frames, NF);
		else /* frames 0, 3, ... of layer 1 (50000) share a vsync with layer 0's */
			CHECK_EQ(x->frames, 2 * NF - NF / 3);
		CHECK(x->nscrolls > 100 && x->njanky_list > 1000 && x->nwindows > 1000);
	}
	gfxstat_metrics_free(a);
	gfxstat_metrics_free(b);
	CHECK_EQ(rmdir(dir), 0); /* the file had no name: nothing left behind */
}

/*
 * Thousands of layers: 3000 layers of 60 frames each (14 MB of frames, past the 4 MB all the
 * stores may hold at once), ten apps of 300 layers each, the layers' frames interleaved in
 * time. The stores write what they hold early (runs of a few dozen frames), and every figure
 * is the same as with no file.
 */
#define NL 3000
#define NPL 60

static struct gfxstat_metrics *run_many(const char *dir)
{
	struct gfxstat_metrics *m = gfxstat_metrics_new(NULL);
	struct gfxstat_frame f;
	char layer[32], app[32];
	int i, l, rc = 0;

	CHECK(m != NULL);
	if (!m)
		return NULL;
	gfxstat_metrics_set_tmpdir(m, dir);
	for (i = 0; i < NPL && !rc; i++)
		for (l = 0; l < NL && !rc; l++) {
			uint64_t r = mix((uint64_t)l * NPL + (uint64_t)i);

			gfxstat_frame_init(&f, GFXSTAT_SRC_FRAMETIMELINE);
			f.layer.n = (size_t)snprintf(layer, sizeof(layer), "L%d#%d", l, l % 7);
			f.layer.p = layer;
			f.app.n = (size_t)snprintf(app, sizeof(app), "com.app%d", l % 10);
			f.app.p = app;
			/* 50 ms apart, give or take 13: increasing per layer */
			f.present_ns = 1000000000LL + (int64_t)i * 50000000 +
				       (int64_t)(r % 3) * 5000000 + (l % 4) * 1000000;
			f.vsync_period_ns = 16666667;
			f.actual_end_ns = f.present_ns - 3000000;
			f.expected_end_ns = f.actual_end_ns - (int64_t)(r % 9000000) + 4500000;
			f.duration_ns = (int64_t)(r % 20000000);
			f.janky = (int)(r % 5 == 0);
			rc = gfxstat_metrics_frame(m, &f);
		}
	CHECK_EQ(rc, 0);
	CHECK_EQ(gfxstat_metrics_finish(m), 0);
	return m;
}

TEST(many_layers_within_a_budget)
{
	char dir[] = "/tmp/gfxstat-test-metrics-XXXXXX";
	struct gfxstat_metrics *a, *b;
	size_t i, n, bad = 0;

	CHECK(mkdtemp(dir) != NULL);
	a = run_many(dir);
	b = run_many(NULL);
	n = gfxstat_metrics_count(a);
	CHECK_EQ(n, NL + 10);
	CHECK_EQ(gfxstat_metrics_count(b), n);
	for (i = 0; i < n && i < gfxstat_metrics_count(b); i++)
		bad += (size_t)differ(gfxstat_metrics_get(a, i), gfxstat_metrics_get(b, i));
	CHECK_EQ(bad, 0);
	CHECK_EQ(gfxstat_metrics_get(a, 0)->frames, NPL);
	CHECK_EQ(gfxstat_metrics_get(a, NL)->is_app, 1);
	gfxstat_metrics_free(a);
	gfxstat_metrics_free(b);
	CHECK_EQ(rmdir(dir), 0);
}

TEST_SUITE(test_metrics_spill)
{
	RUN(long_recording_through_a_file);
	RUN(many_layers_within_a_budget);
}
