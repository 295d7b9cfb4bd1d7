/* SPDX-License-Identifier: MIT */
/* Unit tests: app-side frames from Choreographer#doFrame and DrawFrame markers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gfxstat/gfxstat.h"

#define MAXF 64

struct got {
	size_t n;
	char layer[MAXF][64];
	char app[MAXF][64];
	struct gfxstat_frame f[MAXF];
};

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct got *g = user;

	if (g->n < MAXF) {
		g->f[g->n] = *f;
		snprintf(g->layer[g->n], sizeof(g->layer[0]), "%.*s", (int)f->layer.n, f->layer.p);
		snprintf(g->app[g->n], sizeof(g->app[0]), "%.*s", (int)f->app.n, f->app.p);
	}
	g->n++;
	return 0;
}

/* Run trace text through the trace parser into an app-frames tracker, then finish it. */
static void run(const char *text, size_t n, const char *pname, int32_t ppid, struct got *g,
		struct gfxstat_app_frames_summary *sum)
{
	struct gfxstat_app_frames *af = gfxstat_app_frames_new(on_frame, g);
	struct gfxstat_trace_parser *p = gfxstat_trace_parser_new(gfxstat_app_frames_marker, af);

	memset(g, 0, sizeof(*g));
	CHECK(af && p);
	if (!af || !p)
		return;
	if (pname) {
		struct gfxstat_str s = { pname, strlen(pname) };

		CHECK_EQ(gfxstat_app_frames_task(af, ppid, 0, s), 0);
	}
	CHECK_EQ(gfxstat_trace_parser_feed(p, text, n), 0);
	CHECK_EQ(gfxstat_trace_parser_finish(p), 0);
	CHECK_EQ(gfxstat_app_frames_finish(af), 0);
	gfxstat_app_frames_summary(af, sum);
	gfxstat_trace_parser_free(p);
	gfxstat_app_frames_free(af);
}

#define L(task, tid, ts, payload)                                                          \
	"  " task "-" #tid " (-----) [000] ...1 " ts ": tracing_mark_write: " payload "\n"

/*
 * Android <= 11 names: process 100, main thread 100, RenderThread 101.
 *   doFrame A 1.000-1.010, DrawFrame 1.008-1.020 (starts inside A): frame 1, present 1.020,
 *     duration 1.020 - 1.000 = 20 ms
 *   doFrame B 1.016-1.018, no DrawFrame: no frame (input only)
 *   doFrame C 1.033-1.050, DrawFrame 1.036-1.045 and a second DrawFrame 1.046-1.048 inside
 *     C (another window): frame 2 at 1.045 (12 ms), the second is an extra draw
 *   DrawFrame 1.060-1.062 outside every doFrame (a RenderThread animation): lone, no frame
 *   an "E" on thread 102 with no B before it: ignored
 */
static const char legacy[] =
	L("<...>", 100, "1.000000", "B|100|Choreographer#doFrame")
	L("<...>", 100, "1.001000", "B|100|traversal")
	L("<...>", 100, "1.007000", "E")
	L("RenderThread", 101, "1.008000", "B|100|DrawFrame")
	L("RenderThread", 101, "1.008100", "B|100|syncFrameState")
	L("RenderThread", 101, "1.009000", "E|100")
	L("<...>", 100, "1.010000", "E")
	L("<...>", 100, "1.016000", "B|100|Choreographer#doFrame")
	L("<...>", 100, "1.018000", "E")
	L("RenderThread", 101, "1.020000", "E|100")
	L("<...>", 102, "1.021000", "E")
	L("<...>", 100, "1.033000", "B|100|Choreographer#doFrame")
	L("RenderThread", 101, "1.036000", "B|100|DrawFrame")
	L("RenderThread", 101, "1.045000", "E|100")
	L("RenderThread", 101, "1.046000", "B|100|DrawFrame")
	L("RenderThread", 101, "1.048000", "E|100")
	L("<...>", 100, "1.050000", "E")
	L("RenderThread", 101, "1.060000", "B|100|DrawFrame")
	L("RenderThread", 101, "1.062000", "E|100");

