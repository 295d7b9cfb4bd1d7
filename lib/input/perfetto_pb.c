/* SPDX-License-Identifier: MIT */
/*
 * Perfetto protobuf traces without libperfetto (FORMATS.md section 6): a push decoder that
 * frames the stream into TracePackets (one buffered at a time, bounded), decodes ftrace
 * print events into atrace markers and FrameTimeline events into per-frame records, and
 * inflates compressed_packets one level deep. Field numbers are google/perfetto's.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#include "gfxstat/gfxstat_perfetto.h"
#include "../model/model_local.h"
#include "perfetto_sched_local.h"
#include "protobuf_local.h"

/* Field numbers (FORMATS.md 6.1, 6.2) */
enum {
	TRACE_PACKET = 1,
	PKT_FTRACE_EVENTS = 1,
	PKT_PROCESS_TREE = 2,
	PKT_CLOCK_SNAPSHOT = 6,
	PKT_SYSTEM_INFO = 45,
	PKT_PACKAGES_LIST = 47,
	PKT_TIMESTAMP = 8,
	PKT_COMPRESSED = 50,
	PKT_CLOCK_ID = 58,
	PKT_FRAME_TIMELINE = 76,
	BUNDLE_CPU = 1,
	BUNDLE_EVENT = 2,
	FTRACE_TIMESTAMP = 1,
	FTRACE_PID = 2,
	FTRACE_PRINT = 3,
	PRINT_BUF = 2,
	SNAP_CLOCKS = 1,
	SNAP_PRIMARY = 2,
	CLOCK_ID = 1,
	CLOCK_TIMESTAMP = 2,
	CLOCK_INCREMENTAL = 3,
	CLOCK_UNIT = 4,
	/* protos/perfetto/trace/ps/process_tree.proto */
	PTREE_PROCESS = 1,
	PROC_PID = 1,
	PROC_CMDLINE = 3,
	PROC_UID = 5,
	/* protos/perfetto/trace/android/packages_list.proto */
	PKGS_PACKAGE = 1,
	PKG_NAME = 1,
	PKG_UID = 2,
	/* protos/perfetto/trace/system_info.proto */
	SYSINFO_FINGERPRINT = 2,
	SYSINFO_SDK = 5,
};

/* FrameTimelineEvent oneof members, which are also our slice kinds */
enum {
	FT_EXPECTED_DISPLAY = 1,
	FT_ACTUAL_DISPLAY = 2,
	FT_EXPECTED_SURFACE = 3,
	FT_ACTUAL_SURFACE = 4,
	FT_FRAME_END = 5,
};

#define MAX_SNAP_CLOCKS 16
/* trace_processor's kBadTimestamp: |ts| >= INT64_MAX - 10 s is a platform bug (b/185978397) */
#define BAD_TIMESTAMP (INT64_MAX - 10 * GFXSTAT_NSEC_PER_SEC)
#define NO_SLOT UINT32_MAX
/* declared refresh periods: the plausible ones (1 kHz .. 5 Hz), and the displays followed */
#define DECL_MIN_NS (GFXSTAT_NSEC_PER_SEC / 1000)
#define DECL_MAX_NS (GFXSTAT_NSEC_PER_SEC / 5)
#define DECL_DISPLAYS 16

enum pf_state {
	ST_HDR,  /* reading a record header: tag, then length */
	ST_BODY, /* copying a packet's bytes into pkt */
	ST_SKIP, /* skipping a record's bytes */
	ST_DONE, /* broken stream, finished, or stopped by a callback */
};

/* One FrameTimeline slice: a start, waiting for its FrameEnd or an actual frame. */
struct pf_slice {
	uint8_t used;
	uint8_t kind;
	uint8_t ended;
	uint8_t keyed;   /* expected frames: in the key map */
	int64_t cookie;
	int64_t start, end;
	int64_t token, display_token;
	int32_t pid, present_type, jank_type, prediction_type;
	char *layer;
	size_t layer_n;
};

/* uint64 key -> slot, open addressing with linear probing and backward-shift deletion */
struct pf_map {
	uint64_t *keys;
	uint32_t *vals; /* NO_SLOT = empty */
	size_t mask;
};

/*
 * An actual frame held until finish: the slice's fields. Every frame is held to the end (see
 * docs/perfetto.md, "Delivery order"), so it is kept small: its layer is an index in the
 * interned names (a long capture repeats a few dozen layers), its arrival order 32 bits
 * (hold_frame() refuses the 2^32nd frame), whether it is janky found again from its jank type.
 */
struct pf_frame {
	int64_t start, end, exp_start, exp_end, token, display_token, vsync;
	int32_t pid, present_type, jank_type, prediction_type;
	uint32_t seq;   /* arrival order among the frames, to keep the sort stable */
	uint32_t layer; /* index in layer_names + 1; 0 = no layer */
	uint8_t kind, complete, has_exp;
};

/*
 * What the delivery's sort needs of a held frame, while the record itself (struct pf_frame)
 * goes to p->recs, in a temporary file past PF_KEEP bytes, at the place its seq gives
 * (rec_off()). The keys go through an external sort (gx_xsort) made at finish, so a long
 * capture's frames cost neither their records' memory nor their keys'.
 */
struct pf_key {
	int64_t end;   /* its present, when complete */
	int64_t vsync; /* what set_vsync() found; the record's own is not rewritten */
	uint32_t seq;
	uint8_t complete;
};

/* set_vsync()'s: a display frame with an expected end, sorted by it */
struct pf_end {
	int64_t exp_end, token, end;
	uint32_t seq;
	uint8_t complete;
};

/* set_vsync()'s: a display frame's (token, period) (PAIR), or a surface frame by the token of
 * the display frame that presented it (SURFACE), sorted by token */
enum { JOIN_PAIR, JOIN_SURFACE };
struct pf_join {
	int64_t token, val, end; /* val: a pair's period */
	uint32_t seq;
	uint8_t kind, complete;
};
/* the sorts' runs in memory; past it, in a temporary file */
#define PF_SORT_RUN ((size_t)1 << 20)

/* the held frames' records kept in memory (about 48 k frames); past it, a temporary file */
#define PF_KEEP ((size_t)4 << 20)
#define RECS_PER_BLOCK (GX_SPILL_BLOCK / sizeof(struct pf_frame))

/* where record @seq is in p->recs: each is appended whole, a block holding RECS_PER_BLOCK */
static uint64_t rec_off(uint32_t seq)
{
	return (uint64_t)(seq / RECS_PER_BLOCK) * GX_SPILL_BLOCK +
	       (uint64_t)(seq % RECS_PER_BLOCK) * sizeof(struct pf_frame);
}

/* A ProcessTree process; the last one seen for a pid wins. */
struct pf_proc {
	int32_t pid, uid;
	uint64_t seq;
	size_t off, n;
};

/* A PackagesList entry */
struct pf_pkg {
	uint64_t uid;
	size_t off, n;
};

/* A growable array of @size-byte elements */
struct pf_vec {
	void *v;
	size_t n, cap;
};

struct gfxstat_perfetto {
	struct gfxstat_perfetto_sink sink;
	struct gfxstat_stats *stats;
	struct gfxstat_perfetto_limits lim;
	struct gfxstat_perfetto_summary sum;
	int rc;          /* sticky: GFXSTAT_E_ABORTED or GFXSTAT_E_NOMEM */
	int fed;
	int finished;    /* gfxstat_perfetto_finish() ran: everything was delivered */

	/* framing */
	enum pf_state st;
	uint8_t hdr[20];
	size_t hdr_n;
	uint64_t need;   /* bytes of the current record still to copy or skip */
	struct gx_buf pkt;
	/* decoding ahead (ahead()): the next record of the fed chunk not looked at yet, and a
	 * compressed packet not to be passed before it is decoded; both NULL between feeds */
	const uint8_t *scan, *scan_block;
	const uint8_t *chunk;      /* the chunk fed, at chunk_at of the input */
	uint64_t chunk_at;
	uint64_t scan_pause;       /* no scan before this byte of the input */
	uint64_t scan_skip;        /* the last pause for bundles' small share, or 0 */
	size_t scan_bytes, scan_bundles; /* bytes scanned since the last look, in bundles */
	const uint8_t *held, *held_end; /* a bundle read, waiting for room, and its packet's end */
	size_t held_n;
	int scan_eager;  /* gx_perfetto_set_ahead_eager(): no pause for a small share */
	int threads;     /* gfxstat_perfetto_set_threads() */

	/* compressed_packets */
	uint8_t *inf;
	size_t inf_cap;

	/* clocks: the latest snapshot */
	uint32_t snap_id[MAX_SNAP_CLOCKS];
	int64_t snap_ts[MAX_SNAP_CLOCKS];
	size_t nsnap;

	/* what is held until finish: frames, processes, packages, and the bytes they refer to
	 * (offsets, as the arena moves while it grows) */
	struct pf_vec procs, pkgs;
	size_t nframes;       /* held: their records in recs, by their seq */
	struct gx_spill recs;
	const char *tmpdir;   /* gfxstat_perfetto_set_tmpdir()'s; NULL: memory only */
	uint64_t sorted_to_file; /* bytes set_vsync()'s and deliver()'s sorts wrote to files */
	uint32_t *pkg_sorted; /* indexes of pkgs by (uid, name): each is listed once */
	struct gx_strmap layer_names; /* the held frames' layers, each once */
	char *arena;
	size_t arena_n, arena_cap;
	uint64_t nseq;

	/* FrameTimeline: a ring of max_open slices (a power of two) and two indexes */
	struct pf_slice *ring;
	size_t ring_cap;
	uint64_t seq;
	struct pf_map by_cookie, by_key;

	/* the ftrace bundles (perfetto_sched.c): the atrace markers, merged over the CPUs in
	 * time order as the trace is fed, and with a sched or counter sink (ps_events) the
	 * scheduler events and counters; cnt what it counted of the events for the summary */
	struct gx_psched *ps;
	int ps_events;
	struct gx_psched_counts cnt;

	/* the refresh periods SurfaceFlinger declares, gathered from the markers as they go
	 * out (set_vsync() reads them): (ts, period) pairs, only where the period changes, and
	 * whether each display is off */
	int64_t *decl;
	size_t ndecl, capdecl;
	/* the line each marker goes out with (stream_marker()): the fields no marker changes
	 * set once; its ts_text in @ts_buf, whose "<sec>." (@ts_sec_n bytes, 0: none yet) stays
	 * while the markers are within the second that begins at @ts_sec_ns (us_text()) */
	struct gfxstat_ftrace_line mev;
	int64_t ts_sec_ns;
	size_t ts_sec_n;
	char ts_buf[32];
	struct {
		char id[24];
		int off;
	} disp[DECL_DISPLAYS];
	unsigned ndisp;
};

/* ---------------------------------------------------------------------------------------- */
/* Wire reader (protobuf_local.h)                                                           */

