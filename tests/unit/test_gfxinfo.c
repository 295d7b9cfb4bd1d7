/* SPDX-License-Identifier: MIT */
/*
 * dumpsys gfxinfo: the ProfileData bucket table and percentile walk, the parser on small
 * hand-made dumps of every column layout, and JankTracker per release. Every expected value
 * is derived by hand in the comment beside it (times in ms after T0).
 */
#include <stdlib.h>

#include "check.h"
#include "gfxstat/gfxstat_gfxinfo.h"

#define T0 1000000000000LL /* 1000 s */
#define M(x) (T0 + (int64_t)((x) * 1000000LL))
#define MS(x) ((int64_t)(x) * 1000000LL)
#define MAXB 6
#define MAXF 16

struct got {
	int nblocks, nframes, ntable;
	struct gfxstat_gfxinfo_block b[MAXB];
	char names[MAXB][64], apps[MAXB][64];
	char frame_app[64]; /* the first frame's app, copied during the callback */
	struct gfxstat_frame f[MAXF];
	int stop_after; /* stop at this frame (1-based), 0 = never */
};

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct got *g = user;

	if (g->nframes < MAXF)
		g->f[g->nframes] = *f;
	if (!g->nframes)
		snprintf(g->frame_app, sizeof(g->frame_app), "%.*s", (int)f->app.n, f->app.p);
	g->nframes++;
	return g->stop_after && g->nframes == g->stop_after;
}

static int on_block(void *user, const struct gfxstat_gfxinfo_block *b)
{
	struct got *g = user;

	if (g->nblocks < MAXB) {
		g->b[g->nblocks] = *b;
		snprintf(g->names[g->nblocks], 64, "%.*s", (int)b->name.n, b->name.p);
		snprintf(g->apps[g->nblocks], 64, "%.*s", (int)b->app.n, b->app.p);
	}
	g->nblocks++;
	return 0;
}

static int on_table(void *user, const struct gfxstat_gfxinfo_block *b,
		    const struct gfxstat_gfxinfo_table_row *r)
{
	struct got *g = user;

	(void)b;
	if (g->ntable == 0 && r->draw_ns == MS(50) && r->prepare_ns == 310000 &&
	    r->process_ns == 4260000 && r->execute_ns == 700000)
		g->ntable = 1000; /* the first row parsed exactly */
	g->ntable++;
	return 0;
}

/* Parse @text, cut into @chunk-byte feeds (0 = one feed). */
static struct gfxstat_gfxinfo *parse(const char *text, size_t n, size_t chunk, struct got *g,
				     const struct gfxstat_gfxinfo_opts *o)
{
	struct gfxstat_gfxinfo_sink sink = { on_frame, on_block, on_table, g };
	struct gfxstat_gfxinfo *p = gfxstat_gfxinfo_new(o, &sink, NULL);
	size_t off = 0;

	if (!p)
		return NULL;
	while (off < n) {
		size_t k = chunk && chunk < n - off ? chunk : n - off;

		if (gfxstat_gfxinfo_feed(p, text + off, k))
			break;
		off += k;
	}
	gfxstat_gfxinfo_finish(p);
	return p;
}

/* ---------------------------------------------------------------------------------------- */

TEST(bucket_table)
{
	/* FORMATS.md 5.5: 0-5 ms -> 0; 1 ms wide to 31; 2 ms to 47; 48-51; 4 ms to 135 */
	CHECK_EQ(gfxstat_profile_bucket(0), 0);
	CHECK_EQ(gfxstat_profile_bucket(MS(5) + 999999), 0);
	CHECK_EQ(gfxstat_profile_bucket(MS(6)), 1);
	CHECK_EQ(gfxstat_profile_bucket(MS(31)), 26);
	CHECK_EQ(gfxstat_profile_bucket(MS(32)), 27);
	CHECK_EQ(gfxstat_profile_bucket(MS(33)), 27);
	CHECK_EQ(gfxstat_profile_bucket(MS(34)), 28);
	CHECK_EQ(gfxstat_profile_bucket(MS(47)), 34);
	CHECK_EQ(gfxstat_profile_bucket(MS(48)), 35);
	CHECK_EQ(gfxstat_profile_bucket(MS(51)), 35);
	CHECK_EQ(gfxstat_profile_bucket(MS(52)), 36);
	CHECK_EQ(gfxstat_profile_bucket(MS(135)), 56);
	/* quirks: 136-139 ms write mFrameCounts[57] = slow[0]; 140-199 ms: (ms-150)/50 = 0 */
	CHECK_EQ(gfxstat_profile_bucket(MS(136)), 57);
	CHECK_EQ(gfxstat_profile_bucket(MS(149)), 57);
	CHECK_EQ(gfxstat_profile_bucket(MS(199)), 57);
	CHECK_EQ(gfxstat_profile_bucket(MS(200)), 58);
	CHECK_EQ(gfxstat_profile_bucket(MS(4949)), 57 + 95);
	CHECK_EQ(gfxstat_profile_bucket(MS(4950)), 153);
	CHECK_EQ(gfxstat_profile_bucket(MS(1000000)), 153);
	/* labels: frameTimeForFrameCountIndex, then i * 50 + 150 */
	CHECK_EQ(gfxstat_profile_bucket_ms(0), 5);
	CHECK_EQ(gfxstat_profile_bucket_ms(26), 31);
	CHECK_EQ(gfxstat_profile_bucket_ms(27), 32);
	CHECK_EQ(gfxstat_profile_bucket_ms(34), 46);
	CHECK_EQ(gfxstat_profile_bucket_ms(35), 48);
	CHECK_EQ(gfxstat_profile_bucket_ms(36), 53);
	CHECK_EQ(gfxstat_profile_bucket_ms(56), 133);
	CHECK_EQ(gfxstat_profile_bucket_ms(57), 150);
	CHECK_EQ(gfxstat_profile_bucket_ms(153), 4950);
	CHECK_EQ(gfxstat_profile_bucket_ms(154), 0);
	CHECK_EQ(gfxstat_profile_gpu_bucket_ms(0), 1);
	CHECK_EQ(gfxstat_profile_gpu_bucket_ms(24), 25);
	CHECK_EQ(gfxstat_profile_gpu_bucket_ms(25), 4950);
}

