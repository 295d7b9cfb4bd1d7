/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the whole text pipeline of `gfxstat gfx`. Chunks go through
 * gfxstat_trace_parser_feed() into gfxstat_gfx_marker(); every fps.csv and dropFrames.csv
 * row is formatted into a small fixed buffer and a right-sized one; cheap invariants trap.
 *
 * Input layout: 8 option bytes, then the trace text. Each option byte is read as
 * v = (uint8_t)(byte - '0'), so the digits '0'..'9' (and then ':', ';', ... 'A' = 17) are
 * readable settings in a seed, and '0' is always the gfx.sh default or the plainest choice.
 *   0  type (-T) = v % 5
 *   1  refresh period = v % 8: 0 detect from the trace; 1 16.667 ms; 2 16666667 ns;
 *      3 11111111 ns; 4 8333333 ns; 5 1 ns; 6 33.333 ms; 7 1 s
 *   2  frames (-f) = v % 32, except 31 = -1 ("D" = 20, the default)
 *   3  window delay (-d) = v % 16 * 250 ms ('4' = 1 s, the default; '0' = every vsync)
 *   4  target (-t) = {60, 30, 90, 0.001}[v % 4]; kpi (-k) = {100, 16, 1000, 0}[v / 4 % 4]
 *   5  chunking, mode v % 4: 0 one feed; 1 one byte per feed; 2 fixed size v / 4 % 64 + 1;
 *      3 pseudo-random sizes 0..64 (including empty feeds), seeded from v / 4
 *   6  v % 16: the sink asks to stop at its Nth row (0 = never);
 *      v & 16: the text is fed twice, as two streams with a finish in between;
 *      v & 32: initial focus "com.fuzz.app/.Main" instead of "unknown"
 *   7  ignored; seeds put '\n' there so the text starts on a line of its own
 * Inputs shorter than 8 bytes are ignored. Each chunk is copied into a buffer of exactly its
 * size and freed after the feed, so AddressSanitizer catches a reader that keeps a pointer
 * into a chunk or reads past one. When the text was cut into chunks, the run is repeated
 * with one feed per stream, and the rows, counters and period must come out identical.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gfxstat/gfxstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define OPT_BYTES 8
#define SMALL_CAP 16
#define C_NS (42 * GFXSTAT_NSEC_PER_MSEC)
#define WAIT_NS (500 * GFXSTAT_NSEC_PER_MSEC)

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (!(cond))                                                               \
			__builtin_trap();                                                  \
	} while (0)

struct run {
	struct gfxstat_gfx_opts o;
	struct gfxstat_gfx *g;
	unsigned stop_at; /* the sink returns 1 at this row (1-based); 0 = never */
	unsigned rows;
	int fired;        /* the sink has asked to stop */
	int in_finish;    /* inside gfxstat_gfx_finish() */
	uint64_t windows, drops, window_frames;
	uint64_t hash;    /* FNV-1a of every formatted row, in order */
};

/* What must not depend on how the text was cut into chunks. */
struct result {
	uint64_t hash, rows;
	struct gfxstat_stats parser, gfx;
	int64_t period;
	int fired;
};

typedef size_t (*fmt_fn)(const void *row, char *buf, size_t cap);

static size_t fmt_window(const void *row, char *buf, size_t cap)
{
	return gfxstat_gfx_window_csv(row, buf, cap);
}

static size_t fmt_drop(const void *row, char *buf, size_t cap)
{
	return gfxstat_gfx_drop_csv(row, buf, cap);
}

static uint64_t fnv(uint64_t h, const char *p, size_t n)
{
	while (n--) {
		h ^= (unsigned char)*p++;
		h *= 1099511628211ULL;
	}
	return h;
}

/* The formatter must behave like snprintf whatever the capacity. */
static void check_format(struct run *r, fmt_fn fmt, const void *row)
{
	char small[SMALL_CAP + 1], *big;
	size_t n, n0, n1, k;

	small[0] = 'x';
	n0 = fmt(row, small, 0);
	CHECK(small[0] == 'x'); /* cap 0 writes nothing */
	small[SMALL_CAP] = 'x';
	n = fmt(row, small, SMALL_CAP);
	CHECK(n == n0);
	CHECK(n >= 2); /* at least a separator and the '\n' */
	CHECK(small[SMALL_CAP] == 'x');
	k = n < SMALL_CAP - 1 ? n : SMALL_CAP - 1;
	CHECK(small[k] == 0);

	big = malloc(n + 1);
	CHECK(big);
	n1 = fmt(row, big, n + 1);
	CHECK(n1 == n);
	CHECK(big[n] == 0 && big[n - 1] == '\n');
	CHECK(memcmp(small, big, k) == 0);
	r->hash = fnv(r->hash, big, n);
	free(big);

	/* one byte short: everything but the '\n', then the NUL */
	big = malloc(n);
	CHECK(big);
	n1 = fmt(row, big, n);
	CHECK(n1 == n);
	CHECK(big[n - 1] == 0);
	free(big);
}