enum gx_pb_res gx_pb_varint_long(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
	const uint8_t *s = *p;
	uint64_t v = 0;
	unsigned shift = 0, i;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
	/*
	 * Up to 8 bytes with 8 in the bound (9 or 10 with 10): the first byte without the
	 * continuation bit ends it; the 7-bit groups are then packed in three steps (pairs, quads,
	 * halves), no loop.
	 */
	/* two bytes: the tags of fields 16 to 2047 (most ftrace event kinds), lengths < 16 k */
	if (end - s >= 2 && !(s[1] & 0x80) && (s[0] & 0x80)) {
		*out = (uint64_t)(s[0] & 0x7f) | (uint64_t)s[1] << 7;
		*p = s + 2;
		return GX_PB_FIELD;
	}
	if (end - s >= 8) {
		uint64_t w, stop, x;
		unsigned len;

		memcpy(&w, s, 8);
		stop = ~w & 0x8080808080808080ULL;
		if (stop || end - s >= 10) {
			len = stop ? ((unsigned)__builtin_ctzll(stop) >> 3) + 1 : 8;
			x = len == 8 ? w : w & ((1ULL << (8 * len)) - 1);
			x &= 0x7f7f7f7f7f7f7f7fULL;
			x = (x & 0x007f007f007f007fULL) | ((x & 0x7f007f007f007f00ULL) >> 1);
			x = (x & 0x00003fff00003fffULL) | ((x & 0x3fff00003fff0000ULL) >> 2);
			x = (x & 0x000000000fffffffULL) | ((x & 0x0fffffff00000000ULL) >> 4);
			if (!stop) {
				/* 9 or 10 bytes (a negative int64, a 64-bit id or cookie): the 9th
				 * byte's 7 bits, then the 10th holds bit 63 alone */
				if (!(s[8] & 0x80)) {
					x |= (uint64_t)s[8] << 56;
					len = 9;
				} else if (s[9] > 1) {
					return GX_PB_MALFORMED; /* more than 64 bits */
				} else {
					x |= (uint64_t)(s[8] & 0x7f) << 56 | (uint64_t)s[9] << 63;
					len = 10;
				}
			}
			*p = s + len;
			*out = x;
			return GX_PB_FIELD;
		}
	}
	/* fewer than 8 bytes left (a message's last field): 3 and 4 bytes without the loop */
	if (end - s >= 3 && (s[0] & s[1] & 0x80)) {
		if (!(s[2] & 0x80)) {
			*out = (uint64_t)(s[0] & 0x7f) | (uint64_t)(s[1] & 0x7f) << 7 |
			       (uint64_t)s[2] << 14;
			*p = s + 3;
			return GX_PB_FIELD;
		}
		if (end - s >= 4 && !(s[3] & 0x80)) {
			*out = (uint64_t)(s[0] & 0x7f) | (uint64_t)(s[1] & 0x7f) << 7 |
			       (uint64_t)(s[2] & 0x7f) << 14 | (uint64_t)s[3] << 21;
			*p = s + 4;
			return GX_PB_FIELD;
		}
	}
#endif
	for (i = 0; i < 10; i++) {
		uint8_t c;

		if (s + i >= end)
			return GX_PB_SHORT;
		c = s[i];
		if (i == 9 && c > 1)
			return GX_PB_MALFORMED; /* more than 64 bits */
		v |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
		if (!(c & 0x80)) {
			*p = s + i + 1;
			*out = v;
			return GX_PB_FIELD;
		}
	}
	return GX_PB_MALFORMED;
}

/* ---------------------------------------------------------------------------------------- */
/* Maps                                                                                     */

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static int map_init(struct pf_map *m, size_t cap)
{
	size_t i;

	m->keys = malloc(cap * sizeof(*m->keys));
	m->vals = malloc(cap * sizeof(*m->vals));
	if (!m->keys || !m->vals)
		return GFXSTAT_E_NOMEM;
	for (i = 0; i < cap; i++)
		m->vals[i] = NO_SLOT;
	m->mask = cap - 1;
	return 0;
}

static void map_free(struct pf_map *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
}

static uint32_t map_get(const struct pf_map *m, uint64_t key)
{
	size_t i = mix64(key) & m->mask;

	while (m->vals[i] != NO_SLOT) {
		if (m->keys[i] == key)
			return m->vals[i];
		i = (i + 1) & m->mask;
	}
	return NO_SLOT;
}

/* The map has twice the ring's capacity and one entry per slot at most: never full. */
static void map_put(struct pf_map *m, uint64_t key, uint32_t val)
{
	size_t i = mix64(key) & m->mask;

	while (m->vals[i] != NO_SLOT && m->keys[i] != key)
		i = (i + 1) & m->mask;
	m->keys[i] = key;
	m->vals[i] = val;
}

/* Remove @key if it maps to @val. */
static void map_del(struct pf_map *m, uint64_t key, uint32_t val)
{
	size_t i = mix64(key) & m->mask, j, home;

	while (m->vals[i] != NO_SLOT && m->keys[i] != key)
		i = (i + 1) & m->mask;
	if (m->vals[i] == NO_SLOT || m->vals[i] != val)
		return;
	/* backward-shift: move up entries whose home is not between the hole and them */
	j = i;
	for (;;) {
		m->vals[i] = NO_SLOT;
		for (;;) {
			j = (j + 1) & m->mask;
			if (m->vals[j] == NO_SLOT)
				return;
			home = mix64(m->keys[j]) & m->mask;
			if (i <= j ? (home <= i || home > j) : (home <= i && home > j))
				break;
		}
		m->keys[i] = m->keys[j];
		m->vals[i] = m->vals[j];
		i = j;
	}
}

/* ---------------------------------------------------------------------------------------- */
/* Held data                                                                                */

/* A new zeroed element at the end of @a (elements of @size bytes), or NULL if memory ran out. */
static void *vec_push(struct pf_vec *a, size_t size)
{
	char *e;

	if (gx_grow(&a->v, &a->cap, a->n, size, 64))
		return NULL;
	e = (char *)a->v + a->n++ * size;
	memset(e, 0, size);
	return e;
}

/* Copy @n bytes into the arena; *off is where. Return 0 or GFXSTAT_E_NOMEM. */
static int arena_add(struct gfxstat_perfetto *p, const void *d, size_t n, size_t *off)
{
	if (n > p->arena_cap - p->arena_n) {
		size_t cap = p->arena_cap ? p->arena_cap : 4096;
		char *na;

		while (cap - p->arena_n < n) {
			if (cap > SIZE_MAX / 2)
				return GFXSTAT_E_NOMEM;
			cap *= 2;
		}
		na = realloc(p->arena, cap);
		if (!na)
			return GFXSTAT_E_NOMEM;
		p->arena = na;
		p->arena_cap = cap;
	}
	if (n)
		memcpy(p->arena + p->arena_n, d, n);
	*off = p->arena_n;
	p->arena_n += n;
	return 0;
}


const char *gfxstat_perfetto_clock_name(uint32_t clock_id)
{
	static const char *const names[] = { "?", "REALTIME", "REALTIME_COARSE", "MONOTONIC",
					     "MONOTONIC_COARSE", "MONOTONIC_RAW", "BOOTTIME",
					     "?", "?", "TSC", "PERF", "TRACE_FILE" };

	return clock_id < sizeof(names) / sizeof(names[0]) ? names[clock_id] : "?";
}

/* ---------------------------------------------------------------------------------------- */
/* Life cycle                                                                               */

void gfxstat_perfetto_limits_init(struct gfxstat_perfetto_limits *l)
{
	l->max_packet = GFXSTAT_PERFETTO_MAX_PACKET;
	l->max_inflated = GFXSTAT_PERFETTO_MAX_INFLATED;
	l->max_open = GFXSTAT_PERFETTO_MAX_OPEN;
	l->max_layer = GFXSTAT_PERFETTO_MAX_LAYER;
}

static void free_tables(struct gfxstat_perfetto *p)
{
	size_t i;

	if (p->ring)
		for (i = 0; i < p->ring_cap; i++)
			free(p->ring[i].layer);
	free(p->ring);
	p->ring = NULL;
	map_free(&p->by_cookie);
	map_free(&p->by_key);
}

static int alloc_tables(struct gfxstat_perfetto *p)
{
	size_t cap = 1;

	while (cap < p->lim.max_open && cap < ((size_t)1 << 24))
		cap <<= 1;
	p->ring_cap = cap;
	p->ring = calloc(cap, sizeof(*p->ring));
	if (!p->ring || map_init(&p->by_cookie, cap * 2) || map_init(&p->by_key, cap * 2)) {
		free_tables(p);
		return GFXSTAT_E_NOMEM;
	}
	return 0;
}

static int stream_marker(void *user, int64_t ts, int32_t pid, int32_t cpu, const char *buf,
			 size_t len, const struct gfxstat_marker *m);

struct gfxstat_perfetto *gfxstat_perfetto_new(const struct gfxstat_perfetto_sink *sink,
					      struct gfxstat_stats *stats)
{
	struct gfxstat_perfetto *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	gx_spill_init(&p->recs, PF_KEEP, NULL); /* first: gfxstat_perfetto_free() closes its file */
	if (sink)
		p->sink = *sink;
	p->stats = stats;
	gfxstat_perfetto_limits_init(&p->lim);
	gx_buf_init(&p->pkt, p->lim.max_packet);
	p->sum.trace_clock = GFXSTAT_CLOCK_BOOTTIME;
	p->mev.task.p = "<...>";
	p->mev.task.n = 5;
	p->mev.tgid = -1;
	p->mev.ts_text.p = p->ts_buf;
	p->mev.event.p = "print";
	p->mev.event.n = 5;
	if (alloc_tables(p)) {
		free(p);
		return NULL;
	}
	if (gx_strmap_init(&p->layer_names, UINT32_MAX - 1)) {
		gfxstat_perfetto_free(p);
		return NULL;
	}
	/* the markers go out merged over the CPUs in time order, with the scheduler events
	 * when there is a sched sink: held only in a bounded window, not until finish */
	{
		struct gx_psched_sink ps = { p->sink.sched, p->sink.counter, p->sink.user,
					     stream_marker, p, &p->cnt, p->sink.sched_kinds };

		p->ps_events = p->sink.sched || p->sink.counter;
		p->ps = gx_psched_new(&ps);
		if (!p->ps) {
			gfxstat_perfetto_free(p);
			return NULL;
		}
	}
	return p;
}

void gfxstat_perfetto_set_tmpdir(struct gfxstat_perfetto *p, const char *dir)
{
	if (!p->recs.nblock) { /* before the first frame */
		gx_spill_init(&p->recs, PF_KEEP, dir);
		p->tmpdir = dir;
	}
}

void gx_perfetto_ahead_stats(const struct gfxstat_perfetto *p, uint64_t *taken,
			     uint64_t *missed)
{
	gx_psched_ahead_stats(p->ps, taken, missed);
}

void gx_perfetto_set_ahead_eager(struct gfxstat_perfetto *p)
{
	p->scan_eager = 1;
	gx_psched_set_ahead_min(p->ps, 0);
}

void gfxstat_perfetto_set_threads(struct gfxstat_perfetto *p, int threads)
{
	if (!p->fed) {
		p->threads = threads > 1;
		gx_psched_set_threads(p->ps, threads);
	}
}

void gfxstat_perfetto_free(struct gfxstat_perfetto *p)
{
	if (!p)
		return;
	free_tables(p);
	gx_buf_free(&p->pkt);
	free(p->inf);
	free(p->decl);
	free(p->pkg_sorted);
	gx_spill_free(&p->recs);
	free(p->procs.v);
	free(p->pkgs.v);
	free(p->arena);
	gx_strmap_free(&p->layer_names);
	gx_psched_free(p->ps);
	free(p);
}

int gfxstat_perfetto_set_limits(struct gfxstat_perfetto *p,
				const struct gfxstat_perfetto_limits *l)
{
	struct gfxstat_perfetto_limits d;

	if (!p || !l || p->fed)
		return GFXSTAT_E_INVAL;
	gfxstat_perfetto_limits_init(&d);
	p->lim.max_packet = l->max_packet ? l->max_packet : d.max_packet;
	p->lim.max_inflated = l->max_inflated ? l->max_inflated : d.max_inflated;
	p->lim.max_layer = l->max_layer ? l->max_layer : d.max_layer;
	p->pkt.max = p->lim.max_packet;
	if ((l->max_open ? l->max_open : d.max_open) != p->lim.max_open) {
		free_tables(p);
		p->lim.max_open = l->max_open ? l->max_open : d.max_open;
		return alloc_tables(p);
	}
	return 0;
}

const struct gfxstat_perfetto_summary *gfxstat_perfetto_summary(const struct gfxstat_perfetto *p)
{
	return &p->sum;
}

/* ---------------------------------------------------------------------------------------- */
/* Clocks                                                                                   */

