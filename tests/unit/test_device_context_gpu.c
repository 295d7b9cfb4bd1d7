/* SPDX-License-Identifier: MIT */
/*
 * record's GPU busy files beyond kgsl and its `dumpsys battery` fallback (lib/input/
 * device_context.c): the texts are as the kernels and BatteryService print them.
 */
#include <stdint.h>

#include "check.h"
#include "gfxstat/gfxstat_device_context.h"

#define LOAD(s, v) gfxstat_ctx_gpu_load(s, sizeof(s) - 1, v)

TEST(gpu_load)
{
	int64_t v = -1;

	/* Samsung's /sys/kernel/gpu/gpu_busy: "%3d%%\n" */
	CHECK_EQ(LOAD(" 37%\n", &v), GFXSTAT_PARSE_OK);
	CHECK_EQ(v, 370);
	CHECK_EQ(LOAD("100%", &v), GFXSTAT_PARSE_OK);
	CHECK_EQ(v, 1000);
	CHECK_EQ(LOAD("  0%", &v), GFXSTAT_PARSE_OK);
	CHECK_EQ(v, 0);
	/* a devfreq load: "%lu@%luHz\n" */
	CHECK_EQ(LOAD("45@800000000Hz\n", &v), GFXSTAT_PARSE_OK);
	CHECK_EQ(v, 450);
	/* a bare percent */
	CHECK_EQ(LOAD("12", &v), GFXSTAT_PARSE_OK);
	CHECK_EQ(v, 120);
	/* not a load */
	CHECK_EQ(LOAD("101%", &v), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(LOAD("45@800000000", &v), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(LOAD("45 %", &v), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(LOAD("", &v), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(LOAD("N/A", &v), GFXSTAT_PARSE_FAIL);
}

/* BatteryService.dumpInternal()'s text, as an Android 12 phone printed it */
static const char battery[] =
	"Current Battery Service state:\n"
	"  AC powered: false\n"
	"  USB powered: true\n"
	"  Wireless powered: false\n"
	"  Max charging current: 500000\n"
	"  Max charging voltage: 5000000\n"
	"  Charge counter: 2960000\n"
	"  status: 2\n"
	"  health: 2\n"
	"  present: true\n"
	"  level: 85\n"
	"  scale: 100\n"
	"  voltage: 4123\n"
	"  temperature: 312\n"
	"  technology: Li-ion\n";

TEST(dumpsys_battery)
{
	struct gfxstat_ctx_battery b;
	static const char cold[] = "  level: 7\r\n  scale: 50\r\n  temperature: -45\r\n";
	static const char box[] = "Current Battery Service state:\n  present: false\n  level: 0\n"
				  "  voltage: 0\n  temperature: 0\n";
	static const char none[] = "Can't find service: battery\n";

	CHECK_EQ(gfxstat_ctx_dumpsys_battery(battery, sizeof(battery) - 1, &b), GFXSTAT_PARSE_OK);
	CHECK_EQ(b.level, 85);
	CHECK_EQ(b.scale, 100);
	CHECK_EQ(b.voltage_mv, 4123);
	CHECK_EQ(b.temp_dc, 312);
	/* CRLF (adb before Android 7), a negative temperature, no voltage line */
	CHECK_EQ(gfxstat_ctx_dumpsys_battery(cold, sizeof(cold) - 1, &b), GFXSTAT_PARSE_OK);
	CHECK_EQ(b.level, 7);
	CHECK_EQ(b.scale, 50);
	CHECK_EQ(b.temp_dc, -45);
	CHECK(b.voltage_mv == INT64_MIN);
	/* no battery: its zeros are not values */
	CHECK_EQ(gfxstat_ctx_dumpsys_battery(box, sizeof(box) - 1, &b), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_ctx_dumpsys_battery(none, sizeof(none) - 1, &b),
		 GFXSTAT_PARSE_UNSUPPORTED);
	/* a key at the start of a line is not BatteryService's indented one */
	CHECK_EQ(gfxstat_ctx_dumpsys_battery("level: 5\n", 9, &b), GFXSTAT_PARSE_UNSUPPORTED);
}

TEST_SUITE(test_device_context_gpu)
{
	RUN(gpu_load);
	RUN(dumpsys_battery);
}
