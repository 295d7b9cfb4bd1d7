/* SPDX-License-Identifier: MIT */
/*
 * perfetto_repeat: write a large Perfetto trace made of one real trace N times over, each
 * copy shifted in time so that the result stays a valid trace in time order. For make bench.
 *   perfetto_repeat N IN OUT
 * prints one line of "key=value" pairs: copies, bytes, packets, events (ftrace events,
 * compact_sched switches and wakings included), span_ns (the shift between two copies),
 * first_ns and last_ns (the trace clock range of the output).
 *
 * A trace is a sequence of `Trace.packet = 1` fields, so concatenating copies is valid; what
 * must change from copy to copy (k = 0 .. N-1) is every timestamp, by k * span_ns, where
 * span_ns is the copy's time range rounded up to whole milliseconds plus one:
 *   TracePacket.timestamp = 8 (whatever its timestamp_clock_id = 58: every clock moves alike)
 *   ClockSnapshot (TracePacket 6).clocks = 1 .timestamp = 2 (every clock)
 *   FtraceEventBundle (TracePacket 1): event = 2 .timestamp = 1; ftrace_timestamp = 6,
 *     boot_timestamp = 7; compact_sched = 4: switch_timestamp = 1 and waking_timestamp = 7,
 *     delta encoded, so only the first value of each bundle
 *   PowerRails (TracePacket 40).energy_data = 2 .timestamp_ms = 2 (milliseconds)
 * and the FrameTimeline identifiers, so that copies do not reuse them (FrameTimelineEvent,
 * TracePacket 76): every start's cookie = 1 and token = 2, a surface start's
 * display_frame_token = 3, FrameEnd's cookie = 1, each moved by k times (its largest value
 * + 1). Field numbers are google/perfetto's protos (trace_packet.proto, clock_snapshot.proto,
 * ftrace_event_bundle.proto, ftrace_event.proto, power_rails.proto, frame_timeline_event
 * in frameworks/native), as docs/perfetto.md lists them.
 * Packets that a trace has once (trace_config = 33, ftrace_stats = 34, trace_stats = 35,
 * system_info = 45, service_event = 69, ui_state = 78) are kept in the first copy only, and
 * previous_packet_dropped = 42 is removed from the later copies (no data was lost).
 * compressed_packets = 50 and zstd_compressed_packets = 133 cannot be shifted without
 * inflating them: they are counted, copied as they are and named on stderr (api32 has none).
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum wire { W_VARINT = 0, W_I64 = 1, W_LEN = 2, W_I32 = 5 };

struct field {
	uint32_t num;
	int wire;
	uint64_t v;		/* varint value */
	const uint8_t *p;	/* LEN payload, or the fixed bytes */
	size_t n;
	const uint8_t *start;	/* the whole field, tag included */
	size_t total;
};


struct shift {
	int k;			/* copy number */
	int64_t ns;		/* time shift of this copy */
	uint64_t cookie, token;	/* FrameTimeline offsets of this copy */
};

struct scan {			/* pass 1: time range and identifier maxima of the input */
	int64_t lo, hi;
	uint64_t cookie_max, token_max;
	uint64_t packets, events, compressed;
};

#include "pb_out.h"

static void die(const char *msg)
{
	fprintf(stderr, "perfetto_repeat: error: %s\n", msg);
	exit(1);
}

static int get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	uint64_t r = 0;
	int s;

	for (s = 0; s < 64 && *p < end; s += 7) {
		uint8_t c = *(*p)++;

		r |= (uint64_t)(c & 0x7f) << s;
		if (c < 0x80) {
			*v = r;
			return 0;
		}
	}
	return -1;
}

/* Next field of [*p, end); 1 when one was read, 0 at the end, die on malformed input. */
static int next_field(const uint8_t **p, const uint8_t *end, struct field *f)
{
	uint64_t tag, len;

	if (*p >= end)
		return 0;
	f->start = *p;
	if (get_varint(p, end, &tag))
		die("malformed protobuf (tag)");
	f->num = (uint32_t)(tag >> 3);
	f->wire = (int)(tag & 7);
	switch (f->wire) {
	case W_VARINT:
		if (get_varint(p, end, &f->v))
			die("malformed protobuf (varint)");
		break;
	case W_I64:
	case W_I32:
		len = f->wire == W_I64 ? 8 : 4;
		if ((size_t)(end - *p) < len)
			die("malformed protobuf (fixed)");
		f->p = *p;
		f->n = (size_t)len;
		*p += len;
		break;
	case W_LEN:
		if (get_varint(p, end, &len) || (uint64_t)(end - *p) < len)
			die("malformed protobuf (length)");
		f->p = *p;
		f->n = (size_t)len;
		*p += len;
		break;
	default:
		die("malformed protobuf (wire type)");
	}
	f->total = (size_t)(*p - f->start);
	return 1;
}

