/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: gfxstat_pkg_version_parse() (`dumpsys package PKG`) with no package, a fixed
 * one and the package of the first block found. Slices returned must lie inside the input,
 * the result must agree with what it says was found, and a versionName must be trimmed.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gfxstat/gfxstat_device.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (!(cond))                                                               \
			__builtin_trap();                                                  \
	} while (0)

static const char *lo, *hi;

static void in_input(struct gfxstat_str s)
{
	if (!s.n)
		return;
	CHECK(s.p >= lo && s.p + s.n <= hi);
}

static void check(enum gfxstat_parse_res r, const struct gfxstat_pkg_version *v)
{
	CHECK(v->code >= -1);
	if (r == GFXSTAT_PARSE_FAIL) {
		CHECK(!v->pkg.n && !v->name.n && v->code == -1);
		return;
	}
	CHECK(v->pkg.n > 0);
	in_input(v->pkg);
	in_input(v->name);
	if (r == GFXSTAT_PARSE_OK)
		CHECK(v->name.n > 0 || v->code >= 0);
	else
		CHECK(r == GFXSTAT_PARSE_UNSUPPORTED && !v->name.n && v->code == -1);
	if (v->name.n) {
		CHECK(v->name.p[0] != ' ' && v->name.p[v->name.n - 1] != ' ');
		CHECK(!memchr(v->name.p, '\n', v->name.n));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct gfxstat_pkg_version v;
	enum gfxstat_parse_res r;
	char pkg[64];

	lo = s;
	hi = s + size;
	r = gfxstat_pkg_version_parse(s, size, NULL, &v);
	check(r, &v);
	/* the first block's package, asked for by name: the same block */
	if (r != GFXSTAT_PARSE_FAIL && v.pkg.n < sizeof(pkg) && !memchr(v.pkg.p, 0, v.pkg.n)) {
		struct gfxstat_pkg_version w;

		memcpy(pkg, v.pkg.p, v.pkg.n);
		pkg[v.pkg.n] = 0;
		CHECK(gfxstat_pkg_version_parse(s, size, pkg, &w) == r);
		check(r, &w);
		CHECK(w.pkg.p == v.pkg.p && w.name.n == v.name.n && w.code == v.code);
	}
	r = gfxstat_pkg_version_parse(s, size, "com.android.chrome", &v);
	check(r, &v);
	return 0;
}
