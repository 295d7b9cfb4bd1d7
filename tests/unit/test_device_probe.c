/* SPDX-License-Identifier: MIT */
/*
 * Device-answer parsers (gfxstat_device.h) on real outputs. Each example names its source;
 * the "\r\r\n" line ends are what `adb shell` ptys give.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "gfxstat/gfxstat_capture.h"
#include "gfxstat/gfxstat_device.h"

#define S(lit) (lit), (sizeof(lit) - 1)

/* ---------------------------------------------------------------------------------------- */
/* adb devices                                                                                 */

TEST(adb_long_listing)
{
	/* AOSP commit 2ca3e6b "adb: Generalizing -s to take qualifiers" (the -l format) plus
	 * transport.cpp's " transport_id:N" (adb 1.0.40+) */
	static const char text[] =
		"* daemon not running; starting now at tcp:5037\r\n"
		"* daemon started successfully\r\n"
		"List of devices attached\r\n"
		"016B75D60A0060XX       device usb:2-5 product:mysid model:Galaxy_Nexus "
		"device:toro transport_id:1\r\n"
		"3731B535FAC200XX       device usb:1-4.2 product:soju model:Nexus_S device:crespo\n"
		"01498B1F020150XX       device usb:1-4.1   \n"
		"emulator-5554          offline transport_id:3\n"
		"\n";
	struct gfxstat_str t = { text, sizeof(text) - 1 };
	struct gfxstat_adb_device d;

	CHECK_EQ(gfxstat_adb_devices_next(&t, &d), 1);
	CHECK_STR(d.serial, "016B75D60A0060XX");
	CHECK_STR(d.state_text, "device");
	CHECK_EQ(d.state, GFXSTAT_ADB_DEVICE);
	CHECK_STR(d.devpath, "usb:2-5");
	CHECK_STR(d.product, "mysid");
	CHECK_STR(d.model, "Galaxy_Nexus");
	CHECK_STR(d.device, "toro");
	CHECK_EQ(d.transport_id, 1);
	CHECK_EQ(gfxstat_adb_devices_next(&t, &d), 1);
	CHECK_STR(d.serial, "3731B535FAC200XX");
	CHECK_STR(d.device, "crespo");
	CHECK_EQ(d.transport_id, -1);
	CHECK_EQ(gfxstat_adb_devices_next(&t, &d), 1);
	CHECK_STR(d.devpath, "usb:1-4.1");
	CHECK_EQ(d.product.n, 0);
	CHECK_EQ(gfxstat_adb_devices_next(&t, &d), 1);
	CHECK_STR(d.serial, "emulator-5554");
	CHECK_EQ(d.state, GFXSTAT_ADB_OFFLINE);
	CHECK_EQ(d.transport_id, 3);
	CHECK_EQ(gfxstat_adb_devices_next(&t, &d), 0);
	CHECK_EQ(gfxstat_adb_devices_next(&t, &d), 0);
}

TEST(adb_short_and_states)
{
	struct gfxstat_adb_device d;

	/* "adb devices" without -l: serial TAB state (linuxtopia adb guide) */
	CHECK_EQ(gfxstat_adb_device_line(S("emulator-5556\tdevice\r"), &d), GFXSTAT_PARSE_OK);
	CHECK_STR(d.serial, "emulator-5556");
	CHECK_EQ(d.state, GFXSTAT_ADB_DEVICE);
	CHECK_EQ(gfxstat_adb_device_line(S("cf264b8f\tunauthorized"), &d), GFXSTAT_PARSE_OK);
	CHECK_EQ(d.state, GFXSTAT_ADB_UNAUTHORIZED);
	/* "no permissions" carries its reason, spaces and all, before the extras */
	CHECK_EQ(gfxstat_adb_device_line(S("0123456789ABCDEF       no permissions (missing udev "
					   "rules? user is in the plugdev group); see "
					   "[http://developer.android.com/tools/device.html] "
					   "usb:1-1 transport_id:2"), &d),
		 GFXSTAT_PARSE_OK);
	CHECK_EQ(d.state, GFXSTAT_ADB_NO_PERMISSIONS);
	CHECK_STR(d.state_text, "no permissions (missing udev rules? user is in the plugdev "
		  "group); see [http://developer.android.com/tools/device.html]");
	CHECK_STR(d.devpath, "usb:1-1");
	CHECK_EQ(d.transport_id, 2);
	CHECK_EQ(gfxstat_adb_device_line(S("(no serial number)     recovery usb:3-1"), &d),
		 GFXSTAT_PARSE_OK);
	CHECK_STR(d.serial, "(no serial number)");
	CHECK_EQ(d.state, GFXSTAT_ADB_RECOVERY);
	CHECK_EQ(gfxstat_adb_device_line(S("192.168.0.123:5555     sideload product:x"), &d),
		 GFXSTAT_PARSE_OK);
	CHECK_EQ(d.state, GFXSTAT_ADB_SIDELOAD);
	CHECK_EQ(gfxstat_adb_device_line(S("abc bootloader"), &d), GFXSTAT_PARSE_OK);
	CHECK_EQ(d.state, GFXSTAT_ADB_BOOTLOADER);
	CHECK_EQ(gfxstat_adb_device_line(S("abc weird-new-state"), &d), GFXSTAT_PARSE_OK);
	CHECK_EQ(d.state, GFXSTAT_ADB_UNKNOWN);
	/* a bad transport_id is not an extra: it stays in the state text */
	CHECK_EQ(gfxstat_adb_device_line(S("abc device transport_id:x"), &d), GFXSTAT_PARSE_OK);
	CHECK_EQ(d.transport_id, -1);
	CHECK_STR(d.state_text, "device transport_id:x");
	/* chatter and malformed */
	CHECK_EQ(gfxstat_adb_device_line(S("List of devices attached\r\r"), &d),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_adb_device_line(S("adb server version (41) doesn't match this client "
					   "(39); killing..."), &d),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_adb_device_line(S("  \r"), &d), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_adb_device_line(S("lonelyserial"), &d), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_adb_device_line(S(""), &d), GFXSTAT_PARSE_UNSUPPORTED);
}

TEST(adb_devices_empty)
{
	struct gfxstat_str t = { NULL, 0 };
	struct gfxstat_adb_device d;
	static const char only[] = "List of devices attached\n\n";

	CHECK_EQ(gfxstat_adb_devices_next(&t, &d), 0);
	t.p = only;
	t.n = sizeof(only) - 1;
	CHECK_EQ(gfxstat_adb_devices_next(&t, &d), 0);
	CHECK_EQ(t.n, 0);
}

/* ---------------------------------------------------------------------------------------- */
/* Focus                                                                                       */

