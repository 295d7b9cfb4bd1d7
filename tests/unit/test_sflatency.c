/* SPDX-License-Identifier: MIT */
/* Unit tests: dumpsys SurfaceFlinger --latency rows, stitching of polls, --list names. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gfxstat/gfxstat_sflatency.h"

#define P 16666667LL
#define MAXF 1024

struct got {
	int64_t present[MAXF], interval[MAXF], latch[MAXF], period[MAXF];
	int n;
	int gaps, resets;
	int64_t gap_last, gap_next;
	char layer[64];
	int stop_at;
};

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct got *g = user;

	if (g->n < MAXF) {
		g->present[g->n] = f->present_ns;
		g->interval[g->n] = f->interval_ns;
		g->latch[g->n] = f->actual_end_ns; /* frameReady: the acquire fence */
		g->period[g->n] = f->vsync_period_ns;
		g->n++;
	}
	if (f->source != GFXSTAT_SRC_SF_LATENCY)
		g->n = -1000;
	snprintf(g->layer, sizeof(g->layer), "%.*s", (int)f->layer.n, f->layer.p);
	return g->stop_at && g->n == g->stop_at;
}

static int on_gap(void *user, const struct gfxstat_sfl_gap *gap)
{
	struct got *g = user;

	if (gap->kind == GFXSTAT_SFL_GAP)
		g->gaps++;
	else
		g->resets++;
	g->gap_last = gap->last_present_ns;
	g->gap_next = gap->next_present_ns;
	return 0;
}

static int next_stop; /* the frame callback asks to stop at this frame; 0 = never */

static int run(const char *in, size_t n, size_t cut, struct got *g,
	       struct gfxstat_sfl_stats *st)
{
	struct gfxstat_sfl_sink sink = { on_frame, on_gap, g };
	struct gfxstat_sfl *p = gfxstat_sfl_new("SurfaceView - com.x/com.x.A#0", &sink, st);
	int rc;

	memset(g, 0, sizeof(*g));
	g->stop_at = next_stop;
	if (st)
		memset(st, 0, sizeof(*st));
	if (!p)
		return GFXSTAT_E_NOMEM;
	rc = gfxstat_sfl_feed(p, in, cut);
	if (!rc)
		rc = gfxstat_sfl_feed(p, in + cut, n - cut);
	if (!rc)
		rc = gfxstat_sfl_finish(p);
	gfxstat_sfl_free(p);
	return rc;
}

/* A dump of the ring holding frames [first, last] (present i*P), @zeros unused rows first,
 * the last @pending rows not yet presented. Columns separated by @sep. */
static size_t dump(char *b, size_t cap, int first, int last, int zeros, int pending,
		   const char *sep)
{
	size_t n = (size_t)snprintf(b, cap, "%lld\n", P);
	int i;

	for (i = 0; i < zeros; i++)
		n += (size_t)snprintf(b + n, cap - n, "0%s0%s0\n", sep, sep);
	for (i = first; i <= last; i++) {
		long long t = 1000000000LL + i * P;

		if (i > last - pending)
			n += (size_t)snprintf(b + n, cap - n, "%lld%s9223372036854775807%s%lld\n",
					      t - 3 * P, sep, sep, t - P);
		else
			n += (size_t)snprintf(b + n, cap - n, "%lld%s%lld%s%lld\n", t - 3 * P,
					      sep, t, sep, t - P);
	}
	n += (size_t)snprintf(b + n, cap - n, "\n");
	return n;
}

static char buf[1 << 17];