static void decode_clock_snapshot(struct gfxstat_perfetto *p, const uint8_t *d, size_t n)
{
	struct gx_pb r, c;
	struct gx_pb_field f, g;
	uint32_t ids[MAX_SNAP_CLOCKS];
	int64_t tss[MAX_SNAP_CLOCKS];
	size_t k = 0;
	uint32_t primary = 0;
	enum gx_pb_res res;

	gx_pb_init(&r, d, n);
	while ((res = gx_pb_next(&r, &f)) == GX_PB_FIELD) {
		if (f.num == SNAP_PRIMARY && f.wire == GX_PB_VARINT) {
			primary = (uint32_t)f.v;
			continue;
		}
		if (f.num != SNAP_CLOCKS || f.wire != GX_PB_LEN) {
			continue;
		}
		{
			uint32_t id = 0;
			uint64_t ts = 0, unit = 0;
			int incremental = 0, has_ts = 0;

			gx_pb_init(&c, f.data, f.len);
			while ((res = gx_pb_next(&c, &g)) == GX_PB_FIELD) {
				if (g.wire != GX_PB_VARINT)
					continue;
				if (g.num == CLOCK_ID)
					id = (uint32_t)g.v;
				else if (g.num == CLOCK_TIMESTAMP)
					ts = g.v, has_ts = 1;
				else if (g.num == CLOCK_INCREMENTAL)
					incremental = g.v != 0;
				else if (g.num == CLOCK_UNIT)
					unit = g.v;
			}
			if (res == GX_PB_MALFORMED)
				break;
			/* builtin nanosecond clocks only */
			if (!has_ts || incremental || (unit && unit != 1) || ts > INT64_MAX ||
			    k == MAX_SNAP_CLOCKS)
				continue;
			ids[k] = id;
			tss[k] = (int64_t)ts;
			k++;
		}
	}
	if (res == GX_PB_MALFORMED) {
		p->sum.malformed++;
		return;
	}
	p->sum.clock_snapshots++;
	if (primary)
		p->sum.trace_clock = primary;
	memcpy(p->snap_id, ids, k * sizeof(ids[0]));
	memcpy(p->snap_ts, tss, k * sizeof(tss[0]));
	p->nsnap = k;
}

