/* SPDX-License-Identifier: MIT */
/*
 * App-side frames are held until the trace's end (the refresh period is known only then): past
 * a few MB they wait in an unnamed temporary file in the directory
 * gfxstat_app_frames_set_tmpdir() names, and come back in present order, the same frames as
 * with none, leaving nothing behind. Two processes draw 30 k frames each, one every 16.7 ms,
 * the second 5 ms after the first (60 k frames of 40 bytes: about 2.4 MB held).
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

#define NF 30000

struct got {
	uint64_t n, sum;     /* frames, a fold of their presents, pids and durations */
	int64_t last;
	int order_bad;
};

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct got *g = user;

	g->order_bad += g->n && f->present_ns < g->last;
	g->last = f->present_ns;
	g->sum = g->sum * 1000003 + (uint64_t)f->present_ns + (uint64_t)f->pid * 7 +
		 (uint64_t)f->duration_ns * 13;
	g->n++;
	return 0;
}

/* One frame of process @pid (main thread @pid, RenderThread @pid + 1) at @t0 ns: its doFrame
 * of 4 ms and a DrawFrame from 3 to 9 ms (the frame's present, 9 ms after its start). */
static size_t frame_text(char *b, size_t cap, int pid, int64_t t0)
{
	static const int64_t at[4] = { 0, 3000000, 4000000, 9000000 };
	static const char be[4] = { 'B', 'B', 'E', 'E' };
	static const char *const name[4] = { "Choreographer#doFrame", "DrawFrame", "", "" };
	static const int rt[4] = { 0, 1, 0, 1 };
	size_t n = 0;
	int k;

	for (k = 0; k < 4; k++) {
		int64_t t = t0 + at[k];
		n += (size_t)snprintf(b + n, cap - n,
				      "  <...>-%d (-----) [000] ...1 %lld.%06lld: tracing_mark_write: "
				      "%c|%d%s%s\n",
				      pid + rt[k], (long long)(t / 1000000000),
				      (long long)(t % 1000000000 / 1000), be[k], pid,
				      *name[k] ? "|" : "", name[k]);
	}
	return n;
}

static void run(const char *dir, struct got *g, int *file_seen)
{
	struct gfxstat_app_frames *af = gfxstat_app_frames_new(on_frame, g);
	struct gfxstat_trace_parser *p = gfxstat_trace_parser_new(gfxstat_app_frames_marker, af);
	char buf[2048];
	int i, rc = 0;

	memset(g, 0, sizeof(*g));
	CHECK(af && p);
	if (!af || !p)
		return;
	gfxstat_app_frames_set_tmpdir(af, dir);
	for (i = 0; i < NF && !rc; i++) {
		int64_t t = 1000000000LL + (int64_t)i * 16666667;
		size_t n = frame_text(buf, sizeof(buf), 100, t);

		n += frame_text(buf + n, sizeof(buf) - n, 200, t + 5000000);
		rc = gfxstat_trace_parser_feed(p, buf, n);
	}
	CHECK_EQ(rc, 0);
	CHECK_EQ(gfxstat_trace_parser_finish(p), 0);
	if (file_seen)
		*file_seen = holds_file_in(dir);
	CHECK_EQ(gfxstat_app_frames_finish(af), 0);
	gfxstat_trace_parser_free(p);
	gfxstat_app_frames_free(af);
}

TEST(held_through_a_file)
{
	char dir[] = "/tmp/gfxstat-test-app-XXXXXX";
	struct got a, b;
	int seen = 0;

	CHECK(mkdtemp(dir) != NULL);
	run(dir, &a, &seen);
	run(NULL, &b, NULL);
	if (can_see_open_files())
		CHECK(seen);
	CHECK_EQ(a.n, 2 * NF);
	CHECK_EQ(a.order_bad, 0);
	CHECK_EQ(b.n, 2 * NF);
	CHECK(a.sum == b.sum);
	CHECK_EQ(rmdir(dir), 0);
}

TEST_SUITE(test_app_frames_spill)
{
	RUN(held_through_a_file);
}
