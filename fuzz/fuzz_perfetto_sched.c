/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: Perfetto scheduler events and counters (lib/input/perfetto_sched.c). The input
 * is a Perfetto trace: each TracePacket's ftrace_events bundle and counter fields (sys_stats,
 * process_stats, battery, power_rails, system_info) go to the decoder, as perfetto_pb.c hands
 * them over. It is decoded three times: twice with the default limits (the second with the
 * bundles decoded ahead on the decoder's thread, gx_psched_ahead()), once holding at most
 * three events behind a 1 us window, so that the forced and window paths run too; and through
 * the whole decoder twice, in chunks and in one feed decoded ahead.
 *
 * Checked: no crash or sanitizer report; the two default runs give the same callbacks (a
 * hash over every field and byte) and summary, and so do the two whole decoders; in every
 * run scheduler events come in time order, their strings are short and their prev_state is
 * known bits or UNKNOWN; what goes
 * into holding is the same whatever the limits (delivered + late is the same in all runs);
 * the events' text form reads back through the text parser as the same event kind, time,
 * CPU and thread; through the whole decoder, markers and events together come in time order
 * and every marker goes through the merge.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_perfetto.h"
#include "gfxstat/gfxstat_sched.h"
#include "gfxstat/gfxstat_sysctx.h"
#include "../lib/input/perfetto_sched_local.h"
#include "../lib/input/protobuf_local.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (!(cond))                                                               \
			__builtin_trap();                                                  \
	} while (0)

#define KNOWN_STATE_BITS 0x8fffu

static void mix(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *s = p;

	while (n--) {
		*h ^= *s++;
		*h *= 1099511628211ULL;
	}
}

struct run {
	uint64_t h;
	int64_t last_ts;
	uint64_t ftrace_counters; /* counters of ftrace events (held like scheduler events) */
};

static void mix_str(uint64_t *h, struct gfxstat_str s)
{
	CHECK(s.n <= 64);
	CHECK(s.n == 0 || s.p != NULL);
	mix(h, &s.n, sizeof(s.n));
	mix(h, s.p, s.n);
}

/* A task name the text form keeps unambiguous: letters, digits, "_-/.:<>" */
static int plain(struct gfxstat_str s)
{
	size_t i;

	for (i = 0; i < s.n; i++) {
		char c = s.p[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      strchr("_-/.:<>", c)))
			return 0;
	}
	return 1;
}

static int names_plain(const struct gfxstat_sched_event *ev)
{
	switch (ev->kind) {
	case GFXSTAT_SCHED_SWITCH:
		return plain(ev->sw.prev_comm) && plain(ev->sw.next_comm);
	case GFXSTAT_SCHED_WAKING:
	case GFXSTAT_SCHED_WAKEUP:
	case GFXSTAT_SCHED_WAKEUP_NEW:
		return plain(ev->wake.comm);
	case GFXSTAT_SCHED_TASK_RENAME:
		return plain(ev->rename.oldcomm) && plain(ev->rename.newcomm);
	case GFXSTAT_SCHED_TASK_NEWTASK:
		return plain(ev->newtask.comm);
	default:
		return 1;
	}
}

