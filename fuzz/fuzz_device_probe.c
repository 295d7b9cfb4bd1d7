/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: every device-answer parser of gfxstat_device.h on the same text. Slices
 * returned must lie inside the input, rates must be sorted and distinct, focus components
 * must be written within bounds, and the adb device iterator must consume the whole text.
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

static void check_focus(enum gfxstat_parse_res r, const struct gfxstat_focus *f)
{
	char buf[16];
	size_t k;

	if (r == GFXSTAT_PARSE_FAIL)
		return;
	in_input(f->title);
	in_input(f->pkg);
	in_input(f->activity);
	k = gfxstat_focus_component(f, buf, sizeof(buf));
	/* terminated where the text ends (a NUL of the input may come earlier) */
	CHECK(buf[k < sizeof(buf) ? k : sizeof(buf) - 1] == '\0');
	if (r == GFXSTAT_PARSE_OK)
		CHECK(f->pkg.n && f->activity.n && k == gfxstat_focus_component(f, NULL, 0));
	else
		CHECK(k == 0 || (f->pkg.n && f->activity.n));
}

static void check_rates(enum gfxstat_parse_res r, const struct gfxstat_display_rates *d)
{
	uint32_t i;

	CHECK(d->n <= GFXSTAT_RATES_MAX);
	if (r != GFXSTAT_PARSE_OK) {
		CHECK(d->n == 0 && d->active_mhz == 0);
		return;
	}
	CHECK(d->n > 0);
	for (i = 0; i < d->n; i++) {
		CHECK(d->mhz[i] > 0 && d->mhz[i] <= 10000000);
		CHECK(gfxstat_mhz_to_period_ns(d->mhz[i]) > 0);
		if (i)
			CHECK(d->mhz[i - 1] < d->mhz[i]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct gfxstat_str t = { s, size }, v;
	struct gfxstat_adb_device dev;
	struct gfxstat_focus f;
	struct gfxstat_display_rates d;
	enum gfxstat_parse_res r;
	int64_t i64;
	uint32_t mhz;
	int on, guard = 0;

	lo = s;
	hi = s + size;
	while (gfxstat_adb_devices_next(&t, &dev)) {
		CHECK(++guard <= (int)size + 1);
		CHECK(dev.serial.n > 0 && dev.state_text.n > 0);
		in_input(dev.serial);
		in_input(dev.state_text);
		in_input(dev.devpath);
		in_input(dev.product);
		in_input(dev.model);
		in_input(dev.device);
		CHECK(dev.transport_id >= -1);
	}
	CHECK(t.n == 0);
	r = gfxstat_focus_name_parse(s, size, &f);
	check_focus(r, &f);
	r = gfxstat_focus_from_window(s, size, &f);
	check_focus(r, &f);
	r = gfxstat_focus_from_input(s, size, &f);
	check_focus(r, &f);
	if (gfxstat_fps_parse(s, size, &mhz) == GFXSTAT_PARSE_OK)
		CHECK(mhz > 0 && mhz <= 10000000);
	r = gfxstat_display_rates_parse(s, size, &d);
	check_rates(r, &d);
	r = gfxstat_sf_rates_parse(s, size, &d);
	check_rates(r, &d);
	if (gfxstat_sf_latency_period(s, size, &i64) == GFXSTAT_PARSE_OK)
		CHECK(i64 >= 1000000 && i64 <= 1000000000);
	if (gfxstat_getprop_value(s, size, &v) == GFXSTAT_PARSE_OK)
		in_input(v);
	if (gfxstat_getprop_find(s, size, "ro.build.version.sdk", &v) == GFXSTAT_PARSE_OK)
		in_input(v);
	if (gfxstat_id_uid(s, size, &i64) == GFXSTAT_PARSE_OK)
		CHECK(i64 >= 0 && i64 <= UINT32_MAX);
	if (gfxstat_tracefs_detect(s, size, &v) == GFXSTAT_PARSE_OK)
		in_input(v);
	if (gfxstat_tracing_on_parse(s, size, &on) == GFXSTAT_PARSE_OK)
		CHECK(on == 0 || on == 1);
	return 0;
}
