/* SPDX-License-Identifier: MIT */
/*
 * One line of ftrace text:
 *   "<task>-<pid> [(<tgid>)] [<cpu>] [<irq flags>] <sec>.<frac>: <event>: <payload>"
 * The task name may contain spaces, dashes and brackets, so the header is anchored on the
 * "[cpu]" field and read backwards from there (pid, optional tgid) and forwards (flags,
 * timestamp, event), as Perfetto's tokenizer does, but without a regex or a double.
 *
 * Every line of a trace comes here, most of them to be dropped once their event is known, so
 * it is read close to the machine: first at the kernel's own columns, inline in the text
 * parser (ftrace_local.h, gx_ftrace_line_kernel()); then, for the lines laid out otherwise,
 * with 16-byte compares and bit masks (fast_header(); vec16_local.h: SSE2, NEON on the
 * phones, else SWAR), and for anything unusual with loops that read 8 bytes at a time where
 * they can (scan_local.h). Both give exactly what the byte loops give; the unit tests hold
 * them to a copy of those. The pid, tgid and cpu are converted last, only for the events
 * someone reads (ftrace_local.h).
 */
#include "../gx_local.h"
#include "ftrace_local.h"
#include "scan_local.h"

/* Seconds in an ftrace timestamp: centuries of uptime; sec * 1e9 + frac fits int64. */
#define MAX_SEC_DIGITS 10
#define MAX_SEC 9223372035LL
#define MAX_FRAC_DIGITS 12

const int64_t gx_pow10_ns[10] = {
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

#if GX_SWAR
	/*
	 * The usual "<up to 8 digits>.<up to 8 digits>:", eight bytes at a time: the first byte
	 * that is no digit ends each part. Anything longer or odd takes the loops below, which
	 * give the same result.
	 */
	if (end - p >= 18) {
		uint64_t w = gx_load8(p), m = gx_nondigit8(w), f;
		unsigned k, j;

		if (m) {
			k = gx_first8(m);
			if (k && p[k] == '.') {
				f = gx_load8(p + k + 1);
				m = gx_nondigit8(f);
				if (m) {
					j = gx_first8(m);
					if (j && p[k + 1 + j] == ':') {
						*ns = (int64_t)gx_digits8(w, k) * GFXSTAT_NSEC_PER_SEC +
						      (int64_t)gx_digits8(f, j) * gx_pow10_ns[j];
						*pp = p + k + j + 2;
						return 0;
					}
				}
			}
		}
	}
#endif
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
	*ns = sec * GFXSTAT_NSEC_PER_SEC + frac * gx_pow10_ns[nf < 9 ? nf : 9];
	*pp = p + 1;
	return 0;
}

/* The start of the run of spaces that ends at @q, in [start, q). */
static const char *spaces_back(const char *start, const char *q)
{
#if GX_SWAR
	/* (the pid is padded to 5 columns: a run of 0 to 4, and a branch per space mispredicts) */
	if (q - start >= 8) {
		uint64_t m = ~gx_eq8(gx_load8(q - 8), GX_BYTES(' ')) & GX_HIGH;

		if (m)
			return q - 8 + ((unsigned)(63 - __builtin_clzll(m)) >> 3) + 1;
	}
#endif
	while (q > start && q[-1] == ' ')
		q--;
	return q;
}

/* "[<cpu>]" at @lb: 1 to 5 digits. Return the ']', or NULL. */
static const char *scan_cpu(const char *lb, const char *end, int32_t *cpu)
{
	const char *p = lb + 1;
	int32_t v = 0;
	int nd = 0;

#if GX_SWAR
	if (end - p >= 8) {
		uint64_t w = gx_load8(p), m = gx_nondigit8(w);
		unsigned k;

		if (!m)
			return NULL; /* 8 digits and more */
		k = gx_first8(m);
		if (!k || k > 5 || p[k] != ']')
			return NULL;
		*cpu = (int32_t)gx_digits8(w, k);
		return p + k;
	}
#endif
	while (p < end && gx_isdigit(*p)) {
		if (++nd > 5)
			return NULL;
		v = v * 10 + (*p++ - '0');
	}
	if (!nd || p >= end || *p != ']')
		return NULL;
	*cpu = v;
	return p;
}

