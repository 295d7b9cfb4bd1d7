/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the two pure parsers of one line. The whole input is offered to
 * gfxstat_atrace_marker_parse() as a trace_marker payload and to gfxstat_ftrace_line_parse()
 * as one ftrace line (a '\n' inside is just another byte); the payload of a parsed ftrace
 * line goes to the marker parser too, as the trace parser does. There is no option prefix.
 *
 * Checked: every slice of a result lies inside its input; the ftrace fields come in header
 * order (task, timestamp, event, payload) and the payload runs to the end of the line; the
 * timestamp text parses, with gfxstat_parse_decimal_ns(), to the same nanoseconds; a marker
 * has one of the documented kinds and the fields its kind allows; UNSUPPORTED is returned
 * only for what the header comments say (clock sync; blank and '#' lines).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gfxstat/gfxstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (!(cond))                                                               \
			__builtin_trap();                                                  \
	} while (0)

/* @in lies within [@p, @p + @n] */
static int inside(struct gfxstat_str in, const char *p, size_t n)
{
	return in.p >= p && in.p <= p + n && in.n <= (size_t)(p + n - in.p);
}

static void check_marker(const char *s, size_t n)
{
	static const char clock_sync[] = "trace_event_clock_sync:";
	struct gfxstat_marker m;
	size_t t = n;
	const char *end;

	while (t && (s[t - 1] == '\n' || s[t - 1] == '\r' || s[t - 1] == '\0'))
		t--;
	switch (gfxstat_atrace_marker_parse(s, n, &m)) {
	case GFXSTAT_PARSE_FAIL:
		return;
	case GFXSTAT_PARSE_UNSUPPORTED:
		CHECK(t >= sizeof(clock_sync) - 1 &&
		      memcmp(s, clock_sync, sizeof(clock_sync) - 1) == 0);
		return;
	case GFXSTAT_PARSE_OK:
		break;
	default:
		CHECK(0);
	}
	/* the slices skip the trailing '\n', '\r' and '\0' */
	CHECK(t > 0);
	CHECK(inside(m.name, s, t) && inside(m.track, s, t));
	CHECK((int)m.kind == s[0]);
	CHECK(m.pid >= -1);
	switch (m.kind) {
	case GFXSTAT_MARKER_END:
		CHECK(m.name.n == 0 && m.track.n == 0 && m.value == 0);
		return;
	case GFXSTAT_MARKER_BEGIN:
	case GFXSTAT_MARKER_INSTANT:
		/* the name is the whole rest, and not empty */
		CHECK(m.pid >= 0 && m.name.n > 0 && m.name.p + m.name.n == s + t);
		CHECK(m.track.n == 0 && m.value == 0);
		return;
	case GFXSTAT_MARKER_COUNTER:
	case GFXSTAT_MARKER_ASYNC_BEGIN:
	case GFXSTAT_MARKER_ASYNC_END:
		CHECK(m.pid >= 0 && m.track.n == 0);
		/* a '|' follows the name: the value or cookie comes after it */
		end = m.name.p + m.name.n;
		CHECK(end < s + t && *end == '|');
		return;
	case GFXSTAT_MARKER_TRACK_INSTANT:
	case GFXSTAT_MARKER_TRACK_BEGIN:
	case GFXSTAT_MARKER_TRACK_END:
		CHECK(m.pid >= 0);
		/* "K|pid|track|..." : the track ends at a '|', the name (if any) comes after */
		end = m.track.p + m.track.n;
		CHECK(end < s + t && *end == '|');
		if (m.name.n)
			CHECK(m.name.p > end);
		if (m.kind == GFXSTAT_MARKER_TRACK_INSTANT)
			CHECK(m.value == 0 && m.name.p + m.name.n == s + t);
		return;
	default:
		CHECK(0); /* not a documented kind */
	}
}

static void check_ftrace(const char *s, size_t n)
{
	struct gfxstat_ftrace_line ev;
	const char *end = s + n;
	size_t i;
	int64_t ns;

	switch (gfxstat_ftrace_line_parse(s, n, &ev)) {
	case GFXSTAT_PARSE_FAIL:
		return;
	case GFXSTAT_PARSE_UNSUPPORTED:
		/* a blank line or a '#' comment */
		for (i = 0; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
			;
		CHECK(i == n || s[i] == '#');
		return;
	case GFXSTAT_PARSE_OK:
		break;
	default:
		CHECK(0);
	}
	CHECK(inside(ev.task, s, n) && inside(ev.ts_text, s, n) && inside(ev.event, s, n) &&
	      inside(ev.payload, s, n));
	/* "<task>-<pid> ... [cpu] ... <ts>: <event>: <payload>", in that order */
	CHECK(ev.task.p + ev.task.n < ev.ts_text.p);
	CHECK(ev.task.p[ev.task.n] == '-');
	CHECK(ev.ts_text.n >= 3 && ev.ts_text.p + ev.ts_text.n < ev.event.p);
	CHECK(ev.ts_text.p[ev.ts_text.n] == ':');
	CHECK(ev.event.n > 0 && ev.event.p + ev.event.n < ev.payload.p);
	CHECK(ev.event.p[ev.event.n] == ':');
	CHECK(ev.payload.p + ev.payload.n == end);
	CHECK(ev.pid >= 0 && ev.cpu >= 0 && ev.tgid >= -1);
	CHECK(ev.ts_ns >= 0);
	if (gfxstat_parse_decimal_ns(ev.ts_text.p, ev.ts_text.n, GFXSTAT_NSEC_PER_SEC, &ns) == 0)
		CHECK(ns == ev.ts_ns);
	check_marker(ev.payload.p, ev.payload.n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;

	check_marker(s, size);
	check_ftrace(s, size);
	return 0;
}