/* A LEN field whose payload is the bytes of o from `from` on: move them behind the header. */
static void close_len(struct out *o, size_t from, uint32_t num)
{
	uint8_t h[20];
	struct out t = { h, 0, sizeof(h) };
	size_t n = o->n - from;

	put_varint(&t, (uint64_t)num << 3 | W_LEN);
	put_varint(&t, n);
	out_reserve(o, t.n);
	memmove(o->p + from + t.n, o->p + from, n);
	memcpy(o->p + from, h, t.n);
	o->n += t.n;
}

static uint64_t add_ns(uint64_t v, int64_t ns)
{
	return (uint64_t)((int64_t)v + ns);
}

static void see_ts(struct scan *s, uint64_t v)
{
	if ((int64_t)v < s->lo)
		s->lo = (int64_t)v;
	if ((int64_t)v > s->hi)
		s->hi = (int64_t)v;
}

/* ---- one message kind each; sc != NULL: pass 1 (scan), else rewrite with sh into o ---- */

/* CompactSched: switch_timestamp = 1, waking_timestamp = 7, delta encoded per bundle. */
static void do_compact(const uint8_t *p, size_t n, struct scan *sc, const struct shift *sh,
		       struct out *o)
{
	const uint8_t *end = p + n;
	struct field f;
	int first[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	uint64_t sum[8] = { 0 };

	while (next_field(&p, end, &f)) {
		int ts = (f.num == 1 || f.num == 7);

		if (!ts) {
			if (!sc)
				put_bytes(o, f.start, f.total);
			continue;
		}
		if (f.wire == W_VARINT) {
			if (sc) {
				sum[f.num] += f.v;
				see_ts(sc, sum[f.num]);
				sc->events++;
			} else {
				put_varint_field(o, f.num,
						 first[f.num] ? add_ns(f.v, sh->ns) : f.v);
			}
			first[f.num] = 0;
		} else if (f.wire == W_LEN) {
			const uint8_t *q = f.p, *qe = f.p + f.n;
			size_t from = o ? o->n : 0;
			uint64_t v;

			while (q < qe) {
				if (get_varint(&q, qe, &v))
					die("malformed packed timestamps");
				if (sc) {
					sum[f.num] += v;
					see_ts(sc, sum[f.num]);
					sc->events++;
				} else {
					put_varint(o, first[f.num] ? add_ns(v, sh->ns) : v);
				}
				first[f.num] = 0;
			}
			if (!sc)
				close_len(o, from, f.num);
		} else if (!sc) {
			put_bytes(o, f.start, f.total);
		}
	}
}

/* FtraceEvent: timestamp = 1. */
static void do_event(const uint8_t *p, size_t n, struct scan *sc, const struct shift *sh,
		     struct out *o)
{
	const uint8_t *end = p + n;
	struct field f;

	if (sc)
		sc->events++;
	while (next_field(&p, end, &f)) {
		if (f.num == 1 && f.wire == W_VARINT) {
			if (sc)
				see_ts(sc, f.v);
			else
				put_varint_field(o, 1, add_ns(f.v, sh->ns));
		} else if (!sc) {
			put_bytes(o, f.start, f.total);
		}
	}
}

/* FtraceEventBundle: event = 2, compact_sched = 4, ftrace_timestamp = 6, boot_timestamp = 7. */
static void do_bundle(const uint8_t *p, size_t n, struct scan *sc, const struct shift *sh,
		      struct out *o)
{
	const uint8_t *end = p + n;
	struct field f;