static int sink_return(struct run *r)
{
	r->rows++;
	if (r->stop_at && r->rows == r->stop_at) {
		r->fired = 1;
		return 1;
	}
	return 0;
}

static int on_window(void *user, const struct gfxstat_gfx_window *w)
{
	struct run *r = user;

	CHECK(r->o.type < 3); /* types 3 and 4 write no fps.csv */
	CHECK(w->frames > 0);
	CHECK(!w->final || r->in_finish); /* gfxstat_gfx_finish() may also close others */
	if (!w->final && r->o.frames >= 0)
		CHECK(w->frames > (uint64_t)r->o.frames);
	/* each counted frame lands in at most one of the A, B, C buckets */
	CHECK(w->a + w->b + w->c <= w->frames);
	r->windows++;
	r->window_frames += w->frames;
	check_format(r, fmt_window, w);
	return sink_return(r);
}

static int on_drop(void *user, const struct gfxstat_gfx_drop *d)
{
	struct run *r = user;
	int64_t period = gfxstat_gfx_period(r->g, NULL);

	CHECK(r->o.type > 0); /* type 0 writes no dropFrames.csv */
	if (d->kind == 1) {
		CHECK(r->o.type == 1 || r->o.type == 3);
		CHECK(d->used_ns >= C_NS && d->used_ns < WAIT_NS);
	} else {
		CHECK(d->kind == 2);
		CHECK(r->o.type == 2 || r->o.type == 4);
		CHECK(period > 0 && d->used_ns > period);
	}
	r->drops++;
	check_format(r, fmt_drop, d);
	return sink_return(r);
}

/* Lines in @n bytes of one stream, as the line reader counts them. */
static uint64_t count_lines(const uint8_t *p, size_t n)
{
	uint64_t k = 0;
	size_t i;

	for (i = 0; i < n; i++)
		k += p[i] == '\n';
	return k + (n && p[n - 1] != '\n');
}

struct chunker {
	int mode;
	unsigned fixed;
	uint32_t state;
};

static size_t next_chunk(struct chunker *c, size_t left)
{
	size_t n;

	switch (c->mode) {
	case 0:
		n = left;
		break;
	case 1:
		n = 1;
		break;
	case 2:
		n = c->fixed;
		break;
	default: /* xorshift32: sizes 0..64, often 1 */
		c->state ^= c->state << 13;
		c->state ^= c->state >> 17;
		c->state ^= c->state << 5;
		n = c->state % 80;
		if (n > 64)
			n = 1;
		break;
	}
	return n < left ? n : left;
}

/* Feed one stream; returns 0, or the parser's error once the sink asked to stop. */
static int feed_stream(struct gfxstat_trace_parser *p, struct run *r, struct chunker *c,
		       const uint8_t *text, size_t n)
{
	size_t off = 0;
	int rc, fired = r->fired;

	while (off < n) {
		size_t len = next_chunk(c, n - off);
		char *chunk = malloc(len ? len : 1);

		CHECK(chunk);
		memcpy(chunk, text + off, len);
		rc = gfxstat_trace_parser_feed(p, chunk, len);
		free(chunk);
		off += len;
		/* the first stop request surfaces at once, as GFXSTAT_E_ABORTED */
		CHECK(rc == (r->fired != fired ? GFXSTAT_E_ABORTED : 0));
		if (rc)
			return rc;
	}
	rc = gfxstat_trace_parser_finish(p);
	CHECK(rc == (r->fired != fired ? GFXSTAT_E_ABORTED : 0));
	return rc;
}

static const int64_t periods[8] = {
	0, 16667000, 16666667, 11111111, 8333333, 1, 33333333, GFXSTAT_NSEC_PER_SEC,
};
static const double targets[4] = { 60, 30, 90, 0.001 };
static const double kpis[4] = { 100, 16, 1000, 0 };

/* One run over @text (twice if option byte 6 says so), cut into chunks as @mode says. */
static void run_pipeline(const uint8_t *v, int mode, const uint8_t *text, size_t n,
			 struct result *res)
{
	struct run r;
	struct gfxstat_gfx_sink sink;
	struct gfxstat_stats gs;
	const struct gfxstat_stats *ps;
	struct gfxstat_trace_parser *p;
	struct chunker c;
	int rc = 0, streams, s, fired;
	uint64_t lines = 0, bytes = 0, ok_markers;
	const char *src = NULL;
	int64_t period;

