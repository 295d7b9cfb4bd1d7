/* SPDX-License-Identifier: MIT */
/*
 * Pure parsers for what `adb` and an Android device print, for `gfxstat devices` and
 * `gfxstat record`: `adb devices -l`, the focused window (`dumpsys window`, `dumpsys input`),
 * refresh rates (`dumpsys display`, `dumpsys SurfaceFlinger`, `--latency`), `getprop`,
 * `id -u`, the tracefs directory, `tracing_on`, SurfaceFlinger's page-flip counter and an
 * app's version (`dumpsys package PKG`).
 *
 * Ownership: every function reads text already captured by the caller and allocates
 * nothing. Every gfxstat_str it returns borrows the caller's text and is valid as long as
 * that text is. All accept LF, CRLF and the "\r\r\n" of `adb shell` ptys, trailing spaces
 * and tabs, and a last line without a newline.
 */
#ifndef GFXSTAT_DEVICE_H
#define GFXSTAT_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "gfxstat.h"

/* ---------------------------------------------------------------------------------------- */
/* adb devices [-l]                                                                          */

/* adb's connection_state_name() (adb/transport.cpp) */
enum gfxstat_adb_state {
	GFXSTAT_ADB_UNKNOWN = 0,   /* "unknown", or a state this version does not know */
	GFXSTAT_ADB_DEVICE,        /* "device": usable */
	GFXSTAT_ADB_OFFLINE,
	GFXSTAT_ADB_UNAUTHORIZED,  /* the RSA key was not accepted on the phone */
	GFXSTAT_ADB_AUTHORIZING,
	GFXSTAT_ADB_CONNECTING,
	GFXSTAT_ADB_NO_PERMISSIONS, /* "no permissions (...); see [...]" (udev rules) */
	GFXSTAT_ADB_RECOVERY,
	GFXSTAT_ADB_RESCUE,
	GFXSTAT_ADB_SIDELOAD,
	GFXSTAT_ADB_BOOTLOADER,
	GFXSTAT_ADB_HOST,
	GFXSTAT_ADB_DETACHED,
};

/* One device line. Absent fields are empty slices; transport_id is -1 when absent. */
struct gfxstat_adb_device {
	struct gfxstat_str serial;     /* "emulator-5554", "192.168.0.5:5555", "(no serial number)" */
	struct gfxstat_str state_text; /* as printed, e.g. "no permissions (...); see [...]" */
	enum gfxstat_adb_state state;
	struct gfxstat_str devpath;    /* "usb:1-4.2" (Linux), "usb:336592896X" (macOS) */
	struct gfxstat_str product;    /* ro.product.name */
	struct gfxstat_str model;      /* ro.product.model, non-alphanumerics made '_' by adb */
	struct gfxstat_str device;     /* ro.product.device */
	int64_t transport_id;          /* adb -t ID (adb 1.0.40+), or -1 */
};

/**
 * gfxstat_adb_device_line() - parse one line of `adb devices` or `adb devices -l`
 * @s: the line, without its '\n' (trailing '\r', spaces and tabs are ignored)
 * @n: its length
 * @out: filled on GFXSTAT_PARSE_OK
 *
 * Accepted forms (adb/transport.cpp append_transport()):
 * "SERIAL\tSTATE" (short); "SERIAL<pad to 22> STATE[ DEVPATH][ product:P][ model:M]
 * [ device:D][ transport_id:N]" (-l; every extra optional, found by scanning back from the
 * end as adb advises). The state may contain spaces ("no permissions (...); see [...]").
 * Return: GFXSTAT_PARSE_OK for a device; GFXSTAT_PARSE_UNSUPPORTED for a blank line, the
 * "List of devices attached" header, the "* daemon not running; starting now at tcp:5037" /
 * "* daemon started successfully" messages, "adb server version (..) doesn't match this
 * client (..); killing..." and "adb: ..." / "error: ..." lines; GFXSTAT_PARSE_FAIL for a
 * line with a serial but no state.
 */
enum gfxstat_parse_res gfxstat_adb_device_line(const char *s, size_t n,
					       struct gfxstat_adb_device *out);