	while (next_field(&p, end, &f)) {
		size_t from = o ? o->n : 0;

		if ((f.num == 2 || f.num == 4) && f.wire == W_LEN) {
			if (f.num == 2)
				do_event(f.p, f.n, sc, sh, o);
			else
				do_compact(f.p, f.n, sc, sh, o);
			if (!sc)
				close_len(o, from, f.num);
		} else if ((f.num == 6 || f.num == 7) && f.wire == W_VARINT) {
			if (!sc)
				put_varint_field(o, f.num, add_ns(f.v, sh->ns));
		} else if (!sc) {
			put_bytes(o, f.start, f.total);
		}
	}
}

/* ClockSnapshot: clocks = 1 { clock_id = 1, timestamp = 2 }. */
static void do_clocks(const uint8_t *p, size_t n, const struct shift *sh, struct out *o)
{
	const uint8_t *end = p + n;
	struct field f, g;

	while (next_field(&p, end, &f)) {
		const uint8_t *q = f.p, *qe;
		size_t from = o->n;

		if (f.num != 1 || f.wire != W_LEN) {
			put_bytes(o, f.start, f.total);
			continue;
		}
		for (qe = f.p + f.n; next_field(&q, qe, &g);)
			if (g.num == 2 && g.wire == W_VARINT)
				put_varint_field(o, 2, add_ns(g.v, sh->ns));
			else
				put_bytes(o, g.start, g.total);
		close_len(o, from, 1);
	}
}

/* PowerRails: energy_data = 2 { index = 1, timestamp_ms = 2, energy = 3 }. */
static void do_rails(const uint8_t *p, size_t n, const struct shift *sh, struct out *o)
{
	const uint8_t *end = p + n;
	struct field f, g;

	while (next_field(&p, end, &f)) {
		const uint8_t *q = f.p, *qe;
		size_t from = o->n;

		if (f.num != 2 || f.wire != W_LEN) {
			put_bytes(o, f.start, f.total);
			continue;
		}
		for (qe = f.p + f.n; next_field(&q, qe, &g);)
			if (g.num == 2 && g.wire == W_VARINT)
				put_varint_field(o, 2, add_ns(g.v, sh->ns / 1000000));
			else
				put_bytes(o, g.start, g.total);
		close_len(o, from, 2);
	}
}

/* FrameTimelineEvent: expected/actual display start = 1/2 { cookie 1, token 2, pid 3 },
 * expected/actual surface start = 3/4 { cookie 1, token 2, display_frame_token 3, pid 4 },
 * frame_end = 5 { cookie 1 }. */
static void do_ft(const uint8_t *p, size_t n, struct scan *sc, const struct shift *sh,
		  struct out *o)
{
	const uint8_t *end = p + n;
	struct field f, g;

	while (next_field(&p, end, &f)) {
		const uint8_t *q = f.p, *qe;
		size_t from = o ? o->n : 0;

		if (f.num < 1 || f.num > 5 || f.wire != W_LEN) {
			if (!sc)
				put_bytes(o, f.start, f.total);
			continue;
		}
		for (qe = f.p + f.n; next_field(&q, qe, &g);) {
			int cookie = g.num == 1 && g.wire == W_VARINT;
			int token = g.wire == W_VARINT && f.num != 5 &&
				    (g.num == 2 || (g.num == 3 && f.num >= 3));

			if (sc) {
				if (cookie && g.v > sc->cookie_max)
					sc->cookie_max = g.v;
				if (token && g.v > sc->token_max)
					sc->token_max = g.v;
			} else if (cookie) {
				put_varint_field(o, g.num, g.v + sh->cookie);
			} else if (token) {
				put_varint_field(o, g.num, g.v + sh->token);
			} else {
				put_bytes(o, g.start, g.total);
			}
		}
		if (!sc)
			close_len(o, from, f.num);
	}
}

static int once_only(uint32_t num)
{
	return num == 33 || num == 34 || num == 35 || num == 45 || num == 69 || num == 78;
}

/* One TracePacket: pass 1 (sc) or append the shifted packet to o (returns 0 if dropped). */
static int do_packet(const uint8_t *p, size_t n, struct scan *sc, const struct shift *sh,
		     struct out *o)
{
	const uint8_t *q = p, *end = p + n;
	struct field f;
	int clock = 0;
	size_t from;

