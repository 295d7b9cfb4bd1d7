/* SPDX-License-Identifier: MIT */
/*
 * Pure parsers of the replies `gfxstat record` gets when it samples the device's context
 * beside the frames (gfxstat_capture.h, record --context-ms): one `grep -H ^ PATH... 2>&1`
 * per sample (each line of a file as "PATH:LINE", each file the device refuses as
 * "grep: PATH: REASON"), `find DIR... -maxdepth 1 2>&1` once (the CPUs, thermal zones and
 * devfreq devices it has), /proc/stat, /proc/uptime, /proc/PID/stat and status, a sysfs
 * number, kgsl's gpubusy, `pidof` and `atrace --list_categories`.
 *
 * Ownership: nothing here allocates. Every gfxstat_str returned borrows the caller's text.
 * Lines may end in LF, CRLF or adb's "\r\r\n"; the last one needs no newline.
 */
#ifndef GFXSTAT_DEVICE_CONTEXT_H
#define GFXSTAT_DEVICE_CONTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "gfxstat.h"

/* One line of a `grep -H` or `find` reply that names a path asked for. */
enum gfxstat_ctx_kind {
	GFXSTAT_CTX_TEXT,    /* grep: "PATH:LINE", the file's line; find: "DIR/NAME", a name */
	GFXSTAT_CTX_REFUSED, /* "TOOL: PATH: REASON" ("Permission denied", "No such file or
			      * directory"); GNU's 'PATH' and ‘PATH’ quotes too */
};

struct gfxstat_ctx_line {
	enum gfxstat_ctx_kind kind;
	size_t path;             /* the index in the paths asked for */
	struct gfxstat_str text; /* TEXT: the line or the name; REFUSED: the reason */
};

/**
 * gfxstat_ctx_reply_next() - the next line of a reply that names one of @paths
 * @reply: the text left; advanced past the lines consumed
 * @paths: the paths (grep) or folders (find) given to the command, without a trailing '/'
 * @npaths: their number
 * @sep: ':' for `grep -H` ("PATH:LINE"), '/' for `find` ("DIR/NAME", NAME without '/';
 *	 the line of DIR itself is skipped)
 * @hint: in/out: the path to try first (both tools answer in the order asked), then the
 *	  longest path that fits; may be NULL
 * @out: filled when a line is returned
 *
 * Lines that name none of @paths (a comm with a newline, a tool's other messages) are
 * skipped. Return: 1 with @out set, 0 at the end of @reply.
 */
int gfxstat_ctx_reply_next(struct gfxstat_str *reply, const char *const *paths, size_t npaths,
			   char sep, size_t *hint, struct gfxstat_ctx_line *out);

/**
 * gfxstat_ctx_number() - a sysfs number: "1804800", "-512000", " 45 " (a sign, digits,
 * spaces around)
 * Return: GFXSTAT_PARSE_OK with @v set; GFXSTAT_PARSE_FAIL for anything else (an empty
 * file, "N/A", a value over int64).
 */
enum gfxstat_parse_res gfxstat_ctx_number(const char *s, size_t n, int64_t *v);

/**
 * gfxstat_ctx_uptime() - /proc/uptime, "12345.67 54321.00": the first number in ns (the
 * fraction scaled by its digits, no floating point)
 * Return: GFXSTAT_PARSE_OK or GFXSTAT_PARSE_FAIL.
 */
enum gfxstat_parse_res gfxstat_ctx_uptime(const char *s, size_t n, int64_t *ns);

/* One CPU line of /proc/stat, in clock ticks since boot. */
struct gfxstat_ctx_cpu {
	int32_t cpu;   /* -1 for the "cpu" line of all CPUs */
	uint64_t busy; /* user + nice + system + irq + softirq + steal (guest is in user) */
	uint64_t idle; /* idle + iowait */
};

/**
 * gfxstat_ctx_proc_stat_line() - one line of /proc/stat
 * Accepted: "cpu  U N S I[ IOW IRQ SIRQ STEAL[ GUEST[ GNICE]]]" and "cpuN ..." (4 to 10
 * numbers, as kernels since 2.4 write them).
 * Return: GFXSTAT_PARSE_OK; GFXSTAT_PARSE_UNSUPPORTED for the other lines (intr, ctxt,
 * btime...); GFXSTAT_PARSE_FAIL for a cpu line that is cut or not numbers.
 */
