/* SPDX-License-Identifier: MIT */
/*
 * The Perfetto decoder on hand-built protobuf: the wire reader, every decoded field, clock
 * conversion, compressed_packets, limits, truncation at every byte and chunking at every
 * split point.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#include "check.h"
#include "pb_write.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_perfetto.h"
#include "../../lib/input/protobuf_local.h"

/* TracePacket { timestamp = 8, [timestamp_clock_id = 58], frame_timeline_event = 76 {...} } */
static void ft_packet(struct pb *trace, uint64_t ts, uint32_t clock, uint32_t member,
		      const struct pb *ev)
{
	struct pb fte = { { 0 }, 0 }, pkt = { { 0 }, 0 };

	pb_msg(&fte, member, ev);
	pb_u(&pkt, 8, ts);
	if (clock)
		pb_u(&pkt, 58, clock);
	pb_msg(&pkt, 76, &fte);
	pb_msg(trace, 1, &pkt);
}

static void ft_end(struct pb *trace, uint64_t ts, uint32_t clock, uint64_t cookie)
{
	struct pb e = { { 0 }, 0 };

	pb_u(&e, 1, cookie);
	ft_packet(trace, ts, clock, 5, &e);
}

/* FtraceEvent { timestamp = 1, pid = 2, print = 3 { buf = 2 } } */
static void ftrace_print(struct pb *bundle, uint64_t ts, uint32_t pid, const char *buf)
{
	struct pb ev = { { 0 }, 0 }, pr = { { 0 }, 0 };

	pb_u(&pr, 1, 0xffffffff81000000ULL); /* ip: skipped */
	pb_str(&pr, 2, buf);
	pb_u(&ev, 1, ts);
	pb_u(&ev, 2, pid);
	pb_msg(&ev, 3, &pr);
	pb_msg(bundle, 2, &ev);
}

/* ---- a sink that writes what it sees into a string ---- */

struct out {
	char s[16384];
	size_t n;
	int stop_after;
	int calls;
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

static int on_marker(void *user, const struct gfxstat_ftrace_line *ev,
		     const struct gfxstat_marker *m)
{
	struct out *o = user;

	out_add(o, "M %.*s %lld %d %d %d %.*s %.*s|%.*s %c %.*s %lld\n", (int)ev->ts_text.n,
		ev->ts_text.p, (long long)ev->ts_ns, (int)ev->pid, (int)ev->tgid, (int)ev->cpu,
		(int)ev->task.n, ev->task.p, (int)ev->event.n, ev->event.p, (int)ev->payload.n,
		ev->payload.p, (char)m->kind, (int)m->name.n, m->name.p, (long long)m->value);
	return o->stop_after && ++o->calls >= o->stop_after;
}

static void put_frame(struct out *o, char tag, const struct gfxstat_frame *f)
{
	out_add(o, "%c %d %.*s pid=%d tok=%lld dtok=%lld jank=%d pres=%d pred=%d janky=%d "
		"exp=%lld..%lld act=%lld..%lld present=%lld desired=%lld app=%.*s vsync=%lld "
		"dur=%lld\n",
		tag, (int)f->source, (int)f->layer.n, f->layer.p, (int)f->pid, (long long)f->token,
		(long long)f->display_token, (int)f->jank_type, (int)f->present_type,
		(int)f->prediction_type, (int)f->janky, (long long)f->expected_start_ns,
		(long long)f->expected_end_ns, (long long)f->actual_start_ns,
		(long long)f->actual_end_ns, (long long)f->present_ns,
		(long long)f->desired_present_ns, (int)f->app.n, f->app.p,
		(long long)f->vsync_period_ns, (long long)f->duration_ns);
}

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct out *o = user;

	put_frame(o, 'F', f);
	return o->stop_after && ++o->calls >= o->stop_after;
}

static int on_incomplete(void *user, const struct gfxstat_frame *f)
{
	put_frame(user, 'I', f);
	return 0;
}

static struct gfxstat_perfetto *dec_new(struct out *o, struct gfxstat_stats *st)
{
	struct gfxstat_perfetto_sink sink = { on_marker, on_frame, on_incomplete, o, NULL,
					       NULL, NULL, 0 };

	return gfxstat_perfetto_new(&sink, st);
}

/* decode @n bytes in one go; the summary is copied to @sum */
static int run(const void *b, size_t n, struct out *o, struct gfxstat_stats *st,
	       struct gfxstat_perfetto_summary *sum)
{
	struct gfxstat_perfetto *p = dec_new(o, st);
	int rc;

	if (!p)
		return GFXSTAT_E_NOMEM;
	rc = gfxstat_perfetto_feed(p, b, n);
	if (!rc)
		rc = gfxstat_perfetto_finish(p);
	*sum = *gfxstat_perfetto_summary(p);
	gfxstat_perfetto_free(p);
	return rc;
}

/* ---- a small trace with everything ---- */

#define NS(s) ((uint64_t)(s) * 1000000000ULL)