/*
 * The optional "(<tgid>)" that ends at @q (the ')' is q[-1]), in [start, q): spaces, then
 * digits or dashes (unknown), at most 12 bytes. Return where it begins (the '('), @q when
 * there is none, or NULL when it is malformed.
 */
static const char *scan_tgid_back(const char *start, const char *q, int32_t *tgid)
{
	const char *rp = q - 1, *lp = rp, *a, *b;
	int digits = 0, dashes = 0;

	if (q == start || q[-1] != ')')
		return q;
#if GX_SWAR
	/* the usual 5 columns: "(-----)", "(  612)" */
	if (q - start >= 7 && q[-7] == '(') {
		const uint64_t in = 0x0000808080808000ULL; /* bytes 1..5: between the parentheses */
		uint64_t w = gx_load8(q - 7); /* q[0] is in the line: the '[' is at or after it */
		uint64_t dm = ~gx_nondigit8(w) & in, sm = gx_eq8(w, GX_BYTES(' ')) & in;
		unsigned d0;

		if ((gx_eq8(w, GX_BYTES('-')) & in) == in)
			return q - 7; /* tgid -1 */
		if (dm && (dm | sm) == in && sm < (dm & (~dm + 1))) {
			/* blanks, then digits to the ')' */
			d0 = gx_first8(dm);
			*tgid = (int32_t)gx_digits8(w >> (8 * d0), 6 - d0);
			return q - 7;
		}
	}
#endif
	while (lp > start && lp[-1] != '(' && rp - lp < 12)
		lp--;
	if (lp == start || lp[-1] != '(')
		return NULL;
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
		return NULL;
	if (digits) {
		*tgid = 0;
		for (; a < rp; a++)
			*tgid = *tgid * 10 + (*a - '0');
	}
	return lp - 1;
}

/* "-<pid>" that ends at @q, in [start, q): 1 to 9 digits. Return the '-', or NULL. */
static const char *scan_pid_back(const char *start, const char *q, int32_t *pid)
{
	int32_t v = 0, mul = 1;
	int nd = 0;

#if GX_SWAR
	if (q - start >= 8) {
		uint64_t w = gx_load8(q - 8), m = gx_nondigit8(w);
		unsigned h, k;

		if (m) {
			h = (unsigned)(63 - __builtin_clzll(m)) >> 3; /* the last byte no digit */
			k = 7 - h;
			if (!k || q[-(long)k - 1] != '-')
				return NULL;
			*pid = (int32_t)gx_digits8(w >> (8 * (h + 1)), k);
			return q - k - 1;
		}
	}
#endif
	while (q > start && gx_isdigit(q[-1])) {
		if (++nd > 9)
			return NULL;
		q--;
		v += (int32_t)(*q - '0') * mul;
		mul *= 10;
	}
	if (!nd || q == start || q[-1] != '-')
		return NULL;
	*pid = v;
	return q - 1;
}

/* Try the '[' at @lb as the cpu field of a header that starts at @start. */
static enum gfxstat_parse_res try_header(const char *start, const char *lb, const char *end,
					 struct gfxstat_ftrace_line *out)
{
	const char *p, *q, *ts_begin, *ev;
	int32_t cpu = 0, pid = 0, tgid = -1;

	p = scan_cpu(lb, end, &cpu);
	if (!p)
		return GFXSTAT_PARSE_FAIL;

	/* backwards: optional "(tgid)", then "-pid" */
	q = spaces_back(start, lb);
	if (q > start && q[-1] == ')') {
		q = scan_tgid_back(start, q, &tgid);
		if (!q)
			return GFXSTAT_PARSE_FAIL;
		q = spaces_back(start, q);
	}
	q = scan_pid_back(start, q, &pid);
	if (!q)
		return GFXSTAT_PARSE_FAIL;

