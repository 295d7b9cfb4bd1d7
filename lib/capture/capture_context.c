/* SPDX-License-Identifier: MIT */
/*
 * The device's context beside the frames (gfxstat_capture.h, record --context-ms): CPU load
 * per core and frequency, the GPU's frequency and busy time, thermal zones, the battery and
 * the power it gives, the measured app's CPU and memory, read without root where Android
 * lets the shell read them.
 *
 * Once, at the first sample: `find DIR... -maxdepth 1` lists the CPUs, thermal zones and
 * GPU devices the device has (one reply), `pidof PKG` finds the app. Then every sample is
 * ONE command, `grep -H ^ PATH... 2>&1`, so one adb round trip: every line of every file
 * comes back as "PATH:LINE" and every refusal as "grep: PATH: REASON", so neither the order
 * of the device's stdout and stderr nor an empty file can shift a value to another series.
 * Every path is built here from constants and the names the device listed, each one quoted
 * word (gfxstat_shell_quote()); " 2>&1" is the only shell syntax.
 *
 * The first sample that answers fixes the series (the columns of context.csv): a reading
 * the device refuses then (permission denied, no such file) is said once with the device's
 * reason and left out, never filled; later misses leave their cell empty. Deltas (loads,
 * the app's CPU) need two samples: the first has none.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_local.h"
#include "gfxstat/gfxstat_device_context.h"

#define CTX_CPUS 32
#define CTX_ZONES 128
#define CTX_PATHS 400
/* a sample's command line: adb before Android 9 takes 4096 bytes of service text */
#define CTX_LINE 3900
#define CTX_TIMEOUT_S 5
#define CTX_PIDOF_NS (5 * GFXSTAT_NSEC_PER_SEC)
/* Android's USER_HZ: /proc tick counts are 10 ms */
#define CTX_TICK_NS (10 * GFXSTAT_NSEC_PER_MSEC)
#define NONE GFXSTAT_CONTEXT_NONE

enum role {
	R_UPTIME, R_STAT, R_CPUFREQ, R_KGSL_CLK, R_KGSL_BUSY, R_MALI, R_DEVFREQ, R_TZ_TYPE,
	R_TZ_TEMP, R_BAT_CURRENT, R_BAT_VOLTAGE, R_BAT_TEMP, R_BAT_LEVEL, R_APP_STAT,
	R_APP_STATUS,
	/* Exynos/Pixel Mali's /sys/kernel/gpu, a GPU devfreq device's load */
	R_KGPU_CLOCK, R_KGPU_BUSY, R_DEVFREQ_LOAD,
	/* `dumpsys battery`, when the battery's sysfs files are refused: not grep paths */
	R_DS_VOLTAGE, R_DS_TEMP, R_DS_LEVEL,
};

enum pstate { P_ASK, P_READ, P_DROPPED };

/* One file read every sample. */
struct cpath {
	char path[192];
	enum role role;
	int32_t index;          /* the CPU or zone; -1 */
	enum pstate state;
	/* this sample's answer */
	int got, refused;
	int64_t v, v2;
	char reason[96];        /* the first refusal's words */
	char text[96];          /* a zone's type */
};

/* /proc/stat of one CPU (slot 0: all of them; slot k + 1: CPU k). */
struct cpu_ticks {
	int have;
	uint64_t busy, idle;
};

struct gx_ctx {
	int64_t period_ns, next_ns;
	int discovered, fixed, off, said_gone;
	/* what find listed */
	uint32_t cpus;                 /* bit k: cpuK */
	int zones[CTX_ZONES], nzones;
	int thermal_listed, battery_listed, power_listed, kgsl, mali, kgpu;
	int ds_battery;                /* the battery's series come from `dumpsys battery` */
	char devfreq[8][96];
	int ndevfreq;
	int zones_cut;
	/* the app */
	char pkg[256];
	int64_t pid, next_pidof_ns;
	/* the files */
	struct cpath p[CTX_PATHS];
	size_t np;
	/* the series and their sources */
	struct gfxstat_context_series s[GFXSTAT_CONTEXT_MAX];
	int src[GFXSTAT_CONTEXT_MAX];  /* the cpath of each (loads: the CPU slot) */
	size_t ns;
	int64_t v[GFXSTAT_CONTEXT_MAX];
	struct cpu_ticks prev[CTX_CPUS + 1], cur[CTX_CPUS + 1];
	int64_t prev_up, up, prev_ticks;
	int prev_ticks_ok;
	int64_t prev_pid;
	struct gfxstat_context_refusal refused[64];
	const char *rgroup[64];        /* the refusal's group: one message per group and reason */
	struct gfxstat_context_info info;
	char line[CTX_LINE + 64];
};

static const struct gfxstat_context_info no_context;

/* The thread-state categories added to atrace when the device lists them: the scheduler's
 * switches and wakeups, CPU frequency, idle states, binder transactions. */
static const char *const thread_cats[] = { "sched", "freq", "idle", "binder_driver", NULL };

/* ---------------------------------------------------------------------------------------- */
/* helpers                                                                                   */

/* @s (@n bytes) as a name: bytes outside [A-Za-z0-9._+-] made '_'. */
static void safe_name(char *out, size_t cap, const char *s, size_t n)
{
	size_t i;

	if (n >= cap)
		n = cap - 1;
	for (i = 0; i < n; i++) {
		char ch = s[i];

		out[i] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			 (ch >= '0' && ch <= '9') || (ch && strchr("._+-", ch)) ? ch : '_';
	}
	out[n] = 0;
}

/* "cpu12" -> 12, "thermal_zone3" -> 3 for @prefix; -1 when the name is not that. */
static int numbered(struct gfxstat_str name, const char *prefix)
{
	size_t k = strlen(prefix), i;
	int v = 0;

	if (name.n <= k || name.n > k + 6 || memcmp(name.p, prefix, k))
		return -1;
	for (i = k; i < name.n; i++) {
		if (name.p[i] < '0' || name.p[i] > '9')
			return -1;
		v = v * 10 + (name.p[i] - '0');
	}
	return v;
}

static int is(struct gfxstat_str s, const char *lit)
{
	return s.n == strlen(lit) && !memcmp(s.p, lit, s.n);
}

