/* SPDX-License-Identifier: MIT */
/*
 * The merge of lib/input/perfetto_sched.c over the CPUs (a heap of CPU queues, each bundle
 * merged from its runs straight into its CPU's queue: the three runs of compact switches,
 * compact wakings and events when each is in time order, else the runs its keys make) against
 * the plain merge it stands for
 * (gx_psched_set_ref_merge(): every CPU scanned for each run of events, the bundle sorted,
 * then held event by event): random per-CPU streams with equal times within and across CPUs,
 * events older than their CPU's last and older than what already went out (late), bundles
 * out of time order, compact_sched runs, markers, counters, and holding limits and windows
 * from tiny to the defaults. And gx_pb_next_fast() (protobuf_local.h) against gx_pb_next()
 * on random and damaged messages, with protozero's 4-byte padded lengths. And the bundles
 * decoded ahead on the decoder's thread (gx_psched_ahead(), gfxstat_perfetto_set_threads())
 * against the same decoded in the caller's: the same stream, whatever is handed over when,
 * through perfetto_sched.c alone and through the whole Perfetto decoder (packets whole or cut
 * by the feeds, compressed_packets among them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#include "check.h"
#include "pb_write.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_sched.h"
#include "gfxstat/gfxstat_sysctx.h"
#include "../../lib/input/perfetto_sched_local.h"
#include "../../lib/input/protobuf_local.h"

static unsigned long long rng = 0x2545F4914F6CDD1DULL;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* ---- what a decoder delivers, as text ---- */

struct out {
	char s[1 << 20];
	size_t n;
	int full;
};

static void out_add(struct out *o, const char *s)
{
	size_t k = strlen(s);

	if (k >= sizeof(o->s) - o->n) {
		o->full = 1;
		return;
	}
	memcpy(o->s + o->n, s, k);
	o->n += k;
}

static int on_sched(void *user, const struct gfxstat_sched_event *ev)
{
	char line[512];

	gfxstat_sched_event_format(ev, line, sizeof(line));
	out_add(user, line);
	out_add(user, "\n");
	return 0;
}

static int on_counter(void *user, const struct gfxstat_counter *c)
{
	char line[128];

	snprintf(line, sizeof(line), "counter %d %lld %d %lld\n", (int)c->kind,
		 (long long)c->ts_ns, c->index, (long long)c->value);
	out_add(user, line);
	return 0;
}

static int on_print(void *user, int64_t ts, int32_t pid, int32_t cpu, const char *buf,
		    size_t len, const struct gfxstat_marker *m)
{
	char line[160];

	snprintf(line, sizeof(line), "print %lld %d %d %.*s %d\n", (long long)ts, pid, cpu,
		 (int)(len < 60 ? len : 60), buf, (int)m->kind);
	out_add(user, line);
	return 0;
}

/* ---- random per-CPU streams ---- */

/* A nested message with its length padded to 4 bytes, as protozero writes them. */
static void pb_msg_pad(struct pb *o, uint32_t field, const struct pb *m)
{
	size_t n = m->n;

	pb_varint(o, (uint64_t)field << 3 | 2);
	if (o->n + 4 + n > sizeof(o->b))
		return;
	o->b[o->n++] = (uint8_t)((n & 0x7f) | 0x80);
	o->b[o->n++] = (uint8_t)(((n >> 7) & 0x7f) | 0x80);
	o->b[o->n++] = (uint8_t)(((n >> 14) & 0x7f) | 0x80);
	o->b[o->n++] = (uint8_t)((n >> 21) & 0x7f);
	memcpy(o->b + o->n, m->b, n);
	o->n += n;
}

static void msg(struct pb *o, uint32_t field, const struct pb *m)
{
	if (rnd(2))
		pb_msg_pad(o, field, m);
	else
		pb_msg(o, field, m);
}