	/* forwards: optional irq flags, then the timestamp */
	p++;
	while (p < end && *p == ' ')
		p++;
	if (p < end && !gx_isdigit(*p)) {
		const char *f = p;

#if GX_SWAR
		uint64_t m = end - p >= 8 ? gx_eq8(gx_load8(p), GX_BYTES(' ')) : 0;

		if (m)
			p += gx_first8(m);
#endif
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
#if GX_SWAR
	for (; end - p >= 8; p += 8) {
		uint64_t w = gx_load8(p), m = gx_eq8(w, GX_BYTES(':')) | gx_eq8(w, GX_BYTES(' '));

		if (m) {
			p += gx_first8(m);
			goto event_end;
		}
	}
#endif
	while (p < end && *p != ':' && *p != ' ')
		p++;
#if GX_SWAR
event_end:
#endif
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
	out->task.n = (size_t)(q - start);
	out->pid = pid;
	out->tgid = tgid;
	out->cpu = cpu;
	return GFXSTAT_PARSE_OK;
}

#if GX_SWAR
/*
 * The usual header, read with 16-byte compares whose bit masks (bit i: byte i) replace the
 * loops above: the blanks and the first '[' in the line's first 32 bytes, the 16 bytes
 * before the '[' (pid, tgid) in one load, the flags and the event name. It gives what
 * try_header() gives at the first '[' of the line, or -1 when anything is unusual (a field
 * outside its window, a long pid, an odd tgid, a short line), and the loops decide.
 */
/* the highest set bit of a non-zero mask */
static int top_bit(unsigned m)
{
	return 31 - __builtin_clz(m);
}

/*
 * The kernel's own columns (kernel/trace/trace_output.c, trace_print_context(): "%16s-%-7d"
 * with the tgid as "(%5s)" or "(-----)", "[%03d] "; trace_print_lat_fmt(): four flag
 * letters): the task right-aligned in 16 columns, its '-' at column 16, the pid left-aligned,
 * the tgid in columns 23-29, the cpu in 31-35, the flags in 37-40 and the timestamp at 42.
 * Most lines of a trace are laid out so: a few byte compares at those columns replace the
 * searches of the general path below, which any other layout takes. It accepts only what
 * the general path reads the same way (the only '[' of the first 32 bytes at column 31, a
 * pid of 1 to 5 digits, a 3-digit cpu), and sets what it would. -1: not this layout.
 */
static inline __attribute__((always_inline)) int
fixed_columns(const char *s, gx_v16 a, gx_v16 b, int *P_out, struct gx_ftrace_lazy *lz)
{
	gx_v16 c = gx_v16_load(s + 32);
	unsigned blank, sp, dg, r, rest;
	int P, k, h;

	/* '-' at 16, '(' at 23, ')' at 29, ' ' at 30, '[' at 31 the only one; ']' at 35,
	 * ' ' at 36 and 41 */
	if ((gx_v16_eq(b, '-') & 1) == 0 || (gx_v16_eq(b, '(') >> 7 & 1) == 0 ||
	    (gx_v16_eq(b, ')') >> 13 & 1) == 0 || s[30] != ' ' ||
	    (gx_v16_eq(a, '[') | gx_v16_eq(b, '[') << 16) != 1u << 31)
		return -1;
	sp = gx_v16_eq(c, ' ');
	dg = gx_v16_digit(c);
	/* cpu: 3 digits then ']'; flags: 4 bytes, no blank, not starting with a digit; then one
	 * blank and the timestamp */
	if ((dg & 0x2f) != 0x7 || s[35] != ']' || (sp & 0x7f0) != 0x210)
		return -1;
	blank = gx_v16_eq2(a, ' ', '\t');
	P = __builtin_ctz(~blank | 0x10000);
	if (P >= 16 || s[P] == '#')
		return -1;
	/* pid: digits from 17, then blanks up to 22 */
	sp = gx_v16_eq(b, ' ');
	dg = gx_v16_digit(b);
	k = __builtin_ctz(~(dg >> 1));
	if (k < 1 || k > 5 || ((sp >> (1 + k)) & ((1u << (6 - k)) - 1)) != (1u << (6 - k)) - 1)
		return -1;
	lz->pid_w = gx_load8(s + 17);
	lz->pid_k = (unsigned char)k;
	/* tgid, in 24-28: blanks, then all dashes (none) or all digits */
	r = ~sp & 0x1f00;
	if (!r)
		return -1;
	h = __builtin_ctz(r);
	rest = 0x1f00 & ~((1u << h) - 1);
	lz->tgid_k = 0;
	if ((rest & gx_v16_eq(b, '-')) != rest) {
		if ((rest & dg) != rest)
			return -1;
		lz->tgid_w = gx_load8(s + 16 + h);
		lz->tgid_k = (unsigned char)(13 - h);
	}
	lz->cpu_w = gx_load8(s + 32);
	lz->cpu_k = 3;
	*P_out = P;
	return 0;
}

static inline __attribute__((always_inline)) int
fast_header(const char *s, const char *end, struct gfxstat_ftrace_line *out,
	    struct gx_ftrace_lazy *lz)
{
	gx_v16 a, b, w;
	unsigned blank, lbr, sp, dg, ns, nd, m;
	int P, L, top, h, k, ts_k, ts_j;
	const char *b0, *c, *x, *ev, *dash;
	uint64_t t1, t2;