static int has(struct gfxstat_str s, const char *lit)
{
	size_t k = strlen(lit), i;

	for (i = 0; i + k <= s.n; i++)
		if (!memcmp(s.p + i, lit, k))
			return 1;
	return 0;
}

/* A devfreq device that is a GPU's clock: Qualcomm's kgsl, Mali, "gpu"; not a bus or memory
 * bandwidth vote ("soc:qcom,gpubw", "kgsl-busmon"). */
static int gpu_devfreq(struct gfxstat_str name)
{
	return (has(name, "kgsl") || has(name, "mali") || has(name, "gpu") ||
		has(name, "g3d")) && !has(name, "bw") && !has(name, "bus") && !has(name, "llcc") &&
	       !has(name, "ddr");
}

/* The file @head @mid @tail (@mid: a number or a name the device listed). */
static struct cpath *add_path(struct gx_ctx *x, enum role role, int32_t index, const char *head,
			      const char *mid, const char *tail)
{
	struct cpath *p;

	if (x->np == CTX_PATHS)
		return NULL;
	p = &x->p[x->np];
	memset(p, 0, sizeof(*p));
	if ((size_t)snprintf(p->path, sizeof(p->path), "%s%s%s", head, mid, tail) >=
	    sizeof(p->path))
		return NULL;
	p->role = role;
	p->index = index;
	x->np++;
	return p;
}

/* Round @num / @den to the nearest (den > 0). */
static int64_t div_round(int64_t num, int64_t den)
{
	return num >= 0 ? (num + den / 2) / den : -((-num + den / 2) / den);
}

/* ---------------------------------------------------------------------------------------- */
/* once: what the device has                                                                 */

static const char *const find_dirs[] = {
	"/sys/devices/system/cpu", "/sys/class/thermal", "/sys/class/devfreq", "/sys/class/kgsl",
	"/sys/class/misc", "/sys/class/power_supply", "/sys/kernel/gpu",
};
#define NDIRS (sizeof(find_dirs) / sizeof(find_dirs[0]))

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void refuse(struct gx_ctx *x, const char *group, const char *what, const char *path,
		   const char *reason)
{
	struct gfxstat_context_refusal *r;

	if (x->info.nrefused == sizeof(x->refused) / sizeof(x->refused[0]))
		return;
	x->rgroup[x->info.nrefused] = group;
	r = &x->refused[x->info.nrefused++];
	snprintf(r->what, sizeof(r->what), "%s", what);
	snprintf(r->path, sizeof(r->path), "%s", path);
	snprintf(r->reason, sizeof(r->reason), "%s", reason);
}

/* `find DIR... -maxdepth 1`: the CPUs, zones, GPU devices and the battery. Return: 0, or -1
 * when the device did not answer (tried again at the next sample). */
static int discover(struct gfxstat_capture *c, struct gx_ctx *x)
{
	const char *args[] = { "shell", x->line, NULL };
	char listed[NDIRS] = { 0 }, why[NDIRS][96];
	struct gx_cmd l;
	struct gfxstat_str reply;
	struct gfxstat_ctx_line ln;
	size_t i, hint = 0;

	gx_cmd_init(&l, x->line, sizeof(x->line));
	gx_cmd_raw(&l, "find");
	for (i = 0; i < NDIRS; i++)
		gx_cmd_word(&l, find_dirs[i]);
	gx_cmd_raw(&l, " -maxdepth 1 2>&1");
	if (l.err || c->t->run(c->t->ctx, args, c->buf, GX_CAP_OUT_MAX, CTX_TIMEOUT_S) < 0)
		return -1;
	memset(why, 0, sizeof(why));
	reply.p = c->buf;
	reply.n = strlen(c->buf);
	while (gfxstat_ctx_reply_next(&reply, find_dirs, NDIRS, '/', &hint, &ln)) {
		const char *dir = find_dirs[ln.path];
		int k;

		if (ln.kind == GFXSTAT_CTX_REFUSED) {
			listed[ln.path] = 2;
			snprintf(why[ln.path], sizeof(why[0]), "%.*s", (int)ln.text.n, ln.text.p);
			continue;
		}
		listed[ln.path] = 1;
		if (!strcmp(dir, "/sys/devices/system/cpu")) {
			k = numbered(ln.text, "cpu");
			if (k >= 0 && k < CTX_CPUS)
				x->cpus |= 1u << k;
		} else if (!strcmp(dir, "/sys/class/thermal")) {
			k = numbered(ln.text, "thermal_zone");
			if (k >= 0 && x->nzones < CTX_ZONES)
				x->zones[x->nzones++] = k;
		} else if (!strcmp(dir, "/sys/class/devfreq")) {
			if (gpu_devfreq(ln.text) && x->ndevfreq < 8 &&
			    ln.text.n < sizeof(x->devfreq[0]))
				snprintf(x->devfreq[x->ndevfreq++], sizeof(x->devfreq[0]), "%.*s",
					 (int)ln.text.n, ln.text.p);
		} else if (!strcmp(dir, "/sys/class/kgsl")) {
			x->kgsl |= is(ln.text, "kgsl-3d0");
		} else if (!strcmp(dir, "/sys/class/misc")) {
			x->mali |= is(ln.text, "mali0");
		} else if (!strcmp(dir, "/sys/kernel/gpu")) {
			x->kgpu |= is(ln.text, "gpu_busy") || is(ln.text, "gpu_clock");
		} else {
			x->battery_listed |= is(ln.text, "battery");
		}
	}
	/* the listing answers for the folder as a whole: only its own entry is in it when
	 * the folder is there but empty */
	x->thermal_listed = listed[1];
	x->power_listed = listed[5];
	if (listed[1] == 2)
		refuse(x, "thermal", "thermal", find_dirs[1], why[1]);
	if (listed[0] == 2)
		refuse(x, "cpu_freq", "cpu_freq", find_dirs[0], why[0]);
	qsort(x->zones, (size_t)x->nzones, sizeof(x->zones[0]), cmp_int);
	qsort(x->devfreq, (size_t)x->ndevfreq, sizeof(x->devfreq[0]), cmp_name);
	return 0;
}

/* The app's process id from `pidof PKG` (0: none). */
static int64_t find_pid(struct gfxstat_capture *c, struct gx_ctx *x)
{
	const char *w[] = { "pidof", x->pkg, NULL };
	int64_t pid;

	if (!x->pkg[0] || gx_cap_shellv(c->t, c->buf, 4096, w) < 0 ||
	    gfxstat_ctx_pidof(c->buf, strlen(c->buf), &pid) != GFXSTAT_PARSE_OK)
		return 0;
	return pid;
}

