/* SPDX-License-Identifier: MIT */
/*
 * The fast paths of lib/input/perfetto_sched.c against the general ones they stand for:
 * compact_sched's columns read straight from their one packed run, a column at a time,
 * against the columns looked for through the message a row at a time (gx_psched_set_slow()):
 * which events are kept and when the section counts as an error, on crafted bundles (columns
 * missing, of unequal length, names past the intern table, huge deltas) and on every one-byte
 * damage of them; FtraceEvents read as traced_probes lays them out (timestamp, pid, the
 * kind's message with its fields in number order) against the field-by-field loops, on
 * random events of every kind read, bent now and then (fields missing, repeated, swapped, of
 * another wire type, extra ones), and on their one-byte damage; and the markers' parse, made
 * once when decoded and kept as offsets into the payload copied to the chunked arena, against
 * gfxstat_atrace_marker_parse() of the payload as it is delivered (payloads of every size
 * around the chunk's quarter, late markers, many chunks).
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "pb_write.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_sched.h"
#include "gfxstat/gfxstat_sysctx.h"
#include "../../lib/input/perfetto_sched_local.h"

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* ---- what a decoder delivers, as text ---- */

struct out {
	char s[65536];
	size_t n;
};

/* A bundle through the fast (0) and the slow (1) readers into a and b. */
typedef void run_fn(const uint8_t *b, size_t n, int slow, struct out *o);

/* 1 when the two readers' outputs of @b differ. */
static int fast_differs(run_fn *go, const uint8_t *b, size_t n, struct out *x, struct out *y)
{
	go(b, n, 0, x);
	go(b, n, 1, y);
	return x->n != y->n || memcmp(x->s, y->s, x->n) != 0;
}

/* How many of @b's bytes, each damaged in turn by one bit, make the readers differ. */
static int damaged_differ(run_fn *go, uint8_t *b, size_t n, struct out *x, struct out *y)
{
	int diffs = 0;
	size_t at;

	for (at = 0; at < n; at++) {
		uint8_t keep = b[at];

		b[at] ^= (uint8_t)(1u << rnd(8));
		diffs += fast_differs(go, b, n, x, y);
		b[at] = keep;
	}
	return diffs;
}

static void out_add(struct out *o, const char *s)
{
	size_t k = strlen(s);

	if (k < sizeof(o->s) - o->n) {
		memcpy(o->s + o->n, s, k);
		o->n += k;
	}
}

static int on_sched(void *user, const struct gfxstat_sched_event *ev)
{
	char line[512];

	gfxstat_sched_event_format(ev, line, sizeof(line));
	out_add(user, line);
	out_add(user, "\n");
	return 0;
}

/* One bundle through a decoder, fast or slow; its events and summary as text into @o. */
static void run(const uint8_t *b, size_t n, int slow, struct out *o)
{
	struct gx_psched_sink sink = { on_sched, NULL, o, NULL, NULL, NULL, 0 };
	struct gx_psched *s;
	const struct gfxstat_perfetto_sched_summary *sum;
	char line[256];

	memset(o, 0, sizeof(*o));
	s = gx_psched_new(&sink);
	CHECK(s != NULL);
	if (!s)
		return;
	gx_psched_set_slow(s, slow);
	CHECK_EQ(gx_psched_bundle(s, b, n), 0);
	CHECK_EQ(gx_psched_finish(s), 0);
	sum = gx_psched_summary(s);
	snprintf(line, sizeof(line), "switch %llu waking %llu skipped %llu errors %llu bad %llu\n",
		 (unsigned long long)sum->compact_switch, (unsigned long long)sum->compact_waking,
		 (unsigned long long)sum->compact_skipped, (unsigned long long)sum->compact_errors,
		 (unsigned long long)sum->malformed);
	out_add(o, line);
	gx_psched_free(s);
}

