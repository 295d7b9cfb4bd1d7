/* SPDX-License-Identifier: MIT */
/*
 * atrace payloads written to trace_marker by libcutils and friends (FORMATS.md 1.3), parsed
 * with Perfetto's ParseSystraceTracePoint rules so both tools agree on what is a marker.
 */
#include "../gx_local.h"

/* the rare forms out of gfxstat_atrace_marker_parse()'s body, so that "B|pid|name" and
 * "E|pid" save no register for them (a portable build just inlines them) */
#ifdef __GNUC__
#define AM_NOINLINE __attribute__((noinline))
#else
#define AM_NOINLINE
#endif

/*
 * Eight ASCII digits at @p as their value, or -1 when one is not a digit: the word-at-a-time
 * conversion (pairs, then quads, then the eight), the first digit put in the low byte whatever
 * the machine's byte order.
 */
static int64_t digits8(const unsigned char *p)
{
	uint64_t w = 0, lo = 0x3030303030303030ULL;
	int i;

	for (i = 7; i >= 0; i--)
		w = w << 8 | p[i];
	/* every byte 0x30..0x39: high nibble 3, and adding 6 does not carry out of the nibble */
	if ((w & 0xf0f0f0f0f0f0f0f0ULL) != lo ||
	    ((w + 0x0606060606060606ULL) & 0xf0f0f0f0f0f0f0f0ULL) != lo)
		return -1;
	w -= lo;
	w = (w * 10 + (w >> 8)) & 0x00ff00ff00ff00ffULL;
	w = (w * 100 + (w >> 16)) & 0x0000ffff0000ffffULL;
	return (int64_t)((w * 10000 + (w >> 32)) & 0xffffffffULL);
}

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
	if (n - i <= 18) {
		/* at most 18 digits cannot overflow: no check per digit */
		for (; n - i >= 8; i += 8) {
			int64_t d = digits8((const unsigned char *)p + i);

			if (d < 0)
				return -1;
			v = v * 100000000 + (uint64_t)d;
		}
		for (; i < n; i++) {
			unsigned d = (unsigned)(unsigned char)p[i] - '0';

			if (d > 9)
				return -1;
			v = v * 10 + d;
		}
		*out = neg ? (int64_t)(0 - v) : (int64_t)v;
		return 0;
	}
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

/*
 * The pid of "K|<pid>|" or "E|<pid>" at @p: plain digits up to a '|' (or @end), as almost every
 * marker has them; the bar's position in *@bar. -1 for anything else (a sign, too many digits),
 * which the general rule then judges.
 */
static inline int64_t quick_pid(const char *p, const char *end, const char **bar)
{
	const char *q = p, *lim = end - p > 10 ? p + 10 : end;
	uint64_t v = 0;
	unsigned d;

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/*
	 * A pid of 1 to 7 digits and its bar in one 8-byte word (nearly every marker of a trace
	 * with a name or a pid after it): the first byte that is no digit found at once, the
	 * digits converted as in digits8(), shifted up so that the bytes from that one on fall out
	 * and zeros lead. A byte below '0' borrows only from the bytes after it, so the digits
	 * before it subtract cleanly.
	 */
	if (end - p >= 8) {
		const uint64_t lo = 0x3030303030303030ULL, hi = 0xf0f0f0f0f0f0f0f0ULL;
		uint64_t w, bad;
		unsigned k;

		memcpy(&w, p, 8);
		bad = ((w & hi) ^ lo) | (((w + 0x0606060606060606ULL) & hi) ^ lo);
		if (bad) {
			k = (unsigned)__builtin_ctzll(bad) / 8;
			if (!k || p[k] != '|')
				return -1;
			w = (w - lo) << (8 * (8 - k));
			w = (w * 10 + (w >> 8)) & 0x00ff00ff00ff00ffULL;
			w = (w * 100 + (w >> 16)) & 0x0000ffff0000ffffULL;
			*bar = p + k;
			return (int64_t)((w * 10000 + (w >> 32)) & 0xffffffffULL);
		}
	}
#endif
	while (q < lim && (d = (unsigned)(unsigned char)*q - '0') <= 9) {
		v = v * 10 + d;
		q++;
	}
	if (q == p || (q < end && *q != '|') || v > INT32_MAX)
		return -1;
	*bar = q;
	return (int64_t)v;
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

/* The pid at @p by the general rule, where quick_pid() refused it: the number up to the next
 * bar (or @end, the bar's place in *@bar) within 0..INT32_MAX, or -1. */
static AM_NOINLINE int64_t slow_pid(const char *p, const char *end, const char **bar)
{
	int64_t pid;

	*bar = find_bar(p, end);
	if (parse_i64(p, (size_t)(*bar - p), &pid) || pid < 0 || pid > INT32_MAX)
		return -1;
	return pid;
}

/* one of "BCSFINGH" (not memchr: a call per marker) */
static int is_kind(char k)
{
	switch (k) {
	case 'B': case 'C': case 'S': case 'F': case 'I': case 'N': case 'G': case 'H':
		return 1;
	default:
		return 0;
	}
}

static void set(struct gfxstat_str *s, const char *b, const char *e)
{
	s->p = b;
	s->n = (size_t)(e - b);
}

/* No atrace marker: the clock sync line is well-formed but not for us, the rest malformed. */
static AM_NOINLINE enum gfxstat_parse_res not_marker(const char *s, size_t n)
{
	static const char clock_sync[] = "trace_event_clock_sync:";

	if (n >= sizeof(clock_sync) - 1 && memcmp(s, clock_sync, sizeof(clock_sync) - 1) == 0)
		return GFXSTAT_PARSE_UNSUPPORTED;
	return GFXSTAT_PARSE_FAIL;
}

static enum gfxstat_parse_res parse_tail(char k, const char *p, const char *end,
					 struct gfxstat_marker *out);

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
			const char *e;

			pid = quick_pid(s + 2, end, &e);
			if (pid < 0)
				pid = slow_pid(s + 2, end, &e);
			if (pid >= 0)
				out->pid = (int32_t)pid;
		}
		return GFXSTAT_PARSE_OK;
	}
	if (n < 2 || s[1] != '|' || !is_kind(k))
		return not_marker(s, n);

	/* the pid: "K|<digits>|" */
	p = s + 2;
	{
		const char *e;

		pid = quick_pid(p, end, &e);
		if (pid < 0 && (pid = slow_pid(p, end, &e)) < 0)
			return GFXSTAT_PARSE_FAIL;
		if (e == end)
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
	return parse_tail(k, p, end, out);
}

/* What follows "K|pid|" for K in "CSFNGH". */
static AM_NOINLINE enum gfxstat_parse_res parse_tail(char k, const char *p, const char *end,
						     struct gfxstat_marker *out)
{
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
