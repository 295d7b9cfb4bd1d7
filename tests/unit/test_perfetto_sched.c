/* SPDX-License-Identifier: MIT */
/*
 * Perfetto scheduler events and counters (lib/input/perfetto_sched.c) on hand-built protobuf:
 * every decoded event and field, compact_sched with its inferred fields, the merge over CPUs
 * (order, holding, late events, limits), clocks, the counter packets, prev_state by kernel
 * version, the text form of events read back by the text parser, damaged input.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "pb_write.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_perfetto.h"
#include "gfxstat/gfxstat_sched.h"
#include "gfxstat/gfxstat_sysctx.h"
#include "../../lib/input/perfetto_sched_local.h"

/* FtraceEvent { timestamp = 1, pid = 2, [common_flags = 5], <member> = payload } */
static void ftrace_ev(struct pb *bundle, uint64_t ts, uint32_t pid, uint32_t member,
		      const struct pb *payload)
{
	struct pb ev = PB_INIT;

	pb_u(&ev, 1, ts);
	pb_u(&ev, 2, pid);
	pb_msg(&ev, member, payload);
	pb_msg(bundle, 2, &ev);
}

/* ---- a sink that writes what it sees into a string ---- */

struct out {
	char s[32768];
	size_t n;
	int stop_after;
	int calls;
	int64_t last_ts;
	int order_ok;
};