/*
 * A random CompactSched of @nsw switches and @nwk wakings: each column packed in one run,
 * sometimes missing or one value short or long, names sometimes past the table, deltas
 * sometimes huge. Returned as a whole FtraceEventBundle of CPU 2.
 */
static void random_bundle(struct pb *bundle)
{
	static const char *const names[] = { "swapper/2", "RenderThread", "app", "kworker/2:1",
					     "surfaceflinger" };
	uint64_t col[12][40];
	size_t len[12], i, k, nsw = rnd(30), nwk = rnd(30), ntab = 1 + rnd(5);
	struct pb cs = PB_INIT;

	for (k = 0; k < 12; k++) {
		size_t base = k < 6 ? nsw : nwk; /* columns 1..6 switches, 7..12 wakings */

		len[k] = base;
		if (rnd(20) == 0)
			len[k] = base + 1 - rnd(base ? 3 : 2); /* one short, equal or one long */
		for (i = 0; i < len[k]; i++) {
			uint64_t v = rnd(1000);

			if (k == 0 || k == 6)
				v = rnd(50) ? 1 + rnd(3000000) : (uint64_t)INT64_MAX / 2;
			else if (k == 5 || k == 10)
				v = rnd(40) ? rnd((unsigned)ntab) : ntab + rnd(3);
			else if (k == 1)
				v = rnd(4) ? rnd(3) : 0x100 | rnd(3);
			else if (k == 11)
				v = rnd(2) ? 0x10 : 0x08;
			col[k][i] = v;
		}
	}
	for (k = 0; k < 12; k++) {
		if (k == 4) /* field 5 is the intern table */
			for (i = 0; i < ntab; i++)
				pb_str(&cs, 5, names[i]);
		if (rnd(25) == 0 && (k == 11 || rnd(2)))
			continue; /* a column missing (common_flags: older traces) */
		pb_packed(&cs, (uint32_t)(k < 4 ? k + 1 : k + 2), col[k], len[k]);
	}
	pb_u(bundle, 1, 2);
	pb_msg(bundle, 4, &cs);
}

TEST(compact_fast_equals_slow)
{
	int iter, diffs = 0;
	static struct out a, b;

	for (iter = 0; iter < 400; iter++) {
		struct pb bundle = PB_INIT;

		random_bundle(&bundle);
		diffs += fast_differs(run, bundle.b, bundle.n, &a, &b);
		/* and every few iterations each byte damaged in turn */
		if (iter % 40 == 0)
			diffs += damaged_differ(run, bundle.b, bundle.n, &a, &b);
	}
	CHECK_EQ(diffs, 0);
}

/*
 * A known case through both paths: intern table [swapper/2, app]; switches at 100 and 300
 * (deltas 100, 200) to app/50 and swapper/0; one waking at 150 of app/51. The first switch
 * only names the CPU's thread (compact_skipped), the waking is by app-50 (CPU 2 runs it from
 * 100), the second switch is app-50 -> swapper/2-0 with prev_state R (0).
 */
TEST(compact_known)
{
	static const uint64_t sts[] = { 100, 200 }, sst[] = { 0, 0 }, spid[] = { 50, 0 },
			      sprio[] = { 120, 120 }, scomm[] = { 1, 0 };
	static const uint64_t wts[] = { 150 }, wpid[] = { 51 }, wcpu[] = { 2 }, wprio[] = { 120 },
			      wcomm[] = { 1 };
	static const char *const want =
		"app-50 (-----) [002] .... 0.000000150: sched_waking: comm=app pid=51 prio=120 "
		"target_cpu=002\n"
		"app-50 (-----) [002] .... 0.000000300: sched_switch: prev_comm=app prev_pid=50 "
		"prev_prio=120 prev_state=R ==> next_comm=swapper/2 next_pid=0 next_prio=120\n"
		"switch 2 waking 1 skipped 1 errors 0 bad 0\n";
	static struct out a, b;
	struct pb cs = PB_INIT, bundle = PB_INIT;

	pb_packed(&cs, 1, sts, 2);
	pb_packed(&cs, 2, sst, 2);
	pb_packed(&cs, 3, spid, 2);
	pb_packed(&cs, 4, sprio, 2);
	pb_str(&cs, 5, "swapper/2");
	pb_str(&cs, 5, "app");
	pb_packed(&cs, 6, scomm, 2);
	pb_packed(&cs, 7, wts, 1);
	pb_packed(&cs, 8, wpid, 1);
	pb_packed(&cs, 9, wcpu, 1);
	pb_packed(&cs, 10, wprio, 1);
	pb_packed(&cs, 11, wcomm, 1);
	pb_u(&bundle, 1, 2);
	pb_msg(&bundle, 4, &cs);
	run(bundle.b, bundle.n, 0, &a);
	run(bundle.b, bundle.n, 1, &b);
	a.s[a.n] = b.s[b.n] = 0;
	CHECK_CSTR(a.s, want);
	CHECK_CSTR(b.s, want);
}

