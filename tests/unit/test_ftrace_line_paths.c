/* SPDX-License-Identifier: MIT */
/*
 * The ftrace header parser's fast paths (16-byte compares in SSE2, NEON or SWAR, 8 bytes at
 * a time, the pid/tgid/cpu read last) against the byte loops they replace, kept below as they
 * were: on lines of every layout gfxsim and real traces have, and on many random edits of
 * them (structural bytes put in, taken out, doubled), every result and every field must be
 * the same.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "gfxstat/gfxstat.h"
#include "../../lib/input/ftrace_local.h"

static int ref_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

/* ---- the reference: lib/input/ftrace_line.c before the fast paths ---- */
/* Seconds in an ftrace timestamp: centuries of uptime; sec * 1e9 + frac fits int64. */
#define MAX_SEC_DIGITS 10
#define MAX_SEC 9223372035LL
#define MAX_FRAC_DIGITS 12

static const int64_t pow10_ns[10] = {
	1000000000, 100000000, 10000000, 1000000, 100000, 10000, 1000, 100, 10, 1,
};

/* The timestamp "<sec>.<frac>" followed by ':'. Advances *pp past the ':' on success. */
static int ref_scan_ts(const char **pp, const char *end, int64_t *ns)
{
	const char *p = *pp;
	int64_t sec = 0, frac = 0;
	int nd = 0, nf = 0;

	while (p < end && ref_isdigit(*p)) {
		if (++nd > MAX_SEC_DIGITS)
			return -1;
		sec = sec * 10 + (*p++ - '0');
	}
	if (!nd || p >= end || *p != '.')
		return -1;
	p++;
	while (p < end && ref_isdigit(*p)) {
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
static enum gfxstat_parse_res ref_try_header(const char *start, const char *lb, const char *end,
					 struct gfxstat_ftrace_line *out)
{
	const char *p = lb + 1, *q, *ts_begin, *ev;
	int32_t cpu = 0, pid = 0, tgid = -1;
	int nd = 0;
	int64_t mul = 1;

	while (p < end && ref_isdigit(*p)) {
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
			if (ref_isdigit(*b) && !dashes)
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
	while (q > start && ref_isdigit(q[-1])) {
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
	if (p < end && !ref_isdigit(*p)) {
		const char *f = p;

		while (p < end && *p != ' ')
			p++;
		if (p - f > 8)
			return GFXSTAT_PARSE_FAIL;
		while (p < end && *p == ' ')
			p++;
	}
	ts_begin = p;
	if (ref_scan_ts(&p, end, &out->ts_ns))
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

static enum gfxstat_parse_res ref_parse(const char *s, size_t n, struct gfxstat_ftrace_line *out)
{
	const char *p = s, *end = s + n, *lb;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p == '#')
		return GFXSTAT_PARSE_UNSUPPORTED;
	/* the cpu field is within the first few dozen bytes: a plain loop beats memchr here */
	for (lb = p; lb < end; lb++) {
		if (*lb == '[' && ref_try_header(p, lb, end, out) == GFXSTAT_PARSE_OK)
			return GFXSTAT_PARSE_OK;
	}
	return GFXSTAT_PARSE_FAIL;
}

/* ---- the comparison ---- */

static int same_str(struct gfxstat_str a, struct gfxstat_str b)
{
	return a.n == b.n && (a.n == 0 || a.p == b.p);
}

static int same(enum gfxstat_parse_res ra, const struct gfxstat_ftrace_line *a,
		enum gfxstat_parse_res rb, const struct gfxstat_ftrace_line *b)
{
	if (ra != rb)
		return 0;
	if (ra != GFXSTAT_PARSE_OK)
		return 1;
	return same_str(a->task, b->task) && a->pid == b->pid && a->tgid == b->tgid &&
	       a->cpu == b->cpu && a->ts_ns == b->ts_ns && same_str(a->ts_text, b->ts_text) &&
	       same_str(a->event, b->event) && same_str(a->payload, b->payload);
}

static unsigned long long rng = 0x9e3779b97f4a7c15ULL;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static int bad_shown;

/* the seconds cache of the kernel-column path, kept from line to line as the text parser
 * keeps it: a line whose first 8 timestamp bytes match the line before's takes its seconds
 * from there, and must still parse as the reference does */
static struct gx_sec_cache sec_cache;

/* One line through every path; @buf holds it with room around (the fast paths read 8 and 16
 * bytes at a time, within the line only). */
static void one(const char *line, size_t n)
{
	struct gfxstat_ftrace_line a, b, c, d;
	struct gx_ftrace_lazy lz;
	enum gfxstat_parse_res ra, rb, rc, rd;
	char *copy = malloc(n ? n : 1); /* exactly the line: a read past it is an ASan error */

	if (!copy) {
		CHECK(copy != NULL);
		return;
	}
	memcpy(copy, line, n);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&c, 0, sizeof(c));
	memset(&d, 0, sizeof(d));
	ra = ref_parse(copy, n, &a);
	rb = gfxstat_ftrace_line_parse(copy, n, &b);
	rc = gx_ftrace_line_parse_loops(copy, n, &c);
	rd = gx_ftrace_line_head(copy, n, &d, &lz, &sec_cache);
	if (rd == GFXSTAT_PARSE_OK)
		gx_ftrace_line_fields(&lz, &d);
	if (!same(ra, &a, rb, &b) || !same(ra, &a, rc, &c) || !same(ra, &a, rd, &d)) {
		check_failed++;
		if (bad_shown++ < 10)
			fprintf(stderr, "FAIL %s [%s]: paths differ on '%.*s' (ref %d pid %d tgid %d "
				"cpu %d ts %lld task %zu; fast %d pid %d tgid %d cpu %d ts %lld "
				"task %zu; loops %d)\n", __FILE__, check_case, (int)n, line, ra, a.pid,
				a.tgid, a.cpu, (long long)a.ts_ns, a.task.n, rb, b.pid, b.tgid, b.cpu,
				(long long)b.ts_ns, b.task.n, rc);
	} else {
		check_passed++;
	}
	free(copy);
}

static const char *const seeds[] = {
	"          <idle>-0     (-----) [003] d..1 1499898.840747: cpu_idle: state=0 cpu_id=3",
	"          atrace-10373 (10373) [006] ...1 1499898.840780: tracing_mark_write: "
	"trace_event_clock_sync: parent_ts=1499898.875000",
	"           <...>-1420  ( 1347) [001] d..2 1499898.842645: sched_switch: prev_comm=android.anim "
	"prev_pid=1420 prev_prio=112 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120",
	"  HwBinder:595_1-603   (  595) [004] d..2 1499898.851080: sched_switch: prev_comm=x",
	"  om.example.app1-4646  ( 4646) [002] ...1 1499898.853384: tracing_mark_write: E|4646",
	"DispSync-799    (  683) [000] ...1 1080841.601945: tracing_mark_write: C|683|VSYNC-app|1",
	" l.fluwanandroid-1259  [000] .... 1646950.141409: binder_transaction: transaction=69088518",
	"           <...>-10176 [005] .... 958955.762532: tracing_mark_write: trace_event_clock_sync",
	" crtc_commit:127-260   [001] .... 1229150.408356: sde_perf_set_qos_luts: pnum=11 fmt=34324",
	"      Thread-565-20059 [006] d..2 1643529.147184: sched_switch: prev_comm=Thread-565 prev_",
	"           <...>-9549  ( 9549) [000] .... 28304.424846: tracing_mark_write: trace_event_cl",
	"          atrace-14662 [000] 50260.647576: sched_switch: prev_comm=atrace prev_pid=14662 p",
	"    hwc_eventmon-336   [000] 50260.929925: 0: C|124|VSYNC|1",
	"   surfaceflinger-1234567 (1234567) [007] dNh2. 123456.123456789: tracing_mark_write: B|1|x",
	"   surfaceflinger-123     (-------) [007] d.h2. 123456.123456: tracing_mark_write: B|1|x",
	"<idle>-0 [004] d..2 59.999000: sched_switch: prev_comm=swapper/4 prev_pid=0 prev_prio=120 "
	"prev_state=R ==> next_comm=com.ft.app next_pid=500 next_prio=110",
	"app-500 (  500) [004] .... 60.000000: tracing_mark_write: B|500|Choreographer#doFrame 7001",
	"RenderThread-501 (  500) [005] .... 60.020000: tracing_mark_write: B|500|DrawFrames 7001",
	"  my [task] (x)-12 (  34) [001] .... 1.000001: tracing_mark_write: E|34",
	"a-1 [000] .... 9223372035.999999: e: x",
	"a-1 [000] .... 1.5: tracing_mark_write:",
	"\t\t  kworker/u16:3-12345 ( 12345) [012] d..2 12345678.123456: workqueue_execute_start: "
	"work struct 00000000a1b2c3d4: function flush_to_ldisc",
	/* the kernel's columns (gx_ftrace_line_kernel()): short lines of 64 to 79 bytes, long
	 * event names, 5-digit pids, a tab or a '[' in the task, odd timestamps */
	"          <idle>-0     (-----) [002] d..1 1499898.852444: cpu_idle: state=1 cpu_id=2",
	"          <idle>-0     (-----) [003] d..1 98.840747: cpu_idle: s=0",
	"     RenderThread-4690  ( 4646) [000] ...1 1499898.856276: tracing_mark_write: E|4646",
	"  kworker/u16:2-12345 ( 12345) [000] .... 1499898.1: sched_blocked_reason: pid=1 iowait=0",
	"           <...>-12345 (12345) [001] d..2 1499898.842645: sched_switch: prev_comm=x y",
	"\t       <idle>-0     (-----) [003] d..1 1499898.840747: cpu_idle: state=0 cpu_id=3",
	"          <idle>-0     (-----) [003] d..1 12345678.840747: cpu_idle: state=0 cpu_id=3",
	"          <idle>-0     (-----) [003] d..1 1499898.12345678: cpu_idle: state=0 cpu_id=3",
	"          <idle>-0     (-----) [003] d..1 1499898.840747: binder_transaction_received: t=1",
	"          <idle>-0     (-----) [003] d..1 1499898.840747: cpu_idle:state=0 cpu_id=3 xxxxx",
	"          <idle>-0     (-----) [003] d..1 1499898.840747:  cpu_idle: state=0 cpu_id=3 xx",
	"       my[task]x-123   (  123) [001] ...1 1.000001: tracing_mark_write: E|34 padding pad",
	"         #<idle>-0     (-----) [003] d..1 1499898.840747: cpu_idle: state=0 cpu_id=3",
	"          <idle>-0     (-- --) [003] d..1 1499898.840747: cpu_idle: state=0 cpu_id=3",
	"          <idle>-0     ( 12-3) [003] 1..1 1499898.840747: cpu_idle: state=0 cpu_id=3",
	"   SensorService-25653 [002] .... 1229150.408340: tracing_mark_write: E|25523",
	" crtc_commit:127-260   [001] .... 1229150.408402: tracing_mark_write: B|260|sde_crtc",
	"          <idle>-0     [000] d..2 1229150.408419: sched_switch: prev_comm=swapper/0 pr",
	"           <...>-123456 [000] d..2 1229150.408419: sched_switch: prev_comm=swapper/0 p",
	"          <idle>-0     [000] 1..2 1229150.408419: sched_switch: prev_comm=swapper/0 pr",
	"          <idle>-0     [0000] d..2 1229150.408419: sched_switch: prev_comm=swapper/0 p",
	"# tracer: nop",
	"",
};

TEST(seed_lines)
{
	size_t i;

	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		one(seeds[i], strlen(seeds[i]));
}

/* random edits: bytes the header is made of, put anywhere (more often near the '[') */
TEST(edited_lines)
{
	static const char alphabet[] = " \t-()[]:.0123456789#x|";
	char buf[512];
	size_t i, n;
	int k, e;

	for (k = 0; k < 200000; k++) {
		const char *s = seeds[rnd(sizeof(seeds) / sizeof(seeds[0]))];
		const char *lb = strchr(s, '[');
		size_t around = lb ? (size_t)(lb - s) : 0;

		n = strlen(s);
		memcpy(buf, s, n);
		for (e = 1 + (int)rnd(3); e > 0; e--) {
			size_t at = rnd(3) ? (size_t)((long)around - 20 + (long)rnd(48)) : rnd(n + 1);
			char ch = alphabet[rnd(sizeof(alphabet) - 1)];

			if (at > n)
				at = n;
			switch (rnd(4)) {
			case 0: /* replace */
				if (at < n)
					buf[at] = ch;
				break;
			case 1: /* insert */
				if (n + 1 < sizeof(buf)) {
					memmove(buf + at + 1, buf + at, n - at);
					buf[at] = ch;
					n++;
				}
				break;
			case 2: /* delete */
				if (at < n) {
					memmove(buf + at, buf + at + 1, n - at - 1);
					n--;
				}
				break;
			default: /* cut */
				n = at;
				break;
			}
		}
		one(buf, n);
	}
	/* every prefix of every seed */
	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		for (n = 0; n <= strlen(seeds[i]); n++)
			one(seeds[i], n);
}

#ifdef GX_KERNEL_LINE
/* the path seed @i takes: 0 the kernel columns (gx_ftrace_line_kernel()), 1 ftrace_line.c's
 * fast_header() (it sets lz.done = 0, the byte loops 1), 2 the byte loops, -1 none */
static int path_of(size_t i)
{
	const char *s = seeds[i];
	struct gfxstat_ftrace_line out;
	struct gx_ftrace_lazy lz;
	struct gx_sec_cache sc = {0, 0};

	memset(&out, 0, sizeof(out));
	if (gx_ftrace_line_kernel(s, strlen(s), &out, &lz, &sc) == 0)
		return 0;
	lz.done = 1;
	if (gx_ftrace_line_head_any(s, strlen(s), &out, &lz) != GFXSTAT_PARSE_OK)
		return -1;
	return lz.done ? 2 : 1;
}

/* the kernel-column path itself takes the usual lines (else the tests above would only hold
 * its refusals to the loops), in whichever vector form this build has (vec16_local.h:
 * SSE2, NEON, or SWAR with -DGX_VEC16_PORTABLE) */
TEST(kernel_path_taken)
{
	static const size_t usual[] = {0, 1, 2, 3, 6, 7, 8, 9, 10, 22, 23, 37, 38, 39};
	size_t i;

	for (i = 0; i < sizeof(usual) / sizeof(usual[0]); i++)
		CHECK_EQ(path_of(usual[i]), 0);
}

/* ftrace_line.c's fast_header() takes the lines the kernel-column path refuses but that are
 * laid out usually enough, in every vector form: before vec16_local.h it ran on x86-64 only.
 * Seeds 5 (no padding before the task), 11 (no flags), 16 and 17 (short tasks, no padding),
 * 25 (one fraction digit), 27 (a tab first), 32 (two blanks before the event), 40 (a 6-digit
 * pid), 42 (a 4-digit cpu) */
TEST(header_path_taken)
{
	static const size_t usual[] = {5, 11, 16, 17, 25, 27, 32, 40, 42};
	size_t i;

	for (i = 0; i < sizeof(usual) / sizeof(usual[0]); i++)
		CHECK_EQ(path_of(usual[i]), 1);
}

/* the 16-byte operations against byte loops, on random bytes biased to those they test */
TEST(vec16_ops)
{
	static const char some[] = " \t-()[]:.09/#\x80\xff\xb0\xb9";
	char buf[16], tb[16];
	unsigned want_eq, want_eq2, want_dg, want_t, i;
	int k;

	for (k = 0; k < 100000; k++) {
		char c = some[rnd(sizeof(some) - 1)], d = some[rnd(sizeof(some) - 1)];
		gx_v16 v, t;

		for (i = 0; i < 16; i++) {
			buf[i] = rnd(2) ? some[rnd(sizeof(some) - 1)] : (char)rnd(256);
			tb[i] = rnd(2) ? buf[i] : (char)rnd(256);
		}
		want_eq = want_eq2 = want_dg = want_t = 0;
		for (i = 0; i < 16; i++) {
			want_eq |= (unsigned)(buf[i] == c) << i;
			want_eq2 |= (unsigned)(buf[i] == c || buf[i] == d) << i;
			want_dg |= (unsigned)ref_isdigit(buf[i]) << i;
			want_t |= (unsigned)(buf[i] == tb[i]) << i;
		}
		v = gx_v16_load(buf);
		t = gx_v16_load(tb);
		CHECK(gx_v16_eq(v, c) == want_eq);
		CHECK(gx_v16_eq2(v, c, d) == want_eq2);
		/* the first-match marks (sched_line.c's name scans): none, or the same first */
		CHECK((gx_v16_eq_marks(v, c) != 0) == (want_eq != 0));
		if (want_eq)
			CHECK(gx_v16_first(gx_v16_eq_marks(v, c)) == (unsigned)__builtin_ctz(want_eq));
		CHECK(gx_v16_digit(v) == want_dg);
		CHECK(gx_v16_eqv(v, t) == want_t);
	}
}
#endif

TEST_SUITE(test_ftrace_line_paths)
{
	RUN(seed_lines);
	RUN(edited_lines);
#ifdef GX_KERNEL_LINE
	RUN(kernel_path_taken);
	RUN(header_path_taken);
	RUN(vec16_ops);
#endif
}