	if (end - s < 64)
		return -1;
	a = gx_v16_load(s);
	b = gx_v16_load(s + 16);
	if (end - s >= 80 && fixed_columns(s, a, b, &P, lz) == 0) {
		dash = s + 16;
		x = s + 42;
		goto timestamp;
	}
	blank = gx_v16_eq2(a, ' ', '\t') | gx_v16_eq2(b, ' ', '\t') << 16;
	lbr = gx_v16_eq(a, '[') | gx_v16_eq(b, '[') << 16;
	if (!lbr || !~blank)
		return -1;
	P = __builtin_ctz(~blank);
	L = __builtin_ctz(lbr); /* after P: blanks are no '[' */
	if (L < 16 || s[P] == '#')
		return -1;

	/* backwards, in the 16 bytes before the '[' (bit 15: s[L - 1]) */
	b0 = s + L - 16;
	w = gx_v16_load(b0);
	sp = gx_v16_eq(w, ' ');
	dg = gx_v16_digit(w);
	ns = ~sp & 0xffff;
	if (!ns)
		return -1;
	top = top_bit(ns); /* the last byte before the spaces that precede the '[' */
	lz->tgid_k = 0;
	if (gx_v16_eq(w, ')') >> top & 1) {
		/* "(" spaces, then digits or dashes, ")": the nearest '(' within 12 bytes */
		unsigned lp = gx_v16_eq(w, '(') & ((1u << top) - 1), cm, r, rest;
		int l;

		if (!lp)
			return -1;
		l = top_bit(lp);
		if (top - l - 1 > 12)
			return -1;
		cm = ((1u << top) - 1) & ~((2u << l) - 1); /* between the parentheses */
		r = cm & ~sp;
		if (!r)
			return -1;
		rest = cm & ~((r & (~r + 1)) - 1); /* from the first byte that is no space */
		if ((rest & gx_v16_eq(w, '-')) != rest) {
			h = __builtin_ctz(rest);
			k = top - h;
			if ((rest & dg) != rest || k > 8)
				return -1;
			lz->tgid_w = gx_load8(b0 + h);
			lz->tgid_k = (unsigned char)k;
		}
		ns = ~sp & ((1u << l) - 1);
		if (!ns)
			return -1;
		top = top_bit(ns);
	}
	nd = ~dg & ((2u << top) - 1);
	if (!nd)
		return -1;
	h = top_bit(nd); /* the '-' before the pid */
	k = top - h;
	if (k < 1 || k > 8 || b0[h] != '-')
		return -1;
	lz->pid_w = gx_load8(b0 + h + 1);
	lz->pid_k = (unsigned char)k;
	dash = b0 + h;