TEST(percentile_walk)
{
	struct gfxstat_profile p;

	gfxstat_profile_init(&p);
	/* no frames: remaining 0 is "<= 0" at the first (slowest) bucket, so 4950 ms, as the
	 * real Android 14 dump prints for its empty ShellDropTarget window */
	p.total_frames = 0;
	CHECK_EQ(gfxstat_profile_percentile(&p, 50), 4950);
	/* 10 frames: 7 at 8 ms (idx 3), 2 at 20 ms (idx 15), 1 at 300 ms (slow 3, idx 60) */
	p.total_frames = 10;
	p.hist[3] = 7;
	p.hist[15] = 2;
	p.hist[60] = 1;
	/* p50: pos 5, remaining 5: -1 (300) -> 4, -2 (20) -> 2, -7 (8) -> -5: 8 ms */
	CHECK_EQ(gfxstat_profile_percentile(&p, 50), 8);
	/* p90: pos 9, remaining 1: the 300 ms bucket takes it: 300 */
	CHECK_EQ(gfxstat_profile_percentile(&p, 90), 300);
	/* p80: pos 8, remaining 2: 300 -> 1, 20 -> -1: 20 */
	CHECK_EQ(gfxstat_profile_percentile(&p, 80), 20);
	/* a total above the histogram sum (7.x exempt frames): remaining never reaches 0 */
	p.total_frames = 40;
	CHECK_EQ(gfxstat_profile_percentile(&p, 50), 0);
}

/* ---------------------------------------------------------------------------------------- */
/* Android 12-14: 23 columns, header with FrameInterval,FrameStartTime swapped               */

static const char hdr13[] =
	"Flags,FrameTimelineVsyncId,IntendedVsync,Vsync,InputEventId,HandleInputStart,"
	"AnimationStart,PerformTraversalsStart,DrawStart,FrameDeadline,FrameInterval,"
	"FrameStartTime,SyncQueued,SyncStart,IssueDrawCommandsStart,SwapBuffers,FrameCompleted,"
	"DequeueBufferDuration,QueueBufferDuration,GpuCompleted,SwapBuffersCompleted,"
	"DisplayPresentTime,CommandSubmissionCompleted,\n";

/* Android 15: the header in enum order, + WorkloadTarget */
static const char hdr15[] =
	"Flags,FrameTimelineVsyncId,IntendedVsync,Vsync,InputEventId,HandleInputStart,"
	"AnimationStart,PerformTraversalsStart,DrawStart,FrameDeadline,FrameStartTime,"
	"FrameInterval,WorkloadTarget,SyncQueued,SyncStart,IssueDrawCommandsStart,SwapBuffers,"
	"FrameCompleted,DequeueBufferDuration,QueueBufferDuration,GpuCompleted,"
	"SwapBuffersCompleted,DisplayPresentTime,CommandSubmissionCompleted,\n";

struct r12 {
	int64_t flags, iv, vsync, deadline, sq, ss, issue, swap, fc, gpu, sbc, dpt;
};

/* One row in enum order (FrameStartTime = Vsync, interval 16 ms); @v15 adds WorkloadTarget. */
static size_t row12(char *b, size_t cap, const struct r12 *r, int v15)
{
	return (size_t)snprintf(b, cap,
				"%lld,%lld,%lld,%lld,0,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%s%lld,%lld,"
				"%lld,%lld,%lld,0,0,%lld,%lld,%lld,%lld,\n",
				(long long)r->flags, (long long)(r->iv / 1000000), (long long)r->iv,
				(long long)r->vsync, (long long)r->vsync, (long long)r->vsync,
				(long long)r->vsync, (long long)r->vsync, (long long)r->deadline,
				(long long)r->vsync, (long long)MS(16), v15 ? "0," : "",
				(long long)r->sq, (long long)r->ss, (long long)r->issue,
				(long long)r->swap, (long long)r->fc, (long long)r->gpu,
				(long long)r->sbc, (long long)r->dpt, (long long)r->swap);
}

/*
 * A: on time.    iv 0, vsync 0, deadline 16, sync 2/2, issue 3, swap 6, fc 8, gpu 8, sbc 7
 * B: janky.      iv 16, vsync 20, deadline 32, sync 21/22 (1 ms stall), issue 30, swap 40,
 *                fc 44, gpu 50, sbc 45
 * C: stuffed.    iv 48, vsync 48, deadline 80 (already bumped in the dump), sync 49/49,
 *                issue 50, swap 52, fc 54, gpu 70, sbc 53; Flags 2 (RTAnimation: counted)
 * D: exempt.     iv 64, Flags 4 (SurfaceCanvas), swap 100, fc 110, sbc 105
 * E: unfinished. FrameCompleted 0
 * F: garbage.    FrameCompleted 288234774265332736 (seen in a real Android 14 dump)
 */
static const struct r12 rows13[] = {
	{ 0, M(0), M(0), M(16), M(2), M(2), M(3), M(6), M(8), M(8), M(7), M(20) },
	{ 0, M(16), M(20), M(32), M(21), M(22), M(30), M(40), M(44), M(50), M(45), M(60) },
	{ 2, M(48), M(48), M(80), M(49), M(49), M(50), M(52), M(54), M(70), M(53), M(80) },
	{ 4, M(64), M(64), M(80), M(65), M(65), M(66), M(100), M(110), M(110), M(105), M(120) },
	{ 0, M(80), M(80), M(96), M(81), M(81), M(82), M(84), 0, 0, M(85), 0 },
	{ 0, M(96), M(96), M(112), M(97), M(97), M(98), M(100), 288234774265332736LL,
	  M(101), M(101), 0 },
};

static char *build13(size_t *len, int crlf)
{
	size_t cap = 16384, n = 0, i;
	char *b = malloc(cap), *out;

	if (!b)
		return NULL;
	n += (size_t)snprintf(b + n, cap - n,
			      "Applications Graphics Acceleration Info:\n"
			      "Uptime: 1 Realtime: 2\n\n"
			      "** Graphics info for pid 4242 [com.example] **\n\n"
			      "Stats since: 7ns\nTotal frames rendered: 900\n"
			      "Janky frames: 9 (1.00%%)\n\nProfile data in ms:\n\n"
			      "\tcom.example/com.example.Main/android.view.ViewRootImpl@1 "
			      "(visibility=0)\n\tDraw\tPrepare\tProcess\tExecute\n\n"
			      "Window: com.example/com.example.Main\n"
			      "Stats since: 5ns\nTotal frames rendered: 4\n"
			      "Janky frames: 1 (25.00%%)\nJanky frames (legacy): 1 (25.00%%)\n"
			      "50th percentile: 27ms\n90th percentile: 46ms\n"
			      "95th percentile: 46ms\n99th percentile: 46ms\n"
			      "Number Missed Vsync: 1\nNumber High input latency: 3\n"
			      "Number Slow UI thread: 0\nNumber Slow bitmap uploads: 1\n"
			      "Number Slow issue draw commands: 1\nNumber Frame deadline missed: 1\n"
			      "Number Frame deadline missed (legacy): 0\n"
			      "Number Vendor extra: 5\n"
			      "HISTOGRAM: 5ms=0 6ms=1 8ms=1 27ms=1 46ms=1\n"
			      "50th gpu percentile: 11ms\n"
			      "GPU HISTOGRAM: 1ms=0 3ms=1 11ms=1 19ms=1\n\n\n"
			      "---PROFILEDATA---\n%s", hdr13);
	for (i = 0; i < sizeof(rows13) / sizeof(rows13[0]); i++)
		n += row12(b + n, cap - n, &rows13[i], 0);
	n += (size_t)snprintf(b + n, cap - n, "---PROFILEDATA---\n\n\nView hierarchy:\n");
	if (!crlf) {
		*len = n;
		return b;
	}
	out = malloc(2 * n + 1);
	if (out) {
		size_t k = 0;

		for (i = 0; i < n; i++) {
			if (b[i] == '\n')
				out[k++] = '\r';
			out[k++] = b[i];
		}
		*len = k;
	}
	free(b);
	return out;
}

