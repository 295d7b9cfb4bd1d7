/* SPDX-License-Identifier: MIT */
/*
 * The scheduler payload parser's fast paths (sched_line.c: fast_switch(), fast_wake(), then
 * fast_parse()'s steps) against the general key-table parser alone
 * (gx_sched_line_parse_general()): on the lines gfxsim and real traces have and on many
 * random edits of them (blanks, digits, '=', signs and state letters put in, taken out,
 * doubled; names with blanks; lines cut short), the result and every field of the event must
 * be the same. Also the text parser's inline event-name lookup (gx_sched_kind_fast()) against
 * gfxstat_sched_kind_of().
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_sched.h"
#include "../../lib/input/sched_local.h"

static int same_str(struct gfxstat_str a, struct gfxstat_str b)
{
	return a.n == b.n && (a.n == 0 || a.p == b.p);
}

static int same(enum gfxstat_parse_res ra, const struct gfxstat_sched_event *a,
		enum gfxstat_parse_res rb, const struct gfxstat_sched_event *b)
{
	if (ra != rb)
		return 0;
	if (ra != GFXSTAT_PARSE_OK)
		return 1;
	if (a->kind != b->kind || a->ts_ns != b->ts_ns || a->cpu != b->cpu || a->tid != b->tid ||
	    a->tgid != b->tgid || !same_str(a->comm, b->comm) || a->irq != b->irq)
		return 0;
	switch (a->kind) {
	case GFXSTAT_SCHED_SWITCH:
		return same_str(a->sw.prev_comm, b->sw.prev_comm) &&
		       a->sw.prev_pid == b->sw.prev_pid && a->sw.prev_prio == b->sw.prev_prio &&
		       a->sw.prev_state == b->sw.prev_state &&
		       same_str(a->sw.next_comm, b->sw.next_comm) &&
		       a->sw.next_pid == b->sw.next_pid && a->sw.next_prio == b->sw.next_prio;
	case GFXSTAT_SCHED_WAKING:
	case GFXSTAT_SCHED_WAKEUP:
	case GFXSTAT_SCHED_WAKEUP_NEW:
		return same_str(a->wake.comm, b->wake.comm) && a->wake.pid == b->wake.pid &&
		       a->wake.prio == b->wake.prio && a->wake.target_cpu == b->wake.target_cpu;
	case GFXSTAT_SCHED_CPU_FREQUENCY:
	case GFXSTAT_SCHED_CPU_IDLE:
		return a->freq.state == b->freq.state && a->freq.cpu_id == b->freq.cpu_id;
	default:
		return 1;
	}
}

static unsigned long long rng = 0x2545f4914f6cdd1dULL;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static int bad_shown;
static unsigned fast_ok; /* lines the fast paths took (the test must reach them) */

/* One line, its header parsed, its payload through both parsers. The line is copied to a
 * buffer of exactly its length: a read past it is an ASan error. */
static void one(const char *line, size_t n)
{
	struct gfxstat_ftrace_line ln;
	struct gfxstat_sched_event a, b;
	enum gfxstat_sched_kind kind;
	enum gfxstat_parse_res ra, rb;
	char *copy = malloc(n ? n : 1);

	if (!copy) {
		CHECK(copy != NULL);
		return;
	}
	memcpy(copy, line, n);
	if (gfxstat_ftrace_line_parse(copy, n, &ln) != GFXSTAT_PARSE_OK ||
	    (kind = gfxstat_sched_kind_of(ln.event)) == GFXSTAT_SCHED_NONE) {
		free(copy);
		return;
	}
	memset(&a, 0x55, sizeof(a));
	memset(&b, 0xaa, sizeof(b));
	ra = gx_sched_line_parse_kind(&ln, kind, &a);
	rb = gx_sched_line_parse_general(&ln, kind, &b);
	if (ra == GFXSTAT_PARSE_OK)
		fast_ok++;
	if (!same(ra, &a, rb, &b)) {
		check_failed++;
		if (bad_shown++ < 10)
			fprintf(stderr, "FAIL %s [%s]: paths differ on '%.*s' (fast %d, general %d)\n",
				__FILE__, check_case, (int)n, line, ra, rb);
	} else {
		check_passed++;
	}
	free(copy);
}

