/* SPDX-License-Identifier: MIT */
/*
 * The names of scheduler event and counter kinds, and a scheduler event back as a line of
 * ftrace text, as the kernel prints it (the TP_printk
 * formats of include/trace/events/sched.h, power.h, task.h, drivers/android/binder_trace.h),
 * so that events decoded from a binary trace can be read by eye, and read again by
 * gfxstat_sched_line_parse() to the same event (timestamps keep their nanoseconds).
 */
#include <stdio.h>

#include "../gx_local.h"
#include "gfxstat/gfxstat_sysctx.h"

static const char *const sched_names[GFXSTAT_SCHED_KIND_COUNT] = {
	[GFXSTAT_SCHED_NONE] = "?",
	[GFXSTAT_SCHED_SWITCH] = "sched_switch",
	[GFXSTAT_SCHED_WAKING] = "sched_waking",
	[GFXSTAT_SCHED_WAKEUP] = "sched_wakeup",
	[GFXSTAT_SCHED_WAKEUP_NEW] = "sched_wakeup_new",
	[GFXSTAT_SCHED_BLOCKED_REASON] = "sched_blocked_reason",
	[GFXSTAT_SCHED_CPU_FREQUENCY] = "cpu_frequency",
	[GFXSTAT_SCHED_CPU_FREQUENCY_LIMITS] = "cpu_frequency_limits",
	[GFXSTAT_SCHED_CPU_IDLE] = "cpu_idle",
	[GFXSTAT_SCHED_BINDER_TRANSACTION] = "binder_transaction",
	[GFXSTAT_SCHED_BINDER_RECEIVED] = "binder_transaction_received",
	[GFXSTAT_SCHED_BINDER_REPLY] = "binder_reply",
	[GFXSTAT_SCHED_TASK_RENAME] = "task_rename",
	[GFXSTAT_SCHED_TASK_NEWTASK] = "task_newtask",
};

const char *gfxstat_sysctx_sched_name(enum gfxstat_sched_kind k)
{
	return (unsigned)k < GFXSTAT_SCHED_KIND_COUNT && sched_names[k] ? sched_names[k] : "?";
}

static const struct {
	const char *name, *unit;
} counter_names[GFXSTAT_COUNTER_KIND_COUNT] = {
	[GFXSTAT_COUNTER_NONE] = { "?", "" },
	[GFXSTAT_COUNTER_GPU_FREQ] = { "gpu_freq", "kHz" },
	[GFXSTAT_COUNTER_CPU_FREQ_SAMPLE] = { "cpu_freq_sample", "kHz" },
	[GFXSTAT_COUNTER_CPU_BUSY_TIME] = { "cpu_busy_time", "ns" },
	[GFXSTAT_COUNTER_CPU_IDLE_TIME] = { "cpu_idle_time", "ns" },
	[GFXSTAT_COUNTER_THERMAL] = { "thermal", "mC" },
	[GFXSTAT_COUNTER_BATTERY_CHARGE] = { "battery_charge", "uAh" },
	[GFXSTAT_COUNTER_BATTERY_CAPACITY] = { "battery_capacity", "m%" },
	[GFXSTAT_COUNTER_BATTERY_CURRENT] = { "battery_current", "uA" },
	[GFXSTAT_COUNTER_BATTERY_CURRENT_AVG] = { "battery_current_avg", "uA" },
	[GFXSTAT_COUNTER_RAIL_ENERGY] = { "rail_energy", "uWs" },
	[GFXSTAT_COUNTER_MEM_AVAILABLE] = { "mem_available", "kB" },
	[GFXSTAT_COUNTER_PROCESS_RSS] = { "process_rss", "kB" },
};

const char *gfxstat_counter_kind_name(enum gfxstat_counter_kind k)
{
	return (unsigned)k < GFXSTAT_COUNTER_KIND_COUNT ? counter_names[k].name : "?";
}

const char *gfxstat_counter_kind_unit(enum gfxstat_counter_kind k)
{
	return (unsigned)k < GFXSTAT_COUNTER_KIND_COUNT ? counter_names[k].unit : "";
}