static void check13(const struct got *g)
{
	const struct gfxstat_gfxinfo_block *p = &g->b[0], *w = &g->b[1];
	const struct gfxstat_profile *c = &w->calc;

	CHECK_EQ(g->nblocks, 2);
	/* the process block: the summary under the pid header */
	CHECK_EQ(p->kind, GFXSTAT_BLOCK_PROCESS);
	CHECK_EQ(p->pid, 4242);
	CHECK_CSTR(g->apps[0], "com.example");
	CHECK_EQ(p->dump.total_frames, 900);
	CHECK_EQ(p->dump.janky_frames, 9);
	CHECK_EQ(p->has_rows, 0);
	/* the window: titled by the visibility line, renamed by "Window:" */
	CHECK_EQ(w->kind, GFXSTAT_BLOCK_WINDOW);
	CHECK_CSTR(g->names[1], "com.example/com.example.Main");
	CHECK_EQ(w->dump.stats_since_ns, 5);
	CHECK_EQ(w->dump.janky_legacy, 1);
	CHECK_EQ(w->dump.percentile[0], 27);
	CHECK_EQ(w->dump.jank_counts[GFXSTAT_JANK_HIGH_INPUT_LATENCY], 3);
	CHECK_EQ(w->dump.jank_counts[GFXSTAT_JANK_MISSED_DEADLINE_LEGACY], 0);
	CHECK_EQ(w->dump.hist_entries, 5);
	CHECK_EQ(w->dump.hist[22], 1); /* 27ms */
	CHECK_EQ(w->dump.gpu_hist_entries, 4);
	CHECK_EQ(w->dump.gpu_hist[10], 1); /* 11ms */
	CHECK_EQ(w->dump.gpu_percentile[0], 11);
	CHECK_EQ(w->dump.gpu_percentile[1], -1);
	CHECK_EQ(w->columns, 23);
	CHECK_EQ(w->header_swapped, 1);
	CHECK_EQ(w->rules, GFXSTAT_RULES_12);
	CHECK_EQ(w->rows, 6);
	CHECK_EQ(w->rows_flagged, 2);    /* C (2) and D (4) */
	CHECK_EQ(w->rows_incomplete, 2); /* E and F */

	/*
	 * Legacy tracker (interval 16, SwapBuffersCompleted):
	 *   A: total 7; first frame: deadline = 0+16, stuffed since 16 > 1.6 -> deadline 32;
	 *      fc 8 < 32: High input latency (1)
	 *   B: total 45-16-1 (stall) = 28 > 16: janky (legacy) 1; stuffed (32-16 > 1.6);
	 *      deadline max(48, 32) = 48; fc 44 < 48: High input latency (2)
	 *   C: total 5; 48-48 = 0: not stuffed; deadline 64; fc 54 < 64: nothing
	 *   D: SurfaceCanvas: exempt
	 * New tracker (FrameInterval 16, GpuCompleted vs FrameDeadline):
	 *   A: 8 ms -> 8ms bucket; gpu 8 < 16: on time
	 *   B: 44-16-1 = 27 ms; gpu 50 >= 32: Frame deadline missed, janky 1;
	 *      next = 50 - (30 % 16) + 16 = 52; Missed Vsync (4 >= 1), Slow bitmap uploads
	 *      (30-22 = 8 >= 3.2), Slow issue draw commands (44-30 = 14 >= 12); Slow UI
	 *      (22-20-1 = 1 < 8) not
	 *   C: 6 ms; stuffed (52-48 = 4 > 1.6); gpu 70 < 80: High input latency (3)
	 *   D: 46 ms counted in the histogram, then exempt
	 * Percentiles of {6, 8, 27, 46}: p50 pos 2: 46 -> 1, 27 -> 0: 27; p90/95/99 pos 3: 46.
	 * GPU (gpu - swap): A 2 ms (label 3), B 10 (11), C 18 (19); D exempt.
	 * p50 pos 1, remaining 2: 19 -> 1, 11 -> 0: 11; p90 pos 2: 19.
	 */
	CHECK_EQ(c->total_frames, 4);
	CHECK_EQ(c->janky_frames, 1);
	CHECK_EQ(c->janky_legacy, 1);
	CHECK_EQ(c->jank_counts[GFXSTAT_JANK_MISSED_VSYNC], 1);
	CHECK_EQ(c->jank_counts[GFXSTAT_JANK_HIGH_INPUT_LATENCY], 3);
	CHECK_EQ(c->jank_counts[GFXSTAT_JANK_SLOW_UI], 0);
	CHECK_EQ(c->jank_counts[GFXSTAT_JANK_SLOW_SYNC], 1);
	CHECK_EQ(c->jank_counts[GFXSTAT_JANK_SLOW_RT], 1);
	CHECK_EQ(c->jank_counts[GFXSTAT_JANK_MISSED_DEADLINE], 1);
	CHECK_EQ(c->jank_counts[GFXSTAT_JANK_MISSED_DEADLINE_LEGACY], 0);
	CHECK_EQ(c->hist[1], 1);  /* 6ms */
	CHECK_EQ(c->hist[3], 1);  /* 8ms */
	CHECK_EQ(c->hist[22], 1); /* 27ms */
	CHECK_EQ(c->hist[34], 1); /* 46ms */
	CHECK_EQ(c->percentile[0], 27);
	CHECK_EQ(c->percentile[1], 46);
	CHECK_EQ(c->percentile[3], 46);
	CHECK_EQ(c->gpu_hist[2], 1);
	CHECK_EQ(c->gpu_hist[10], 1);
	CHECK_EQ(c->gpu_hist[18], 1);
	CHECK_EQ(c->gpu_percentile[0], 11);
	CHECK_EQ(c->gpu_percentile[1], 19);

	/* the frames */
	CHECK_EQ(g->nframes, 6);
	CHECK_EQ(g->f[0].source, GFXSTAT_SRC_GFXINFO);
	CHECK_CSTR(g->frame_app, "com.example");
	CHECK_EQ(g->f[0].pid, 4242);
	CHECK_EQ(g->f[0].fi[GFXSTAT_FI_FRAME_INTERVAL], MS(16)); /* swapped back by label */
	CHECK_EQ(g->f[0].fi[GFXSTAT_FI_FRAME_START_TIME], M(0));
	CHECK_EQ(g->f[0].fi[GFXSTAT_FI_COMMAND_SUBMISSION_COMPLETED], M(6));
	CHECK_EQ(g->f[0].fi[GFXSTAT_FI_OLDEST_INPUT_EVENT], GFXSTAT_NS_NONE);
	CHECK_EQ(g->f[0].vsync_period_ns, MS(16));
	CHECK_EQ(g->f[0].token, 1000000);
	CHECK_EQ(g->f[0].present_ns, M(20)); /* DisplayPresentTime */
	CHECK_EQ(g->f[0].interval_ns, GFXSTAT_NS_NONE);
	CHECK_EQ(g->f[0].janky, 0);
	CHECK_EQ(g->f[0].jank_reasons, 1u << GFXSTAT_JANK_HIGH_INPUT_LATENCY);
	CHECK_EQ(g->f[1].janky, 1);
	CHECK_EQ(g->f[1].interval_ns, MS(40));
	CHECK_EQ(g->f[1].jank_reasons,
		 (1u << GFXSTAT_JANK_HIGH_INPUT_LATENCY) | (1u << GFXSTAT_JANK_MISSED_VSYNC) |
			 (1u << GFXSTAT_JANK_SLOW_SYNC) | (1u << GFXSTAT_JANK_SLOW_RT) |
			 (1u << GFXSTAT_JANK_MISSED_DEADLINE));
	CHECK_EQ(g->f[2].fi[GFXSTAT_FI_FLAGS], 2);
	CHECK_EQ(g->f[2].janky, 0);
	CHECK_EQ(g->f[3].fi[GFXSTAT_FI_FLAGS], 4);
	CHECK_EQ(g->f[3].janky, 0);
	CHECK_EQ(g->f[4].janky, -1);
	CHECK_EQ(g->f[4].present_ns, GFXSTAT_NS_NONE);
	CHECK_EQ(g->f[5].janky, -1);
	CHECK_EQ(g->f[5].present_ns, GFXSTAT_NS_NONE); /* no DisplayPresentTime, FC absurd */
}

