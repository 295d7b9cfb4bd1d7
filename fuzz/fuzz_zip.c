/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: zip archives through the unwrapper (lib/input/container_zip.c, libzip). The
 * input is the archive. It is read twice, as libzip gets it: held from a stream (fed in
 * pseudo-random chunks), and reopened from a regular file named by gfxstat_unwrap_set_path()
 * (its bytes only counted). Both must pass on the same bytes and count the same, and a
 * stream limit one byte under the size must refuse it (zip_too_big) without output.
 */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* @path: read from that file; @limit: the stream limit (0: default) */
static void run(const uint8_t *d, size_t n, const char *path, size_t limit, struct out *o,
		struct gfxstat_unwrap_stats *st)
{
	struct gfxstat_unwrap *u;
	uint32_t x = 0x9e3779b9u ^ (uint32_t)n;
	size_t off = 0;

	memset(o, 0, sizeof(*o));
	o->hash = 1469598103934665603ULL;
	memset(st, 0, sizeof(*st));
	u = gfxstat_unwrap_new(on_bytes, o, st);
	CHECK(u);
	gfxstat_unwrap_set_zip_limit(u, limit);
	CHECK(gfxstat_unwrap_set_path(u, path) == 0);
	while (off < n) {
		size_t len;

		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		len = x % 4096 + 1;
		if (len > n - off)
			len = n - off;
		CHECK(gfxstat_unwrap_feed(u, d + off, len) == 0);
		off += len;
	}
	CHECK(gfxstat_unwrap_finish(u) == 0);
	gfxstat_unwrap_free(u);
	CHECK(st->v[GFXSTAT_UNWRAP_STAT_in_bytes] == n);
	CHECK(st->v[GFXSTAT_UNWRAP_STAT_out_bytes] == o->n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gfxstat_unwrap_stats sa, sb;
	struct out a, b;
	char path[] = "/tmp/gfxstat-fuzz-zip-XXXXXX";
	FILE *f;
	int fd;

	if (size < 4 || memcmp(data, "PK\3\4", 4) != 0)
		return 0; /* not a zip: fuzz_container covers the rest */
	run(data, size, NULL, 0, &a, &sa);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	f = fdopen(fd, "wb");
	CHECK(f && fwrite(data, 1, size, f) == size && fclose(f) == 0);
	run(data, size, path, 0, &b, &sb);
	unlink(path);
	CHECK(a.n == b.n && a.hash == b.hash);
	CHECK(memcmp(&sa, &sb, sizeof(sa)) == 0);
	if (gfxstat_unwrap_zip_support()) {
		run(data, size, NULL, size - 1, &b, &sb);
		CHECK(b.n == 0 && sb.v[GFXSTAT_UNWRAP_STAT_zip_too_big] == 1);
	}
	return 0;
}
