/* SPDX-License-Identifier: MIT */
/*
 * The Perfetto decoder holds FrameTimeline's frames to the end (docs/perfetto.md, "Delivery
 * order"): past a few MB their records wait in an unnamed temporary file in the directory
 * gfxstat_perfetto_set_tmpdir() names, and every frame still goes out whole, in present order,
 * with the refresh period found at the end; with no file possible they stay in memory and the
 * frames are the same.
 */
#define _GNU_SOURCE /* mkdtemp */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "open_files.h"
#include "pb_write.h"
#include "gfxstat/gfxstat_perfetto.h"

#define NF 50000 /* display + surface frames: 100 k records, about 9 MB, past the 4 MB kept */
#define P 8333333LL
#define T0 10000000000LL

/* TracePacket { timestamp = 8, frame_timeline_event = 76 { @member = @ev } } */
static void ft_packet(struct pb *trace, int64_t ts, uint32_t member, const struct pb *ev)
{
	struct pb fte = PB_INIT, pkt = PB_INIT;

	pb_msg(&fte, member, ev);
	pb_u(&pkt, 8, (uint64_t)ts);
	pb_msg(&pkt, 76, &fte);
	pb_msg(trace, 1, &pkt);
}

static void ft_end(struct pb *trace, int64_t ts, uint64_t cookie)
{
	struct pb e = PB_INIT;

	pb_u(&e, 1, cookie);
	ft_packet(trace, ts, 5, &e);
}

/*
 * Frame @k: display frame token 100000 + k expected to present at E = T0 + k * P (started 10
 * ms before it), actual from E - 10 ms to E + 0.1 ms; and a surface frame of pid 4000 + k % 7,
 * token 900000 + k, in that display frame, drawn from E - 12 ms to E - 3 ms. By their ends the
 * frames go out surface k, display k, surface k + 1 (E + P - 3 ms > E + 0.1 ms), ...
 */
static void frame_k(struct pb *t, int k)
{
	struct pb ev = PB_INIT;
	int64_t e = T0 + (int64_t)k * P;
	uint64_t c = 10 + 4 * (uint64_t)k; /* cookies, unique */
	int j;

	pb_u(&ev, 1, c);
	pb_u(&ev, 2, 100000 + (uint64_t)k);
	pb_u(&ev, 3, 600);
	ft_packet(t, e - 10000000, 1, &ev); /* expected display */
	ft_end(t, e, c);
	ev.n = 0;
	pb_u(&ev, 1, c + 1);
	pb_u(&ev, 2, 100000 + (uint64_t)k);
	pb_u(&ev, 3, 600);
	pb_u(&ev, 7, GFXSTAT_JANK_NONE);
	ft_packet(t, e - 10000000, 2, &ev); /* actual display */
	ft_end(t, e + 100000, c + 1);
	for (j = 0; j < 2; j++) { /* expected, actual surface */
		ev.n = 0;
		pb_u(&ev, 1, c + 2 + (uint64_t)j);
		pb_u(&ev, 2, 900000 + (uint64_t)k);
		pb_u(&ev, 3, 100000 + (uint64_t)k);
		pb_u(&ev, 4, 4000 + (uint64_t)(k % 7));
		pb_str(&ev, 5, "TX - com.example/com.example.Main#0");
		if (j)
			pb_u(&ev, 9, GFXSTAT_JANK_NONE);
		ft_packet(t, e - 12000000, j ? 4 : 3, &ev);
		ft_end(t, e - 3000000, c + 2 + (uint64_t)j);
	}
}

struct got {
	int n, bad, file_seen;
	const char *dir;
	uint64_t sum; /* of every field of every frame, in order */
};

static uint64_t fold(uint64_t h, int64_t v)
{
	return (h ^ (uint64_t)v) * 0x100000001b3ull;
}

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct got *g = user;
	int k = g->n / 2, display = g->n % 2;
	int64_t e = T0 + (int64_t)k * P;

	if (g->n == 0 && g->dir)
		g->file_seen = holds_file_in(g->dir);
	g->n++;
	if (display ? f->source != GFXSTAT_SRC_FRAMETIMELINE_DISPLAY ||
			      f->token != 100000 + k || f->actual_start_ns != e - 10000000 ||
			      f->present_ns != e + 100000 || f->desired_present_ns != e
		    : f->source != GFXSTAT_SRC_FRAMETIMELINE || f->token != 900000 + k ||
			      f->display_token != 100000 + k || f->pid != 4000 + k % 7 ||
			      f->actual_start_ns != e - 12000000 || f->present_ns != e - 3000000 ||
			      f->expected_end_ns != e - 3000000)
		g->bad++;
	if (f->vsync_period_ns != P) /* the spacing of the expected presents */
		g->bad++;
	g->sum = fold(g->sum, f->source);
	g->sum = fold(g->sum, f->token);
	g->sum = fold(g->sum, f->display_token);
	g->sum = fold(g->sum, f->pid);
	g->sum = fold(g->sum, f->present_ns);
	g->sum = fold(g->sum, f->actual_start_ns);
	g->sum = fold(g->sum, f->expected_start_ns);
	g->sum = fold(g->sum, f->expected_end_ns);
	g->sum = fold(g->sum, f->vsync_period_ns);
	g->sum = fold(g->sum, (int64_t)f->layer.n);
	g->sum = fold(g->sum, (int64_t)f->app.n);
	return 0;
}

static void decode_all(const char *tmpdir, struct got *g)
{
	struct gfxstat_perfetto_sink sink = { NULL, on_frame, NULL, g, NULL, NULL, NULL, 0 };
	struct gfxstat_perfetto *p;
	struct pb t = PB_INIT;
	int k, rc = 0;

	p = gfxstat_perfetto_new(&sink, NULL);
	CHECK(p != NULL);
	if (!p)
		return;
	gfxstat_perfetto_set_tmpdir(p, tmpdir);
	for (k = 0; k < NF && !rc; k++) {
		t.n = 0;
		frame_k(&t, k);
		rc = gfxstat_perfetto_feed(p, t.b, t.n);
	}
	CHECK_EQ(rc, 0);
	CHECK_EQ(g->n, 0); /* held to the end */
	CHECK_EQ(gfxstat_perfetto_finish(p), 0);
	CHECK_EQ(gfxstat_perfetto_summary(p)->frames_display, NF);
	CHECK_EQ(gfxstat_perfetto_summary(p)->frames_surface, NF);
	gfxstat_perfetto_free(p);
}

TEST(long_capture_through_a_file)
{
	char dir[] = "/tmp/gfxstat-test-perfetto-XXXXXX";
	struct got g = { 0, 0, 0, dir, 0 }, mem = { 0, 0, 0, NULL, 0 };

	CHECK(mkdtemp(dir) != NULL);
	decode_all(dir, &g);
	CHECK_EQ(g.n, 2 * NF);
	CHECK_EQ(g.bad, 0);
	if (can_see_open_files())
		CHECK(g.file_seen); /* the records came back through the file */
	CHECK_EQ(rmdir(dir), 0); /* which left nothing behind */

	decode_all("/nonexistent/gfxstat-no-such-dir", &mem);
	CHECK_EQ(mem.n, 2 * NF);
	CHECK_EQ(mem.bad, 0);
	CHECK(mem.sum == g.sum);
	memset(&mem, 0, sizeof(mem));
	decode_all(NULL, &mem); /* the default */
	CHECK_EQ(mem.n, 2 * NF);
	CHECK(mem.sum == g.sum);
}

TEST_SUITE(test_perfetto_spill)
{
	RUN(long_capture_through_a_file);
}