TEST(legacy_pairs)
{
	struct gfxstat_app_frames_summary s;
	struct got g;

	run(legacy, sizeof(legacy) - 1, NULL, 0, &g, &s);
	CHECK_EQ(g.n, 2);
	CHECK_EQ(s.frames, 2);
	CHECK_EQ(s.do_frames, 3);
	CHECK_EQ(s.draw_frames, 4);
	CHECK_EQ(s.extra_draws, 1);
	CHECK_EQ(s.lone_draws, 1);
	CHECK_EQ(s.processes, 1);
	CHECK_EQ(s.vsync_period_ns, 0);
	CHECK_EQ(g.f[0].source, GFXSTAT_SRC_APP);
	CHECK_CSTR(g.layer[0], "pid 100 (app-side)");
	CHECK_CSTR(g.app[0], "");
	CHECK_EQ(g.f[0].pid, 100);
	CHECK_EQ(g.f[0].present_ns, 1020000000);
	CHECK_EQ(g.f[0].interval_ns, GFXSTAT_NS_NONE);
	CHECK_EQ(g.f[0].duration_ns, 20000000);
	CHECK_EQ(g.f[0].token, -1);
	CHECK_EQ(g.f[0].vsync_period_ns, GFXSTAT_NS_NONE);
	CHECK_EQ(g.f[1].present_ns, 1045000000);
	CHECK_EQ(g.f[1].interval_ns, 25000000);
	CHECK_EQ(g.f[1].duration_ns, 12000000);
}

/*
 * Android 12+ names carry the vsync id. Process 200 ("com.example.app:ui"), RenderThread 201.
 * The DrawFrames of id 7 starts after doFrame 7 ended and inside doFrame 8 (RenderThread was
 * late): the id, not the time, pairs it with doFrame 7 (start 2.000). queueBuffer is traced,
 * so the present is its end; DrawFrames 9 queues nothing and is no frame. VSYNC-app toggles
 * every 16.666667 ms give the period.
 *   frame 1: id 7, present 2.024 (queueBuffer end), duration 2.025 - 2.000 = 25 ms
 *   frame 2: id 8, present 2.040, interval 16 ms, duration 2.041 - 2.016667 = 24.333 ms
 */
static const char s_form[] =
	L("surfaceflinger", 50, "1.900000", "C|50|VSYNC-app|1")
	L("surfaceflinger", 50, "1.916667", "C|50|VSYNC-app|0")
	L("surfaceflinger", 50, "1.933333", "C|50|VSYNC-app|1")
	L("surfaceflinger", 50, "1.950000", "C|50|VSYNC-app|0")
	L("surfaceflinger", 50, "1.966667", "C|50|VSYNC-app|1")
	L("surfaceflinger", 50, "1.983333", "C|50|VSYNC-app|0")
	L("surfaceflinger", 50, "2.000000", "C|50|VSYNC-app|1")
	L("ui", 200, "2.000000", "B|200|Choreographer#doFrame 7")
	L("ui", 200, "2.010000", "E|200")
	L("ui", 200, "2.016667", "B|200|Choreographer#doFrame 8")
	L("RenderThread", 201, "2.017000", "B|200|DrawFrames 7")
	L("RenderThread", 201, "2.020000", "B|200|queueBuffer")
	L("RenderThread", 201, "2.024000", "E|200")
	L("RenderThread", 201, "2.025000", "E|200")
	L("RenderThread", 201, "2.030000", "B|200|DrawFrames 8")
	L("ui", 200, "2.031000", "E|200")
	L("ui", 200, "2.033333", "B|200|Choreographer#doFrame 9")
	L("RenderThread", 201, "2.035000", "B|200|queueBuffer")
	L("RenderThread", 201, "2.040000", "E|200")
	L("RenderThread", 201, "2.041000", "E|200")
	L("RenderThread", 201, "2.042000", "B|200|DrawFrames 9")
	L("RenderThread", 201, "2.043000", "E|200")
	L("ui", 200, "2.044000", "E|200");

TEST(vsync_ids)
{
	struct gfxstat_app_frames_summary s;
	struct got g;

	run(s_form, sizeof(s_form) - 1, "com.example.app:ui", 200, &g, &s);
	CHECK_EQ(g.n, 2);
	CHECK_EQ(s.do_frames, 3);
	CHECK_EQ(s.draw_frames, 3);
	CHECK_EQ(s.no_buffer, 1);
	CHECK_EQ(s.lone_draws, 0);
	CHECK_EQ(s.vsync_period_ns, 16666667);
	CHECK_CSTR(g.layer[0], "com.example.app:ui (app-side)");
	CHECK_CSTR(g.app[0], "com.example.app");
	CHECK_EQ(g.f[0].token, 7);
	CHECK_EQ(g.f[0].present_ns, 2024000000);
	CHECK_EQ(g.f[0].duration_ns, 25000000);
	CHECK_EQ(g.f[0].vsync_period_ns, 16666667);
	CHECK_EQ(g.f[1].token, 8);
	CHECK_EQ(g.f[1].present_ns, 2040000000);
	CHECK_EQ(g.f[1].interval_ns, 16000000);
	CHECK_EQ(g.f[1].duration_ns, 24333000);
}

