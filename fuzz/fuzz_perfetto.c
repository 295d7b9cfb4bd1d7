/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the Perfetto protobuf decoder. The input is a trace; it is decoded twice,
 * once in one feed with the bundles decoded ahead on the decoder's thread
 * (gfxstat_perfetto_set_threads(); every bundle when the first byte is odd, else the large
 * ones as the CLI does) and once in chunks whose sizes come from the input's own
 * bytes, in the caller's thread alone, with small limits so that the limit paths run too.
 *
 * Checked: no crash or sanitizer report; both runs give the same callbacks (a hash over
 * every field and every byte of every slice) and the same summary; every frame has a
 * FrameTimeline source, a janky verdict of 0 or 1, and a present time equal to its actual
 * end; marker slices lie inside the ftrace line's payload; markers come first (they go out
 * while the trace is fed), in time order, then the processes in increasing pid order, then
 * complete frames in present order; the build and release strings are NUL-terminated.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_perfetto.h"
#include "../lib/input/perfetto_sched_local.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (!(cond))                                                               \
			__builtin_trap();                                                  \
	} while (0)

static void mix(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *s = p;

	while (n--) {
		*h ^= *s++;
		*h *= 1099511628211ULL;
	}
}

/* Delivery order of one run */
struct run {
	uint64_t h;
	int phase; /* 0 markers, 1 processes, 2 frames, 3 incomplete frames */
	int64_t last_pid, last_ts;
};

static int inside(struct gfxstat_str in, struct gfxstat_str outer)
{
	return in.n == 0 || (in.p >= outer.p && in.p + in.n <= outer.p + outer.n);
}

static int on_marker(void *user, const struct gfxstat_ftrace_line *ev,
		     const struct gfxstat_marker *m)
{
	struct run *r = user;
	uint64_t *h = &r->h;

	CHECK(r->phase == 0);
	CHECK(ev->ts_ns >= r->last_ts);
	r->last_ts = ev->ts_ns;
	CHECK(inside(m->name, ev->payload) && inside(m->track, ev->payload));
	mix(h, &ev->ts_ns, sizeof(ev->ts_ns));
	mix(h, &ev->pid, sizeof(ev->pid));
	mix(h, &ev->cpu, sizeof(ev->cpu));
	mix(h, ev->payload.p, ev->payload.n);
	mix(h, ev->ts_text.p, ev->ts_text.n);
	mix(h, &m->kind, sizeof(m->kind));
	mix(h, &m->value, sizeof(m->value));
	return 0;
}

static int on_process(void *user, int32_t pid, struct gfxstat_str name)
{
	struct run *r = user;

	CHECK(r->phase <= 1 && (r->phase == 0 || (int64_t)pid > r->last_pid) && name.n > 0);
	r->phase = 1;
	r->last_pid = pid;
	mix(&r->h, &pid, sizeof(pid));
	mix(&r->h, name.p, name.n);
	return 0;
}

static void hash_frame(uint64_t *h, const struct gfxstat_frame *f)
{
	CHECK(f->source == GFXSTAT_SRC_FRAMETIMELINE ||
	      f->source == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY);
	CHECK(f->janky == 0 || f->janky == 1);
	CHECK(f->present_ns == f->actual_end_ns);
	mix(h, f->layer.p, f->layer.n);
	mix(h, &f->pid, sizeof(f->pid));
	mix(h, &f->token, sizeof(f->token));
	mix(h, &f->display_token, sizeof(f->display_token));
	mix(h, &f->jank_type, sizeof(f->jank_type));
	mix(h, &f->present_type, sizeof(f->present_type));
	mix(h, &f->expected_start_ns, sizeof(f->expected_start_ns));
	mix(h, &f->expected_end_ns, sizeof(f->expected_end_ns));
	mix(h, &f->actual_start_ns, sizeof(f->actual_start_ns));
	mix(h, &f->actual_end_ns, sizeof(f->actual_end_ns));
	mix(h, &f->vsync_period_ns, sizeof(f->vsync_period_ns));
	mix(h, f->app.p, f->app.n);
	CHECK(f->vsync_period_ns == GFXSTAT_NS_NONE || f->vsync_period_ns > 0);
}

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct run *r = user;

	CHECK(r->phase <= 2);
	if (r->phase == 2)
		CHECK(f->present_ns >= r->last_ts);
	r->phase = 2;
	r->last_ts = f->present_ns;
	CHECK(f->duration_ns == f->actual_end_ns - f->actual_start_ns);
	hash_frame(&r->h, f);
	return 0;
}

static int on_incomplete(void *user, const struct gfxstat_frame *f)
{
	struct run *r = user;

	r->phase = 3;
	CHECK(f->present_ns == GFXSTAT_NS_NONE);
	hash_frame(&r->h, f);
	return 0;
}

static void decode(const uint8_t *data, size_t size, int chunked, struct run *h,
		   struct gfxstat_perfetto_summary *sum)
{
	struct gfxstat_perfetto_sink sink = { on_marker, on_frame, on_incomplete, h, on_process,
					       NULL, NULL, 0 };
	struct gfxstat_perfetto_limits l;
	struct gfxstat_perfetto *p = gfxstat_perfetto_new(&sink, NULL);
	size_t off = 0, i = 0;

	if (!p)
		return;
	memset(&l, 0, sizeof(l));
	l.max_packet = 64 * 1024;
	l.max_inflated = 1 << 20;
	l.max_open = 8;
	l.max_layer = 32;
	CHECK(gfxstat_perfetto_set_limits(p, &l) == 0);
	gfxstat_perfetto_set_threads(p, chunked ? 1 : 2);
	if (!chunked && size && (data[0] & 1))
		gx_perfetto_set_ahead_eager(p); /* small bundles handed over too */
	if (!chunked) {
		gfxstat_perfetto_feed(p, data, size);
	} else {
		while (off < size) {
			size_t k = size ? (size_t)data[i++ % size] % 17 + 1 : 1;

			if (k > size - off)
				k = size - off;
			gfxstat_perfetto_feed(p, data + off, k);
			off += k;
		}
	}
	gfxstat_perfetto_finish(p);
	*sum = *gfxstat_perfetto_summary(p);
	gfxstat_perfetto_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gfxstat_perfetto_summary a, b;
	struct run ha = { 1469598103934665603ULL, 0, INT64_MIN, INT64_MIN }, hb = ha;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	decode(data, size, 0, &ha, &a);
	decode(data, size, 1, &hb, &b);
	CHECK(ha.h == hb.h);
	CHECK(memcmp(&a, &b, sizeof(a)) == 0);
	CHECK(memchr(a.build, 0, sizeof(a.build)) && memchr(a.release, 0, sizeof(a.release)));
	CHECK(a.bytes == size);
	CHECK(a.frames_surface + a.frames_display <= a.ft_actual_surface + a.ft_actual_display);
	return 0;
}