static void build_sample(struct pb *t)
{
	struct pb b = { { 0 }, 0 }, pkt = { { 0 }, 0 }, ev = { { 0 }, 0 };
	struct pb snap = { { 0 }, 0 }, clk = { { 0 }, 0 };

	t->n = 0;
	/* ClockSnapshot: MONOTONIC 1000 s = BOOTTIME 1004 s */
	pb_u(&clk, 1, 3);
	pb_u(&clk, 2, NS(1000));
	pb_msg(&snap, 1, &clk);
	clk.n = 0;
	pb_u(&clk, 1, 6);
	pb_u(&clk, 2, NS(1004));
	pb_msg(&snap, 1, &clk);
	pb_u(&snap, 2, 6);
	pb_msg(&pkt, 6, &snap);
	pb_msg(t, 1, &pkt);

	/* ftrace bundle: cpu 3, events out of order, one sched_switch, one bad marker */
	ftrace_print(&b, NS(1005) + 2000, 42, "B|42|draw\n");
	ftrace_print(&b, NS(1005) + 1000, 43, "C|42|VSYNC-app|1");
	pb_u(&ev, 1, NS(1005) + 1500);
	pb_u(&ev, 2, 7);
	pb_bytes(&ev, 4, "\x0a\x01x", 3); /* sched_switch { prev_comm = "x" } */
	pb_msg(&b, 2, &ev);
	ftrace_print(&b, NS(1005) + 3000, 42, "garbage");
	ftrace_print(&b, NS(1005) + 4000, 42, "E|42\n");
	pb_u(&b, 1, 3); /* cpu after the events: still applies to them */
	pkt.n = 0;
	pb_msg(&pkt, 1, &b);
	pb_msg(t, 1, &pkt);

	/* display frame (BOOTTIME packets): expected, its end, actual, its end */
	ev.n = 0;
	pb_u(&ev, 1, 100); /* cookie */
	pb_u(&ev, 2, 7000); /* token */
	pb_u(&ev, 3, 600); /* pid */
	ft_packet(t, NS(1010), 0, 1, &ev);
	ft_end(t, NS(1010) + 16000000, 0, 100);
	ev.n = 0;
	pb_u(&ev, 1, 101);
	pb_u(&ev, 2, 7000);
	pb_u(&ev, 3, 600);
	pb_u(&ev, 4, 1); /* ON_TIME */
	pb_u(&ev, 7, GFXSTAT_JANK_DISPLAY_HAL);
	pb_u(&ev, 8, 1); /* VALID */
	ft_packet(t, NS(1010) + 500, 0, 2, &ev);
	ft_end(t, NS(1010) + 17000000, 0, 101);

	/* surface frame in MONOTONIC (Android 12): +4 s to BOOTTIME */
	ev.n = 0;
	pb_u(&ev, 1, 200);
	pb_u(&ev, 2, 8000);
	pb_u(&ev, 3, 7000);
	pb_u(&ev, 4, 1234);
	pb_str(&ev, 5, "TX - app/Main#1");
	ft_packet(t, NS(1006), 3, 3, &ev);
	ft_end(t, NS(1006) + 10000000, 3, 200);
	ev.n = 0;
	pb_u(&ev, 1, 201);
	pb_u(&ev, 2, 8000);
	pb_u(&ev, 3, 7000);
	pb_u(&ev, 4, 1234);
	pb_str(&ev, 5, "TX - app/Main#1");
	pb_u(&ev, 6, 2); /* LATE */
	pb_u(&ev, 7, 1); /* on_time_finish: skipped */
	pb_bytes(&ev, 13, "\0\0\0\0", 0);
	pb_u(&ev, 9, GFXSTAT_JANK_APP_DEADLINE_MISSED | GFXSTAT_JANK_BUFFER_STUFFING);
	pb_u(&ev, 10, 2); /* EXPIRED */
	ft_packet(t, NS(1006) + 700, 3, 4, &ev);
	ft_end(t, NS(1006) + 12000000, 3, 201);

	/* an actual surface frame that never ends, with no expected frame */
	ev.n = 0;
	pb_u(&ev, 1, 300);
	pb_u(&ev, 2, 9000);
	pb_u(&ev, 3, 7001);
	pb_u(&ev, 4, 1234);
	pb_str(&ev, 5, "TX - app/Main#1");
	pb_u(&ev, 9, GFXSTAT_JANK_NONE);
	ft_packet(t, NS(1020), 0, 4, &ev);
}

/*
 * Markers in time order, then frames in present order (the surface frame presented at
 * 1010.012 s comes before the display frame at 1010.017 s though its FrameEnd came later),
 * then the incomplete one. One display frame gives no vsync spacing: no period. The layer
 * "TX - app/Main#1" names no package (no dot), and no ProcessTree names pid 1234: no app.
 * Durations: 1010.012 - 1010.0000007 s and 1010.017 - 1010.0000005 s.
 */
static const char sample_expect[] =
	"M 1005.000001 1005000001000 43 -1 3 <...> print|C|42|VSYNC-app|1 C VSYNC-app 1\n"
	"M 1005.000002 1005000002000 42 -1 3 <...> print|B|42|draw B draw 0\n"
	"M 1005.000004 1005000004000 42 -1 3 <...> print|E|42 E  0\n"
	"F 2 TX - app/Main#1 pid=1234 tok=8000 dtok=7000 jank=192 pres=2 pred=2 janky=1 "
	"exp=1010000000000..1010010000000 act=1010000000700..1010012000000 "
	"present=1010012000000 desired=-9223372036854775808 app= vsync=-9223372036854775808 "
	"dur=11999300\n"
	"F 3  pid=600 tok=7000 dtok=7000 jank=8 pres=1 pred=1 janky=1 "
	"exp=1010000000000..1010016000000 act=1010000000500..1010017000000 "
	"present=1010017000000 desired=1010016000000 app= vsync=-9223372036854775808 "
	"dur=16999500\n"
	"I 2 TX - app/Main#1 pid=1234 tok=9000 dtok=7001 jank=1 pres=0 pred=0 janky=0 "
	"exp=-9223372036854775808..-9223372036854775808 act=1020000000000..-9223372036854775808 "
	"present=-9223372036854775808 desired=-9223372036854775808 app= "
	"vsync=-9223372036854775808 dur=-9223372036854775808\n";