/* One FtraceEvent at @ts: a waking, a cpu_idle, a gpu_frequency counter or a marker. */
static void event(struct pb *bundle, uint64_t ts, uint32_t cpu)
{
	static const char *const marks[] = { "B|70|draw", "E|70", "C|70|queued|3", "I|70|tick" };
	static struct pb ev, m;
	unsigned k = rnd(10);

	memset(&ev, 0, sizeof(ev));
	memset(&m, 0, sizeof(m));
	pb_u(&ev, 1, ts);
	pb_u(&ev, 2, 60 + rnd(4));
	if (k < 5) {
		pb_str(&m, 1, rnd(2) ? "RenderThread" : "app");
		pb_u(&m, 2, 70 + rnd(5));
		pb_u(&m, 3, 120);
		pb_u(&m, 5, rnd(4));
		msg(&ev, 20, &m); /* sched_waking */
	} else if (k < 8) {
		pb_u(&m, 1, rnd(3));
		pb_u(&m, 2, cpu);
		msg(&ev, 13, &m); /* cpu_idle */
	} else if (k < 9) {
		pb_u(&m, 1, 0);
		pb_u(&m, 2, 300000 + rnd(5) * 100000);
		msg(&ev, 332, &m); /* gpu_frequency */
	} else {
		pb_str(&m, 2, marks[rnd(4)]);
		msg(&ev, 3, &m); /* print */
	}
	msg(bundle, 2, &ev);
}

/* A CompactSched of a few switches and wakings from @t0, each column one packed run. */
static void compact(struct pb *bundle, uint64_t t0)
{
	uint64_t sw[5][8], wk[5][8];
	size_t nsw = rnd(6), nwk = rnd(6), i;
	struct pb cs = PB_INIT;

	for (i = 0; i < nsw; i++) {
		sw[0][i] = i ? 10 * rnd(4) : t0; /* deltas: 0 makes equal times */
		sw[1][i] = rnd(3);
		sw[2][i] = 80 + rnd(4);
		sw[3][i] = 120;
		sw[4][i] = rnd(3);
	}
	for (i = 0; i < nwk; i++) {
		wk[0][i] = i ? 10 * rnd(4) : t0 + 10 * rnd(3);
		wk[1][i] = 80 + rnd(4);
		wk[2][i] = rnd(4);
		wk[3][i] = 120;
		wk[4][i] = rnd(3);
	}
	if (nsw) {
		pb_packed(&cs, 1, sw[0], nsw);
		pb_packed(&cs, 2, sw[1], nsw);
		pb_packed(&cs, 3, sw[2], nsw);
		pb_packed(&cs, 4, sw[3], nsw);
	}
	pb_str(&cs, 5, "swapper");
	pb_str(&cs, 5, "app");
	pb_str(&cs, 5, "RenderThread");
	if (nsw)
		pb_packed(&cs, 6, sw[4], nsw);
	if (nwk) {
		pb_packed(&cs, 7, wk[0], nwk);
		pb_packed(&cs, 8, wk[1], nwk);
		pb_packed(&cs, 9, wk[2], nwk);
		pb_packed(&cs, 10, wk[3], nwk);
		pb_packed(&cs, 11, wk[4], nwk);
	}
	msg(bundle, 4, &cs);
}

#define NB 60

struct trace {
	struct pb b[NB];
	int n;
};

/*
 * Bundles of up to 6 CPUs, read round after round in CPU order as traced_probes reads them,
 * sometimes one read twice or skipped; each CPU's times go forward on a coarse grid (equal
 * times are common), sometimes step back a little (out of order inside the CPU) or a lot
 * (older than what went out: late), and a bundle's events now and then come shuffled.
 */
static void random_trace(struct trace *t)
{
	uint64_t clock[6] = { 0 };
	unsigned ncpu = 1 + rnd(6), cpu = 0;
	int i;

	t->n = 0;
	for (i = 0; i < NB; i++) {
		struct pb *b = &t->b[t->n++];
		uint64_t ts;
		unsigned k, nev = rnd(12);

		memset(b, 0, sizeof(*b));
		if (rnd(8) == 0)
			cpu = rnd(ncpu); /* out of the round's order */
		else
			cpu = (cpu + 1) % ncpu;
		pb_u(b, 1, cpu);
		if (clock[cpu] < 1000u * (unsigned)i)
			clock[cpu] = 1000u * (unsigned)i + 10 * rnd(50);
		ts = clock[cpu];
		if (rnd(4) == 0)
			compact(b, ts);
		for (k = 0; k < nev; k++) {
			uint64_t at = ts;

			if (rnd(12) == 0)
				at = ts > 300 ? ts - 10 * rnd(30) : ts; /* a step back */
			else if (rnd(40) == 0)
				at = ts > 20000 ? ts - 20000 : 0; /* far back: late */
			event(b, at, cpu);
			ts += 10 * rnd(3); /* 0: the same time again */
		}
		clock[cpu] = ts;
	}
}