	while (next_field(&q, end, &f)) {
		if (f.num == 58 && f.wire == W_VARINT)
			clock = (int)f.v;
		if (!sc && sh->k > 0 && once_only(f.num))
			return 0;
	}
	if (sc)
		sc->packets++;
	from = o ? o->n : 0;
	for (q = p; next_field(&q, end, &f);) {
		size_t at = o ? o->n : 0;

		if (f.num == 8 && f.wire == W_VARINT) {
			if (sc && (clock == 0 || clock == 6)) /* the trace clock (BOOTTIME) */
				see_ts(sc, f.v);
			if (!sc)
				put_varint_field(o, 8, add_ns(f.v, sh->ns));
		} else if (f.num == 42 && f.wire == W_VARINT && !sc && sh->k > 0) {
			continue;
		} else if (f.num == 1 && f.wire == W_LEN) {
			do_bundle(f.p, f.n, sc, sh, o);
			if (!sc)
				close_len(o, at, 1);
		} else if (f.num == 76 && f.wire == W_LEN) {
			do_ft(f.p, f.n, sc, sh, o);
			if (!sc)
				close_len(o, at, 76);
		} else if (!sc && f.num == 6 && f.wire == W_LEN) {
			do_clocks(f.p, f.n, sh, o);
			close_len(o, at, 6);
		} else if (!sc && f.num == 40 && f.wire == W_LEN) {
			do_rails(f.p, f.n, sh, o);
			close_len(o, at, 40);
		} else if (sc && (f.num == 50 || f.num == 133)) {
			sc->compressed++;
		} else if (!sc) {
			put_bytes(o, f.start, f.total);
		}
	}
	if (!sc)
		close_len(o, from, 1);
	return 1;
}

int main(int argc, char **argv)
{
	struct scan sc = { INT64_MAX, INT64_MIN, 0, 0, 0, 0, 0 };
	struct out o = { NULL, 0, 0 };
	uint64_t written = 0, packets = 0;
	const uint8_t *p, *end;
	struct field f;
	uint8_t *in;
	size_t n = 0, cap = 1 << 20, r;
	int64_t span;
	FILE *fi, *fo;
	long copies;
	int k;

	if (argc != 4 || (copies = strtol(argv[1], NULL, 10)) < 1 || copies > 100000) {
		fprintf(stderr, "usage: perfetto_repeat N IN OUT\n");
		return 2;
	}
	fi = fopen(argv[2], "rb");
	if (!fi)
		die("cannot open the input");
	in = malloc(cap);
	while (in && (r = fread(in + n, 1, cap - n, fi)) > 0)
		if ((n += r) == cap)
			in = realloc(in, cap *= 2);
	if (!in)
		die("out of memory");
	fclose(fi);

	end = in + n;
	for (p = in; next_field(&p, end, &f);)
		if (f.num == 1 && f.wire == W_LEN)
			do_packet(f.p, f.n, &sc, NULL, NULL);
	if (sc.lo > sc.hi)
		die("no timestamps in the input");
	if (sc.compressed)
		fprintf(stderr, "perfetto_repeat: warning: %" PRIu64 " compressed packets copied "
			"unshifted\n", sc.compressed);
	/* whole milliseconds (power rails count in ms), and 1 ms between two copies */
	span = ((sc.hi - sc.lo) / 1000000 + 2) * 1000000;

	fo = fopen(argv[3], "wb");
	if (!fo)
		die("cannot create the output");
	for (k = 0; k < copies; k++) {
		struct shift sh = { k, span * k, (sc.cookie_max + 1) * (uint64_t)k,
				    (sc.token_max + 1) * (uint64_t)k };

		for (p = in; next_field(&p, end, &f);) {
			if (f.num != 1 || f.wire != W_LEN) {
				if (k == 0)
					put_bytes(&o, f.start, f.total);
				continue;
			}
			packets += (uint64_t)do_packet(f.p, f.n, NULL, &sh, &o);
		}
		if (fwrite(o.p, 1, o.n, fo) != o.n)
			die("cannot write the output");
		written += o.n;
		o.n = 0;
	}
	if (fclose(fo))
		die("cannot write the output");
	printf("copies=%ld bytes=%" PRIu64 " packets=%" PRIu64 " events=%" PRIu64
	       " span_ns=%" PRId64 " first_ns=%" PRId64 " last_ns=%" PRId64 "\n", copies, written,
	       packets, sc.events * (uint64_t)copies, span, sc.lo,
	       sc.hi + span * (int64_t)(copies - 1));
	free(o.p);
	free(in);
	return 0;
}