static const char *const seeds[] = {
	"           <...>-1420  ( 1347) [001] d..2 1499898.842645: sched_switch: prev_comm=android"
	".anim prev_pid=1420 prev_prio=110 prev_state=S ==> next_comm=swapper/1 next_pid=0 "
	"next_prio=120",
	"          <idle>-0     (-----) [001] d..2 1499898.840777: sched_switch: prev_comm=swapper/1"
	" prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=android.anim next_pid=1420 "
	"next_prio=110",
	"  HwBinder:595_1-603   (  595) [004] d..2 1499898.851080: sched_switch: prev_comm="
	"HwBinder:595_1 prev_pid=603 prev_prio=97 prev_state=R+ ==> next_comm=Jit thread pool "
	"next_pid=5668 next_prio=129",
	"          atrace-10373 (10373) [006] d..2 1499898.842023: sched_switch: prev_comm=atrace "
	"prev_pid=10373 prev_prio=120 prev_state=D|K ==> next_comm=swapper/6 next_pid=0 "
	"next_prio=120",
	"          <idle>-0     (-----) [000] d..5 1499898.843581: sched_waking: comm=HwBinder:595_1"
	" pid=603 prio=97 target_cpu=004",
	"          <idle>-0     (-----) [000] d.h4 1499898.843581: sched_wakeup: comm=Jit thread "
	"pool pid=5668 prio=129 target_cpu=002",
	"     kworker/0:1-12    (   12) [000] d..3 50.000001: sched_wakeup: comm=kworker/u16:2 "
	"pid=1234567 prio=120 success=1 target_cpu=007",
	"          <idle>-0     (-----) [003] d..1 1499898.840747: cpu_idle: state=4294967295 "
	"cpu_id=3",
	"          <idle>-0     (-----) [002] d..1 1499898.852444: cpu_frequency: state=1900800 "
	"cpu_id=2",
	"<idle>-0 [004] d..2 59.999000: sched_switch: prev_comm=swapper/4 prev_pid=0 prev_prio=120 "
	"prev_state=R ==> next_comm=com.ft.app next_pid=500 next_prio=-1",
	"<idle>-0 [004] d..2 59.999000: sched_switch: prev_comm=a prev_pid=1 prev_prio=1 "
	"prev_state=S ==> next_comm=b next_pid=1 next_prio=1",
	"<idle>-0 [004] d..2 59.999000: sched_switch: prev_comm= prev_pid=1 prev_prio=1 "
	"prev_state=S ==> next_comm= next_pid=1 next_prio=12345678",
	"<idle>-0 [004] d..2 59.999000: sched_waking: comm= pid=1 prio=1 target_cpu=0",
	/* a number that no blank ends: fast_switch() and fast_wake() leave that test to the
	 * literal after it, which starts with the blank (both parsers fail) */
	"<idle>-0 [004] d..2 59.999000: sched_switch: prev_comm=a prev_pid=12x prev_prio=1 "
	"prev_state=S ==> next_comm=b next_pid=1 next_prio=1",
	"<idle>-0 [004] d..2 59.999000: sched_switch: prev_comm=a prev_pid=12 prev_prio=1_ "
	"prev_state=S ==> next_comm=b next_pid=1x next_prio=1",
	"<idle>-0 [004] d..2 59.999000: sched_waking: comm=a pid=5= prio=1 target_cpu=0",
	"<idle>-0 [004] d..2 59.999000: sched_waking: comm=a pid=5 prio=1- target_cpu=0",
	/* the 16 bytes name_end() and name_to() compare at once (vec16_local.h): a name's blank
	 * at byte 15, the last of them (15 bytes, TASK_COMM_LEN - 1), and at 8, the first of
	 * the SWAR form's second word; a name of 16 bytes has its blank past them, and one with
	 * a blank at 8 ("RenderTh read") goes to the key search */
	"<idle>-0 [004] d..2 59.999000: sched_switch: prev_comm=surfaceflinger1 prev_pid=1 "
	"prev_prio=1 prev_state=S ==> next_comm=RenderTh next_pid=2 next_prio=3",
	"<idle>-0 [004] d..2 59.999000: sched_switch: prev_comm=surfaceflinger12 prev_pid=1 "
	"prev_prio=1 prev_state=S ==> next_comm=RenderTh read next_pid=2 next_prio=3",
	"<idle>-0 [004] d..2 59.999000: sched_waking: comm=surfaceflinger12 pid=5 prio=1 "
	"target_cpu=0",
	"<idle>-0 [004] d..2 59.999000: sched_wakeup: comm=RenderTh read pid=5 prio=1 "
	"target_cpu=0",
};

TEST(seed_lines)
{
	size_t i;

	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		one(seeds[i], strlen(seeds[i]));
	CHECK(fast_ok >= 8); /* the usual lines parse */
}

/* random edits in the payload (after the event name's ": ") */
TEST(edited_lines)
{
	static const char alphabet[] = " =0123456789-+SRDx>_|pnt";
	char buf[512];
	size_t i, n, pl;
	int k, e;

	fast_ok = 0;
	for (k = 0; k < 300000; k++) {
		const char *s = seeds[rnd(sizeof(seeds) / sizeof(seeds[0]))];
		const char *c = strstr(s, ": ");

		c = c ? strstr(c + 2, ": ") : NULL;
		pl = c ? (size_t)(c + 2 - s) : 0;
		n = strlen(s);
		memcpy(buf, s, n);
		for (e = 1 + (int)rnd(3); e > 0; e--) {
			size_t at = pl + rnd((unsigned)(n - pl + 1));
			char ch = alphabet[rnd(sizeof(alphabet) - 1)];

			if (at > n)
				at = n;
			switch (rnd(5)) {
			case 0: /* replace */
			case 1:
				if (at < n)
					buf[at] = ch;
				break;
			case 2: /* insert */
				if (n + 1 < sizeof(buf)) {
					memmove(buf + at + 1, buf + at, n - at);
					buf[at] = ch;
					n++;
				}
				break;
			case 3: /* delete */
				if (at < n) {
					memmove(buf + at, buf + at + 1, n - at - 1);
					n--;
				}
				break;
			default: /* cut */
				if (!rnd(4))
					n = at;
				break;
			}
		}
		one(buf, n);
	}
	CHECK(fast_ok > 10000);
	/* every prefix of every seed */
	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		for (n = 0; n <= strlen(seeds[i]); n++)
			one(seeds[i], n);
}

TEST(kind_lookup)
{
	static const char *const names[] = {
		"sched_switch", "sched_waking", "sched_wakeup", "cpu_idle", "cpu_frequency",
		"sched_wakeup_new", "sched_switcH", "sched_wakinf", "sched_wa_eup", "cpu_idlf",
		"cpu_frequencz", "cpu_fre_uency", "tracing_mark_write", "binder_reply", "x",
		"sched_blocked_reason", "cpu_frequency_limits", "task_newtask", "task_rename",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct gfxstat_str e = { names[i], strlen(names[i]) };

		CHECK_EQ(gx_sched_kind_fast(e), gfxstat_sched_kind_of(e));
	}
}

TEST_SUITE(test_sched_line_paths)
{
	RUN(seed_lines);
	RUN(edited_lines);
	RUN(kind_lookup);
}