TEST(row_parse)
{
	struct gfxstat_sfl_row r;

	CHECK_EQ(gfxstat_sfl_row_parse("1\t2\t3", 5, &r), GFXSTAT_PARSE_OK);
	CHECK(r.desired_ns == 1 && r.actual_ns == 2 && r.ready_ns == 3);
	CHECK_EQ(gfxstat_sfl_row_parse("7657467895508   7657482691352   7657493499756\r", 46, &r),
		 GFXSTAT_PARSE_OK);
	CHECK_EQ(r.ready_ns, 7657493499756LL);
	CHECK_EQ(gfxstat_sfl_row_parse("1\t9223372036854775807\t-1", 24, &r), GFXSTAT_PARSE_OK);
	CHECK(r.actual_ns == INT64_MAX && r.ready_ns == -1);
	CHECK_EQ(gfxstat_sfl_row_parse("1\t9223372036854775808\t1", 23, &r), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_sfl_row_parse("16666667", 8, &r), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_sfl_row_parse("1 2 3 4", 7, &r), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_sfl_row_parse("1 2 x", 5, &r), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_sfl_row_parse(" \r", 2, &r), GFXSTAT_PARSE_UNSUPPORTED);
}

TEST(single_dump)
{
	struct gfxstat_sfl_stats st;
	struct got g;
	size_t n = dump(buf, sizeof(buf), 1, 10, 117, 2, "\t"), cut;
	int i, bad = 0;

	CHECK_EQ(run(buf, n, 0, &g, &st), 0);
	CHECK_EQ(g.n, 8);
	CHECK_EQ(g.present[0], 1000000000LL + P);
	CHECK_EQ(g.interval[0], GFXSTAT_NS_NONE);
	CHECK_EQ(g.interval[1], P);
	CHECK_EQ(g.latch[1], 1000000000LL + P);
	CHECK_EQ(g.period[0], P);
	CHECK_CSTR(g.layer, "SurfaceView - com.x/com.x.A#0");
	CHECK_EQ(st.v[GFXSTAT_SFL_STAT_empty_rows], 117);
	CHECK_EQ(st.v[GFXSTAT_SFL_STAT_pending_rows], 2);
	CHECK_EQ(st.v[GFXSTAT_SFL_STAT_pending_at_end], 2);
	CHECK_EQ(st.v[GFXSTAT_SFL_STAT_rows], 127);
	CHECK_EQ(st.v[GFXSTAT_SFL_STAT_frames], 8);
	for (i = 1; i < g.n; i++)
		CHECK_EQ(g.interval[i], P);
	/* every split point gives the same frames */
	for (cut = 0; cut <= n; cut++) {
		struct got h;

		run(buf, n, cut, &h, NULL);
		bad += h.n != g.n || memcmp(h.present, g.present, sizeof(g.present)) != 0;
	}
	CHECK_EQ(bad, 0);
	/* the same with runs of spaces, CRLF and the unresponsive warning */
	n = (size_t)snprintf(buf, sizeof(buf),
			     "SurfaceFlinger appears to be unresponsive, dumping anyways\r\n");
	n += dump(buf + n, sizeof(buf) - n, 1, 10, 117, 2, "   ");
	CHECK_EQ(run(buf, n, 5, &g, &st), 0);
	CHECK_EQ(g.n, 8);
	CHECK_EQ(st.v[GFXSTAT_SFL_STAT_unresponsive], 1);
	CHECK_EQ(st.v[GFXSTAT_SFL_STAT_malformed], 0);
}