/**
 * gfxstat_adb_devices_next() - the next device of a whole `adb devices [-l]` answer
 * @text: the remaining text; advanced past the lines consumed
 * @out: filled when a device is returned
 *
 * Lines that are not devices (headers, daemon messages, malformed lines) are skipped.
 * Return: 1 when a device was returned, 0 at the end of @text.
 */
int gfxstat_adb_devices_next(struct gfxstat_str *text, struct gfxstat_adb_device *out);

/* ---------------------------------------------------------------------------------------- */
/* The focused window                                                                        */

/* A window named "pkg/activity" (activity as written, possibly ".Main"), or another window
 * ("NotificationShade", "StatusBar", "PopupWindow:1f2e3d"), for which pkg and activity are
 * empty. */
struct gfxstat_focus {
	struct gfxstat_str title;    /* the window title: "com.pkg/.Main", "NotificationShade" */
	struct gfxstat_str pkg;      /* "com.pkg", or empty */
	struct gfxstat_str activity; /* ".Main" or "com.pkg.Main", or empty */
	int32_t user;                /* the "u0" user id, or -1 when the name has none */
};

/**
 * gfxstat_focus_name_parse() - parse a window or activity name
 * @s: the name; @n: its length
 * @out: filled on GFXSTAT_PARSE_OK and GFXSTAT_PARSE_UNSUPPORTED
 *
 * Accepted forms: "Window{343a0a2c u0 com.tct.launcher/com.tct.launcher.Launcher}",
 * "ActivityRecord{e9566ee u0 com.android.launcher3/.uioverrides.QuickstepLauncher t12}",
 * "AppWindowToken{158efe19 token=Token{1f33d960 ActivityRecord{3ad78963 u0
 * com.tct.launcher/.Launcher t56}}}", Android 12+ input names "e225d94
 * com.android.launcher3/com.android.launcher3.uioverrides.QuickstepLauncher" (hash, title),
 * and a bare "pkg/activity". A trailing " EXITING" or similar word after the component is
 * ignored.
 * Return: GFXSTAT_PARSE_OK when the title names "pkg/activity"; GFXSTAT_PARSE_UNSUPPORTED
 * for another window (title set, pkg empty) and for "null" / "<null>" (all empty);
 * GFXSTAT_PARSE_FAIL for an empty or unbalanced name.
 */
enum gfxstat_parse_res gfxstat_focus_name_parse(const char *s, size_t n,
						struct gfxstat_focus *out);

/**
 * gfxstat_focus_from_window() - the focused activity in `dumpsys window` output
 * @s: the whole output (`dumpsys window`, `dumpsys window windows` or `dumpsys window d`)
 * @n: its length
 * @out: filled on GFXSTAT_PARSE_OK and GFXSTAT_PARSE_UNSUPPORTED
 *
 * Reads "mCurrentFocus=<name>" and "mFocusedApp=<name>" lines (Android 5-15; several
 * displays print several). The first mCurrentFocus naming an activity wins; when the
 * focused window is not an activity's (the notification shade, a dialog of the system,
 * "null" during a transition), the first mFocusedApp naming one is used instead.
 * Return: GFXSTAT_PARSE_OK with the package and activity; GFXSTAT_PARSE_UNSUPPORTED when the
 * lines are there but name no activity (@out has the focused window's title, maybe empty);
 * GFXSTAT_PARSE_FAIL when there is no such line.
 */
enum gfxstat_parse_res gfxstat_focus_from_window(const char *s, size_t n,
						 struct gfxstat_focus *out);

/**
 * gfxstat_focus_from_input() - the focused window in `dumpsys input` output
 * @s: the whole output; @n: its length
 * @out: filled on GFXSTAT_PARSE_OK and GFXSTAT_PARSE_UNSUPPORTED
 *
 * Reads, first found wins: "FocusedWindow: name='<name>'" (Android 7-9), the first
 * "displayId=N, name='<name>'" under "FocusedWindows:" (Android 10+, FocusResolver), else
 * the window line with "hasFocus=true" and "name='<name>'" (Android 4.4-11; the line the
 * seed's gfx.sh greps).
 * Return: as gfxstat_focus_from_window().
 */