/* @ts in clock @clock to the trace clock. Return 0, or -1 if it cannot be represented. */
static int to_trace_clock(struct gfxstat_perfetto *p, uint32_t clock, uint64_t ts, int64_t *out)
{
	int64_t from = 0, to = 0, delta;
	int have_from = 0, have_to = 0;
	size_t i;

	if (ts > INT64_MAX)
		return -1;
	*out = (int64_t)ts;
	if (!clock || clock == p->sum.trace_clock)
		return 0;
	for (i = 0; i < p->nsnap; i++) {
		if (p->snap_id[i] == clock)
			from = p->snap_ts[i], have_from = 1;
		if (p->snap_id[i] == p->sum.trace_clock)
			to = p->snap_ts[i], have_to = 1;
	}
	if (!have_from || !have_to) {
		p->sum.clock_unconverted++;
		return 0;
	}
	delta = to - from; /* both >= 0: no overflow */
	if (delta > 0 && *out > INT64_MAX - delta)
		return -1;
	*out += delta;
	p->sum.clock_converted++;
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* ftrace print events                                                                      */

/* @s is @lit, or @lit " <id>" (*@id then the id, else empty) */
static int counter_named(struct gfxstat_str s, const char *lit, struct gfxstat_str *id)
{
	size_t k = strlen(lit);

	if (s.n < k || memcmp(s.p, lit, k) != 0 || (s.n > k && (s.p[k] != ' ' || s.n == k + 1)))
		return 0;
	id->p = s.p + k + (s.n > k);
	id->n = s.n - k - (s.n > k);
	return 1;
}

/*
 * A counter marker, in time order: the refresh period SurfaceFlinger declares, as lib/produce/
 * sf_frames.c takes them (frameworks/native services/surfaceflinger/Scheduler/
 * VSyncPredictor.cpp "VSP-setPeriod"; VSyncReactor.cpp "VSR-setPeriod", "VSR-startPeriod
 * Transition <display id>", "VSR-onDisplayModeChanged <display id>"), kept as a (ts, period)
 * pair where it changes. A declaration for a display that its "PowerMode <display id>"
 * counter (DisplayDevice.cpp) says is off (0) is not the refreshing display's.
 * Return: 0 or GFXSTAT_E_NOMEM.
 */
static int declare(struct gfxstat_perfetto *p, int64_t ts, const struct gfxstat_marker *m)
{
	static const char *const names[] = {
		"VSP-setPeriod", "VSR-setPeriod", "VSR-startPeriodTransition",
		"VSR-onDisplayModeChanged",
	};
	struct gfxstat_str id;
	unsigned d, k;

	/* most counters are none of these: "PowerMode", "VSP-setPeriod", "VSR-setPeriod",
	 * "VSR-startPeriodTransition", "VSR-onDisplayModeChanged" (the fifth byte 's' or 'o') */
	if (m->name.n < 9 || (m->name.p[0] != 'P' &&
			      (m->name.p[0] != 'V' || (m->name.p[4] != 's' && m->name.p[4] != 'o'))))
		return 0;
	if (counter_named(m->name, "PowerMode", &id) && id.n && id.n < sizeof(p->disp[0].id)) {
		for (d = 0; d < p->ndisp; d++)
			if (strlen(p->disp[d].id) == id.n && !memcmp(p->disp[d].id, id.p, id.n))
				break;
		if (d == p->ndisp && p->ndisp == DECL_DISPLAYS)
			return 0;
		if (d == p->ndisp) {
			memcpy(p->disp[d].id, id.p, id.n);
			p->disp[d].id[id.n] = 0;
			p->ndisp++;
		}
		p->disp[d].off = m->value == 0;
		return 0;
	}
	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (counter_named(m->name, names[k], &id))
			break;
	if (k == sizeof(names) / sizeof(names[0]) || m->value < DECL_MIN_NS ||
	    m->value > DECL_MAX_NS)
		return 0;
	for (d = 0; id.n && d < p->ndisp; d++)
		if (strlen(p->disp[d].id) == id.n && !memcmp(p->disp[d].id, id.p, id.n))
			break;
	if (id.n && d < p->ndisp && p->disp[d].off)
		return 0;
	/* the same period again changes nothing set_vsync() reads: memory stays bounded */
	if (p->ndecl && p->decl[2 * p->ndecl - 1] == m->value)
		return 0;
	/* (time, period) pairs */
	if (gx_grow((void **)&p->decl, &p->capdecl, p->ndecl, 2 * sizeof(*p->decl), 16))
		return GFXSTAT_E_NOMEM;
	p->decl[2 * p->ndecl] = ts;
	p->decl[2 * p->ndecl + 1] = m->value;
	p->ndecl++;
	return 0;
}

/* "<sec>.<usec>" of @t >= 0, as "%lld.%06lld" writes it; the length */
static size_t ts_text(char *b, size_t cap, int64_t t)
{
	char tmp[24];
	int64_t sec = t / GFXSTAT_NSEC_PER_SEC, us = t % GFXSTAT_NSEC_PER_SEC / GFXSTAT_NSEC_PER_USEC;
	size_t n = 0, i;

	if (t < 0 || cap < 28) {
		int k = snprintf(b, cap, "%lld.%06lld", (long long)sec, (long long)us);

		return k > 0 && (size_t)k < cap ? (size_t)k : 0;
	}
	do {
		tmp[n++] = (char)('0' + sec % 10);
		sec /= 10;
	} while (sec);
	for (i = 0; i < n; i++)
		b[i] = tmp[n - 1 - i];
	b[n++] = '.';
	for (i = 6; i-- > 0;) {
		b[n + i] = (char)('0' + us % 10);
		us /= 10;
	}
	return n + 6;
}

/* stream_marker()'s path with no call but the sink's, its rare cases out of it (so that it
 * keeps no register across that call; a portable build leaves both to the compiler) */
#ifdef __GNUC__
#define PB_INLINE inline __attribute__((always_inline))
#define PB_NOINLINE __attribute__((noinline))
#else
#define PB_INLINE inline
#define PB_NOINLINE
#endif

/* Is @t >= 0 in the second whose "<sec>." p->ts_buf holds? (markers come in time order,
 * thousands a second: mostly). t - ts_sec_ns cannot overflow, both being >= 0; before that
 * second it is huge unsigned. */
static inline int in_second(const struct gfxstat_perfetto *p, int64_t t)
{
	return p->ts_sec_n && (uint64_t)(t - p->ts_sec_ns) < (uint64_t)GFXSTAT_NSEC_PER_SEC;
}

/*
 * ts_text() of @t (in_second()) in p->ts_buf: the "<sec>." there stands, the six digits of
 * the microseconds written two at a time, in 32 bits, no 64-bit division. The length.
 */
static PB_INLINE size_t us_text(struct gfxstat_perfetto *p, int64_t t)
{
	static const char d2[] = "00010203040506070809101112131415161718192021222324252627282930"
				 "31323334353637383940414243444546474849505152535455565758596061"
				 "62636465666768697071727374757677787980818283848586878889909192"
				 "93949596979899";
	char *b = p->ts_buf + p->ts_sec_n;
	uint32_t us = (uint32_t)(t - p->ts_sec_ns) / (uint32_t)GFXSTAT_NSEC_PER_USEC, hi, mid;

	hi = us / 10000;
	us -= hi * 10000;
	mid = us / 100;
	memcpy(b, d2 + 2 * hi, 2);
	memcpy(b + 2, d2 + 2 * mid, 2);
	memcpy(b + 4, d2 + 2 * (us - mid * 100), 2);
	return p->ts_sec_n + 6;
}

/* @mk to the marker sink with its line, p->mev (its ts_text, @ts_n bytes, in p->ts_buf), whose
 * task ("<...>"), tgid and event ("print") gfxstat_perfetto_new() set: a sink reads the line
 * only during the call. */
static PB_INLINE int put_marker(struct gfxstat_perfetto *p, int64_t t, int32_t pid, int32_t cpu,
				const char *payload, size_t len, const struct gfxstat_marker *mk,
				size_t ts_n)
{
	struct gfxstat_ftrace_line *ev = &p->mev;

	ev->pid = pid;
	ev->cpu = cpu;
	ev->ts_ns = t;
	ev->ts_text.n = ts_n;
	ev->payload.p = len ? payload : "";
	ev->payload.n = len;
	if (p->sink.marker && p->sink.marker(p->sink.user, ev, mk))
		return GFXSTAT_E_ABORTED;
	return 0;
}

/* stream_marker() of a counter (its declared period noted for set_vsync()), of a time before
 * 0 or of a new second (its "<sec>." written). */
static PB_NOINLINE int stream_slow(struct gfxstat_perfetto *p, int64_t t, int32_t pid,
				   int32_t cpu, const char *payload, size_t len,
				   const struct gfxstat_marker *mk)
{
	size_t n;

	if (mk->kind == GFXSTAT_MARKER_COUNTER) {
		int rc = declare(p, t, mk);

		if (rc)
			return rc;
	}
	if (t < 0) {
		p->ts_sec_n = 0; /* the buffer no longer holds a second's text */
		n = ts_text(p->ts_buf, sizeof(p->ts_buf), t);
	} else {
		if (!in_second(p, t)) {
			p->ts_sec_ns = t / GFXSTAT_NSEC_PER_SEC * GFXSTAT_NSEC_PER_SEC;
			p->ts_sec_n = ts_text(p->ts_buf, sizeof(p->ts_buf), p->ts_sec_ns) - 6;
		}
		n = us_text(p, t);
	}
	return put_marker(p, t, pid, cpu, payload, len, mk, n);
}

/* A marker from perfetto_sched.c's merge (a gx_psched_sink.print), in time order; @mk its
 * parse, made when it was decoded. */
static int stream_marker(void *user, int64_t t, int32_t pid, int32_t cpu, const char *payload,
			 size_t len, const struct gfxstat_marker *mk)
{
	struct gfxstat_perfetto *p = user;

	if (mk->kind == GFXSTAT_MARKER_COUNTER || t < 0 || !in_second(p, t))
		return stream_slow(p, t, pid, cpu, payload, len, mk);
	return put_marker(p, t, pid, cpu, payload, len, mk, us_text(p, t));
}

/* ---------------------------------------------------------------------------------------- */
/* FrameTimeline                                                                            */

struct pf_ft {
	int has_cookie, has_token, has_dtoken, has_pid;
	int64_t cookie, token, dtoken;
	int32_t pid, present_type, jank_type, prediction_type;
	const uint8_t *layer;
	size_t layer_n;
};

static uint64_t expected_key(int kind, int64_t token, int32_t pid)
{
	uint64_t k = mix64((uint64_t)token) ^ ((uint64_t)(uint32_t)pid << 8) ^ (uint64_t)kind;

	return mix64(k);
}

static void slot_clear(struct gfxstat_perfetto *p, uint32_t i)
{
	struct pf_slice *s = &p->ring[i];

	if (!s->used)
		return;
	if (!s->ended)
		map_del(&p->by_cookie, (uint64_t)s->cookie, i);
	if (s->keyed)
		map_del(&p->by_key, expected_key(s->kind, s->token, s->pid), i);
	free(s->layer);
	memset(s, 0, sizeof(*s));
}

/* trace_processor's rule, shared with the cause a janky frame is labelled with */
static int is_janky(int kind, int32_t jank)
{
	return gx_ft_janky_bits(kind != FT_ACTUAL_SURFACE, jank) != 0;
}

/* Hold the record of actual slice @s until finish, with its expected slice's times. */
static int hold_frame(struct gfxstat_perfetto *p, const struct pf_slice *s, int complete)
{
	int ekind = s->kind == FT_ACTUAL_SURFACE ? FT_EXPECTED_SURFACE : FT_EXPECTED_DISPLAY;
	uint32_t e = map_get(&p->by_key, expected_key(ekind, s->token, s->pid));
	struct pf_frame rec, *fr = &rec;
	unsigned char *to;
	uint64_t at;
	int janky;

	if (p->nframes >= UINT32_MAX) /* past what seq counts */
		return GFXSTAT_E_NOMEM;
	memset(&rec, 0, sizeof(rec)); /* the padding too: the file gets no stale bytes */
	fr->seq = (uint32_t)p->nframes;
	fr->kind = s->kind;
	fr->complete = (uint8_t)complete;
	fr->pid = s->pid;
	fr->token = s->token;
	fr->display_token = s->kind == FT_ACTUAL_SURFACE ? s->display_token : s->token;
	fr->jank_type = s->jank_type;
	fr->present_type = s->present_type;
	fr->prediction_type = s->prediction_type;
	janky = is_janky(s->kind, s->jank_type);
	fr->start = s->start;
	fr->end = complete ? s->end : GFXSTAT_NS_NONE;
	fr->exp_start = GFXSTAT_NS_NONE;
	fr->exp_end = GFXSTAT_NS_NONE;
	fr->vsync = GFXSTAT_NS_NONE;
	if (e != NO_SLOT) {
		fr->has_exp = 1;
		fr->exp_start = p->ring[e].start;
		if (p->ring[e].ended)
			fr->exp_end = p->ring[e].end;
	} else if (complete) {
		p->sum.no_expected++;
	}
	if (complete) {
		if (s->kind == FT_ACTUAL_SURFACE) {
			p->sum.frames_surface++;
			p->sum.janky_surface += (uint64_t)janky;
		} else {
			p->sum.frames_display++;
			p->sum.janky_display += (uint64_t)janky;
		}
	}
	if (s->layer_n) {
		long li = gx_strmap_add(&p->layer_names, s->layer, s->layer_n, NULL);

		if (li < 0)
			return GFXSTAT_E_NOMEM;
		fr->layer = (uint32_t)li + 1;
	}
	to = gx_spill_reserve(&p->recs, sizeof(rec), &at);
	if (!to || at != rec_off(rec.seq)) /* the second: a record that is not where seq says */
		return GFXSTAT_E_NOMEM;
	memcpy(to, &rec, sizeof(rec));
	gx_spill_commit(&p->recs, sizeof(rec));
	p->nframes++;
	return 0;
}

static int decode_ft_start(const uint8_t *d, size_t n, int kind, struct pf_ft *o)
{
	/* field numbers of each start message: cookie, token, display token, pid, layer,
	 * present_type, jank_type, prediction_type (0 = absent) */
	static const uint8_t nums[5][8] = {
		{ 0 },
		{ 1, 2, 0, 3, 0, 0, 0, 0 },
		{ 1, 2, 0, 3, 0, 4, 7, 8 },
		{ 1, 2, 3, 4, 5, 0, 0, 0 },
		{ 1, 2, 3, 4, 5, 6, 9, 10 },
	};
	const uint8_t *k = nums[kind];
	struct gx_pb r;
	struct gx_pb_field f;
	enum gx_pb_res res;

	memset(o, 0, sizeof(*o));
	gx_pb_init(&r, d, n);
	while ((res = gx_pb_next(&r, &f)) == GX_PB_FIELD) {
		if (f.wire == GX_PB_LEN) {
			if (k[4] && f.num == k[4])
				o->layer = f.data, o->layer_n = f.len;
			continue;
		}
		if (f.wire != GX_PB_VARINT)
			continue;
		if (f.num == k[0])
			o->cookie = gx_pb_i64(&f), o->has_cookie = 1;
		else if (f.num == k[1])
			o->token = gx_pb_i64(&f), o->has_token = 1;
		else if (k[2] && f.num == k[2])
			o->dtoken = gx_pb_i64(&f), o->has_dtoken = 1;
		else if (f.num == k[3])
			o->pid = gx_pb_i32(&f), o->has_pid = 1;
		else if (k[5] && f.num == k[5])
			o->present_type = gx_pb_i32(&f);
		else if (k[6] && f.num == k[6])
			o->jank_type = gx_pb_i32(&f);
		else if (k[7] && f.num == k[7])
			o->prediction_type = gx_pb_i32(&f);
	}
	return res == GX_PB_MALFORMED ? -1 : 0;
}

static int ft_start(struct gfxstat_perfetto *p, int kind, int64_t ts, const struct pf_ft *o)
{
	uint32_t i = (uint32_t)(p->seq & (p->ring_cap - 1)), old;
	struct pf_slice *s = &p->ring[i];
	uint64_t key = expected_key(kind, o->token, o->pid);
	int dup = 0;

	if (!o->has_cookie || !o->has_token || !o->has_pid ||
	    ((kind == FT_EXPECTED_SURFACE || kind == FT_ACTUAL_SURFACE) && !o->has_dtoken)) {
		p->sum.invalid_events++;
		return 0;
	}
	/* trace_processor keeps one expected surface frame per (pid, token) */
	if (kind == FT_EXPECTED_SURFACE && map_get(&p->by_key, key) != NO_SLOT) {
		p->sum.expected_duplicate++;
		dup = 1;
	}
	old = map_get(&p->by_cookie, (uint64_t)o->cookie);
	if (old != NO_SLOT) {
		p->sum.duplicate_cookie++;
		slot_clear(p, old);
	}
	if (s->used) {
		if (!s->ended && (s->kind == FT_ACTUAL_SURFACE || s->kind == FT_ACTUAL_DISPLAY))
			p->sum.evicted++;
		slot_clear(p, i);
	}
	p->seq++;
	s->used = 1;
	s->kind = (uint8_t)kind;
	s->cookie = o->cookie;
	s->start = ts;
	s->end = GFXSTAT_NS_NONE;
	s->token = o->token;
	s->display_token = o->dtoken;
	s->pid = o->pid;
	s->present_type = o->present_type;
	s->jank_type = o->jank_type;
	s->prediction_type = o->prediction_type;
	if (o->layer_n) {
		size_t n = o->layer_n;

		if (n > p->lim.max_layer) {
			n = p->lim.max_layer;
			p->sum.layer_cut++;
		}
		s->layer = malloc(n);
		if (!s->layer) {
			memset(s, 0, sizeof(*s));
			return GFXSTAT_E_NOMEM;
		}
		memcpy(s->layer, o->layer, n);
		s->layer_n = n;
	}
	map_put(&p->by_cookie, (uint64_t)o->cookie, i);
	if ((kind == FT_EXPECTED_DISPLAY || kind == FT_EXPECTED_SURFACE) && !dup) {
		map_put(&p->by_key, key, i);
		s->keyed = 1;
	}
	return 0;
}

static int ft_end(struct gfxstat_perfetto *p, int64_t ts, int64_t cookie)
{
	uint32_t i = map_get(&p->by_cookie, (uint64_t)cookie);
	struct pf_slice *s;
	int rc;

	if (i == NO_SLOT) {
		p->sum.end_unmatched++;
		return 0;
	}
	s = &p->ring[i];
	map_del(&p->by_cookie, (uint64_t)cookie, i);
	s->ended = 1;
	s->end = ts;
	if (s->kind != FT_ACTUAL_SURFACE && s->kind != FT_ACTUAL_DISPLAY)
		return 0; /* expected frames stay for the actual ones to find */
	rc = hold_frame(p, s, 1);
	slot_clear(p, i);
	return rc;
}

static int decode_frame_timeline(struct gfxstat_perfetto *p, const uint8_t *d, size_t n,
				 int64_t ts)
{
	struct gx_pb r, q;
	struct gx_pb_field f, g;
	const uint8_t *member[6] = { NULL };
	size_t member_n[6] = { 0 };
	int kind, have = 0;
	struct pf_ft o;
	enum gx_pb_res res;
	int64_t cookie = 0;
	int has_cookie = 0;

	p->sum.ft_events++;
	gx_pb_init(&r, d, n);
	while ((res = gx_pb_next(&r, &f)) == GX_PB_FIELD) {
		if (f.num >= 1 && f.num <= 5 && f.wire == GX_PB_LEN) {
			member[f.num] = f.data;
			member_n[f.num] = f.len;
			have = 1;
		}
	}
	if (res == GX_PB_MALFORMED) {
		p->sum.malformed++;
		return 0;
	}
	if (!have) {
		p->sum.invalid_events++;
		return 0;
	}
	/* a oneof: the first member set, in trace_processor's order */
	for (kind = 1; kind <= 5 && !member[kind]; kind++)
		;
	switch (kind) {
	case FT_EXPECTED_DISPLAY:
		p->sum.ft_expected_display++;
		break;
	case FT_ACTUAL_DISPLAY:
		p->sum.ft_actual_display++;
		break;
	case FT_EXPECTED_SURFACE:
		p->sum.ft_expected_surface++;
		break;
	case FT_ACTUAL_SURFACE:
		p->sum.ft_actual_surface++;
		break;
	default:
		p->sum.ft_frame_end++;
		break;
	}
	if (ts < 0 || ts >= BAD_TIMESTAMP) {
		p->sum.bad_timestamp++;
		return 0;
	}
	if (kind == FT_FRAME_END) {
		gx_pb_init(&q, member[kind], member_n[kind]);
		while ((res = gx_pb_next(&q, &g)) == GX_PB_FIELD)
			if (g.num == 1 && g.wire == GX_PB_VARINT)
				cookie = gx_pb_i64(&g), has_cookie = 1;
		if (res == GX_PB_MALFORMED) {
			p->sum.malformed++;
			return 0;
		}
		if (!has_cookie) {
			p->sum.invalid_events++;
			return 0;
		}
		return ft_end(p, ts, cookie);
	}
	if (decode_ft_start(member[kind], member_n[kind], kind, &o)) {
		p->sum.malformed++;
		return 0;
	}
	return ft_start(p, kind, ts, &o);
}

/* ---------------------------------------------------------------------------------------- */
/* Processes, packages and the build                                                         */

/*
 * The process of @pid in procs, which is kept in pid order: the one there, or a new one put in
 * its place. A process tree comes again and again in a long trace (process_stats scans): one
 * entry per pid, whose name is stored again only when it changed. NULL if memory ran out.
 */
static struct pf_proc *proc_slot(struct gfxstat_perfetto *p, int32_t pid)
{
	struct pf_proc *v = p->procs.v;
	size_t lo = 0, hi = p->procs.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->procs.n && v[lo].pid == pid)
		return &v[lo];
	if (!vec_push(&p->procs, sizeof(*v)))
		return NULL;
	v = p->procs.v;
	memmove(v + lo + 1, v + lo, (p->procs.n - 1 - lo) * sizeof(*v));
	memset(&v[lo], 0, sizeof(*v));
	v[lo].pid = pid;
	return &v[lo];
}