static void app_paths(struct gx_ctx *x)
{
	size_t i;

	for (i = 0; i < x->np; i++) {
		if (x->p[i].role == R_APP_STAT)
			snprintf(x->p[i].path, sizeof(x->p[i].path), "/proc/%lld/stat",
				 (long long)x->pid);
		else if (x->p[i].role == R_APP_STATUS)
			snprintf(x->p[i].path, sizeof(x->p[i].path), "/proc/%lld/status",
				 (long long)x->pid);
	}
}

/* Every file the first sample asks for, the zones last (cut first when the line is full). */
static void candidates(struct gx_ctx *x)
{
	static const char *const bat[] = { "current_now", "voltage_now", "temp", "capacity" };
	char num[16];
	int k;
	size_t i;

	add_path(x, R_UPTIME, -1, "/proc/uptime", "", "");
	add_path(x, R_STAT, -1, "/proc/stat", "", "");
	for (k = 0; k < CTX_CPUS; k++) {
		if (!(x->cpus & (1u << k)))
			continue;
		snprintf(num, sizeof(num), "%d", k);
		add_path(x, R_CPUFREQ, k, "/sys/devices/system/cpu/cpu", num,
			 "/cpufreq/scaling_cur_freq");
	}
	/* the GPU: kgsl, then Mali's misc device, then devfreq; the first that reads is used */
	if (x->kgsl) {
		add_path(x, R_KGSL_CLK, -1, "/sys/class/kgsl/kgsl-3d0/gpuclk", "", "");
		add_path(x, R_KGSL_BUSY, -1, "/sys/class/kgsl/kgsl-3d0/gpubusy", "", "");
	}
	if (x->mali)
		add_path(x, R_MALI, -1, "/sys/class/misc/mali0/device/cur_freq", "", "");
	/* Samsung's Mali platform code (gpu_custom_interface.c / gpex_*_sysfs.c): gpu_clock,
	 * and gpu_busy ("%3d%%"); busy is kgsl's, else this, else devfreq's load */
	if (x->kgpu) {
		add_path(x, R_KGPU_CLOCK, -1, "/sys/kernel/gpu/gpu_clock", "", "");
		add_path(x, R_KGPU_BUSY, -1, "/sys/kernel/gpu/gpu_busy", "", "");
	}
	for (k = 0; k < x->ndevfreq; k++) {
		add_path(x, R_DEVFREQ, k, "/sys/class/devfreq/", x->devfreq[k], "/cur_freq");
		add_path(x, R_DEVFREQ_LOAD, k, "/sys/class/devfreq/", x->devfreq[k], "/load");
	}
	/* a power_supply listed without "battery" has none; unlisted, its files may still read */
	if (!(x->power_listed == 1 && !x->battery_listed))
		for (i = 0; i < 4; i++)
			add_path(x, (enum role)(R_BAT_CURRENT + i), -1,
				 "/sys/class/power_supply/battery/", bat[i], "");
	if (x->pid > 0) {
		add_path(x, R_APP_STAT, -1, "/proc/0/stat", "", "");
		add_path(x, R_APP_STATUS, -1, "/proc/0/status", "", "");
		app_paths(x);
	}
	for (k = 0; k < x->nzones; k++) {
		snprintf(num, sizeof(num), "%d", x->zones[k]);
		add_path(x, R_TZ_TYPE, x->zones[k], "/sys/class/thermal/thermal_zone", num, "/type");
		add_path(x, R_TZ_TEMP, x->zones[k], "/sys/class/thermal/thermal_zone", num, "/temp");
	}
}

/* ---------------------------------------------------------------------------------------- */
/* a sample                                                                                  */

/* The room @w takes on the line: a space and its quoted word (past the line when it
 * cannot be one). */
static size_t room(const char *w)
{
	char q[4 * 192 + 3];
	size_t len;

	return gfxstat_shell_quote(w, strlen(w), q, sizeof(q), &len) ? CTX_LINE : len + 1;
}

/* The sample's command into x->line; @ask[] the cpath of each word. Return: the number. */
static size_t build(struct gx_ctx *x, size_t *ask)
{
	struct gx_cmd l;
	size_t i, n = 0;

	gx_cmd_init(&l, x->line, sizeof(x->line));
	gx_cmd_raw(&l, "grep -H");
	gx_cmd_word(&l, "^");
	for (i = 0; i < x->np; i++) {
		struct cpath *p = &x->p[i];
		size_t need;

		if (p->state == P_DROPPED || p->role >= R_DS_VOLTAGE)
			continue;
		need = room(p->path);
		/* a zone is its type and its temperature: both or neither */
		if (p->role == R_TZ_TYPE && i + 1 < x->np && x->p[i + 1].state != P_DROPPED)
			need += room(x->p[i + 1].path);
		if (l.n + need + sizeof(" 2>&1") >= CTX_LINE) {
			/* the first sample's cut (later lines ask only for what was read; a
			 * longer pid of a restarted app could cut one more: its cells stay
			 * empty) */
			if (p->role == R_TZ_TYPE) {
				x->zones_cut++;
				if (i + 1 < x->np)
					x->p[i + 1].state = P_DROPPED;
			}
			p->state = P_DROPPED;
			continue;
		}
		gx_cmd_word(&l, p->path);
		ask[n++] = i;
	}
	gx_cmd_raw(&l, " 2>&1");
	return l.err ? 0 : n;
}