/* The trace through a decoder, the plain merge or not, decoded ahead on a thread (@ahead: the
 * bundles handed over up to 1 + rnd(40) ahead) or not; what it delivers as text into @o. */
static void run_mode(const struct trace *t, int ref, int ahead, size_t max_held, int64_t window,
		     struct out *o)
{
	struct gx_psched_sink sink = { on_sched, on_counter, o, on_print, o, NULL, 0 };
	const struct gfxstat_perfetto_sched_summary *sum;
	struct gx_psched *s;
	char line[256];
	int i, sub = 0;

	o->n = 0;
	o->full = 0;
	s = gx_psched_new(&sink);
	CHECK(s != NULL);
	if (!s)
		return;
	gx_psched_set_ref_merge(s, ref);
	gx_psched_set_limits(s, max_held, window);
	gx_psched_set_threads(s, ahead ? 2 : 1);
	gx_psched_set_ahead_min(s, 0); /* the bundles here are small: every one handed over */
	for (i = 0; i < t->n; i++) {
		int look = 1 + (int)rnd(40);

		while (ahead && sub < t->n && sub < i + look &&
		       gx_psched_ahead(s, t->b[sub].b, t->b[sub].n))
			sub++;
		CHECK_EQ(gx_psched_bundle(s, t->b[i].b, t->b[i].n), 0);
	}
	CHECK_EQ(gx_psched_finish(s), 0);
	if (ahead) {
		uint64_t taken, missed;

		gx_psched_ahead_stats(s, &taken, &missed);
		CHECK_EQ(taken, sub); /* every one handed over came back merged */
		CHECK_EQ(missed, 0);
	}
	sum = gx_psched_summary(s);
	snprintf(line, sizeof(line), "late %llu forced %llu held_max %llu skipped %llu bad %llu\n",
		 (unsigned long long)sum->late, (unsigned long long)sum->forced,
		 (unsigned long long)sum->held_max, (unsigned long long)sum->compact_skipped,
		 (unsigned long long)sum->malformed);
	out_add(o, line);
	gx_psched_free(s);
}

static void run(const struct trace *t, int ref, size_t max_held, int64_t window, struct out *o)
{
	run_mode(t, ref, 0, max_held, window, o);
}

TEST(merge_equals_plain)
{
	static struct trace t;
	static struct out a, b;
	int iter, diffs = 0, late = 0, forced = 0;

	for (iter = 0; iter < 300; iter++) {
		/* limits: the defaults, a tight hold (forced), a short window, both */
		static const size_t held[] = { 0, 1, 3, 17, 64 };
		static const int64_t win[] = { 0, 1, 25, 400, 3000 };
		size_t mh = held[rnd(5)];
		int64_t w = win[rnd(5)];

		random_trace(&t);
		run(&t, 0, mh, w, &a);
		run(&t, 1, mh, w, &b);
		CHECK(!a.full && !b.full);
		if (a.n != b.n || memcmp(a.s, b.s, a.n)) {
			if (!diffs)
				fprintf(stderr, "merge differs: iteration %d, max_held %zu window %lld\n",
					iter, mh, (long long)w);
			diffs++;
		}
		/* decoded ahead: the fast merge's stream, the plain one's too in every 10th */
		run_mode(&t, iter % 10 == 0, 1, mh, w, &b);
		if (a.n != b.n || memcmp(a.s, b.s, a.n)) {
			if (!diffs)
				fprintf(stderr, "decoded ahead differs: iteration %d\n", iter);
			diffs++;
		}
		a.s[a.n] = 0;
		late += strstr(a.s, "late 0 ") == NULL;
		forced += strstr(a.s, "forced 0 ") == NULL;
	}
	CHECK_EQ(diffs, 0);
	/* the streams did reach the cases they are for */
	CHECK(late > 20);
	CHECK(forced > 20);
}