/* ProcessTree (protos/perfetto/trace/ps/process_tree.proto): pid, cmdline[0], uid. */
static int decode_process_tree(struct gfxstat_perfetto *p, const uint8_t *d, size_t n)
{
	struct gx_pb r, q;
	struct gx_pb_field f, g;
	enum gx_pb_res res;

	gx_pb_init(&r, d, n);
	while ((res = gx_pb_next(&r, &f)) == GX_PB_FIELD) {
		const uint8_t *name = NULL;
		size_t name_n = 0;
		int32_t pid = 0, uid = -1;
		int has_pid = 0;
		struct pf_proc *pr;

		if (f.num != PTREE_PROCESS || f.wire != GX_PB_LEN)
			continue;
		gx_pb_init(&q, f.data, f.len);
		while ((res = gx_pb_next(&q, &g)) == GX_PB_FIELD) {
			if (g.num == PROC_PID && g.wire == GX_PB_VARINT)
				pid = gx_pb_i32(&g), has_pid = 1;
			else if (g.num == PROC_UID && g.wire == GX_PB_VARINT)
				uid = gx_pb_i32(&g);
			else if (g.num == PROC_CMDLINE && g.wire == GX_PB_LEN && !name)
				name = g.data, name_n = g.len; /* argv[0] is the name */
		}
		if (res == GX_PB_MALFORMED)
			break;
		/* a cmdline may hold a NUL-separated argv; "<pre-initialized>" is a zygote child
		 * not yet named (trace_processor's process_tracker ignores it too) */
		if (name && memchr(name, 0, name_n))
			name_n = (size_t)((const uint8_t *)memchr(name, 0, name_n) - name);
		if (!has_pid || !name_n || (name_n == 17 && !memcmp(name, "<pre-initialized>", 17)))
			continue;
		if (name_n > p->lim.max_layer)
			name_n = p->lim.max_layer;
		/* the last one seen for a pid wins */
		pr = proc_slot(p, pid);
		if (!pr)
			return GFXSTAT_E_NOMEM;
		pr->uid = uid;
		pr->seq = p->nseq++;
		if (pr->n != name_n || memcmp(p->arena + pr->off, name, name_n) != 0) {
			pr->n = name_n;
			if (arena_add(p, name, name_n, &pr->off))
				return GFXSTAT_E_NOMEM;
		}
	}
	if (res == GX_PB_MALFORMED)
		p->sum.malformed++;
	return 0;
}

/* Package @a against (@uid, @name, @n): <0, 0, >0 */
static int cmp_pkg(const struct gfxstat_perfetto *p, const struct pf_pkg *a, uint64_t uid,
		   const uint8_t *name, size_t n)
{
	int c;

	if (a->uid != uid)
		return a->uid < uid ? -1 : 1;
	c = memcmp(p->arena + a->off, name, a->n < n ? a->n : n);
	if (c)
		return c;
	return a->n < n ? -1 : a->n > n;
}

/*
 * Add a package unless it is listed already: a PackagesList that comes again (some traces
 * have two, and traces joined end to end have one per part) adds nothing, so that memory
 * does not grow with it and a package listed twice is one package for gfxstat_perfetto_app().
 * Return 1 added, 0 known, or GFXSTAT_E_NOMEM.
 */
static int add_pkg(struct gfxstat_perfetto *p, uint64_t uid, const uint8_t *name, size_t n)
{
	size_t lo = 0, hi = p->pkgs.n, k = p->pkgs.n, cap = p->pkgs.cap;
	const struct pf_pkg *v = p->pkgs.v;
	struct pf_pkg *pk;
	uint32_t *ns;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_pkg(p, &v[p->pkg_sorted[mid]], uid, name, n);

		if (!c)
			return 0;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	pk = vec_push(&p->pkgs, sizeof(*pk));
	if (!pk)
		return GFXSTAT_E_NOMEM;
	if (p->pkgs.cap != cap || !p->pkg_sorted) {
		ns = realloc(p->pkg_sorted, p->pkgs.cap * sizeof(*ns));
		if (!ns) {
			p->pkgs.n--;
			return GFXSTAT_E_NOMEM;
		}
		p->pkg_sorted = ns;
	}
	pk->uid = uid;
	pk->n = n;
	if (arena_add(p, name, n, &pk->off)) {
		p->pkgs.n--;
		return GFXSTAT_E_NOMEM;
	}
	memmove(p->pkg_sorted + lo + 1, p->pkg_sorted + lo, (k - lo) * sizeof(*p->pkg_sorted));
	p->pkg_sorted[lo] = (uint32_t)k;
	return 1;
}

/* PackagesList (protos/perfetto/trace/android/packages_list.proto): name, uid. */
static int decode_packages(struct gfxstat_perfetto *p, const uint8_t *d, size_t n)
{
	struct gx_pb r, q;
	struct gx_pb_field f, g;
	enum gx_pb_res res;

	gx_pb_init(&r, d, n);
	while ((res = gx_pb_next(&r, &f)) == GX_PB_FIELD) {
		const uint8_t *name = NULL;
		size_t name_n = 0;
		uint64_t uid = 0;
		int rc;

		if (f.num != PKGS_PACKAGE || f.wire != GX_PB_LEN)
			continue;
		gx_pb_init(&q, f.data, f.len);
		while ((res = gx_pb_next(&q, &g)) == GX_PB_FIELD) {
			if (g.num == PKG_NAME && g.wire == GX_PB_LEN)
				name = g.data, name_n = g.len;
			else if (g.num == PKG_UID && g.wire == GX_PB_VARINT)
				uid = g.v;
		}
		if (res == GX_PB_MALFORMED)
			break;
		if (!name_n || name_n > p->lim.max_layer)
			continue;
		rc = add_pkg(p, uid, name, name_n);
		if (rc < 0)
			return rc;
		p->sum.packages++; /* entries listed, as they come */
	}
	if (res == GX_PB_MALFORMED)
		p->sum.malformed++;
	return 0;
}

/* SystemInfo (protos/perfetto/trace/system_info.proto): fingerprint and SDK level. */
static void decode_system_info(struct gfxstat_perfetto *p, const uint8_t *d, size_t n)
{
	struct gx_pb r;
	struct gx_pb_field f;
	enum gx_pb_res res;
	char *b = p->sum.build, *colon, *slash;
	size_t k;

	gx_pb_init(&r, d, n);
	while ((res = gx_pb_next(&r, &f)) == GX_PB_FIELD) {
		if (f.num == SYSINFO_SDK && f.wire == GX_PB_VARINT && f.v <= INT32_MAX) {
			p->sum.sdk = (int32_t)f.v;
		} else if (f.num == SYSINFO_FINGERPRINT && f.wire == GX_PB_LEN) {
			k = f.len < sizeof(p->sum.build) - 1 ? f.len : sizeof(p->sum.build) - 1;
			memcpy(b, f.data, k);
			b[k] = 0;
			if (memchr(b, 0, k))
				k = strlen(b);
			/* brand/product/device:RELEASE/ID/INCREMENTAL:type/tags (Build.FINGERPRINT) */
			p->sum.release[0] = 0;
			colon = strchr(b, ':');
			slash = colon ? strchr(colon + 1, '/') : NULL;
			if (slash && (size_t)(slash - colon - 1) < sizeof(p->sum.release)) {
				memcpy(p->sum.release, colon + 1, (size_t)(slash - colon - 1));
				p->sum.release[slash - colon - 1] = 0;
			}
		}
	}
	if (res == GX_PB_MALFORMED)
		p->sum.malformed++;
}

static int cmp_proc(const void *a, const void *b)
{
	const struct pf_proc *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* In pid order, one per pid (proc_slot() keeps them so): their number. */
static void procs_finish(struct gfxstat_perfetto *p)
{
	struct pf_proc *v = p->procs.v;
	size_t i, k = 0;

	if (p->procs.n > 1)
		qsort(v, p->procs.n, sizeof(*v), cmp_proc);
	for (i = 0; i < p->procs.n; i++) {
		if (k && v[k - 1].pid == v[i].pid)
			k--;
		v[k++] = v[i];
	}
	p->procs.n = k;
	p->sum.processes = k;
}

static const struct pf_proc *find_proc(const struct gfxstat_perfetto *p, int32_t pid)
{
	const struct pf_proc *v = p->procs.v;
	size_t lo = 0, hi = p->procs.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].pid == pid)
			return &v[mid];
		if (v[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* A package name: [A-Za-z0-9_] runs joined by single dots, at least one dot. */
static int looks_like_package(const char *s, size_t n)
{
	size_t i;
	int dot = 0;

	if (!n || s[0] == '.' || s[n - 1] == '.')
		return 0;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c == '.') {
			if (s[i - 1] == '.')
				return 0;
			dot = 1;
		} else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			     (c >= '0' && c <= '9') || c == '_')) {
			return 0;
		}
	}
	return dot;
}

struct gfxstat_str gfxstat_perfetto_app(const struct gfxstat_perfetto *p, int32_t pid)
{
	struct gfxstat_str none = { "", 0 }, name, best = { "", 0 };
	const struct pf_proc *pr = p ? find_proc(p, pid) : NULL;
	const struct pf_pkg *pk = p ? p->pkgs.v : NULL;
	const char *colon;
	size_t i, same_uid = 0;
	/* Android app ids: uid % 100000 in [10000, 19999] (android.os.Process FIRST/LAST_
	 * APPLICATION_UID); PackagesList records the app id */
	uint64_t appid = pr && pr->uid >= 0 ? (uint64_t)pr->uid % 100000 : 0;

	if (!pr)
		return none;
	name.p = p->arena + pr->off;
	name.n = pr->n;
	/* a process "pkg:svc" runs android:process=":svc" of package pkg */
	colon = memchr(name.p, ':', name.n);
	if (colon)
		name.n = (size_t)(colon - name.p);
	for (i = 0; i < p->pkgs.n; i++) {
		const char *pn = p->arena + pk[i].off;

		if (pk[i].n == name.n && !memcmp(pn, name.p, name.n))
			return name;
		if (appid < 10000 || appid > 19999 || pk[i].uid != appid)
			continue;
		same_uid++;
		/* a process named after its package plus a suffix: com.google.android.gms.ui */
		if (pk[i].n < name.n && !memcmp(pn, name.p, pk[i].n) && name.p[pk[i].n] == '.' &&
		    pk[i].n > best.n) {
			best.p = pn;
			best.n = pk[i].n;
		}
	}
	if (best.n)
		return best;
	if (same_uid == 1) {
		for (i = 0; i < p->pkgs.n; i++)
			if (pk[i].uid == appid) {
				best.p = p->arena + pk[i].off;
				best.n = pk[i].n;
				return best;
			}
	}
	/*
	 * A cmdline of exactly 15 characters may be the kernel's comm (ProcessTree falls back to
	 * it when /proc/<pid>/cmdline is empty): Android names an app's main thread after the last
	 * 15 characters of its process name (frameworks/base core/jni/AndroidRuntime.cpp,
	 * AndroidRuntime::setArgv0), "com.android.systemui" as "ndroid.systemui". The one listed
	 * package ending with it is the app; with none or several, no app here (the model, which
	 * knows the layer names too, decides).
	 */
	if (pr->n == 15) {
		const char *comm = p->arena + pr->off;
		size_t hits = 0;

		for (i = 0; i < p->pkgs.n; i++) {
			const char *pn = p->arena + pk[i].off;

			/* (a package listed twice in a row is one package) */
			if (pk[i].n < 15 || memcmp(pn + pk[i].n - 15, comm, 15) != 0 ||
			    (best.n == pk[i].n && !memcmp(best.p, pn, pk[i].n)))
				continue;
			best.p = pn;
			best.n = pk[i].n;
			hits++;
		}
		return hits == 1 ? best : none;
	}
	return looks_like_package(name.p, name.n) ? name : none;
}