TEST(android13_layout)
{
	struct got g;
	size_t n;
	char *t = build13(&n, 0);
	struct gfxstat_gfxinfo *p;

	memset(&g, 0, sizeof(g));
	p = parse(t, n, 0, &g, NULL);
	CHECK(p != NULL);
	check13(&g);
	CHECK_EQ(g.ntable, 0); /* the table header alone has no rows */
	CHECK_EQ(gfxstat_gfxinfo_counts(p)->v[GFXSTAT_GFXINFO_header_swapped], 1);
	CHECK_EQ(gfxstat_gfxinfo_counts(p)->v[GFXSTAT_GFXINFO_rows], 6);
	CHECK_EQ(gfxstat_gfxinfo_counts(p)->v[GFXSTAT_GFXINFO_summary_malformed], 0);
	gfxstat_gfxinfo_free(p);
	free(t);
}

TEST(chunks_and_encodings)
{
	struct got g;
	size_t n, i, k;
	char *t = build13(&n, 1), *u;
	struct gfxstat_gfxinfo *p;

	/* CRLF, one byte per feed */
	memset(&g, 0, sizeof(g));
	gfxstat_gfxinfo_free(parse(t, n, 1, &g, NULL));
	check13(&g);
	/* UTF-8 BOM + CRLF, 7-byte feeds */
	u = malloc(n + 3);
	memcpy(u, "\xEF\xBB\xBF", 3);
	memcpy(u + 3, t, n);
	memset(&g, 0, sizeof(g));
	gfxstat_gfxinfo_free(parse(u, n + 3, 7, &g, NULL));
	check13(&g);
	free(u);
	/* UTF-16LE with a BOM and CRLF (a PowerShell redirect), odd-sized feeds */
	u = malloc(2 * n + 2);
	u[0] = (char)0xFF;
	u[1] = (char)0xFE;
	for (i = 0, k = 2; i < n; i++) {
		u[k++] = t[i];
		u[k++] = 0;
	}
	memset(&g, 0, sizeof(g));
	p = parse(u, k, 3, &g, NULL);
	check13(&g);
	CHECK_EQ(gfxstat_gfxinfo_counts(p)->v[GFXSTAT_GFXINFO_utf16], 1);
	gfxstat_gfxinfo_free(p);
	free(u);
	free(t);
}

TEST(android15_layout)
{
	/* header in enum order + WorkloadTarget: no swap; rows A and B as above */
	char b[4096];
	size_t n = 0;
	struct got g;

	n += (size_t)snprintf(b, sizeof(b), "Window: w15\n---PROFILEDATA---\n%s", hdr15);
	n += row12(b + n, sizeof(b) - n, &rows13[0], 1);
	n += row12(b + n, sizeof(b) - n, &rows13[1], 1);
	n += (size_t)snprintf(b + n, sizeof(b) - n, "---PROFILEDATA---\n");
	memset(&g, 0, sizeof(g));
	gfxstat_gfxinfo_free(parse(b, n, 0, &g, NULL));
	CHECK_EQ(g.nblocks, 1);
	CHECK_CSTR(g.names[0], "w15");
	CHECK_EQ(g.b[0].columns, 24);
	CHECK_EQ(g.b[0].header_swapped, 0);
	CHECK_EQ(g.b[0].rules, GFXSTAT_RULES_12);
	CHECK_EQ(g.f[0].fi[GFXSTAT_FI_FRAME_INTERVAL], MS(16));
	CHECK_EQ(g.f[0].fi[GFXSTAT_FI_WORKLOAD_TARGET], 0);
	CHECK_EQ(g.f[1].fi[GFXSTAT_FI_SYNC_QUEUED], M(21));
	/* A and B alone: as above, High input latency 2 (both legacy), B janky */
	CHECK_EQ(g.b[0].calc.total_frames, 2);
	CHECK_EQ(g.b[0].calc.janky_frames, 1);
	CHECK_EQ(g.b[0].calc.janky_legacy, 1);
	CHECK_EQ(g.b[0].calc.jank_counts[GFXSTAT_JANK_HIGH_INPUT_LATENCY], 2);
	CHECK_EQ(g.b[0].has_summary, 0);
}

/* ---------------------------------------------------------------------------------------- */
/* Android 6 to 11: 14, 16 and 17 columns                                                    */

static const char hdr14[] = "Flags,IntendedVsync,Vsync,OldestInputEvent,NewestInputEvent,"
			    "HandleInputStart,AnimationStart,PerformTraversalsStart,DrawStart,"
			    "SyncQueued,SyncStart,IssueDrawCommandsStart,SwapBuffers,"
			    "FrameCompleted";

struct rold {
	int64_t flags, iv, vsync, sq, ss, issue, swap, fc, gpu;
};

