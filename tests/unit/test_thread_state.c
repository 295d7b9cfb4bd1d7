/* SPDX-License-Identifier: MIT */
/*
 * Unit tests: scheduler events of ftrace text (sched_line.c), thread states over a span
 * (thread_state.c) and the cause class of a late frame (jank_class.c). Every expected time
 * is derived by hand in the comment beside its sequence.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_cause.h"
#include "gfxstat/gfxstat_perfetto.h"
#include "gfxstat/gfxstat_sched.h"

#define MS 1000000LL

static enum gfxstat_parse_res parse(const char *s, struct gfxstat_ftrace_line *ln,
				    struct gfxstat_sched_event *ev)
{
	memset(ln, 0, sizeof(*ln));
	if (gfxstat_ftrace_line_parse(s, strlen(s), ln) != GFXSTAT_PARSE_OK)
		return GFXSTAT_PARSE_FAIL;
	return gfxstat_sched_line_parse(ln, ev);
}

TEST(switch_states_and_names)
{
	struct gfxstat_ftrace_line ln;
	struct gfxstat_sched_event ev;

	CHECK_EQ(parse(" .tencent.matrix-24874 [006] d..2 1229151.706157: sched_switch: "
		       "prev_comm=.tencent.matrix prev_pid=24874 prev_prio=110 prev_state=S ==> "
		       "next_comm=swapper/6 next_pid=0 next_prio=120", &ln, &ev), GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.kind, GFXSTAT_SCHED_SWITCH);
	CHECK_EQ(ev.ts_ns, 1229151706157000LL);
	CHECK_EQ(ev.cpu, 6);
	CHECK_EQ(ev.tid, 24874);
	CHECK_STR(ev.sw.prev_comm, ".tencent.matrix");
	CHECK_EQ(ev.sw.prev_pid, 24874);
	CHECK_EQ(ev.sw.prev_prio, 110);
	CHECK_EQ(ev.sw.prev_state, GFXSTAT_TASK_INTERRUPTIBLE);
	CHECK_STR(ev.sw.next_comm, "swapper/6");
	CHECK_EQ(ev.sw.next_pid, 0);
	CHECK_EQ(ev.sw.next_prio, 120);
	/* a name with spaces, preempted ("R+"), 7-wide kernel header */
	CHECK_EQ(parse("Jit thread pool-24881 (  24874) [005] d..2. 12.000001: sched_switch: "
		       "prev_comm=Jit thread pool prev_pid=24881 prev_prio=129 prev_state=R+ ==> "
		       "next_comm=Binder:25421_4 next_pid=25608 next_prio=110", &ln, &ev),
		 GFXSTAT_PARSE_OK);
	CHECK_STR(ev.sw.prev_comm, "Jit thread pool");
	CHECK_EQ(ev.tgid, 24874);
	CHECK_EQ(ev.sw.prev_state, GFXSTAT_TASK_PREEMPTED);
	CHECK_STR(ev.sw.next_comm, "Binder:25421_4");
	/* "D|K" (4.4-era killable), "R" (runnable, no bit), "x" (dead), "I" (idle), a '?' */
	CHECK_EQ(gfxstat_task_state_parse((struct gfxstat_str){ "D|K", 3 }),
		 GFXSTAT_TASK_UNINTERRUPTIBLE | GFXSTAT_TASK_WAKEKILL);
	CHECK_EQ(gfxstat_task_state_parse((struct gfxstat_str){ "R", 1 }), GFXSTAT_TASK_RUNNABLE);
	CHECK_EQ(gfxstat_task_state_parse((struct gfxstat_str){ "x", 1 }), GFXSTAT_TASK_DEAD);
	CHECK_EQ(gfxstat_task_state_parse((struct gfxstat_str){ "I", 1 }), GFXSTAT_TASK_IDLE);
	CHECK_EQ(gfxstat_task_state_parse((struct gfxstat_str){ "S?", 2 }), GFXSTAT_TASK_UNKNOWN);
	/* every length of a number, read 8 bytes at a time or digit by digit (8 digits and
	 * more, or near the end of the line) */
	CHECK_EQ(parse("a-1 [000] .... 1.000000: sched_switch: prev_comm=a prev_pid=4194303 "
		       "prev_prio=1 prev_state=S ==> next_comm=b next_pid=12345678 next_prio=99",
		       &ln, &ev), GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.sw.prev_pid, 4194303);
	CHECK_EQ(ev.sw.prev_prio, 1);
	CHECK_EQ(ev.sw.next_pid, 12345678);
	CHECK_EQ(ev.sw.next_prio, 99);
	CHECK_EQ(parse("a-1 [000] .... 1.000000: sched_switch: prev_comm=a prev_pid=2147483647 "
		       "prev_prio=-1 prev_state=S ==> next_comm=b next_pid=7 next_prio=120",
		       &ln, &ev), GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.sw.prev_pid, 2147483647);
	CHECK_EQ(ev.sw.prev_prio, -1);
	CHECK_EQ(parse("a-1 [000] .... 1.000000: sched_switch: prev_comm=a prev_pid=2147483648 "
		       "prev_prio=1 prev_state=S ==> next_comm=b next_pid=7 next_prio=120",
		       &ln, &ev), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(parse("a-1 [000] .... 1.000000: sched_switch: prev_comm=a prev_pid=12x45 "
		       "prev_prio=1 prev_state=S ==> next_comm=b next_pid=7 next_prio=120",
		       &ln, &ev), GFXSTAT_PARSE_FAIL);
	/* keys out of the kernel's order: the general parser reads them */
	CHECK_EQ(parse("a-1 [000] .... 1.000000: sched_switch: next_pid=7 prev_pid=5 "
		       "prev_state=D ==> next_comm=b", &ln, &ev), GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.sw.prev_pid, 5);
	CHECK_EQ(ev.sw.next_pid, 7);
	CHECK_EQ(ev.sw.prev_state, GFXSTAT_TASK_UNINTERRUPTIBLE);
	CHECK_STR(ev.sw.next_comm, "b");
	/* a required field missing, or not a number: malformed */
	CHECK_EQ(parse("a-1 [000] .... 1.000000: sched_switch: prev_comm=a prev_state=S ==> "
		       "next_comm=b next_pid=7", &ln, &ev), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(parse("a-1 [000] .... 1.000000: sched_switch: prev_pid=x next_pid=7", &ln, &ev),
		 GFXSTAT_PARSE_FAIL);
	/* not a scheduler event */
	CHECK_EQ(parse("a-1 [000] .... 1.000000: irq_handler_entry: irq=5 name=x", &ln, &ev),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(parse("a-1 [000] .... 1.000000: sched_migrate_task: comm=a pid=1", &ln, &ev),
		 GFXSTAT_PARSE_UNSUPPORTED);
}

TEST(wake_blocked_freq_binder_task)
{
	struct gfxstat_ftrace_line ln;
	struct gfxstat_sched_event ev;

	/* in a hard irq ('h' third): the interrupt woke it, not <idle> */
	CHECK_EQ(parse("          <idle>-0     [006] d.h2 1229151.731976: sched_waking: "
		       "comm=.tencent.matrix pid=24874 prio=110 target_cpu=006", &ln, &ev),
		 GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.kind, GFXSTAT_SCHED_WAKING);
	CHECK_EQ(ev.tid, 0);
	CHECK_EQ(ev.irq, GFXSTAT_SCHED_IRQ_HARD);
	CHECK_STR(ev.wake.comm, ".tencent.matrix");
	CHECK_EQ(ev.wake.pid, 24874);
	CHECK_EQ(ev.wake.prio, 110);
	CHECK_EQ(ev.wake.target_cpu, 6);
	/* 3.x: "success=1" before target_cpu; no irq column at all */
	CHECK_EQ(parse("b-9 [001] 5.000000: sched_wakeup: comm=a b pid=12 prio=120 success=1 "
		       "target_cpu=002", &ln, &ev), GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.kind, GFXSTAT_SCHED_WAKEUP);
	CHECK_STR(ev.wake.comm, "a b");
	CHECK_EQ(ev.wake.target_cpu, 2);
	CHECK_EQ(ev.irq, 0u);
	CHECK_EQ(parse("b-9 [001] ..s1 5.000000: sched_wakeup_new: comm=a pid=12 prio=120 "
		       "target_cpu=002", &ln, &ev), GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.kind, GFXSTAT_SCHED_WAKEUP_NEW);
	CHECK_EQ(ev.irq, GFXSTAT_SCHED_IRQ_SOFT);
	CHECK_EQ(parse("           <...>-24987 [000] d..3 1229150.408828: sched_blocked_reason: "
		       "pid=24826 iowait=0 caller=worker_thread+0x368/0x458", &ln, &ev),
		 GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.kind, GFXSTAT_SCHED_BLOCKED_REASON);
	CHECK_STR(ev.comm, "<...>");
	CHECK_EQ(ev.blocked.pid, 24826);
	CHECK_EQ(ev.blocked.io_wait, 0);
	CHECK_STR(ev.blocked.caller, "worker_thread+0x368/0x458");
	CHECK_EQ(parse("<idle>-0 [000] d.Ha 1229150.413736: cpu_frequency: state=1555200 cpu_id=1",
		       &ln, &ev), GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.kind, GFXSTAT_SCHED_CPU_FREQUENCY);
	CHECK_EQ(ev.freq.state, 1555200u);
	CHECK_EQ(ev.freq.cpu_id, 1);
	CHECK_EQ(parse("k-410 [000] .... 1.5: cpu_frequency_limits: min=1555200 max=1785600 "
		       "cpu_id=0", &ln, &ev), GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.limits.min_khz, 1555200u);
	CHECK_EQ(ev.limits.max_khz, 1785600u);
	CHECK_EQ(parse("<idle>-0 [003] .n.1 1.5: cpu_idle: state=4294967295 cpu_id=3", &ln, &ev),
		 GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.kind, GFXSTAT_SCHED_CPU_IDLE);
	CHECK_EQ(ev.freq.state, GFXSTAT_CPU_IDLE_EXIT);
	CHECK_EQ(parse(" .tencent.matrix-24874 [000] .... 1229150.418756: binder_transaction: "
		       "transaction=36328365 dest_node=36314182 dest_proc=25421 dest_thread=0 "
		       "reply=0 flags=0x11 code=0x3", &ln, &ev), GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.kind, GFXSTAT_SCHED_BINDER_TRANSACTION);
	CHECK_EQ(ev.binder.transaction, 36328365);
	CHECK_EQ(ev.binder.dest_node, 36314182);
	CHECK_EQ(ev.binder.dest_proc, 25421);
	CHECK_EQ(ev.binder.dest_thread, 0);
	CHECK_EQ(ev.binder.reply, 0);
	CHECK_EQ(ev.binder.flags, 0x11u);
	CHECK_EQ(ev.binder.code, 3u);
	CHECK_EQ(parse("B-25608 [002] .... 1.5: binder_transaction_received: transaction=36328365",
		       &ln, &ev), GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.kind, GFXSTAT_SCHED_BINDER_RECEIVED);
	CHECK_EQ(ev.binder.transaction, 36328365);
	CHECK_EQ(parse("a-5 [002] .... 1.5: task_rename: pid=5 oldcomm=Thread-2 newcomm=Render "
		       "Thread oom_score_adj=0", &ln, &ev), GFXSTAT_PARSE_OK);
	CHECK_STR(ev.rename.oldcomm, "Thread-2");
	CHECK_STR(ev.rename.newcomm, "Render Thread");
	CHECK_EQ(parse("a-5 [002] .... 1.5: task_newtask: pid=77 comm=a clone_flags=3d0f00 "
		       "oom_score_adj=-1000", &ln, &ev), GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.newtask.pid, 77);
	CHECK_EQ(ev.newtask.clone_flags, 0x3d0f00u);
	CHECK_EQ(ev.newtask.oom_score_adj, -1000);
	CHECK_EQ(gfxstat_sched_kind_of((struct gfxstat_str){ "sched_switchx", 13 }),
		 GFXSTAT_SCHED_NONE);
}

/* Feed ftrace text lines (one a string) to a tracker; lines that are no scheduler event are
 * skipped. */
static void feed(struct gfxstat_thread_states *t, const char *const *lines)
{
	struct gfxstat_ftrace_line ln;
	struct gfxstat_sched_event ev;

	for (; *lines; lines++)
		if (parse(*lines, &ln, &ev) == GFXSTAT_PARSE_OK)
			CHECK_EQ(gfxstat_thread_states_event(t, &ev), 0);
		else
			CHECK(0 && "a test line did not parse");
}

/*
 * One span of tid 100 (cpu 0), 1.000 to 1.022 s, through every state:
 *   1.000000 span begins, running (switched in at 0.999)
 *   1.002000 switched out S        running    1.000 -> 1.002   2.0 ms
 *   1.010000 waking by 200         sleeping   1.002 -> 1.010   8.0 ms (woken by RenderThread)
 *   1.010500 switched in           runnable   1.010 -> 1.0105  0.5 ms
 *   1.013000 out R+, 300 in        running    1.0105 -> 1.013  2.5 ms
 *   1.015000 300 out, 100 in       preempted  1.013 -> 1.015   2.0 ms (kworker ran instead)
 *   1.016000 out D                 running    1.015 -> 1.016   1.0 ms
 *   1.020000 waking in a hard irq  uninterr.  1.016 -> 1.020   4.0 ms
 *   1.020010 blocked_reason filemap_fault, iowait=1: names that D
 *   1.020500 switched in           runnable   1.020 -> 1.0205  0.5 ms
 *   1.022000 span ends             running    1.0205 -> 1.022  1.5 ms
 * running 2.0 + 2.5 + 1.0 + 1.5 = 7.0; runnable 0.5 + 0.5 = 1.0; preempted 2.0; sleeping 8.0;
 * uninterruptible 4.0: 22.0 ms, the span. The sched_wakeup lines are ignored (sched_waking
 * said it). Frequencies: cpus 0-1 one domain (changed together), cpu 2 another at 3.0 GHz;
 * cpu 0 at 1.0 GHz, then 2.0 GHz from 1.0125: running 4.0 ms at 1.0 and 3.0 ms at 2.0, a
 * mean of (4 x 1.0 + 3 x 2.0) / 7 = 1.428571 GHz, max 2.0; cpu 0's domain (top 2.0) is the
 * slower of two: a little core. Its policy max drops to 1.5 GHz at 1.014, under its top 2.0:
 * capped while it ran after that.
 */
static const char *const span_lines[] = {
	"<idle>-0 [000] d..1 0.500000: cpu_frequency: state=1000000 cpu_id=0",
	"<idle>-0 [000] d..1 0.500001: cpu_frequency: state=1000000 cpu_id=1",
	"<idle>-0 [000] d..1 0.500002: cpu_frequency: state=3000000 cpu_id=2",
	"<idle>-0 [000] d..2 0.999000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 "
	"prev_state=R ==> next_comm=main next_pid=100 next_prio=110",
	NULL,
};

static const char *const span_lines2[] = {
	"main-100 [000] d..2 1.002000: sched_switch: prev_comm=main prev_pid=100 prev_prio=110 "
	"prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120",
	"RenderThread-200 [001] d..3 1.010000: sched_waking: comm=main pid=100 prio=110 "
	"target_cpu=000",
	"RenderThread-200 [001] d..3 1.010001: sched_wakeup: comm=main pid=100 prio=110 "
	"target_cpu=000",
	"<idle>-0 [000] d..2 1.010500: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 "
	"prev_state=R ==> next_comm=main next_pid=100 next_prio=110",
	"<idle>-0 [000] d..1 1.012500: cpu_frequency: state=2000000 cpu_id=0",
	"<idle>-0 [000] d..1 1.012501: cpu_frequency: state=2000000 cpu_id=1",
	"main-100 [000] d..2 1.013000: sched_switch: prev_comm=main prev_pid=100 prev_prio=110 "
	"prev_state=R+ ==> next_comm=kworker/0:1 next_pid=300 next_prio=120",
	"k-410 [001] .... 1.014000: cpu_frequency_limits: min=300000 max=1500000 cpu_id=0",
	"kworker/0:1-300 [000] d..2 1.015000: sched_switch: prev_comm=kworker/0:1 prev_pid=300 "
	"prev_prio=120 prev_state=S ==> next_comm=main next_pid=100 next_prio=110",
	"main-100 [000] d..2 1.016000: sched_switch: prev_comm=main prev_pid=100 prev_prio=110 "
	"prev_state=D ==> next_comm=swapper/0 next_pid=0 next_prio=120",
	"<idle>-0 [000] d.h2 1.020000: sched_waking: comm=main pid=100 prio=110 target_cpu=000",
	"<idle>-0 [000] d.h3 1.020010: sched_blocked_reason: pid=100 iowait=1 "
	"caller=filemap_fault+0x1c/0x2a0",
	"<idle>-0 [000] d..2 1.020500: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 "
	"prev_state=R ==> next_comm=main next_pid=100 next_prio=110",
	NULL,
};

TEST(states_over_a_span)
{
	struct gfxstat_thread_states *t = gfxstat_thread_states_new();
	struct gfxstat_thread_span s;
	int64_t sum = 0;
	int k;

	CHECK(t != NULL);
	if (!t)
		return;
	feed(t, span_lines);
	CHECK(gfxstat_thread_states_have_sched(t));
	CHECK_EQ(gfxstat_thread_states_span_begin(t, 100, 1000 * MS, 0), 0);
	feed(t, span_lines2);
	CHECK_EQ(gfxstat_thread_states_span_end(t, 100, 1022 * MS, &s), 1);
	CHECK_EQ(s.state_ns[GFXSTAT_TS_RUNNING], 7 * MS);
	CHECK_EQ(s.state_ns[GFXSTAT_TS_RUNNABLE], 1 * MS);
	CHECK_EQ(s.state_ns[GFXSTAT_TS_RUNNABLE_PREEMPTED], 2 * MS);
	CHECK_EQ(s.state_ns[GFXSTAT_TS_SLEEPING], 8 * MS);
	CHECK_EQ(s.state_ns[GFXSTAT_TS_UNINTERRUPTIBLE], 4 * MS);
	CHECK_EQ(s.state_ns[GFXSTAT_TS_UNKNOWN], 0);
	for (k = 0; k < GFXSTAT_TS_COUNT; k++)
		sum += s.state_ns[k];
	CHECK_EQ(sum, 22 * MS);
	CHECK_EQ(s.cpus, 1);
	CHECK_EQ(s.max_freq_khz, 2000000);
	CHECK_EQ(s.mean_freq_khz, 1428571);
	CHECK_EQ(s.cluster_max_khz, 2000000);
	CHECK_EQ(s.system_max_khz, 3000000);
	CHECK_EQ(s.little, 1);
	CHECK_EQ(s.capped, 1);
	CHECK_EQ(s.longest_sleep_ns, 8 * MS);
	CHECK_EQ(s.waker_tid, 200);
	CHECK_CSTR(s.waker_comm, "RenderThread");
	CHECK_EQ(s.waker_irq, 0u);
	CHECK_EQ(s.longest_blocked_ns, 4 * MS);
	CHECK_CSTR(s.blocked_fn, "filemap_fault+0x1c/0x2a0");
	CHECK_EQ(s.io_wait, 1);
	CHECK_EQ(s.longest_runnable_ns, 2 * MS);
	CHECK_EQ(s.instead_tid, 300);
	CHECK_CSTR(s.instead_comm, "kworker/0:1");
	/* ended: a second end finds no span */
	CHECK_EQ(gfxstat_thread_states_span_end(t, 100, 1023 * MS, &s), 0);
	gfxstat_thread_states_free(t);
}

/*
 * A synchronous binder call inside a span (tid 100, 2.000 to 2.010 s), and a one-way one:
 *   2.001   100 sends 500 to process 1000 (any thread)        running 2.000 -> 2.0011 1.1 ms
 *   2.0011  100 switched out S                                sleeping 2.0011 -> 2.0061 5.0 ms
 *   2.002   Binder:1000_1 (1001) receives 500: the server thread
 *   2.006   1001 replies (501) to thread 100
 *   2.0061  1001 wakes 100                                     runnable 2.0061 -> 2.0062 0.1 ms
 *   2.0062  100 switched in                                    running 2.0062 -> 2.010 3.8 ms
 *   2.0063  100 receives the reply 501: the call took 2.001 -> 2.0063 = 5.3 ms
 *   2.008   100 sends 502 one-way: nothing waits
 * running 4.9, runnable 0.1, sleeping 5.0 = 10.0 ms. Process 1000 is named by its main
 * thread (system_server, switched in once before).
 */
static const char *const binder_lines[] = {
	"<idle>-0 [003] d..2 1.500000: sched_switch: prev_comm=swapper/3 prev_pid=0 prev_prio=120 "
	"prev_state=R ==> next_comm=system_server next_pid=1000 next_prio=120",
	"<idle>-0 [000] d..2 1.999000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 "
	"prev_state=R ==> next_comm=main next_pid=100 next_prio=110",
	NULL,
};

static const char *const binder_lines2[] = {
	"main-100 [000] .... 2.001000: binder_transaction: transaction=500 dest_node=1 "
	"dest_proc=1000 dest_thread=0 reply=0 flags=0x10 code=0x5",
	"main-100 [000] d..2 2.001100: sched_switch: prev_comm=main prev_pid=100 prev_prio=110 "
	"prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120",
	"Binder:1000_1-1001 [001] .... 2.002000: binder_transaction_received: transaction=500",
	"Binder:1000_1-1001 [001] .... 2.006000: binder_transaction: transaction=501 dest_node=0 "
	"dest_proc=50 dest_thread=100 reply=1 flags=0x0 code=0x0",
	"Binder:1000_1-1001 [001] d..3 2.006100: sched_waking: comm=main pid=100 prio=110 "
	"target_cpu=000",
	"<idle>-0 [000] d..2 2.006200: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 "
	"prev_state=R ==> next_comm=main next_pid=100 next_prio=110",
	"main-100 [000] .... 2.006300: binder_transaction_received: transaction=501",
	"main-100 [000] .... 2.008000: binder_transaction: transaction=502 dest_node=1 "
	"dest_proc=1000 dest_thread=0 reply=0 flags=0x11 code=0x5",
	NULL,
};

TEST(binder_wait)
{
	struct gfxstat_thread_states *t = gfxstat_thread_states_new();
	struct gfxstat_thread_span s;

	CHECK(t != NULL);
	if (!t)
		return;
	feed(t, binder_lines);
	CHECK_EQ(gfxstat_thread_states_span_begin(t, 100, 2000 * MS, 0), 0);
	feed(t, binder_lines2);
	CHECK_EQ(gfxstat_thread_states_span_end(t, 100, 2010 * MS, &s), 1);
	CHECK_EQ(s.state_ns[GFXSTAT_TS_RUNNING], 4900000);
	CHECK_EQ(s.state_ns[GFXSTAT_TS_RUNNABLE], 100000);
	CHECK_EQ(s.state_ns[GFXSTAT_TS_SLEEPING], 5 * MS);
	CHECK_EQ(s.nbinder, 1u);
	CHECK_EQ(s.binder[0].dest_pid, 1000);
	CHECK_EQ(s.binder[0].dest_tid, 1001);
	CHECK_CSTR(s.binder[0].dest_comm, "system_server");
	CHECK_CSTR(s.binder[0].dest_thread_comm, "Binder:1000_1");
	CHECK_EQ(s.binder[0].start_ns, 2001 * MS);
	CHECK_EQ(s.binder[0].dur_ns, 5300000);
	CHECK_EQ(s.binder[0].replied, 1);
	CHECK_EQ(s.binder_ns, 5300000);
	CHECK_EQ(s.waker_tid, 1001);
	gfxstat_thread_states_free(t);
}

/*
 * Without scheduler events the span is all unknown; a call still waiting at the span's end
 * is cut there, not replied.
 */
TEST(unknown_and_cut)
{
	struct gfxstat_thread_states *t = gfxstat_thread_states_new();
	struct gfxstat_thread_span s;
	static const char *const call[] = {
		"main-100 [000] .... 3.001000: binder_transaction: transaction=9 dest_node=1 "
		"dest_proc=1000 dest_thread=0 reply=0 flags=0x0 code=0x5",
		NULL,
	};

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK_EQ(gfxstat_thread_states_span_begin(t, 100, 3000 * MS, 0), 0);
	feed(t, call);
	CHECK_EQ(gfxstat_thread_states_span_end(t, 100, 3004 * MS, &s), 1);
	CHECK(!gfxstat_thread_states_have_sched(t));
	CHECK_EQ(s.state_ns[GFXSTAT_TS_UNKNOWN], 4 * MS);
	CHECK_EQ(s.state_ns[GFXSTAT_TS_RUNNING], 0);
	CHECK_EQ(s.nbinder, 1u);
	CHECK_EQ(s.binder[0].dur_ns, 3 * MS);
	CHECK_EQ(s.binder[0].replied, 0);
	gfxstat_thread_states_free(t);
}

/* ---------------------------------------------------------------------------------------- */
/* The cause class: markers to the section tracker, scheduler events to the thread states    */

struct rig {
	struct gfxstat_causes *c;
	struct gfxstat_thread_states *t;
};

static void rig_feed(struct rig *r, const char *const *lines)
{
	struct gfxstat_ftrace_line ln;
	struct gfxstat_sched_event ev;
	struct gfxstat_marker m;

	for (; *lines; lines++) {
		memset(&ln, 0, sizeof(ln));
		CHECK_EQ(gfxstat_ftrace_line_parse(*lines, strlen(*lines), &ln), GFXSTAT_PARSE_OK);
		if (gfxstat_sched_line_parse(&ln, &ev) == GFXSTAT_PARSE_OK)
			gfxstat_thread_states_event(r->t, &ev);
		else if (gfxstat_atrace_marker_parse(ln.payload.p, ln.payload.n, &m) ==
			 GFXSTAT_PARSE_OK)
			gfxstat_causes_marker(r->c, &ln, &m);
	}
}

/* The cause of a 60 Hz frame of process 100 whose work began at @start_ms. */
static void why(struct rig *r, int64_t start_ms, struct gfxstat_cause *out)
{
	struct gfxstat_frame f;

	gfxstat_frame_init(&f, GFXSTAT_SRC_FTRACE);
	f.layer.p = "app#0";
	f.layer.n = 5;
	f.pid = 100;
	f.vsync_period_ns = 16666667;
	f.actual_start_ns = start_ms * MS;
	f.latch_ns = (start_ms + 40) * MS;
	f.present_ns = (start_ms + 50) * MS;
	f.interval_ns = 33333333;
	gfxstat_causes_why(r->c, &f, GFXSTAT_NS_NONE, out);
}

/*
 * doFrame 10.000 -> 10.030 (30 ms, over half the 16.7 ms budget) with "input" inside
 * (10.0001 -> 10.029) on the main thread 100 (cpu 4; cpus 4-5 at 2.4 GHz, 0-3 at 1.8):
 *   10.000   running (switched in at 9.999)       running  10.000 -> 10.002    2.0 ms
 *   10.0015  binder call 70 to process 1000 (system_server, by its main thread's name)
 *   10.002   switched out S                       sleeping 10.002 -> 10.02795 25.95 ms
 *   10.0021  Binder:1000_2 (1002) receives 70; 10.0279 it replies (71) to thread 100
 *   10.02795 1002 wakes 100                       runnable 10.02795 -> 10.028 0.05 ms
 *   10.028   switched in, receives the reply      running  10.028 -> 10.030    2.0 ms
 * running 4.0 + sleeping 25.95 + runnable 0.05 = 30 ms; the call took 10.0015 -> 10.028 =
 * 26.5 ms, over half the sleep: sleeping, on binder to system_server.
 */
static const char *const cause_binder[] = {
	"<idle>-0 [000] d..1 9.000000: cpu_frequency: state=1800000 cpu_id=0",
	"<idle>-0 [000] d..1 9.000001: cpu_frequency: state=1800000 cpu_id=1",
	"<idle>-0 [000] d..1 9.000002: cpu_frequency: state=1800000 cpu_id=2",
	"<idle>-0 [000] d..1 9.000003: cpu_frequency: state=1800000 cpu_id=3",
	"<idle>-0 [004] d..1 9.100000: cpu_frequency: state=2400000 cpu_id=4",
	"<idle>-0 [004] d..1 9.100001: cpu_frequency: state=2400000 cpu_id=5",
	"<idle>-0 [003] d..2 9.500000: sched_switch: prev_comm=swapper/3 prev_pid=0 prev_prio=120 "
	"prev_state=R ==> next_comm=system_server next_pid=1000 next_prio=120",
	"<idle>-0 [004] d..2 9.999000: sched_switch: prev_comm=swapper/4 prev_pid=0 prev_prio=120 "
	"prev_state=R ==> next_comm=app next_pid=100 next_prio=110",
	"app-100 [004] .... 10.000000: tracing_mark_write: B|100|Choreographer#doFrame",
	"app-100 [004] .... 10.000100: tracing_mark_write: B|100|input",
	"app-100 [004] .... 10.001500: binder_transaction: transaction=70 dest_node=1 "
	"dest_proc=1000 dest_thread=0 reply=0 flags=0x10 code=0x5",
	"app-100 [004] d..2 10.002000: sched_switch: prev_comm=app prev_pid=100 prev_prio=110 "
	"prev_state=S ==> next_comm=swapper/4 next_pid=0 next_prio=120",
	"Binder:1000_2-1002 [001] .... 10.002100: binder_transaction_received: transaction=70",
	"Binder:1000_2-1002 [001] .... 10.027900: binder_transaction: transaction=71 "
	"dest_node=0 dest_proc=100 dest_thread=100 reply=1 flags=0x0 code=0x0",
	"Binder:1000_2-1002 [001] d..3 10.027950: sched_waking: comm=app pid=100 prio=110 "
	"target_cpu=004",
	"<idle>-0 [004] d..2 10.028000: sched_switch: prev_comm=swapper/4 prev_pid=0 "
	"prev_prio=120 prev_state=R ==> next_comm=app next_pid=100 next_prio=110",
	"app-100 [004] .... 10.028000: binder_transaction_received: transaction=71",
	"app-100 [004] .... 10.029000: tracing_mark_write: E|100",
	"app-100 [004] .... 10.030000: tracing_mark_write: E|100",
	NULL,
};

TEST(cause_sleeping_on_binder)
{
	struct rig r = { gfxstat_causes_new(), gfxstat_thread_states_new() };
	struct gfxstat_cause c;

	CHECK(r.c && r.t);
	if (!r.c || !r.t)
		goto out;
	gfxstat_causes_set_thread_states(r.c, r.t);
	rig_feed(&r, cause_binder);
	why(&r, 10000, &c);
	CHECK_EQ(c.cls, GFXSTAT_CAUSE_SLEEPING);
	CHECK_CSTR(gfxstat_cause_class_name(c.cls), "sleeping");
	CHECK_CSTR(c.signature, "sleeping|main|input|binder:system_server");
	CHECK_CSTR(c.summary, "main thread sleeping on binder to system_server in input handling");
	CHECK(c.main.known && c.main.have_states && !c.render.known);
	CHECK_EQ(c.main.span.tid, 100);
	CHECK_EQ(c.main.span.state_ns[GFXSTAT_TS_SLEEPING], 25950000);
	CHECK_EQ(c.main.span.state_ns[GFXSTAT_TS_RUNNABLE], 50000);
	CHECK_EQ(c.main.span.state_ns[GFXSTAT_TS_RUNNING], 4 * MS);
	CHECK_EQ(c.main.span.binder[0].dur_ns, 26500000);
	CHECK(strstr(c.text, "on binder; longest call 26.5 ms to system_server (pid 1000, thread "
			     "Binder:1000_2)") != NULL);
out:
	gfxstat_causes_free(r.c);
	gfxstat_thread_states_free(r.t);
}

/*
 * The same doFrame, its thread running all 30 ms: at 2.4 GHz, the top of the fastest domain,
 * it is busy; at 1.0 GHz (under half of 2.4) the same work is a slow CPU.
 */
static const char *const cause_busy[] = {
	"<idle>-0 [000] d..1 9.000000: cpu_frequency: state=1800000 cpu_id=0",
	"<idle>-0 [004] d..1 9.100000: cpu_frequency: state=2400000 cpu_id=4",
	"<idle>-0 [004] d..2 9.999000: sched_switch: prev_comm=swapper/4 prev_pid=0 prev_prio=120 "
	"prev_state=R ==> next_comm=app next_pid=100 next_prio=110",
	"app-100 [004] .... 10.000000: tracing_mark_write: B|100|Choreographer#doFrame",
	"app-100 [004] .... 10.000100: tracing_mark_write: B|100|traversal",
	"app-100 [004] .... 10.029000: tracing_mark_write: E|100",
	"app-100 [004] .... 10.030000: tracing_mark_write: E|100",
	NULL,
};

static const char *const cause_slow[] = {
	"<idle>-0 [004] d..1 10.500000: cpu_frequency: state=1000000 cpu_id=4",
	"app-100 [004] .... 11.000000: tracing_mark_write: B|100|Choreographer#doFrame",
	"app-100 [004] .... 11.000100: tracing_mark_write: B|100|traversal",
	"app-100 [004] .... 11.029000: tracing_mark_write: E|100",
	"app-100 [004] .... 11.030000: tracing_mark_write: E|100",
	NULL,
};

TEST(cause_busy_and_slow_cpu)
{
	struct rig r = { gfxstat_causes_new(), gfxstat_thread_states_new() };
	struct gfxstat_cause c;

	CHECK(r.c && r.t);
	if (!r.c || !r.t)
		goto out;
	gfxstat_causes_set_thread_states(r.c, r.t);
	rig_feed(&r, cause_busy);
	why(&r, 10000, &c);
	CHECK_EQ(c.cls, GFXSTAT_CAUSE_BUSY);
	CHECK_EQ(c.main.span.state_ns[GFXSTAT_TS_RUNNING], 30 * MS);
	CHECK_CSTR(c.summary, "main thread busy running code in traversal (measure, layout, draw)");
	rig_feed(&r, cause_slow);
	why(&r, 11000, &c);
	CHECK_EQ(c.cls, GFXSTAT_CAUSE_SLOW_CPU);
	CHECK_EQ(c.main.span.mean_freq_khz, 1000000);
	CHECK_EQ(c.main.span.system_max_khz, 2400000);
out:
	gfxstat_causes_free(r.c);
	gfxstat_thread_states_free(r.t);
}

/*
 * Starved: woken at 20.001 to cpu 4, where kworker (300) runs until 20.025: runnable 24 of
 * the doFrame's 30 ms. Blocked: uninterruptible 20 of 30 ms in filemap_fault.
 */
static const char *const cause_starved[] = {
	"<idle>-0 [004] d..2 19.999000: sched_switch: prev_comm=swapper/4 prev_pid=0 "
	"prev_prio=120 prev_state=R ==> next_comm=app next_pid=100 next_prio=110",
	"app-100 [004] .... 20.000000: tracing_mark_write: B|100|Choreographer#doFrame",
	"app-100 [004] d..2 20.000500: sched_switch: prev_comm=app prev_pid=100 prev_prio=110 "
	"prev_state=S ==> next_comm=kworker/4:1 next_pid=300 next_prio=100",
	"k-301 [001] d..3 20.001000: sched_waking: comm=app pid=100 prio=110 target_cpu=004",
	"kworker/4:1-300 [004] d..2 20.025000: sched_switch: prev_comm=kworker/4:1 prev_pid=300 "
	"prev_prio=100 prev_state=S ==> next_comm=app next_pid=100 next_prio=110",
	"app-100 [004] .... 20.030000: tracing_mark_write: E|100",
	NULL,
};

static const char *const cause_blocked[] = {
	"app-100 [004] .... 30.000000: tracing_mark_write: B|100|Choreographer#doFrame",
	"app-100 [004] .... 30.000100: tracing_mark_write: B|100|inflate",
	"app-100 [004] d..2 30.005000: sched_switch: prev_comm=app prev_pid=100 prev_prio=110 "
	"prev_state=D ==> next_comm=swapper/4 next_pid=0 next_prio=120",
	"<idle>-0 [004] d.h3 30.025000: sched_waking: comm=app pid=100 prio=110 target_cpu=004",
	"<idle>-0 [004] d.h3 30.025001: sched_blocked_reason: pid=100 iowait=1 "
	"caller=filemap_fault+0x1c/0x2a0",
	"<idle>-0 [004] d..2 30.025100: sched_switch: prev_comm=swapper/4 prev_pid=0 "
	"prev_prio=120 prev_state=R ==> next_comm=app next_pid=100 next_prio=110",
	"app-100 [004] .... 30.029000: tracing_mark_write: E|100",
	"app-100 [004] .... 30.030000: tracing_mark_write: E|100",
	NULL,
};

TEST(cause_starved_and_blocked)
{
	struct rig r = { gfxstat_causes_new(), gfxstat_thread_states_new() };
	struct gfxstat_cause c;

	CHECK(r.c && r.t);
	if (!r.c || !r.t)
		goto out;
	gfxstat_causes_set_thread_states(r.c, r.t);
	rig_feed(&r, cause_starved);
	why(&r, 20000, &c);
	CHECK_EQ(c.cls, GFXSTAT_CAUSE_CPU_STARVED);
	CHECK_EQ(c.main.span.state_ns[GFXSTAT_TS_RUNNABLE], 24 * MS);
	CHECK_EQ(c.main.span.instead_tid, 300);
	CHECK(strstr(c.text, "kworker/4:1 (tid 300) ran instead") != NULL);
	rig_feed(&r, cause_blocked);
	why(&r, 30000, &c);
	CHECK_EQ(c.cls, GFXSTAT_CAUSE_BLOCKED_IO);
	CHECK_EQ(c.main.span.state_ns[GFXSTAT_TS_UNINTERRUPTIBLE], 20 * MS);
	CHECK_CSTR(c.signature, "blocked_io|main|inflate|filemap_fault");
	CHECK(strstr(c.text, "in filemap_fault (waiting for IO)") != NULL);
out:
	gfxstat_causes_free(r.c);
	gfxstat_thread_states_free(r.t);
}

/*
 * Without scheduler events: today's text, word for word, class app_work; a GC wait inside is
 * gc whatever the thread states.
 */
static const char *const cause_plain[] = {
	"app-100 [004] .... 40.000000: tracing_mark_write: B|100|Choreographer#doFrame",
	"app-100 [004] .... 40.000100: tracing_mark_write: B|100|input",
	"app-100 [004] .... 40.027100: tracing_mark_write: E|100",
	"app-100 [004] .... 40.030000: tracing_mark_write: E|100",
	"app-100 [004] .... 50.000000: tracing_mark_write: B|100|Choreographer#doFrame",
	"app-100 [004] .... 50.000100: tracing_mark_write: B|100|animation",
	"app-100 [004] .... 50.000200: tracing_mark_write: B|100|WaitForGcToComplete",
	"app-100 [004] .... 50.025000: tracing_mark_write: E|100",
	"app-100 [004] .... 50.027000: tracing_mark_write: E|100",
	"app-100 [004] .... 50.030000: tracing_mark_write: E|100",
	NULL,
};

TEST(cause_without_sched)
{
	struct rig r = { gfxstat_causes_new(), gfxstat_thread_states_new() };
	struct gfxstat_cause c;
	char buf[512];
	struct gfxstat_frame f;

	CHECK(r.c && r.t);
	if (!r.c || !r.t)
		goto out;
	gfxstat_causes_set_thread_states(r.c, r.t);
	rig_feed(&r, cause_plain);
	why(&r, 40000, &c);
	CHECK_EQ(c.cls, GFXSTAT_CAUSE_APP_WORK);
	CHECK(c.no_sched);
	CHECK_CSTR(c.text, "main thread: Choreographer#doFrame 30.0 ms (longest inside: input "
			   "27.0 ms)");
	CHECK_EQ(c.main.span.state_ns[GFXSTAT_TS_UNKNOWN], 30 * MS);
	why(&r, 50000, &c);
	CHECK_EQ(c.cls, GFXSTAT_CAUSE_GC);
	CHECK_CSTR(c.signature, "gc|main|animation > WaitForGcToComplete|");
	/* the one-line text is gfxstat_causes_explain()'s */
	gfxstat_frame_init(&f, GFXSTAT_SRC_FTRACE_DISPLAY);
	f.janky = 1;
	gfxstat_causes_explain(r.c, &f, GFXSTAT_NS_NONE, buf, sizeof(buf));
	CHECK_CSTR(buf, "SurfaceFlinger: missed the refresh (FrameMissed counter)");
	gfxstat_causes_why(r.c, &f, GFXSTAT_NS_NONE, &c);
	CHECK_EQ(c.cls, GFXSTAT_CAUSE_SURFACEFLINGER);
out:
	gfxstat_causes_free(r.c);
	gfxstat_thread_states_free(r.t);
}

/*
 * A layer whose producer SurfaceFlinger's markers do not name (pid -1: no queueBuffer caller,
 * and its main thread's marker lines say "<...>") is explained from the one process the
 * recording names after its app (review finding 1; before: "unknown (this layer's app
 * process is not identified)").
 *   com.example.app (15 characters: its main thread's whole name): only sched_switch names
 *   thread 200 so (next_comm); its doFrame 10.000 -> 10.030 ran all 30 ms (switched in at
 *   9.999, no frequency events): busy, tid 200, running 30 ms.
 *   com.example.longpackage: a main thread carries the last 15 characters,
 *   "ple.longpackage" (c-o-m-.-e-x-a-m is the first 8 of 23): thread 210, doFrame 11.000 ->
 *   11.030, running all of it: busy, tid 210.
 */
static const char *const cause_named[] = {
	"<idle>-0 [004] d..2 9.999000: sched_switch: prev_comm=swapper/4 prev_pid=0 prev_prio=120 "
	"prev_state=R ==> next_comm=com.example.app next_pid=200 next_prio=110",
	"<...>-200 (  200) [004] .... 10.000000: tracing_mark_write: B|200|Choreographer#doFrame",
	"<...>-200 (  200) [004] .... 10.000100: tracing_mark_write: B|200|traversal",
	"<...>-200 (  200) [004] .... 10.029000: tracing_mark_write: E|200",
	"<...>-200 (  200) [004] .... 10.030000: tracing_mark_write: E|200",
	"<idle>-0 [005] d..2 10.999000: sched_switch: prev_comm=swapper/5 prev_pid=0 "
	"prev_prio=120 prev_state=R ==> next_comm=ple.longpackage next_pid=210 next_prio=110",
	"<...>-210 (  210) [005] .... 11.000000: tracing_mark_write: B|210|Choreographer#doFrame",
	"<...>-210 (  210) [005] .... 11.030000: tracing_mark_write: E|210",
	NULL,
};

/* The cause of a 60 Hz frame of layer "@app/@app.Main#0" that SurfaceFlinger latched at
 * @latch_ms, its producer not named (pid -1), its work not found before (no actual start). */
static void why_app(struct gfxstat_causes *c, const char *app, int64_t latch_ms,
		    struct gfxstat_cause *out)
{
	char layer[128];
	struct gfxstat_frame f;

	snprintf(layer, sizeof(layer), "%s/%s.Main#0", app, app);
	gfxstat_frame_init(&f, GFXSTAT_SRC_FTRACE);
	f.layer.p = layer;
	f.layer.n = strlen(layer);
	f.app.p = app;
	f.app.n = strlen(app);
	f.vsync_period_ns = 16666667;
	f.latch_ns = latch_ms * MS;
	f.present_ns = (latch_ms + 10) * MS;
	f.interval_ns = 33333333;
	gfxstat_causes_why(c, &f, GFXSTAT_NS_NONE, out);
}

/*
 * Without scheduler events: by PROCESS DUMP (gfxstat_causes_task(): a process, tid 0) or by
 * the task name of its main thread's marker lines; the sections alone. A name two processes
 * carry names neither, and a SurfaceView is not explained by the window's doFrame.
 *   pid 300 "com.other.app" (PROCESS DUMP), doFrame 20.000 -> 20.030, traversal inside
 *   20.0001 -> 20.029 (28.9 ms); pid 400 "com.third.app", named by its marker lines.
 */
static const char *const cause_dumped[] = {
	"<...>-300 (  300) [004] .... 20.000000: tracing_mark_write: B|300|Choreographer#doFrame",
	"<...>-300 (  300) [004] .... 20.000100: tracing_mark_write: B|300|traversal",
	"<...>-300 (  300) [004] .... 20.029000: tracing_mark_write: E|300",
	"<...>-300 (  300) [004] .... 20.030000: tracing_mark_write: E|300",
	"com.third.app-400 (  400) [004] .... 30.000000: tracing_mark_write: "
	"B|400|Choreographer#doFrame",
	"com.third.app-400 (  400) [004] .... 30.030000: tracing_mark_write: E|400",
	NULL,
};

TEST(cause_by_process_name)
{
	struct rig r = { gfxstat_causes_new(), gfxstat_thread_states_new() };
	struct gfxstat_causes *c1 = r.c, *c2 = gfxstat_causes_new();
	struct gfxstat_cause c;
	const char *name = "com.other.app";

	CHECK(r.c && r.t && c2);
	if (!r.c || !r.t || !c2)
		goto out;
	gfxstat_causes_set_thread_states(r.c, r.t);
	rig_feed(&r, cause_named);
	why_app(r.c, "com.example.app", 10040, &c);
	CHECK_EQ(c.cls, GFXSTAT_CAUSE_BUSY);
	CHECK_EQ(c.main.span.tid, 200);
	CHECK_EQ(c.main.span.state_ns[GFXSTAT_TS_RUNNING], 30 * MS);
	why_app(r.c, "com.example.longpackage", 11040, &c);
	CHECK_EQ(c.cls, GFXSTAT_CAUSE_BUSY);
	CHECK_EQ(c.main.span.tid, 210);
	/* no process named after it */
	why_app(r.c, "com.absent.app", 11040, &c);
	CHECK_CSTR(c.text, "unknown (this layer's app process is not identified)");

	r.c = c2; /* the rest without thread states */
	CHECK_EQ(gfxstat_causes_task(c2, 300, 0, (struct gfxstat_str){ name, strlen(name) }), 0);
	rig_feed(&r, cause_dumped);
	why_app(c2, "com.other.app", 20040, &c);
	CHECK_EQ(c.cls, GFXSTAT_CAUSE_APP_WORK);
	CHECK_CSTR(c.text, "main thread: Choreographer#doFrame 30.0 ms (longest inside: traversal "
			   "28.9 ms)");
	CHECK_EQ(c.main.span.tid, 300);
	why_app(c2, "com.third.app", 30040, &c);
	CHECK_CSTR(c.text, "main thread: Choreographer#doFrame 30.0 ms");
	/* a SurfaceView of the process: drawn by a thread of its own */
	{
		struct gfxstat_frame f;
		const char *sv = "SurfaceView - com.other.app/com.other.app.Main#0";

		gfxstat_frame_init(&f, GFXSTAT_SRC_FTRACE);
		f.layer.p = sv;
		f.layer.n = strlen(sv);
		f.app.p = name;
		f.app.n = strlen(name);
		f.latch_ns = 20040 * MS;
		f.present_ns = 20050 * MS;
		gfxstat_causes_why(c2, &f, GFXSTAT_NS_NONE, &c);
		CHECK(strncmp(c.text, "unknown (a SurfaceView", 22) == 0);
	}
	/* a second process of that name (a restart): neither is the app's */
	CHECK_EQ(gfxstat_causes_task(c2, 301, 0, (struct gfxstat_str){ name, strlen(name) }), 0);
	why_app(c2, "com.other.app", 20040, &c);
	CHECK_CSTR(c.text, "unknown (this layer's app process is not identified)");
out:
	gfxstat_causes_free(c1);
	gfxstat_causes_free(c2);
	gfxstat_thread_states_free(r.t);
}

/* Feed one marker or scheduler line, printf-like. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void rig_line(struct rig *r, const char *fmt, ...)
{
	char line[256];
	const char *lines[2] = { line, NULL };
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	rig_feed(r, lines);
}

/* A FrameTimeline surface frame of process 500 (60 Hz): token @token, its actual slice from
 * @start_us to @end_us (microseconds), expected from @start_us for one period. */
static void why_ft(struct rig *r, int32_t jank, int64_t token, int64_t start_us, int64_t end_us,
		   struct gfxstat_cause *out)
{
	struct gfxstat_frame f;

	gfxstat_frame_init(&f, GFXSTAT_SRC_FRAMETIMELINE);
	f.layer.p = "com.ft.app/com.ft.app.Main#0";
	f.layer.n = strlen(f.layer.p);
	f.pid = 500;
	f.token = token;
	f.jank_type = jank;
	f.janky = 1;
	f.vsync_period_ns = 16666667;
	f.expected_start_ns = start_us * 1000;
	f.expected_end_ns = start_us * 1000 + 16666667;
	f.actual_start_ns = start_us * 1000;
	f.actual_end_ns = end_us * 1000;
	f.present_ns = end_us * 1000 + 10 * MS;
	gfxstat_causes_why(r->c, &f, GFXSTAT_NS_NONE, out);
}

/*
 * FrameTimeline frames that Android blames on the app are explained from the app's work for
 * them, with thread states (review finding 2; before: "FrameTimeline: App Deadline Missed",
 * class app_work, no threads). Process 500, main thread 500 on cpu 4 (switched in at
 * 59.999, never out), RenderThread 501 on cpu 5 (switched in at 60.000):
 *   token 7001: "Choreographer#doFrame 7001" 60.000 -> 60.025 (25 ms, traversal inside),
 *               "DrawFrames 7001" 60.020 -> 60.023: the doFrame is the longer, running all
 *               25 ms: busy, Android's verdict at the front of the text.
 *   then 70 frames of 2 ms (tokens 8000-8069, doFrames at 61.000 + 10 ms k): past the 64
 *   frames of work a process keeps, so token 7001 is found only among the kept works.
 *   token 7002: doFrame 62.200 -> 62.202, DrawFrames 62.202 -> 62.205 (both short); the
 *               frame's buffer was ready at 62.230, 25 ms after the DrawFrames: gpu.
 *   a doFrame naming no vsync id, 63.000 -> 63.030: frame token 9999 starting 63.0005 is
 *               matched by time (within half a period of its start): busy.
 *   SurfaceFlinger CPU Deadline Missed: SurfaceFlinger's, whatever the app did.
 */
TEST(cause_frametimeline)
{
	struct rig r = { gfxstat_causes_new(), gfxstat_thread_states_new() };
	struct gfxstat_cause c;
	int k;

	CHECK(r.c && r.t);
	if (!r.c || !r.t)
		goto out;
	gfxstat_causes_set_thread_states(r.c, r.t);
	gfxstat_causes_keep_work(r.c, 1);
	rig_line(&r, "<idle>-0 [004] d..2 59.999000: sched_switch: prev_comm=swapper/4 prev_pid=0 "
		 "prev_prio=120 prev_state=R ==> next_comm=com.ft.app next_pid=500 next_prio=110");
	rig_line(&r, "<idle>-0 [005] d..2 60.000000: sched_switch: prev_comm=swapper/5 prev_pid=0 "
		 "prev_prio=120 prev_state=R ==> next_comm=RenderThread next_pid=501 next_prio=110");
	rig_line(&r, "app-500 (  500) [004] .... 60.000000: tracing_mark_write: "
		 "B|500|Choreographer#doFrame %d", 7001);
	rig_line(&r, "app-500 (  500) [004] .... 60.000100: tracing_mark_write: B|500|traversal");
	rig_line(&r, "RenderThread-501 (  500) [005] .... 60.020000: tracing_mark_write: "
		 "B|500|DrawFrames %d", 7001);
	rig_line(&r, "RenderThread-501 (  500) [005] .... 60.023000: tracing_mark_write: E|500");
	rig_line(&r, "app-500 (  500) [004] .... 60.024000: tracing_mark_write: E|500");
	rig_line(&r, "app-500 (  500) [004] .... 60.025000: tracing_mark_write: E|500");
	for (k = 0; k < 70; k++) {
		rig_line(&r, "app-500 (  500) [004] .... 61.%06d: tracing_mark_write: "
			 "B|500|Choreographer#doFrame %d", 10000 * k, 8000 + k);
		rig_line(&r, "app-500 (  500) [004] .... 61.%06d: tracing_mark_write: E|500",
			 10000 * k + 2000);
	}
	why_ft(&r, GFXSTAT_JANK_APP_DEADLINE_MISSED, 7001, 60000000, 60030000, &c);
	CHECK_EQ(c.cls, GFXSTAT_CAUSE_BUSY);
	CHECK(strncmp(c.text, "FrameTimeline: App Deadline Missed; busy: main thread: "
			      "Choreographer#doFrame 7001 25.0 ms (longest inside: traversal", 95) == 0);
	CHECK(c.main.known && c.main.have_states && c.render.known);
	CHECK_EQ(c.main.span.tid, 500);
	CHECK_EQ(c.main.span.state_ns[GFXSTAT_TS_RUNNING], 25 * MS);
	CHECK_CSTR(c.render.section, "DrawFrames 7001");
	CHECK_EQ(c.render.span.tid, 501);
	CHECK_CSTR(c.signature, "busy|main|traversal|");
	/* short work, the buffer ready 25 ms after the DrawFrames ended */
	rig_line(&r, "app-500 (  500) [004] .... 62.200000: tracing_mark_write: "
		 "B|500|Choreographer#doFrame %d", 7002);
	rig_line(&r, "app-500 (  500) [004] .... 62.202000: tracing_mark_write: E|500");
	rig_line(&r, "RenderThread-501 (  500) [005] .... 62.202000: tracing_mark_write: "
		 "B|500|DrawFrames %d", 7002);
	rig_line(&r, "RenderThread-501 (  500) [005] .... 62.205000: tracing_mark_write: E|500");
	why_ft(&r, GFXSTAT_JANK_APP_DEADLINE_MISSED, 7002, 62200000, 62230000, &c);
	CHECK_EQ(c.cls, GFXSTAT_CAUSE_GPU);
	CHECK_CSTR(c.text, "FrameTimeline: App Deadline Missed; gpu: the app's work was within "
			   "budget (DrawFrames 7002 3.0 ms), and its buffer was ready 25.0 ms after "
			   "its DrawFrames 7002 ended (the GPU finished it late)");
	/* no vsync id in the section: by time */
	rig_line(&r, "app-500 (  500) [004] .... 63.000000: tracing_mark_write: "
		 "B|500|Choreographer#doFrame");
	rig_line(&r, "app-500 (  500) [004] .... 63.030000: tracing_mark_write: E|500");
	why_ft(&r, GFXSTAT_JANK_APP_DEADLINE_MISSED, 9999, 63000500, 63031000, &c);
	CHECK_EQ(c.cls, GFXSTAT_CAUSE_BUSY);
	CHECK_EQ(c.main.span.start_ns, 63000 * MS);
	/* SurfaceFlinger's deadline: said so, not the app's work */
	why_ft(&r, GFXSTAT_JANK_SF_CPU_DEADLINE_MISSED, 7001, 60000000, 60030000, &c);
	CHECK_EQ(c.cls, GFXSTAT_CAUSE_SURFACEFLINGER);
	CHECK_CSTR(c.text, "FrameTimeline: SurfaceFlinger CPU Deadline Missed");
out:
	gfxstat_causes_free(r.c);
	gfxstat_thread_states_free(r.t);
}

/*
 * gfxinfo's legacy profile table (review finding 4; before: "unknown (no FrameInfo
 * phases)"): the stage over half the 16.7 ms budget names the cause, Execute (the swap) as
 * the GPU's; frames of one stage share one signature whatever their times.
 */
TEST(cause_gfxinfo_legacy)
{
	struct gfxstat_frame f;
	struct gfxstat_cause c, d;

	gfxstat_frame_init(&f, GFXSTAT_SRC_GFXINFO);
	f.layer.p = "com.a/com.a.Main/android.view.ViewRootImpl@1";
	f.layer.n = strlen(f.layer.p);
	f.janky = 1;
	f.duration_ns = 55270000;
	f.legacy_ns[GFXSTAT_LEGACY_DRAW] = 50 * MS;
	f.legacy_ns[GFXSTAT_LEGACY_PREPARE] = 310000;
	f.legacy_ns[GFXSTAT_LEGACY_PROCESS] = 4260000;
	f.legacy_ns[GFXSTAT_LEGACY_EXECUTE] = 700000;
	gfxstat_causes_why(NULL, &f, GFXSTAT_NS_NONE, &c);
	CHECK_EQ(c.cls, GFXSTAT_CAUSE_APP_WORK);
	CHECK_CSTR(c.text, "Draw 50.0 ms (over half the 16.7 ms budget): the UI thread (input, "
			   "animation, measure/layout, recording the display list)");
	CHECK_CSTR(c.summary, "UI thread (Draw) over half the budget");
	f.legacy_ns[GFXSTAT_LEGACY_DRAW] = 45050000;
	gfxstat_causes_why(NULL, &f, GFXSTAT_NS_NONE, &d);
	CHECK_CSTR(d.signature, c.signature);
	/* 4.1-4.4: no Prepare; Execute 12 ms of a 20 ms frame: the swap, the GPU's */
	f.legacy_ns[GFXSTAT_LEGACY_DRAW] = 5 * MS;
	f.legacy_ns[GFXSTAT_LEGACY_PREPARE] = GFXSTAT_NS_NONE;
	f.legacy_ns[GFXSTAT_LEGACY_PROCESS] = 3 * MS;
	f.legacy_ns[GFXSTAT_LEGACY_EXECUTE] = 12 * MS;
	gfxstat_causes_why(NULL, &f, GFXSTAT_NS_NONE, &c);
	CHECK_EQ(c.cls, GFXSTAT_CAUSE_GPU);
	CHECK(strncmp(c.text, "Execute 12.0 ms (over half", 26) == 0);
	/* 7 + 6 + 5 ms: none over half the budget */
	f.legacy_ns[GFXSTAT_LEGACY_DRAW] = 7 * MS;
	f.legacy_ns[GFXSTAT_LEGACY_PROCESS] = 6 * MS;
	f.legacy_ns[GFXSTAT_LEGACY_EXECUTE] = 5 * MS;
	gfxstat_causes_why(NULL, &f, GFXSTAT_NS_NONE, &c);
	CHECK_EQ(c.cls, GFXSTAT_CAUSE_UNKNOWN);
	CHECK_CSTR(c.text, "none (no phase over half the budget; longest: Draw 7.0 ms)");
}

/* Clusters: ranked by jank time, then frames; frames add up. */
TEST(clusters)
{
	struct gfxstat_cause_clusters *cc = gfxstat_cause_clusters_new();
	const struct gfxstat_cause_cluster *c;
	size_t n;

	CHECK(cc != NULL);
	if (!cc)
		return;
	CHECK_EQ(gfxstat_cause_clusters_add(cc, GFXSTAT_CAUSE_BUSY, "busy|main|a|", "a", 5 * MS), 0);
	CHECK_EQ(gfxstat_cause_clusters_add(cc, GFXSTAT_CAUSE_SLEEPING, "s|main|b|", "b", 20 * MS),
		 0);
	CHECK_EQ(gfxstat_cause_clusters_add(cc, GFXSTAT_CAUSE_BUSY, "busy|main|a|", "a", 6 * MS), 0);
	n = gfxstat_cause_clusters_get(cc, &c);
	CHECK_EQ(n, 2);
	CHECK_CSTR(c[0].signature, "s|main|b|");
	CHECK_EQ(c[1].frames, 2);
	CHECK_EQ(c[1].jank_ns, 11 * MS);
	/* adding after get() still finds the cluster */
	CHECK_EQ(gfxstat_cause_clusters_add(cc, GFXSTAT_CAUSE_BUSY, "busy|main|a|", "a", 10 * MS),
		 0);
	n = gfxstat_cause_clusters_get(cc, &c);
	CHECK_EQ(n, 2);
	CHECK_CSTR(c[0].signature, "busy|main|a|");
	CHECK_EQ(c[0].frames, 3);
	CHECK_EQ(gfxstat_cause_clusters_frames(cc), 4);
	gfxstat_cause_clusters_free(cc);
}

TEST_SUITE(thread_state_suite)
{
	RUN(switch_states_and_names);
	RUN(wake_blocked_freq_binder_task);
	RUN(states_over_a_span);
	RUN(binder_wait);
	RUN(unknown_and_cut);
	RUN(cause_sleeping_on_binder);
	RUN(cause_busy_and_slow_cpu);
	RUN(cause_starved_and_blocked);
	RUN(cause_without_sched);
	RUN(cause_by_process_name);
	RUN(cause_frametimeline);
	RUN(cause_gfxinfo_legacy);
	RUN(clusters);
}
