/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the container unwrapper and gfxstat_detect(). The first byte picks how the
 * rest is cut into chunks (v % 4: one feed; one byte per feed; fixed size v / 4 + 1;
 * pseudo-random sizes 0..64); the rest is the input. Each chunk is copied into a buffer of
 * exactly its size, so AddressSanitizer catches a kept pointer. The output and the counters
 * must not depend on the cut, and in_bytes must equal the input size.
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

struct out {
	uint64_t hash, n;
};

static int on_bytes(void *user, const void *p, size_t n)
{
	struct out *o = user;
	const unsigned char *s = p;

	CHECK(n > 0);
	o->n += n;
	while (n--) {
		o->hash ^= *s++;
		o->hash *= 1099511628211ULL;
	}
	return 0;
}

static void run(const uint8_t *d, size_t n, int mode, unsigned fixed, struct out *o,
		struct gfxstat_unwrap_stats *st, int *kind)
{
	struct gfxstat_unwrap *u;
	uint32_t x = 0x9e3779b9u ^ fixed;
	size_t off = 0;

	memset(o, 0, sizeof(*o));
	o->hash = 1469598103934665603ULL;
	memset(st, 0, sizeof(*st));
	u = gfxstat_unwrap_new(on_bytes, o, st);
	CHECK(u);
	while (off < n) {
		size_t len;
		char *chunk;

		switch (mode) {
		case 0:
			len = n - off;
			break;
		case 1:
			len = 1;
			break;
		case 2:
			len = fixed;
			break;
		default:
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			len = x % 65;
			break;
		}
		if (len > n - off)
			len = n - off;
		chunk = malloc(len ? len : 1);
		CHECK(chunk);
		memcpy(chunk, d + off, len);
		CHECK(gfxstat_unwrap_feed(u, chunk, len) == 0);
		free(chunk);
		off += len;
	}
	CHECK(gfxstat_unwrap_finish(u) == 0);
	*kind = gfxstat_unwrap_kind(u);
	gfxstat_unwrap_free(u);
	CHECK(st->v[GFXSTAT_UNWRAP_STAT_in_bytes] == n);
	CHECK(st->v[GFXSTAT_UNWRAP_STAT_out_bytes] == o->n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gfxstat_unwrap_stats sa, sb;
	struct out a, b;
	int mode, ka, kb;
	enum gfxstat_format f;

	if (size < 1)
		return 0;
	mode = data[0] % 4;
	f = gfxstat_detect(data + 1, size - 1);
	CHECK((unsigned)f < GFXSTAT_FMT_COUNT);
	run(data + 1, size - 1, 0, 1, &a, &sa, &ka);
	if (mode == 0)
		return 0;
	run(data + 1, size - 1, mode, (unsigned)(data[0] / 4) + 1, &b, &sb, &kb);
	CHECK(a.n == b.n && a.hash == b.hash);
	CHECK(ka == kb);
	CHECK(memcmp(&sa, &sb, sizeof(sa)) == 0);
	return 0;
}