enum gfxstat_parse_res gfxstat_focus_from_input(const char *s, size_t n,
						struct gfxstat_focus *out);

/**
 * gfxstat_focus_component() - write "pkg/full.Activity" with a leading '.' expanded
 * @f: a focus with a package ("com.pkg" + ".Main" gives "com.pkg/com.pkg.Main")
 * @buf: where to write, NUL-terminated when @cap > 0; may be NULL when @cap is 0
 * @cap: its size
 *
 * Return: the length of the full text (without the NUL), as snprintf(): it was truncated
 * when the return value is >= @cap. 0 when @f has no package.
 */
size_t gfxstat_focus_component(const struct gfxstat_focus *f, char *buf, size_t cap);

/* ---------------------------------------------------------------------------------------- */
/* Refresh rates                                                                             */

#define GFXSTAT_RATES_MAX 16

/* Refresh rates in milli-Hz (60.000004 fps is 60000). 0 means unknown. */
struct gfxstat_display_rates {
	uint32_t n;                          /* distinct supported rates */
	uint32_t mhz[GFXSTAT_RATES_MAX];     /* ascending; more than GFXSTAT_RATES_MAX dropped */
	uint32_t active_mhz;                 /* the current refresh rate */
	uint32_t render_mhz;                 /* Android 14+ render frame rate, if printed */
};

/**
 * gfxstat_fps_parse() - a Java/printf float of frames per second, as milli-Hz
 * @s: "60.000004", "90.0", "120", "59.94"; @n: its length (no sign, no exponent)
 * @mhz: set on GFXSTAT_PARSE_OK, rounded to the nearest milli-Hz (digits past the 6th
 * decimal are ignored; no floating point is used)
 *
 * Return: GFXSTAT_PARSE_OK for a rate in (0, 10000] Hz; GFXSTAT_PARSE_UNSUPPORTED for 0,
 * "Infinity", "NaN" and rates over 10 kHz; GFXSTAT_PARSE_FAIL for anything else.
 */
enum gfxstat_parse_res gfxstat_fps_parse(const char *s, size_t n, uint32_t *mhz);

/**
 * gfxstat_mhz_to_period_ns() - the refresh period of a rate
 * @mhz: milli-Hz
 * Return: the period in ns, rounded (60000 gives 16666667, 120000 gives 8333333); 0 for 0.
 */
int64_t gfxstat_mhz_to_period_ns(uint32_t mhz);

/**
 * gfxstat_display_rates_parse() - refresh rates of the first display in `dumpsys display`
 * @s: the whole output; @n: its length
 * @out: filled on GFXSTAT_PARSE_OK (zeroed otherwise)
 *
 * The first display device listed (the built-in screen) is read:
 * its "DisplayDeviceInfo{... modeId N, [renderFrameRate R, ]defaultModeId D,
 * supportedModes [{id=N, width=W, height=H, fps=F[, vsync=V][, alternativeRefreshRates=[..]]
 * [, supportedHdrTypes=[..]]}, ...], ...}" line (Android 6-15) gives the supported rates and
 * the active one; then, until the next device, "DisplayModeRecord{mMode={id=N, ..., fps=F..}}"
 * lines (Android 6-15) add rates, "mActiveSfDisplayMode=DisplayMode{..., refreshRate=F, ..}"
 * (Android 12-13) or "{..., peakRefreshRate=F, vsyncRate=V, ..}" (Android 14-15; the peak
 * rate is taken, as Display.Mode's fps) sets the active rate, and "mActiveRenderFrameRate=R"
 * (Android 14+) the render rate. Without a DisplayDeviceInfo line, the first
 * "DisplayInfo{... mode N, ... modes [{...}, ...]" (the logical display) is used.
 * Return: GFXSTAT_PARSE_OK when at least one rate was found, else GFXSTAT_PARSE_FAIL.
 */
enum gfxstat_parse_res gfxstat_display_rates_parse(const char *s, size_t n,
						   struct gfxstat_display_rates *out);