/*
 * R1: iv 0, vsync 0, sync 1/1, issue 2, swap 5, fc 10, gpu 8:  total 10
 * R2: iv 16, vsync 20, sync 21/21, issue 30, swap 36, fc 40, gpu 38: total 24
 * R3: iv 32, vsync 32, sync 33/33, issue 34, swap 38, fc 45, gpu 40: total 13
 * R4: iv 96, vsync 96, sync 97/107 (10 ms stall), issue 108, swap 110, fc 113, gpu 112:
 *     total 113-96-10 = 7
 * The IntendedVsync steps are 16, 16, 64: the period is taken as 16 ms.
 */
static const struct rold rowsold[] = {
	{ 0, M(0), M(0), M(1), M(1), M(2), M(5), M(10), M(8) },
	{ 0, M(16), M(20), M(21), M(21), M(30), M(36), M(40), M(38) },
	{ 0, M(32), M(32), M(33), M(33), M(34), M(38), M(45), M(40) },
	{ 0, M(96), M(96), M(97), M(107), M(108), M(110), M(113), M(112) },
};

/* @cols 14, 16 or 17; @flags2: Flags of R2; @summary: text after the rows (or "") */
static size_t build_old(char *b, size_t cap, int cols, int64_t flags2, const char *summary)
{
	size_t n = 0, i;

	n += (size_t)snprintf(b, cap, "** Graphics info for pid 7 [old.app] **\n"
			      "\told.app/old.app.Main/android.view.ViewRootImpl@2 (visibility=0)\n"
			      "---PROFILEDATA---\n%s%s%s,\n", hdr14,
			      cols >= 16 ? ",DequeueBufferDuration,QueueBufferDuration" : "",
			      cols >= 17 ? ",GpuCompleted" : "");
	for (i = 0; i < 4; i++) {
		const struct rold *r = &rowsold[i];

		n += (size_t)snprintf(b + n, cap - n,
				      "%lld,%lld,%lld,9223372036854775807,0,%lld,%lld,%lld,%lld,"
				      "%lld,%lld,%lld,%lld,%lld,",
				      (long long)(i == 1 ? flags2 : r->flags), (long long)r->iv,
				      (long long)r->vsync, (long long)r->vsync, (long long)r->vsync,
				      (long long)r->vsync, (long long)r->vsync, (long long)r->sq,
				      (long long)r->ss, (long long)r->issue, (long long)r->swap,
				      (long long)r->fc);
		if (cols >= 16)
			n += (size_t)snprintf(b + n, cap - n, "0,0,");
		if (cols >= 17)
			n += (size_t)snprintf(b + n, cap - n, "%lld,", (long long)r->gpu);
		n += (size_t)snprintf(b + n, cap - n, "\n");
	}
	n += (size_t)snprintf(b + n, cap - n, "---PROFILEDATA---\n%s", summary);
	return n;
}

TEST(android8_layout)
{
	/*
	 * 8-9 finishFrame, interval 16, swap deadline starts at -1:
	 *   R1: total 10; not stuffed; deadline max(15 ns, 16) = 16; fc 10 < 16: on time
	 *   R2: total 24 > 16: janky; 16 > 16 is false: not stuffed; deadline 32; fc 40 >= 32:
	 *       Frame deadline missed; deadline = 40 - (20 % 16) + 16 = 52; Missed Vsync (4),
	 *       Slow bitmap uploads (9 >= 3.2); Slow UI (1 < 8), Slow RT (10 < 12) not
	 *   R3: total 13; 52 > 32: stuffed; deadline max(68, 48) = 68; fc 45 < 68: High input
	 *   R4: total 7; 68 > 96 false; deadline max(84, 112) = 112; fc 113 >= 112: Frame
	 *       deadline missed (not janky: 7 < 16); no comparison fires
	 * Histogram {10, 24, 13, 7}: p50 pos 2: 24 -> 1, 13 -> 0: 13; p90 pos 3: 24.
	 */
	char b[8192];
	size_t n = build_old(b, sizeof(b), 16, 0, "");
	struct got g;
	const struct gfxstat_profile *c;

	memset(&g, 0, sizeof(g));
	gfxstat_gfxinfo_free(parse(b, n, 5, &g, NULL));
	c = &g.b[1].calc;
	CHECK_EQ(g.nblocks, 2);
	CHECK_CSTR(g.names[1], "old.app/old.app.Main/android.view.ViewRootImpl@2");
	CHECK_EQ(g.b[1].rules, GFXSTAT_RULES_8);
	CHECK_EQ(g.b[1].columns, 16);
	CHECK_EQ(g.b[1].frame_interval_ns, MS(16));
	CHECK_EQ(c->total_frames, 4);
	CHECK_EQ(c->janky_frames, 1);
	CHECK_EQ(c->janky_legacy, -1);
	CHECK_EQ(c->jank_counts[GFXSTAT_JANK_MISSED_VSYNC], 1);
	CHECK_EQ(c->jank_counts[GFXSTAT_JANK_HIGH_INPUT_LATENCY], 1);
	CHECK_EQ(c->jank_counts[GFXSTAT_JANK_SLOW_SYNC], 1);
	CHECK_EQ(c->jank_counts[GFXSTAT_JANK_SLOW_RT], 0);
	CHECK_EQ(c->jank_counts[GFXSTAT_JANK_MISSED_DEADLINE], 2);
	CHECK_EQ(c->jank_counts[GFXSTAT_JANK_MISSED_DEADLINE_LEGACY], -1);
	CHECK_EQ(c->percentile[0], 13);
	CHECK_EQ(c->percentile[1], 24);
	CHECK_EQ(c->gpu_hist_entries, 0);
	CHECK_EQ(g.f[1].janky, 1);
	CHECK_EQ(g.f[3].janky, 0);
	CHECK_EQ(g.f[3].jank_reasons, 1u << GFXSTAT_JANK_MISSED_DEADLINE);
	CHECK_EQ(g.f[0].present_ns, M(10)); /* no DisplayPresentTime: FrameCompleted */
	CHECK_EQ(g.f[0].vsync_period_ns, MS(16));
	CHECK_EQ(g.f[0].fi[GFXSTAT_FI_OLDEST_INPUT_EVENT], INT64_MAX);
}