	/* forwards, in the 16 bytes after the '[': "<cpu>]", blanks, irq flags of at most 8
	 * bytes and blanks, then where the timestamp starts */
	c = s + L + 1;
	if (end - c < 48)
		return -1;
	w = gx_v16_load(c);
	dg = gx_v16_digit(w);
	sp = gx_v16_eq(w, ' ');
	k = __builtin_ctz(~dg | 0x10000);
	if (!k || k > 5 || c[k] != ']')
		return -1;
	lz->cpu_w = gx_load8(c);
	lz->cpu_k = (unsigned char)k;
	m = ~sp & 0xffff & ~((2u << k) - 1);
	if (!m)
		return -1;
	h = __builtin_ctz(m);
	if (!(dg >> h & 1)) {
		m = sp & ~((1u << h) - 1);
		if (!m || __builtin_ctz(m) - h > 8)
			return -1;
		m = ~sp & 0xffff & ~((1u << __builtin_ctz(m)) - 1);
		if (!m)
			return -1;
		h = __builtin_ctz(m);
	}
	x = c;
	x += h;
timestamp:
	/* "<sec>.<frac>:": up to 7 and 7 digits, in the 16 bytes at x (x + 16 is in the line) */
	m = ~gx_v16_digit(gx_v16_load(x)) & 0xffff;
	ts_k = __builtin_ctz(m | 0x10000);
	if (ts_k < 1 || ts_k > 7 || x[ts_k] != '.')
		return -1;
	m >>= ts_k + 1;
	ts_j = __builtin_ctz(m | 0x10000);
	if (ts_j < 1 || ts_j > 7 || x[ts_k + 1 + ts_j] != ':' || end - (x + ts_k + 1) < 8)
		return -1;
	t1 = gx_load8(x);
	t2 = gx_load8(x + ts_k + 1);
	out->ts_ns = (int64_t)gx_digits8(t1, (unsigned)ts_k) * GFXSTAT_NSEC_PER_SEC +
		     (int64_t)gx_digits8(t2, (unsigned)ts_j) * gx_pow10_ns[ts_j];
	out->ts_text.p = x;
	out->ts_text.n = (size_t)(ts_k + 1 + ts_j);
	/* blanks, then "<event>:" within 16 bytes */
	ev = x + ts_k + ts_j + 2;
	if (end - ev < 17)
		return -1;
	if (ev[0] == ' ' && ev[1] != ' ') {
		ev++; /* the usual one blank */
	} else {
		m = ~gx_v16_eq(gx_v16_load(ev), ' ') & 0xffff;
		if (!m)
			return -1;
		ev += __builtin_ctz(m);
		if (end - ev < 16)
			return -1;
	}
	w = gx_v16_load(ev);
	m = gx_v16_eq2(w, ':', ' ');
	if (m) {
		k = __builtin_ctz(m);
	} else {
		/* a longer name: "tracing_mark_write", "sched_blocked_reason" */
		for (x = ev + 16; x < end && *x != ':' && *x != ' '; x++)
			;
		k = (int)(x - ev);
	}
	if (!k || ev + k >= end || ev[k] != ':')
		return -1;
	out->event.p = ev;
	out->event.n = (size_t)k;
	x = ev + k + 1;
	if (x < end && *x == ' ')
		x++;
	out->payload.p = x;
	out->payload.n = (size_t)(end - x);
	out->task.p = s + P;
	out->task.n = (size_t)(dash - (s + P));
	lz->done = 0;
	return 0;
}
#endif

/* The loops: the first '[' after the blanks at which a header parses. */
static enum gfxstat_parse_res parse_loops(const char *s, const char *end,
					  struct gfxstat_ftrace_line *out)
{
	const char *p = s, *lb;

#if GX_SWAR
	/* the task name is right-aligned in 16 columns: mostly blanks to skip */
	for (; end - p >= 8; p += 8) {
		uint64_t w = gx_load8(p);
		uint64_t m = ~(gx_eq8(w, GX_BYTES(' ')) | gx_eq8(w, GX_BYTES('\t'))) & GX_HIGH;

		if (m) {
			p += gx_first8(m);
			break;
		}
	}
#endif
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p == '#')
		return GFXSTAT_PARSE_UNSUPPORTED;
	/* the first '[' that starts a header is the cpu field */
	for (lb = p; (lb = gx_find_byte(lb, end, '[')) != NULL; lb++) {
		if (try_header(p, lb, end, out) == GFXSTAT_PARSE_OK)
			return GFXSTAT_PARSE_OK;
	}
	return GFXSTAT_PARSE_FAIL;
}

enum gfxstat_parse_res gx_ftrace_line_head_any(const char *s, size_t n,
					       struct gfxstat_ftrace_line *out,
					       struct gx_ftrace_lazy *lz)
{
#if GX_SWAR
	if (fast_header(s, s + n, out, lz) == 0)
		return GFXSTAT_PARSE_OK;
#endif
	lz->done = 1;
	return parse_loops(s, s + n, out);
}

enum gfxstat_parse_res gx_ftrace_line_parse_loops(const char *s, size_t n,
						  struct gfxstat_ftrace_line *out)
{
	return parse_loops(s, s + n, out);
}

enum gfxstat_parse_res gfxstat_ftrace_line_parse(const char *s, size_t n,
						 struct gfxstat_ftrace_line *out)
{
	struct gx_ftrace_lazy lz;
	struct gx_sec_cache sc = { 0, 0 };
	enum gfxstat_parse_res r = gx_ftrace_line_head(s, n, out, &lz, &sc);

	if (r == GFXSTAT_PARSE_OK)
		gx_ftrace_line_fields(&lz, out);
	return r;
}