/**
 * gfxstat_sf_rates_parse() - refresh rates in `dumpsys SurfaceFlinger` output
 * @s: the whole output; @n: its length
 * @out: filled on GFXSTAT_PARSE_OK (zeroed otherwise)
 *
 * Reads "  refresh-rate              : 60.000002 fps" (Android 4.1-10) and "VSYNC period:
 * 16666667 ns" (Android 10+, the scheduler's dump; the first one is the active display)
 * for the active rate, and the time-in-state lines "60.00 Hz: 0d20:17:38.205" / "60.00fps:
 * 0d..." (Android 11+) for the supported rates (the "ScreenOff:" line is skipped).
 * Return: GFXSTAT_PARSE_OK when any rate was found, else GFXSTAT_PARSE_FAIL.
 */
enum gfxstat_parse_res gfxstat_sf_rates_parse(const char *s, size_t n,
					      struct gfxstat_display_rates *out);

/**
 * gfxstat_sf_latency_period() - the refresh period on the first line of
 * `dumpsys SurfaceFlinger --latency [layer]`
 * @s: the output (only its first line is read); @n: its length
 * @period_ns: set on GFXSTAT_PARSE_OK
 *
 * Return: GFXSTAT_PARSE_OK for a period in [1 ms, 1 s] (1000 Hz to 1 Hz);
 * GFXSTAT_PARSE_UNSUPPORTED for a well-formed number outside it (0 and negative
 * included: some vendor builds print them, and the seed's gfx.sh divides by 1000 when
 * negative; the caller must measure the period instead); GFXSTAT_PARSE_FAIL for an empty
 * or non-numeric first line or one over INT64_MAX.
 */
enum gfxstat_parse_res gfxstat_sf_latency_period(const char *s, size_t n, int64_t *period_ns);

/* ---------------------------------------------------------------------------------------- */
/* Small answers                                                                             */

/**
 * gfxstat_getprop_value() - the value printed by `getprop NAME`
 * @s: the output; @n: its length
 * @value: set to the first line without surrounding spaces, tabs and line ends
 * Return: GFXSTAT_PARSE_OK for a value; GFXSTAT_PARSE_UNSUPPORTED for an empty one (the
 * property is not set: getprop prints an empty line).
 */
enum gfxstat_parse_res gfxstat_getprop_value(const char *s, size_t n, struct gfxstat_str *value);

/**
 * gfxstat_getprop_find() - one property in the listing printed by `getprop`
 * @s: the output, lines "[ro.build.version.sdk]: [34]"; @n: its length
 * @name: the property name
 * @value: set to the text between the second pair of brackets
 * Return: GFXSTAT_PARSE_OK when found (the value may be empty), GFXSTAT_PARSE_FAIL if not.
 */
enum gfxstat_parse_res gfxstat_getprop_find(const char *s, size_t n, const char *name,
					    struct gfxstat_str *value);

/**
 * gfxstat_id_uid() - the uid printed by `id -u` ("2000") or `id`
 * ("uid=2000(shell) gid=2000(shell) groups=...")
 * @s: the output; @n: its length
 * @uid: set on GFXSTAT_PARSE_OK (0 is root, 2000 the adb shell)
 * Return: GFXSTAT_PARSE_OK, or GFXSTAT_PARSE_FAIL (an error message, an empty answer).
 */
enum gfxstat_parse_res gfxstat_id_uid(const char *s, size_t n, int64_t *uid);

/**
 * gfxstat_tracefs_detect() - the tracefs directory from the output of
 * `ls -d /sys/kernel/tracing/trace_pipe /sys/kernel/debug/tracing/trace_pipe 2>&1`
 * @s: the output; @n: its length
 * @dir: set to the directory (a slice of @s without "/trace_pipe"), e.g.
 * "/sys/kernel/tracing"
 *
 * A line that is an absolute path ending in "/trace_pipe" is a hit; error lines ("ls:
 * /sys/kernel/debug/tracing/trace_pipe: No such file or directory", "ls:
 * /sys/kernel/debug/tracing: Permission denied") are ignored. /sys/kernel/tracing (Android
 * 11+ kernels mount tracefs there) wins over /sys/kernel/debug/tracing (debugfs, the seed's
 * path), whatever the order.
 * Return: GFXSTAT_PARSE_OK, or GFXSTAT_PARSE_UNSUPPORTED when no path was listed.
 */