/*
 * Two RenderThreads of process 300 end DrawFrames of doFrames 1 and 2 at the same instant:
 * the second cannot be a later present and is dropped. Process 400 (no name given, its main
 * thread is not the doFrame's: tid 401) has a doFrame off the main thread: not a frame.
 */
static const char ties[] =
	L("ui", 300, "3.000000", "B|300|Choreographer#doFrame 1")
	L("rt", 301, "3.005000", "B|300|DrawFrames 1")
	L("ui", 300, "3.010000", "E|300")
	L("ui", 300, "3.020000", "B|300|Choreographer#doFrame 2")
	L("rt2", 302, "3.025000", "B|300|DrawFrames 2")
	L("ui", 300, "3.030000", "E|300")
	L("rt", 301, "3.050000", "E|300")
	L("rt2", 302, "3.050000", "E|300")
	L("x", 401, "3.060000", "B|400|Choreographer#doFrame")
	L("rt", 402, "3.061000", "B|400|DrawFrame")
	L("rt", 402, "3.062000", "E|400")
	L("x", 401, "3.070000", "E|400");

TEST(ties_and_threads)
{
	struct gfxstat_app_frames_summary s;
	struct got g;

	run(ties, sizeof(ties) - 1, "/system/bin/thing", 300, &g, &s);
	CHECK_EQ(g.n, 1);
	CHECK_EQ(s.not_increasing, 1);
	CHECK_EQ(s.do_frames, 2);
	CHECK_EQ(s.lone_draws, 1);
	CHECK_CSTR(g.layer[0], "/system/bin/thing (app-side)");
	CHECK_CSTR(g.app[0], "");
	CHECK_EQ(g.f[0].present_ns, 3050000000);
}

/*
 * The real app-only atrace from catapult (systrace/test_data/decompressed_atrace_data.txt,
 * BSD-3). By hand, tracking each thread's B/E depth: 15 "B|18926|Choreographer#doFrame" on
 * thread 18926, 14 "B|18926|DrawFrame" on thread 18964, no queueBuffer, no VSYNC counter.
 * doFrame 1 (683202.115809-.116883) has only input, no traversal and no DrawFrame. Every
 * DrawFrame starts inside the next doFrame in turn: DrawFrame 1 at .134734 in doFrame 2
 * (.131660-.136531), DrawFrame 2 at .165542 in doFrame 3 (.149085-.166116), DrawFrame 3 at
 * .171903 in doFrame 4 (.166314-.172642), ..., DrawFrame 14 at .348226 in doFrame 15
 * (.346588-.348910). So 14 frames, the first presented at DrawFrame 1's end .139771 with
 * duration .139771 - .131660 = 8.111 ms, the last at .352734 (DrawFrame 14's end), the
 * fifth interval .215203 - .208236 = 6.967 ms (RenderThread catching up after the 26 ms
 * DrawFrame 4).
 */
TEST(catapult_sample)
{
	const char *dir = getenv("GFXSTAT_SAMPLES");
	struct gfxstat_app_frames_summary s;
	char path[1024];
	struct got g;
	char *buf;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/atrace_text/catapult/decompressed_atrace_data.txt",
		 dir ? dir : "../shared/samples");
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "  skip catapult_sample: %s is absent\n", path);
		return;
	}
	buf = malloc(1 << 20);
	n = buf ? fread(buf, 1, 1 << 20, f) : 0;
	fclose(f);
	CHECK(n > 90000 && n < (1 << 20));
	run(buf, n, NULL, 0, &g, &s);
	free(buf);
	CHECK_EQ(g.n, 14);
	CHECK_EQ(s.do_frames, 15);
	CHECK_EQ(s.draw_frames, 14);
	CHECK_EQ(s.lone_draws + s.extra_draws + s.no_buffer + s.not_increasing, 0);
	CHECK_EQ(g.f[0].pid, 18926);
	CHECK_CSTR(g.layer[0], "pid 18926 (app-side)");
	CHECK_EQ(g.f[0].present_ns, 683202139771000);
	CHECK_EQ(g.f[0].duration_ns, 8111000);
	CHECK_EQ(g.f[4].interval_ns, 6967000);
	CHECK_EQ(g.f[13].present_ns, 683202352734000);
}

TEST_SUITE(test_app_frames)
{
	RUN(legacy_pairs);
	RUN(vsync_ids);
	RUN(ties_and_threads);
	RUN(catapult_sample);
}
