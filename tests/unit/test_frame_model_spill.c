/* SPDX-License-Identifier: MIT */
/*
 * The model holds a long capture's frames to the end (Perfetto's FrameTimeline); past a few MB
 * their packs go to an unnamed temporary file in the directory gfxstat_model_set_tmpdir()
 * names, and every frame still comes back whole, in present order; with no file possible they
 * stay in memory, with the same frames.
 */
#define _GNU_SOURCE /* mkdtemp */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "open_files.h"
#include "gfxstat/gfxstat_model.h"

#define NF 150000 /* about 10 MB of packs: past the 4 MB the model keeps in memory */
#define P 16666667LL

static uint64_t mix(uint64_t x) /* splitmix64's finaliser: a word from the frame's index */
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* Frame @i, made again from @i alone: the test keeps no copy of 150 k frames. */
static void make(struct gfxstat_frame *f, int i)
{
	int64_t present = 1000000000 + (int64_t)i * P;
	int k;

	gfxstat_frame_init(f, GFXSTAT_SRC_FTRACE);
	f->layer.p = "com.example/.Main#0";
	f->layer.n = strlen(f->layer.p);
	f->present_ns = present;
	f->vsync_period_ns = P;
	f->latch_ns = present - (int64_t)(mix((uint64_t)i) % 8000000);
	f->actual_start_ns = present - (int64_t)(mix((uint64_t)i + 1) % 40000000);
	f->actual_end_ns = present - (int64_t)(mix((uint64_t)i + 2) % 9000000);
	f->duration_ns = f->actual_end_ns - f->actual_start_ns;
	f->pid = (int32_t)(mix((uint64_t)i + 3) % 30000);
	f->token = 100000 + i;
	f->display_token = i % 3 ? 100001 + i : -1;
	f->jank_type = (int32_t)(mix((uint64_t)i + 4) % 4096);
	f->janky = i % 7 == 0;
	for (k = 0; k < GFXSTAT_FI_COUNT; k += 3)
		f->fi[k] = present - (int64_t)(mix((uint64_t)i * 64 + (uint64_t)k) % 30000000);
}

struct got {
	int n, bad, file_seen;
	const char *dir;
};

static int check_frame(void *user, const struct gfxstat_frame *b)
{
	struct got *g = user;
	struct gfxstat_frame a;

	if (g->n == 0 && g->dir)
		g->file_seen = holds_file_in(g->dir);
	make(&a, g->n++);
	if (b->present_ns != a.present_ns || b->latch_ns != a.latch_ns ||
	    b->actual_start_ns != a.actual_start_ns || b->actual_end_ns != a.actual_end_ns ||
	    b->duration_ns != a.duration_ns || b->pid != a.pid || b->token != a.token ||
	    b->display_token != a.display_token || b->jank_type != a.jank_type ||
	    b->janky != a.janky || memcmp(b->fi, a.fi, sizeof(a.fi)) != 0 ||
	    b->vsync_period_ns != a.vsync_period_ns)
		g->bad++;
	return 0;
}

static void hold_all(const char *tmpdir, struct got *g)
{
	struct gfxstat_model *m;
	struct gfxstat_frame f;
	int i, rc = 0;

	m = gfxstat_model_new(check_frame, g);
	CHECK(m != NULL);
	if (!m)
		return;
	gfxstat_model_set_tmpdir(m, tmpdir);
	gfxstat_model_input_begin(m, 1, "perfetto");
	for (i = 0; i < NF && !rc; i++) {
		make(&f, i);
		rc = gfxstat_model_frame(m, &f);
	}
	CHECK_EQ(rc, 0);
	CHECK_EQ(g->n, 0);
	CHECK_EQ(gfxstat_model_input_end(m), 0);
	gfxstat_model_free(m);
}

TEST(long_capture_through_a_file)
{
	char dir[] = "/tmp/gfxstat-test-model-XXXXXX";
	struct got g = { 0, 0, 0, dir };
	int proc = can_see_open_files();

	CHECK(mkdtemp(dir) != NULL);
	hold_all(dir, &g);
	CHECK_EQ(g.n, NF);
	CHECK_EQ(g.bad, 0);
	if (proc)
		CHECK(g.file_seen); /* the packs went through the file while frames went out */
	CHECK_EQ(rmdir(dir), 0); /* and it left nothing behind */

	memset(&g, 0, sizeof(g));
	hold_all("/nonexistent/gfxstat-no-such-dir", &g);
	CHECK_EQ(g.n, NF);
	CHECK_EQ(g.bad, 0);
	memset(&g, 0, sizeof(g));
	hold_all(NULL, &g); /* the default */
	CHECK_EQ(g.n, NF);
	CHECK_EQ(g.bad, 0);
}

/*
 * FrameTimeline's reconcile past memory: 60 k display frames, 60 k surface frames of one layer
 * and 60 k marker frames of it (about 8 MB of records: runs in the file) give what a hand
 * count gives. Frame i: display frame, token 1000000 + i, presents at B + i P; the surface
 * frame names it (i % 5 != 0; else no display token) and was presented (i % 11 != 0), so it
 * goes on at B + i P, else with no present; every marker is replaced (the layer has
 * FrameTimeline frames). A marker with i % 3 == 0 names vsync id 1000000 + i (i even) or one
 * no frame has (i odd): it agrees when a FrameTimeline frame of the layer names that id (i %
 * 5 != 0, dropped or not). The others agree when a presented surface frame is within a
 * period (P, the default) of their present B + i P + d, d in [-2P, 2P): found here by
 * looking at frames i - 3 .. i + 3.
 */