	memset(&r, 0, sizeof(r));
	memset(&gs, 0, sizeof(gs));
	r.hash = 1469598103934665603ULL;
	gfxstat_gfx_opts_init(&r.o);
	r.o.type = v[0] % 5;
	r.o.period_ns = periods[v[1] % 8];
	r.o.frames = v[2] % 32 == 31 ? -1 : (long)(v[2] % 32);
	r.o.delay_ns = (int64_t)(v[3] % 16) * 250 * GFXSTAT_NSEC_PER_MSEC;
	r.o.target = targets[v[4] % 4];
	r.o.kpi_ms = kpis[v[4] / 4 % 4];
	if (v[6] & 32)
		r.o.focus = "com.fuzz.app/.Main";
	r.stop_at = v[6] % 16;
	streams = v[6] & 16 ? 2 : 1;
	c.mode = mode;
	c.fixed = v[5] / 4 % 64 + 1;
	c.state = 0x9e3779b9u ^ v[5];

	sink.window = on_window;
	sink.drop = on_drop;
	sink.user = &r;
	r.g = gfxstat_gfx_new(&r.o, &sink, &gs);
	CHECK(r.g);
	p = gfxstat_trace_parser_new(gfxstat_gfx_marker, r.g);
	CHECK(p);
	ps = gfxstat_trace_parser_stats(p);

	for (s = 0; s < streams && !rc; s++) {
		rc = feed_stream(p, &r, &c, text, n);
		/* a stopped stream is cut short: its counts are not checked */
		if (!rc) {
			lines += count_lines(text, n);
			bytes += n;
		}
	}
	CHECK(rc == 0 || rc == GFXSTAT_E_ABORTED);
	CHECK(!rc == !r.fired);

	/* as the CLI: flush whatever was read, also after a stop */
	fired = r.fired;
	r.in_finish = 1;
	rc = gfxstat_gfx_finish(r.g);
	r.in_finish = 0;
	CHECK(rc == (r.fired != fired ? 1 : 0));

	period = gfxstat_gfx_period(r.g, &src);
	CHECK(period > 0 && src);
	if (r.o.period_ns)
		CHECK(period == r.o.period_ns && strcmp(src, "option") == 0);
	else
		CHECK(strcmp(src, "option") != 0);

	/* every line is counted once, in exactly one class; every event is one kind */
#define ST(st, name) ((st)->v[GFXSTAT_STAT_##name])
	if (!fired) {
		CHECK(ST(ps, lines) == lines);
		CHECK(ST(ps, bytes) == bytes);
	}
	CHECK(ST(ps, lines) == ST(ps, blank_lines) + ST(ps, comment_lines) +
				       ST(ps, ftrace_line_malformed) + ST(ps, events) +
				       ST(ps, line_too_long));
	CHECK(ST(ps, events) == ST(ps, other_events) + ST(ps, marker_events));
	CHECK(ST(ps, marker_events) >= ST(ps, marker_unsupported) + ST(ps, marker_malformed));
	ok_markers = ST(ps, marker_events) - ST(ps, marker_unsupported) - ST(ps, marker_malformed);
	CHECK(ST(&gs, gfx_vsync_lines) + ST(&gs, gfx_post_framebuffer) <= ok_markers);
	CHECK(ST(&gs, gfx_windows) == r.windows);
	CHECK(ST(&gs, gfx_drop_rows) == r.drops);
	CHECK(r.window_frames <= ST(&gs, gfx_frames));
	CHECK(ST(&gs, gfx_frames) <= ST(&gs, gfx_vsync_lines));
#undef ST

	res->hash = r.hash;
	res->rows = r.rows;
	res->parser = *ps;
	res->gfx = gs;
	res->period = period;
	res->fired = fired;
	gfxstat_trace_parser_free(p);
	gfxstat_gfx_free(r.g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t v[OPT_BYTES];
	struct result a, b;
	size_t i;
	int mode;

	if (size < OPT_BYTES)
		return 0;
	for (i = 0; i < OPT_BYTES; i++)
		v[i] = (uint8_t)(data[i] - '0');
	mode = v[5] % 4;
	run_pipeline(v, mode, data + OPT_BYTES, size - OPT_BYTES, &a);
	if (mode == 0)
		return 0;
	/* chunk boundaries must not matter (STYLE.md rule 4) */
	run_pipeline(v, 0, data + OPT_BYTES, size - OPT_BYTES, &b);
	CHECK(a.hash == b.hash && a.rows == b.rows && a.period == b.period);
	CHECK(a.fired == b.fired);
	CHECK(memcmp(&a.gfx, &b.gfx, sizeof(a.gfx)) == 0);
	/* a stop cuts the feeds short at different byte counts; the lines seen are the same */
	if (a.fired)
		a.parser.v[GFXSTAT_STAT_bytes] = b.parser.v[GFXSTAT_STAT_bytes];
	CHECK(memcmp(&a.parser, &b.parser, sizeof(a.parser)) == 0);
	return 0;
}
