/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the `service call SurfaceFlinger 1013` answer parser and the interval judge
 * of gfxstat_device.h. A count comes only with GFXSTAT_PAGEFLIP_COUNT; a rate is never above
 * the refresh rate it was judged against, and is only given for OK and WRAP intervals.
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

static uint64_t take(const uint8_t **p, size_t *n, size_t k)
{
	uint64_t v = 0;

	while (k-- && *n) {
		v = v << 8 | **p;
		(*p)++;
		(*n)--;
	}
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gfxstat_pageflip_reply r;
	struct gfxstat_pageflip_step st;
	enum gfxstat_parse_res res;
	const uint8_t *p = data;
	size_t n = size;
	uint32_t prev, cur, mhz, eff;
	int64_t iv, slack;

	res = gfxstat_pageflip_reply_parse((const char *)data, size, &r);
	if (res == GFXSTAT_PARSE_OK)
		CHECK(r.kind == GFXSTAT_PAGEFLIP_COUNT);
	else if (res == GFXSTAT_PARSE_UNSUPPORTED)
		CHECK(r.kind != GFXSTAT_PAGEFLIP_COUNT && r.count == 0);
	else
		CHECK(res == GFXSTAT_PARSE_FAIL);
	if (r.kind != GFXSTAT_PAGEFLIP_ERROR)
		CHECK(r.status == 0);

	/* the same bytes as numbers for the judge */
	prev = (uint32_t)take(&p, &n, 4);
	cur = (uint32_t)take(&p, &n, 4);
	iv = (int64_t)take(&p, &n, 8);
	slack = (int64_t)take(&p, &n, 8);
	mhz = (uint32_t)take(&p, &n, 4);
	eff = !mhz ? GFXSTAT_PAGEFLIP_UNKNOWN_MAX_MHZ : mhz > 10000000u ? 10000000u : mhz;
	switch (gfxstat_pageflip_step(prev, cur, iv, slack, mhz, &st)) {
	case GFXSTAT_PAGEFLIP_STEP_OK:
	case GFXSTAT_PAGEFLIP_STEP_WRAP:
		CHECK(st.flips == cur - prev && st.fps_mhz <= eff);
		CHECK(st.span_ns >= iv && st.span_ns > 0);
		break;
	case GFXSTAT_PAGEFLIP_STEP_TOO_FAST:
		CHECK(cur >= prev && st.flips == cur - prev && st.fps_mhz == 0);
		break;
	case GFXSTAT_PAGEFLIP_STEP_RESET:
		CHECK(cur < prev && st.flips == 0 && st.fps_mhz == 0);
		break;
	case GFXSTAT_PAGEFLIP_STEP_BAD_TIME:
		CHECK(iv <= 0 && st.fps_mhz == 0);
		break;
	default:
		CHECK(0);
	}
	return 0;
}