/* One line of the reply into its file's answer. */
static void take(struct gx_ctx *x, struct cpath *p, const struct gfxstat_ctx_line *ln)
{
	struct gfxstat_ctx_cpu cpu;
	uint64_t ticks;
	int64_t v;
	const char *s = ln->text.p;
	size_t n = ln->text.n;

	if (ln->kind == GFXSTAT_CTX_REFUSED) {
		p->refused = 1;
		if (!p->reason[0])
			snprintf(p->reason, sizeof(p->reason), "%.*s", (int)n, s);
		return;
	}
	switch (p->role) {
	case R_UPTIME:
		p->got = gfxstat_ctx_uptime(s, n, &p->v) == GFXSTAT_PARSE_OK;
		break;
	case R_STAT:
		if (gfxstat_ctx_proc_stat_line(s, n, &cpu) != GFXSTAT_PARSE_OK ||
		    cpu.cpu >= CTX_CPUS)
			break;
		p->got = 1;
		x->cur[cpu.cpu + 1].have = 1;
		x->cur[cpu.cpu + 1].busy = cpu.busy;
		x->cur[cpu.cpu + 1].idle = cpu.idle;
		break;
	case R_KGSL_BUSY:
		p->got = gfxstat_ctx_gpubusy(s, n, &p->v, &p->v2) == GFXSTAT_PARSE_OK;
		break;
	case R_KGPU_BUSY:
	case R_DEVFREQ_LOAD:
		p->got = gfxstat_ctx_gpu_load(s, n, &p->v) == GFXSTAT_PARSE_OK;
		if (!p->got && !p->reason[0])
			snprintf(p->reason, sizeof(p->reason), "not a load: '%.*s'",
				 (int)(n < 40 ? n : 40), s);
		break;
	case R_KGPU_CLOCK:
		/* MHz in the older platform code ("572"), kHz in gpex's ("572000"): no GPU
		 * runs under 100 MHz or over 100 GHz, so the size says which; kept in Hz */
		p->got = gfxstat_ctx_number(s, n, &v) == GFXSTAT_PARSE_OK && v >= 0 &&
			 v < INT64_MAX / 1000000;
		if (p->got)
			p->v = v < 100000 ? v * 1000000 : v * 1000;
		break;
	case R_TZ_TYPE:
		p->got = n > 0;
		snprintf(p->text, sizeof(p->text), "%.*s", (int)n, s);
		break;
	case R_APP_STAT:
		if (gfxstat_ctx_pid_ticks(s, n, &ticks) == GFXSTAT_PARSE_OK && ticks < INT64_MAX) {
			p->got = 1;
			p->v = (int64_t)ticks;
		}
		break;
	case R_APP_STATUS:
		if (gfxstat_ctx_status_kb(s, n, "VmRSS", &v) == GFXSTAT_PARSE_OK) {
			p->got = 1;
			p->v = v;
		}
		break;
	default:
		/* one number per file: a second line would not be this file's value */
		if (!p->got)
			p->got = gfxstat_ctx_number(s, n, &p->v) == GFXSTAT_PARSE_OK;
		if (!p->got && !p->reason[0])
			snprintf(p->reason, sizeof(p->reason), "not a number: '%.*s'",
				 (int)(n < 40 ? n : 40), s);
		break;
	}
}

static struct gfxstat_context_series *series(struct gx_ctx *x, enum gfxstat_context_kind k,
					     const char *unit, int src, int32_t index,
					     const char *path)
{
	struct gfxstat_context_series *s;

	if (x->ns == GFXSTAT_CONTEXT_MAX)
		return NULL;
	s = &x->s[x->ns];
	memset(s, 0, sizeof(*s));
	s->kind = k;
	s->unit = unit;
	s->index = index;
	snprintf(s->path, sizeof(s->path), "%s", path);
	x->src[x->ns++] = src;
	return s;
}

/* The column of zone @i's temperature: "thermal_mC.<type>", ".<zone>" when types repeat. */
static void zone_name(struct gx_ctx *x, size_t t, char *out, size_t cap)
{
	const struct cpath *ty = &x->p[t];
	char a[64], b[64];
	size_t i;
	int twin = 0;

	if (ty->got)
		safe_name(a, sizeof(a), ty->text, strlen(ty->text));
	else
		snprintf(a, sizeof(a), "thermal_zone%d", (int)ty->index);
	for (i = 0; ty->got && i < x->np; i++) {
		if (i == t || x->p[i].role != R_TZ_TYPE || !x->p[i].got)
			continue;
		safe_name(b, sizeof(b), x->p[i].text, strlen(x->p[i].text));
		twin |= !strcmp(a, b);
	}
	if (twin)
		snprintf(out, cap, "thermal_mC.%s.%d", a, (int)ty->index);
	else
		snprintf(out, cap, "thermal_mC.%s", a);
}

/* The name a file's series has, or would have had. */
static void name_of(struct gx_ctx *x, size_t i, char *out, size_t cap)
{
	static const char *const bat[] = { "battery_current_ua", "battery_voltage_uv",
					   "battery_temp_dC", "battery_level_pct" };
	const struct cpath *p = &x->p[i];

	switch (p->role) {
	case R_UPTIME: snprintf(out, cap, "device_uptime_ns"); break;
	case R_STAT: snprintf(out, cap, "cpu_load_pct"); break;
	case R_CPUFREQ: snprintf(out, cap, "cpu%d_freq_khz", (int)p->index); break;
	case R_KGSL_BUSY: case R_KGPU_BUSY: case R_DEVFREQ_LOAD:
		snprintf(out, cap, "gpu_busy_pct");
		break;
	case R_KGSL_CLK: case R_MALI: case R_DEVFREQ: case R_KGPU_CLOCK:
		snprintf(out, cap, "gpu_freq_khz");
		break;
	case R_DS_VOLTAGE: snprintf(out, cap, "battery_voltage_uv"); break;
	case R_DS_TEMP: snprintf(out, cap, "battery_temp_dC"); break;
	case R_DS_LEVEL: snprintf(out, cap, "battery_level_pct"); break;
	case R_TZ_TYPE: case R_TZ_TEMP:
		zone_name(x, p->role == R_TZ_TYPE ? i : i - 1, out, cap);
		break;
	case R_APP_STAT: snprintf(out, cap, "app_cpu_pct"); break;
	case R_APP_STATUS: snprintf(out, cap, "app_rss_kb"); break;
	default: snprintf(out, cap, "%s", bat[p->role - R_BAT_CURRENT]); break;
	}
}

static const char *group_of(enum role r)
{
	switch (r) {
	case R_UPTIME: case R_STAT: return "cpu";
	case R_CPUFREQ: return "cpu_freq";
	case R_KGSL_CLK: case R_KGSL_BUSY: case R_MALI: case R_DEVFREQ: case R_KGPU_CLOCK:
	case R_KGPU_BUSY: case R_DEVFREQ_LOAD:
		return "gpu";
	case R_TZ_TYPE: case R_TZ_TEMP: return "thermal";
	case R_APP_STAT: case R_APP_STATUS: return "app";
	default: return "battery";
	}
}