/* ---------------------------------------------------------------------------------------- */
/* Packets                                                                                  */

static int decode_trace(struct gfxstat_perfetto *p, const uint8_t *d, size_t n, int depth);

static int inflate_packets(struct gfxstat_perfetto *p, const uint8_t *d, size_t n)
{
	z_stream zs;
	size_t out = 0;
	int zr;

	if (n > UINT_MAX) {
		p->sum.inflate_failed++;
		return 0;
	}
	memset(&zs, 0, sizeof(zs));
	if (inflateInit(&zs) != Z_OK)
		return GFXSTAT_E_NOMEM;
	zs.next_in = (Bytef *)(uintptr_t)d;
	zs.avail_in = (uInt)n;
	for (;;) {
		size_t avail;

		if (out == p->inf_cap) {
			size_t cap = p->inf_cap ? p->inf_cap * 2 : 64 * 1024;
			uint8_t *np;

			if (p->inf_cap >= p->lim.max_inflated) {
				inflateEnd(&zs);
				p->sum.inflate_failed++; /* over the limit */
				return 0;
			}
			if (cap > p->lim.max_inflated)
				cap = p->lim.max_inflated;
			np = realloc(p->inf, cap);
			if (!np) {
				inflateEnd(&zs);
				return GFXSTAT_E_NOMEM;
			}
			p->inf = np;
			p->inf_cap = cap;
		}
		avail = p->inf_cap - out;
		if (avail > UINT_MAX)
			avail = UINT_MAX;
		zs.next_out = p->inf + out;
		zs.avail_out = (uInt)avail;
		zr = inflate(&zs, Z_NO_FLUSH);
		out += avail - zs.avail_out;
		if (zr == Z_STREAM_END)
			break;
		if (zr == Z_MEM_ERROR) {
			inflateEnd(&zs);
			return GFXSTAT_E_NOMEM;
		}
		if (zr != Z_OK || (zs.avail_in == 0 && zs.avail_out != 0)) {
			/* corrupt, or the input ended before the stream did */
			inflateEnd(&zs);
			p->sum.inflate_failed++;
			return 0;
		}
	}
	inflateEnd(&zs);
	p->sum.compressed++;
	p->sum.compressed_bytes += out;
	return decode_trace(p, p->inf, out, 1);
}

/* After perfetto_sched.c ran: its counts into the summary (with a sched or counter sink;
 * zero without); its result passed on. */
static int sched_sync(struct gfxstat_perfetto *p, int rc)
{
	if (p->ps_events)
		p->sum.sched = *gx_psched_summary(p->ps);
	return rc;
}

/* What perfetto_sched.c counted of a bundle's events, into the summary and the stats. */
static void count_events(struct gfxstat_perfetto *p)
{
	const struct gx_psched_counts *c = &p->cnt;

	GX_STAT_ADD(p->stats, events, c->events);
	GX_STAT_ADD(p->stats, other_events, c->other);
	GX_STAT_ADD(p->stats, marker_events, c->prints);
	GX_STAT_ADD(p->stats, marker_unsupported, c->unsupported);
	GX_STAT_ADD(p->stats, marker_malformed, c->bad_markers);
	p->sum.ftrace_events += c->events;
	p->sum.malformed += c->malformed;
	p->sum.print_events += c->prints;
	p->sum.markers += c->markers;
}

static int decode_packet(struct gfxstat_perfetto *p, const uint8_t *d, size_t n, int depth)
{
	struct gx_pb r;
	struct gx_pb_field f;
	uint64_t ts = 0;
	uint32_t clock = 0;
	struct gx_pb_field bundle = { 0 }, snap = { 0 }, ft = { 0 }, comp = { 0 }, cnt = { 0 };
	int has_bundle = 0, has_snap = 0, has_ft = 0, has_comp = 0, has_cnt = 0, rc = 0;
	int64_t tts;
	enum gx_pb_res res;

	p->sum.packets++;
	gx_pb_init(&r, d, n);
	while ((res = gx_pb_next(&r, &f)) == GX_PB_FIELD) {
		switch (f.num) {
		case PKT_TIMESTAMP:
			if (f.wire == GX_PB_VARINT)
				ts = f.v;
			break;
		case PKT_CLOCK_ID:
			if (f.wire == GX_PB_VARINT)
				clock = (uint32_t)f.v;
			break;
		case PKT_FTRACE_EVENTS:
			if (f.wire == GX_PB_LEN)
				bundle = f, has_bundle = 1;
			break;
		case PKT_CLOCK_SNAPSHOT:
			if (f.wire == GX_PB_LEN)
				snap = f, has_snap = 1;
			break;
		case PKT_FRAME_TIMELINE:
			if (f.wire == GX_PB_LEN)
				ft = f, has_ft = 1;
			break;
		case PKT_COMPRESSED:
			if (f.wire == GX_PB_LEN)
				comp = f, has_comp = 1;
			break;
		case PKT_PROCESS_TREE:
			if (f.wire == GX_PB_LEN)
				rc = decode_process_tree(p, f.data, f.len);
			break;
		case PKT_PACKAGES_LIST:
			if (f.wire == GX_PB_LEN)
				rc = decode_packages(p, f.data, f.len);
			break;
		case PKT_SYSTEM_INFO:
			if (f.wire == GX_PB_LEN)
				decode_system_info(p, f.data, f.len);
			if (f.wire == GX_PB_LEN && p->ps_events)
				cnt = f, has_cnt = 1; /* the kernel version too */
			break;
		default:
			/* sys_stats, process_stats, battery, power_rails: counters */
			if (p->ps_events && f.wire == GX_PB_LEN && gx_psched_wants(f.num))
				cnt = f, has_cnt = 1;
			break;
		}
		if (rc)
			return rc;
	}
	if (res == GX_PB_MALFORMED) {
		p->sum.malformed++;
		return 0;
	}
	if (has_snap)
		decode_clock_snapshot(p, snap.data, snap.len);
	if (has_bundle) {
		/* one pass over its events: the markers, and the scheduler events if wanted */
		p->sum.ftrace_bundles++;
		memset(&p->cnt, 0, sizeof(p->cnt));
		rc = sched_sync(p, gx_psched_bundle(p->ps, bundle.data, bundle.len));
		count_events(p);
		if (rc)
			return rc;
	}
	if (has_cnt && !to_trace_clock(p, clock, ts, &tts)) {
		rc = sched_sync(p, gx_psched_packet(p->ps, cnt.num, tts, cnt.data, cnt.len));
		if (rc)
			return rc;
	}
	if (has_ft) {
		p->sum.ft_clock = clock ? clock : p->sum.trace_clock;
		if (to_trace_clock(p, clock, ts, &tts)) {
			p->sum.ft_events++;
			p->sum.bad_timestamp++;
		} else {
			rc = decode_frame_timeline(p, ft.data, ft.len, tts);
			if (rc)
				return rc;
		}
	}
	if (has_comp) {
		if (depth) {
			p->sum.nested_compressed++;
			return 0;
		}
		return inflate_packets(p, comp.data, comp.len);
	}
	return 0;
}