#define NR 60000
#define B 1000000000LL

static int presented(long j)
{
	return j >= 0 && j < NR && j % 5 != 0 && j % 11 != 0;
}

static int64_t marker_offset(long i)
{
	return (int64_t)(mix((uint64_t)i + 77) % (uint64_t)(4 * P)) - 2 * P;
}

struct rgot {
	long n[3], bad, nonepos;
	int64_t last;
};

static int check_reconciled(void *user, const struct gfxstat_frame *f)
{
	struct rgot *g = user;

	if (f->source == GFXSTAT_SRC_FRAMETIMELINE) {
		long i = (long)(f->token - 500000);

		g->n[0]++;
		if (f->present_ns != (presented(i) ? B + i * P : GFXSTAT_NS_NONE))
			g->bad++;
	} else if (f->source == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY) {
		g->n[1]++;
		if (f->present_ns != B + (f->token - 1000000) * P)
			g->bad++;
	} else {
		g->n[2]++;
	}
	/* in present order, those with none last */
	if (f->present_ns == GFXSTAT_NS_NONE)
		g->nonepos = 1;
	else if (g->nonepos || f->present_ns < g->last)
		g->bad++;
	else
		g->last = f->present_ns;
	return 0;
}

static void reconcile_all(const char *tmpdir)
{
	struct rgot g;
	struct gfxstat_model *m;
	struct gfxstat_frame f;
	long i, by_token = 0, agree = 0;
	int rc = 0;

	memset(&g, 0, sizeof(g));
	m = gfxstat_model_new(check_reconciled, &g);
	CHECK(m != NULL);
	if (!m)
		return;
	gfxstat_model_set_tmpdir(m, tmpdir);
	gfxstat_model_input_begin(m, 1, "perfetto");
	for (i = 0; i < NR && !rc; i++) {
		int64_t p = B + i * P + marker_offset(i);
		long j;

		gfxstat_frame_init(&f, GFXSTAT_SRC_FTRACE);
		f.layer.p = "W#1";
		f.layer.n = 3;
		if (i % 3 == 0) {
			f.display_token = 1000000 + i + (i % 2) * 10 * NR;
			by_token++;
			agree += i % 2 == 0 && i % 5 != 0;
		} else {
			for (j = i - 3; j <= i + 3; j++)
				if (presented(j) && llabs(B + j * P - p) <= P) {
					agree++;
					break;
				}
		}
		f.present_ns = p;
		rc = gfxstat_model_frame(m, &f);

		gfxstat_frame_init(&f, GFXSTAT_SRC_FRAMETIMELINE);
		f.layer.p = "TX - W#1";
		f.layer.n = 8;
		f.pid = 42;
		f.token = 500000 + i;
		f.display_token = i % 5 ? 1000000 + i : -1;
		f.present_type = i % 11 ? 1 : 4; /* 4: dropped */
		f.present_ns = B + i * P - 3000000; /* the buffer's ready time, as Perfetto's */
		if (!rc)
			rc = gfxstat_model_frame(m, &f);

		gfxstat_frame_init(&f, GFXSTAT_SRC_FRAMETIMELINE_DISPLAY);
		f.token = f.display_token = 1000000 + i;
		f.present_ns = B + i * P;
		f.vsync_period_ns = P;
		if (!rc)
			rc = gfxstat_model_frame(m, &f);
	}
	CHECK_EQ(rc, 0);
	CHECK_EQ(gfxstat_model_input_end(m), 0);
	CHECK_EQ(g.n[0], NR);
	CHECK_EQ(g.n[1], NR);
	CHECK_EQ(g.n[2], 0);
	CHECK_EQ(g.bad, 0);
	CHECK_EQ(gfxstat_model_stats(m)->v[GFXSTAT_MODEL_markers_compared], NR);
	CHECK_EQ(gfxstat_model_stats(m)->v[GFXSTAT_MODEL_markers_replaced], NR);
	CHECK_EQ(gfxstat_model_stats(m)->v[GFXSTAT_MODEL_markers_by_token], by_token);
	CHECK_EQ(gfxstat_model_stats(m)->v[GFXSTAT_MODEL_markers_agree], agree);
	CHECK(agree > NR / 3 && agree < NR); /* the test sees both answers */
	if (tmpdir && *tmpdir != '/')
		CHECK(gfxstat_model_held_to_file(m) == 0);
	else if (tmpdir && strncmp(tmpdir, "/tmp/", 5) == 0)
		CHECK(gfxstat_model_held_to_file(m) > 0);
	gfxstat_model_free(m);
}

TEST(reconcile_through_a_file)
{
	char dir[] = "/tmp/gfxstat-test-model-XXXXXX";

	CHECK(mkdtemp(dir) != NULL);
	reconcile_all(dir);
	CHECK_EQ(rmdir(dir), 0);
	reconcile_all(NULL);
}

TEST_SUITE(test_frame_model_spill)
{
	RUN(long_capture_through_a_file);
	RUN(reconcile_through_a_file);
}
