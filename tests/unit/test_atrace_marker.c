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

/*
 * The per-digit rule the word-at-a-time parse must agree with: a signed decimal int64, the
 * whole slice the number (the parser's code before the fast paths).
 */
static int ref_i64(const char *p, size_t n, long long *out)
{
	int neg = 0;
	unsigned long long v = 0;
	size_t i = 0;

	if (n && (p[0] == '-' || p[0] == '+')) {
		neg = p[0] == '-';
		i = 1;
	}
	if (i == n)
		return -1;
	for (; i < n; i++) {
		if (p[i] < '0' || p[i] > '9' || v > (~0ULL - 9) / 10)
			return -1;
		v = v * 10 + (unsigned long long)(p[i] - '0');
	}
	if (v > 9223372036854775807ULL + (unsigned long long)neg)
		return -1;
	*out = neg ? (long long)(0 - v) : (long long)v;
	return 0;
}

/* C|1|x|<v>: the value parsed as ref_i64() does it, for every length, sign and bad byte */
static void same_value(const char *v)
{
	char line[64];
	long long want = 0;
	int ok = ref_i64(v, strlen(v), &want) == 0;

	snprintf(line, sizeof(line), "C|1|x|%s", v);
	CHECK_EQ(mp(line), ok ? GFXSTAT_PARSE_OK : GFXSTAT_PARSE_FAIL);
	if (ok)
		CHECK_EQ(m.value, want);
	/* the same digits as a pid: "B|<v>|n" within 0..INT32_MAX, as the general rule */
	snprintf(line, sizeof(line), "B|%s|n", v);
	ok = ok && want >= 0 && want <= 2147483647;
	CHECK_EQ(mp(line), ok ? GFXSTAT_PARSE_OK : GFXSTAT_PARSE_FAIL);
	if (ok)
		CHECK_EQ(m.pid, want);
	/* ... with a name long enough that pid and bar are read as one 8-byte word */
	snprintf(line, sizeof(line), "B|%s|doFrame 12", v);
	CHECK_EQ(mp(line), ok ? GFXSTAT_PARSE_OK : GFXSTAT_PARSE_FAIL);
	if (ok)
		CHECK_EQ(m.pid, want);
	snprintf(line, sizeof(line), "E|%s", v);
	CHECK_EQ(mp(line), GFXSTAT_PARSE_OK);
	CHECK_EQ(m.pid, ok ? want : -1);
}

TEST(values_as_reference)
{
	static const char digits[] = "9876543210123456789012";
	static const char bad[] = { '/', ':', ' ', 'a', '0' + 16, '\xb9' }; /* not '|': it ends a field */
	char v[32];
	size_t len, at, b;
	int sign;

	for (sign = 0; sign < 3; sign++) {
		for (len = 1; len <= 21; len++) {
			size_t o = sign ? 1 : 0;

			v[0] = sign == 1 ? '-' : '+';
			memcpy(v + o, digits, len);
			v[o + len] = 0;
			same_value(v);
			/* one bad byte at each place: in and out of the 8-digit words */
			for (at = 0; at < len; at++) {
				for (b = 0; b < sizeof(bad); b++) {
					char w[32];

					memcpy(w, v, sizeof(w));
					w[o + at] = bad[b];
					same_value(w);
				}
			}
		}
	}
	/* the edges: 18 digits (no overflow check), 19, INT64's and INT32's bounds */
	same_value("999999999999999999");
	same_value("-999999999999999999");
	same_value("9999999999999999999");
	same_value("9223372036854775807");
	same_value("9223372036854775808");
	same_value("-9223372036854775808");
	same_value("-9223372036854775809");
	same_value("2147483647");
	same_value("2147483648");
	same_value("0000000000000000000000042");
	same_value("00000000");
	same_value("-");
	same_value("+");
}

TEST_SUITE(test_atrace_marker)
{
	RUN(values_as_reference);
	RUN(perfetto_forms);
	RUN(end_forms);
	RUN(names_and_values);
	RUN(malformed);
}
