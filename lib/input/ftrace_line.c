/* SPDX-License-Identifier: MIT */
/*
 * One line of ftrace text:
 *   "<task>-<pid> [(<tgid>)] [<cpu>] [<irq flags>] <sec>.<frac>: <event>: <payload>"
 * The task name may contain spaces, dashes and brackets, so the header is anchored on the
 * "[cpu]" field and read backwards from there (pid, optional tgid) and forwards (flags,
 * timestamp, event), as Perfetto's tokenizer does, but without a regex or a double.
 */
#include "../gx_local.h"

/* Seconds in an ftrace timestamp: centuries of uptime; sec * 1e9 + frac fits int64. */
#define MAX_SEC_DIGITS 10
#define MAX_SEC 9223372035LL
#define MAX_FRAC_DIGITS 12

static const int64_t pow10_ns[10] = {
	1000000000, 100000000, 10000000, 1000000, 100000, 10000, 1000, 100, 10, 1,
};

int gfxstat_parse_decimal_ns(const char *s, size_t n, int64_t scale_ns, int64_t *out)
{
	const char *p = s, *end = s + n;
	int64_t whole = 0, frac = 0, div = 1, q, r;
	int digits = 0;

	if (scale_ns <= 0)
		return GFXSTAT_E_INVAL;
	while (p < end && gx_isdigit(*p)) {
		if (whole > (INT64_MAX - 9) / 10)
			return GFXSTAT_E_BAD_TIMESTAMP;
		whole = whole * 10 + (*p++ - '0');
		digits++;
	}
	if (p < end && *p == '.') {
		p++;
		/* keep fraction digits while frac * scale_ns cannot overflow; later ones are far
		 * below a nanosecond */
		while (p < end && gx_isdigit(*p)) {
			if (div <= INT64_MAX / 10 / scale_ns) {
				frac = frac * 10 + (*p - '0');
				div *= 10;
			}
			p++;
			digits++;
		}
	}
	if (!digits || p != end || whole > (INT64_MAX - scale_ns) / scale_ns)
		return GFXSTAT_E_BAD_TIMESTAMP;
	/* round half up to the nanosecond: "15.9999995" ms is 16000000 ns */
	q = frac * scale_ns / div;
	r = frac * scale_ns % div;
	*out = whole * scale_ns + q + (2 * r >= div);
	return 0;
}

/* The timestamp "<sec>.<frac>" followed by ':'. Advances *pp past the ':' on success. */
static int scan_ts(const char **pp, const char *end, int64_t *ns)
{
	const char *p = *pp;
	int64_t sec = 0, frac = 0;
	int nd = 0, nf = 0;

	while (p < end && gx_isdigit(*p)) {
		if (++nd > MAX_SEC_DIGITS)
			return -1;
		sec = sec * 10 + (*p++ - '0');
	}
	if (!nd || p >= end || *p != '.')
		return -1;
	p++;
	while (p < end && gx_isdigit(*p)) {
		if (++nf > MAX_FRAC_DIGITS)
			return -1;
		if (nf <= 9)
			frac = frac * 10 + (*p - '0');
		p++;
	}
	if (!nf || p >= end || *p != ':' || sec > MAX_SEC)
		return -1;
	*ns = sec * GFXSTAT_NSEC_PER_SEC + frac * pow10_ns[nf < 9 ? nf : 9];
	*pp = p + 1;
	return 0;
}

/* Try the '[' at @lb as the cpu field of a header that starts at @start. */
static enum gfxstat_parse_res try_header(const char *start, const char *lb, const char *end,
					 struct gfxstat_ftrace_line *out)
{
	const char *p = lb + 1, *q, *ts_begin, *ev;
	int32_t cpu = 0, pid = 0, tgid = -1;
	int nd = 0;
	int64_t mul = 1;

	while (p < end && gx_isdigit(*p)) {
		if (++nd > 5)
			return GFXSTAT_PARSE_FAIL;
		cpu = cpu * 10 + (*p++ - '0');
	}
	if (!nd || p >= end || *p != ']')
		return GFXSTAT_PARSE_FAIL;

	/* backwards: optional "(tgid)", then "-pid" */
	q = lb;
	while (q > start && q[-1] == ' ')
		q--;
	if (q > start && q[-1] == ')') {
		const char *rp = q - 1, *lp = rp, *a, *b;
		int digits = 0, dashes = 0;

		while (lp > start && lp[-1] != '(' && rp - lp < 12)
			lp--;
		if (lp == start || lp[-1] != '(')
			return GFXSTAT_PARSE_FAIL;
		for (a = lp; a < rp && *a == ' '; a++)
			;
		for (b = a; b < rp; b++) {
			if (gx_isdigit(*b) && !dashes)
				digits++;
			else if (*b == '-' && !digits)
				dashes++;
			else
				break;
		}
		/* a tgid is a pid: at most 9 digits fits int32 (pid_max is 4194304) */
		if (b != rp || (!digits && !dashes) || digits > 9)
			return GFXSTAT_PARSE_FAIL;
		if (digits) {
			tgid = 0;
			for (; a < rp; a++)
				tgid = tgid * 10 + (*a - '0');
		}
		q = lp - 1;
		while (q > start && q[-1] == ' ')
			q--;
	}
	nd = 0;
	while (q > start && gx_isdigit(q[-1])) {
		if (++nd > 9)
			return GFXSTAT_PARSE_FAIL;
		q--;
		pid += (int32_t)(*q - '0') * (int32_t)mul;
		mul *= 10;
	}
	if (!nd || q == start || q[-1] != '-')
		return GFXSTAT_PARSE_FAIL;

	/* forwards: optional irq flags, then the timestamp */
	p++;
	while (p < end && *p == ' ')
		p++;
	if (p < end && !gx_isdigit(*p)) {
		const char *f = p;

		while (p < end && *p != ' ')
			p++;
		if (p - f > 8)
			return GFXSTAT_PARSE_FAIL;
		while (p < end && *p == ' ')
			p++;
	}
	ts_begin = p;
	if (scan_ts(&p, end, &out->ts_ns))
		return GFXSTAT_PARSE_FAIL;
	out->ts_text.p = ts_begin;
	out->ts_text.n = (size_t)(p - 1 - ts_begin);

	/* ": <event>: <payload>" */
	while (p < end && *p == ' ')
		p++;
	ev = p;
	while (p < end && *p != ':' && *p != ' ')
		p++;
	if (p == ev || p >= end || *p != ':')
		return GFXSTAT_PARSE_FAIL;
	out->event.p = ev;
	out->event.n = (size_t)(p - ev);
	p++;
	if (p < end && *p == ' ')
		p++;
	out->payload.p = p;
	out->payload.n = (size_t)(end - p);
	out->task.p = start;
	out->task.n = (size_t)(q - 1 - start);
	out->pid = pid;
	out->tgid = tgid;
	out->cpu = cpu;
	return GFXSTAT_PARSE_OK;
}

enum gfxstat_parse_res gfxstat_ftrace_line_parse(const char *s, size_t n,
						 struct gfxstat_ftrace_line *out)
{
	const char *p = s, *end = s + n, *lb;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p == '#')
		return GFXSTAT_PARSE_UNSUPPORTED;
	/* the cpu field is within the first few dozen bytes: a plain loop beats memchr here */
	for (lb = p; lb < end; lb++) {
		if (*lb == '[' && try_header(p, lb, end, out) == GFXSTAT_PARSE_OK)
			return GFXSTAT_PARSE_OK;
	}
	return GFXSTAT_PARSE_FAIL;
}
