/* SPDX-License-Identifier: MIT */
/*
 * The ftrace header parser in two steps (ftrace_line.c), for the text parser's hot path
 * (trace_text.c): gx_ftrace_line_head() checks the whole header and sets the timestamp, event
 * and payload; gx_ftrace_line_fields() then sets the task, pid, tgid and cpu, for the events
 * that someone reads. Together they are gfxstat_ftrace_line_parse(). Library-internal.
 */
#ifndef GX_FTRACE_LOCAL_H
#define GX_FTRACE_LOCAL_H

#include <stdint.h>

#include "../gx_local.h"
#include "scan_local.h"
#include "vec16_local.h"

#ifdef __GNUC__
#define GX_ALWAYS_INLINE __attribute__((always_inline))
#define GX_NOINLINE __attribute__((noinline))
#else
#define GX_ALWAYS_INLINE
#define GX_NOINLINE
#endif

/* What gx_ftrace_line_fields() still has to convert: the pid, tgid and cpu digits, as the
 * 8 bytes that start with them and their number (tgid_k 0: unknown). */
struct gx_ftrace_lazy {
	uint64_t pid_w, tgid_w, cpu_w;
	unsigned char pid_k, tgid_k, cpu_k;
	unsigned char done; /* the fields are set already */
};

/* The seconds of the line before, for gx_ftrace_line_kernel(): consecutive lines are mostly
 * in the same second, and then only the fraction is converted. Zero: none (the 8 bytes of a
 * timestamp start with a digit). */
struct gx_sec_cache {
	uint64_t w;     /* the 8 bytes of the timestamp's text ("1499898." and on) */
	int64_t sec_ns; /* their seconds, in nanoseconds */
};

/* gx_ftrace_line_head() without its first try, gx_ftrace_line_kernel() (ftrace_line.c) */
GFXSTAT_HIDDEN enum gfxstat_parse_res gx_ftrace_line_head_any(const char *s, size_t n,
							      struct gfxstat_ftrace_line *out,
							      struct gx_ftrace_lazy *lz);

GFXSTAT_HIDDEN extern const int64_t gx_pow10_ns[10];

#if GX_SWAR
/* SSE2, NEON or SWAR (vec16_local.h): every build with GX_SWAR, the phone's too */
#define GX_KERNEL_LINE 1
/* The ':' and ' ' among the 16 bytes at @p, as bits, those at or past @end left out: the 16
 * bytes that end at @end are read where fewer are left (p - 64 is in the line). */
static inline unsigned gx_stops16(const char *p, const char *end)
{
	gx_v16 e;

	if (end - p >= 16) {
		e = gx_v16_load(p);
		return gx_v16_eq2(e, ':', ' ');
	}
	if (end <= p)
		return 0;
	e = gx_v16_load(end - 16);
	return gx_v16_eq2(e, ':', ' ') >> (16 - (end - p));
}

/*
 * The line as the kernel lays it out (kernel/trace/trace_output.c, trace_print_context():
 * "%16s-%-5d (%5s) [%03d] " then trace_print_lat_fmt()'s four flag letters): the task
 * right-aligned in columns 0-15, '-' at 16, the pid left-aligned from 17, the tgid between
 * the parentheses at 23 and 29, the cpu in 32-34, the flags in 37-40, the timestamp at 42,
 * one blank, then the event name; without the tgid ("%16s-%-5d [%03d] ", the record-tgid
 * option off, as most systraces have it) the cpu in 24-26, the flags in 29-32 and the
 * timestamp at 34. Most lines of a trace are so. Four 16-byte loads give bit
 * masks (bit i: byte i) of the blanks and digits of the first 64 bytes, and one compare with
 * a template checks every fixed byte of columns 16-31 at once: inline in the caller, no
 * search. It accepts only what the general paths (ftrace_line.c) read the same way (no '['
 * in the task, so the first '[' is the cpu field's; a pid of 1 to 5 digits; at most 7 + 7
 * timestamp digits; an event name of at most 31 bytes) and sets what they set; -1: not this
 * layout, the general paths decide (the unit test holds all of them to the byte loops).
 */
