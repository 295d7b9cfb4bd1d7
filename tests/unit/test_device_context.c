/* SPDX-License-Identifier: MIT */
/*
 * The device's context replies (gfxstat_device_context.h): `grep -H` and `find` replies split
 * by the paths asked for (refusals in toybox's and GNU's words, lines of a path that is the
 * prefix of another, a device name with ':' and quotes), and the numbers of /proc/stat,
 * /proc/uptime, /proc/PID/stat and status, sysfs, kgsl's gpubusy, pidof and atrace's
 * category list, with their malformed forms.
 */
#include <stdint.h>

#include "check.h"
#include "gfxstat/gfxstat_device_context.h"

/* "kind path text" of every line of @reply, one per line, into @out. */
static void lines(const char *reply, const char *const *paths, size_t np, char sep, char *out,
		  size_t cap)
{
	struct gfxstat_str r = { reply, strlen(reply) };
	struct gfxstat_ctx_line ln;
	size_t hint = 0, n = 0;

	out[0] = 0;
	while (gfxstat_ctx_reply_next(&r, paths, np, sep, &hint, &ln) && n < cap)
		n += (size_t)snprintf(out + n, cap - n, "%c%zu %.*s\n",
				      ln.kind == GFXSTAT_CTX_TEXT ? 'T' : 'R', ln.path,
				      (int)ln.text.n, ln.text.p);
}

TEST(grep_reply)
{
	/* /proc/4321/stat is a prefix of .../status: the ':' after the path decides */
	static const char *const p[] = { "/proc/uptime", "/proc/4321/stat", "/proc/4321/status",
					 "/sys/class/thermal/thermal_zone0/temp",
					 "/sys/class/devfreq/soc:qcom,gpu's/cur_freq" };
	char out[1024];

	lines("/proc/uptime:1000.00 7000.00\n"
	      "/proc/4321/stat:4321 (a:b) S 1\r\n"
	      "/proc/4321/status:Name:\tapp\n"
	      "/proc/4321/status:VmRSS:\t 12 kB\r\r\n"
	      "grep: /sys/class/thermal/thermal_zone0/temp: Permission denied\n"
	      "/sys/class/devfreq/soc:qcom,gpu's/cur_freq:585000000\n"
	      "some other line\n"
	      "/proc/uptimeX:1\n"
	      "grep: /nope: No such file or directory\n"
	      "/proc/uptime:last without newline", p, 5, ':', out, sizeof(out));
	CHECK_CSTR(out, "T0 1000.00 7000.00\n"
			"T1 4321 (a:b) S 1\n"
			"T2 Name:\tapp\n"
			"T2 VmRSS:\t 12 kB\n"
			"R3 Permission denied\n"
			"T4 585000000\n"
			"T0 last without newline\n");
	/* GNU's quotes, in the C and a UTF-8 locale; an empty line of a file */
	lines("grep: '/proc/uptime': No such file or directory\n"
	      "find: \xe2\x80\x98/proc/4321/stat\xe2\x80\x99: Permission denied\n"
	      "/proc/4321/stat:\n"
	      "grep: /proc/4321/status:Permission denied\n", p, 5, ':', out, sizeof(out));
	CHECK_CSTR(out, "R0 No such file or directory\n"
			"R1 Permission denied\n"
			"T1 \n");
	lines("", p, 5, ':', out, sizeof(out));
	CHECK_CSTR(out, "");
	lines("\n\n\r\n", p, 0, ':', out, sizeof(out));
	CHECK_CSTR(out, "");
}

TEST(find_reply)
{
	static const char *const d[] = { "/sys/devices/system/cpu", "/sys/class/thermal",
					 "/sys/class/devfreq" };
	char out[1024];

	lines("/sys/devices/system/cpu\n"
	      "/sys/devices/system/cpu/cpu0\n"
	      "/sys/devices/system/cpu/cpufreq\n"
	      "/sys/devices/system/cpu/cpu0/cpufreq\n"
	      "find: /sys/class/thermal: Permission denied\n"
	      "/sys/class/devfreq/17000000.mali $(x)\n"
	      "/sys/class/devfreq/\n"
	      "find: '/sys/class/devfreq': No such file or directory\n", d, 3, '/', out,
	      sizeof(out));
	CHECK_CSTR(out, "T0 cpu0\n"
			"T0 cpufreq\n"
			"R1 Permission denied\n"
			"T2 17000000.mali $(x)\n"
			"R2 No such file or directory\n");
}