enum gfxstat_parse_res gfxstat_tracefs_detect(const char *s, size_t n, struct gfxstat_str *dir);

/**
 * gfxstat_tracing_on_parse() - the output of `cat <tracefs>/tracing_on`
 * @s: the output; @n: its length
 * @on: set to 0 or 1 on GFXSTAT_PARSE_OK
 * Return: GFXSTAT_PARSE_OK for "0" or "1" alone on the first line; GFXSTAT_PARSE_FAIL for
 * anything else ("cat: /sys/kernel/tracing/tracing_on: Permission denied", empty): unknown.
 */
enum gfxstat_parse_res gfxstat_tracing_on_parse(const char *s, size_t n, int *on);

/* ---------------------------------------------------------------------------------------- */
/* The display's page-flip counter (`service call SurfaceFlinger 1013`)                      */

/* What a `service call SurfaceFlinger 1013` answer is when it is not a count. */
enum gfxstat_pageflip_reply_kind {
	GFXSTAT_PAGEFLIP_COUNT = 0,   /* one int32: the page flips of the display since boot */
	GFXSTAT_PAGEFLIP_EMPTY,       /* "Parcel(NULL)": 1013 is unused (NAME_NOT_FOUND) on this
				       * version, or the call was refused (PERMISSION_DENIED,
				       * SELinux): the status code leaves the reply empty */
	GFXSTAT_PAGEFLIP_ERROR,       /* "Parcel(Error: 0x.. "...")": the reply parcel failed */
	GFXSTAT_PAGEFLIP_NOT_A_COUNT, /* more than one word: 1013 means something else here */
	GFXSTAT_PAGEFLIP_NO_SERVICE,  /* "service: Service SurfaceFlinger does not exist" */
};

struct gfxstat_pageflip_reply {
	enum gfxstat_pageflip_reply_kind kind;
	uint32_t count;  /* on GFXSTAT_PARSE_OK: the counter, an int32 read as unsigned */
	int32_t status;  /* GFXSTAT_PAGEFLIP_ERROR: the status_t printed, e.g. -74; else 0 */
};

/**
 * gfxstat_pageflip_reply_parse() - the answer of `service call SurfaceFlinger 1013`
 * @s: the whole output; @n: its length
 * @out: filled on GFXSTAT_PARSE_OK and GFXSTAT_PARSE_UNSUPPORTED
 *
 * `service call` prints "Result: " and the reply Parcel (cmds/service/service.cpp), a
 * HexDump of 32-bit words then the bytes as characters: "Result: Parcel(00dc8c2f    '/...')"
 * is a count of 0x00dc8c2f. The first line starting with "Result: " or "service: " is read.
 * Return: GFXSTAT_PARSE_OK for exactly one word; GFXSTAT_PARSE_UNSUPPORTED for a well-formed
 * answer that is not a count (@out->kind says which: "Parcel(NULL)", "Parcel(Error: 0x..
 * "..")", several words or a multi-line dump, "service: Service ... does not exist");
 * GFXSTAT_PARSE_FAIL for anything else (empty, "/system/bin/sh: service: not found").
 */
enum gfxstat_parse_res gfxstat_pageflip_reply_parse(const char *s, size_t n,
						    struct gfxstat_pageflip_reply *out);

/* The rate assumed for gfxstat_pageflip_step() when the display's rates are unknown. */
#define GFXSTAT_PAGEFLIP_UNKNOWN_MAX_MHZ 1000000u