/* ---- markers: the parse kept from decoding against a parse of what is delivered ---- */

struct mk {
	int calls, bad, order_bad;
	int64_t last;
	size_t bytes;
};

static int same_str(struct gfxstat_str a, struct gfxstat_str b)
{
	return a.n == b.n && (!a.n || !memcmp(a.p, b.p, a.n));
}

static int on_print(void *user, int64_t ts, int32_t pid, int32_t cpu, const char *buf,
		    size_t len, const struct gfxstat_marker *m)
{
	struct mk *k = user;
	struct gfxstat_marker r;

	(void)pid;
	(void)cpu;
	k->calls++;
	k->bytes += len;
	if (ts < k->last)
		k->order_bad++;
	k->last = ts;
	if (gfxstat_atrace_marker_parse(buf, len, &r) != GFXSTAT_PARSE_OK || r.kind != m->kind ||
	    r.pid != m->pid || r.value != m->value || !same_str(r.name, m->name) ||
	    !same_str(r.track, m->track) || m->name.p < buf || m->name.p + m->name.n > buf + len ||
	    m->track.p < buf || m->track.p + m->track.n > buf + len)
		k->bad++;
	return 0;
}

/* FtraceEvent { timestamp, pid, print { buf } } into @bundle */
static void print_ev(struct pb *bundle, uint64_t ts, const char *text, size_t n)
{
	static struct pb ev, pr;

	memset(&ev, 0, sizeof(ev));
	memset(&pr, 0, sizeof(pr));
	pb_bytes(&pr, 2, text, n);
	pb_u(&ev, 1, ts);
	pb_u(&ev, 2, 77);
	pb_msg(&ev, 3, &pr);
	pb_msg(bundle, 2, &ev);
}