TEST(numbers)
{
	int64_t v = 0, b = 0, t = 0;

	CHECK_EQ(gfxstat_ctx_number("1804800\n", 8, &v), GFXSTAT_PARSE_OK);
	CHECK_EQ(v, 1804800);
	CHECK_EQ(gfxstat_ctx_number(" -512000 ", 9, &v), GFXSTAT_PARSE_OK);
	CHECK_EQ(v, -512000);
	CHECK_EQ(gfxstat_ctx_number("+7", 2, &v), GFXSTAT_PARSE_OK);
	CHECK_EQ(v, 7);
	CHECK_EQ(gfxstat_ctx_number("9223372036854775807", 19, &v), GFXSTAT_PARSE_OK);
	CHECK_EQ(v, INT64_MAX);
	CHECK_EQ(gfxstat_ctx_number("9223372036854775808", 19, &v), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_ctx_number("", 0, &v), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_ctx_number("-", 1, &v), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_ctx_number("N/A", 3, &v), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_ctx_number("45 %", 4, &v), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_ctx_number("1.5", 3, &v), GFXSTAT_PARSE_FAIL);

	CHECK_EQ(gfxstat_ctx_uptime("1000.00 7000.00\n", 16, &v), GFXSTAT_PARSE_OK);
	CHECK_EQ(v, 1000000000000LL);
	CHECK_EQ(gfxstat_ctx_uptime("52.31 300.00", 12, &v), GFXSTAT_PARSE_OK);
	CHECK_EQ(v, 52310000000LL);
	CHECK_EQ(gfxstat_ctx_uptime("1.1234567891 2", 14, &v), GFXSTAT_PARSE_OK);
	CHECK_EQ(v, 1123456789LL);
	CHECK_EQ(gfxstat_ctx_uptime("77", 2, &v), GFXSTAT_PARSE_OK);
	CHECK_EQ(v, 77000000000LL);
	CHECK_EQ(gfxstat_ctx_uptime("77.", 3, &v), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_ctx_uptime("x 1", 3, &v), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_ctx_uptime("99999999999999999999.00", 23, &v), GFXSTAT_PARSE_FAIL);

	CHECK_EQ(gfxstat_ctx_gpubusy("  250000  1000000\n", 18, &b, &t), GFXSTAT_PARSE_OK);
	CHECK_EQ(b, 250000);
	CHECK_EQ(t, 1000000);
	CHECK_EQ(gfxstat_ctx_gpubusy("      0       0", 15, &b, &t), GFXSTAT_PARSE_OK);
	CHECK_EQ(b + t, 0);
	CHECK_EQ(gfxstat_ctx_gpubusy("12", 2, &b, &t), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_ctx_gpubusy("1 2 3", 5, &b, &t), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_ctx_gpubusy("-1 2", 4, &b, &t), GFXSTAT_PARSE_FAIL);

	CHECK_EQ(gfxstat_ctx_pidof("4321\n", 5, &v), GFXSTAT_PARSE_OK);
	CHECK_EQ(v, 4321);
	CHECK_EQ(gfxstat_ctx_pidof("4321 4400\n", 10, &v), GFXSTAT_PARSE_OK);
	CHECK_EQ(v, 4321);
	CHECK_EQ(gfxstat_ctx_pidof("", 0, &v), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_ctx_pidof("0", 1, &v), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_ctx_pidof("4294967296", 10, &v), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_ctx_pidof("pidof: not found", 16, &v), GFXSTAT_PARSE_FAIL);
}

