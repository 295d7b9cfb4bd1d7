/* SPDX-License-Identifier: MIT */
/*
 * The fast paths of lib/input/perfetto_sched.c against the general ones they stand for:
 * compact_sched's columns read straight from their one packed run against the columns looked
 * for through the message (gx_psched_set_slow()), on crafted bundles (columns missing, of
 * unequal length, names past the intern table, huge deltas) and on every one-byte damage of
 * them; and the markers' parse, made once when decoded and kept as offsets into the payload
 * copied to the chunked arena, against gfxstat_atrace_marker_parse() of the payload as it
 * is delivered (payloads of every size around the chunk's quarter, late markers, many chunks).
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
	struct gx_psched_sink sink = { on_sched, NULL, o, NULL, NULL, NULL };
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
		size_t at;

		random_bundle(&bundle);
		run(bundle.b, bundle.n, 0, &a);
		run(bundle.b, bundle.n, 1, &b);
		if (a.n != b.n || memcmp(a.s, b.s, a.n))
			diffs++;
		/* and every few iterations each byte damaged in turn */
		if (iter % 40)
			continue;
		for (at = 0; at < bundle.n; at++) {
			uint8_t keep = bundle.b[at];

			bundle.b[at] ^= (uint8_t)(1u << rnd(8));
			run(bundle.b, bundle.n, 0, &a);
			run(bundle.b, bundle.n, 1, &b);
			if (a.n != b.n || memcmp(a.s, b.s, a.n))
				diffs++;
			bundle.b[at] = keep;
		}
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
	struct gx_psched_sink sink = { NULL, NULL, NULL, NULL, NULL, NULL };
	struct gx_psched *s;
	struct mk k = { 0, 0, 0, INT64_MIN, 0 };
	static char text[8192];
	int b, j, sent = 0;

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
			/* a time before the CPU's last now and then: late or reordered */
			print_ev(&bundle, (uint64_t)(b * 1000 + j * 10 + (rnd(30) ? 0 : 5000)) -
						  (rnd(30) ? 0 : 900),
				 text, n + pad);
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

TEST_SUITE(test_perfetto_sched_fast)
{
	RUN(compact_fast_equals_slow);
	RUN(compact_known);
	RUN(markers_parsed_once);
}
