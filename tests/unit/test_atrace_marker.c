/* SPDX-License-Identifier: MIT */
/* atrace payloads, with Perfetto's systrace_parser.h list as the reference (FORMATS.md 1.3). */
#include "check.h"
#include "gfxstat/gfxstat.h"

static struct gfxstat_marker m;

static enum gfxstat_parse_res mp(const char *s)
{
	memset(&m, 0, sizeof(m));
	return gfxstat_atrace_marker_parse(s, strlen(s), &m);
}

TEST(perfetto_forms)
{
	CHECK_EQ(mp("some random text"), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(mp("B|1636|pokeUserActivity"), GFXSTAT_PARSE_OK);
	CHECK_EQ(m.kind, GFXSTAT_MARKER_BEGIN);
	CHECK_EQ(m.pid, 1636);
	CHECK_STR(m.name, "pokeUserActivity");
	CHECK_EQ(mp("E|1636"), GFXSTAT_PARSE_OK);
	CHECK_EQ(m.kind, GFXSTAT_MARKER_END);
	CHECK_EQ(m.pid, 1636);
	CHECK_EQ(mp("C|1636|wq:monitor|0"), GFXSTAT_PARSE_OK);
	CHECK_EQ(m.kind, GFXSTAT_MARKER_COUNTER);
	CHECK_STR(m.name, "wq:monitor");
	CHECK_EQ(m.value, 0);
	CHECK_EQ(mp("S|1636|frame_capture|123"), GFXSTAT_PARSE_OK);
	CHECK_EQ(m.kind, GFXSTAT_MARKER_ASYNC_BEGIN);
	CHECK_STR(m.name, "frame_capture");
	CHECK_EQ(m.value, 123);
	CHECK_EQ(mp("F|1636|frame_capture|456"), GFXSTAT_PARSE_OK);
	CHECK_EQ(m.kind, GFXSTAT_MARKER_ASYNC_END);
	CHECK_EQ(m.value, 456);
	CHECK_EQ(mp("C|3209|TransfersBytesPendingOnDisk-value|0|Blob"), GFXSTAT_PARSE_OK);
	CHECK_STR(m.name, "TransfersBytesPendingOnDisk-value");
	CHECK_EQ(m.value, 0);
	CHECK_EQ(mp("I|4820|instant"), GFXSTAT_PARSE_OK);
	CHECK_EQ(m.kind, GFXSTAT_MARKER_INSTANT);
	CHECK_STR(m.name, "instant");
	CHECK_EQ(mp("N|1938|track_name|instant_name"), GFXSTAT_PARSE_OK);
	CHECK_STR(m.track, "track_name");
	CHECK_STR(m.name, "instant_name");
	CHECK_EQ(mp("G|1339|track_name|slice_name|789"), GFXSTAT_PARSE_OK);
	CHECK_STR(m.track, "track_name");
	CHECK_STR(m.name, "slice_name");
	CHECK_EQ(m.value, 789);
	CHECK_EQ(mp("H|6890|track_name|slice_name|135"), GFXSTAT_PARSE_OK);
	CHECK_STR(m.track, "track_name");
	CHECK_STR(m.name, "slice_name");
	CHECK_EQ(m.value, 135);
	CHECK_EQ(mp("H|6890|track_name|135"), GFXSTAT_PARSE_OK);
	CHECK_STR(m.track, "track_name");
	CHECK_EQ(m.name.n, 0);
	CHECK_EQ(m.value, 135);
}

TEST(end_forms)
{
	/* old cutils and bionic write a bare "E"; Flutter too */
	CHECK_EQ(mp("E"), GFXSTAT_PARSE_OK);
	CHECK_EQ(m.pid, -1);
	CHECK_EQ(mp("E|"), GFXSTAT_PARSE_OK);
	CHECK_EQ(m.pid, -1);
	CHECK_EQ(mp("E|42|name"), GFXSTAT_PARSE_OK);
	CHECK_EQ(m.pid, 42);
	CHECK_EQ(mp("E\n"), GFXSTAT_PARSE_OK);
	CHECK_EQ(mp("Ex"), GFXSTAT_PARSE_FAIL);
}

TEST(names_and_values)
{
	/* a B name is the whole rest, '|' included (Perfetto) */
	CHECK_EQ(mp("B|1|a|b"), GFXSTAT_PARSE_OK);
	CHECK_STR(m.name, "a|b");
	CHECK_EQ(mp("B|124|postFramebuffer\n"), GFXSTAT_PARSE_OK);
	CHECK_STR(m.name, "postFramebuffer");
	CHECK_EQ(mp("B|124|postFramebuffer\r\n"), GFXSTAT_PARSE_OK);
	CHECK_STR(m.name, "postFramebuffer");
	CHECK_EQ(mp("C|683|TX - com.a.b/com.a.b.Main#0|1"), GFXSTAT_PARSE_OK);
	CHECK_STR(m.name, "TX - com.a.b/com.a.b.Main#0");
	CHECK_EQ(mp("C|1|x|-5"), GFXSTAT_PARSE_OK);
	CHECK_EQ(m.value, -5);
	CHECK_EQ(mp("C|1|x|9223372036854775807"), GFXSTAT_PARSE_OK);
	CHECK_EQ(m.value, 9223372036854775807LL);
	CHECK_EQ(mp("C|1|x|-9223372036854775808"), GFXSTAT_PARSE_OK);
	CHECK(m.value == INT64_MIN);
	CHECK_EQ(mp("S|1|a|b|7"), GFXSTAT_PARSE_OK);
	CHECK_STR(m.name, "a|b");
	CHECK_EQ(m.value, 7);
}

TEST(malformed)
{
	CHECK_EQ(mp("B|42|\n"), GFXSTAT_PARSE_FAIL); /* Perfetto's own edge case */
	CHECK_EQ(mp("B|42"), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(mp("B|x|y"), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(mp("B||y"), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(mp("C|1|x|9223372036854775808"), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(mp("C|1|x|abc"), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(mp("C|1|x"), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(mp("C|1|x|"), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(mp("S|1|name"), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(mp("S|1|name|x"), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(mp("G|1|track|5"), GFXSTAT_PARSE_FAIL); /* G needs a name and a cookie */
	CHECK_EQ(mp("N|1|track"), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(mp("X|1|y"), GFXSTAT_PARSE_FAIL);
	/* a NUL kind byte is not one of "BCSFINGH" (strchr would match the terminator) */
	CHECK_EQ(gfxstat_atrace_marker_parse("\0|5|track|3", 11, &m), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(mp(""), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(mp("\n"), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(mp("trace_event_clock_sync: parent_ts=23.816101"), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(mp("trace_event_clock_sync: realtime_ts=1490000000000"),
		 GFXSTAT_PARSE_UNSUPPORTED);
}

TEST_SUITE(test_atrace_marker)
{
	RUN(perfetto_forms);
	RUN(end_forms);
	RUN(names_and_values);
	RUN(malformed);
}