TEST(sample_fields)
{
	struct pb t;
	struct out o = { { 0 }, 0, 0, 0 };
	struct gfxstat_stats st = { { 0 } };
	struct gfxstat_perfetto_summary s;

	build_sample(&t);
	CHECK_EQ(run(t.b, t.n, &o, &st, &s), 0);
	CHECK_CSTR(o.s, sample_expect);
	CHECK_EQ(s.packets, 11);
	CHECK_EQ(s.bytes, t.n);
	CHECK_EQ(s.ftrace_bundles, 1);
	CHECK_EQ(s.ftrace_events, 5);
	CHECK_EQ(s.print_events, 4);
	CHECK_EQ(s.markers, 3);
	CHECK_EQ(s.clock_snapshots, 1);
	CHECK_EQ(s.trace_clock, GFXSTAT_CLOCK_BOOTTIME);
	CHECK_EQ(s.ft_clock, GFXSTAT_CLOCK_BOOTTIME); /* the last FrameTimeline packet */
	CHECK_EQ(s.clock_converted, 4);
	CHECK_EQ(s.clock_unconverted, 0);
	CHECK_EQ(s.ft_events, 9);
	CHECK_EQ(s.ft_expected_display, 1);
	CHECK_EQ(s.ft_actual_display, 1);
	CHECK_EQ(s.ft_expected_surface, 1);
	CHECK_EQ(s.ft_actual_surface, 2);
	CHECK_EQ(s.ft_frame_end, 4);
	CHECK_EQ(s.frames_surface, 1);
	CHECK_EQ(s.frames_display, 1);
	CHECK_EQ(s.janky_surface, 1);
	CHECK_EQ(s.janky_display, 1);
	CHECK_EQ(s.incomplete, 1);
	CHECK_EQ(s.no_expected, 0);
	CHECK_EQ(s.malformed + s.truncated + s.broken + s.end_unmatched, 0);
	CHECK_EQ(st.v[GFXSTAT_STAT_bytes], t.n);
	CHECK_EQ(st.v[GFXSTAT_STAT_events], 5);
	CHECK_EQ(st.v[GFXSTAT_STAT_marker_events], 4);
	CHECK_EQ(st.v[GFXSTAT_STAT_other_events], 1);
	CHECK_EQ(st.v[GFXSTAT_STAT_marker_malformed], 1);
}

/* Truncated at every byte: never a crash, the cut counted unless it falls between packets. */
TEST(truncated_every_byte)
{
	struct pb t;
	size_t k, bounds[64], nb = 0;
	struct gx_pb r;
	struct gx_pb_field f;
	int bad = 0;

	build_sample(&t);
	gx_pb_init(&r, t.b, t.n);
	bounds[nb++] = 0;
	while (gx_pb_next(&r, &f) == GX_PB_FIELD && nb < 64)
		bounds[nb++] = (size_t)(r.p - t.b);
	for (k = 0; k <= t.n; k++) {
		struct out o = { { 0 }, 0, 0, 0 };
		struct gfxstat_stats st = { { 0 } };
		struct gfxstat_perfetto_summary s;
		uint8_t *copy = malloc(k ? k : 1);
		size_t i;
		int at_bound = 0;

		memcpy(copy, t.b, k);
		for (i = 0; i < nb; i++)
			at_bound |= bounds[i] == k;
		if (run(copy, k, &o, &st, &s) != 0 || s.truncated != (uint64_t)!at_bound ||
		    s.broken || s.malformed)
			bad++;
		free(copy);
	}
	CHECK_EQ(bad, 0);
}

/* The same output whatever the chunking: two-way splits everywhere, then one byte at a time. */
TEST(chunked_every_split)
{
	struct pb t;
	struct out whole = { { 0 }, 0, 0, 0 };
	struct gfxstat_stats st0 = { { 0 } };
	struct gfxstat_perfetto_summary s0;
	size_t k, j;
	int bad = 0;

	build_sample(&t);
	run(t.b, t.n, &whole, &st0, &s0);
	for (k = 0; k <= t.n; k++) {
		for (j = k; j <= t.n; j += (j < k + 3 ? 1 : 97)) {
			struct out o = { { 0 }, 0, 0, 0 };
			struct gfxstat_stats st = { { 0 } };
			struct gfxstat_perfetto *p = dec_new(&o, &st);

			gfxstat_perfetto_feed(p, t.b, k);
			gfxstat_perfetto_feed(p, t.b + k, j - k);
			gfxstat_perfetto_feed(p, t.b + j, t.n - j);
			gfxstat_perfetto_finish(p);
			if (strcmp(o.s, whole.s) != 0 ||
			    memcmp(&st, &st0, sizeof(st)) != 0 ||
			    memcmp(gfxstat_perfetto_summary(p), &s0, sizeof(s0)) != 0)
				bad++;
			gfxstat_perfetto_free(p);
		}
	}
	{
		struct out o = { { 0 }, 0, 0, 0 };
		struct gfxstat_perfetto *p = dec_new(&o, NULL);

		for (k = 0; k < t.n; k++)
			gfxstat_perfetto_feed(p, t.b + k, 1);
		gfxstat_perfetto_finish(p);
		CHECK_CSTR(o.s, whole.s);
		gfxstat_perfetto_free(p);
	}
	CHECK_EQ(bad, 0);
}

/* The sample again, wrapped in compressed_packets: the same output. */
TEST(compressed_packets)
{
	struct pb t, c = { { 0 }, 0 }, pkt = { { 0 }, 0 }, nest = { { 0 }, 0 };
	struct out o = { { 0 }, 0, 0, 0 }, o2 = { { 0 }, 0, 0, 0 };
	struct gfxstat_perfetto_summary s;
	uLongf zn = sizeof(c.b);
	uint8_t z[8192];

	build_sample(&t);
	CHECK_EQ(compress2(z, &zn, t.b, t.n, 6), Z_OK);
	pb_u(&pkt, 10, 1); /* trusted_packet_sequence_id */
	pb_bytes(&pkt, 50, z, zn);
	pb_msg(&c, 1, &pkt);
	CHECK_EQ(run(c.b, c.n, &o, NULL, &s), 0);
	CHECK_CSTR(o.s, sample_expect);
	CHECK_EQ(s.compressed, 1);
	CHECK_EQ(s.compressed_bytes, t.n);
	CHECK_EQ(s.packets, 12);

	/* corrupt: counted, and the next packet still decodes */
	z[zn / 2] ^= 0x55;
	c.n = 0;
	pkt.n = 0;
	pb_bytes(&pkt, 50, z, zn);
	pb_msg(&c, 1, &pkt);
	pb_msg(&c, 1, &pkt);
	CHECK_EQ(run(c.b, c.n, &o2, NULL, &s), 0);
	CHECK_EQ(s.inflate_failed + s.malformed >= 2, 1);
	CHECK_EQ(s.broken, 0);

	/* compressed inside compressed: one level only */
	z[zn / 2] ^= 0x55;
	c.n = 0;
	pkt.n = 0;
	pb_bytes(&pkt, 50, z, zn);
	pb_msg(&nest, 1, &pkt);
	zn = sizeof(z);
	CHECK_EQ(compress2(z, &zn, nest.b, nest.n, 6), Z_OK);
	pkt.n = 0;
	pb_bytes(&pkt, 50, z, zn);
	pb_msg(&c, 1, &pkt);
	o2.n = 0;
	o2.s[0] = 0;
	CHECK_EQ(run(c.b, c.n, &o2, NULL, &s), 0);
	CHECK_EQ(s.nested_compressed, 1);
	CHECK_EQ(s.frames_surface + s.frames_display, 0);
}