/*
 * Known: CPU 0's bundle has cpu_idle at 100 and 200, then CPU 1's has cpu_idle at 100 and 150:
 * all CPUs were read once only when CPU 0 comes again, so nothing goes out before its third
 * bundle, of one cpu_idle at 50 (nothing is out yet, so it is not late). Then what no CPU
 * can precede goes out: 50, 100 and 100 (equal times in arrival order: CPU 0's first),
 * 150 (CPU 0 has reached 200); 200 waits for CPU 1 (at 150) until the end. By hand:
 * 50 (cpu 0), 100 (cpu 0), 100 (cpu 1), 150 (cpu 1), 200 (cpu 0); held at most all 5.
 */
TEST(merge_known)
{
	static struct out a, b;
	static const char *const want =
		"<...>-9 (-----) [000] .... 0.000000050: cpu_idle: state=3 cpu_id=0\n"
		"<...>-9 (-----) [000] .... 0.000000100: cpu_idle: state=1 cpu_id=0\n"
		"<...>-9 (-----) [001] .... 0.000000100: cpu_idle: state=1 cpu_id=1\n"
		"<...>-9 (-----) [001] .... 0.000000150: cpu_idle: state=2 cpu_id=1\n"
		"<...>-9 (-----) [000] .... 0.000000200: cpu_idle: state=2 cpu_id=0\n"
		"late 0 forced 0 held_max 5 skipped 0 bad 0\n";
	static const uint64_t at[3][2] = { { 100, 200 }, { 100, 150 }, { 50, 0 } };
	static const uint64_t st[3][2] = { { 1, 2 }, { 1, 2 }, { 3, 0 } };
	static struct trace t;
	int i, k;

	t.n = 3;
	for (i = 0; i < 3; i++) {
		struct pb *bu = &t.b[i];

		memset(bu, 0, sizeof(*bu));
		pb_u(bu, 1, i == 1);
		for (k = 0; k < (i == 2 ? 1 : 2); k++) {
			struct pb ev = PB_INIT, m = PB_INIT;

			pb_u(&m, 1, st[i][k]);
			pb_u(&m, 2, i == 1);
			pb_u(&ev, 1, at[i][k]);
			pb_u(&ev, 2, 9);
			pb_msg_pad(&ev, 13, &m);
			pb_msg(bu, 2, &ev);
		}
	}
	run(&t, 0, 0, 0, &a);
	run(&t, 1, 0, 0, &b);
	a.s[a.n] = b.s[b.n] = 0;
	CHECK_CSTR(a.s, want);
	CHECK_CSTR(b.s, want);
}

/* ---- gx_pb_next_fast() against gx_pb_next() ---- */

/* Read all of [p, p + n) with both readers; 0 when they agree field by field. */
static int readers_differ(const uint8_t *p, size_t n)
{
	struct gx_pb r1, r2;
	struct gx_pb_field f1, f2;
	enum gx_pb_res a, b;

	gx_pb_init(&r1, p, n);
	gx_pb_init(&r2, p, n);
	do {
		memset(&f1, 0xa5, sizeof(f1));
		memset(&f2, 0xa5, sizeof(f2));
		a = gx_pb_next(&r1, &f1);
		b = gx_pb_next_fast(&r2, &f2);
		if (a != b || r1.p != r2.p)
			return 1;
		if (a == GX_PB_FIELD &&
		    (f1.num != f2.num || f1.wire != f2.wire || f1.v != f2.v ||
		     f1.data != f2.data || f1.len != f2.len))
			return 1;
	} while (a == GX_PB_FIELD);
	return 0;
}