/* Said once: each group's refused series with the device's reason, one line a reason. */
static void say_refused(struct gfxstat_capture *c, struct gx_ctx *x)
{
	char done[64] = { 0 };
	size_t i, j, nr = x->info.nrefused;

	for (i = 0; i < nr; i++) {
		const struct gfxstat_context_refusal *r = &x->refused[i];
		char msg[700];
		size_t len = 0, more = 0, k = 0;

		if (done[i])
			continue;
		for (j = i; j < nr; j++) {
			const struct gfxstat_context_refusal *q = &x->refused[j];

			if (done[j] || strcmp(x->rgroup[j], x->rgroup[i]) ||
			    strcmp(q->reason, r->reason))
				continue;
			done[j] = 1;
			if (len < 560)
				len += (size_t)snprintf(msg + len, sizeof(msg) - len, "%s%s",
							k++ ? ", " : "", q->what);
			else
				more++;
		}
		if (more)
			snprintf(msg + len, sizeof(msg) - len, " and %zu more", more);
		gx_cap_log(c, GFXSTAT_LOG_WARN, "%s: context: left out, the device says '%s': %s "
			   "(%s%s)", c->dev.serial, r->reason, msg, r->path, k + more > 1 ? ", ..." : "");
	}
}

static int gpu_clock_role(enum role r)
{
	return r == R_KGSL_CLK || r == R_MALI || r == R_DEVFREQ || r == R_KGPU_CLOCK;
}

static int gpu_busy_role(enum role r)
{
	return r == R_KGSL_BUSY || r == R_KGPU_BUSY || r == R_DEVFREQ_LOAD;
}

/* `dumpsys battery` into the R_DS_* files' answers. Return: 0, or -1 when it gave nothing. */
static int ds_read(struct gfxstat_capture *c, struct gx_ctx *x)
{
	static const char *const w[] = { "dumpsys", "battery", NULL };
	struct gfxstat_ctx_battery b;
	size_t i;

	if (gx_cap_shellv(c->t, c->buf, GX_CAP_OUT_MAX, w) != 0 ||
	    gfxstat_ctx_dumpsys_battery(c->buf, strlen(c->buf), &b) != GFXSTAT_PARSE_OK)
		return -1;
	/* a level out of another scale than 100 (BatteryService prints both) */
	if (b.level != INT64_MIN && b.scale > 0 && b.scale != 100 && b.level >= 0 &&
	    b.level <= b.scale)
		b.level = div_round(b.level * 100, b.scale);
	for (i = 0; i < x->np; i++) {
		struct cpath *p = &x->p[i];
		int64_t v = p->role == R_DS_VOLTAGE ? b.voltage_mv
			    : p->role == R_DS_TEMP  ? b.temp_dc
			    : p->role == R_DS_LEVEL ? b.level : INT64_MIN;

		if (p->role < R_DS_VOLTAGE || v == INT64_MIN)
			continue;
		/* mV to the column's uV; beyond 1000 V it is not a battery */
		if (p->role == R_DS_VOLTAGE && (v < 0 || v > 1000000))
			continue;
		p->got = 1;
		p->v = p->role == R_DS_VOLTAGE ? v * 1000 : v;
	}
	return 0;
}

/* The battery's sysfs files gave nothing: its level, voltage and temperature from `dumpsys
 * battery` (it has no current: no power either), read each sample after the grep. */
static void ds_probe(struct gfxstat_capture *c, struct gx_ctx *x)
{
	static const enum role r[] = { R_DS_VOLTAGE, R_DS_TEMP, R_DS_LEVEL };
	size_t i, n0 = x->np, got = 0;

	for (i = 0; i < 3; i++) {
		struct cpath *p = add_path(x, r[i], -1, "dumpsys battery", "", "");

		if (p)
			p->state = P_READ;
	}
	if (ds_read(c, x) == 0)
		for (i = n0; i < x->np; i++)
			got += (size_t)x->p[i].got;
	for (i = n0; i < x->np; i++)
		if (!x->p[i].got)
			x->p[i].state = P_DROPPED;
	if (!got)
		return;
	x->ds_battery = 1;
	gx_cap_log(c, GFXSTAT_LOG_INFO, "%s: context: the battery from 'dumpsys battery' "
		   "instead (%zu series; no current, so no power)", c->dev.serial, got);
}