TEST(stitch_overlap)
{
	struct gfxstat_sfl_stats st;
	struct got g, h;
	size_t n = 0, cut;
	int i, bad = 0;

	/* polls: frames 1-10 (2 pending), 1-20 (1 pending), 5-131 (full ring), then 100-226 */
	n += dump(buf + n, sizeof(buf) - n, 1, 10, 117, 2, "\t");
	n += dump(buf + n, sizeof(buf) - n, 1, 20, 107, 1, "\t");
	n += dump(buf + n, sizeof(buf) - n, 5, 131, 0, 0, "\t");
	n += dump(buf + n, sizeof(buf) - n, 100, 226, 0, 0, "\t");
	CHECK_EQ(run(buf, n, 0, &g, &st), 0);
	CHECK_EQ(g.n, 226);
	for (i = 0; i < g.n; i++) {
		if (g.present[i] != 1000000000LL + (i + 1) * P)
			bad++;
		if (i && g.interval[i] != P)
			bad++;
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(g.gaps + g.resets, 0);
	CHECK_EQ(st.v[GFXSTAT_SFL_STAT_dumps], 4);
	CHECK_EQ(st.v[GFXSTAT_SFL_STAT_overlap_rows], 8 + 15 + 32);
	CHECK_EQ(st.v[GFXSTAT_SFL_STAT_pending_at_end], 0);
	/* split anywhere */
	for (cut = 0; cut <= n; cut += 7) {
		run(buf, n, cut, &h, NULL);
		bad += h.n != g.n || memcmp(h.present, g.present, sizeof(g.present)) != 0 ||
		       memcmp(h.interval, g.interval, sizeof(g.interval)) != 0;
	}
	CHECK_EQ(bad, 0);
}

TEST(stitch_gap)
{
	struct gfxstat_sfl_stats st;
	struct got g;
	size_t n = 0;

	/* a full ring 1-127, then a poll too late: 200-326 shares nothing */
	n += dump(buf + n, sizeof(buf) - n, 1, 127, 0, 0, "\t");
	n += dump(buf + n, sizeof(buf) - n, 200, 326, 0, 0, "\t");
	CHECK_EQ(run(buf, n, 0, &g, &st), 0);
	CHECK_EQ(g.n, 254);
	CHECK_EQ(g.gaps, 1);
	CHECK_EQ(st.v[GFXSTAT_SFL_STAT_gaps], 1);
	CHECK_EQ(g.interval[127], GFXSTAT_NS_NONE); /* not bridged by a long interval */
	CHECK_EQ(g.interval[128], P);
	CHECK_EQ(g.gap_last, 1000000000LL + 127 * P);
	CHECK_EQ(g.gap_next, 1000000000LL + 200 * P);

	/* the layer was recreated: a ring with unused rows, unrelated to the last */
	n = dump(buf, sizeof(buf), 1, 50, 77, 0, "\t");
	n += dump(buf + n, sizeof(buf) - n, 300, 310, 116, 0, "\t");
	/* the same dump again, and an older one: nothing new */
	n += dump(buf + n, sizeof(buf) - n, 300, 310, 116, 0, "\t");
	n += dump(buf + n, sizeof(buf) - n, 1, 50, 77, 0, "\t");
	CHECK_EQ(run(buf, n, 0, &g, &st), 0);
	CHECK_EQ(g.n, 61);
	CHECK_EQ(g.resets, 1);
	CHECK_EQ(st.v[GFXSTAT_SFL_STAT_stale_dumps], 1);
	CHECK_EQ(st.v[GFXSTAT_SFL_STAT_overlap_rows], 11);
}

TEST(odd_rows)
{
	static const char in[] = "16666667\n"
				 "0\t0\t0\n"
				 "100\t200\t150\n"
				 "300\t-1\t350\n"
				 "500\t600\t9223372036854775807\n"
				 "700\t800\t750\n"
				 "\n"
				 "1\t2\t3\n"
				 "garbage\n";
	struct gfxstat_sfl_stats st;
	struct got g;

	CHECK_EQ(run(in, sizeof(in) - 1, 0, &g, &st), 0);
	CHECK_EQ(g.n, 3);
	CHECK_EQ(g.present[1], 600);
	CHECK_EQ(g.interval[1], GFXSTAT_NS_NONE); /* after the invalid row */
	CHECK_EQ(g.latch[1], GFXSTAT_NS_NONE);    /* pending ready fence */
	CHECK_EQ(g.interval[2], 200);
	CHECK_EQ(st.v[GFXSTAT_SFL_STAT_invalid_rows], 1);
	CHECK_EQ(st.v[GFXSTAT_SFL_STAT_extra_blocks], 1);
	CHECK_EQ(st.v[GFXSTAT_SFL_STAT_malformed], 1);
	/* rows with no period line; a period line alone */
	CHECK_EQ(run("1\t2\t3\n", 6, 0, &g, &st), 0);
	CHECK_EQ(st.v[GFXSTAT_SFL_STAT_rows_without_period], 1);
	CHECK_EQ(run("16666667\r\n", 10, 3, &g, &st), 0);
	CHECK_EQ(st.v[GFXSTAT_SFL_STAT_no_rows], 1);
	CHECK_EQ(g.n, 0);
}

/*
 * A period line of INT64_MAX - 1 is no display's: counted as damage (bad_period) and read as
 * no period, so the rows keep the period the model has in force; before, the model's
 * arithmetic on it overflowed and every frame of the dump went.
 */
TEST(bad_period)
{
	static const char in[] = "9223372036854775806\n"
				 "100000000\t116666667\t110000000\n"
				 "116666667\t133333334\t126666667\n";
	struct gfxstat_sfl_stats st;
	struct got g;

	CHECK_EQ(run(in, sizeof(in) - 1, 0, &g, &st), 0);
	CHECK_EQ(g.n, 2);
	CHECK_EQ(g.period[0], GFXSTAT_NS_NONE);
	CHECK_EQ(g.interval[1], 16666667);
	CHECK_EQ(st.v[GFXSTAT_SFL_STAT_bad_period], 1);
	CHECK_EQ(gfxstat_sfl_stat_severity(GFXSTAT_SFL_STAT_bad_period), GFXSTAT_SEV_ERROR);
}

TEST(stop)
{
	struct got g;
	size_t n = dump(buf, sizeof(buf), 1, 20, 107, 0, "\t");

	next_stop = 3;
	CHECK_EQ(run(buf, n, 0, &g, NULL), GFXSTAT_E_ABORTED);
	next_stop = 0;
	CHECK_EQ(g.n, 3);
	gfxstat_sfl_free(NULL);
}

TEST(list_names)
{
	static const struct {
		const char *in, *want;
	} t[] = {
		{ "com.android.chrome/com.google.android.apps.chrome.Main#20384\r",
		  "com.android.chrome/com.google.android.apps.chrome.Main#20384" },
		{ "RequestedLayerState{SurfaceView[com.x/com.x.A](BLAST)#92 parentId=20 z=-2}",
		  "SurfaceView[com.x/com.x.A](BLAST)#92" },
		{ "RequestedLayerState{a b parentId=1#3 parentId=5 relativeParentId=7 "
		  "mirrorId={1,2} !handle z=1 layerStack=2}",
		  "a b parentId=1#3" },
		{ "RequestedLayerState{Task=5#56}", "Task=5#56" },
		{ "  Dim layer#54  ", "Dim layer#54" },
	};
	struct gfxstat_str s;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		CHECK_EQ(gfxstat_sflist_line(t[i].in, strlen(t[i].in), &s), GFXSTAT_PARSE_OK);
		CHECK_STR(s, t[i].want);
	}
	CHECK_EQ(gfxstat_sflist_line(" \r", 2, &s), GFXSTAT_PARSE_UNSUPPORTED);

#define SCORE(name, pkg) gfxstat_sflist_score((struct gfxstat_str){ name, strlen(name) }, pkg)
	CHECK_EQ(SCORE("SurfaceView[com.x/com.x.A](BLAST)#92", "com.x"), 3);
	CHECK_EQ(SCORE("SurfaceView - com.x/com.x.A#0", "com.x"), 3);
	CHECK_EQ(SCORE("bc036f6 com.x/com.x.A#20384", "com.x"), 2);
	CHECK_EQ(SCORE("com.x/com.x.A#0", "com.x"), 2);
	CHECK_EQ(SCORE("ActivityRecord{5706436 u0 com.x/com.x.A t191}#20377", "com.x"), 0);
	CHECK_EQ(SCORE("Splash Screen com.x#1", "com.x"), 0);
	CHECK_EQ(SCORE("com.y/com.y.A#0", "com.x"), 0);
	CHECK_EQ(SCORE("Task=191#20376", NULL), 0);
	CHECK_EQ(SCORE("com.y/com.y.A#0", NULL), 2);
#undef SCORE
	CHECK_CSTR(gfxstat_sfl_stat_name(GFXSTAT_SFL_STAT_gaps), "gaps");
}

TEST_SUITE(test_sflatency)
{
	RUN(row_parse);
	RUN(single_dump);
	RUN(stitch_overlap);
	RUN(stitch_gap);
	RUN(odd_rows);
	RUN(bad_period);
	RUN(stop);
	RUN(list_names);
}