TEST(next_fast_equals_next)
{
	int iter, diffs = 0;

	for (iter = 0; iter < 3000; iter++) {
		static struct pb o, m;
		unsigned k, nf = 1 + rnd(8);
		size_t at;

		memset(&o, 0, sizeof(o));
		for (k = 0; k < nf; k++) {
			uint32_t num = rnd(4) ? 1 + rnd(15) : rnd(3) ? 16 + rnd(3000) : rnd(2);

			memset(&m, 0, sizeof(m));
			switch (rnd(6)) {
			case 0:
				if (rnd(2)) {
					pb_u(&o, num, rnd(300));
				} else {
					uint64_t v = rnd(1u << 30); /* two draws, in a fixed order */

					pb_u(&o, num, v << rnd(34));
				}
				break;
			case 1:
				pb_i(&o, num, -(int64_t)rnd(1000) - 1); /* ten bytes */
				break;
			case 2:
				pb_fixed32(&o, num, rnd(1000));
				break;
			case 3:
				m.n = rnd(200);
				memset(m.b, 'x', m.n);
				pb_msg_pad(&o, num, &m);
				break;
			default:
				m.n = rnd(2) ? rnd(100) : 100 + rnd(300);
				memset(m.b, 'y', m.n);
				pb_msg(&o, num, &m);
				break;
			}
		}
		diffs += readers_differ(o.b, o.n);
		/* cut short anywhere, and each byte damaged in turn now and then */
		diffs += readers_differ(o.b, rnd((unsigned)o.n + 1));
		if (iter % 50)
			continue;
		for (at = 0; at < o.n; at++) {
			uint8_t keep = o.b[at];

			o.b[at] ^= (uint8_t)(1u << rnd(8));
			diffs += readers_differ(o.b, o.n);
			o.b[at] = keep;
		}
	}
	CHECK_EQ(diffs, 0);
}

/* A decoder into @o that decodes every bundle handed over on its thread. */
static struct gx_psched *ahead_new(struct out *o)
{
	struct gx_psched_sink sink = { on_sched, on_counter, NULL, on_print, NULL, NULL, 0 };
	struct gx_psched *s;

	sink.user = sink.print_user = o;
	s = gx_psched_new(&sink);
	CHECK(s != NULL);
	if (s) {
		gx_psched_set_threads(s, 2);
		gx_psched_set_ahead_min(s, 0);
	}
	return s;
}

/* A bundle merged while another is handed over: refused, the decoder having moved past it. */
TEST(ahead_out_of_turn)
{
	static struct trace t;
	static struct out o;
	struct gx_psched *s;
	uint64_t taken, missed;

	random_trace(&t);
	s = ahead_new(&o);
	if (!s)
		return;
	CHECK_EQ(gx_psched_ahead(s, t.b[1].b, t.b[1].n), 1);
	CHECK_EQ(gx_psched_bundle(s, t.b[0].b, t.b[0].n), GFXSTAT_E_INVAL);
	CHECK_EQ(gx_psched_bundle(s, t.b[1].b, t.b[1].n), GFXSTAT_E_INVAL); /* sticky */
	gx_psched_ahead_stats(s, &taken, &missed);
	CHECK_EQ(taken, 0);
	CHECK_EQ(missed, 1);
	gx_psched_free(s);
	/* handed over and never merged (the input stopped): given back at the end */
	s = ahead_new(&o);
	if (!s)
		return;
	CHECK_EQ(gx_psched_ahead(s, t.b[0].b, t.b[0].n), 1);
	CHECK_EQ(gx_psched_ahead(s, t.b[1].b, t.b[1].n), 1);
	gx_psched_ahead_end(s);
	gx_psched_free(s);
}

/* ---- the whole Perfetto decoder ---- */

static int pf_marker(void *user, const struct gfxstat_ftrace_line *ev,
		     const struct gfxstat_marker *m)
{
	char line[160];

	snprintf(line, sizeof(line), "marker %lld %d %d %.*s %d\n", (long long)ev->ts_ns, ev->pid,
		 ev->cpu, (int)(ev->payload.n < 60 ? ev->payload.n : 60), ev->payload.p,
		 (int)m->kind);
	out_add(user, line);
	return 0;
}

/* TracePacket.ftrace_events (1) of bundle @b into the Trace @o (packet field 1). */
static void put_packet(struct pb *o, const struct pb *b)
{
	static struct pb pkt;

	pkt.n = 0;
	pb_msg(&pkt, 1, b);
	pb_msg(o, 1, &pkt);
}

/*
 * The trace's bundles as a Perfetto trace into @o: each in a TracePacket, now and then a run
 * of them inside a compressed_packets packet (a zlib Trace), a packet that does not decode
 * (whose bundle is not read), or a Trace field that is no packet.
 */