TEST(markers_parsed_once)
{
	static const char *const forms[] = { "B|77|draw frame", "E|77", "C|77|VSP-setPeriod|16666666",
					     "S|77|launch|5", "F|77|launch|5", "N|77|track|name",
					     "G|77|track|name|9", "H|77|track|9", "I|77|instant" };
	struct gx_psched_sink sink = { NULL, NULL, NULL, NULL, NULL, NULL, 0 };
	struct gx_psched *s;
	struct mk k = { 0, 0, 0, INT64_MIN, 0 };
	static char text[8192];
	int b, j, sent = 0;
	uint64_t at;

	sink.print = on_print;
	sink.print_user = &k;
	s = gx_psched_new(&sink);
	CHECK(s != NULL);
	if (!s)
		return;
	gx_psched_set_limits(s, 64, 0); /* a small window: markers go out while others come */
	for (b = 0; b < 300; b++) {
		static struct pb bundle;
		uint32_t cpu = (uint32_t)(b % 3);

		memset(&bundle, 0, sizeof(bundle));
		pb_u(&bundle, 1, cpu);
		for (j = 0; j < 10; j++) {
			const char *f = forms[rnd(sizeof(forms) / sizeof(forms[0]))];
			size_t n = strlen(f), pad = 0;

			/* B's name is the whole rest: long names make payloads of every size
			 * around ARENA_CHUNK / 4 (16 KiB) cannot fit in an 8 KiB test buffer, so
			 * sizes up to 4 KiB, and a few pass a chunk's end */
			if (f[0] == 'B' && rnd(4) == 0)
				pad = rnd(4000);
			memcpy(text, f, n);
			memset(text + n, 'x', pad);
			/* a time before the CPU's last now and then: late or reordered (from 1000
			 * on, so that a step back never wraps below 0 into a malformed time; the
			 * draws in a fixed order) */
			at = (uint64_t)(1000 + b * 1000 + j * 10 + (rnd(30) ? 0 : 5000));
			at -= rnd(30) ? 0 : 900;
			print_ev(&bundle, at, text, n + pad);
			sent++;
		}
		CHECK_EQ(gx_psched_bundle(s, bundle.b, bundle.n), 0);
	}
	CHECK_EQ(gx_psched_finish(s), 0);
	CHECK_EQ(k.bad, 0);
	CHECK_EQ(k.order_bad, 0);
	/* every marker went out once, or was late (older than one already out) */
	CHECK_EQ((uint64_t)k.calls + gx_psched_summary(s)->late, (uint64_t)sent);
	CHECK(k.bytes > 64 * 1024); /* more than one chunk went round */
	gx_psched_free(s);
}

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

/* ---- FtraceEvents: the fast readers of traced_probes' field order against the loops ---- */

static int ev_on_counter(void *user, const struct gfxstat_counter *c)
{
	char line[256];

	snprintf(line, sizeof(line), "counter %d %lld %d %lld %.*s\n", (int)c->kind,
		 (long long)c->ts_ns, c->index, (long long)c->value, (int)c->name.n, c->name.p);
	out_add(user, line);
	return 0;
}

static int ev_on_print(void *user, int64_t ts, int32_t pid, int32_t cpu, const char *buf,
		       size_t len, const struct gfxstat_marker *m)
{
	char line[512];

	snprintf(line, sizeof(line), "print %lld %d %d %.*s | %d %d %.*s %.*s %lld\n",
		 (long long)ts, pid, cpu, (int)len, buf, (int)m->kind, m->pid, (int)m->name.n,
		 m->name.p, (int)m->track.n, m->track.p, (long long)m->value);
	out_add(user, line);
	return 0;
}

/* One bundle through a decoder with every sink; what it delivers and counts, as text. */
static void run_events(const uint8_t *b, size_t n, int slow, struct out *o)
{
	struct gx_psched_counts cnt = { 0 };
	struct gx_psched_sink sink = { on_sched, ev_on_counter, o, ev_on_print, o, &cnt, 0 };
	const struct gfxstat_perfetto_sched_summary *sum;
	struct gx_psched *s;
	char line[256];

	memset(o, 0, sizeof(*o));
	s = gx_psched_new(&sink);
	CHECK(s != NULL);
	if (!s)
		return;
	gx_psched_set_slow(s, slow);
	CHECK_EQ(gx_psched_bundle(s, b, n), 0);
	CHECK_EQ(gx_psched_finish(s), 0);
	sum = gx_psched_summary(s);
	snprintf(line, sizeof(line),
		 "events %llu malformed %llu other %llu prints %llu markers %llu bad %llu "
		 "unsupported %llu; summary bad %llu late %llu\n",
		 (unsigned long long)cnt.events, (unsigned long long)cnt.malformed,
		 (unsigned long long)cnt.other, (unsigned long long)cnt.prints,
		 (unsigned long long)cnt.markers, (unsigned long long)cnt.bad_markers,
		 (unsigned long long)cnt.unsupported, (unsigned long long)sum->malformed,
		 (unsigned long long)sum->late);
	out_add(o, line);
	gx_psched_free(s);
}