static inline GX_ALWAYS_INLINE int gx_ftrace_line_kernel(const char *s, size_t n,
							struct gfxstat_ftrace_line *out,
							struct gx_ftrace_lazy *lz,
							struct gx_sec_cache *sc)
{
	/* columns 16-31: '-' at 16, '(' at 23, ") [" at 29-31; or without the tgid (its
	 * option off), '-' at 16, " [" at 22-23, "] " at 27-28 */
	const gx_v16 tmpl = GX_V16_SETR('-', 0, 0, 0, 0, 0, 0, '(', 0, 0, 0, 0, 0, ')', ' ', '[');
	const gx_v16 tmpl_notgid =
		GX_V16_SETR('-', 0, 0, 0, 0, 0, ' ', '[', 0, 0, 0, ']', ' ', 0, 0, 0);
	gx_v16 a, b, c, d;
	unsigned blank, spb, dgb, spc, dg, pid, rest, m;
	unsigned P, k, h, tk, tj;
	const char *x, *ev, *pl;

	if (n < 64)
		return -1;
	a = gx_v16_load(s);
	b = gx_v16_load(s + 16);
	c = gx_v16_load(s + 32);
	d = gx_v16_load(s + 48);
	spb = gx_v16_eq(b, ' ');
	spc = gx_v16_eq(c, ' ');
	dgb = gx_v16_digit(b);
	dg = gx_v16_digit(c) | gx_v16_digit(d) << 16; /* from column 32 */
	/* the task: from the first byte no blank, before 16 and no '#'; no '[' in it */
	blank = gx_v16_eq2(a, ' ', '\t');
	if (gx_v16_eq(a, '[') || blank == 0xffff)
		return -1;
	P = (unsigned)__builtin_ctz(~blank);
	if (s[P] == '#')
		return -1;
	/* pid: 1 to 5 digits from 17 (bit 1), then blanks up to 22 (bit 6) */
	pid = dgb & 0x7e;
	if (((pid | spb) & 0x7e) != 0x7e || !(pid & 2) || (pid & (pid + 2)) || (pid & 0x40))
		return -1;
	k = (unsigned)__builtin_ctz(pid + 2) - 1;
	lz->pid_w = gx_load8(s + 17);
	lz->pid_k = (unsigned char)k;
	lz->cpu_k = 3;
	lz->tgid_k = 0;
	if ((gx_v16_eqv(b, tmpl) & 0xe081) == 0xe081) {
		/* with the tgid: ']' at 35; blanks at 36 and 41, none at 37-40; cpu digits at
		 * 32-34 and none at 37 (the first flag) */
		if (s[35] != ']' || (spc & 0x3f0) != 0x210 || (dg & 0x2f) != 0x07)
			return -1;
		/* tgid, in 24-28 (bits 8-12): blanks, then all dashes (unknown) or all digits */
		m = spb & 0x1f00;
		rest = 0x1f00 & ~m;
		if (!rest || (m & (m + 0x100)))
			return -1;
		h = (unsigned)__builtin_ctz(rest);
		if ((gx_v16_eq(b, '-') & rest) != rest) {
			if ((dgb & rest) != rest)
				return -1;
			lz->tgid_w = gx_load8(s + 16 + h);
			lz->tgid_k = (unsigned char)(13 - h);
		}
		lz->cpu_w = gx_load8(s + 32);
		/* the timestamp at 42 (bit 10 of dg); bit 22: past byte 63, where the masks end */
		x = s + 42;
		m = (~dg >> 10) | 1u << 22;
	} else if ((gx_v16_eqv(b, tmpl_notgid) & 0x18c1) == 0x18c1) {
		/* without: cpu digits at 24-26, ']' and a blank at 27-28, flags at 29-32 (no
		 * blank, the first no digit), a blank at 33 */
		if ((dgb & 0x2700) != 0x0700 || (spb & 0xe000) || (spc & 3) != 2)
			return -1;
		lz->cpu_w = gx_load8(s + 24);
		/* the timestamp at 34 (bit 2 of dg); bit 30: past byte 63 */
		x = s + 34;
		m = (~dg >> 2) | 1u << 30;
	} else {
		return -1;
	}
	/* "<sec>.<frac>:": 1 to 7 digits each */
	tk = (unsigned)__builtin_ctz(m);
	if (!tk || tk > 7 || x[tk] != '.')
		return -1;
	m >>= tk + 1;
	tj = (unsigned)__builtin_ctz(m);
	if (!tj || tj > 7 || x[tk + 1 + tj] != ':')
		return -1;
	/* the same 8 bytes as the line before's: the same digits before the same '.' */
	if (gx_load8(x) != sc->w) {
		sc->w = gx_load8(x);
		sc->sec_ns = (int64_t)gx_digits8(sc->w, tk) * GFXSTAT_NSEC_PER_SEC;
	}
	out->ts_ns = sc->sec_ns + (int64_t)gx_digits8(gx_load8(x + tk + 1), tj) * gx_pow10_ns[tj];
	out->ts_text.p = x;
	out->ts_text.n = tk + 1 + tj;
	/* one blank (ev + 1 <= s + 61 is in the line), then "<event>:" within 32 bytes */
	ev = x + tk + tj + 2;
	if (ev[0] != ' ' || ev[1] == ' ')
		return -1;
	ev++;
	m = gx_stops16(ev, s + n);
	if (!m)
		m = gx_stops16(ev + 16, s + n) << 16;
	if (!m)
		return -1;
	k = (unsigned)__builtin_ctz(m);
	if (!k || ev[k] != ':')
		return -1;
	out->event.p = ev;
	out->event.n = k;
	pl = ev + k + 1;
	pl += pl < s + n && *pl == ' ';
	out->payload.p = pl;
	out->payload.n = (size_t)(s + n - pl);
	out->task.p = s + P;
	out->task.n = 16 - P;
	lz->done = 0;
	return 0;
}
#endif