static void put_u64(struct gx_out *o, uint64_t v, int hex)
{
	char b[32];

	snprintf(b, sizeof(b), hex ? "%llx" : "%llu", (unsigned long long)v);
	gx_out_puts(o, b);
}

static void put_str(struct gx_out *o, struct gfxstat_str s)
{
	gx_out_put(o, s.p ? s.p : "", s.p ? s.n : 0);
}

static void kv_i(struct gx_out *o, const char *k, int64_t v)
{
	gx_out_puts(o, k);
	gx_out_i64(o, v);
}

static void kv_s(struct gx_out *o, const char *k, struct gfxstat_str v)
{
	gx_out_puts(o, k);
	put_str(o, v);
}

/* prev_state as sched_switch prints it: "R", "R+", "S", "D|K", ... ("?" unknown) */
static void put_state(struct gx_out *o, uint32_t st)
{
	static const struct {
		uint32_t bit;
		char c;
	} letters[] = {
		{ GFXSTAT_TASK_INTERRUPTIBLE, 'S' }, { GFXSTAT_TASK_UNINTERRUPTIBLE, 'D' },
		{ GFXSTAT_TASK_STOPPED, 'T' },       { GFXSTAT_TASK_TRACED, 't' },
		{ GFXSTAT_TASK_EXIT_DEAD, 'X' },     { GFXSTAT_TASK_EXIT_ZOMBIE, 'Z' },
		{ GFXSTAT_TASK_PARKED, 'P' },        { GFXSTAT_TASK_DEAD, 'x' },
		{ GFXSTAT_TASK_WAKEKILL, 'K' },      { GFXSTAT_TASK_WAKING, 'W' },
		{ GFXSTAT_TASK_NOLOAD, 'N' },        { GFXSTAT_TASK_IDLE, 'I' },
	};
	size_t i;
	int any = 0;

	if (st & GFXSTAT_TASK_UNKNOWN) {
		gx_out_puts(o, "?");
		return;
	}
	for (i = 0; i < sizeof(letters) / sizeof(letters[0]); i++) {
		if (!(st & letters[i].bit))
			continue;
		if (any)
			gx_out_puts(o, "|");
		gx_out_put(o, &letters[i].c, 1);
		any = 1;
	}
	if (!any)
		gx_out_puts(o, "R");
	if (st & GFXSTAT_TASK_PREEMPTED)
		gx_out_puts(o, "+");
}