static void check_component(const struct gfxstat_focus *f, const char *want)
{
	char buf[128];
	size_t k = gfxstat_focus_component(f, buf, sizeof(buf));

	CHECK_EQ(k, strlen(want));
	CHECK_CSTR(buf, want);
}

TEST(focus_window_android5_9)
{
	/* Android 5.x, csdndocs.com/article/10490799 ("Android L ... FocusedApp") */
	static const char text[] =
		"  mHasPermanentDpad=false\r\r\n"
		"  mCurrentFocus=Window{343a0a2c u0 com.tct.launcher/com.tct.launcher.Launcher}\r\r\n"
		"  mFocusedApp=AppWindowToken{158efe19 token=Token{1f33d960 ActivityRecord{3ad78963 "
		"u0 com.tct.launcher/.Launcher t56}}}\r\r\n";
	struct gfxstat_focus f;

	CHECK_EQ(gfxstat_focus_from_window(S(text), &f), GFXSTAT_PARSE_OK);
	CHECK_STR(f.pkg, "com.tct.launcher");
	CHECK_STR(f.activity, "com.tct.launcher.Launcher");
	CHECK_EQ(f.user, 0);
	check_component(&f, "com.tct.launcher/com.tct.launcher.Launcher");
}

TEST(focus_window_android12)
{
	/* Android 12+, i-rtfsc.github.io/android/input/focused-window: the shade has focus, so
	 * the focused app (note the odd "} t12}") gives the activity */
	static const char text[] =
		"  mCurrentFocus=Window{f96644 u0 NotificationShade}\n"
		"  mFocusedApp=ActivityRecord{e9566ee u0 "
		"com.android.launcher3/.uioverrides.QuickstepLauncher} t12}\n";
	struct gfxstat_focus f;

	CHECK_EQ(gfxstat_focus_from_window(S(text), &f), GFXSTAT_PARSE_OK);
	CHECK_STR(f.pkg, "com.android.launcher3");
	CHECK_STR(f.activity, ".uioverrides.QuickstepLauncher");
	check_component(&f, "com.android.launcher3/com.android.launcher3.uioverrides."
			"QuickstepLauncher");
}