TEST(proc_stat)
{
	struct gfxstat_ctx_cpu c;
	const char *all = "cpu  960 80 80 23840 160 40 40 80 56 24";
	const char *old = "cpu3 100 0 50 800";

	CHECK_EQ(gfxstat_ctx_proc_stat_line(all, strlen(all), &c), GFXSTAT_PARSE_OK);
	CHECK_EQ(c.cpu, -1);
	/* user nice system irq softirq steal; idle iowait; guest and guest_nice not again */
	CHECK_EQ(c.busy, 960 + 80 + 80 + 40 + 40 + 80);
	CHECK_EQ(c.idle, 23840 + 160);
	CHECK_EQ(gfxstat_ctx_proc_stat_line(old, strlen(old), &c), GFXSTAT_PARSE_OK);
	CHECK_EQ(c.cpu, 3);
	CHECK_EQ(c.busy, 150);
	CHECK_EQ(c.idle, 800);
	CHECK_EQ(gfxstat_ctx_proc_stat_line("intr 1 2 3", 10, &c), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_ctx_proc_stat_line("ctxt 5", 6, &c), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_ctx_proc_stat_line("cpu0 1 2 3", 10, &c), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_ctx_proc_stat_line("cpu0 1 2 3 4 5 6 7 8 9 10 11", 28, &c),
		 GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_ctx_proc_stat_line("cpux 1 2 3 4", 12, &c), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_ctx_proc_stat_line("cpu1 1 2 x 4", 12, &c), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_ctx_proc_stat_line("cpu", 3, &c), GFXSTAT_PARSE_FAIL);
}

TEST(pid_files)
{
	/* a comm with spaces and parentheses: fields count after the last ')' */
	const char *st = "4321 (xample) a(pp2) S 700 700 0 0 -1 1077952832 50000 0 10 0 130 40 "
			 "0 0 10 -10 40 0 12345";
	const char *cut = "4321 (app) S 700 700 0 0 -1 1077952832 50000 0 10 0 130";
	uint64_t ticks = 0;
	int64_t kb = 0;

	CHECK_EQ(gfxstat_ctx_pid_ticks(st, strlen(st), &ticks), GFXSTAT_PARSE_OK);
	CHECK_EQ(ticks, 170);
	CHECK_EQ(gfxstat_ctx_pid_ticks(cut, strlen(cut), &ticks), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_ctx_pid_ticks("4321 app S 1", 12, &ticks), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_ctx_pid_ticks("4321 (app) 7 1", 14, &ticks), GFXSTAT_PARSE_FAIL);

	CHECK_EQ(gfxstat_ctx_status_kb("VmRSS:\t  204800 kB", 18, "VmRSS", &kb), GFXSTAT_PARSE_OK);
	CHECK_EQ(kb, 204800);
	CHECK_EQ(gfxstat_ctx_status_kb("VmRSS: 1 kB\r", 12, "VmRSS", &kb), GFXSTAT_PARSE_OK);
	CHECK_EQ(kb, 1);
	CHECK_EQ(gfxstat_ctx_status_kb("VmPeak:\t 9 kB", 13, "VmRSS", &kb),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_ctx_status_kb("VmRSSx: 9 kB", 12, "VmRSS", &kb),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_ctx_status_kb("VmRSS: 9 MB", 11, "VmRSS", &kb), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(gfxstat_ctx_status_kb("VmRSS:", 6, "VmRSS", &kb), GFXSTAT_PARSE_FAIL);
}

TEST(atrace_categories)
{
	struct gfxstat_str name;
	const char *l1 = "         gfx - Graphics";
	const char *l2 = "binder_driver - Binder Kernel driver";

	CHECK_EQ(gfxstat_atrace_category_line(l1, strlen(l1), &name), GFXSTAT_PARSE_OK);
	CHECK_STR(name, "gfx");
	CHECK_EQ(gfxstat_atrace_category_line(l2, strlen(l2), &name), GFXSTAT_PARSE_OK);
	CHECK_STR(name, "binder_driver");
	CHECK_EQ(gfxstat_atrace_category_line("error opening", 13, &name),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_atrace_category_line(" - x", 4, &name), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(gfxstat_atrace_category_line("", 0, &name), GFXSTAT_PARSE_UNSUPPORTED);
}

TEST_SUITE(test_device_context)
{
	RUN(grep_reply);
	RUN(find_reply);
	RUN(numbers);
	RUN(proc_stat);
	RUN(pid_files);
	RUN(atrace_categories);
}