TEST(android71_layout)
{
	/*
	 * The same 16 columns, but the summary has no "Frame deadline missed": 7.1 addFrame.
	 *   R1 (10), R3 (13), R4 (7) < 16: histogram only. R2: 24 >= 16, janky; Missed Vsync,
	 *   Slow bitmap uploads; High input latency from OldestInputEvent = INT64_MAX: 0.
	 */
	char b[8192];
	size_t n = build_old(b, sizeof(b), 16, 0,
			     "Stats since: 1ns\nTotal frames rendered: 4\nJanky frames: 1 (25.00%)\n"
			     "Number Missed Vsync: 1\nNumber High input latency: 0\n"
			     "Number Slow UI thread: 0\nNumber Slow bitmap uploads: 1\n"
			     "Number Slow issue draw commands: 0\n");
	struct got g;
	const struct gfxstat_profile *c;

	memset(&g, 0, sizeof(g));
	gfxstat_gfxinfo_free(parse(b, n, 0, &g, NULL));
	c = &g.b[1].calc;
	CHECK_EQ(g.b[1].rules, GFXSTAT_RULES_7);
	CHECK_EQ(g.b[1].has_summary, 1);
	CHECK_EQ(c->total_frames, 4);
	CHECK_EQ(c->janky_frames, 1);
	CHECK_EQ(c->jank_counts[GFXSTAT_JANK_MISSED_VSYNC], 1);
	CHECK_EQ(c->jank_counts[GFXSTAT_JANK_HIGH_INPUT_LATENCY], 0);
	CHECK_EQ(c->jank_counts[GFXSTAT_JANK_SLOW_SYNC], 1);
	CHECK_EQ(c->jank_counts[GFXSTAT_JANK_MISSED_DEADLINE], -1);
	CHECK_EQ(c->percentile[0], 13);
	CHECK_EQ(g.b[1].dump.jank_counts[GFXSTAT_JANK_SLOW_SYNC], 1);
}

TEST(android6_layout)
{
	/*
	 * 14 columns (6.0-7.0): R2 has Flags 1 (WindowLayoutChanged), exempt in this release:
	 * counted in the total but, being slow, kept out of the histogram and not janky.
	 * Histogram {10, 13, 7} with total 4: p50 pos 2, remaining 2: 13 -> 1, 10 -> 0: 10.
	 */
	char b[8192];
	size_t n = build_old(b, sizeof(b), 14, 1, "");
	struct got g;
	const struct gfxstat_profile *c;

	memset(&g, 0, sizeof(g));
	gfxstat_gfxinfo_free(parse(b, n, 0, &g, NULL));
	c = &g.b[1].calc;
	CHECK_EQ(g.b[1].rules, GFXSTAT_RULES_6);
	CHECK_EQ(g.b[1].columns, 14);
	CHECK_EQ(g.b[1].rows_flagged, 1);
	CHECK_EQ(c->total_frames, 4);
	CHECK_EQ(c->janky_frames, 0);
	CHECK_EQ(c->hist[19], 0); /* 24ms */
	CHECK_EQ(c->percentile[0], 10);
	CHECK_EQ(g.f[1].fi[GFXSTAT_FI_FLAGS], 1);
	CHECK_EQ(g.f[1].janky, 0);
	/* forcing 7.1 rules: Flags 1 is no longer exempt, so R2 is janky */
	{
		struct gfxstat_gfxinfo_opts o;

		gfxstat_gfxinfo_opts_init(&o);
		o.android = 7;
		memset(&g, 0, sizeof(g));
		gfxstat_gfxinfo_free(parse(b, n, 0, &g, &o));
		CHECK_EQ(g.b[1].rules, GFXSTAT_RULES_7);
		CHECK_EQ(g.b[1].calc.janky_frames, 1);
	}
}

TEST(android10_layout)
{
	/*
	 * 17 columns: 10-11 rules. As 8-9 except R4: total 7 < 16, so on time (no deadline
	 * missed) and "stuffed" is (deadline - iv) > 1.6 ms: R3 (52-32 = 20) still is.
	 * GPU (gpu - swap): R1 3 ms (label 4), R2 2, R3 2, R4 2 (label 3);
	 * p50 pos 2, remaining 2: 4 -> 1, 3 -> -2: 3; p90 pos 3, remaining 1: 4.
	 */
	char b[8192];
	size_t n = build_old(b, sizeof(b), 17, 0, "");
	struct got g;
	const struct gfxstat_profile *c;

	memset(&g, 0, sizeof(g));
	gfxstat_gfxinfo_free(parse(b, n, 0, &g, NULL));
	c = &g.b[1].calc;
	CHECK_EQ(g.b[1].rules, GFXSTAT_RULES_10);
	CHECK_EQ(c->total_frames, 4);
	CHECK_EQ(c->janky_frames, 1);
	CHECK_EQ(c->jank_counts[GFXSTAT_JANK_MISSED_DEADLINE], 1);
	CHECK_EQ(c->jank_counts[GFXSTAT_JANK_HIGH_INPUT_LATENCY], 1);
	CHECK_EQ(c->gpu_hist[3], 1);
	CHECK_EQ(c->gpu_hist[2], 3);
	CHECK_EQ(c->gpu_percentile[0], 3);
	CHECK_EQ(c->gpu_percentile[1], 4);
	CHECK_EQ(g.f[3].jank_reasons, 0);
}

/* ---------------------------------------------------------------------------------------- */
/* Quirks: several processes, the legacy table, malformed rows, a cut-off block, stopping    */

TEST(quirks)
{
	static const char text[] =
		"** Graphics info for pid 11 [a.one] **\n"
		"Total frames rendered: 3\n"
		"** Graphics info for pid 12 [a.two:sandbox] **\n"
		"\ta.two/a.two.Main/android.view.ViewRootImpl@6e5075b (visibility=8)\n"
		"\tDraw\tPrepare\tProcess\tExecute\n"
		"\t50.00\t0.31\t4.26\t0.70\n"
		"\t1.00\t0.48\t5.19\t0.67\n"
		"\n"
		"Janky frames: x (1%)\n"
		"---PROFILEDATA---\n"
		"Flags,IntendedVsync,Vsync,Bogus\n"
		"0,1,2,3,\n"
		"0,1,2\n"
		"0,1,2,z\n"
		"0,1,2,3,4\n"
		"** Graphics info for pid 13 [a.three] **\n";
	struct got g;
	struct gfxstat_gfxinfo *p;
	const struct gfxstat_gfxinfo_counts *cn;

	memset(&g, 0, sizeof(g));
	p = parse(text, sizeof(text) - 1, 0, &g, NULL);
	cn = gfxstat_gfxinfo_counts(p);
	/* blocks: a.one, a.two (process), a.two window, a.three */
	CHECK_EQ(g.nblocks, 4);
	CHECK_EQ(g.b[0].pid, 11);
	CHECK_EQ(g.b[0].dump.total_frames, 3);
	CHECK_CSTR(g.apps[1], "a.two:sandbox");
	CHECK_EQ(g.b[2].kind, GFXSTAT_BLOCK_WINDOW);
	CHECK_EQ(g.b[2].pid, 12);
	CHECK_EQ(g.b[2].table_rows, 2);
	CHECK_EQ(g.ntable, 1002); /* two rows, the first exact */
	CHECK_EQ(g.b[2].columns, 4);
	CHECK_EQ(g.b[2].rows, 1);
	CHECK_EQ(g.b[3].pid, 13);
	CHECK_EQ(cn->v[GFXSTAT_GFXINFO_processes], 3);
	CHECK_EQ(cn->v[GFXSTAT_GFXINFO_header_unknown_columns], 1);
	CHECK_EQ(cn->v[GFXSTAT_GFXINFO_rows_short], 1);
	CHECK_EQ(cn->v[GFXSTAT_GFXINFO_rows_malformed], 2);
	CHECK_EQ(cn->v[GFXSTAT_GFXINFO_summary_malformed], 1);
	CHECK_EQ(cn->v[GFXSTAT_GFXINFO_profiledata_unterminated], 1);
	CHECK_EQ(cn->v[GFXSTAT_GFXINFO_table_rows], 2);
	gfxstat_gfxinfo_free(p);
}