/* A field of the kind's message: a varint, mostly small, now and then wide or negative. */
static void rnd_varint(struct pb *m, uint32_t num)
{
	uint64_t v;

	switch (rnd(12)) {
	case 0:
		pb_i(m, num, -(int64_t)rnd(1000) - 1); /* ten bytes */
		break;
	case 1:
		v = rnd(1u << 30); /* (two draws, in a fixed order) */
		pb_u(m, num, v << rnd(34));
		break;
	default:
		pb_u(m, num, rnd(300));
	}
}

/*
 * One FtraceEvent of a random kind into @bundle: mostly as traced_probes writes it (timestamp,
 * pid, the kind's message with its fields in number order), sometimes bent: fields left out,
 * repeated, swapped, of another wire type, common_flags or a second timestamp added, the
 * message's length padded or not, an unknown kind.
 */
static void rnd_event(struct pb *bundle, uint64_t ts)
{
	/* FtraceEvent field, and the message's fields: v varint, s string */
	static const struct {
		uint32_t num;
		const char *fields;
	} kinds[] = {
		{ 4, "svvvsvv" },  /* sched_switch */
		{ 20, "svvvv" },   /* sched_waking: comm pid prio success target_cpu */
		{ 20, "svv-v" },   /* ... without success (newer kernels) */
		{ 17, "svvvv" },   /* sched_wakeup */
		{ 114, "svv-v" },  /* sched_wakeup_new */
		{ 18, "vvv" },     /* sched_blocked_reason */
		{ 11, "vv" },      /* cpu_frequency */
		{ 13, "vv" },      /* cpu_idle */
		{ 12, "vvv" },     /* cpu_frequency_limits */
		{ 50, "vvvvvvv" }, /* binder_transaction */
		{ 51, "v" },       /* binder_transaction_received */
		{ 332, "vv" },     /* gpu_frequency */
		{ 341, "vv-s" },   /* thermal_temperature */
		{ 236, "vssv" },   /* task_rename */
		{ 3, "-s" },       /* print */
		{ 313, "vvv" },    /* not read */
	};
	/* task names, one with a NUL inside (the name ends there), sent whole or cut short */
	static const struct {
		const char *s;
		size_t n;
	} names[] = { { "RenderThread", 12 }, { "app", 3 }, { "", 0 }, { "kworker/2:1", 11 },
		      { "a\0b", 3 } };
	static const char *const marks[] = { "B|70|draw", "E|70", "C|70|queued|3", "I|70|tick",
					     "B|70|draw\n", "not a marker" };
	static struct pb ev, m;
	unsigned k = rnd(sizeof(kinds) / sizeof(kinds[0])), bend = rnd(4) ? 0 : 1 + rnd(9);
	const char *f = kinds[k].fields;
	uint32_t i, nf = (uint32_t)strlen(f);

	memset(&ev, 0, sizeof(ev));
	memset(&m, 0, sizeof(m));
	for (i = 0; i < nf; i++) {
		uint32_t num = i + 1;

		if (f[i] == '-' || (bend == 1 && rnd(3) == 0))
			continue; /* absent */
		if (bend == 2 && i + 1 < nf && rnd(2))
			num = i + 2; /* swapped with the next */
		else if (bend == 2 && i > 0 && rnd(3) == 0)
			num = i; /* the previous again */
		if (bend == 3 && rnd(3) == 0) {
			pb_str(&m, num, "x"); /* another wire type */
			continue;
		}
		if (f[i] == 's' && kinds[k].num == 3) {
			pb_str(&m, num, marks[rnd(sizeof(marks) / sizeof(marks[0]))]);
		} else if (f[i] == 's') {
			unsigned w = rnd(5);

			pb_bytes(&m, num, names[w].s,
				 rnd(4) ? names[w].n : rnd((unsigned)names[w].n + 1));
		} else {
			rnd_varint(&m, num);
		}
	}
	if (bend == 4)
		rnd_varint(&m, 9); /* a field past the known ones */
	if (bend != 5 || rnd(2))
		pb_u(&ev, 1, ts);
	if (bend != 6 || rnd(2))
		pb_u(&ev, 2, 60 + rnd(4));
	if (bend == 7)
		pb_u(&ev, 5, rnd(2) ? 0x08 : 0x10); /* common_flags */
	if (rnd(2))
		pb_msg_pad(&ev, kinds[k].num, &m);
	else
		pb_msg(&ev, kinds[k].num, &m);
	if (bend == 8)
		pb_u(&ev, 1, ts + 5); /* a second timestamp: the last one counts */
	if (bend == 9)
		pb_msg(&ev, 13, &m); /* a second message: the first one counts */
	pb_msg(bundle, 2, &ev);
}