TEST(limits)
{
	struct pb t;
	struct out o = { { 0 }, 0, 0, 0 };
	struct gfxstat_perfetto *p = dec_new(&o, NULL);
	struct gfxstat_perfetto_limits l;
	const struct gfxstat_perfetto_summary *s;
	struct pb ev = { { 0 }, 0 };
	int i;

	/* every packet of the sample but the ftrace bundle fits in 60 bytes */
	build_sample(&t);
	memset(&l, 0, sizeof(l));
	l.max_packet = 60;
	l.max_layer = 6;
	CHECK_EQ(gfxstat_perfetto_set_limits(p, &l), 0);
	gfxstat_perfetto_feed(p, t.b, t.n);
	gfxstat_perfetto_finish(p);
	s = gfxstat_perfetto_summary(p);
	CHECK_EQ(s->packet_too_big, 1);
	CHECK_EQ(s->packets, 10);
	CHECK_EQ(s->print_events, 0);
	CHECK_EQ(s->frames_surface, 1);
	CHECK_EQ(s->layer_cut, 3);
	CHECK_EQ(strstr(o.s, "F 2 TX - a pid=1234") != NULL, 1);
	CHECK_EQ(gfxstat_perfetto_set_limits(p, &l), GFXSTAT_E_INVAL); /* after feeding */
	gfxstat_perfetto_free(p);

	/* max_open 4: a fifth open actual frame pushes out the first */
	o.n = 0;
	o.s[0] = 0;
	p = dec_new(&o, NULL);
	l.max_packet = 0;
	l.max_layer = 0;
	l.max_open = 4;
	CHECK_EQ(gfxstat_perfetto_set_limits(p, &l), 0);
	t.n = 0;
	for (i = 0; i < 5; i++) {
		ev.n = 0;
		pb_u(&ev, 1, 10 + i);
		pb_u(&ev, 2, 500 + i);
		pb_u(&ev, 3, 600);
		ft_packet(&t, NS(1) + i, 0, 2, &ev);
	}
	ft_end(&t, NS(2), 0, 10); /* evicted: unmatched */
	ft_end(&t, NS(2), 0, 14);
	ft_end(&t, NS(2), 0, 99); /* never started */
	gfxstat_perfetto_feed(p, t.b, t.n);
	gfxstat_perfetto_finish(p);
	s = gfxstat_perfetto_summary(p);
	CHECK_EQ(s->evicted, 1);
	CHECK_EQ(s->end_unmatched, 2);
	CHECK_EQ(s->frames_display, 1);
	CHECK_EQ(s->no_expected, 1);
	CHECK_EQ(s->incomplete, 3);
	gfxstat_perfetto_free(p);
}

TEST(bad_input)
{
	struct out o = { { 0 }, 0, 0, 0 };
	struct gfxstat_perfetto_summary s;
	struct pb t = { { 0 }, 0 }, pkt = { { 0 }, 0 }, ev = { { 0 }, 0 };
	static const uint8_t group[] = { 0x0b, 0x0a, 0x00 }; /* field 1, wire type 3 */
	static const uint8_t not_pb[] = "Applications Graphics Acceleration Info:\n";

	CHECK_EQ(run(group, sizeof(group), &o, NULL, &s), 0);
	CHECK_EQ(s.broken, 1);
	CHECK_EQ(s.packets, 0);
	{
		/* a bad header split across chunks: broken, not also truncated (fuzz seed) */
		static const uint8_t two[] = { 0x0a, 0x00, 0x83, 0x01 }; /* field 16, group */
		struct gfxstat_perfetto *p = dec_new(&o, NULL);

		gfxstat_perfetto_feed(p, two, 3);
		gfxstat_perfetto_feed(p, two + 3, 1);
		gfxstat_perfetto_finish(p);
		CHECK_EQ(gfxstat_perfetto_summary(p)->broken, 1);
		CHECK_EQ(gfxstat_perfetto_summary(p)->truncated, 0);
		CHECK_EQ(gfxstat_perfetto_summary(p)->packets, 1);
		gfxstat_perfetto_free(p);
	}
	CHECK_EQ(run(not_pb, sizeof(not_pb) - 1, &o, NULL, &s), 0);
	CHECK_EQ(s.broken + s.truncated >= 1, 1);

	/* a packet whose inside is a group: counted as malformed, the next one decodes */
	pb_bytes(&t, 1, "\x0b\x0c", 2);
	pb_u(&t, 2, 5);                   /* an unknown top-level varint: skipped */
	pb_bytes(&t, 3, "xyz", 3);        /* unknown top-level bytes: skipped */
	pb_varint(&t, 4 << 3 | 1);        /* unknown fixed64 */
	memcpy(t.b + t.n, "\0\0\0\0\0\0\0\0", 8);
	t.n += 8;
	pb_varint(&t, 5 << 3 | 5);        /* unknown fixed32 */
	memcpy(t.b + t.n, "\0\0\0\0", 4);
	t.n += 4;
	/* FrameTimeline events without a cookie, and with a bad timestamp */
	pb_u(&ev, 2, 1);
	pb_u(&ev, 3, 1);
	ft_packet(&t, NS(1), 0, 1, &ev);
	pb_u(&ev, 1, 1);
	ft_packet(&t, (uint64_t)INT64_MAX - 5, 0, 1, &ev);
	/* MONOTONIC with no snapshot: kept as is, counted */
	ft_packet(&t, NS(1), 3, 1, &ev);
	pkt.n = 0;
	pb_u(&pkt, 8, 1);
	pb_msg(&t, 1, &pkt);
	CHECK_EQ(run(t.b, t.n, &o, NULL, &s), 0);
	CHECK_EQ(s.malformed, 1);
	CHECK_EQ(s.packets, 5);
	CHECK_EQ(s.invalid_events, 1);
	CHECK_EQ(s.bad_timestamp, 1);
	CHECK_EQ(s.clock_unconverted, 1);
	CHECK_EQ(s.broken + s.truncated, 0);
}

