/* SPDX-License-Identifier: MIT */
/*
 * atrace payloads written to trace_marker by libcutils and friends (FORMATS.md 1.3), parsed
 * with Perfetto's ParseSystraceTracePoint rules so both tools agree on what is a marker.
 */
#include "../gx_local.h"

/* Signed decimal int64; the whole slice must be the number. */
static int parse_i64(const char *p, size_t n, int64_t *out)
{
	int neg = 0;
	uint64_t v = 0;
	size_t i = 0;

	if (n && (p[0] == '-' || p[0] == '+')) {
		neg = p[0] == '-';
		i = 1;
	}
	if (i == n)
		return -1;
	for (; i < n; i++) {
		if (!gx_isdigit(p[i]) || v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(p[i] - '0');
	}
	if (v > (uint64_t)INT64_MAX + (uint64_t)neg)
		return -1;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

static const char *find_bar(const char *p, const char *end)
{
	const char *q = memchr(p, '|', (size_t)(end - p));

	return q ? q : end;
}

static const char *last_bar(const char *p, const char *end)
{
	while (end > p && end[-1] != '|')
		end--;
	return end > p ? end - 1 : NULL;
}

static void set(struct gfxstat_str *s, const char *b, const char *e)
{
	s->p = b;
	s->n = (size_t)(e - b);
}

enum gfxstat_parse_res gfxstat_atrace_marker_parse(const char *s, size_t n,
						   struct gfxstat_marker *out)
{
	const char *p, *end = s + n;
	int64_t pid = 0;
	char k;

	while (end > s && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == '\0'))
		end--;
	n = (size_t)(end - s);
	if (!n)
		return GFXSTAT_PARSE_FAIL;
	k = s[0];
	out->kind = (enum gfxstat_marker_kind)k;
	out->pid = -1;
	out->name.p = out->track.p = s;
	out->name.n = out->track.n = 0;
	out->value = 0;

	if (k == 'E' && (n == 1 || s[1] == '|')) {
		/* "E", "E|pid", "E|pid|anything": the pid is optional (Flutter writes "E") */
		if (n > 2) {
			const char *e = find_bar(s + 2, end);

			if (!parse_i64(s + 2, (size_t)(e - s - 2), &pid) && pid >= 0 &&
			    pid <= INT32_MAX)
				out->pid = (int32_t)pid;
		}
		return GFXSTAT_PARSE_OK;
	}
	if (n < 2 || s[1] != '|' || !memchr("BCSFINGH", k, 8)) {
		static const char clock_sync[] = "trace_event_clock_sync:";

		if (n >= sizeof(clock_sync) - 1 &&
		    memcmp(s, clock_sync, sizeof(clock_sync) - 1) == 0)
			return GFXSTAT_PARSE_UNSUPPORTED;
		return GFXSTAT_PARSE_FAIL;
	}

	/* the pid: "K|<digits>|" */
	p = s + 2;
	{
		const char *e = find_bar(p, end);

		if (e == end || parse_i64(p, (size_t)(e - p), &pid) || pid < 0 || pid > INT32_MAX)
			return GFXSTAT_PARSE_FAIL;
		out->pid = (int32_t)pid;
		p = e + 1;
	}

	if (k == 'B' || k == 'I') {
		/* the name is the whole rest and may itself contain '|'; "B|42|" is malformed */
		if (p == end)
			return GFXSTAT_PARSE_FAIL;
		out->name.p = p;
		out->name.n = (size_t)(end - p);
		return GFXSTAT_PARSE_OK;
	}

	switch (k) {
	case 'C': { /* C|pid|name|value[|category] */
		const char *b1 = find_bar(p, end), *v, *ve;

		if (b1 == end)
			return GFXSTAT_PARSE_FAIL;
		v = b1 + 1;
		ve = find_bar(v, end);
		if (parse_i64(v, (size_t)(ve - v), &out->value))
			return GFXSTAT_PARSE_FAIL;
		set(&out->name, p, b1);
		return GFXSTAT_PARSE_OK;
	}
	case 'S':
	case 'F': { /* S|pid|name|cookie: the cookie follows the last '|' */
		const char *lb = last_bar(p, end);

		if (!lb || parse_i64(lb + 1, (size_t)(end - lb - 1), &out->value))
			return GFXSTAT_PARSE_FAIL;
		set(&out->name, p, lb);
		return GFXSTAT_PARSE_OK;
	}
	default: { /* N, G, H: a track name first */
		const char *b1 = find_bar(p, end), *r, *lb;

		if (b1 == end)
			return GFXSTAT_PARSE_FAIL;
		set(&out->track, p, b1);
		r = b1 + 1;
		if (k == 'N') { /* N|pid|track|name */
			set(&out->name, r, end);
			return GFXSTAT_PARSE_OK;
		}
		/* G|pid|track|name|cookie, H|pid|track|[name|]cookie */
		lb = last_bar(r, end);
		if (!lb && k == 'G')
			return GFXSTAT_PARSE_FAIL;
		if (parse_i64(lb ? lb + 1 : r, (size_t)(end - (lb ? lb + 1 : r)), &out->value))
			return GFXSTAT_PARSE_FAIL;
		if (lb)
			set(&out->name, r, lb);
		return GFXSTAT_PARSE_OK;
	}
	}
}