TEST(events_fast_equals_loops)
{
	int iter, diffs = 0;
	static struct out a, b;

	for (iter = 0; iter < 600; iter++) {
		static struct pb bundle;
		unsigned k, nev = rnd(20);
		uint64_t ts = 1000 + rnd(1000);

		memset(&bundle, 0, sizeof(bundle));
		pb_u(&bundle, 1, rnd(3));
		for (k = 0; k < nev; k++) {
			rnd_event(&bundle, ts);
			ts += rnd(4) ? 10 * rnd(3) : 0; /* equal times too */
			if (rnd(15) == 0)
				ts -= ts > 500 ? 500 : 0; /* out of order */
		}
		if (fast_differs(run_events, bundle.b, bundle.n, &a, &b)) {
			if (!diffs)
				fprintf(stderr, "events differ: iteration %d\n", iter);
			diffs++;
		}
		/* and every few iterations each byte damaged in turn */
		if (iter % 30 == 0)
			diffs += damaged_differ(run_events, bundle.b, bundle.n, &a, &b);
	}
	CHECK_EQ(diffs, 0);
}

/*
 * A known case through both paths: an unpadded cpu_idle { state 2, cpu_id 1 } at 500 by pid
 * 61 and a padded sched_waking { comm "app", pid 70, prio 120, target_cpu 3 } (no success
 * field) at 600 by pid 62, on CPU 1: by hand, two lines, and both counted as other events.
 */
TEST(events_known)
{
	static const char *const want =
		"<...>-61 (-----) [001] .... 0.000000500: cpu_idle: state=2 cpu_id=1\n"
		"<...>-62 (-----) [001] .... 0.000000600: sched_waking: comm=app pid=70 prio=120 "
		"target_cpu=003\n"
		"events 2 malformed 0 other 2 prints 0 markers 0 bad 0 unsupported 0; summary bad "
		"0 late 0\n";
	static struct out a, b;
	struct pb bundle = PB_INIT, ev = PB_INIT, m = PB_INIT;

	pb_u(&bundle, 1, 1);
	pb_u(&m, 1, 2);
	pb_u(&m, 2, 1);
	pb_u(&ev, 1, 500);
	pb_u(&ev, 2, 61);
	pb_msg(&ev, 13, &m);
	pb_msg(&bundle, 2, &ev);
	memset(&ev, 0, sizeof(ev));
	memset(&m, 0, sizeof(m));
	pb_str(&m, 1, "app");
	pb_u(&m, 2, 70);
	pb_u(&m, 3, 120);
	pb_u(&m, 5, 3);
	pb_u(&ev, 1, 600);
	pb_u(&ev, 2, 62);
	pb_msg_pad(&ev, 20, &m);
	pb_msg(&bundle, 2, &ev);
	run_events(bundle.b, bundle.n, 0, &a);
	run_events(bundle.b, bundle.n, 1, &b);
	a.s[a.n] = b.s[b.n] = 0;
	CHECK_CSTR(a.s, want);
	CHECK_CSTR(b.s, want);
}

TEST_SUITE(test_perfetto_sched_fast)
{
	RUN(events_known);
	RUN(events_fast_equals_loops);
	RUN(compact_fast_equals_slow);
	RUN(compact_known);
	RUN(markers_parsed_once);
}