/* The first sample fixed what the device gives: the series, and what it refused, said. */
static void fix(struct gfxstat_capture *c, struct gx_ctx *x)
{
	char name[96];
	size_t i, gpu = x->np, first_gpu = x->np, busy = x->np;
	int k, any_zone = 0, bat_read = 0;
	struct gfxstat_context_series *s;

	x->fixed = 1;
	/* the GPU's clock: the first candidate that reads; the others are not the device's */
	for (i = 0; i < x->np; i++) {
		enum role r = x->p[i].role;

		/* the GPU's busy time: kgsl's, else Mali's gpu_busy, else a devfreq load */
		if (gpu_busy_role(r) && busy == x->np && x->p[i].got)
			busy = i;
		if (!gpu_clock_role(r))
			continue;
		if (first_gpu == x->np)
			first_gpu = i;
		if (gpu == x->np && x->p[i].got)
			gpu = i;
	}
	for (i = 0; i < x->np; i++) {
		struct cpath *p = &x->p[i];
		int silent = (gpu_clock_role(p->role) && (gpu < x->np || i != first_gpu)) ||
			     /* kgsl's busy file is said when it has none; the others are
			      * guesses at what a device may have */
			     (gpu_busy_role(p->role) && (busy < x->np || p->role != R_KGSL_BUSY));
		int chosen = gpu_clock_role(p->role) ? i == gpu
			     : gpu_busy_role(p->role) ? i == busy : !silent;

		if (p->role == R_TZ_TYPE) {
			/* a type is a name, not a series: its zone stands or falls by its temp */
			p->state = P_DROPPED;
			continue;
		}
		if (p->state == P_DROPPED || p->role >= R_DS_VOLTAGE)
			continue;
		if (p->got && chosen) {
			p->state = P_READ;
			continue;
		}
		p->state = P_DROPPED;
		if (silent)
			continue;
		name_of(x, i, name, sizeof(name));
		refuse(x, group_of(p->role), name, p->path, p->reason[0] ? p->reason : "no value");
	}
	if (x->zones_cut)
		gx_cap_log(c, GFXSTAT_LOG_WARN, "%s: context: %d thermal zones left out: a "
			   "sample's command line stays under %d bytes (adb's limit before Android "
			   "9)", c->dev.serial, x->zones_cut, CTX_LINE);
	if (first_gpu == x->np)
		refuse(x, "gpu", "gpu_freq_khz", "/sys/class/kgsl, /sys/class/misc/mali0, "
		       "/sys/class/devfreq", "no GPU clock file (kgsl-3d0, mali0, a GPU's devfreq)");
	if (x->pkg[0] && x->pid <= 0)
		refuse(x, "app", "app_cpu_pct, app_rss_kb", x->pkg, "no process (pidof)");

	/* the series, in the columns' order */
	for (i = 0; i < x->np; i++) {
		if (x->p[i].role != R_STAT || x->p[i].state != P_READ)
			continue;
		if (x->cur[0].have && (s = series(x, GFXSTAT_CTX_CPU_LOAD, "permille", 0, -1,
						  x->p[i].path)))
			snprintf(s->name, sizeof(s->name), "cpu_load_pct");
		for (k = 0; k < CTX_CPUS; k++) {
			if (!x->cur[k + 1].have && !(x->cpus & (1u << k)))
				continue;
			s = series(x, GFXSTAT_CTX_CPU_LOAD, "permille", k + 1, k, x->p[i].path);
			if (s)
				snprintf(s->name, sizeof(s->name), "cpu%d_load_pct", k);
		}
	}
	for (i = 0; i < x->np; i++) {
		struct cpath *p = &x->p[i];
		enum gfxstat_context_kind kind;
		const char *unit;

		if (p->state != P_READ)
			continue;
		switch (p->role) {
		case R_CPUFREQ: kind = GFXSTAT_CTX_CPU_FREQ; unit = "kHz"; break;
		case R_KGSL_CLK: case R_MALI: case R_DEVFREQ: case R_KGPU_CLOCK:
			kind = GFXSTAT_CTX_GPU_FREQ; unit = "kHz"; break;
		case R_KGSL_BUSY: case R_KGPU_BUSY: case R_DEVFREQ_LOAD:
			kind = GFXSTAT_CTX_GPU_BUSY; unit = "permille"; break;
		default: continue;
		}
		if ((s = series(x, kind, unit, (int)i, p->index, p->path)))
			name_of(x, i, s->name, sizeof(s->name));
	}
	for (i = 0; i < x->np; i++) {
		if (x->p[i].role != R_TZ_TEMP || x->p[i].state != P_READ)
			continue;
		if ((s = series(x, GFXSTAT_CTX_THERMAL, "mC", (int)i, x->p[i].index,
				x->p[i].path))) {
			name_of(x, i, s->name, sizeof(s->name));
			any_zone = 1;
		}
	}
	if (!any_zone && !x->nzones && x->thermal_listed == 1)
		gx_cap_log(c, GFXSTAT_LOG_INFO, "%s: context: no thermal zones", c->dev.serial);
	{
		static const enum gfxstat_context_kind bk[] = {
			GFXSTAT_CTX_BATTERY_CURRENT, GFXSTAT_CTX_BATTERY_VOLTAGE,
			GFXSTAT_CTX_BATTERY_TEMP, GFXSTAT_CTX_BATTERY_LEVEL };
		static const char *const bu[] = { "uA", "uV", "dC", "%" };
		int cur = -1, volt = -1;

		for (i = 0; i < x->np; i++)
			bat_read |= x->p[i].role >= R_BAT_CURRENT && x->p[i].role <= R_BAT_LEVEL &&
				    x->p[i].state == P_READ;
		/* not for a device that gives nothing else (then nothing is sampled) */
		if (!bat_read && x->ns)
			ds_probe(c, x);
		for (i = 0; i < x->np; i++) {
			enum role r = x->p[i].role;
			int b = r >= R_DS_VOLTAGE ? (int)(r - R_DS_VOLTAGE) + 1 : (int)(r - R_BAT_CURRENT);

			if (((r < R_BAT_CURRENT || r > R_BAT_LEVEL) && r < R_DS_VOLTAGE) ||
			    x->p[i].state != P_READ)
				continue;
			s = series(x, bk[b], bu[b], (int)i, -1, x->p[i].path);
			if (s)
				name_of(x, i, s->name, sizeof(s->name));
			if (r == R_BAT_CURRENT)
				cur = (int)i;
			if (r == R_BAT_VOLTAGE)
				volt = (int)i;
		}
		if (cur >= 0 && volt >= 0 &&
		    (s = series(x, GFXSTAT_CTX_BATTERY_POWER, "mW", cur, -1,
				"/sys/class/power_supply/battery/voltage_now x current_now")))
			snprintf(s->name, sizeof(s->name), "battery_power_mw");
	}
	for (i = 0; i < x->np; i++) {
		struct cpath *p = &x->p[i];

		if (p->state != P_READ || (p->role != R_APP_STAT && p->role != R_APP_STATUS))
			continue;
		s = series(x, p->role == R_APP_STAT ? GFXSTAT_CTX_APP_CPU : GFXSTAT_CTX_APP_RSS,
			   p->role == R_APP_STAT ? "permille" : "kB", (int)i, -1, p->path);
		if (s) {
			name_of(x, i, s->name, sizeof(s->name));
			/* the path names the process of this sample: the app's name says more */
			snprintf(s->path, sizeof(s->path), "%.100s %.80s", x->pkg, p->path);
		}
	}
	if (!x->ns) {
		/* nothing at all: one line, not one per file; /proc/stat's reason says most */
		const struct gfxstat_context_refusal *r = x->refused;

		for (i = 0; i < x->info.nrefused; i++)
			if (!strcmp(x->refused[i].path, "/proc/stat"))
				r = &x->refused[i];

		gx_cap_log(c, GFXSTAT_LOG_WARN, "%s: context: the device gives none of it (%s: %s): "
			   "not sampled", c->dev.serial, x->info.nrefused ? r->path : "?",
			   x->info.nrefused ? r->reason : "?");
		x->off = 1;
		return;
	}
	say_refused(c, x);
	gx_cap_log(c, GFXSTAT_LOG_INFO, "%s: context every %lld ms: %zu series%s%s", c->dev.serial,
		   (long long)(x->period_ns / GFXSTAT_NSEC_PER_MSEC), x->ns,
		   gpu < x->np ? "; GPU clock from " : "", gpu < x->np ? x->p[gpu].path : "");
}