TEST(focus_window_null_and_missing)
{
	struct gfxstat_focus f;
	char small[8];

	CHECK_EQ(gfxstat_focus_from_window(S("  mCurrentFocus=null\r\n"), &f),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(f.title.n, 0);
	CHECK_EQ(gfxstat_focus_from_window(S("  mCurrentFocus=Window{f96644 u0 "
					     "NotificationShade}\n"), &f),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_STR(f.title, "NotificationShade");
	CHECK_EQ(f.pkg.n, 0);
	CHECK_EQ(gfxstat_focus_component(&f, small, sizeof(small)), 0);
	CHECK_CSTR(small, "");
	CHECK_EQ(gfxstat_focus_from_window(S("WINDOW MANAGER WINDOWS\n"), &f), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_focus_from_window(S(""), &f), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_focus_from_window(NULL, 0, &f), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_focus_from_window(S("mCurrentFocus=Window{abc"), &f),
		 GFXSTAT_PARSE_UNSUPPORTED);
}

TEST(focus_names)
{
	struct gfxstat_focus f;
	char buf[12];

	/* Android 12+ input names: hash, title (i-rtfsc.github.io input_focus log) */
	CHECK_EQ(gfxstat_focus_name_parse(S("e225d94 com.android.launcher3/com.android."
					    "launcher3.uioverrides.QuickstepLauncher"), &f),
		 GFXSTAT_PARSE_OK);
	CHECK_STR(f.pkg, "com.android.launcher3");
	CHECK_EQ(f.user, -1);
	CHECK_EQ(gfxstat_focus_name_parse(S("f96644 NotificationShade"), &f),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_STR(f.title, "NotificationShade");
	CHECK_EQ(gfxstat_focus_name_parse(S("com.x/.A"), &f), GFXSTAT_PARSE_OK);
	CHECK_EQ(gfxstat_focus_name_parse(S("Window{1 u10 com.x/.A EXITING}"), &f),
		 GFXSTAT_PARSE_OK);
	CHECK_EQ(f.user, 10);
	CHECK_STR(f.activity, ".A");
	CHECK_EQ(gfxstat_focus_name_parse(S("Window{1 u0 Splash Screen com.x}"), &f),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_STR(f.title, "Splash Screen com.x");
	CHECK_EQ(gfxstat_focus_name_parse(S("<null>"), &f), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_focus_name_parse(S("Window{1 u0 com.x/}"), &f),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_focus_name_parse(S("Window{1 u0 /.A}"), &f), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_focus_name_parse(S("Window{1"), &f), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_focus_name_parse(S("Window{}"), &f), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_focus_name_parse(S("1 2{x}"), &f), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_focus_name_parse(S(""), &f), GFXSTAT_PARSE_FAIL);
	/* truncation is reported as snprintf does */
	CHECK_EQ(gfxstat_focus_name_parse(S("com.example/.Main"), &f), GFXSTAT_PARSE_OK);
	CHECK_EQ(gfxstat_focus_component(&f, buf, sizeof(buf)), 28);
	CHECK_CSTR(buf, "com.example");
	CHECK_EQ(gfxstat_focus_component(&f, NULL, 0), 28);
}

TEST(focus_input)
{
	/* Android 7-9 InputDispatcher::dumpDispatchStateLocked(): "FocusedWindow: name='%s'"
	 * and window lines "%zu: name='%s', displayId=%d, paused=%s, hasFocus=%s, ..." */
	static const char a8[] =
		"  FocusedApplication: name='AppWindowToken{9a1c2b token=Token{3d2f1e "
		"ActivityRecord{5e6f7a u0 com.tencent.mm/.ui.LauncherUI t33}}}', "
		"dispatchingTimeout=5000.000ms\r\r\n"
		"  FocusedWindow: name='Window{22fa7e6 u0 com.tencent.mm/com.tencent.mm.ui."
		"LauncherUI}'\r\r\n"
		"  Windows:\r\r\n"
		"    0: name='Window{22fa7e6 u0 com.tencent.mm/com.tencent.mm.ui.LauncherUI}', "
		"displayId=0, paused=false, hasFocus=true, hasWallpaper=false, visible=true\r\r\n";
	/* the same window line alone, as the seed's gfx.sh greps it (awk $4 minus "}',") */
	static const char seed[] =
		"    3: name='Window{41d6b6a8 u0 com.android.launcher/com.android.launcher2."
		"Launcher}', paused=false, hasFocus=true, hasWallpaper=true, visible=true\n";
	/* Android 12+ FocusResolver::dumpFocusedWindows() (i-rtfsc.github.io example) */
	static const char a12[] =
		"Input Dispatcher State:\n"
		"  FocusedApplications:\n"
		"    displayId=0, name='ActivityRecord{e9566ee u0 com.android.launcher3/"
		".uioverrides.QuickstepLauncher} t12}', dispatchingTimeout=5000ms\n"
		"  FocusedWindows:\n"
		"    displayId=0, name='e225d94 com.android.launcher3/com.android.launcher3."
		"uioverrides.QuickstepLauncher'\n"
		"  FocusRequests:\n"
		"    displayId=0, name='f96644 NotificationShade' result='OK'\n";
	struct gfxstat_focus f;

	CHECK_EQ(gfxstat_focus_from_input(S(a8), &f), GFXSTAT_PARSE_OK);
	CHECK_STR(f.pkg, "com.tencent.mm");
	CHECK_STR(f.activity, "com.tencent.mm.ui.LauncherUI");
	CHECK_EQ(gfxstat_focus_from_input(S(seed), &f), GFXSTAT_PARSE_OK);
	CHECK_STR(f.title, "com.android.launcher/com.android.launcher2.Launcher");
	CHECK_EQ(gfxstat_focus_from_input(S(a12), &f), GFXSTAT_PARSE_OK);
	CHECK_STR(f.activity, "com.android.launcher3.uioverrides.QuickstepLauncher");
	CHECK_EQ(gfxstat_focus_from_input(S("  FocusedWindows:\n    displayId=0, "
					    "name='f96644 NotificationShade'\n"), &f),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_STR(f.title, "NotificationShade");
	CHECK_EQ(gfxstat_focus_from_input(S("  FocusedWindows: <none>\n"), &f),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_focus_from_input(S("  FocusedWindow: name='<null>'\n"), &f),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_focus_from_input(S("  FocusedWindow: <null>\n"), &f),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(f.title.n + f.pkg.n + f.activity.n, 0);
	CHECK_EQ(gfxstat_focus_from_input(S("hasFocus=true name='unterminated\n"), &f),
		 GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_focus_from_input(S(""), &f), GFXSTAT_PARSE_FAIL);
}

/* ---------------------------------------------------------------------------------------- */
/* Refresh rates                                                                               */

TEST(fps_parse)
{
	uint32_t m = 0;

	CHECK_EQ(gfxstat_fps_parse(S("60.000004"), &m), GFXSTAT_PARSE_OK);
	CHECK_EQ(m, 60000);
	CHECK_EQ(gfxstat_fps_parse(S("59.94"), &m), GFXSTAT_PARSE_OK);
	CHECK_EQ(m, 59940);
	CHECK_EQ(gfxstat_fps_parse(S("120"), &m), GFXSTAT_PARSE_OK);
	CHECK_EQ(m, 120000);
	CHECK_EQ(gfxstat_fps_parse(S("90.0004999999"), &m), GFXSTAT_PARSE_OK);
	CHECK_EQ(m, 90000);
	CHECK_EQ(gfxstat_fps_parse(S("90.0005"), &m), GFXSTAT_PARSE_OK);
	CHECK_EQ(m, 90001);
	CHECK_EQ(gfxstat_fps_parse(S("0.0"), &m), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_fps_parse(S("Infinity"), &m), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_fps_parse(S("NaN"), &m), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_fps_parse(S("99999999999999999999"), &m), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_fps_parse(S("1.0E-5"), &m), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_fps_parse(S("60."), &m), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_fps_parse(S("-60"), &m), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_fps_parse(S(""), &m), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_mhz_to_period_ns(60000), 16666667);
	CHECK_EQ(gfxstat_mhz_to_period_ns(90000), 11111111);
	CHECK_EQ(gfxstat_mhz_to_period_ns(120000), 8333333);
	CHECK_EQ(gfxstat_mhz_to_period_ns(0), 0);
}

TEST(display_android13_emulator)
{
	/* Android Studio PhysicalDisplayIdResolverTest.kt (emulator dump, Android 13): the
	 * built-in screen is read, not the 160 Hz HDMI screen listed next */
	static const char text[] =
		"Display Devices: size=6\r\r\n"
		"  DisplayDeviceInfo{\"Built-in Screen\": uniqueId=\"local:4619827259835644672\", "
		"1080 x 600, modeId 1, defaultModeId 1, supportedModes [{id=1, width=1080, "
		"height=600, fps=60.000004, alternativeRefreshRates=[]}], colorMode 0, "
		"supportedColorModes [0], state ON}\r\r\n"
		"    mActiveModeId=1\r\r\n"
		"    mSfDisplayModes=\r\r\n"
		"      DisplayMode{id=0, width=1080, height=600, xDpi=120.0, yDpi=120.0, "
		"refreshRate=60.000004, appVsyncOffsetNanos=1000000, presentationDeadlineNanos="
		"16666666, group=0}\r\r\n"
		"    mActiveSfDisplayMode=DisplayMode{id=0, width=1080, height=600, xDpi=120.0, "
		"yDpi=120.0, refreshRate=60.000004, appVsyncOffsetNanos=1000000, "
		"presentationDeadlineNanos=16666666, group=0}\r\r\n"
		"    mSupportedModes=\r\r\n"
		"      DisplayModeRecord{mMode={id=1, width=1080, height=600, fps=60.000004, "
		"alternativeRefreshRates=[]}}\r\r\n"
		"  DisplayDeviceInfo{\"HDMI Screen\": uniqueId=\"local:4619827551948147201\", "
		"400 x 600, modeId 2, defaultModeId 2, supportedModes [{id=2, width=400, "
		"height=600, fps=160.0, alternativeRefreshRates=[]}], colorMode 0}\r\r\n"
		"    mActiveSfDisplayMode=DisplayMode{id=0, refreshRate=160.0, group=0}\r\r\n";
	struct gfxstat_display_rates r;

	CHECK_EQ(gfxstat_display_rates_parse(S(text), &r), GFXSTAT_PARSE_OK);
	CHECK_EQ(r.n, 1);
	CHECK_EQ(r.mhz[0], 60000);
	CHECK_EQ(r.active_mhz, 60000);
	CHECK_EQ(r.render_mhz, 0);
}

TEST(display_multi_rate)
{
	/* A 60/90/120 Hz phone, Android 15 forms: Display.Mode.toString() with ", vsync=" and
	 * supportedHdrTypes, DisplayDeviceInfo with renderFrameRate, SurfaceControl.DisplayMode
	 * with peakRefreshRate/vsyncRate, mActiveRenderFrameRate (LocalDisplayAdapter). Mode
	 * strings from AOSP Display.java / SurfaceControl.java; the rates are illustrative. */
	static const char text[] =
		"  DisplayDeviceInfo{\"Built-in Screen\": uniqueId=\"local:4619827677550801152\", "
		"1080 x 2400, modeId 2, renderFrameRate 60.0, defaultModeId 1, "
		"userPreferredModeId -1, supportedModes [{id=1, width=1080, height=2400, "
		"fps=120.00001, vsync=120.00001, alternativeRefreshRates=[60.000004, 90.0], "
		"supportedHdrTypes=[2, 3, 4]}, {id=2, width=1080, height=2400, fps=90.0, "
		"vsync=90.0, alternativeRefreshRates=[60.000004, 120.00001], supportedHdrTypes="
		"[2, 3, 4]}, {id=3, width=1080, height=2400, fps=60.000004, vsync=60.000004, "
		"alternativeRefreshRates=[90.0, 120.00001], supportedHdrTypes=[2, 3, 4]}, "
		"{id=4, width=720, height=1600, fps=60.0, vsync=60.0, alternativeRefreshRates=[], "
		"supportedHdrTypes=[]}], colorMode 0}\n"
		"    mSfDisplayModes=\n"
		"      DisplayMode{id=0, width=1080, height=2400, peakRefreshRate=120.00001, "
		"vsyncRate=120.00001, group=0}\n"
		"    mActiveSfDisplayMode=DisplayMode{id=1, width=1080, height=2400, xDpi=409.432, "
		"yDpi=406.4, peakRefreshRate=90.0, vsyncRate=90.0, appVsyncOffsetNanos=1000000, "
		"group=0}\n"
		"    mActiveRenderFrameRate=60.0   \n";
	struct gfxstat_display_rates r;

	CHECK_EQ(gfxstat_display_rates_parse(S(text), &r), GFXSTAT_PARSE_OK);
	CHECK_EQ(r.n, 3);
	CHECK_EQ(r.mhz[0], 60000);
	CHECK_EQ(r.mhz[1], 90000);
	CHECK_EQ(r.mhz[2], 120000);
	CHECK_EQ(r.active_mhz, 90000);
	CHECK_EQ(r.render_mhz, 60000);
	CHECK_EQ(gfxstat_mhz_to_period_ns(r.active_mhz), 11111111);
}

TEST(display_old_and_bad)
{
	/* Android 6-9 logical display line only (DisplayInfo.toString(): ", mode N,
	 * defaultMode N, modes [..]"), as in scrcpy's CommandParserTest */
	static const char old[] =
		"  mBaseDisplayInfo=DisplayInfo{\"Built-in Screen\", displayId 0, real 1440 x "
		"3120, largest app 1440 x 3120, smallest app 1440 x 3120, mode 3, defaultMode 1, "
		"modes [{id=1, width=1440, height=3120, fps=60.0}, {id=3, width=1440, "
		"height=3120, fps=90.0}], hdrCapabilities HdrCapabilities{}}\n";
	struct gfxstat_display_rates r;

	CHECK_EQ(gfxstat_display_rates_parse(S(old), &r), GFXSTAT_PARSE_OK);
	CHECK_EQ(r.n, 2);
	CHECK_EQ(r.active_mhz, 90000);
	CHECK_EQ(gfxstat_display_rates_parse(S(""), &r), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_display_rates_parse(NULL, 0, &r), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_display_rates_parse(S("DisplayDeviceInfo{supportedModes [{id=1, "
					       "fps=Infinity}, {id=2, fps="), &r),
		 GFXSTAT_PARSE_FAIL);
	CHECK_EQ(r.n, 0);
	CHECK_EQ(gfxstat_display_rates_parse(S("DisplayDeviceInfo{supportedModes [{id=1, "
					       "fps=60.0}, {id=2, fps=90"), &r),
		 GFXSTAT_PARSE_OK);
	CHECK_EQ(r.n, 1);
}

TEST(sf_rates)
{
	/* Android 4.1-9 SurfaceFlinger::dumpAllLocked() */
	static const char a9[] =
		"  last transaction time     : 12.000000 us\r\r\n"
		"  transaction-flags         : 00000000\r\r\n"
		"  refresh-rate              : 60.000002 fps\r\r\n"
		"  x-dpi                     : 403.411011\r\r\n";
	/* Android 11-13 public dumps (scribd "SF Dump"): time in state, then the scheduler */
	static const char a12[] =
		"mScreenAcquired=1 mPrimaryHWVsyncEnabled=0 mHWVsyncAvailable=1\n"
		"ScreenOff: 0d07:58:45.174\n"
		"60.00 Hz: 0d20:17:38.205\n"
		"120.00 Hz: 0d01:02:03.000\n"
		"app phase: 0 ns SF phase: 0 ns\n"
		"present offset: 0 ns\t     VSYNC period: 8333333 ns\n";
	static const char a11[] = "ScreenOff: 0d07:25:19.595\n60.00fps: 0d00:01:00.000\n";
	struct gfxstat_display_rates r;

	CHECK_EQ(gfxstat_sf_rates_parse(S(a9), &r), GFXSTAT_PARSE_OK);
	CHECK_EQ(r.n, 1);
	CHECK_EQ(r.active_mhz, 60000);
	CHECK_EQ(gfxstat_sf_rates_parse(S(a12), &r), GFXSTAT_PARSE_OK);
	CHECK_EQ(r.n, 2);
	CHECK_EQ(r.mhz[1], 120000);
	CHECK_EQ(r.active_mhz, 120000);
	CHECK_EQ(gfxstat_sf_rates_parse(S(a11), &r), GFXSTAT_PARSE_OK);
	CHECK_EQ(r.n, 1);
	CHECK_EQ(r.active_mhz, 0);
	CHECK_EQ(gfxstat_sf_rates_parse(S("VSYNC period: 0 ns\n"), &r), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_sf_rates_parse(S("nothing here\n"), &r), GFXSTAT_PARSE_FAIL);
}

TEST(sf_latency_period)
{
	int64_t p = 0;

	/* the first line of --latency: the refresh period (seed gfx.sh, NR==1) */
	CHECK_EQ(gfxstat_sf_latency_period(S("16666666\r\r\n0\t0\t0\r\r\n"), &p),
		 GFXSTAT_PARSE_OK);
	CHECK_EQ(p, 16666666);
	CHECK_EQ(gfxstat_sf_latency_period(S("8333333"), &p), GFXSTAT_PARSE_OK);
	CHECK_EQ(p, 8333333);
	CHECK_EQ(gfxstat_sf_latency_period(S("0\n"), &p), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_sf_latency_period(S("-16666\n"), &p), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_sf_latency_period(S("9223372036854775807\n"), &p),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_sf_latency_period(S("9223372036854775808\n"), &p), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_sf_latency_period(S("\n16666666\n"), &p), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_sf_latency_period(S("Can't find layer\n"), &p), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_sf_latency_period(S("-"), &p), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_sf_latency_period(S(""), &p), GFXSTAT_PARSE_FAIL);
}

/* ---------------------------------------------------------------------------------------- */
/* Small answers                                                                               */

TEST(getprop_and_id)
{
	struct gfxstat_str v;
	int64_t uid = -1;
	static const char list[] =
		"[ro.build.version.release]: [14]\r\n"
		"[ro.build.version.sdk]: [34]\r\n"
		"[ro.empty]: []\r\n";

	CHECK_EQ(gfxstat_getprop_value(S("34\r\r\n"), &v), GFXSTAT_PARSE_OK);
	CHECK_STR(v, "34");
	CHECK_EQ(gfxstat_getprop_value(S("  Pixel 7 Pro \r\n"), &v), GFXSTAT_PARSE_OK);
	CHECK_STR(v, "Pixel 7 Pro");
	CHECK_EQ(gfxstat_getprop_value(S("\r\r\n"), &v), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_getprop_value(S(""), &v), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_getprop_find(S(list), "ro.build.version.sdk", &v), GFXSTAT_PARSE_OK);
	CHECK_STR(v, "34");
	CHECK_EQ(gfxstat_getprop_find(S(list), "ro.empty", &v), GFXSTAT_PARSE_OK);
	CHECK_EQ(v.n, 0);
	CHECK_EQ(gfxstat_getprop_find(S(list), "ro.build", &v), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_id_uid(S("2000\r\r\n"), &uid), GFXSTAT_PARSE_OK);
	CHECK_EQ(uid, 2000);
	CHECK_EQ(gfxstat_id_uid(S("uid=0(root) gid=0(root) groups=0(root) context=u:r:su:s0\n"),
				&uid), GFXSTAT_PARSE_OK);
	CHECK_EQ(uid, 0);
	CHECK_EQ(gfxstat_id_uid(S("/system/bin/sh: id: not found\n"), &uid), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_id_uid(S("99999999999"), &uid), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_id_uid(S("uid=12"), &uid), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_id_uid(S(""), &uid), GFXSTAT_PARSE_FAIL);
}

TEST(tracefs)
{
	struct gfxstat_str d;
	int on = -1;

	/* toybox ls error lines ("ls: PATH: No such file or directory") */
	CHECK_EQ(gfxstat_tracefs_detect(S("ls: /sys/kernel/debug/tracing/trace_pipe: No such "
					  "file or directory\r\r\n/sys/kernel/tracing/trace_pipe"
					  "\r\r\n"), &d), GFXSTAT_PARSE_OK);
	CHECK_STR(d, "/sys/kernel/tracing");
	CHECK_EQ(gfxstat_tracefs_detect(S("/sys/kernel/debug/tracing/trace_pipe\n"
					  "/sys/kernel/tracing/trace_pipe\n"), &d),
		 GFXSTAT_PARSE_OK);
	CHECK_STR(d, "/sys/kernel/tracing");
	CHECK_EQ(gfxstat_tracefs_detect(S("ls: /sys/kernel/tracing/trace_pipe: Permission "
					  "denied\n/sys/kernel/debug/tracing/trace_pipe  \n"), &d),
		 GFXSTAT_PARSE_OK);
	CHECK_STR(d, "/sys/kernel/debug/tracing");
	CHECK_EQ(gfxstat_tracefs_detect(S("ls: /sys/kernel/tracing/trace_pipe: No such file or "
					  "directory\nls: /sys/kernel/debug/tracing: Permission "
					  "denied\n"), &d), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_tracefs_detect(S("/trace_pipe\n"), &d), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_tracefs_detect(S(""), &d), GFXSTAT_PARSE_UNSUPPORTED);
	/* seed gfx.sh: `cat /sys/kernel/debug/tracing/tracing_on` -eq 1 */
	CHECK_EQ(gfxstat_tracing_on_parse(S("1\r\r\n"), &on), GFXSTAT_PARSE_OK);
	CHECK_EQ(on, 1);
	CHECK_EQ(gfxstat_tracing_on_parse(S("0\n"), &on), GFXSTAT_PARSE_OK);
	CHECK_EQ(on, 0);
	CHECK_EQ(gfxstat_tracing_on_parse(S("cat: /sys/kernel/tracing/tracing_on: Permission "
					    "denied\n"), &on), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_tracing_on_parse(S("2"), &on), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_tracing_on_parse(S(""), &on), GFXSTAT_PARSE_FAIL);
}

/* ---------------------------------------------------------------------------------------- */
/* service call SurfaceFlinger 1013                                                          */

TEST(pageflip_reply)
{
	struct gfxstat_pageflip_reply r;

	/* mobileperf's example form (fps.py: '^Result: Parcel\((\w+)', base 16): one int32,
	 * HexDump's word then its bytes as text. 0x00dc8c2f = 220 * 65536 + 140 * 256 + 47 */
	CHECK_EQ(gfxstat_pageflip_reply_parse(S("Result: Parcel(00dc8c2f    '/...')\r\r\n"), &r),
		 GFXSTAT_PARSE_OK);
	CHECK_EQ(r.kind, GFXSTAT_PAGEFLIP_COUNT);
	CHECK_EQ(r.count, 14453807);
	/* the top of the uint32 range, and a quoted text holding ')' and '\'' */
	CHECK_EQ(gfxstat_pageflip_reply_parse(S("Result: Parcel(ffffffff '.)'.')"), &r),
		 GFXSTAT_PARSE_OK);
	CHECK_EQ(r.count, 4294967295u);
	/* 1013 "Unused. return NAME_NOT_FOUND" (Android 13+), PERMISSION_DENIED, SELinux: a
	 * status code, the reply stays empty */
	CHECK_EQ(gfxstat_pageflip_reply_parse(S("Result: Parcel(NULL)\n"), &r),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(r.kind, GFXSTAT_PAGEFLIP_EMPTY);
	/* Parcel::print(): (void*)(intptr_t)err, 64-bit: 0x..b6 is -74 (EBADMSG) */
	CHECK_EQ(gfxstat_pageflip_reply_parse(S("Result: Parcel(Error: 0xffffffffffffffb6 \"Not "
						"a data message\")\n"), &r),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(r.kind, GFXSTAT_PAGEFLIP_ERROR);
	CHECK_EQ(r.status, -74);
	/* 32-bit: 0xfffffffe is -2 (NAME_NOT_FOUND, -ENOENT) */
	CHECK_EQ(gfxstat_pageflip_reply_parse(S("Result: Parcel(Error: 0xfffffffe \"No such file "
						"or directory\")"), &r),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(r.status, -2);
	/* a vendor's 1013 that answers something else: two words, or a multi-line dump */
	CHECK_EQ(gfxstat_pageflip_reply_parse(S("Result: Parcel(00000000 00000001 '........')"),
					      &r),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(r.kind, GFXSTAT_PAGEFLIP_NOT_A_COUNT);
	CHECK_EQ(gfxstat_pageflip_reply_parse(S("Result: Parcel(\n  0x00000000: 00000001 00000002 "
						"00000003 00000004 '................'\n"
						"  0x00000010: 00000005 '....')\n"), &r),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(r.kind, GFXSTAT_PAGEFLIP_NOT_A_COUNT);
	/* service.cpp when checkService() finds nothing (or SELinux hides it) */
	CHECK_EQ(gfxstat_pageflip_reply_parse(S("service: Service SurfaceFlinger does not exist\n"),
					      &r),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(r.kind, GFXSTAT_PAGEFLIP_NO_SERVICE);
	/* not an answer of service call */
	CHECK_EQ(gfxstat_pageflip_reply_parse(S(""), &r), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_pageflip_reply_parse(S("/system/bin/sh: service: inaccessible or not "
						"found\n"), &r),
		 GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_pageflip_reply_parse(S("Result: Parcel(00dc8c2 '...')"), &r),
		 GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_pageflip_reply_parse(S("Result: Parcel(00dc8c2f0 '...')"), &r),
		 GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_pageflip_reply_parse(S("Result: Parcel(00dc8c2f    '/..."), &r),
		 GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_pageflip_reply_parse(S("Result: Parcel(Error: 0x \"\")"), &r),
		 GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_pageflip_reply_parse(S("service: Unknown command foo\n"), &r),
		 GFXSTAT_PARSE_FAIL);
}

TEST(pageflip_step)
{
	struct gfxstat_pageflip_step st;

	/* 60 flips in 1 s at 60 Hz: at most 1e6 us * 60000 mHz / 1e9 + 1 = 61; 60 flips need
	 * 60 * 1e12 / 60000 = 1e9 ns, the interval itself: 60.000 Hz */
	CHECK_EQ(gfxstat_pageflip_step(1000, 1060, 1000000000, 0, 60000, &st),
		 GFXSTAT_PAGEFLIP_STEP_OK);
	CHECK_EQ(st.flips, 60);
	CHECK_EQ(st.span_ns, 1000000000);
	CHECK_EQ(st.fps_mhz, 60000);
	/* 30 flips in 1 s: 30 Hz over the interval */
	CHECK_EQ(gfxstat_pageflip_step(1000, 1030, 1000000000, 0, 60000, &st),
		 GFXSTAT_PAGEFLIP_STEP_OK);
	CHECK_EQ(st.fps_mhz, 30000);
	/* 61 (the +1 of where the reads fall): they need 61 * 16666666.67 = 1016666667 ns,
	 * longer than the 1 s measured, so the rate is 61 / 1.016666667 s = 60 Hz, not 61 */
	CHECK_EQ(gfxstat_pageflip_step(1000, 1061, 1000000000, 0, 60000, &st),
		 GFXSTAT_PAGEFLIP_STEP_OK);
	CHECK_EQ(st.span_ns, 1016666667);
	CHECK_EQ(st.fps_mhz, 60000);
	/* 62 in 1 s at 60 Hz: more than 61, not a frame rate */
	CHECK_EQ(gfxstat_pageflip_step(1000, 1062, 1000000000, 0, 60000, &st),
		 GFXSTAT_PAGEFLIP_STEP_TOO_FAST);
	CHECK_EQ(st.flips, 62);
	CHECK_EQ(st.fps_mhz, 0);
	/* the same 62 with 20 ms of adb round-trip slack at 60 Hz: 1.02 s allow 61.2 -> 62 */
	CHECK_EQ(gfxstat_pageflip_step(1000, 1062, 1000000000, 20000000, 60000, &st),
		 GFXSTAT_PAGEFLIP_STEP_OK);
	CHECK_EQ(st.span_ns, 1033333334); /* 62 * 1e12 / 60000 = 1033333333.3, rounded up */
	CHECK_EQ(st.fps_mhz, 60000);
	/* 120 Hz: 0.5 s allow 0.5 * 120 + 1 = 61 flips; 90 are too many */
	CHECK_EQ(gfxstat_pageflip_step(0, 90, 500000000, 0, 120000, &st),
		 GFXSTAT_PAGEFLIP_STEP_TOO_FAST);
	/* 45 flips in 0.5 s at 120 Hz: 90 Hz */
	CHECK_EQ(gfxstat_pageflip_step(0, 45, 500000000, 0, 120000, &st),
		 GFXSTAT_PAGEFLIP_STEP_OK);
	CHECK_EQ(st.fps_mhz, 90000);
	/* the uint32 wraps: 0xfffffff0 -> 0x2c is 16 + 44 = 60 flips */
	CHECK_EQ(gfxstat_pageflip_step(0xfffffff0u, 0x2c, 1000000000, 0, 60000, &st),
		 GFXSTAT_PAGEFLIP_STEP_WRAP);
	CHECK_EQ(st.flips, 60);
	CHECK_EQ(st.fps_mhz, 60000);
	/* 5000 -> 100: 2^32 - 4900 flips cannot fit in 1 s: a reset (reboot), a gap */
	CHECK_EQ(gfxstat_pageflip_step(5000, 100, 1000000000, 0, 60000, &st),
		 GFXSTAT_PAGEFLIP_STEP_RESET);
	CHECK_EQ(st.flips, 0);
	CHECK_EQ(st.fps_mhz, 0);
	/* no flips: 0 Hz, over the interval */
	CHECK_EQ(gfxstat_pageflip_step(7, 7, 1000000000, 0, 60000, &st), GFXSTAT_PAGEFLIP_STEP_OK);
	CHECK_EQ(st.fps_mhz, 0);
	CHECK_EQ(st.span_ns, 1000000000);
	CHECK_EQ(gfxstat_pageflip_step(7, 8, 0, 0, 60000, &st), GFXSTAT_PAGEFLIP_STEP_BAD_TIME);
	/* rates unknown: 1000 Hz bounds it; 500 in 1 s pass, 2000 do not */
	CHECK_EQ(gfxstat_pageflip_step(0, 500, 1000000000, 0, 0, &st), GFXSTAT_PAGEFLIP_STEP_OK);
	CHECK_EQ(st.fps_mhz, 500000);
	CHECK_EQ(gfxstat_pageflip_step(0, 2000, 1000000000, 0, 0, &st),
		 GFXSTAT_PAGEFLIP_STEP_TOO_FAST);
	/* extremes stay in range: a whole wrap's worth over a long interval at 1 mHz */
	CHECK_EQ(gfxstat_pageflip_step(0, 0xffffffffu, INT64_MAX, INT64_MAX, 1, &st),
		 GFXSTAT_PAGEFLIP_STEP_TOO_FAST);
	CHECK_EQ(gfxstat_pageflip_step(0, 0xffffffffu, INT64_MAX, 0, 0xffffffffu, &st),
		 GFXSTAT_PAGEFLIP_STEP_OK);
	CHECK(st.fps_mhz <= 10000000u && st.span_ns == INT64_MAX);
}

/* ---------------------------------------------------------------------------------------- */
/* An app's version: `dumpsys package PKG`                                                     */

/* An updated system app, as Android 14 prints it (Settings.dumpPackageLPr() under
 * "Packages:", then the system image's copy under "Hidden system packages:"): the first
 * block, the version running, wins. */
static const char chrome_a14[] =
	"Activity Resolver Table:\n"
	"  Non-Data Actions:\n"
	"      android.intent.action.MAIN:\n"
	"        4f1c2a3 com.android.chrome/com.google.android.apps.chrome.Main filter 8e2d1f0\n"
	"          Action: \"android.intent.action.MAIN\"\n"
	"\n"
	"Key Set Manager:\n"
	"  [com.android.chrome]\n"
	"      Signing KeySets: 52\n"
	"\n"
	"Packages:\n"
	"  Package [com.android.chrome] (9a7c3e1):\n"
	"    appId=10123\n"
	"    pkg=Package{5b2e0d8 com.android.chrome}\n"
	"    codePath=/data/app/~~Qk3b9xw==/com.android.chrome-Zr0wq==\n"
	"    resourcePath=/data/app/~~Qk3b9xw==/com.android.chrome-Zr0wq==\n"
	"    legacyNativeLibraryDir=/data/app/~~Qk3b9xw==/com.android.chrome-Zr0wq==/lib\n"
	"    extractNativeLibs=false\n"
	"    primaryCpuAbi=arm64-v8a\n"
	"    secondaryCpuAbi=armeabi-v7a\n"
	"    cpuAbiOverride=null\n"
	"    versionCode=631209833 minSdk=29 targetSdk=34\n"
	"    minExtensionVersions=[]\n"
	"    versionName=124.0.6367.113\n"
	"    usesNonSdkApi=false\n"
	"    splits=[base, chrome, config.en]\n"
	"    apkSigningVersion=3\n"
	"    flags=[ SYSTEM HAS_CODE ALLOW_CLEAR_USER_DATA UPDATED_SYSTEM_APP ALLOW_BACKUP ]\n"
	"    User 0: ceDataInode=4195 installed=true hidden=false suspended=false "
	"distractionFlags=0 stopped=false notLaunched=false enabled=0 instant=false virtual=false\n"
	"      gids=[3003]\n"
	"\n"
	"Hidden system packages:\n"
	"  Package [com.android.chrome] (3c8d2b7):\n"
	"    appId=10123\n"
	"    pkg=Package{e41f6a9 com.android.chrome}\n"
	"    codePath=/product/app/Chrome\n"
	"    versionCode=609911433 minSdk=29 targetSdk=34\n"
	"    minExtensionVersions=[]\n"
	"    versionName=119.0.6045.66\n"
	"\n"
	"Queries:\n"
	"  system apps queryable: false\n"
	"\n"
	"Dexopt state:\n"
	"  [com.android.chrome]\n"
	"    path: /data/app/~~Qk3b9xw==/com.android.chrome-Zr0wq==/base.apk\n"
	"      arm64: [status=speed-profile] [reason=bg-dexopt]\n";

TEST(pkg_version_updated_system_app)
{
	struct gfxstat_pkg_version v;

	CHECK_EQ(gfxstat_pkg_version_parse(S(chrome_a14), "com.android.chrome", &v),
		 GFXSTAT_PARSE_OK);
	CHECK_STR(v.pkg, "com.android.chrome");
	CHECK_STR(v.name, "124.0.6367.113");
	CHECK_EQ(v.code, 631209833);
	/* no package asked: the first block too */
	CHECK_EQ(gfxstat_pkg_version_parse(S(chrome_a14), NULL, &v), GFXSTAT_PARSE_OK);
	CHECK_STR(v.name, "124.0.6367.113");
	CHECK_EQ(v.code, 631209833);
	/* another package: none of these blocks */
	CHECK_EQ(gfxstat_pkg_version_parse(S(chrome_a14), "com.android", &v), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(v.pkg.n, 0);
	CHECK_EQ(v.name.n, 0);
	CHECK_EQ(v.code, -1);
}

TEST(pkg_version_old_and_pty)
{
	/* Android 5-8 (PackageManagerService/Settings of the time): "versionCode=N targetSdk=T",
	 * through an `adb shell` pty */
	static const char a6[] =
		"Packages:\r\r\n"
		"  Package [com.example.app2] (2b1e3c4):\r\r\n"
		"    userId=10087\r\r\n"
		"    pkg=Package{1a2b3c4 com.example.app2}\r\r\n"
		"    codePath=/data/app/com.example.app2-1\r\r\n"
		"    versionCode=123 targetSdk=23\r\r\n"
		"    versionName=1.2.3 \r\r\n"
		"    splits=[base]\r\r\n"
		"    dataDir=/data/user/0/com.example.app2";
	struct gfxstat_pkg_version v;

	CHECK_EQ(gfxstat_pkg_version_parse(S(a6), "com.example.app2", &v), GFXSTAT_PARSE_OK);
	CHECK_STR(v.name, "1.2.3");
	CHECK_EQ(v.code, 123);
}

TEST(pkg_version_blocks)
{
	/* a block of another package first (a shared uid's), then the one asked for */
	static const char two[] =
		"Packages:\n"
		"  Package [com.example.other] (1):\n"
		"    versionCode=7 minSdk=24 targetSdk=34\n"
		"    versionName=9.9\n"
		"  Package [com.example.app2] (2):\n"
		"    versionCode=42 minSdk=24 targetSdk=34\n"
		"    versionName=2.0-beta (build 7)\n";
	/* a renamed package: the header has the real name, "compat name=" the old one */
	static const char renamed[] =
		"Packages:\n"
		"  Package [com.example.newname] (5d):\n"
		"    compat name=com.example.oldname\n"
		"    userId=10090\n"
		"    versionCode=17 minSdk=21 targetSdk=33\n"
		"    versionName=3.1\n";
	/* versionName="null" (an APK without one), a code over a Java long, lines cut */
	static const char odd[] =
		"Packages:\n"
		"  Package [a.b] (1):\n"
		"    versionCode=99999999999999999999 minSdk=21 targetSdk=33\n"
		"    versionName=null\n"
		"Hidden system packages:\n"
		"    versionName=1.0\n";
	static const char code_only[] =
		"  Package [a.b] (1):\n"
		"    versionCode=4294967298 minSdk=21 targetSdk=33\n"
		"    versionName=null\n";
	struct gfxstat_pkg_version v;

	CHECK_EQ(gfxstat_pkg_version_parse(S(two), "com.example.app2", &v), GFXSTAT_PARSE_OK);
	CHECK_STR(v.pkg, "com.example.app2");
	CHECK_STR(v.name, "2.0-beta (build 7)");
	CHECK_EQ(v.code, 42);
	CHECK_EQ(gfxstat_pkg_version_parse(S(two), NULL, &v), GFXSTAT_PARSE_OK);
	CHECK_STR(v.name, "9.9");
	CHECK_EQ(v.code, 7);
	CHECK_EQ(gfxstat_pkg_version_parse(S(renamed), "com.example.oldname", &v),
		 GFXSTAT_PARSE_OK);
	CHECK_STR(v.pkg, "com.example.newname");
	CHECK_STR(v.name, "3.1");
	CHECK_EQ(v.code, 17);
	CHECK_EQ(gfxstat_pkg_version_parse(S(odd), "a.b", &v), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_STR(v.pkg, "a.b");
	CHECK_EQ(v.name.n, 0);
	CHECK_EQ(v.code, -1);
	/* versionCodeMajor 1 << 32 | 2 (PackageInfo.getLongVersionCode()) */
	CHECK_EQ(gfxstat_pkg_version_parse(S(code_only), "a.b", &v), GFXSTAT_PARSE_OK);
	CHECK_EQ(v.name.n, 0);
	CHECK_EQ(v.code, 4294967298LL);
}

TEST(pkg_version_unknown_and_garbage)
{
	/* `dumpsys package com.nope`: the sections, no block */
	static const char unknown[] =
		"Activity Resolver Table:\n\nKey Set Manager:\n\nPackages:\n\nQueries:\n"
		"  system apps queryable: false\n\nDexopt state:\n  Unable to find package: "
		"com.nope\n";
	static const char *const bad[] = {
		"",
		"\n\n\r\n",
		"/system/bin/sh: dumpsys: inaccessible or not found\n",
		"Can't find service: package\n",
		"  Package [com.nope (1):\n    versionCode=1\n",
		"  Package [] (1):\n    versionCode=1\n",
		"  Package [com.nope] (1)\n    versionCode=1\n",
		"    versionCode=5 minSdk=21\n    versionName=1.0\n",
		"\x01\xff garbage Package [ ]:\n    versionCode=3\n",
	};
	struct gfxstat_pkg_version v;
	size_t i;

	CHECK_EQ(gfxstat_pkg_version_parse(S(unknown), "com.nope", &v), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_pkg_version_parse(NULL, 0, "com.nope", &v), GFXSTAT_PARSE_FAIL);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_EQ(gfxstat_pkg_version_parse(bad[i], strlen(bad[i]), "com.nope", &v),
			 GFXSTAT_PARSE_FAIL);
		CHECK_EQ(gfxstat_pkg_version_parse(bad[i], strlen(bad[i]), NULL, &v),
			 GFXSTAT_PARSE_FAIL);
		CHECK_EQ(v.name.n + v.pkg.n, 0);
		CHECK_EQ(v.code, -1);
	}
	/* a NUL inside the name: not the package asked for */
	CHECK_EQ(gfxstat_pkg_version_parse(S("  Package [a\0b] (1):\n    versionCode=3\n"), "a", &v),
		 GFXSTAT_PARSE_FAIL);
	/* a block without a version: there, but unknown */
	CHECK_EQ(gfxstat_pkg_version_parse(S("Packages:\n  Package [com.nope] (1):\n    userId=1\n"),
					   "com.nope", &v), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_pkg_version_parse(S("  Package [com.nope] (1):\n    versionCode=12x "
					     "minSdk=1\n"), "com.nope", &v),
		 GFXSTAT_PARSE_UNSUPPORTED);
}

/* A transport that answers `adb devices -l` with @ctx, or fails when @ctx is NULL. */
static int fake_run(void *ctx, const char *const *args, char *out, size_t cap, int timeout_s)
{
	(void)timeout_s;
	if (!ctx || strcmp(args[0], "devices"))
		return -1;
	snprintf(out, cap, "%s", (const char *)ctx);
	return 0;
}

/* The library's device list through a transport, and each unusable state its own error. */
TEST(capture_devices)
{
	struct gfxstat_adb_transport t = { fake_run, NULL, NULL, NULL, NULL };
	struct gfxstat_device_entry e[4];
	enum gfxstat_capture_source src;

	t.ctx = "List of devices attached\r\n"
		"AAA            device usb:1-4 product:p model:Pixel_7 device:d transport_id:1\n"
		"BBB\tunauthorized\n"
		"CCC\toffline\n"
		"DDD\tno permissions (missing udev rules? user is in the plugdev group); see "
		"[http://developer.android.com/tools/device.html]\n";
	CHECK_EQ(gfxstat_device_list(&t, e, 4), 4);
	CHECK_CSTR(e[0].serial, "AAA");
	CHECK_CSTR(e[0].model, "Pixel_7");
	CHECK_EQ(gfxstat_capture_state_err(e[0].state), 0);
	CHECK_EQ(gfxstat_capture_state_err(e[1].state), GFXSTAT_CAP_E_UNAUTHORIZED);
	CHECK_EQ(gfxstat_capture_state_err(e[2].state), GFXSTAT_CAP_E_OFFLINE);
	CHECK_EQ(gfxstat_capture_state_err(e[3].state), GFXSTAT_CAP_E_NO_PERMISSIONS);
	/* room for 2: the first 2 */
	CHECK_EQ(gfxstat_device_list(&t, e, 2), 2);
	t.ctx = NULL;
	CHECK_EQ(gfxstat_device_list(&t, e, 4), GFXSTAT_CAP_E_NO_ADB);
	CHECK_EQ(gfxstat_capture_source_parse("pageflip", &src), 0);
	CHECK_EQ(src, GFXSTAT_CAPTURE_PAGEFLIP);
	CHECK_EQ(gfxstat_capture_source_parse("trace_pipe", &src), GFXSTAT_E_INVAL);
	CHECK_CSTR(gfxstat_capture_source_name(GFXSTAT_CAPTURE_LATENCY), "latency");
}

TEST_SUITE(test_device_probe)
{
	RUN(adb_long_listing);
	RUN(adb_short_and_states);
	RUN(adb_devices_empty);
	RUN(focus_window_android5_9);
	RUN(focus_window_android12);
	RUN(focus_window_null_and_missing);
	RUN(focus_names);
	RUN(focus_input);
	RUN(fps_parse);
	RUN(display_android13_emulator);
	RUN(display_multi_rate);
	RUN(display_old_and_bad);
	RUN(sf_rates);
	RUN(sf_latency_period);
	RUN(getprop_and_id);
	RUN(tracefs);
	RUN(pageflip_reply);
	RUN(pageflip_step);
	RUN(pkg_version_updated_system_app);
	RUN(pkg_version_old_and_pty);
	RUN(pkg_version_blocks);
	RUN(pkg_version_unknown_and_garbage);
	RUN(capture_devices);
}
