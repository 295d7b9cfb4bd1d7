/* SPDX-License-Identifier: MIT */
/*
 * Unit tests: a DrawFrame that hwui skipped is no frame. hwui traces
 * ATRACE_FORMAT_INSTANT("Frame skipped: %s", reason) inside "DrawFrames <vsync id>" when it
 * draws nothing (frameworks/base libs/hwui/FrameInfo.cpp setSkippedFrameReason), and then
 * dequeues and queues no buffer (libs/hwui/renderthread/DrawFrameTask.cpp run()).
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "gfxstat/gfxstat.h"

static int count(void *user, const struct gfxstat_frame *f)
{
	long long *presents = user;

	if (presents[0] < 7)
		presents[1 + presents[0]] = f->present_ns;
	presents[0]++;
	return 0;
}

#define L(task, tid, ts, payload)                                                          \
	"  " task "-" #tid " (  100) [000] ...1 " ts ": tracing_mark_write: " payload "\n"

/*
 * An Android 14 app on an idle screen (process 100: main thread 100, RenderThread 101),
 * recorded without SurfaceFlinger, with no queueBuffer sections (so the rule that a process
 * tracing queueBuffer must queue one does not apply). Three vsyncs:
 *   doFrame 11 at 1.000, DrawFrames 11 at 1.004-1.006 with the instant
 *     "Frame skipped: NothingToDraw": skipped, no frame
 *   doFrame 12 at 1.016667, DrawFrames 12 at 1.020-1.025 with nothing skipped: a frame,
 *     presented at the end of DrawFrames, 1.025000 s
 *   doFrame 13 at 1.033333, DrawFrames 13 at 1.036-1.038 with a nested slice
 *     "Frame skipped: AlreadyDrawn": skipped, no frame
 * and an instant "Frame skipped" on the RenderThread outside any DrawFrames (an RT
 * animation's CanvasContext::prepareAndDraw) changes nothing.
 * Frames: 1 (at 1.025 s). Not frames: 2, counted as DrawFrames that queued no buffer.
 * Before the rule: 3 frames.
 */
TEST(skipped_draws_are_no_frames)
{
	static const char t[] =
		L("<...>", 100, "1.000000", "B|100|Choreographer#doFrame 11")
		L("<...>", 100, "1.003000", "E|100")
		L("RenderThread", 101, "1.004000", "B|100|DrawFrames 11")
		L("RenderThread", 101, "1.004500", "B|100|syncFrameState")
		L("RenderThread", 101, "1.004600", "I|100|Frame skipped: NothingToDraw")
		L("RenderThread", 101, "1.005000", "E|100")
		L("RenderThread", 101, "1.006000", "E|100")
		L("RenderThread", 101, "1.010000", "I|100|Frame skipped: NothingToDraw")
		L("<...>", 100, "1.016667", "B|100|Choreographer#doFrame 12")
		L("<...>", 100, "1.019000", "E|100")
		L("RenderThread", 101, "1.020000", "B|100|DrawFrames 12")
		L("RenderThread", 101, "1.025000", "E|100")
		L("<...>", 100, "1.033333", "B|100|Choreographer#doFrame 13")
		L("<...>", 100, "1.035000", "E|100")
		L("RenderThread", 101, "1.036000", "B|100|DrawFrames 13")
		L("RenderThread", 101, "1.036500", "B|100|Frame skipped: AlreadyDrawn")
		L("RenderThread", 101, "1.036600", "E|100")
		L("RenderThread", 101, "1.038000", "E|100");
	long long got[8] = { 0 };
	struct gfxstat_app_frames *af = gfxstat_app_frames_new(count, got);
	struct gfxstat_trace_parser *p = gfxstat_trace_parser_new(gfxstat_app_frames_marker, af);
	struct gfxstat_app_frames_summary s;

	CHECK(af && p);
	if (!af || !p)
		return;
	CHECK_EQ(gfxstat_trace_parser_feed(p, t, strlen(t)), 0);
	CHECK_EQ(gfxstat_trace_parser_finish(p), 0);
	CHECK_EQ(gfxstat_app_frames_finish(af), 0);
	gfxstat_app_frames_summary(af, &s);
	CHECK_EQ(got[0], 1);
	CHECK_EQ(got[1], 1025000000LL);
	CHECK_EQ(s.do_frames, 3);
	CHECK_EQ(s.draw_frames, 3);
	CHECK_EQ(s.no_buffer, 2);
	CHECK_EQ(s.frames, 1);
	gfxstat_trace_parser_free(p);
	gfxstat_app_frames_free(af);
}

TEST_SUITE(test_app_frames_skip)
{
	RUN(skipped_draws_are_no_frames);
}