TEST(callback_stops)
{
	struct pb t;
	struct out o = { { 0 }, 0, 2, 0 };
	struct gfxstat_perfetto *p = dec_new(&o, NULL);

	/* nothing is delivered before finish; a stop there is sticky */
	build_sample(&t);
	CHECK_EQ(gfxstat_perfetto_feed(p, t.b, t.n), 0);
	CHECK_EQ(o.calls, 0);
	CHECK_EQ(gfxstat_perfetto_finish(p), GFXSTAT_E_ABORTED);
	CHECK_EQ(gfxstat_perfetto_feed(p, t.b, t.n), GFXSTAT_E_ABORTED);
	CHECK_EQ(gfxstat_perfetto_finish(p), GFXSTAT_E_ABORTED);
	CHECK_EQ(o.calls, 2);
	gfxstat_perfetto_free(p);
	gfxstat_perfetto_free(NULL);
}

TEST(wire_reader)
{
	static const uint8_t max64[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
	static const uint8_t over[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02 };
	static const uint8_t eleven[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
					  0x80, 0x00 };
	const uint8_t *q;
	uint64_t v;
	struct gx_pb r;
	struct gx_pb_field f;

	q = max64;
	CHECK_EQ(gx_pb_varint(&q, max64 + sizeof(max64), &v), GX_PB_FIELD);
	CHECK_EQ(v == UINT64_MAX, 1);
	CHECK_EQ(q == max64 + 10, 1);
	q = over;
	CHECK_EQ(gx_pb_varint(&q, over + sizeof(over), &v), GX_PB_MALFORMED);
	CHECK_EQ(q == over, 1);
	q = eleven;
	CHECK_EQ(gx_pb_varint(&q, eleven + sizeof(eleven), &v), GX_PB_MALFORMED);
	q = max64;
	CHECK_EQ(gx_pb_varint(&q, max64 + 5, &v), GX_PB_SHORT);
	gx_pb_init(&r, "\x08\x96\x01\x11" "12345678\x1a\x02hi\x25" "abcd", 21);
	CHECK_EQ(gx_pb_next(&r, &f), GX_PB_FIELD);
	CHECK_EQ(f.num, 1);
	CHECK_EQ(f.v, 150);
	CHECK_EQ(gx_pb_next(&r, &f), GX_PB_FIELD);
	CHECK_EQ(f.wire, GX_PB_FIXED64);
	CHECK_EQ(gx_pb_next(&r, &f), GX_PB_FIELD);
	CHECK_EQ(f.num, 3);
	CHECK_EQ(f.len, 2);
	CHECK_EQ(memcmp(f.data, "hi", 2), 0);
	CHECK_EQ(gx_pb_next(&r, &f), GX_PB_FIELD);
	CHECK_EQ(f.wire, GX_PB_FIXED32);
	CHECK_EQ(gx_pb_next(&r, &f), GX_PB_END);
	gx_pb_init(&r, "\x1a\x05hi", 4); /* length past the end */
	CHECK_EQ(gx_pb_next(&r, &f), GX_PB_MALFORMED);
	gx_pb_init(&r, "\x00\x01", 2); /* field 0 */
	CHECK_EQ(gx_pb_next(&r, &f), GX_PB_MALFORMED);
	gx_pb_init(&r, "\x0c", 1); /* end group */
	CHECK_EQ(gx_pb_next(&r, &f), GX_PB_MALFORMED);
	gx_pb_init(&r, "\x0e\x00", 2); /* wire type 6 */
	CHECK_EQ(gx_pb_next(&r, &f), GX_PB_MALFORMED);
	gx_pb_init(&r, NULL, 0);
	CHECK_EQ(gx_pb_next(&r, &f), GX_PB_END);
}

TEST(names)
{
	char b[256];

	CHECK_EQ(gfxstat_perfetto_jank_type_str(0, b, sizeof(b)), 11);
	CHECK_CSTR(b, "Unspecified");
	gfxstat_perfetto_jank_type_str(1, b, sizeof(b));
	CHECK_CSTR(b, "None");
	gfxstat_perfetto_jank_type_str(0xC0, b, sizeof(b));
	CHECK_CSTR(b, "App Deadline Missed, Buffer Stuffing");
	gfxstat_perfetto_jank_type_str(0x1000 | 0x400 | 0x2, b, sizeof(b));
	CHECK_CSTR(b, "SurfaceFlinger Scheduling, App Resynced Jitter, Dropped Frame");
	CHECK_EQ(gfxstat_perfetto_jank_type_str(0xC0, b, 5), 36);
	CHECK_CSTR(b, "");
	CHECK_CSTR(gfxstat_perfetto_present_type_name(2), "Late Present");
	CHECK_CSTR(gfxstat_perfetto_present_type_name(4), "Dropped Frame");
	CHECK_CSTR(gfxstat_perfetto_present_type_name(9), "Unspecified Present");
	CHECK_CSTR(gfxstat_perfetto_prediction_type_name(2), "Expired Prediction");
	CHECK_CSTR(gfxstat_perfetto_clock_name(3), "MONOTONIC");
	CHECK_CSTR(gfxstat_perfetto_clock_name(6), "BOOTTIME");
}

/* ---- ordering, processes, packages, build, refresh period ---- */

/* TracePacket { ftrace_events = 1 { cpu = 1, event... } } from a bundle's events */
static void bundle_packet(struct pb *t, uint32_t cpu, const struct pb *events)
{
	struct pb b = { { 0 }, 0 }, pkt = { { 0 }, 0 };

	pb_u(&b, 1, cpu);
	memcpy(b.b + b.n, events->b, events->n);
	b.n += events->n;
	pb_msg(&pkt, 1, &b);
	pb_msg(t, 1, &pkt);
}

/* Two CPUs' bundles overlap in time, as in a real file: markers come out in time order. */
TEST(markers_sorted_across_bundles)
{
	struct pb t = { { 0 }, 0 }, e = { { 0 }, 0 };
	struct out o = { { 0 }, 0, 0, 0 };
	struct gfxstat_perfetto_summary s;

	/* cpu 0: t = 10, 30 µs; cpu 1 (later in the file): 20, 5, and 30 again */
	ftrace_print(&e, 10000, 1, "C|1|a|1");
	ftrace_print(&e, 30000, 1, "C|1|b|2");
	bundle_packet(&t, 0, &e);
	e.n = 0;
	ftrace_print(&e, 20000, 2, "C|2|c|3");
	ftrace_print(&e, 5000, 2, "C|2|d|4");
	ftrace_print(&e, 30000, 2, "C|2|e|5");
	bundle_packet(&t, 1, &e);
	CHECK_EQ(run(t.b, t.n, &o, NULL, &s), 0);
	/* 5 (cpu 1), 10 (cpu 0), 20 (cpu 1), then the two at 30 in file order: b, e */
	CHECK_CSTR(o.s, "M 0.000005 5000 2 -1 1 <...> print|C|2|d|4 C d 4\n"
			"M 0.000010 10000 1 -1 0 <...> print|C|1|a|1 C a 1\n"
			"M 0.000020 20000 2 -1 1 <...> print|C|2|c|3 C c 3\n"
			"M 0.000030 30000 1 -1 0 <...> print|C|1|b|2 C b 2\n"
			"M 0.000030 30000 2 -1 1 <...> print|C|2|e|5 C e 5\n");
	CHECK_EQ(s.markers, 5);
}

/* A marker's time text ("%lld.%06lld" of its ns, the µs truncated) when the second changes
 * between markers, on the plain path (B, E) and on the counters' (C). */
TEST(markers_time_text_across_seconds)
{
	struct pb t = { { 0 }, 0 }, e = { { 0 }, 0 };
	struct out o = { { 0 }, 0, 0, 0 };
	struct gfxstat_perfetto_summary s;

	ftrace_print(&e, 999999999, 1, "B|1|a");
	ftrace_print(&e, 1000000000, 1, "E|1");
	ftrace_print(&e, 2000001999, 1, "C|1|c|7");
	ftrace_print(&e, 2000002000, 1, "B|1|d");
	ftrace_print(&e, 12345678901234, 1, "E|1");
	bundle_packet(&t, 0, &e);
	CHECK_EQ(run(t.b, t.n, &o, NULL, &s), 0);
	/* 999999999 ns: 0 s and 999999 µs; 1000000000: 1 s, 0 µs; 2000001999: 2 s, 1 µs (the
	 * 999 ns dropped); 2000002000: 2 s, 2 µs, the second kept from the counter before;
	 * 12345678901234: 12345 s, 678901 µs */
	CHECK_CSTR(o.s, "M 0.999999 999999999 1 -1 0 <...> print|B|1|a B a 0\n"
			"M 1.000000 1000000000 1 -1 0 <...> print|E|1 E  0\n"
			"M 2.000001 2000001999 1 -1 0 <...> print|C|1|c|7 C c 7\n"
			"M 2.000002 2000002000 1 -1 0 <...> print|B|1|d B d 0\n"
			"M 12345.678901 12345678901234 1 -1 0 <...> print|E|1 E  0\n");
	CHECK_EQ(s.markers, 5);
}

/* One expected + actual surface frame of @pid on @layer, token @tok, in display frame @dtok */
static void surface_frame(struct pb *t, uint64_t cookie, int64_t tok, int64_t dtok, int pid,
			  const char *layer, uint64_t start, uint64_t end)
{
	struct pb ev = { { 0 }, 0 };
	int k;

	for (k = 0; k < 2; k++) {
		ev.n = 0;
		pb_u(&ev, 1, cookie + (uint64_t)k);
		pb_u(&ev, 2, (uint64_t)tok);
		pb_u(&ev, 3, (uint64_t)dtok);
		pb_u(&ev, 4, (uint64_t)pid);
		pb_str(&ev, 5, layer);
		if (k)
			pb_u(&ev, 9, GFXSTAT_JANK_NONE);
		ft_packet(t, start, 0, k ? 4 : 3, &ev);
		ft_end(t, end, 0, cookie + (uint64_t)k);
	}
}

/* One expected (@es..@ee) and actual (@as..@ae) display frame, token @tok */
static void display_frame(struct pb *t, uint64_t cookie, int64_t tok, uint64_t es, uint64_t ee,
			  uint64_t as, uint64_t ae)
{
	struct pb ev = { { 0 }, 0 };

	pb_u(&ev, 1, cookie);
	pb_u(&ev, 2, (uint64_t)tok);
	pb_u(&ev, 3, 600);
	ft_packet(t, es, 0, 1, &ev);
	ft_end(t, ee, 0, cookie);
	ev.n = 0;
	pb_u(&ev, 1, cookie + 1);
	pb_u(&ev, 2, (uint64_t)tok);
	pb_u(&ev, 3, 600);
	pb_u(&ev, 7, GFXSTAT_JANK_NONE);
	ft_packet(t, as, 0, 2, &ev);
	ft_end(t, ae, 0, cookie + 1);
}

static void process(struct pb *tree, int pid, int uid, const char *cmdline)
{
	struct pb pr = { { 0 }, 0 };

	pb_u(&pr, 1, (uint64_t)pid);
	pb_u(&pr, 2, 1); /* ppid: skipped */
	pb_str(&pr, 3, cmdline);
	pb_str(&pr, 3, "--flag"); /* argv[1]: not the name */
	if (uid >= 0)
		pb_u(&pr, 5, (uint64_t)uid);
	pb_msg(tree, 1, &pr);
}

static void package(struct pb *list, const char *name, uint64_t uid)
{
	struct pb pk = { { 0 }, 0 };

	pb_str(&pk, 1, name);
	pb_u(&pk, 2, uid);
	pb_u(&pk, 5, 42); /* version_code: skipped */
	pb_msg(list, 1, &pk);
}

static int on_process(void *user, int32_t pid, struct gfxstat_str name)
{
	out_add(user, "P %d %.*s\n", (int)pid, (int)name.n, name.p);
	return 0;
}

/* Apps from ProcessTree + PackagesList, else from the layer name; the markers go out as the
 * trace is fed (here at finish: one CPU's bundle is held until no other CPU can precede it),
 * then the processes, then the frames. */
TEST(process_and_package_names)
{
	struct pb t = { { 0 }, 0 }, tree = { { 0 }, 0 }, list = { { 0 }, 0 };
	struct pb pkt = { { 0 }, 0 }, e = { { 0 }, 0 };
	struct out o = { { 0 }, 0, 0, 0 };
	struct gfxstat_perfetto_sink sink = { on_marker, on_frame, on_incomplete, &o,
					       on_process, NULL, NULL, 0 };
	struct gfxstat_perfetto *p;
	const struct gfxstat_perfetto_summary *s;
	struct gfxstat_str a;
	static const char procs[] =
		"P 1234 com.app:svc\nP 2000 com.google.android.gms.ui\n"
		"P 3000 /system/bin/surfaceflinger\nP 4000 com.late\n"
		"P 5000 org.unlisted.app\n";

	/* frames come before the process tree in the file: names still apply */
	surface_frame(&t, 10, 1, 100, 1234, "TX - Splash Screen com.x#2", NS(1), NS(1) + 500);
	surface_frame(&t, 20, 2, 100, 2000, "TX - b#3", NS(1), NS(1) + 400);
	surface_frame(&t, 30, 3, 100, 3000, "TX - com.x/com.x.Main#4", NS(1), NS(1) + 300);
	surface_frame(&t, 40, 4, 100, 4000, "TX - d#5", NS(1), NS(1) + 200);
	surface_frame(&t, 50, 5, 100, 5000, "TX - e#6", NS(1), NS(1) + 100);
	ftrace_print(&e, NS(1), 1234, "B|1234|draw");
	bundle_packet(&t, 0, &e);
	process(&tree, 1234, 1010123, "com.app:svc");   /* user 10: uid % 100000 = 10123 */
	process(&tree, 2000, 10050, "com.google.android.gms.ui");
	process(&tree, 3000, 1000, "/system/bin/surfaceflinger");
	process(&tree, 4000, 10077, "<pre-initialized>"); /* then named: the name wins */
	process(&tree, 5000, 10099, "org.unlisted.app");
	pb_msg(&pkt, 2, &tree);
	pb_msg(&t, 1, &pkt);
	tree.n = 0;
	process(&tree, 4000, 10077, "com.late");
	pkt.n = 0;
	pb_msg(&pkt, 2, &tree);
	pb_msg(&t, 1, &pkt);
	package(&list, "com.app", 10123);
	package(&list, "com.google.android.gsf", 10050); /* shared uid: the name decides */
	package(&list, "com.google.android.gms", 10050);
	package(&list, "com.late", 10077);
	pkt.n = 0;
	pb_msg(&pkt, 47, &list);
	pb_msg(&t, 1, &pkt);

	p = gfxstat_perfetto_new(&sink, NULL);
	CHECK_EQ(gfxstat_perfetto_feed(p, t.b, t.n), 0);
	CHECK_EQ(o.n, 0);
	CHECK_EQ(gfxstat_perfetto_finish(p), 0);
	/* the marker; pid order, the newest name of pid 4000; then frames by present */
	CHECK_EQ(strncmp(o.s, "M 1.000000 ", 11), 0);
	CHECK(strchr(o.s, '\n') && strncmp(strchr(o.s, '\n') + 1, procs, strlen(procs)) == 0);
	/* 1234: "com.app" listed; 2000: listed package of its uid the name extends;
	 * 3000: not a package, the layer's "com.x"; 4000: listed; 5000: not listed, but a
	 * package name; the frames come by present time, 5000 first */
	CHECK_EQ(strstr(o.s, "pid=5000 tok=5") < strstr(o.s, "pid=4000 tok=4"), 1);
	CHECK_EQ(strstr(o.s, "pid=2000 tok=2") < strstr(o.s, "pid=1234 tok=1"), 1);
	CHECK_EQ(strstr(o.s, "app=com.app vsync") != NULL, 1);
	CHECK_EQ(strstr(o.s, "app=com.google.android.gms vsync") != NULL, 1);
	CHECK_EQ(strstr(o.s, "app=com.x vsync") != NULL, 1);
	CHECK_EQ(strstr(o.s, "app=com.late vsync") != NULL, 1);
	CHECK_EQ(strstr(o.s, "app=org.unlisted.app vsync") != NULL, 1);
	a = gfxstat_perfetto_app(p, 3000);
	CHECK_EQ(a.n, 0);
	a = gfxstat_perfetto_app(p, 1234);
	CHECK_EQ(a.n == 7 && !memcmp(a.p, "com.app", 7), 1);
	CHECK_EQ(gfxstat_perfetto_app(p, 999).n, 0);
	s = gfxstat_perfetto_summary(p);
	CHECK_EQ(s->processes, 5);
	CHECK_EQ(s->packages, 4);
	CHECK_EQ(s->frames_surface, 5);
	CHECK_EQ(s->frames_app, 5);
	gfxstat_perfetto_free(p);
}

/* The held frames name their layer by an index in the interned names: frames of one layer,
 * far apart, of another in between, and a tie in present time all keep their own layer.
 * By hand: presents are the FrameEnds, 1 s + 300 ns (tok 1, "a#1"), 1 s + 300 ns (tok 2,
 * "bb#2", a tie: after tok 1, which came first), 1 s + 100 ns (tok 3, "a#1"); so the order is
 * tok 3, 1, 2 with layers a#1, a#1, bb#2. Source 2 = GFXSTAT_SRC_FRAMETIMELINE. */
TEST(layers_interned)
{
	struct pb t = { { 0 }, 0 };
	struct out o = { { 0 }, 0, 0, 0 };
	struct gfxstat_perfetto_sink sink = { NULL,	 on_frame, on_incomplete, &o,
					      NULL,	 NULL,	   NULL,	  0 };
	struct gfxstat_perfetto *p;
	const char *a, *b, *c;

	surface_frame(&t, 10, 1, 100, 7, "a#1", NS(1), NS(1) + 300);
	surface_frame(&t, 20, 2, 100, 7, "bb#2", NS(1), NS(1) + 300);
	surface_frame(&t, 30, 3, 100, 7, "a#1", NS(1), NS(1) + 100);
	p = gfxstat_perfetto_new(&sink, NULL);
	CHECK_EQ(gfxstat_perfetto_feed(p, t.b, t.n), 0);
	CHECK_EQ(gfxstat_perfetto_finish(p), 0);
	a = strstr(o.s, "F 2 a#1 pid=7 tok=3 ");
	b = strstr(o.s, "F 2 a#1 pid=7 tok=1 ");
	c = strstr(o.s, "F 2 bb#2 pid=7 tok=2 ");
	CHECK(a && b && c);
	CHECK(a < b && b < c);
	CHECK_EQ(gfxstat_perfetto_summary(p)->frames_surface, 3);
	gfxstat_perfetto_free(p);
}

/* SystemInfo: the fingerprint, its release, and the SDK level. */
TEST(build_string)
{
	struct pb t = { { 0 }, 0 }, si = { { 0 }, 0 }, uts = { { 0 }, 0 }, pkt = { { 0 }, 0 };
	struct out o = { { 0 }, 0, 0, 0 };
	struct gfxstat_perfetto_summary s;
	char longfp[400];

	pb_str(&uts, 1, "Linux");
	pb_msg(&si, 1, &uts);
	pb_str(&si, 2, "google/bluejay/bluejay:13/TQ1A.220812.001.A1/8972963:userdebug/dev-keys");
	pb_u(&si, 5, 33);
	pb_msg(&pkt, 45, &si);
	pb_msg(&t, 1, &pkt);
	CHECK_EQ(run(t.b, t.n, &o, NULL, &s), 0);
	CHECK_CSTR(s.build, "google/bluejay/bluejay:13/TQ1A.220812.001.A1/8972963:userdebug/dev-keys");
	CHECK_CSTR(s.release, "13");
	CHECK_EQ(s.sdk, 33);

	/* Android 12 has no android_sdk_version; an overlong fingerprint is cut, still a string */
	memset(longfp, 'x', sizeof(longfp));
	memcpy(longfp, "a/b/c:12/", 9);
	t.n = si.n = pkt.n = 0;
	pb_bytes(&si, 2, longfp, sizeof(longfp));
	pb_msg(&pkt, 45, &si);
	pb_msg(&t, 1, &pkt);
	CHECK_EQ(run(t.b, t.n, &o, NULL, &s), 0);
	CHECK_EQ(strlen(s.build), GFXSTAT_PERFETTO_MAX_BUILD - 1);
	CHECK_CSTR(s.release, "12");
	CHECK_EQ(s.sdk, 0);

	/* no SystemInfo */
	t.n = 0;
	ft_end(&t, NS(1), 0, 1);
	CHECK_EQ(run(t.b, t.n, &o, NULL, &s), 0);
	CHECK_CSTR(s.build, "");
	CHECK_CSTR(s.release, "");
}

/*
 * The refresh period from the spacing of the expected presents, not from the length of the
 * expected slice (SurfaceFlinger's work duration). Display frames at 120 Hz whose expected
 * slices last 10.5 ms, expected presents at 0, 8333333, 16666666, 41666666 (two vsyncs
 * skipped) ns after 10 s; gaps 8333333, 8333333, 25000000: the shortest cluster is
 * {8333333, 8333333}, mean 8333333.
 */
TEST(vsync_from_expected_presents)
{
	struct pb t = { { 0 }, 0 };
	struct out o = { { 0 }, 0, 0, 0 };
	struct gfxstat_perfetto_summary s;
	static const uint64_t ee[4] = { 0, 8333333, 16666666, 41666666 };
	const char *f;
	int i, n = 0;

	for (i = 0; i < 4; i++) {
		uint64_t end = NS(10) + ee[i];

		display_frame(&t, 100 + 10 * (uint64_t)i, 70 + i, end - 10500000, end,
			      end - 10000000, end + 100000);
	}
	/* presented in display frame 71, from 5 ms before it to its present */
	surface_frame(&t, 500, 900, 71, 1234, "TX - com.a/com.a.M#1", NS(10) + 3333333,
		      NS(10) + 8433333);
	CHECK_EQ(run(t.b, t.n, &o, NULL, &s), 0);
	CHECK_EQ(s.frames_display, 4);
	for (f = o.s; (f = strstr(f, "vsync=8333333 ")) != NULL; f++)
		n++;
	CHECK_EQ(n, 5);
	/* duration: actual end - actual start = 8433333 - 3333333 */
	CHECK_EQ(strstr(o.s, "tok=900 dtok=71") != NULL, 1);
	CHECK_EQ(strstr(o.s, "app=com.a vsync=8333333 dur=5100000\n") != NULL, 1);
	/* display frames: 10.1 ms each, none says 10.5 ms */
	CHECK_EQ(strstr(o.s, "vsync=10500000") == NULL, 1);
	CHECK_EQ(strstr(o.s, "dur=10100000") != NULL, 1);
}

TEST_SUITE(test_perfetto)
{
	RUN(wire_reader);
	RUN(names);
	RUN(sample_fields);
	RUN(truncated_every_byte);
	RUN(chunked_every_split);
	RUN(compressed_packets);
	RUN(limits);
	RUN(bad_input);
	RUN(callback_stops);
	RUN(markers_sorted_across_bundles);
	RUN(markers_time_text_across_seconds);
	RUN(process_and_package_names);
	RUN(layers_interned);
	RUN(build_string);
	RUN(vsync_from_expected_presents);
}
