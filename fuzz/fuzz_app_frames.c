/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: app-side frames. The input (after its first byte) is trace text, parsed by
 * gfxstat_trace_parser into gfxstat_app_frames_marker(); the first byte picks the chunk size
 * (v % 32 + 1; 0 is one feed). Checks: frames come in present order with presents strictly
 * increasing per process, intervals equal to the present differences, durations >= 0, the
 * summary agrees with the frames, and the frames do not depend on the cut.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gfxstat/gfxstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (!(cond))                                                               \
			__builtin_trap();                                                  \
	} while (0)

#define PIDS 64

struct out {
	uint64_t hash, n;
	int64_t last_present;
	int32_t pid[PIDS];
	int64_t last[PIDS];
	int npid;
};

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct out *o = user;
	int i;

	CHECK(f->source == GFXSTAT_SRC_APP && f->pid > 0 && f->layer.n > 0);
	CHECK(f->duration_ns >= 0);
	CHECK(o->n == 0 || f->present_ns >= o->last_present);
	o->last_present = f->present_ns;
	for (i = 0; i < o->npid && o->pid[i] != f->pid; i++)
		;
	if (i < o->npid) {
		CHECK(f->present_ns > o->last[i]);
		CHECK(f->interval_ns == f->present_ns - o->last[i]);
		o->last[i] = f->present_ns;
	} else {
		CHECK(f->interval_ns == GFXSTAT_NS_NONE);
		if (o->npid < PIDS) {
			o->pid[o->npid] = f->pid;
			o->last[o->npid++] = f->present_ns;
		}
	}
	o->n++;
	o->hash = (o->hash ^ (uint64_t)f->present_ns) * 1099511628211ULL;
	o->hash = (o->hash ^ (uint64_t)f->duration_ns) * 1099511628211ULL;
	return 0;
}

static void run(const uint8_t *d, size_t n, size_t chunk, struct out *o)
{
	struct gfxstat_app_frames_summary s;
	struct gfxstat_app_frames *af;
	struct gfxstat_trace_parser *p;

	memset(o, 0, sizeof(*o));
	af = gfxstat_app_frames_new(on_frame, o);
	p = gfxstat_trace_parser_new(gfxstat_app_frames_marker, af);
	CHECK(af && p);
	while (n) {
		size_t k = chunk && chunk < n ? chunk : n;
		char *c = malloc(k);

		CHECK(c);
		memcpy(c, d, k);
		CHECK(gfxstat_trace_parser_feed(p, c, k) == 0);
		free(c);
		d += k;
		n -= k;
	}
	CHECK(gfxstat_trace_parser_finish(p) == 0);
	CHECK(gfxstat_app_frames_finish(af) == 0);
	gfxstat_app_frames_summary(af, &s);
	CHECK(s.frames == o->n);
	CHECK(s.draw_frames >= s.frames + s.lone_draws + s.extra_draws);
	gfxstat_trace_parser_free(p);
	gfxstat_app_frames_free(af);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct out a, b;

	if (size < 1)
		return 0;
	run(data + 1, size - 1, 0, &a);
	if (data[0] == 0)
		return 0;
	run(data + 1, size - 1, data[0] % 32 + 1, &b);
	CHECK(a.n == b.n && a.hash == b.hash);
	return 0;
}