/* What one interval between two counter reads was. */
enum gfxstat_pageflip_step_kind {
	GFXSTAT_PAGEFLIP_STEP_OK = 0,
	GFXSTAT_PAGEFLIP_STEP_WRAP,      /* the uint32 counter wrapped; @flips is right */
	GFXSTAT_PAGEFLIP_STEP_RESET,     /* the count went down: SurfaceFlinger restarted or the
					  * device rebooted; a gap, no flips counted */
	GFXSTAT_PAGEFLIP_STEP_TOO_FAST,  /* more flips than the highest refresh rate allows in
					  * the interval: not a frame rate; a problem */
	GFXSTAT_PAGEFLIP_STEP_BAD_TIME,  /* the interval is not positive */
};

struct gfxstat_pageflip_step {
	enum gfxstat_pageflip_step_kind kind;
	uint32_t flips;   /* page flips in the interval (wrap included); 0 on RESET, BAD_TIME */
	int64_t span_ns;  /* the time @fps_mhz is over: max(interval, flips x shortest period) */
	uint32_t fps_mhz; /* flips per second in milli-Hz, never above @max_mhz; 0 unless OK or
			   * WRAP */
};

/**
 * gfxstat_pageflip_step() - judge the interval between two page-flip counter reads
 * @prev: the earlier count
 * @cur: the later count
 * @interval_ns: the time between the reads, as the host measured it
 * @slack_ns: how much longer the interval may have been on the device (the reads are
 * somewhere inside adb round trips; the caller passes their uncertainty), >= 0
 * @max_mhz: the display's highest refresh rate; 0 when unknown
 * (GFXSTAT_PAGEFLIP_UNKNOWN_MAX_MHZ, 1000 Hz, is then used); over 10 kHz counts as 10 kHz
 * @out: filled
 *
 * SurfaceFlinger flips the display at most once a refresh period, so between two reads at
 * most (interval + slack) / period + 1 flips happen. More than that is TOO_FAST when the
 * count went up, and a wrap of the uint32 counter when it went down by a difference that
 * fits (else RESET). The rate is over max(interval, flips x period), so the host's timing
 * error cannot make it exceed the refresh rate.
 * Return: @out->kind.
 */
enum gfxstat_pageflip_step_kind gfxstat_pageflip_step(uint32_t prev, uint32_t cur,
							int64_t interval_ns, int64_t slack_ns,
							uint32_t max_mhz,
							struct gfxstat_pageflip_step *out);

/* ---------------------------------------------------------------------------------------- */
/* An app's version (`dumpsys package PKG`)                                                  */

/* The version of one package block. */
struct gfxstat_pkg_version {
	struct gfxstat_str pkg;  /* the block's package, as in "Package [com.pkg] (1a2b3c):" */
	struct gfxstat_str name; /* versionName; empty when not printed or printed "null" */
	int64_t code;            /* versionCode (a long since Android 9); -1 when not printed
				  * or not a decimal number */
};

/**
 * gfxstat_pkg_version_parse() - the versionName and versionCode of a package in
 * `dumpsys package PKG` output
 * @s: the whole output; @n: its length
 * @pkg: the package wanted (NUL-terminated), or NULL for the first block
 * @out: filled on GFXSTAT_PARSE_OK and GFXSTAT_PARSE_UNSUPPORTED (name empty, code -1
 * otherwise)
 *
 * Reads the block that starts "Package [PKG] (hash):" (Settings.dumpPackageLPr(), Android
 * 4-15, under "Packages:") and ends at the next line indented no deeper than that header;
 * a block whose header names another package but whose "compat name=PKG" line names @pkg
 * (a renamed package) is taken too. In it, "versionCode=N[ minSdk=M targetSdk=T]" and
 * "versionName=V" (the rest of the line, trimmed; "null" when the APK has none). Only the
 * first such block counts: an updated system app prints a second one, the version on the
 * system image, under "Hidden system packages:".
 * Return: GFXSTAT_PARSE_OK when the block gives a versionName or a versionCode;
 * GFXSTAT_PARSE_UNSUPPORTED when the block is there but gives neither; GFXSTAT_PARSE_FAIL
 * when there is no block for @pkg (an unknown package, an empty or foreign answer).
 */
enum gfxstat_parse_res gfxstat_pkg_version_parse(const char *s, size_t n, const char *pkg,
						 struct gfxstat_pkg_version *out);

#endif
