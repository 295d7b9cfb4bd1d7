/* SPDX-License-Identifier: MIT */
/*
 * A cause's summary is a whole phrase (issue 16/17 item 1): cut at its first ':' with every
 * bracket opened before the cut closed, back to a word when it would not fit; a cluster keeps
 * it whole, and counts the frames whose lateness is not known apart (item 2), never as 0.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "gfxstat/gfxstat_cause.h"
#include "../../lib/produce/jank_class_local.h"

#define MS 1000000LL

/* The texts jank_cause.c gives causes without app work, and their kind. */
TEST(plain_cause_kinds)
{
	struct gfxstat_cause c;

	memset(&c, 0, sizeof(c));
	/* the ':' is inside the bracket: cut there, the bracket closed (before: "unknown (no
	 * app sections for this layer's process in the trace", the bracket left open) */
	gx_cause_plain(&c, GFXSTAT_CAUSE_UNKNOWN,
		       "unknown (no app sections for this layer's process in the trace: record "
		       "with the 'view' category)");
	CHECK_CSTR(c.summary, "unknown (no app sections for this layer's process in the trace)");
	CHECK_CSTR(c.signature,
		   "unknown|unknown (no app sections for this layer's process in the trace)");
	/* the full text stays the text */
	CHECK(strstr(c.text, "record with the 'view' category)") != NULL);
	/* a ':' outside any bracket: the words before it, as before */
	gx_cause_plain(&c, GFXSTAT_CAUSE_SURFACEFLINGER,
		       "SurfaceFlinger/GPU: the app's work was within budget (DrawFrame 3.1 ms)");
	CHECK_CSTR(c.summary, "SurfaceFlinger/GPU");
	/* no ':': the whole text, balanced already */
	gx_cause_plain(&c, GFXSTAT_CAUSE_UNKNOWN,
		       "unknown (this layer's app process is not identified)");
	CHECK_CSTR(c.summary, "unknown (this layer's app process is not identified)");
}

TEST(phrase_cut_and_nested)
{
	char b[64];

	/* nested, cut inside both: closed inner first */
	gx_cause_phrase(b, sizeof(b), "a (b [c: d] e)", 7);
	CHECK_CSTR(b, "a (b [c])");
	/* too long for the room: back to a word, then closed: "x (aaa bbb" + ")" fits 11 */
	gx_cause_phrase(b, 12, "x (aaa bbb ccc ddd)", strlen("x (aaa bbb ccc ddd)"));
	CHECK_CSTR(b, "x (aaa bbb)");
	CHECK(strlen(b) < 12);
	/* a stray closing bracket is not matched against nothing */
	gx_cause_phrase(b, sizeof(b), "a) b", 4);
	CHECK_CSTR(b, "a) b");
	/* trailing separators before the cut go */
	gx_cause_phrase(b, sizeof(b), "idle; x", 5);
	CHECK_CSTR(b, "idle");
}

/* A cluster's summary is a whole phrase even when a caller's is cut; unknown lateness is
 * counted apart. */
TEST(cluster_summary_and_unknown_late)
{
	struct gfxstat_cause_clusters *cc = gfxstat_cause_clusters_new();
	const struct gfxstat_cause_cluster *c;
	size_t n;

	CHECK(cc != NULL);
	if (!cc)
		return;
	CHECK_EQ(gfxstat_cause_clusters_add(cc, GFXSTAT_CAUSE_UNKNOWN, "unknown|x", "unknown (x: y",
					    GFXSTAT_NS_NONE), 0);
	CHECK_EQ(gfxstat_cause_clusters_add(cc, GFXSTAT_CAUSE_UNKNOWN, "unknown|x", "unknown (x: y",
					    3 * MS), 0);
	n = gfxstat_cause_clusters_get(cc, &c);
	CHECK_EQ(n, 1);
	CHECK_CSTR(c[0].summary, "unknown (x: y)");
	CHECK_EQ(c[0].frames, 2);
	CHECK_EQ(c[0].late_unknown, 1);
	CHECK_EQ(c[0].jank_ns, 3 * MS); /* the known one alone, NONE not added */
	gfxstat_cause_clusters_free(cc);
}

/*
 * Two signatures of one summary are one cluster as shown (H13 item 2): "S|a" 2 frames, 30 ms
 * late, and "S|b" 3 frames, 20 ms, both "same words"; "T|c" 4 frames, 40 ms, "other words".
 * Merged: "same words" 5 frames, 50 ms, ranked first, signature "S|a" (its part with the
 * most jank time); then "other words" 4 frames, 40 ms. Unmerged, "other words" (40 ms) would
 * be first and "same words" would come twice.
 */
TEST(clusters_of_one_summary_merge)
{
	struct gfxstat_cause_clusters *cc = gfxstat_cause_clusters_new();
	const struct gfxstat_cause_cluster *c;
	size_t n, i;

	CHECK(cc != NULL);
	if (!cc)
		return;
	for (i = 0; i < 2; i++)
		CHECK_EQ(gfxstat_cause_clusters_add(cc, GFXSTAT_CAUSE_SLEEPING, "S|a", "same words",
						    15 * MS), 0);
	for (i = 0; i < 3; i++)
		CHECK_EQ(gfxstat_cause_clusters_add(cc, GFXSTAT_CAUSE_SLEEPING, "S|b", "same words",
						    i ? 7 * MS : 6 * MS), 0);
	for (i = 0; i < 4; i++)
		CHECK_EQ(gfxstat_cause_clusters_add(cc, GFXSTAT_CAUSE_BUSY, "T|c", "other words",
						    10 * MS), 0);
	n = gfxstat_cause_clusters_get(cc, &c);
	CHECK_EQ(n, 2);
	if (n == 2) {
		CHECK_CSTR(c[0].summary, "same words");
		CHECK_CSTR(c[0].signature, "S|a");
		CHECK_EQ(c[0].frames, 5);
		CHECK_EQ(c[0].jank_ns, 50 * MS);
		CHECK_CSTR(c[1].summary, "other words");
		CHECK_EQ(c[1].frames, 4);
	}
	CHECK_EQ(gfxstat_cause_clusters_frames(cc), 9);
	/* a frame added after a get joins its part, and the merge holds */
	CHECK_EQ(gfxstat_cause_clusters_add(cc, GFXSTAT_CAUSE_SLEEPING, "S|b", "same words", MS),
		 0);
	n = gfxstat_cause_clusters_get(cc, &c);
	CHECK_EQ(n, 2);
	if (n == 2) {
		CHECK_EQ(c[0].frames, 6);
		CHECK_EQ(c[0].jank_ns, 51 * MS);
	}
	gfxstat_cause_clusters_free(cc);
}

TEST_SUITE(cause_phrase_suite)
{
	RUN(clusters_of_one_summary_merge);
	RUN(plain_cause_kinds);
	RUN(phrase_cut_and_nested);
	RUN(cluster_summary_and_unknown_late);
}
