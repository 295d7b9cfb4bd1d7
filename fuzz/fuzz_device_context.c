/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: every parser of gfxstat_device_context.h on the same text. A reply split by
 * paths must hand back slices inside the input, indexes within the paths, and consume the
 * whole text; the line parsers must keep their ranges (a pid within int32, busy within
 * uint64 sums, a load's busy+idle never wrapping).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gfxstat/gfxstat_device_context.h"

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

/* The paths of a sample, the folders of the listing: prefixes of each other, a ':' in one. */
static const char *const paths[] = {
	"/proc/uptime", "/proc/stat", "/proc/4321/stat", "/proc/4321/status",
	"/sys/class/devfreq/soc:qcom,gpu/cur_freq", "/sys/class/thermal/thermal_zone1/temp",
	"/sys/class/thermal", "/sys/devices/system/cpu", "",
};
#define NPATHS (sizeof(paths) / sizeof(paths[0]))

static void split(const char *s, size_t size, char sep)
{
	struct gfxstat_str r = { s, size };
	struct gfxstat_ctx_line ln;
	size_t hint = 0, guard = 0;

	while (gfxstat_ctx_reply_next(&r, paths, NPATHS, sep, &hint, &ln)) {
		CHECK(++guard <= size + 1);
		CHECK(ln.path < NPATHS && hint == ln.path && paths[ln.path][0]);
		CHECK(ln.kind == GFXSTAT_CTX_TEXT || ln.kind == GFXSTAT_CTX_REFUSED);
		in_input(ln.text);
		CHECK(!memchr(ln.text.p, '\n', ln.text.n));
		if (sep == '/' && ln.kind == GFXSTAT_CTX_TEXT)
			CHECK(ln.text.n && !memchr(ln.text.p, '/', ln.text.n));
	}
	CHECK(r.n == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct gfxstat_ctx_cpu cpu;
	struct gfxstat_str name;
	uint64_t ticks;
	int64_t v, b, t;

	lo = s;
	hi = s + size;
	split(s, size, ':');
	split(s, size, '/');
	if (gfxstat_ctx_number(s, size, &v) == GFXSTAT_PARSE_OK)
		CHECK(size > 0);
	if (gfxstat_ctx_uptime(s, size, &v) == GFXSTAT_PARSE_OK)
		CHECK(v >= 0);
	if (gfxstat_ctx_proc_stat_line(s, size, &cpu) == GFXSTAT_PARSE_OK)
		CHECK(cpu.cpu >= -1 && cpu.busy + cpu.idle >= cpu.busy);
	if (gfxstat_ctx_gpubusy(s, size, &b, &t) == GFXSTAT_PARSE_OK)
		CHECK(b >= 0 && t >= 0);
	if (gfxstat_ctx_pid_ticks(s, size, &ticks) == GFXSTAT_PARSE_OK)
		CHECK(size > 2);
	if (gfxstat_ctx_status_kb(s, size, "VmRSS", &v) == GFXSTAT_PARSE_OK)
		CHECK(v >= 0);
	if (gfxstat_ctx_pidof(s, size, &v) == GFXSTAT_PARSE_OK)
		CHECK(v >= 1 && v <= INT32_MAX);
	if (gfxstat_atrace_category_line(s, size, &name) == GFXSTAT_PARSE_OK) {
		in_input(name);
		CHECK(name.n > 0);
	}
	return 0;
}