static int on_sched(void *user, const struct gfxstat_sched_event *ev)
{
	struct run *r = user;
	struct gfxstat_ftrace_line line;
	struct gfxstat_sched_event back;
	char text[1024];
	size_t n;

	CHECK(ev->ts_ns >= r->last_ts && ev->ts_ns >= 0);
	CHECK(ev->kind > GFXSTAT_SCHED_NONE && ev->kind < GFXSTAT_SCHED_KIND_COUNT);
	r->last_ts = ev->ts_ns;
	mix(&r->h, &ev->kind, sizeof(ev->kind));
	mix(&r->h, &ev->ts_ns, sizeof(ev->ts_ns));
	mix(&r->h, &ev->cpu, sizeof(ev->cpu));
	mix(&r->h, &ev->tid, sizeof(ev->tid));
	mix(&r->h, &ev->irq, sizeof(ev->irq));
	mix_str(&r->h, ev->comm);
	switch (ev->kind) {
	case GFXSTAT_SCHED_SWITCH:
		CHECK(ev->sw.prev_state == GFXSTAT_TASK_UNKNOWN ||
		      !(ev->sw.prev_state & ~KNOWN_STATE_BITS));
		mix_str(&r->h, ev->sw.prev_comm);
		mix_str(&r->h, ev->sw.next_comm);
		mix(&r->h, &ev->sw.prev_pid, sizeof(ev->sw.prev_pid));
		mix(&r->h, &ev->sw.prev_state, sizeof(ev->sw.prev_state));
		mix(&r->h, &ev->sw.next_pid, sizeof(ev->sw.next_pid));
		break;
	case GFXSTAT_SCHED_WAKING:
	case GFXSTAT_SCHED_WAKEUP:
	case GFXSTAT_SCHED_WAKEUP_NEW:
		mix_str(&r->h, ev->wake.comm);
		mix(&r->h, &ev->wake.pid, sizeof(ev->wake.pid));
		mix(&r->h, &ev->wake.target_cpu, sizeof(ev->wake.target_cpu));
		break;
	case GFXSTAT_SCHED_TASK_RENAME:
		mix_str(&r->h, ev->rename.oldcomm);
		mix_str(&r->h, ev->rename.newcomm);
		break;
	case GFXSTAT_SCHED_TASK_NEWTASK:
		mix_str(&r->h, ev->newtask.comm);
		break;
	default:
		mix(&r->h, &ev->freq, sizeof(ev->freq));
		break;
	}
	/* the text form reads back to the same event, when the names are plain (a name may hold
	 * anything in a binary trace, and then the text is ambiguous, as the kernel's is) */
	n = gfxstat_sched_event_format(ev, text, sizeof(text));
	CHECK(n < sizeof(text) ? strlen(text) == n : strlen(text) == sizeof(text) - 1);
	/* ... and a tid the kernel can have: a pid of 2^32 - 1 in the proto is tid -1, written
	 * "<...>--1", which reads back as task "<...>-", pid 1 (the fuzzer's first crash) */
	if (n < sizeof(text) && plain(ev->comm) && names_plain(ev) && ev->tid >= 0 &&
	    gfxstat_ftrace_line_parse(text, n, &line) == GFXSTAT_PARSE_OK) {
		if (gfxstat_sched_line_parse(&line, &back) == GFXSTAT_PARSE_OK) {
			CHECK(back.kind == ev->kind);
			CHECK(back.ts_ns == ev->ts_ns);
			CHECK(back.cpu == ev->cpu);
			CHECK(back.tid == ev->tid);
		}
	}
	return 0;
}

static int on_counter(void *user, const struct gfxstat_counter *c)
{
	struct run *r = user;

	CHECK(c->kind > GFXSTAT_COUNTER_NONE && c->kind < GFXSTAT_COUNTER_KIND_COUNT);
	if (c->kind == GFXSTAT_COUNTER_GPU_FREQ || c->kind == GFXSTAT_COUNTER_THERMAL)
		r->ftrace_counters++; /* an upper bound: sys_stats has these too */
	mix(&r->h, &c->kind, sizeof(c->kind));
	mix(&r->h, &c->ts_ns, sizeof(c->ts_ns));
	mix(&r->h, &c->index, sizeof(c->index));
	mix(&r->h, &c->value, sizeof(c->value));
	mix(&r->h, c->name.p, c->name.n);
	return 0;
}

/* The bundles in the order packet() gives them, for handing over ahead */
struct ahead {
	const uint8_t *d[256];
	size_t n[256], count, next, sub;
};

/* Before the next bundle: a few of those after it handed over. */
static void hand_over(struct gx_psched *s, struct ahead *a)
{
	while (a->sub < a->count && a->sub < a->next + 5 &&
	       gx_psched_ahead(s, a->d[a->sub], a->n[a->sub]))
		a->sub++;
	a->next++;
}

/* One TracePacket: its timestamp, then the fields the decoder takes. */
static void packet(struct gx_psched *s, const uint8_t *d, size_t n, struct ahead *a)
{
	struct gx_pb r;
	struct gx_pb_field f;
	int64_t ts = 0;

	gx_pb_init(&r, d, n);
	while (gx_pb_next(&r, &f) == GX_PB_FIELD)
		if (f.num == 8 && f.wire == GX_PB_VARINT && f.v <= INT64_MAX)
			ts = (int64_t)f.v;
	gx_pb_init(&r, d, n);
	while (gx_pb_next(&r, &f) == GX_PB_FIELD) {
		if (f.wire != GX_PB_LEN)
			continue;
		if (f.num == 1) {
			if (a && a->next < a->count)
				hand_over(s, a); /* (past the 256 listed: none is pending) */
			gx_psched_bundle(s, f.data, f.len);
		}
		else if (gx_psched_wants(f.num))
			gx_psched_packet(s, f.num, ts, f.data, f.len);
	}
}

static void decode(const uint8_t *data, size_t size, int small, int ahead, struct run *run,
		   struct gfxstat_perfetto_sched_summary *sum)
{
	struct gx_psched_sink sink = { on_sched, on_counter, run, NULL, NULL, NULL, 0 };
	struct gx_psched *s = gx_psched_new(&sink);
	static struct ahead a;
	struct gx_pb r, q;
	struct gx_pb_field f, g;