/**
 * gx_ftrace_line_head() - gfxstat_ftrace_line_parse() without the task, pid, tgid and cpu
 * @lz: what gx_ftrace_line_fields() needs to set them, on GFXSTAT_PARSE_OK
 * @sc: the seconds of the line before, kept between the lines of a stream (zeroed first)
 *
 * Return: as gfxstat_ftrace_line_parse(); the same checks are made.
 */
static inline GX_ALWAYS_INLINE enum gfxstat_parse_res
gx_ftrace_line_head(const char *s, size_t n, struct gfxstat_ftrace_line *out,
		    struct gx_ftrace_lazy *lz, struct gx_sec_cache *sc)
{
#ifdef GX_KERNEL_LINE
	if (GX_LIKELY(gx_ftrace_line_kernel(s, n, out, lz, sc) == 0))
		return GFXSTAT_PARSE_OK;
#else
	(void)sc;
#endif
	return gx_ftrace_line_head_any(s, n, out, lz);
}

/* The task, pid, tgid and cpu of a line gx_ftrace_line_head() accepted (inline: it runs for
 * most lines, and a call costs as much as its three conversions). tgid_w is set only with
 * a tgid_k; GCC may convert it before the test (a select, as on arm64), and then say it may
 * be used uninitialized: the value is never used. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
static inline GX_ALWAYS_INLINE void gx_ftrace_line_fields(struct gx_ftrace_lazy *lz,
							  struct gfxstat_ftrace_line *out)
{
	if (lz->done)
		return;
	lz->done = 1;
	out->pid = (int32_t)(lz->pid_k <= 4 ? gx_digits4(lz->pid_w, lz->pid_k)
					    : gx_digits8(lz->pid_w, lz->pid_k));
	out->tgid = !lz->tgid_k       ? -1
		    : lz->tgid_k <= 4 ? (int32_t)gx_digits4(lz->tgid_w, lz->tgid_k)
				      : (int32_t)gx_digits8(lz->tgid_w, lz->tgid_k);
	/* the kernel's "%03d": three digits, read as such */
	out->cpu = lz->cpu_k == 3 ? (int32_t)((lz->cpu_w & 0xf) * 100 + (lz->cpu_w >> 8 & 0xf) * 10 +
					      (lz->cpu_w >> 16 & 0xf))
				  : (int32_t)gx_digits8(lz->cpu_w, lz->cpu_k);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* gfxstat_ftrace_line_parse() by its portable loops only, without the fast paths (tests). */
GFXSTAT_HIDDEN enum gfxstat_parse_res gx_ftrace_line_parse_loops(const char *s, size_t n,
								 struct gfxstat_ftrace_line *out);

#endif
