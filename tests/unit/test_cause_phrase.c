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

TEST_SUITE(cause_phrase_suite)
{
	RUN(plain_cause_kinds);
	RUN(phrase_cut_and_nested);
	RUN(cluster_summary_and_unknown_late);
}