	if (!s)
		return;
	if (small)
		gx_psched_set_limits(s, 3, 1000);
	memset(&a, 0, sizeof(a));
	gx_pb_init(&r, data, size);
	while (ahead && gx_pb_next(&r, &f) == GX_PB_FIELD && a.count < 256) {
		if (f.num != 1 || f.wire != GX_PB_LEN)
			continue;
		gx_pb_init(&q, f.data, f.len);
		while (gx_pb_next(&q, &g) == GX_PB_FIELD && a.count < 256) {
			if (g.num == 1 && g.wire == GX_PB_LEN) {
				a.d[a.count] = g.data;
				a.n[a.count++] = g.len;
			}
		}
	}
	gx_psched_set_threads(s, ahead ? 2 : 1);
	gx_psched_set_ahead_min(s, 0); /* the small bundles too */
	gx_pb_init(&r, data, size);
	while (gx_pb_next(&r, &f) == GX_PB_FIELD)
		if (f.num == 1 && f.wire == GX_PB_LEN)
			packet(s, f.data, f.len, ahead ? &a : NULL);
	gx_psched_finish(s);
	*sum = *gx_psched_summary(s);
	gx_psched_free(s);
}

static int on_marker(void *user, const struct gfxstat_ftrace_line *ev,
		     const struct gfxstat_marker *m)
{
	struct run *r = user;

	CHECK(ev->ts_ns >= r->last_ts); /* merged with the scheduler events, in time order */
	r->last_ts = ev->ts_ns;
	mix(&r->h, &ev->ts_ns, sizeof(ev->ts_ns));
	mix(&r->h, ev->payload.p, ev->payload.n);
	mix(&r->h, &m->kind, sizeof(m->kind));
	return 0;
}

/* The whole decoder with a sched sink, in chunks of the input's own sizes, or (@ahead) in
 * one feed with the bundles decoded ahead. */
static void decode_full(const uint8_t *data, size_t size, int ahead, struct run *run,
			struct gfxstat_perfetto_summary *sum)
{
	struct gfxstat_perfetto_sink sink;
	struct gfxstat_perfetto *p;
	size_t off = 0, i = 0;

	memset(&sink, 0, sizeof(sink));
	sink.marker = on_marker;
	sink.sched = on_sched;
	sink.counter = on_counter;
	sink.user = run;
	p = gfxstat_perfetto_new(&sink, NULL);
	if (!p)
		return;
	gfxstat_perfetto_set_threads(p, ahead ? 2 : 1);
	if (ahead && size && (data[0] & 1))
		gx_perfetto_set_ahead_eager(p); /* every bundle; else the large ones */
	while (off < size) {
		size_t k = ahead ? size : (size_t)data[i++ % size] % 61 + 1;

		if (k > size - off)
			k = size - off;
		gfxstat_perfetto_feed(p, data + off, k);
		off += k;
	}
	gfxstat_perfetto_finish(p);
	*sum = *gfxstat_perfetto_summary(p);
	gfxstat_perfetto_free(p);
}

static uint64_t held_total(const struct gfxstat_perfetto_sched_summary *s)
{
	uint64_t t = s->late;
	int i;

	for (i = 0; i < GFXSTAT_SCHED_KIND_COUNT; i++)
		t += s->sched[i];
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gfxstat_perfetto_sched_summary a, b, c;
	struct run ra = { 1469598103934665603ULL, INT64_MIN, 0 }, rb = ra, rc = ra;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&c, 0, sizeof(c));
	decode(data, size, 0, 0, &ra, &a);
	decode(data, size, 0, 1, &rb, &b);
	decode(data, size, 1, 0, &rc, &c);
	CHECK(ra.h == rb.h);
	CHECK(memcmp(&a, &b, sizeof(a)) == 0);
	/* what went into holding does not depend on the limits: it goes out or is late */
	CHECK(held_total(&a) + a.counter[GFXSTAT_COUNTER_GPU_FREQ] +
		      a.counter[GFXSTAT_COUNTER_THERMAL] ==
	      held_total(&c) + c.counter[GFXSTAT_COUNTER_GPU_FREQ] +
		      c.counter[GFXSTAT_COUNTER_THERMAL]);
	CHECK(a.compact_switch == c.compact_switch && a.compact_waking == c.compact_waking);
	CHECK(a.forced == 0 || a.held_max > GX_PSCHED_MAX_HELD);
	{
		struct gfxstat_perfetto_summary fs, ft;
		struct run rf = { 1469598103934665603ULL, INT64_MIN, 0 }, rt = rf;

		memset(&fs, 0, sizeof(fs));
		memset(&ft, 0, sizeof(ft));
		decode_full(data, size, 0, &rf, &fs);
		decode_full(data, size, 1, &rt, &ft);
		CHECK(rf.h == rt.h);
		CHECK(memcmp(&fs, &ft, sizeof(fs)) == 0);
		/* every marker went through the merge (or was late there) */
		CHECK(fs.sched.prints <= fs.markers);
		CHECK(fs.sched.late || fs.sched.prints == fs.markers);
	}
	return 0;
}