TEST(stop_and_reuse)
{
	struct gfxstat_gfxinfo_sink sink = { on_frame, on_block, NULL, NULL };
	struct gfxstat_gfxinfo *p;
	struct got g;
	size_t n;
	char *t = build13(&n, 0);

	memset(&g, 0, sizeof(g));
	g.stop_after = 2;
	sink.user = &g;
	p = gfxstat_gfxinfo_new(NULL, &sink, NULL);
	CHECK_EQ(gfxstat_gfxinfo_feed(p, t, n), 0); /* rows are passed on when the block ends */
	CHECK_EQ(gfxstat_gfxinfo_finish(p), GFXSTAT_E_ABORTED);
	CHECK_EQ(g.nframes, 2);
	gfxstat_gfxinfo_free(p);
	gfxstat_gfxinfo_free(NULL);
	free(t);
}

/* ---------------------------------------------------------------------------------------- */
/* Present times on one basis, durations, per-frame verdicts = the recomputed summary         */

/* Per-frame verdicts and reasons summed over the frames give the block's recomputation. */
static void check_sums(const struct got *g, const struct gfxstat_profile *c)
{
	int64_t total = 0, janky = 0, n[GFXSTAT_JANK_COUNT] = { 0 };
	int i, t;

	for (i = 0; i < g->nframes && i < MAXF; i++) {
		total += g->f[i].janky >= 0;
		janky += g->f[i].janky == 1;
		for (t = 0; t < GFXSTAT_JANK_COUNT; t++)
			n[t] += gfxstat_jank_reason_count(g->f[i].jank_reasons,
							  (enum gfxstat_jank_type)t);
	}
	CHECK_EQ(total, c->total_frames);
	CHECK_EQ(janky, c->janky_frames);
	for (t = 0; t < GFXSTAT_JANK_COUNT; t++)
		CHECK_EQ(n[t], c->jank_counts[t]);
}

/*
 * Interval 16 ms; every row has sync 2/2 (no stall), issue +3, swap +6, fc = gpu +8, sbc +7
 * after its vsync (= IntendedVsync):
 *   R0 iv 0,  DisplayPresentTime 20: real; latency dp - completion = 20 - 8 = 12
 *   R1 iv 16, dp 30: real (> 20); latency 30 - 24 = 6; 30 - 20 = 10 < 16 - 16/50 = 15.68:
 *             moved to 20 + 16 = 36
 *   R2 iv 32, dp 56: real; latency 56 - 40 = 16; 56 - 36 = 20: kept
 *   R3 iv 48, dp 0: estimated, completion 56 + median{6, 12, 16} = 12 -> 68;
 *             68 - 56 = 12 < 15.68: moved to 72
 *   R4 iv 80, dp 56: stale (not after the last real present, 56): estimated 88 + 12 = 100;
 *             100 - 72 = 28: kept
 * Real 3, estimated 2, moved 2; duration = fc - iv = 8 ms each (hwui totalDuration).
 */
static const struct r12 rows_pres[] = {
	{ 0, M(0), M(0), M(16), M(2), M(2), M(3), M(6), M(8), M(8), M(7), M(20) },
	{ 0, M(16), M(16), M(32), M(18), M(18), M(19), M(22), M(24), M(24), M(23), M(30) },
	{ 0, M(32), M(32), M(48), M(34), M(34), M(35), M(38), M(40), M(40), M(39), M(56) },
	{ 0, M(48), M(48), M(64), M(50), M(50), M(51), M(54), M(56), M(56), M(55), 0 },
	{ 0, M(80), M(80), M(96), M(82), M(82), M(83), M(86), M(88), M(88), M(87), M(56) },
};

TEST(present_basis)
{
	char b[8192];
	size_t n = 0, i;
	struct got g;
	struct gfxstat_gfxinfo *p;
	const struct gfxstat_gfxinfo_block *w;
	static const int64_t want[] = { M(20), M(36), M(56), M(72), M(100) };

	n += (size_t)snprintf(b + n, sizeof(b) - n,
			      "** Graphics info for pid 7 [com.example] **\n\n"
			      "Window: com.example/com.example.Main\n---PROFILEDATA---\n%s", hdr13);
	for (i = 0; i < sizeof(rows_pres) / sizeof(rows_pres[0]); i++)
		n += row12(b + n, sizeof(b) - n, &rows_pres[i], 0);
	n += (size_t)snprintf(b + n, sizeof(b) - n, "---PROFILEDATA---\n");
	memset(&g, 0, sizeof(g));
	p = parse(b, n, 0, &g, NULL);
	CHECK(p != NULL);
	CHECK_EQ(g.nframes, 5);
	CHECK_EQ(g.nblocks, 2);
	w = &g.b[1];
	for (i = 0; i < 5; i++) {
		CHECK_EQ(g.f[i].present_ns, want[i]);
		CHECK_EQ(g.f[i].interval_ns, i ? want[i] - want[i - 1] : GFXSTAT_NS_NONE);
		CHECK_EQ(g.f[i].duration_ns, MS(8));
		CHECK_EQ(g.f[i].vsync_period_ns, MS(16));
	}
	CHECK_EQ(w->presents_real, 3);
	CHECK_EQ(w->presents_estimated, 2);
	CHECK_EQ(w->presents_moved, 2);
	CHECK_EQ(w->present_latency_ns, MS(12));
	check_sums(&g, &w->calc);
	gfxstat_gfxinfo_free(p);
}