static void out_add(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_add(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(o->s + o->n, sizeof(o->s) - o->n, fmt, ap);
	va_end(ap);
	if (k > 0 && (size_t)k < sizeof(o->s) - o->n)
		o->n += (size_t)k;
}

static int on_sched(void *user, const struct gfxstat_sched_event *ev)
{
	struct out *o = user;
	char line[512];

	if (ev->ts_ns < o->last_ts)
		o->order_ok = 0;
	o->last_ts = ev->ts_ns;
	gfxstat_sched_event_format(ev, line, sizeof(line));
	out_add(o, "%s\n", line);
	return o->stop_after && ++o->calls >= o->stop_after;
}

static int on_counter(void *user, const struct gfxstat_counter *c)
{
	struct out *o = user;

	out_add(o, "C %s %lld %d %lld '%.*s'\n", gfxstat_counter_kind_name(c->kind),
		(long long)c->ts_ns, (int)c->index, (long long)c->value, (int)c->name.n, c->name.p);
	return 0;
}

static struct gx_psched *new_dec(struct out *o)
{
	struct gx_psched_sink sink = { on_sched, on_counter, o, NULL, NULL, NULL, 0 };

	memset(o, 0, sizeof(*o));
	o->order_ok = 1;
	o->last_ts = INT64_MIN;
	return gx_psched_new(&sink);
}

/* SystemInfo { utsname = 1 { release = 3 } } */
static void kernel(struct gx_psched *s, const char *release)
{
	struct pb si = PB_INIT, u = PB_INIT;

	pb_str(&u, 3, release);
	pb_msg(&si, 1, &u);
	CHECK(gx_psched_packet(s, 45, 0, si.b, si.n) == 0);
}

/* ---- tests ---- */

TEST(prev_state_by_kernel)
{
	/* 4.14+: TASK_REPORT bits (include/linux/sched.h), 0x100 = preempted */
	CHECK_EQ(gx_prev_state_bits(0, 5, 10), GFXSTAT_TASK_RUNNABLE);
	CHECK_EQ(gx_prev_state_bits(1, 5, 10), GFXSTAT_TASK_INTERRUPTIBLE);
	CHECK_EQ(gx_prev_state_bits(2, 5, 10), GFXSTAT_TASK_UNINTERRUPTIBLE);
	CHECK_EQ(gx_prev_state_bits(0x10, 5, 10), GFXSTAT_TASK_EXIT_DEAD);
	CHECK_EQ(gx_prev_state_bits(0x40, 5, 10), GFXSTAT_TASK_PARKED);
	CHECK_EQ(gx_prev_state_bits(0x80, 5, 10), GFXSTAT_TASK_IDLE);
	CHECK_EQ(gx_prev_state_bits(0x100, 4, 14), GFXSTAT_TASK_PREEMPTED);
	CHECK_EQ(gx_prev_state_bits(0x200, 5, 10), GFXSTAT_TASK_UNKNOWN);
	CHECK_EQ(gx_prev_state_bits(0x10000 | 1, 5, 10), GFXSTAT_TASK_INTERRUPTIBLE); /* 16 bits */
	/* 4.8 .. 4.13: the scheduler's flags, preemption at 0x1000 */
	CHECK_EQ(gx_prev_state_bits(0x82, 4, 9), GFXSTAT_TASK_UNINTERRUPTIBLE |
						 GFXSTAT_TASK_WAKEKILL);
	CHECK_EQ(gx_prev_state_bits(0x1000, 4, 9), GFXSTAT_TASK_PREEMPTED);
	CHECK_EQ(gx_prev_state_bits(0x800, 4, 9), 0);
	CHECK_EQ(gx_prev_state_bits(0x100, 4, 9), GFXSTAT_TASK_WAKING);
	/* before 4.8 (and unknown, assumed 4.4): preemption at 0x800; D|N is TASK_IDLE */
	CHECK_EQ(gx_prev_state_bits(0x800, 0, 0), GFXSTAT_TASK_PREEMPTED);
	CHECK_EQ(gx_prev_state_bits(0x402, 4, 4), GFXSTAT_TASK_IDLE);
	CHECK_EQ(gx_prev_state_bits(0x40, 0, 0), GFXSTAT_TASK_DEAD);
	CHECK_EQ(gx_prev_state_bits(0x200, 3, 18), GFXSTAT_TASK_PARKED);
}

/* One bundle with one of each event, read back as the kernel's text and by the text parser. */
TEST(every_event)
{
	static const char *const want =
		"a-10 (-----) [002] .... 0.000001000: sched_switch: prev_comm=a prev_pid=10 "
		"prev_prio=120 prev_state=S ==> next_comm=b next_pid=20 next_prio=110\n"
		"b-20 (-----) [002] ..h. 0.000001500: sched_waking: comm=c pid=30 prio=120 "
		"target_cpu=003\n"
		"b-20 (-----) [002] .... 0.000002000: sched_blocked_reason: pid=30 iowait=1 "
		"caller=0xdead\n"
		"b-20 (-----) [002] .... 0.000002100: cpu_frequency: state=1800000 cpu_id=2\n"
		"b-20 (-----) [002] .... 0.000002200: cpu_idle: state=4294967295 cpu_id=2\n"
		"b-20 (-----) [002] .... 0.000002300: cpu_frequency_limits: min=300000 max=2000000 "
		"cpu_id=0\n"
		"b-20 (-----) [002] .... 0.000002400: binder_transaction: transaction=77 dest_node=5 "
		"dest_proc=500 dest_thread=0 reply=0 flags=0x1 code=0x3\n"
		"b-20 (-----) [002] .... 0.000002500: binder_transaction_received: transaction=77\n"
		"b-20 (-----) [002] .... 0.000002600: task_rename: pid=20 oldcomm=b newcomm=bee "
		"oom_score_adj=0\n"
		"bee-20 (-----) [002] .... 0.000002700: task_newtask: pid=40 comm=new "
		"clone_flags=3d0f00 oom_score_adj=-1000\n"
		"bee-20 (-----) [002] .... 0.000002800: sched_wakeup_new: comm=new pid=40 prio=120 "
		"target_cpu=001\n"
		"<...>-99 (-----) [002] ..s. 0.000002900: sched_wakeup: comm=c pid=30 prio=120 "
		"target_cpu=-01\n"
		"C gpu_freq 3000 0 585000 ''\n"
		"C thermal 3100 1 41000 'skin'\n";
	struct pb bundle = PB_INIT, p = PB_INIT;
	struct out o;
	struct gx_psched *s = new_dec(&o);
	const struct gfxstat_perfetto_sched_summary *sum;

	pb_u(&bundle, 1, 2); /* cpu */
	/* sched_switch = 4 */
	pb_str(&p, 1, "a");
	pb_u(&p, 2, 10);
	pb_u(&p, 3, 120);
	pb_u(&p, 4, 1);
	pb_str(&p, 5, "b");
	pb_u(&p, 6, 20);
	pb_u(&p, 7, 110);
	ftrace_ev(&bundle, 1000, 10, 4, &p);
	/* sched_waking = 20, from hard irq context (common_flags 0x08) */
	{
		struct pb ev = PB_INIT;

		p.n = 0;
		pb_str(&p, 1, "c");
		pb_u(&p, 2, 30);
		pb_u(&p, 3, 120);
		pb_u(&p, 4, 1);
		pb_u(&p, 5, 3);
		pb_u(&ev, 1, 1500);
		pb_u(&ev, 2, 20);
		pb_u(&ev, 5, 0x08 | 0x01);
		pb_msg(&ev, 20, &p);
		pb_msg(&bundle, 2, &ev);
	}
	/* sched_blocked_reason = 18 */
	p.n = 0;
	pb_u(&p, 1, 30);
	pb_u(&p, 2, 0xdead);
	pb_u(&p, 3, 1);
	ftrace_ev(&bundle, 2000, 20, 18, &p);
	/* cpu_frequency = 11, cpu_idle = 13, cpu_frequency_limits = 12 */
	p.n = 0;
	pb_u(&p, 1, 1800000);
	pb_u(&p, 2, 2);
	ftrace_ev(&bundle, 2100, 20, 11, &p);
	p.n = 0;
	pb_u(&p, 1, 4294967295u);
	pb_u(&p, 2, 2);
	ftrace_ev(&bundle, 2200, 20, 13, &p);
	p.n = 0;
	pb_u(&p, 1, 300000);
	pb_u(&p, 2, 2000000);
	pb_u(&p, 3, 0);
	ftrace_ev(&bundle, 2300, 20, 12, &p);
	/* binder_transaction = 50, binder_transaction_received = 51 */
	p.n = 0;
	pb_u(&p, 1, 77);
	pb_u(&p, 2, 5);
	pb_u(&p, 3, 500);
	pb_u(&p, 4, 0);
	pb_u(&p, 5, 0);
	pb_u(&p, 6, 3);
	pb_u(&p, 7, 1);
	ftrace_ev(&bundle, 2400, 20, 50, &p);
	p.n = 0;
	pb_u(&p, 1, 77);
	ftrace_ev(&bundle, 2500, 20, 51, &p);
	/* task_rename = 236 (the running thread: later events name it so), task_newtask = 235 */
	p.n = 0;
	pb_u(&p, 1, 20);
	pb_str(&p, 2, "b");
	pb_str(&p, 3, "bee");
	pb_u(&p, 4, 0);
	ftrace_ev(&bundle, 2600, 20, 236, &p);
	p.n = 0;
	pb_u(&p, 1, 40);
	pb_str(&p, 2, "new");
	pb_u(&p, 3, 0x3d0f00);
	pb_i(&p, 4, -1000);
	ftrace_ev(&bundle, 2700, 20, 235, &p);
	/* sched_wakeup_new = 114; sched_wakeup = 17 from a soft irq, without target_cpu, on a
	 * thread that is not the one running (its name unknown) */
	p.n = 0;
	pb_str(&p, 1, "new");
	pb_u(&p, 2, 40);
	pb_u(&p, 3, 120);
	pb_u(&p, 5, 1);
	ftrace_ev(&bundle, 2800, 20, 114, &p);
	{
		struct pb ev = PB_INIT;

		p.n = 0;
		pb_str(&p, 1, "c");
		pb_u(&p, 2, 30);
		pb_u(&p, 3, 120);
		pb_u(&ev, 1, 2900);
		pb_u(&ev, 2, 99);
		pb_u(&ev, 5, 0x10);
		pb_msg(&ev, 17, &p);
		pb_msg(&bundle, 2, &ev);
	}
	/* gpu_frequency = 332, thermal_temperature = 341: counters */
	p.n = 0;
	pb_u(&p, 1, 0);
	pb_u(&p, 2, 585000);
	ftrace_ev(&bundle, 3000, 20, 332, &p);
	p.n = 0;
	pb_u(&p, 1, 1);
	pb_u(&p, 2, 41000);
	pb_u(&p, 3, 40000);
	pb_str(&p, 4, "skin");
	ftrace_ev(&bundle, 3100, 20, 341, &p);
	/* print = 3: not ours */
	p.n = 0;
	pb_str(&p, 2, "B|1|x\n");
	ftrace_ev(&bundle, 3200, 20, 3, &p);

	CHECK(gx_psched_bundle(s, bundle.b, bundle.n) == 0);
	CHECK(gx_psched_finish(s) == 0);
	CHECK_CSTR(o.s, want);
	sum = gx_psched_summary(s);
	CHECK_EQ(sum->bundles, 1);
	CHECK_EQ(sum->sched[GFXSTAT_SCHED_SWITCH], 1);
	CHECK_EQ(sum->sched[GFXSTAT_SCHED_WAKING], 1);
	CHECK_EQ(sum->sched[GFXSTAT_SCHED_TASK_NEWTASK], 1);
	CHECK_EQ(sum->counter[GFXSTAT_COUNTER_GPU_FREQ], 1);
	CHECK_EQ(sum->counter[GFXSTAT_COUNTER_THERMAL], 1);
	CHECK_EQ(sum->malformed, 0);
	CHECK_EQ(sum->late, 0);
	gx_psched_free(s);
}

/* Each text line above read back gives the same event: text and Perfetto agree. */
static struct gfxstat_sched_event got;
static int keep(void *user, const struct gfxstat_sched_event *ev)
{
	(void)user;
	got = *ev;
	return 0;
}

TEST(text_round_trip)
{
	struct pb bundle = PB_INIT, p = PB_INIT;
	struct gx_psched_sink sink = { keep, NULL, NULL, NULL, NULL, NULL, 0 };
	struct gx_psched *s = gx_psched_new(&sink);
	struct gfxstat_sched_event ev, back;
	struct gfxstat_ftrace_line line;
	char text[512];

	/* a switch whose task names hold spaces, preempted (kernel 5.10: 0x100) */
	kernel(s, "5.10.107-android13-4");
	pb_u(&bundle, 1, 7);
	pb_str(&p, 1, "Jit thread pool");
	pb_u(&p, 2, 4321);
	pb_u(&p, 3, 129);
	pb_u(&p, 4, 0x100);
	pb_str(&p, 5, "RenderThread");
	pb_u(&p, 6, 4400);
	pb_u(&p, 7, 110);
	ftrace_ev(&bundle, 157479547427602ULL, 4321, 4, &p);
	CHECK(gx_psched_bundle(s, bundle.b, bundle.n) == 0);
	CHECK(gx_psched_finish(s) == 0);
	ev = got;
	CHECK_EQ(ev.sw.prev_state, GFXSTAT_TASK_PREEMPTED);
	gfxstat_sched_event_format(&ev, text, sizeof(text));
	CHECK_CSTR(text, "Jit thread pool-4321 (-----) [007] .... 157479.547427602: sched_switch: "
			 "prev_comm=Jit thread pool prev_pid=4321 prev_prio=129 prev_state=R+ ==> "
			 "next_comm=RenderThread next_pid=4400 next_prio=110");
	CHECK(gfxstat_ftrace_line_parse(text, strlen(text), &line) == GFXSTAT_PARSE_OK);
	CHECK(gfxstat_sched_line_parse(&line, &back) == GFXSTAT_PARSE_OK);
	CHECK_EQ(back.kind, ev.kind);
	CHECK_EQ(back.ts_ns, ev.ts_ns);
	CHECK_EQ(back.cpu, ev.cpu);
	CHECK_EQ(back.tid, ev.tid);
	CHECK_STR(back.comm, "Jit thread pool");
	CHECK_STR(back.sw.prev_comm, "Jit thread pool");
	CHECK_STR(back.sw.next_comm, "RenderThread");
	CHECK_EQ(back.sw.prev_pid, 4321);
	CHECK_EQ(back.sw.prev_prio, 129);
	CHECK_EQ(back.sw.prev_state, ev.sw.prev_state);
	CHECK_EQ(back.sw.next_pid, 4400);
	CHECK_EQ(back.sw.next_prio, 110);
	gx_psched_free(s);

	/* the other kinds, field by field */
	memset(&ev, 0, sizeof(ev));
	ev.kind = GFXSTAT_SCHED_BINDER_TRANSACTION;
	ev.ts_ns = 5 * GFXSTAT_NSEC_PER_SEC + 7;
	ev.cpu = 3;
	ev.tid = 77;
	ev.tgid = 70;
	ev.comm = (struct gfxstat_str){ "binder:70_2", 11 };
	ev.irq = GFXSTAT_SCHED_IRQ_HARD | GFXSTAT_SCHED_IRQ_SOFT;
	ev.binder.transaction = 123;
	ev.binder.dest_node = -1;
	ev.binder.dest_proc = 500;
	ev.binder.dest_thread = 501;
	ev.binder.reply = 1;
	ev.binder.flags = 0x11;
	ev.binder.code = 0x5f;
	gfxstat_sched_event_format(&ev, text, sizeof(text));
	CHECK_CSTR(text, "binder:70_2-77 (   70) [003] ..H. 5.000000007: binder_transaction: "
			 "transaction=123 dest_node=-1 dest_proc=500 dest_thread=501 reply=1 "
			 "flags=0x11 code=0x5f");
	CHECK(gfxstat_ftrace_line_parse(text, strlen(text), &line) == GFXSTAT_PARSE_OK);
	CHECK(gfxstat_sched_line_parse(&line, &back) == GFXSTAT_PARSE_OK);
	CHECK_EQ(back.tgid, 70);
	CHECK_EQ(back.binder.transaction, 123);
	CHECK_EQ(back.binder.dest_proc, 500);
	CHECK_EQ(back.binder.dest_thread, 501);
	CHECK_EQ(back.binder.reply, 1);
	CHECK_EQ(back.binder.flags, 0x11);
	CHECK_EQ(back.binder.code, 0x5f);

	/* a waking from interrupt context: the irq column says so (the text parser reads it
	 * for wakings, where it tells who woke the thread) */
	memset(&ev, 0, sizeof(ev));
	ev.kind = GFXSTAT_SCHED_WAKING;
	ev.tid = 0;
	ev.tgid = -1;
	ev.comm = (struct gfxstat_str){ "<idle>", 6 };
	ev.irq = GFXSTAT_SCHED_IRQ_HARD;
	ev.wake.comm = (struct gfxstat_str){ "RenderThread", 12 };
	ev.wake.pid = 4400;
	ev.wake.prio = 110;
	ev.wake.target_cpu = 5;
	gfxstat_sched_event_format(&ev, text, sizeof(text));
	CHECK(gfxstat_ftrace_line_parse(text, strlen(text), &line) == GFXSTAT_PARSE_OK);
	CHECK(gfxstat_sched_line_parse(&line, &back) == GFXSTAT_PARSE_OK);
	CHECK_EQ(back.irq, GFXSTAT_SCHED_IRQ_HARD);
	CHECK_EQ(back.wake.pid, 4400);
	CHECK_EQ(back.wake.target_cpu, 5);
	CHECK_STR(back.wake.comm, "RenderThread");

	memset(&ev, 0, sizeof(ev));
	ev.kind = GFXSTAT_SCHED_TASK_NEWTASK;
	ev.tid = 1;
	ev.tgid = -1;
	ev.newtask.pid = 2;
	ev.newtask.comm = (struct gfxstat_str){ "a b=c", 5 };
	ev.newtask.clone_flags = 0x3d0f00;
	ev.newtask.oom_score_adj = -1000;
	gfxstat_sched_event_format(&ev, text, sizeof(text));
	CHECK(gfxstat_ftrace_line_parse(text, strlen(text), &line) == GFXSTAT_PARSE_OK);
	CHECK(gfxstat_sched_line_parse(&line, &back) == GFXSTAT_PARSE_OK);
	CHECK_STR(back.comm, "<...>");
	CHECK_EQ(back.newtask.pid, 2);
	CHECK_STR(back.newtask.comm, "a b=c");
	CHECK_EQ(back.newtask.clone_flags, 0x3d0f00);
	CHECK_EQ(back.newtask.oom_score_adj, -1000);

	/* a state no letter says, and a buffer too small (the length needed is returned) */
	memset(&ev, 0, sizeof(ev));
	ev.kind = GFXSTAT_SCHED_SWITCH;
	ev.tgid = -1;
	ev.sw.prev_state = GFXSTAT_TASK_UNKNOWN;
	CHECK(gfxstat_sched_event_format(&ev, text, sizeof(text)) == strlen(text));
	CHECK(strstr(text, "prev_state=? ==>") != NULL);
	CHECK(gfxstat_sched_event_format(&ev, text, 8) == strlen("<...>-0 (-----) [000] .... "
								 "0.000000000: sched_switch: "
								 "prev_comm= prev_pid=0 "
								 "prev_prio=0 prev_state=? ==> "
								 "next_comm= next_pid=0 "
								 "next_prio=0"));
	CHECK_EQ(strlen(text), 7);
}

/*
 * compact_sched: intern table ["swapper/1", "app", "rt"]; switches at 1000, 1500, 1750
 * (deltas 1000, 500, 250) to app/100, rt/200, swapper/0, with prev_state 0, S, 0x100;
 * wakings at 1200 and 1600 (deltas 1200, 400) of rt/300 (soft irq) and app/301.
 */
static void compact_bundle(struct pb *bundle, int unpacked_prio)
{
	static const uint64_t sts[] = { 1000, 500, 250 }, sst[] = { 0, 1, 0x100 },
			      spid[] = { 100, 200, 0 }, sprio[] = { 120, 110, 120 },
			      scomm[] = { 1, 2, 0 };
	static const uint64_t wts[] = { 1200, 400 }, wpid[] = { 300, 301 },
			      wcpu[] = { 1, 2 }, wprio[] = { 120, 120 }, wcomm[] = { 2, 1 },
			      wflags[] = { 0x10, 0 };
	struct pb cs = PB_INIT;
	size_t i;

	pb_packed(&cs, 1, sts, 3);
	pb_packed(&cs, 2, sst, 3);
	pb_packed(&cs, 3, spid, 3);
	if (unpacked_prio)
		for (i = 0; i < 3; i++)
			pb_u(&cs, 4, sprio[i]);
	else
		pb_packed(&cs, 4, sprio, 3);
	pb_str(&cs, 5, "swapper/1");
	pb_str(&cs, 5, "app");
	pb_str(&cs, 5, "rt");
	pb_packed(&cs, 6, scomm, 3);
	pb_packed(&cs, 7, wts, 2);
	pb_packed(&cs, 8, wpid, 2);
	pb_packed(&cs, 9, wcpu, 2);
	pb_packed(&cs, 10, wprio, 2);
	pb_packed(&cs, 11, wcomm, 2);
	pb_packed(&cs, 12, wflags, 2);
	pb_u(bundle, 1, 1);
	pb_msg(bundle, 4, &cs);
}

TEST(compact_sched)
{
	static const char *const want =
		"app-100 (-----) [001] ..s. 0.000001200: sched_waking: comm=rt pid=300 prio=120 "
		"target_cpu=001\n"
		"app-100 (-----) [001] .... 0.000001500: sched_switch: prev_comm=app prev_pid=100 "
		"prev_prio=120 prev_state=S ==> next_comm=rt next_pid=200 next_prio=110\n"
		"rt-200 (-----) [001] .... 0.000001600: sched_waking: comm=app pid=301 prio=120 "
		"target_cpu=002\n"
		"rt-200 (-----) [001] .... 0.000001750: sched_switch: prev_comm=rt prev_pid=200 "
		"prev_prio=110 prev_state=%s ==> next_comm=swapper/1 next_pid=0 next_prio=120\n";
	char expect[1024];
	int unpacked;

	for (unpacked = 0; unpacked < 2; unpacked++) {
		struct pb bundle = PB_INIT;
		struct out o;
		struct gx_psched *s = new_dec(&o);
		const struct gfxstat_perfetto_sched_summary *sum;

		/* 0x100 is "preempted" on 4.14+ and TASK_WAKING before */
		if (unpacked)
			kernel(s, "5.10.107-android13-4-00001-g1234");
		compact_bundle(&bundle, unpacked);
		CHECK(gx_psched_bundle(s, bundle.b, bundle.n) == 0);
		CHECK(gx_psched_finish(s) == 0);
		snprintf(expect, sizeof(expect), want, unpacked ? "R+" : "W");
		CHECK_CSTR(o.s, expect);
		sum = gx_psched_summary(s);
		CHECK_EQ(sum->compact_bundles, 1);
		CHECK_EQ(sum->compact_switch, 3);
		CHECK_EQ(sum->compact_waking, 2);
		CHECK_EQ(sum->compact_skipped, 1); /* the first switch: no previous thread */
		CHECK_EQ(sum->compact_errors, 0);
		CHECK_EQ(sum->sched[GFXSTAT_SCHED_SWITCH], 2);
		CHECK_EQ(sum->kernel_major, unpacked ? 5 : 0);
		CHECK_EQ(sum->kernel_minor, unpacked ? 10 : 0);
		gx_psched_free(s);
	}
}

TEST(compact_errors)
{
	static const uint64_t two[] = { 10, 10 }, one[] = { 1 }, zero[] = { 0, 0 },
			      bad[] = { 5, 0 };
	struct pb bundle = PB_INIT, cs = PB_INIT;
	struct out o;
	struct gx_psched *s = new_dec(&o);

	/* a column one short: the first switch is read (and is the CPU's first: skipped) */
	pb_packed(&cs, 1, two, 2);
	pb_packed(&cs, 2, two, 2);
	pb_packed(&cs, 3, two, 2);
	pb_packed(&cs, 4, one, 1);
	pb_str(&cs, 5, "x");
	pb_packed(&cs, 6, zero, 2);
	pb_u(&bundle, 1, 0);
	pb_msg(&bundle, 4, &cs);
	CHECK(gx_psched_bundle(s, bundle.b, bundle.n) == 0);
	CHECK_EQ(gx_psched_summary(s)->compact_errors, 1);
	CHECK_EQ(gx_psched_summary(s)->compact_skipped, 1);
	/* a name index past the intern table */
	bundle.n = cs.n = 0;
	pb_packed(&cs, 1, two, 2);
	pb_packed(&cs, 2, two, 2);
	pb_packed(&cs, 3, two, 2);
	pb_packed(&cs, 4, two, 2);
	pb_str(&cs, 5, "x");
	pb_packed(&cs, 6, bad, 2);
	pb_u(&bundle, 1, 0);
	pb_msg(&bundle, 4, &cs);
	CHECK(gx_psched_bundle(s, bundle.b, bundle.n) == 0);
	CHECK_EQ(gx_psched_summary(s)->compact_errors, 2);
	CHECK(gx_psched_finish(s) == 0);
	CHECK_EQ(o.n, 0);
	gx_psched_free(s);
}

/* A bundle of cpu_idle events on @cpu at the given times. */
static void idle_bundle(struct pb *bundle, uint32_t cpu, const uint64_t *ts, size_t n)
{
	struct pb p = PB_INIT;
	size_t i;

	bundle->n = 0;
	pb_u(bundle, 1, cpu);
	for (i = 0; i < n; i++) {
		p.n = 0;
		pb_u(&p, 1, (uint32_t)i);
		pb_u(&p, 2, cpu);
		ftrace_ev(bundle, ts[i], 0, 13, &p);
	}
}

/* The cpu_idle events delivered so far, as "cpu:ns ..." */
static void times(const struct out *o, char *buf, size_t cap)
{
	const char *p = o->s;
	size_t n = 0;

	buf[0] = 0;
	while ((p = strstr(p, "cpu_idle: ")) != NULL) {
		const char *line = p, *q;
		char *e;
		long cpu;
		long long sec, ns;
		int k;

		while (line > o->s && line[-1] != '\n')
			line--;
		q = strchr(line, '[');
		cpu = strtol(q + 1, &e, 10);
		q = strchr(e, ' ') + 1;  /* the flags */
		q = strchr(q, ' ') + 1;  /* the time */
		sec = strtoll(q, &e, 10);
		ns = strtoll(e + 1, NULL, 10);
		k = snprintf(buf + n, cap - n, "%ld:%lld ", cpu, sec * 1000000000LL + ns);
		if (k > 0 && (size_t)k < cap - n)
			n += (size_t)k;
		p++;
	}
}

TEST(merge_over_cpus)
{
	static const uint64_t a[] = { 10, 30, 50 }, b[] = { 20, 40 }, c[] = { 60 },
			      d[] = { 35, 70 };
	struct pb bundle = PB_INIT;
	char buf[512];
	struct out o;
	struct gx_psched *s = new_dec(&o);

	/* nothing goes out before every CPU was read once: CPU 1 brings older events */
	idle_bundle(&bundle, 0, a, 3);
	CHECK(gx_psched_bundle(s, bundle.b, bundle.n) == 0);
	CHECK_EQ(o.n, 0);
	idle_bundle(&bundle, 1, b, 2);
	CHECK(gx_psched_bundle(s, bundle.b, bundle.n) == 0);
	CHECK_EQ(o.n, 0);
	/* CPU 0 again: all were read; out goes what CPU 1 (at 40) cannot precede */
	idle_bundle(&bundle, 0, c, 1);
	CHECK(gx_psched_bundle(s, bundle.b, bundle.n) == 0);
	times(&o, buf, sizeof(buf));
	CHECK_CSTR(buf, "0:10 1:20 0:30 1:40 ");
	/* 35 comes after 40 went out: late, dropped; 70 lets 50 and 60 out */
	idle_bundle(&bundle, 1, d, 2);
	CHECK(gx_psched_bundle(s, bundle.b, bundle.n) == 0);
	times(&o, buf, sizeof(buf));
	CHECK_CSTR(buf, "0:10 1:20 0:30 1:40 0:50 0:60 ");
	CHECK_EQ(gx_psched_summary(s)->late, 1);
	CHECK(gx_psched_finish(s) == 0);
	times(&o, buf, sizeof(buf));
	CHECK_CSTR(buf, "0:10 1:20 0:30 1:40 0:50 0:60 1:70 ");
	CHECK(o.order_ok);
	CHECK_EQ(gx_psched_summary(s)->held_max, 6);
	gx_psched_free(s);
}

TEST(merge_ties_and_limits)
{
	static const uint64_t a[] = { 10, 20 }, b[] = { 10, 20 }, c[] = { 30 };
	struct pb bundle = PB_INIT;
	char buf[512];
	struct out o;
	struct gx_psched *s = new_dec(&o);

	/* equal times on two CPUs: in file order */
	idle_bundle(&bundle, 3, a, 2);
	gx_psched_bundle(s, bundle.b, bundle.n);
	idle_bundle(&bundle, 1, b, 2);
	gx_psched_bundle(s, bundle.b, bundle.n);
	gx_psched_finish(s);
	times(&o, buf, sizeof(buf));
	CHECK_CSTR(buf, "3:10 1:10 3:20 1:20 ");
	gx_psched_free(s);

	/* max_held: past it the oldest go out at once */
	s = new_dec(&o);
	gx_psched_set_limits(s, 2, 0);
	idle_bundle(&bundle, 0, a, 2);
	gx_psched_bundle(s, bundle.b, bundle.n);
	CHECK_EQ(o.n, 0);
	idle_bundle(&bundle, 0, c, 1);
	gx_psched_bundle(s, bundle.b, bundle.n);
	times(&o, buf, sizeof(buf));
	CHECK_CSTR(buf, "0:10 ");
	CHECK_EQ(gx_psched_summary(s)->forced, 1);
	gx_psched_free(s);

	/* window: an event that far behind the newest goes out though a CPU was not read twice */
	s = new_dec(&o);
	gx_psched_set_limits(s, 0, 15);
	idle_bundle(&bundle, 0, a, 2);
	gx_psched_bundle(s, bundle.b, bundle.n);
	idle_bundle(&bundle, 1, c, 1);
	gx_psched_bundle(s, bundle.b, bundle.n);
	times(&o, buf, sizeof(buf));
	CHECK_CSTR(buf, "0:10 ");
	gx_psched_free(s);

	/* SystemInfo.num_cpus = 2: both CPUs seen, no need to wait for a second round */
	s = new_dec(&o);
	{
		struct pb si = PB_INIT;

		pb_u(&si, 8, 2);
		gx_psched_packet(s, 45, 0, si.b, si.n);
	}
	idle_bundle(&bundle, 0, a, 2);
	gx_psched_bundle(s, bundle.b, bundle.n);
	idle_bundle(&bundle, 1, c, 1);
	gx_psched_bundle(s, bundle.b, bundle.n);
	times(&o, buf, sizeof(buf));
	CHECK_CSTR(buf, "0:10 0:20 ");
	gx_psched_free(s);
}

TEST(ftrace_clock)
{
	static const uint64_t a[] = { 1000 };
	struct pb bundle = PB_INIT;
	char buf[512];
	struct out o;
	struct gx_psched *s = new_dec(&o);

	/* FTRACE_CLOCK_LOCAL with a snapshot: ftrace 1000 is boot 5000 */
	idle_bundle(&bundle, 0, a, 1);
	pb_u(&bundle, 5, 3);
	pb_u(&bundle, 6, 1000);
	pb_u(&bundle, 7, 5000);
	gx_psched_bundle(s, bundle.b, bundle.n);
	/* a later bundle without its own snapshot keeps the last one */
	idle_bundle(&bundle, 0, a, 1);
	pb_u(&bundle, 5, 3);
	gx_psched_bundle(s, bundle.b, bundle.n);
	gx_psched_finish(s);
	times(&o, buf, sizeof(buf));
	CHECK_CSTR(buf, "0:5000 0:5000 ");
	CHECK_EQ(gx_psched_summary(s)->clock_unconverted, 0);
	gx_psched_free(s);

	s = new_dec(&o);
	idle_bundle(&bundle, 0, a, 1);
	pb_u(&bundle, 5, 2);
	gx_psched_bundle(s, bundle.b, bundle.n);
	gx_psched_finish(s);
	times(&o, buf, sizeof(buf));
	CHECK_CSTR(buf, "0:1000 ");
	CHECK_EQ(gx_psched_summary(s)->clock_unconverted, 1);
	gx_psched_free(s);
}

TEST(counter_packets)
{
	static const char *const want =
		"C mem_available 7000 -1 123456 ''\n"
		"C cpu_busy_time 7000 0 165 ''\n"
		"C cpu_idle_time 7000 0 1005 ''\n"
		"C thermal 7000 -1 41000 'skin-therm'\n"
		"C thermal 7000 -1 38000 'thermal_zone1'\n"
		"C cpu_freq_sample 7000 0 300000 ''\n"
		"C cpu_freq_sample 7000 1 1800000 ''\n"
		"C gpu_freq 7000 0 585000 ''\n"
		"C battery_charge 8000 -1 4430000 ''\n"
		"C battery_capacity 8000 -1 100000 ''\n"
		"C battery_current 8000 -1 -91250 ''\n"
		"C battery_current_avg 8000 -1 312 ''\n"
		"C rail_energy 1000000000 3 5000 'S2M_VDD_CPUCL2'\n"
		"C rail_energy 9000 9 7 ''\n"
		"C process_rss 10000 123 4567 ''\n";
	static const uint64_t freqs[] = { 300000, 1800000 };
	struct pb sys = PB_INIT, m = PB_INIT, bat = PB_INIT, rails = PB_INIT, ps = PB_INIT;
	struct out o;
	struct gx_psched *s = new_dec(&o);

	/* SysStats: meminfo (MemTotal is not kept), cpu_stat, thermal_zone, cpufreq_khz
	 * (packed), gpufreq_mhz (not packed) */
	pb_u(&m, 1, 1);
	pb_u(&m, 2, 999);
	pb_msg(&sys, 1, &m);
	m.n = 0;
	pb_u(&m, 1, 3);
	pb_u(&m, 2, 123456);
	pb_msg(&sys, 1, &m);
	m.n = 0;
	pb_u(&m, 1, 0);
	pb_u(&m, 2, 100); /* user */
	pb_u(&m, 3, 10);  /* nice */
	pb_u(&m, 4, 50);  /* system */
	pb_u(&m, 5, 1000); /* idle */
	pb_u(&m, 6, 5);   /* iowait */
	pb_u(&m, 7, 3);   /* irq */
	pb_u(&m, 8, 2);   /* softirq */
	pb_u(&m, 9, 77);  /* steal: neither */
	pb_msg(&sys, 3, &m);
	m.n = 0;
	pb_str(&m, 1, "thermal_zone0");
	pb_u(&m, 2, 41);
	pb_str(&m, 3, "skin-therm\n");
	pb_msg(&sys, 15, &m);
	m.n = 0;
	pb_str(&m, 1, "thermal_zone1");
	pb_u(&m, 2, 38);
	pb_msg(&sys, 15, &m);
	pb_packed(&sys, 11, freqs, 2);
	pb_u(&sys, 17, 585);
	CHECK(gx_psched_packet(s, 7, 7000, sys.b, sys.n) == 0);
	/* BatteryCounters: a float capacity, a negative current */
	pb_i(&bat, 1, 4430000);
	pb_fixed32(&bat, 2, 0x42c80000u); /* 100.0f */
	pb_i(&bat, 3, -91250);
	pb_i(&bat, 4, 312);
	CHECK(gx_psched_packet(s, 38, 8000, bat.b, bat.n) == 0);
	/* PowerRails: a descriptor names index 3; energy with its own time, and without */
	m.n = 0;
	pb_u(&m, 1, 3);
	pb_str(&m, 2, "S2M_VDD_CPUCL2");
	pb_str(&m, 3, "CPU(BIG)");
	pb_msg(&rails, 1, &m);
	CHECK(gx_psched_packet(s, 40, 9000, rails.b, rails.n) == 0);
	rails.n = 0;
	m.n = 0;
	pb_u(&m, 1, 3);
	pb_u(&m, 2, 1000);
	pb_u(&m, 3, 5000);
	pb_msg(&rails, 2, &m);
	m.n = 0;
	pb_u(&m, 1, 9);
	pb_u(&m, 3, 7);
	pb_msg(&rails, 2, &m);
	CHECK(gx_psched_packet(s, 40, 9000, rails.b, rails.n) == 0);
	/* ProcessStats: one process with vm_rss_kb, one without */
	m.n = 0;
	pb_u(&m, 1, 123);
	pb_u(&m, 2, 99999);
	pb_u(&m, 3, 4567);
	pb_msg(&ps, 1, &m);
	m.n = 0;
	pb_u(&m, 1, 124);
	pb_msg(&ps, 1, &m);
	CHECK(gx_psched_packet(s, 9, 10000, ps.b, ps.n) == 0);
	/* a field that holds no counters */
	CHECK(gx_psched_packet(s, 2, 11000, ps.b, ps.n) == 0);
	CHECK(!gx_psched_wants(2) && gx_psched_wants(38));
	CHECK(gx_psched_finish(s) == 0);
	CHECK_CSTR(o.s, want);
	CHECK_EQ(gx_psched_summary(s)->malformed, 0);
	gx_psched_free(s);
}

TEST(damaged_input)
{
	struct pb bundle = PB_INIT, whole = PB_INIT;
	struct out o;
	struct gx_psched *s;
	size_t cut;
	const struct gfxstat_perfetto_sched_summary *sum;

	/* a bundle without a CPU is skipped, as trace_processor does */
	s = new_dec(&o);
	compact_bundle(&whole, 0);
	memcpy(bundle.b, whole.b + 2, whole.n - 2); /* drop "cpu = 1" */
	bundle.n = whole.n - 2;
	CHECK(gx_psched_bundle(s, bundle.b, bundle.n) == 0);
	CHECK_EQ(gx_psched_summary(s)->malformed, 1);
	CHECK_EQ(gx_psched_summary(s)->compact_switch, 0);
	/* a CPU out of range */
	bundle.n = 0;
	pb_u(&bundle, 1, 5000);
	CHECK(gx_psched_bundle(s, bundle.b, bundle.n) == 0);
	CHECK_EQ(gx_psched_summary(s)->bad_cpu, 1);
	gx_psched_free(s);

	/* every prefix of a bundle and of a counter packet: no crash, only what is whole */
	for (cut = 0; cut <= whole.n; cut++) {
		s = new_dec(&o);
		CHECK(gx_psched_bundle(s, whole.b, cut) == 0);
		CHECK(gx_psched_packet(s, 7, 1, whole.b, cut) == 0);
		CHECK(gx_psched_packet(s, 40, 1, whole.b, cut) == 0);
		CHECK(gx_psched_finish(s) == 0);
		sum = gx_psched_summary(s);
		CHECK(sum->sched[GFXSTAT_SCHED_SWITCH] <= 2);
		CHECK(o.order_ok);
		gx_psched_free(s);
	}
	/* a negative or huge timestamp, a timestamp that overflows the delta sum */
	s = new_dec(&o);
	{
		static const uint64_t big[] = { (uint64_t)INT64_MAX, 10 }, zero[] = { 0, 0 };
		struct pb cs = PB_INIT, p = PB_INIT;

		bundle.n = 0;
		pb_u(&bundle, 1, 0);
		pb_u(&p, 1, 1);
		pb_u(&p, 2, 0);
		ftrace_ev(&bundle, (uint64_t)INT64_MAX + 1, 0, 13, &p);
		pb_packed(&cs, 1, big, 2);
		pb_packed(&cs, 2, big, 2);
		pb_packed(&cs, 3, big, 2);
		pb_packed(&cs, 4, big, 2);
		pb_str(&cs, 5, "x");
		pb_packed(&cs, 6, zero, 2);
		pb_msg(&bundle, 4, &cs);
		CHECK(gx_psched_bundle(s, bundle.b, bundle.n) == 0);
		sum = gx_psched_summary(s);
		CHECK_EQ(sum->malformed, 1);
		CHECK_EQ(sum->compact_errors, 1);
	}
	gx_psched_free(s);
	gx_psched_free(NULL);
}

TEST(callback_stops)
{
	struct pb bundle = PB_INIT;
	struct out o;
	struct gx_psched *s = new_dec(&o);

	o.stop_after = 1;
	compact_bundle(&bundle, 0);
	CHECK(gx_psched_bundle(s, bundle.b, bundle.n) == 0); /* held: nothing out yet */
	CHECK(gx_psched_finish(s) == GFXSTAT_E_ABORTED);
	CHECK(gx_psched_bundle(s, bundle.b, bundle.n) == GFXSTAT_E_ABORTED); /* sticky */
	CHECK_EQ(o.calls, 1);
	gx_psched_free(s);
}

/*
 * The real sample, through the whole decoder (gfxstat_perfetto with a sched sink: markers and
 * scheduler events merged). Two thread-state trackers: A takes the events as decoded, B
 * takes each one written as ftrace text and read back by the text parser (the text path).
 * Every top-level atrace section of every thread is a span on both; their times must agree.
 */
#define XC_MAX_TID (1 << 22)

struct xcheck {
	struct gfxstat_thread_states *a, *b;
	uint8_t *depth;          /* per tid: open sections */
	uint64_t spans, mismatches, text_fail;
	struct gfxstat_thread_span hand; /* the doFrame of tid 7663 at 157480.436967764 */
	int have_hand;
};

static int xc_sched(void *user, const struct gfxstat_sched_event *ev)
{
	struct xcheck *x = user;
	struct gfxstat_ftrace_line line;
	struct gfxstat_sched_event back;
	char text[1024];
	size_t n = gfxstat_sched_event_format(ev, text, sizeof(text));

	gfxstat_thread_states_event(x->a, ev);
	if (n < sizeof(text) && gfxstat_ftrace_line_parse(text, n, &line) == GFXSTAT_PARSE_OK &&
	    gfxstat_sched_line_parse(&line, &back) == GFXSTAT_PARSE_OK)
		gfxstat_thread_states_event(x->b, &back);
	else
		x->text_fail++;
	return 0;
}

static int same_span(const struct gfxstat_thread_span *p, const struct gfxstat_thread_span *q)
{
	int i;

	for (i = 0; i < GFXSTAT_TS_COUNT; i++)
		if (p->state_ns[i] != q->state_ns[i])
			return 0;
	return p->cpus == q->cpus && p->max_freq_khz == q->max_freq_khz &&
	       p->mean_freq_khz == q->mean_freq_khz && p->waker_tid == q->waker_tid &&
	       p->longest_sleep_ns == q->longest_sleep_ns &&
	       p->longest_runnable_ns == q->longest_runnable_ns &&
	       p->instead_tid == q->instead_tid && p->binder_ns == q->binder_ns &&
	       p->nbinder == q->nbinder && p->longest_blocked_ns == q->longest_blocked_ns &&
	       !strcmp(p->waker_comm, q->waker_comm);
}

static int xc_marker(void *user, const struct gfxstat_ftrace_line *ev,
		     const struct gfxstat_marker *m)
{
	struct xcheck *x = user;
	struct gfxstat_thread_span sa, sb;
	int32_t tid = ev->pid;

	if (tid <= 0 || tid >= XC_MAX_TID)
		return 0;
	if (m->kind == GFXSTAT_MARKER_BEGIN) {
		if (x->depth[tid]++ == 0) {
			gfxstat_thread_states_span_begin(x->a, tid, ev->ts_ns, ev->cpu);
			gfxstat_thread_states_span_begin(x->b, tid, ev->ts_ns, ev->cpu);
		}
	} else if (m->kind == GFXSTAT_MARKER_END && x->depth[tid]) {
		if (--x->depth[tid] == 0) {
			int ka = gfxstat_thread_states_span_end(x->a, tid, ev->ts_ns, &sa);
			int kb = gfxstat_thread_states_span_end(x->b, tid, ev->ts_ns, &sb);

			x->spans++;
			if (ka != kb || (ka && !same_span(&sa, &sb)))
				x->mismatches++;
			if (ka && tid == 7663 && sa.start_ns == 157480436967764LL) {
				x->hand = sa;
				x->have_hand = 1;
			}
		}
	}
	return 0;
}

TEST(api32_thread_states)
{
	const char *dir = getenv("GFXSTAT_SAMPLES");
	struct gfxstat_perfetto_sink sink;
	struct gfxstat_perfetto *p;
	const struct gfxstat_perfetto_summary *sum;
	struct xcheck x;
	char path[1024];
	uint8_t *buf;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/perfetto/perfetto-testdata/api32_startup_warm.perfetto-trace",
		 dir ? dir : "../shared/samples");
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "  skip api32_thread_states: %s is absent\n", path);
		return;
	}
	buf = malloc(4 << 20);
	n = buf ? fread(buf, 1, 4 << 20, f) : 0;
	fclose(f);
	CHECK(n == 2037208);
	memset(&x, 0, sizeof(x));
	x.a = gfxstat_thread_states_new();
	x.b = gfxstat_thread_states_new();
	x.depth = calloc(XC_MAX_TID, 1);
	memset(&sink, 0, sizeof(sink));
	sink.sched = xc_sched;
	sink.marker = xc_marker;
	sink.user = &x;
	p = gfxstat_perfetto_new(&sink, NULL);
	CHECK(p && x.a && x.b && x.depth);
	if (!p || !x.a || !x.b || !x.depth || !buf)
		goto out;
	/* in odd chunks, as a stream comes */
	{
		size_t off = 0, k = 4093;

		while (off < n) {
			size_t c = n - off < k ? n - off : k;

			CHECK(gfxstat_perfetto_feed(p, buf + off, c) == 0);
			off += c;
			k = k * 7 % 65521 + 1;
		}
	}
	CHECK(gfxstat_perfetto_finish(p) == 0);
	sum = gfxstat_perfetto_summary(p);
	/* the events (the independent walker of tests/suites/51-perfetto-sched.sh agrees) */
	CHECK_EQ(sum->sched.sched[GFXSTAT_SCHED_SWITCH], 11078);
	CHECK_EQ(sum->sched.sched[GFXSTAT_SCHED_WAKING], 6849);
	CHECK_EQ(sum->sched.compact_switch, 11086);
	CHECK_EQ(sum->sched.compact_skipped, 16);
	CHECK_EQ(sum->sched.late, 0);
	CHECK_EQ(sum->sched.prints, 13061);
	CHECK_EQ(sum->markers, 13061);
	/* text and Perfetto give the same thread states, span for span */
	CHECK_EQ(x.text_fail, 0);
	CHECK(x.spans > 1000); /* 1344 */
	CHECK_EQ(x.mismatches, 0);
	fprintf(stderr, "  api32: %llu spans compared\n", (unsigned long long)x.spans);
	/*
	 * One span by hand, from `gfxstat perfetto-dump --sched --markers`: tid 7663's
	 * Choreographer#doFrame 191274 runs from 157480.436967764 (B on CPU 5) to .439576203
	 * (its E, on CPU 2). It was switched in on CPU 5 at .436859487 (before the span), out
	 * with S at .438819977 (postAndWait), woken by RenderThread 7684 at .439281485, switched
	 * in on CPU 2 at .439519644. Running: .438819977 - .436967764 = 1852213, plus
	 * .439576203 - .439519644 = 56559, 1908772 ns; sleeping .439281485 - .438819977 =
	 * 461508 ns; runnable .439519644 - .439281485 = 238159 ns; 2608439 ns in all.
	 */
	CHECK(x.have_hand);
	CHECK_EQ(x.hand.end_ns - x.hand.start_ns, 2608439);
	CHECK_EQ(x.hand.state_ns[GFXSTAT_TS_RUNNING], 1908772);
	CHECK_EQ(x.hand.state_ns[GFXSTAT_TS_SLEEPING], 461508);
	CHECK_EQ(x.hand.state_ns[GFXSTAT_TS_RUNNABLE], 238159);
	CHECK_EQ(x.hand.state_ns[GFXSTAT_TS_UNINTERRUPTIBLE], 0);
	CHECK_EQ(x.hand.cpus, (1u << 5) | (1u << 2));
	CHECK_EQ(x.hand.waker_tid, 7684);
	CHECK_CSTR(x.hand.waker_comm, "RenderThread");
	CHECK_EQ(x.hand.longest_sleep_ns, 461508);
	CHECK_EQ(x.hand.longest_runnable_ns, 238159);
out:
	gfxstat_perfetto_free(p);
	gfxstat_thread_states_free(x.a);
	gfxstat_thread_states_free(x.b);
	free(x.depth);
	free(buf);
}

TEST_SUITE(test_perfetto_sched)
{
	RUN(prev_state_by_kernel);
	RUN(every_event);
	RUN(text_round_trip);
	RUN(compact_sched);
	RUN(compact_errors);
	RUN(merge_over_cpus);
	RUN(merge_ties_and_limits);
	RUN(ftrace_clock);
	RUN(counter_packets);
	RUN(damaged_input);
	RUN(callback_stops);
	RUN(api32_thread_states);
}