static void perfetto_of(const struct trace *t, struct pb *o)
{
	static struct pb inner, pkt;
	int i = 0;

	o->n = 0;
	while (i < t->n) {
		unsigned k = rnd(12);

		if (k == 0) {
			/* compressed_packets = 50 of the next few bundles */
			uLongf zn = sizeof(pkt.b) - 16;
			static uint8_t z[sizeof(pkt.b)];
			int j;

			inner.n = 0;
			for (j = 0; j < 1 + (int)rnd(4) && i < t->n; j++)
				put_packet(&inner, &t->b[i++]);
			if (compress2(z, &zn, inner.b, inner.n, 6) != Z_OK)
				continue;
			pkt.n = 0;
			pb_bytes(&pkt, 50, z, zn);
			pb_msg(o, 1, &pkt);
		} else if (k == 1) {
			/* a packet cut inside its bundle: it does not decode */
			pkt.n = 0;
			pb_msg(&pkt, 1, &t->b[i++]);
			pkt.b[0] = 0x0a;
			pkt.n = pkt.n > 3 ? pkt.n - 2 : pkt.n;
			pb_bytes(o, 1, pkt.b, pkt.n);
		} else if (k == 2) {
			pb_u(o, 7, 42); /* a Trace field that is no packet */
		} else {
			put_packet(o, &t->b[i++]);
		}
	}
}

/* The trace through gfxstat_perfetto, in one feed or in cuts of up to @cut bytes. */
static void run_decoder(const struct pb *tr, int threads, int eager, size_t cut, struct out *o)
{
	struct gfxstat_perfetto_sink sink;
	struct gfxstat_perfetto *p;
	const struct gfxstat_perfetto_summary *sum;
	uint64_t taken, missed;
	char line[256];
	size_t off = 0;

	o->n = 0;
	o->full = 0;
	memset(&sink, 0, sizeof(sink));
	sink.marker = pf_marker;
	sink.sched = on_sched;
	sink.counter = on_counter;
	sink.user = o;
	p = gfxstat_perfetto_new(&sink, NULL);
	CHECK(p != NULL);
	if (!p)
		return;
	gfxstat_perfetto_set_threads(p, threads);
	if (eager)
		gx_perfetto_set_ahead_eager(p); /* the bundles here are small */
	while (off < tr->n) {
		size_t k = cut ? 1 + rnd((unsigned)cut) : tr->n;

		if (k > tr->n - off)
			k = tr->n - off;
		CHECK_EQ(gfxstat_perfetto_feed(p, tr->b + off, k), 0);
		off += k;
	}
	CHECK_EQ(gfxstat_perfetto_finish(p), 0);
	sum = gfxstat_perfetto_summary(p);
	snprintf(line, sizeof(line), "packets %llu bundles %llu malformed %llu compressed %llu\n",
		 (unsigned long long)sum->packets, (unsigned long long)sum->ftrace_bundles,
		 (unsigned long long)sum->malformed, (unsigned long long)sum->compressed);
	out_add(o, line);
	gx_perfetto_ahead_stats(p, &taken, &missed);
	CHECK_EQ(missed, 0);
	if (threads > 1 && eager && !cut)
		CHECK(taken > 0);
	gfxstat_perfetto_free(p);
}

TEST(ahead_through_decoder)
{
	static struct trace t;
	static struct pb tr;
	static struct out a, b;
	int iter, diffs = 0;

	for (iter = 0; iter < 100; iter++) {
		size_t cut = iter % 3 == 0 ? 0 : iter % 3 == 1 ? 64 : 4096;

		random_trace(&t);
		perfetto_of(&t, &tr);
		run_decoder(&tr, 1, 0, 0, &a);
		run_decoder(&tr, 2, iter % 4 != 3, cut, &b);
		CHECK(!a.full && !b.full);
		if (a.n != b.n || memcmp(a.s, b.s, a.n)) {
			if (!diffs)
				fprintf(stderr, "decoded ahead differs: iteration %d, cut %zu\n", iter,
					cut);
			diffs++;
		}
	}
	CHECK_EQ(diffs, 0);
}

TEST_SUITE(test_perfetto_sched_merge)
{
	RUN(merge_known);
	RUN(merge_equals_plain);
	RUN(ahead_out_of_turn);
	RUN(ahead_through_decoder);
	RUN(next_fast_equals_next);
}