enum gfxstat_parse_res gfxstat_ctx_proc_stat_line(const char *s, size_t n,
						  struct gfxstat_ctx_cpu *out);

/**
 * gfxstat_ctx_gpubusy() - kgsl's /sys/class/kgsl/kgsl-3d0/gpubusy, "  BUSY  TOTAL": the
 * GPU's busy and total time (us) of its last sampling window
 * Return: GFXSTAT_PARSE_OK (0 <= @busy), or GFXSTAT_PARSE_FAIL.
 */
enum gfxstat_parse_res gfxstat_ctx_gpubusy(const char *s, size_t n, int64_t *busy,
					   int64_t *total);

/**
 * gfxstat_ctx_gpu_load() - a GPU busy file that holds a percent: Exynos/Pixel Mali's
 * /sys/kernel/gpu/gpu_busy ("%3d%%", " 45%"), a devfreq device's load ("%lu@%luHz",
 * "45@585000000Hz", Rockchip and other vendor devfreq cores), or a bare "45"
 * Return: GFXSTAT_PARSE_OK with @permille (0..1000); GFXSTAT_PARSE_FAIL otherwise (over
 * 100 %, not a number).
 */
enum gfxstat_parse_res gfxstat_ctx_gpu_load(const char *s, size_t n, int64_t *permille);

/* What `dumpsys battery` says (BatteryService's dump); INT64_MIN for a field it did not
 * print. */
struct gfxstat_ctx_battery {
	int64_t level;       /* "level: 85" */
	int64_t scale;       /* "scale: 100" */
	int64_t voltage_mv;  /* "voltage: 4123" (mV) */
	int64_t temp_dc;     /* "temperature: 312" (tenths of a degree C) */
};

/**
 * gfxstat_ctx_dumpsys_battery() - the reply of `dumpsys battery`: its "  level: N",
 * "  scale: N", "  voltage: N" and "  temperature: N" lines (frameworks/base/services/core/
 * java/com/android/server/BatteryService.java, dumpInternal())
 * Return: GFXSTAT_PARSE_OK when any was found; GFXSTAT_PARSE_UNSUPPORTED for a reply with
 * none ("Can't find service: battery") or one that says "present: false" (no battery).
 */
enum gfxstat_parse_res gfxstat_ctx_dumpsys_battery(const char *s, size_t n,
						   struct gfxstat_ctx_battery *out);

/**
 * gfxstat_ctx_pid_ticks() - /proc/PID/stat: utime + stime (fields 14 and 15, clock ticks),
 * counted after the last ')' so that a comm with spaces or parentheses does not shift them
 * Return: GFXSTAT_PARSE_OK or GFXSTAT_PARSE_FAIL.
 */
enum gfxstat_parse_res gfxstat_ctx_pid_ticks(const char *s, size_t n, uint64_t *ticks);

/**
 * gfxstat_ctx_status_kb() - one line of /proc/PID/status, "VmRSS:\t  123456 kB"
 * @key: the field, "VmRSS"
 * Return: GFXSTAT_PARSE_OK with @kb; GFXSTAT_PARSE_UNSUPPORTED for another field;
 * GFXSTAT_PARSE_FAIL when @key's value is not "N kB".
 */
enum gfxstat_parse_res gfxstat_ctx_status_kb(const char *s, size_t n, const char *key,
					     int64_t *kb);

/**
 * gfxstat_ctx_pidof() - the first process id of a `pidof NAME` reply ("4321" or
 * "4321 4400")
 * Return: GFXSTAT_PARSE_OK (1 <= @pid <= INT32_MAX), GFXSTAT_PARSE_FAIL (no process:
 * nothing, or not a number).
 */
enum gfxstat_parse_res gfxstat_ctx_pidof(const char *s, size_t n, int64_t *pid);

/**
 * gfxstat_atrace_category_line() - one line of `atrace --list_categories`,
 * "         gfx - Graphics": the category's name (letters, digits, '_')
 * Return: GFXSTAT_PARSE_OK with @name; GFXSTAT_PARSE_UNSUPPORTED for another line.
 */
enum gfxstat_parse_res gfxstat_atrace_category_line(const char *s, size_t n,
						    struct gfxstat_str *name);

#endif