/* A Trace message held whole in memory (the inside of compressed_packets). */
static int decode_trace(struct gfxstat_perfetto *p, const uint8_t *d, size_t n, int depth)
{
	struct gx_pb r;
	struct gx_pb_field f;
	enum gx_pb_res res;
	int rc;

	gx_pb_init(&r, d, n);
	while ((res = gx_pb_next(&r, &f)) == GX_PB_FIELD) {
		if (f.num != TRACE_PACKET || f.wire != GX_PB_LEN)
			continue;
		rc = decode_packet(p, f.data, f.len, depth);
		if (rc)
			return rc;
	}
	if (res == GX_PB_MALFORMED)
		p->sum.malformed++;
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Framing                                                                                  */

/*
 * A record header at [b, b + n): set p->st and p->need for what follows.
 * Return: bytes used (> 0), 0 if more bytes are needed, -1 if the stream is broken.
 */
static long parse_hdr(struct gfxstat_perfetto *p, const uint8_t *b, size_t n)
{
	const uint8_t *s = b, *end = b + n;
	uint64_t tag, len = 0;
	enum gx_pb_res res;

	res = gx_pb_varint(&s, end, &tag);
	if (res == GX_PB_SHORT)
		return 0;
	if (res != GX_PB_FIELD || (tag >> 3) == 0 || (tag >> 3) > 0x1fffffff)
		return -1;
	switch (tag & 7) {
	case GX_PB_VARINT:
		res = gx_pb_varint(&s, end, &len);
		if (res == GX_PB_SHORT)
			return 0;
		if (res != GX_PB_FIELD)
			return -1;
		p->st = ST_HDR;
		p->need = 0;
		return (long)(s - b);
	case GX_PB_FIXED64:
	case GX_PB_FIXED32:
		p->st = ST_SKIP;
		p->need = (tag & 7) == GX_PB_FIXED64 ? 8 : 4;
		return (long)(s - b);
	case GX_PB_LEN:
		res = gx_pb_varint(&s, end, &len);
		if (res == GX_PB_SHORT)
			return 0;
		if (res != GX_PB_FIELD)
			return -1;
		p->need = len;
		if ((tag >> 3) != TRACE_PACKET) {
			p->st = ST_SKIP;
		} else if (len > p->lim.max_packet) {
			p->sum.packet_too_big++;
			p->st = ST_SKIP;
		} else {
			p->st = ST_BODY;
			gx_buf_reset(&p->pkt);
		}
		return (long)(s - b);
	default:
		return -1;
	}
}

/*
 * The bundles of the whole packets in [b, end) (b at a record of the Trace) handed to
 * perfetto_sched.c's thread ahead of their turn, from where the last call stopped, as many as
 * it takes. The records are read as parse_hdr() and decode_packet() read them, so that the
 * bundles handed over are the ones gx_psched_bundle() will be given, in the same order: a
 * packet that does not decode has none; one with compressed_packets holds bundles that come
 * before the ones after it, so nothing past it is handed over until it was decoded; a record
 * cut by the chunk's end stops the scan (its packet is gathered and decoded in the caller's
 * thread, with nothing handed over pending).
 */
#define AHEAD_PAUSE (64 * 1024)   /* after a small bundle with nothing waiting */
#define AHEAD_LOOK (256 * 1024)   /* bytes scanned between two looks at the bundles' share */
#define AHEAD_SKIP (1024 * 1024)  /* first pause where bundles are a small share; doubles */
#define AHEAD_SKIP_MAX (64u << 20)

/* Where @x of the chunk fed is in the whole input. */
static uint64_t at_of(const struct gfxstat_perfetto *p, const uint8_t *x)
{
	return p->chunk_at + (uint64_t)(x - p->chunk);
}

/* Nothing handed over from the scan's packet on until @bytes more of the input went by. */
static void pause_scan(struct gfxstat_perfetto *p, uint64_t bytes)
{
	p->scan_pause = at_of(p, p->scan) + bytes;
	p->held = NULL;
}

/* Bundle [d, d + n) of the packet ending at @pend handed over: 1 when taken. Else a small one
 * with nothing waiting is the caller's, and so is what follows for 64 kB; or enough is handed
 * over, and it waits (held) to be handed over when there is room, its packet not read again. */
static int hand_over(struct gfxstat_perfetto *p, const uint8_t *d, size_t n, const uint8_t *pend)
{
	if (gx_psched_ahead(p->ps, d, n))
		return 1;
	if (gx_psched_ahead_idle(p->ps)) {
		pause_scan(p, AHEAD_PAUSE);
	} else {
		p->held = d;
		p->held_n = n;
		p->held_end = pend;
	}
	return 0;
}

static void ahead(struct gfxstat_perfetto *p, const uint8_t *b, const uint8_t *end)
{
	if (!p->threads || at_of(p, b) < p->scan_pause)
		return;
	if (!p->scan || p->scan < b) {
		p->scan = b;
		p->held = NULL;
	}
	if (p->scan_block) {
		if (b <= p->scan_block)
			return;
		p->scan_block = NULL; /* decoded: go on past it */
	}
	if (p->held) {
		/* the packet at scan was read: its bundle waits for room */
		if (!hand_over(p, p->held, p->held_n, p->held_end))
			return;
		p->scan = p->held_end;
		p->held = NULL;
	}
	while (p->scan < end) {
		const uint8_t *s = p->scan, *body;
		uint64_t tag, len;
		struct gx_pb r;
		struct gx_pb_field f, bundle = { 0 };
		enum gx_pb_res res;
		int has_bundle = 0;

		if (gx_pb_varint(&s, end, &tag) != GX_PB_FIELD || (tag >> 3) == 0 ||
		    (tag >> 3) > 0x1fffffff)
			break;
		if ((tag & 7) == GX_PB_VARINT) {
			if (gx_pb_varint(&s, end, &len) != GX_PB_FIELD)
				break;
			p->scan = s;
			continue;
		}
		if ((tag & 7) == GX_PB_FIXED64 || (tag & 7) == GX_PB_FIXED32)
			len = (tag & 7) == GX_PB_FIXED64 ? 8 : 4;
		else if ((tag & 7) != GX_PB_LEN || gx_pb_varint(&s, end, &len) != GX_PB_FIELD)
			break;
		if (len > (uint64_t)(end - s))
			break;
		body = s;
		if ((tag & 7) != GX_PB_LEN || (tag >> 3) != TRACE_PACKET || len > p->lim.max_packet) {
			p->scan = body + len; /* skipped */
			continue;
		}
		gx_pb_init(&r, body, (size_t)len);
		while ((res = gx_pb_next(&r, &f)) == GX_PB_FIELD) {
			if (f.num == PKT_FTRACE_EVENTS && f.wire == GX_PB_LEN) {
				bundle = f, has_bundle = 1;
			} else if (f.num == PKT_COMPRESSED && f.wire == GX_PB_LEN) {
				p->scan_block = p->scan; /* (its own bundle too: in its turn) */
				return;
			}
		}
		if (res == GX_PB_MALFORMED)
			has_bundle = 0; /* decode_packet() reads none of it */
		p->scan_bytes += (size_t)(body + len - p->scan);
		if (has_bundle)
			p->scan_bundles += bundle.len;
		if (p->scan_bytes >= AHEAD_LOOK && !p->scan_eager) {
			/* bundles less than half of the bytes (FrameTimeline's packets): the
			 * caller's for a while, growing while it lasts, not read twice for little
			 * (what was handed over comes before: nothing is skipped) */
			int few = p->scan_bundles < p->scan_bytes / 2;

			p->scan_bytes = p->scan_bundles = 0;
			if (few) {
				p->scan_skip = p->scan_skip ? p->scan_skip * 2 : AHEAD_SKIP;
				if (p->scan_skip > AHEAD_SKIP_MAX)
					p->scan_skip = AHEAD_SKIP_MAX;
				pause_scan(p, p->scan_skip);
				return;
			}
			p->scan_skip = 0;
		}
		if (has_bundle && !hand_over(p, bundle.data, bundle.len, body + len))
			return;
		p->scan = body + len;
	}
	p->scan = end; /* nothing more to hand over from this chunk */
}

/* The chunk fed is done with: nothing handed over from it may stay. */
static void ahead_end(struct gfxstat_perfetto *p)
{
	if (p->scan) {
		gx_psched_ahead_end(p->ps);
		p->scan = p->scan_block = p->held = NULL;
	}
}

static void broken(struct gfxstat_perfetto *p)
{
	p->sum.broken++;
	p->st = ST_DONE;
	p->hdr_n = 0;
}

static int set_rc(struct gfxstat_perfetto *p, int rc)
{
	if (rc) {
		p->rc = rc;
		p->st = ST_DONE;
	}
	return rc;
}

static int feed(struct gfxstat_perfetto *p, const uint8_t *b, size_t n);

int gfxstat_perfetto_feed(struct gfxstat_perfetto *p, const void *buf, size_t n)
{
	int rc;

	if (!p)
		return GFXSTAT_E_INVAL;
	p->chunk = buf;
	p->chunk_at = p->sum.bytes;
	rc = feed(p, buf, n);
	ahead_end(p);
	return rc;
}

static int feed(struct gfxstat_perfetto *p, const uint8_t *b, size_t n)
{
	long used;
	size_t k;
	int rc;

	if (!p->ring)
		return GFXSTAT_E_NOMEM; /* gfxstat_perfetto_set_limits() could not allocate */
	if (p->rc)
		return p->rc;
	p->fed = 1;
	p->sum.bytes += n;
	GX_STAT_ADD(p->stats, bytes, n);
	while (n && p->st != ST_DONE) {
		switch (p->st) {
		case ST_HDR:
			if (p->hdr_n == 0) {
				ahead(p, b, b + n);
				used = parse_hdr(p, b, n);
				if (used > 0) {
					b += used;
					n -= (size_t)used;
					/* the whole packet is in this chunk: decode it in place */
					if (p->st == ST_BODY && p->need <= n) {
						rc = decode_packet(p, b, (size_t)p->need, 0);
						b += p->need;
						n -= (size_t)p->need;
						p->st = ST_HDR;
						if (set_rc(p, rc))
							return rc;
					}
					continue;
				}
				if (used < 0) {
					broken(p);
					break;
				}
			}
			/* a header cut by the chunk end: gather it a byte at a time */
			if (p->hdr_n == sizeof(p->hdr)) {
				broken(p);
				break;
			}
			p->hdr[p->hdr_n++] = *b++;
			n--;
			used = parse_hdr(p, p->hdr, p->hdr_n);
			if (used < 0)
				broken(p);
			else if (used > 0)
				p->hdr_n = 0;
			break;
		case ST_BODY:
			k = n < p->need ? n : (size_t)p->need;
			rc = gx_buf_add(&p->pkt, b, k);
			if (rc)
				return set_rc(p, GFXSTAT_E_NOMEM); /* need <= max: not LIMIT */
			b += k;
			n -= k;
			p->need -= k;
			break;
		case ST_SKIP:
			k = n < p->need ? n : (size_t)p->need;
			b += k;
			n -= k;
			p->need -= k;
			break;
		case ST_DONE:
			break;
		}
		if (p->need == 0 && p->st == ST_BODY) {
			p->st = ST_HDR;
			rc = decode_packet(p, (const uint8_t *)p->pkt.p, p->pkt.len, 0);
			if (set_rc(p, rc))
				return rc;
		} else if (p->need == 0 && p->st == ST_SKIP) {
			p->st = ST_HDR;
		}
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Delivery                                                                                 */

#define VSYNC_WINDOW 8                              /* gaps looked at on each side */
#define VSYNC_MIN_NS (1 * GFXSTAT_NSEC_PER_MSEC)     /* shorter gaps are not vsyncs (1 kHz) */
#define VSYNC_IDLE_NS (100 * GFXSTAT_NSEC_PER_MSEC)  /* longer gaps are idle, not periods */

/* Gap @g the shortest usable one so far (@min; 0: none yet)? */
static int shorter_usable(int64_t g, int64_t min)
{
	return g >= VSYNC_MIN_NS && g <= VSYNC_IDLE_NS && (!min || g < min);
}

/* Gap @g in the cluster of the shortest, @min: within 25 % of it, one period (jitter), not
 * two (16.7 vs 8.3 ms) nor the next mode (11.1 vs 8.3 ms) */
static int near_shortest(int64_t g, int64_t min)
{
	return g >= min && g <= min + min / 4;
}

/* The mean of the cluster of the shortest vsync gaps in g[0, n), or 0 if none is usable. */
static int64_t gap_cluster(const int64_t *g, size_t n)
{
	int64_t min = 0, sum = 0;
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (shorter_usable(g[i], min))
			min = g[i];
	if (!min)
		return 0;
	for (i = 0; i < n; i++)
		if (near_shortest(g[i], min))
			sum += g[i], k++;
	return sum / (int64_t)k;
}

/* The record of held frame @seq, valid until the next call; NULL when it cannot be read back. */
static const struct pf_frame *held_rec(struct gfxstat_perfetto *p, uint32_t seq)
{
	return (const struct pf_frame *)(const void *)gx_spill_at(&p->recs, rec_off(seq));
}

/*
 * The refresh period of each display frame, then of each surface frame from the display frame
 * that presented it (display_frame_token). SurfaceFlinger's expected display slice is
 * [vsync - sf work duration, vsync] (FrameTimeline.cpp DisplayFrame::tracePredictions traces
 * mSurfaceFlingerPredictions, which MessageQueue::vsyncCallback makes from the wakeup and vsync
 * times; LineageOS/android_frameworks_native services/surfaceflinger/FrameTimeline/
 * FrameTimeline.cpp, services/surfaceflinger/Scheduler/MessageQueue.cpp): its length is the
 * work duration (10.5 ms on a Pixel at 60 and at 120 Hz), not the period. Its end, the
 * predicted present, lies on the vsync grid, so the period is the spacing of consecutive
 * expected presents: the cluster of the shortest gaps near the frame.
 */
static int by_exp_end(const void *a, const void *b)
{
	const struct pf_end *x = a, *y = b;

	if (x->exp_end != y->exp_end)
		return x->exp_end < y->exp_end ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* token; a display frame's pair before the surface frames (the pair of least period first,
 * as a lower bound in pairs sorted by token and period found it); then arrival */
static int by_join(const void *a, const void *b)
{
	const struct pf_join *x = a, *y = b;

	if (x->token != y->token)
		return x->token < y->token ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->kind == JOIN_PAIR && x->val != y->val)
		return x->val < y->val ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Complete frames in present order, then the incomplete ones; ties in arrival order. */
static int cmp_frame(const void *a, const void *b)
{
	const struct pf_key *x = a, *y = b;

	if (x->complete != y->complete)
		return x->complete ? -1 : 1;
	if (x->complete && x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int put_key(struct gx_xsort *keys, int64_t end, int64_t vsync, uint32_t seq,
		   uint8_t complete)
{
	struct pf_key k;

	memset(&k, 0, sizeof(k)); /* the padding too: the records may go to a file */
	k.end = end;
	k.vsync = vsync;
	k.seq = seq;
	k.complete = complete;
	return gx_xsort_put(keys, &k);
}

/* The global cluster of the shortest gaps between the sorted expected ends (gap_cluster()
 * over every gap), in two passes over them: the shortest usable gap, then the gaps near it. */
static int global_gap(struct gx_xsort *ends, int64_t *glob)
{
	const struct pf_end *e;
	int64_t last = 0, min = 0, sum = 0, k = 0;
	int pass, first, rc = 0;

	for (pass = 0; pass < 2 && !rc; pass++) {
		first = 1;
		while ((e = gx_xsort_next(ends))) {
			int64_t g = e->exp_end - last;

			if (!first) {
				if (!pass && shorter_usable(g, min))
					min = g;
				else if (pass && near_shortest(g, min))
					sum += g, k++;
			}
			first = 0;
			last = e->exp_end;
		}
		rc = ends->failed ? ends->failed : gx_xsort_rewind(ends);
		if (!min)
			break;
	}
	*glob = k ? sum / k : 0;
	return rc;
}

/*
 * The refresh period of each display frame, then of each surface frame from the display frame
 * that presented it (display_frame_token). SurfaceFlinger's expected display slice is
 * [vsync - sf work duration, vsync] (FrameTimeline.cpp DisplayFrame::tracePredictions traces
 * mSurfaceFlingerPredictions, which MessageQueue::vsyncCallback makes from the wakeup and vsync
 * times; LineageOS/android_frameworks_native services/surfaceflinger/FrameTimeline/
 * FrameTimeline.cpp, services/surfaceflinger/Scheduler/MessageQueue.cpp): its length is the
 * work duration (10.5 ms on a Pixel at 60 and at 120 Hz), not the period. Its end, the
 * predicted present, lies on the vsync grid, so the period is the spacing of consecutive
 * expected presents: the cluster of the shortest gaps near the frame (VSYNC_WINDOW on each
 * side), else of all of them.
 * Every held frame's key goes to @keys with its period. The frames are read in streams
 * sorted past memory (gx_xsort): the display frames by expected end, through a window of
 * 2 VSYNC_WINDOW + 1 of them; then the surface frames by the display token they name, each
 * display frame's (token, period) ahead of them.
 */
#define WIN (2 * VSYNC_WINDOW + 2)
static int set_vsync(struct gfxstat_perfetto *p, struct gx_xsort *keys)
{
	struct gx_xsort ends, join;
	struct pf_end win[WIN]; /* sorted display frames i - VSYNC_WINDOW .. i + VSYNC_WINDOW */
	const struct pf_join *jn;
	const int64_t *decl = p->decl;
	int64_t glob = 0, declared = 0, period = GFXSTAT_NS_NONE, token = 0;
	size_t i, m, r = 0, j = 0, ndecl = p->ndecl;
	int rc = 0, paired = 0;

	gx_xsort_init(&ends, sizeof(struct pf_end), by_exp_end, PF_SORT_RUN, p->tmpdir);
	gx_xsort_init(&join, sizeof(struct pf_join), by_join, PF_SORT_RUN, p->tmpdir);
	for (i = 0; i < p->nframes && !rc; i++) {
		const struct pf_frame *f = held_rec(p, (uint32_t)i);

		if (!f) {
			rc = GFXSTAT_E_IO;
		} else if (f->kind == FT_ACTUAL_DISPLAY && f->exp_end != GFXSTAT_NS_NONE) {
			struct pf_end e;

			memset(&e, 0, sizeof(e));
			e.exp_end = f->exp_end;
			e.token = f->token;
			e.end = f->end;
			e.seq = f->seq;
			e.complete = f->complete;
			rc = gx_xsort_put(&ends, &e);
		} else if (f->kind == FT_ACTUAL_SURFACE) {
			struct pf_join s;

			memset(&s, 0, sizeof(s));
			s.token = f->display_token;
			s.end = f->end;
			s.seq = f->seq;
			s.kind = JOIN_SURFACE;
			s.complete = f->complete;
			rc = gx_xsort_put(&join, &s);
		} else {
			rc = put_key(keys, f->end, GFXSTAT_NS_NONE, f->seq, f->complete);
		}
	}
	m = ends.count;
	ends.keep = 1;
	if (!rc)
		rc = gx_xsort_sorted(&ends);
	if (!rc && m)
		rc = global_gap(&ends, &glob);
	for (i = 0; i < m && !rc; i++) {
		size_t lo = i > VSYNC_WINDOW ? i - VSYNC_WINDOW + 1 : 1;
		size_t hi = i + VSYNC_WINDOW + 1 < m ? i + VSYNC_WINDOW + 1 : m, k, ng = 0;
		int64_t gaps[WIN], v, vsync;
		const struct pf_end *d;
		struct pf_join pair;

		for (; r < m && r <= i + VSYNC_WINDOW; r++) { /* read ahead to the window's end */
			const struct pf_end *e = gx_xsort_next(&ends);

			if (!e) {
				rc = ends.failed ? ends.failed : GFXSTAT_E_IO;
				break;
			}
			win[r % WIN] = *e;
		}
		if (rc)
			break;
		for (k = lo; k < hi; k++)
			gaps[ng++] = win[k % WIN].exp_end - win[(k - 1) % WIN].exp_end;
		v = gap_cluster(gaps, ng);
		d = &win[i % WIN];
		/* the period declared last before the frame's expected present, where one is */
		while (j < ndecl && decl[2 * j] <= d->exp_end)
			declared = decl[2 * j + 1], j++;
		vsync = declared ? declared : v ? v : glob ? glob : GFXSTAT_NS_NONE;
		memset(&pair, 0, sizeof(pair));
		pair.token = d->token;
		pair.val = vsync;
		pair.seq = d->seq;
		pair.kind = JOIN_PAIR;
		rc = put_key(keys, d->end, vsync, d->seq, d->complete);
		if (!rc)
			rc = gx_xsort_put(&join, &pair);
	}
	p->sorted_to_file += ends.to_file;
	gx_xsort_free(&ends);
	if (!rc)
		rc = gx_xsort_sorted(&join);
	while (!rc && (jn = gx_xsort_next(&join))) {
		if (jn->kind == JOIN_PAIR) {
			if (!paired || jn->token != token) /* the least period of the token */
				period = jn->val;
			paired = 1;
			token = jn->token;
			continue;
		}
		rc = put_key(keys, jn->end, paired && token == jn->token ? period : GFXSTAT_NS_NONE,
			     jn->seq, jn->complete);
	}
	if (!rc)
		rc = join.failed;
	p->sorted_to_file += join.to_file;
	gx_xsort_free(&join);
	return rc;
}
#undef WIN

/* @lapp: each layer's package as its name gives it, found once per layer (NULL .p: not yet);
 * NULL: found for each frame */
static int deliver_frame(struct gfxstat_perfetto *p, const struct pf_frame *h,
			 struct gfxstat_str *lapp)
{
	struct gfxstat_frame fr;
	gfxstat_frame_fn fn = h->complete ? p->sink.frame : p->sink.incomplete;

	gfxstat_frame_init(&fr, h->kind == FT_ACTUAL_SURFACE ? GFXSTAT_SRC_FRAMETIMELINE
							      : GFXSTAT_SRC_FRAMETIMELINE_DISPLAY);
	if (h->layer) {
		fr.layer.p = p->layer_names.keys[h->layer - 1].p;
		fr.layer.n = p->layer_names.keys[h->layer - 1].n;
	}
	if (h->kind == FT_ACTUAL_SURFACE) {
		/* the process that drew it; else the package its layer names */
		fr.app = gfxstat_perfetto_app(p, h->pid);
		if (!fr.app.n && lapp && h->layer) {
			if (!lapp[h->layer - 1].p)
				lapp[h->layer - 1] = gfxstat_layer_app(fr.layer.p, fr.layer.n);
			fr.app = lapp[h->layer - 1];
		} else if (!fr.app.n) {
			fr.app = gfxstat_layer_app(fr.layer.p, fr.layer.n);
		}
		if (fr.app.n && h->complete)
			p->sum.frames_app++;
	}
	fr.pid = h->pid;
	fr.token = h->token;
	fr.display_token = h->display_token;
	fr.jank_type = h->jank_type;
	fr.present_type = h->present_type;
	fr.prediction_type = h->prediction_type;
	fr.janky = is_janky(h->kind, h->jank_type);
	fr.actual_start_ns = h->start;
	fr.vsync_period_ns = h->vsync;
	if (h->complete) {
		fr.actual_end_ns = h->end;
		fr.present_ns = h->end;
		fr.duration_ns = h->end - h->start;
	}
	fr.expected_start_ns = h->exp_start;
	fr.expected_end_ns = h->exp_end;
	if (h->kind == FT_ACTUAL_DISPLAY && h->has_exp)
		fr.desired_present_ns = h->exp_end;
	if (fn && fn(p->sink.user, &fr))
		return GFXSTAT_E_ABORTED;
	return 0;
}

/* Everything held, in the order the header promises. */
static int deliver(struct gfxstat_perfetto *p)
{
	const struct pf_proc *pr = p->procs.v;
	struct gfxstat_str *lapp;
	struct gx_xsort keys;
	const struct pf_key *k;
	size_t i;
	int rc;

	procs_finish(p);
	gx_xsort_init(&keys, sizeof(struct pf_key), cmp_frame, PF_SORT_RUN, p->tmpdir);
	rc = set_vsync(p, &keys); /* the markers are out: every declared period is known */
	if (!rc)
		rc = gx_xsort_sorted(&keys);
	for (i = 0; i < p->procs.n && p->sink.process && !rc; i++) {
		struct gfxstat_str name = { p->arena + pr[i].off, pr[i].n };

		if (p->sink.process(p->sink.user, pr[i].pid, name))
			rc = GFXSTAT_E_ABORTED;
	}
	lapp = calloc(p->layer_names.n + 1, sizeof(*lapp)); /* NULL: found for each frame */
	while (!rc && (k = gx_xsort_next(&keys))) {
		const struct pf_frame *r = held_rec(p, k->seq);
		struct pf_frame h;

		if (r) {
			h = *r;
			h.vsync = k->vsync;
		}
		rc = r ? deliver_frame(p, &h, lapp) : GFXSTAT_E_IO;
		gx_spill_done(&p->recs, rec_off(k->seq)); /* a block all gone on: its memory back */
	}
	if (!rc)
		rc = keys.failed;
	free(lapp);
	p->sorted_to_file += keys.to_file;
	gx_xsort_free(&keys);
	if (rc)
		return rc;
	p->nframes = 0;
	p->sum.held_to_file = (uint64_t)p->recs.spilled * GX_SPILL_BLOCK + p->sorted_to_file;
	gx_spill_free(&p->recs); /* every record has gone on */
	return 0;
}

int gfxstat_perfetto_finish(struct gfxstat_perfetto *p)
{
	uint64_t q;
	int rc = 0;

	if (!p)
		return GFXSTAT_E_INVAL;
	if (!p->ring)
		return GFXSTAT_E_NOMEM;
	if (p->rc || p->finished)
		return p->rc;
	p->finished = 1;
	if (p->st == ST_BODY && p->need == 0) {
		/* an empty packet body announced at the very end */
		p->st = ST_HDR;
		rc = decode_packet(p, (const uint8_t *)p->pkt.p, p->pkt.len, 0);
		if (set_rc(p, rc))
			return rc;
	}
	if (p->st != ST_DONE && (p->hdr_n || p->st == ST_BODY || (p->st == ST_SKIP && p->need)))
		p->sum.truncated++;
	p->st = ST_DONE;
	p->hdr_n = 0;
	/* actual frames still open, oldest first */
	q = p->seq > p->ring_cap ? p->seq - p->ring_cap : 0;
	for (; q < p->seq && !rc; q++) {
		uint32_t i = (uint32_t)(q & (p->ring_cap - 1));
		struct pf_slice *s = &p->ring[i];

		if (!s->used || s->ended)
			continue;
		if (s->kind == FT_ACTUAL_SURFACE || s->kind == FT_ACTUAL_DISPLAY) {
			p->sum.incomplete++;
			rc = hold_frame(p, s, 0);
		}
	}
	/* the markers and scheduler events still held go out before the processes and frames */
	if (!rc)
		rc = sched_sync(p, gx_psched_finish(p->ps));
	if (!rc)
		rc = deliver(p);
	return set_rc(p, rc);
}