size_t gfxstat_sched_event_format(const struct gfxstat_sched_event *ev, char *buf, size_t cap)
{
	struct gx_out o = { buf, cap, 0 };
	char head[96];
	int64_t t = ev->ts_ns < 0 ? 0 : ev->ts_ns;
	char irq = ev->irq == (GFXSTAT_SCHED_IRQ_HARD | GFXSTAT_SCHED_IRQ_SOFT) ? 'H'
		   : ev->irq & GFXSTAT_SCHED_IRQ_HARD				   ? 'h'
		   : ev->irq & GFXSTAT_SCHED_IRQ_SOFT				   ? 's'
										   : '.';

	put_str(&o, ev->comm.n ? ev->comm : (struct gfxstat_str){ "<...>", 5 });
	if (ev->tgid >= 0)
		snprintf(head, sizeof(head), "-%d (%5d) [%03d] ..%c. %lld.%09lld: ", (int)ev->tid,
			 (int)ev->tgid, (int)ev->cpu, irq, (long long)(t / GFXSTAT_NSEC_PER_SEC),
			 (long long)(t % GFXSTAT_NSEC_PER_SEC));
	else
		snprintf(head, sizeof(head), "-%d (-----) [%03d] ..%c. %lld.%09lld: ",
			 (int)ev->tid, (int)ev->cpu, irq, (long long)(t / GFXSTAT_NSEC_PER_SEC),
			 (long long)(t % GFXSTAT_NSEC_PER_SEC));
	gx_out_puts(&o, head);
	gx_out_puts(&o, gfxstat_sysctx_sched_name(ev->kind));
	gx_out_puts(&o, ": ");
	switch (ev->kind) {
	case GFXSTAT_SCHED_SWITCH:
		kv_s(&o, "prev_comm=", ev->sw.prev_comm);
		kv_i(&o, " prev_pid=", ev->sw.prev_pid);
		kv_i(&o, " prev_prio=", ev->sw.prev_prio);
		gx_out_puts(&o, " prev_state=");
		put_state(&o, ev->sw.prev_state);
		kv_s(&o, " ==> next_comm=", ev->sw.next_comm);
		kv_i(&o, " next_pid=", ev->sw.next_pid);
		kv_i(&o, " next_prio=", ev->sw.next_prio);
		break;
	case GFXSTAT_SCHED_WAKING:
	case GFXSTAT_SCHED_WAKEUP:
	case GFXSTAT_SCHED_WAKEUP_NEW: {
		char tc[16];

		kv_s(&o, "comm=", ev->wake.comm);
		kv_i(&o, " pid=", ev->wake.pid);
		kv_i(&o, " prio=", ev->wake.prio);
		snprintf(tc, sizeof(tc), " target_cpu=%03d", (int)ev->wake.target_cpu);
		gx_out_puts(&o, tc);
		break;
	}
	case GFXSTAT_SCHED_BLOCKED_REASON:
		kv_i(&o, "pid=", ev->blocked.pid);
		kv_i(&o, " iowait=", ev->blocked.io_wait);
		gx_out_puts(&o, " caller=");
		if (ev->blocked.caller.n) {
			put_str(&o, ev->blocked.caller);
		} else {
			gx_out_puts(&o, "0x");
			put_u64(&o, ev->blocked.caller_addr, 1);
		}
		break;
	case GFXSTAT_SCHED_CPU_FREQUENCY:
	case GFXSTAT_SCHED_CPU_IDLE:
		gx_out_puts(&o, "state=");
		put_u64(&o, ev->freq.state, 0);
		kv_i(&o, " cpu_id=", ev->freq.cpu_id);
		break;
	case GFXSTAT_SCHED_CPU_FREQUENCY_LIMITS:
		gx_out_puts(&o, "min=");
		put_u64(&o, ev->limits.min_khz, 0);
		gx_out_puts(&o, " max=");
		put_u64(&o, ev->limits.max_khz, 0);
		kv_i(&o, " cpu_id=", ev->limits.cpu_id);
		break;
	case GFXSTAT_SCHED_BINDER_TRANSACTION:
	case GFXSTAT_SCHED_BINDER_REPLY:
		kv_i(&o, "transaction=", ev->binder.transaction);
		kv_i(&o, " dest_node=", ev->binder.dest_node);
		kv_i(&o, " dest_proc=", ev->binder.dest_proc);
		kv_i(&o, " dest_thread=", ev->binder.dest_thread);
		kv_i(&o, " reply=", ev->binder.reply);
		gx_out_puts(&o, " flags=0x");
		put_u64(&o, ev->binder.flags, 1);
		gx_out_puts(&o, " code=0x");
		put_u64(&o, ev->binder.code, 1);
		break;
	case GFXSTAT_SCHED_BINDER_RECEIVED:
		kv_i(&o, "transaction=", ev->binder.transaction);
		break;
	case GFXSTAT_SCHED_TASK_RENAME:
		kv_i(&o, "pid=", ev->rename.pid);
		kv_s(&o, " oldcomm=", ev->rename.oldcomm);
		kv_s(&o, " newcomm=", ev->rename.newcomm);
		kv_i(&o, " oom_score_adj=", ev->rename.oom_score_adj);
		break;
	case GFXSTAT_SCHED_TASK_NEWTASK:
		kv_i(&o, "pid=", ev->newtask.pid);
		kv_s(&o, " comm=", ev->newtask.comm);
		gx_out_puts(&o, " clone_flags=");
		put_u64(&o, ev->newtask.clone_flags, 1);
		kv_i(&o, " oom_score_adj=", ev->newtask.oom_score_adj);
		break;
	default:
		break;
	}
	if (o.cap)
		o.p[o.len < o.cap ? o.len : o.cap - 1] = 0;
	return o.len;
}
