/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: systrace PROCESS DUMP blocks, read by the unwrapper. The input (after its
 * first byte) becomes the body of a <script class="trace-data"> block that starts with
 * "PROCESS DUMP\n", followed by a small ftrace text block. The first byte picks the chunk
 * size (v % 16 + 1; 0 is one feed). Every entry must have a pid > 0, a tid >= 0 and a name
 * of 1 to 512 bytes; the entries, the text passed on and the counters must not depend on
 * the cut.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gfxstat/gfxstat_container.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (!(cond))                                                               \
			__builtin_trap();                                                  \
	} while (0)

static const char pre[] = "<html>\n<script class=\"trace-data\" type=\"application/text\">\n"
			  "PROCESS DUMP\n";
static const char post[] = "\n</script>\n<script class=\"trace-data\">\n# tracer: nop\n"
			   "  a-1 (1) [000] ...1 1.000000: tracing_mark_write: B|1|x\n"
			   "</script></html>\n";

struct out {
	uint64_t hash, n, tasks;
};

static void mix(struct out *o, const void *p, size_t n)
{
	const unsigned char *s = p;

	while (n--) {
		o->hash ^= *s++;
		o->hash *= 1099511628211ULL;
	}
}

static int on_bytes(void *user, const void *p, size_t n)
{
	struct out *o = user;

	o->n += n;
	mix(o, p, n);
	return 0;
}

static int on_task(void *user, int32_t pid, int32_t tid, struct gfxstat_str name)
{
	struct out *o = user;

	CHECK(pid > 0 && tid >= 0);
	CHECK(name.n >= 1 && name.n <= 512 && name.p);
	o->tasks++;
	mix(o, &pid, sizeof(pid));
	mix(o, &tid, sizeof(tid));
	mix(o, name.p, name.n);
	return 0;
}

static void feed(struct gfxstat_unwrap *u, const void *p, size_t n, size_t chunk)
{
	const unsigned char *s = p;

	while (n) {
		size_t k = chunk && chunk < n ? chunk : n;
		char *c = malloc(k);

		CHECK(c);
		memcpy(c, s, k);
		CHECK(gfxstat_unwrap_feed(u, c, k) == 0);
		free(c);
		s += k;
		n -= k;
	}
}

static void run(const uint8_t *d, size_t n, size_t chunk, struct out *o,
		struct gfxstat_unwrap_stats *st)
{
	struct gfxstat_unwrap *u;

	memset(o, 0, sizeof(*o));
	o->hash = 1469598103934665603ULL;
	memset(st, 0, sizeof(*st));
	u = gfxstat_unwrap_new(on_bytes, o, st);
	CHECK(u);
	gfxstat_unwrap_set_task_fn(u, on_task, o);
	feed(u, pre, sizeof(pre) - 1, chunk);
	feed(u, d, n, chunk);
	feed(u, post, sizeof(post) - 1, chunk);
	CHECK(gfxstat_unwrap_finish(u) == 0);
	gfxstat_unwrap_free(u);
	CHECK(st->v[GFXSTAT_UNWRAP_STAT_dump_processes] + st->v[GFXSTAT_UNWRAP_STAT_dump_threads] ==
	      o->tasks);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gfxstat_unwrap_stats sa, sb;
	struct out a, b;

	if (size < 1 || memchr(data + 1, '<', size - 1))
		return 0; /* a '<' could close the block: that is the HTML target's job */
	run(data + 1, size - 1, 0, &a, &sa);
	if (data[0] == 0)
		return 0;
	run(data + 1, size - 1, data[0] % 16 + 1, &b, &sb);
	CHECK(a.n == b.n && a.hash == b.hash && a.tasks == b.tasks);
	CHECK(memcmp(&sa, &sb, sizeof(sa)) == 0);
	return 0;
}