/* Series values of this sample, from the files' answers and the last sample's. */
static void values(struct gx_ctx *x)
{
	size_t i;

	for (i = 0; i < x->ns; i++) {
		const struct cpath *p = x->src[i] >= 0 && x->s[i].kind != GFXSTAT_CTX_CPU_LOAD ?
					&x->p[x->src[i]] : NULL;
		int64_t v = NONE;

		switch (x->s[i].kind) {
		case GFXSTAT_CTX_CPU_LOAD: {
			const struct cpu_ticks *a = &x->prev[x->src[i]], *b = &x->cur[x->src[i]];

			/* counters that go back (a CPU hot-plugged) or no time: no value */
			if (a->have && b->have && b->busy >= a->busy && b->idle >= a->idle &&
			    b->busy - a->busy + b->idle - a->idle > 0 &&
			    b->busy - a->busy < (uint64_t)INT64_MAX / 1000 &&
			    b->idle - a->idle < (uint64_t)INT64_MAX / 2) {
				int64_t busy = (int64_t)(b->busy - a->busy);
				int64_t total = busy + (int64_t)(b->idle - a->idle);

				v = div_round(busy * 1000, total);
			}
			break;
		}
		case GFXSTAT_CTX_GPU_FREQ:
			if (p->got)
				v = div_round(p->v, 1000);
			break;
		case GFXSTAT_CTX_GPU_BUSY:
			if (p->role != R_KGSL_BUSY) {
				if (p->got)
					v = p->v; /* permille already */
				break;
			}
			/* kgsl zeroes both while the GPU is powered down: idle, 0 */
			if (p->got && p->v2 > 0 && p->v <= p->v2 && p->v < INT64_MAX / 1000)
				v = div_round(p->v * 1000, p->v2);
			else if (p->got && !p->v && !p->v2)
				v = 0;
			break;
		case GFXSTAT_CTX_BATTERY_POWER: {
			const struct cpath *volt = NULL;
			size_t k;

			for (k = 0; k < x->np; k++)
				if (x->p[k].role == R_BAT_VOLTAGE)
					volt = &x->p[k];
			/* uV x uA = pW; beyond 1 kV or 1 kA it is not a phone's battery */
			if (p->got && volt && volt->got && p->v > -1000000000 && p->v < 1000000000 &&
			    volt->v > -1000000000 && volt->v < 1000000000)
				v = div_round(p->v * volt->v, 1000000000);
			break;
		}
		case GFXSTAT_CTX_APP_CPU:
			if (p->got && x->prev_ticks_ok && x->prev_pid == x->pid && x->up != NONE &&
			    x->prev_up != NONE && x->up > x->prev_up && p->v >= x->prev_ticks &&
			    p->v - x->prev_ticks < 100000000)
				v = div_round((p->v - x->prev_ticks) * CTX_TICK_NS * 1000,
					      x->up - x->prev_up);
			break;
		default:
			if (p->got)
				v = p->v;
			break;
		}
		x->v[i] = v;
		if (v != NONE) {
			struct gfxstat_context_series *s = &x->s[i];

			if (!s->n || v < s->min)
				s->min = v;
			if (!s->n || v > s->max)
				s->max = v;
			s->sum += v;
			s->n++;
		}
	}
}

static void sample(struct gfxstat_capture *c, struct gx_ctx *x, int64_t now)
{
	const char *args[] = { "shell", x->line, NULL };
	const char *paths[CTX_PATHS];
	size_t ask[CTX_PATHS], n, i, hint = 0, matched = 0;
	struct gfxstat_str reply;
	struct gfxstat_ctx_line ln;
	struct gfxstat_context_sample smp;
	int64_t t1, t2;
	int rc;

	if (x->pkg[0] && x->fixed && x->pid <= 0 && now >= x->next_pidof_ns) {
		/* the app went away: follow it when it comes back */
		x->pid = find_pid(c, x);
		x->next_pidof_ns = now + CTX_PIDOF_NS;
		if (x->pid > 0)
			app_paths(x);
	}
	n = build(x, ask);
	if (!n)
		return;
	for (i = 0; i < x->np; i++) {
		x->p[i].got = 0;
		x->p[i].refused = 0;
	}
	memset(x->cur, 0, sizeof(x->cur));
	for (i = 0; i < n; i++)
		paths[i] = x->p[ask[i]].path;
	t1 = gx_cap_now_ns();
	rc = c->t->run(c->t->ctx, args, c->buf, GX_CAP_OUT_MAX, CTX_TIMEOUT_S);
	t2 = gx_cap_now_ns();
	reply.p = c->buf;
	reply.n = rc < 0 ? 0 : strlen(c->buf);
	while (gfxstat_ctx_reply_next(&reply, paths, n, ':', &hint, &ln)) {
		take(x, &x->p[ask[ln.path]], &ln);
		matched++;
	}
	if (!matched) {
		/* no line names a file asked for: the device is gone, or grep is not there */
		x->info.failed++;
		if (!x->said_gone) {
			x->said_gone = 1;
			gx_cap_log(c, GFXSTAT_LOG_WARN, "%s: context: no answer to '%.60s...'%s; "
				   "what was sampled is kept", c->dev.serial, x->line,
				   x->info.samples ? " (the device went away?)" : "");
		}
		if (!x->fixed && rc >= 0 && strlen(c->buf)) {
			/* an answer, but of nothing: the device has no grep; not tried again */
			x->off = 1;
		}
		return;
	}
	x->up = NONE;
	for (i = 0; i < x->np; i++)
		if (x->p[i].role == R_UPTIME && x->p[i].got)
			x->up = x->p[i].v;
	if (!x->fixed)
		fix(c, x);
	else if (x->ds_battery)
		ds_read(c, x); /* after the grep's reply was read: c->buf is free */
	if (x->off)
		return;
	for (i = 0; i < x->np; i++) {
		struct cpath *p = &x->p[i];

		/* the app's process ended: its files are gone until pidof finds it again */
		if ((p->role == R_APP_STAT || p->role == R_APP_STATUS) && p->state == P_READ &&
		    !p->got && p->refused && x->pid > 0) {
			x->pid = 0;
			x->next_pidof_ns = now + CTX_PIDOF_NS;
		}
	}
	values(x);
	memcpy(x->prev, x->cur, sizeof(x->prev));
	x->prev_ticks_ok = 0;
	for (i = 0; i < x->np; i++) {
		if (x->p[i].role == R_APP_STAT && x->p[i].got) {
			x->prev_ticks = x->p[i].v;
			x->prev_ticks_ok = 1;
		}
	}
	x->prev_pid = x->pid;
	x->prev_up = x->up;
	x->info.samples++;
	x->info.nseries = x->ns;
	x->info.last_ns = t1 + (t2 - t1) / 2 - c->t0_ns;
	smp.time_ns = x->info.last_ns;
	smp.uptime_ns = x->up;
	smp.n = x->ns;
	smp.v = x->v;
	if (c->sink.context)
		c->sink.context(c->sink.user, &smp);
}