/* check13's rows: A..D counted, E and F never finished (no duration, no present). */
TEST(frames_match_summary)
{
	struct got g;
	size_t n;
	char *t = build13(&n, 0);
	struct gfxstat_gfxinfo *p;

	memset(&g, 0, sizeof(g));
	p = parse(t, n, 0, &g, NULL);
	check_sums(&g, &g.b[1].calc);
	CHECK_EQ(g.f[0].duration_ns, MS(8));      /* fc 8 - iv 0 */
	CHECK_EQ(g.f[1].duration_ns, MS(44 - 16 - 1)); /* fc 44 - iv 16, less the 1 ms stall */
	CHECK_EQ(g.f[4].duration_ns, GFXSTAT_NS_NONE);
	CHECK_EQ(g.f[5].duration_ns, GFXSTAT_NS_NONE);
	/* both 12+ trackers reporting High input latency count twice */
	CHECK_EQ(gfxstat_jank_reason_count(GFXSTAT_JANK_REASON_TWICE |
						   (1u << GFXSTAT_JANK_HIGH_INPUT_LATENCY),
					   GFXSTAT_JANK_HIGH_INPUT_LATENCY), 2);
	CHECK_EQ(gfxstat_jank_reason_count(1u << GFXSTAT_JANK_SLOW_UI, GFXSTAT_JANK_SLOW_UI), 1);
	CHECK_EQ(gfxstat_jank_reason_count(0, GFXSTAT_JANK_SLOW_UI), 0);
	gfxstat_gfxinfo_free(p);
	free(t);
}

/*
 * The legacy table (NuvioTV's layout) as frames: duration = the four stages, janky when over
 * 16 ms (FrameInfoVisualizer: "<= FRAME_THRESHOLD_NS" is fast), no present.
 *   50.00+0.31+4.26+0.70 = 55.27 ms: janky;  5+2+4+1 = 12: not;  8+2+5+1 = 16: not (not > 16)
 */
TEST(legacy_table_frames)
{
	static const char t[] =
		"** Graphics info for pid 2062 [com.nuvio.tv] **\n\n"
		"Total frames rendered: 3\n\nProfile data in ms:\n\n"
		"\tcom.nuvio.tv/com.nuvio.tv.MainActivity/android.view.ViewRootImpl@6e5075b "
		"(visibility=0)\n\tDraw\tPrepare\tProcess\tExecute\n"
		"\t50.00\t0.31\t4.26\t0.70\n\t5.00\t2.00\t4.00\t1.00\n\t8.00\t2.00\t5.00\t1.00\n\n";
	struct got g;
	struct gfxstat_gfxinfo *p;
	int i;

	memset(&g, 0, sizeof(g));
	p = parse(t, sizeof(t) - 1, 7, &g, NULL);
	CHECK_EQ(g.nframes, 3);
	CHECK_EQ(g.nblocks, 2);
	CHECK_EQ(g.b[1].table_rows, 3);
	CHECK_EQ(g.b[1].table_janky, 1);
	CHECK_CSTR(g.frame_app, "com.nuvio.tv");
	CHECK_EQ(g.f[0].duration_ns, 55270000);
	CHECK_EQ(g.f[1].duration_ns, MS(12));
	CHECK_EQ(g.f[2].duration_ns, MS(16));
	CHECK_EQ(g.f[0].janky, 1);
	CHECK_EQ(g.f[1].janky, 0);
	CHECK_EQ(g.f[2].janky, 0);
	for (i = 0; i < 3; i++) {
		CHECK_EQ(g.f[i].source, GFXSTAT_SRC_GFXINFO);
		CHECK_EQ(g.f[i].present_ns, GFXSTAT_NS_NONE);
		CHECK_EQ(g.f[i].interval_ns, GFXSTAT_NS_NONE);
		CHECK_EQ(g.f[i].pid, 2062);
	}
	CHECK_STR(g.f[0].layer,
		  "com.nuvio.tv/com.nuvio.tv.MainActivity/android.view.ViewRootImpl@6e5075b");
	gfxstat_gfxinfo_free(p);
}

/*
 * Two summaries of one process, in NuvioTV's format, 10 s apart (Uptime 89896149 ms, then
 * 89906149 ms), same "Stats since": (3503 - 2903) frames / 10.000 s = 60.0 FPS.
 */
static const char pair_fmt[] =
	"Applications Graphics Acceleration Info:\nUptime: %s Realtime: 89896149\n\n"
	"** Graphics info for pid 2062 [com.nuvio.tv] **\n\n"
	"Stats since: 89732159635559ns\nTotal frames rendered: 2903\n"
	"Janky frames: 772 (26.59%%)\n\n"
	"Applications Graphics Acceleration Info:\nUptime: 89906149 Realtime: 89906149\n\n"
	"** Graphics info for pid 2062 [com.nuvio.tv] **\n\n"
	"Stats since: %s\nTotal frames rendered: 3503\nJanky frames: 800 (22.84%%)\n";

TEST(fps_between_dumps)
{
	char t[1024];
	struct got g;
	struct gfxstat_gfxinfo *p;
	double fps = -1;
	int n;

	n = snprintf(t, sizeof(t), pair_fmt, "89896149", "89732159635559ns");
	memset(&g, 0, sizeof(g));
	p = parse(t, (size_t)n, 5, &g, NULL);
	CHECK_EQ(g.nblocks, 2);
	CHECK_EQ(g.b[0].uptime_ns, 89896149LL * 1000000);
	CHECK_EQ(g.b[1].uptime_ns, 89906149LL * 1000000);
	CHECK_EQ(gfxstat_gfxinfo_fps_between(&g.b[0], &g.b[1], &fps), 0);
	CHECK(fps > 59.9999 && fps < 60.0001);
	CHECK_EQ(gfxstat_gfxinfo_fps_between(&g.b[1], &g.b[0], &fps), GFXSTAT_E_INVAL);
	gfxstat_gfxinfo_free(p);
	/* the stats were reset in between: the difference of the totals means nothing */
	n = snprintf(t, sizeof(t), pair_fmt, "89896149", "89900000000000ns");
	memset(&g, 0, sizeof(g));
	p = parse(t, (size_t)n, 0, &g, NULL);
	CHECK_EQ(gfxstat_gfxinfo_fps_between(&g.b[0], &g.b[1], &fps), GFXSTAT_E_INVAL);
	gfxstat_gfxinfo_free(p);
	/* no dump time */
	n = snprintf(t, sizeof(t), pair_fmt, "x", "89732159635559ns");
	memset(&g, 0, sizeof(g));
	p = parse(t, (size_t)n, 0, &g, NULL);
	CHECK_EQ(g.b[0].uptime_ns, GFXSTAT_NS_NONE);
	CHECK_EQ(gfxstat_gfxinfo_fps_between(&g.b[0], &g.b[1], &fps), GFXSTAT_E_INVAL);
	gfxstat_gfxinfo_free(p);
}

TEST_SUITE(test_gfxinfo)
{
	RUN(bucket_table);
	RUN(percentile_walk);
	RUN(android13_layout);
	RUN(chunks_and_encodings);
	RUN(android15_layout);
	RUN(android8_layout);
	RUN(android71_layout);
	RUN(android6_layout);
	RUN(android10_layout);
	RUN(quirks);
	RUN(stop_and_reuse);
	RUN(present_basis);
	RUN(frames_match_summary);
	RUN(legacy_table_frames);
	RUN(fps_between_dumps);
}
