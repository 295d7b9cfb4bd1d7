/* SPDX-License-Identifier: MIT */
/* The push reader: same lines whatever the chunking; BOM, CRLF, overlong and partial lines. */
#include <stdlib.h>

#include "check.h"
#include "gfxstat/gfxstat.h"

struct collect {
	char out[8192];
	size_t len;
	int lines;
	int stop_after;
};

static int collect_line(void *user, const char *s, size_t n)
{
	struct collect *c = user;

	if (c->len + n + 1 < sizeof(c->out)) {
		memcpy(c->out + c->len, s, n);
		c->len += n;
		c->out[c->len++] = '|';
		c->out[c->len] = 0;
	}
	c->lines++;
	return c->stop_after && c->lines >= c->stop_after;
}

/* A sample mixing header forms, a BOM, CRLF and a last line without '\n'. */
static const char sample[] =
	"\xEF\xBB\xBF# tracer: nop\r\n"
	"#\n"
	"DispSync-799    (  683) [000] ...1 1080841.601945: tracing_mark_write: C|683|VSYNC-app|1\n"
	"<...>-683       (-----) [000] ...1 1080841.602840: tracing_mark_write: C|683|StatusBar#0|1\r\n"
	"\n"
	"  SurfaceFlinger-236   [000] 50260.947870: 0: B|124|postFramebuffer\n"
	"<idle>-0     [000] d..2.     0.002188: sched_switch: prev_comm=swapper\n"
	"last-1 [001] .... 1.000001: tracing_mark_write: E";

static const char expect[] =
	"# tracer: nop|#|"
	"DispSync-799    (  683) [000] ...1 1080841.601945: tracing_mark_write: C|683|VSYNC-app|1|"
	"<...>-683       (-----) [000] ...1 1080841.602840: tracing_mark_write: C|683|StatusBar#0|1|"
	"|  SurfaceFlinger-236   [000] 50260.947870: 0: B|124|postFramebuffer|"
	"<idle>-0     [000] d..2.     0.002188: sched_switch: prev_comm=swapper|"
	"last-1 [001] .... 1.000001: tracing_mark_write: E|";

TEST(every_split_point)
{
	size_t n = sizeof(sample) - 1, k, j;
	int bad = 0;

	/* one split at every byte, then three-way splits around each position */
	for (k = 0; k <= n; k++) {
		for (j = k; j <= n && j <= k + 3; j++) {
			struct collect c = { { 0 }, 0, 0, 0 };
			struct gfxstat_stats st = { { 0 } };
			struct gfxstat_line_reader *r =
				gfxstat_line_reader_new(0, collect_line, &c, &st);

			gfxstat_line_reader_feed(r, sample, k);
			gfxstat_line_reader_feed(r, sample + k, j - k);
			gfxstat_line_reader_feed(r, sample + j, n - j);
			gfxstat_line_reader_finish(r);
			gfxstat_line_reader_free(r);
			if (strcmp(c.out, expect) != 0 || st.v[GFXSTAT_STAT_lines] != 8 ||
			    st.v[GFXSTAT_STAT_bytes] != n)
				bad++;
		}
	}
	CHECK_EQ(bad, 0);
}

TEST(byte_at_a_time)
{
	struct collect c = { { 0 }, 0, 0, 0 };
	struct gfxstat_line_reader *r = gfxstat_line_reader_new(0, collect_line, &c, NULL);
	size_t i;

	for (i = 0; i < sizeof(sample) - 1; i++)
		gfxstat_line_reader_feed(r, sample + i, 1);
	gfxstat_line_reader_finish(r);
	gfxstat_line_reader_free(r);
	CHECK_CSTR(c.out, expect);
}

TEST(overlong_lines)
{
	static const char in[] = "short\n0123456789abcdef\nok\n0123456789abcdefXX";
	size_t k;
	int bad = 0;

	for (k = 0; k <= sizeof(in) - 1; k++) {
		struct collect c = { { 0 }, 0, 0, 0 };
		struct gfxstat_stats st = { { 0 } };
		struct gfxstat_line_reader *r = gfxstat_line_reader_new(10, collect_line, &c, &st);

		gfxstat_line_reader_feed(r, in, k);
		gfxstat_line_reader_feed(r, in + k, sizeof(in) - 1 - k);
		gfxstat_line_reader_finish(r);
		gfxstat_line_reader_free(r);
		if (strcmp(c.out, "short|ok|") || st.v[GFXSTAT_STAT_line_too_long] != 2 ||
		    st.v[GFXSTAT_STAT_lines] != 4)
			bad++;
	}
	CHECK_EQ(bad, 0);
}

/* A BOM is the stream's only: after an overlong first line (split anywhere), a second line
 * that starts with one keeps it; its 3 bytes + "x" fit the limit of 10. */
TEST(bom_only_first)
{
	static const char in[] = "0123456789abc\n\xEF\xBB\xBFx\ny\n";
	size_t k;
	int bad = 0;

	for (k = 0; k <= sizeof(in) - 1; k++) {
		struct collect c = { { 0 }, 0, 0, 0 };
		struct gfxstat_stats st = { { 0 } };
		struct gfxstat_line_reader *r = gfxstat_line_reader_new(10, collect_line, &c, &st);

		gfxstat_line_reader_feed(r, in, k);
		gfxstat_line_reader_feed(r, in + k, sizeof(in) - 1 - k);
		gfxstat_line_reader_finish(r);
		gfxstat_line_reader_free(r);
		if (strcmp(c.out, "\xEF\xBB\xBFx|y|") || st.v[GFXSTAT_STAT_line_too_long] != 1 ||
		    st.v[GFXSTAT_STAT_lines] != 3)
			bad++;
	}
	CHECK_EQ(bad, 0);
}

TEST(stop_and_restart)
{
	struct collect c = { { 0 }, 0, 0, 2 };
	struct gfxstat_line_reader *r = gfxstat_line_reader_new(0, collect_line, &c, NULL);

	CHECK_EQ(gfxstat_line_reader_feed(r, "a\nb\nc\n", 6), GFXSTAT_E_ABORTED);
	CHECK_EQ(c.lines, 2);
	/* after finish a new stream may start, with its own BOM */
	c.stop_after = 0;
	gfxstat_line_reader_finish(r);
	c.len = 0;
	c.out[0] = 0;
	CHECK_EQ(gfxstat_line_reader_feed(r, "\xEF\xBB\xBFx\ny", 6), 0);
	CHECK_EQ(gfxstat_line_reader_finish(r), 0);
	CHECK_CSTR(c.out, "x|y|");
	gfxstat_line_reader_free(r);
	gfxstat_line_reader_free(NULL);
}

TEST(empty_input)
{
	struct collect c = { { 0 }, 0, 0, 0 };
	struct gfxstat_line_reader *r = gfxstat_line_reader_new(0, collect_line, &c, NULL);

	CHECK_EQ(gfxstat_line_reader_feed(r, "", 0), 0);
	CHECK_EQ(gfxstat_line_reader_finish(r), 0);
	CHECK_EQ(c.lines, 0);
	gfxstat_line_reader_free(r);
}

TEST_SUITE(test_line_reader)
{
	RUN(every_split_point);
	RUN(byte_at_a_time);
	RUN(overlong_lines);
	RUN(bom_only_first);
	RUN(stop_and_restart);
	RUN(empty_input);
}