/* ---------------------------------------------------------------------------------------- */
/* the capture's side                                                                        */

void gx_cap_context_tick(struct gfxstat_capture *c, int64_t now)
{
	struct gx_ctx *x = c->ctx;

	if (c->o.context_ms <= 0)
		return;
	if (!x) {
		x = c->ctx = calloc(1, sizeof(*x));
		if (!x) {
			gx_cap_log(c, GFXSTAT_LOG_WARN, "%s: context: out of memory: not sampled",
				   c->dev.serial);
			c->o.context_ms = 0;
			return;
		}
		x->period_ns = c->o.context_ms * GFXSTAT_NSEC_PER_MSEC;
		x->info.period_ms = c->o.context_ms;
		x->info.series = x->s;
		x->info.last = x->v;
		x->info.refused = x->refused;
		x->prev_up = NONE;
		x->up = NONE;
		gx_cap_package(c, x->pkg, sizeof(x->pkg));
		if (!gfxstat_capture_app_valid(x->pkg))
			x->pkg[0] = 0;
	}
	if (x->off || now < x->next_ns)
		return;
	x->next_ns = x->next_ns ? x->next_ns + x->period_ns : now + x->period_ns;
	if (x->next_ns <= now)
		x->next_ns = now + x->period_ns;
	if (!x->discovered) {
		if (discover(c, x))
			return;
		x->discovered = 1;
		x->pid = find_pid(c, x);
		x->next_pidof_ns = now + CTX_PIDOF_NS;
		candidates(x);
	}
	sample(c, x, now);
}

void gx_cap_context_categories(struct gfxstat_capture *c, char *out, size_t cap)
{
	char added[64] = "";
	int i;

	snprintf(out, cap, "%s", c->o.categories);
	if (c->o.context_ms <= 0)
		return;
	if (gx_cap_shell(c->t, c->buf, GX_CAP_OUT_MAX, "atrace --list_categories") != 0) {
		gx_cap_log(c, GFXSTAT_LOG_INFO, "%s: 'atrace --list_categories' failed: no "
			   "thread-state categories added", c->dev.serial);
		return;
	}
	for (i = 0; thread_cats[i]; i++) {
		struct gfxstat_str text = { c->buf, strlen(c->buf) }, name;
		const char *list = out;
		int listed = 0, have = 0;

		while (text.n && !listed) {
			const char *nl = memchr(text.p, '\n', text.n);
			size_t n = nl ? (size_t)(nl - text.p) : text.n;

			listed = gfxstat_atrace_category_line(text.p, n, &name) == GFXSTAT_PARSE_OK &&
				 is(name, thread_cats[i]);
			text.p += nl ? n + 1 : n;
			text.n -= nl ? n + 1 : n;
		}
		/* already asked for (the list: names between spaces and commas) */
		while (*list && !have) {
			size_t n = strcspn(list, " ,");

			have = n == strlen(thread_cats[i]) && !memcmp(list, thread_cats[i], n);
			list += n;
			list += strspn(list, " ,");
		}
		if (listed && !have && strlen(out) + strlen(thread_cats[i]) + 2 < cap) {
			size_t o = strlen(out), a = strlen(added);

			snprintf(out + o, cap - o, " %s", thread_cats[i]);
			snprintf(added + a, sizeof(added) - a, " %s", thread_cats[i]);
		}
	}
	if (added[0])
		gx_cap_log(c, GFXSTAT_LOG_INFO, "%s: atrace categories for thread states:%s",
			   c->dev.serial, added);
}

/*
 * A Perfetto capture's counterpart of the atrace categories above: the scheduler's events
 * for thread states (the kernel's sched.h, power.h and Android's sched_blocked_reason), CPU
 * and GPU frequency, limits and idle, thermal zones, binder and task names, in Perfetto's
 * "group/name" form (protos/perfetto/config/ftrace/ftrace_config.proto); compact_sched keeps
 * the switches and wakings small (its bundles are read as the plain events).
 */
static const char *const ftrace_events[] = {
	"sched/sched_switch", "sched/sched_waking", "sched/sched_wakeup_new",
	"sched/sched_blocked_reason", "power/cpu_frequency", "power/cpu_frequency_limits",
	"power/cpu_idle", "power/gpu_frequency", "thermal/thermal_temperature",
	"binder/binder_transaction", "binder/binder_transaction_received", "task/task_newtask",
	"task/task_rename", NULL,
};

void gx_cap_context_ftrace(const struct gfxstat_capture *c, char *out, size_t cap)
{
	size_t n = 0;
	int i;

	if (cap)
		out[0] = 0;
	if (c->o.context_ms <= 0)
		return;
	for (i = 0; ftrace_events[i] && n < cap; i++)
		n += (size_t)snprintf(out + n, cap - n, "  ftrace_events: \"%s\"\n", ftrace_events[i]);
	if (n < cap)
		snprintf(out + n, cap - n, "  compact_sched { enabled: true }\n");
}

void gx_cap_context_free(struct gfxstat_capture *c)
{
	free(c->ctx);
	c->ctx = NULL;
}

const struct gfxstat_context_info *gfxstat_capture_context(const struct gfxstat_capture *c)
{
	return c->ctx ? &c->ctx->info : &no_context;
}
