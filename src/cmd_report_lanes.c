/* SPDX-License-Identifier: MIT */
/*
 * gfxstat report's lanes beyond the frames (cmd_report_lanes.h): a trace's system series, a
 * session's context.csv and its screenshots, each placed on the frames' clock.
 *
 * Where a session's samples sit on the trace's clock: atrace's and Perfetto's clock is the
 * kernel's boot clock (what /proc/uptime reads: the device_uptime_ns column), so a session of
 * the trace or perfetto source is placed by the device's uptime; a polled source's clock is
 * CLOCK_MONOTONIC, reached through the host's clock and summary.json's host_to_trace_ns
 * (record's estimate from the frames' arrival).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_report_lanes.h"
#include "gfxstat/gfxstat_report_lanes.h"
#include "gfxstat/gfxstat_sysctx.h"

/* The thermal zones drawn at most: the hottest (a phone has dozens). */
#define MAX_ZONES 8

/* The text of @dir/@name (at most @cap - 1 bytes), or 0 bytes. */
static size_t slurp(const char *dir, const char *name, char *buf, size_t cap)
{
	char path[4096];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (f) {
		n = fread(buf, 1, cap - 1, f);
		fclose(f);
	}
	buf[n] = 0;
	return n;
}

/* How the session's samples reach the trace's clock. */
struct clock_map {
	int boot;          /* the uptime is the trace's clock */
	int have_off;
	long long off;     /* trace = host + off */
};

static void session_clock(const char *dir, struct clock_map *c)
{
	char text[8192], path[4096], *p, *all = NULL;
	size_t n = 0, cap = 0;
	FILE *f;

	memset(c, 0, sizeof(*c));
	slurp(dir, "device.json", text, sizeof(text));
	c->boot = strstr(text, "\"source\":\"trace\"") || strstr(text, "\"source\":\"perfetto\"");
	/* summary.json whole: its layers come first, the clock's offset last */
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	f = fopen(path, "r");
	while (f && n + 1 >= cap && cap < (64u << 20)) {
		char *nb = realloc(all, cap = cap ? 2 * cap : 65536);

		if (!nb)
			break;
		all = nb;
		n += fread(all + n, 1, cap - 1 - n, f);
	}
	if (f)
		fclose(f);
	if (all) {
		all[n] = 0;
		if ((p = strstr(all, "\"host_to_trace_ns\":")) && sscanf(p + 19, "%lld", &c->off) == 1)
			c->have_off = 1;
	}
	free(all);
}

/* The row's time on the trace's clock, or 0 when it cannot be placed. */
static int place(const struct clock_map *c, const char *host, const char *uptime, int64_t *t)
{
	long long v;

	if (c->boot && uptime && *uptime && sscanf(uptime, "%lld", &v) == 1) {
		*t = v;
		return 1;
	}
	if (!c->boot && c->have_off && host && *host && sscanf(host, "%lld", &v) == 1) {
		*t = v + c->off;
		return 1;
	}
	return 0;
}

static size_t split(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *p = line;

	line[strcspn(line, "\r\n")] = 0;
	while (n < max) {
		f[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = 0;
	}
	return n;
}

static enum gfxstat_html_lane lane_of(enum gfxstat_series_kind k)
{
	switch (k) {
	case GFXSTAT_SERIES_CPU_FREQ: case GFXSTAT_SERIES_CLUSTER_FREQ:
		return GFXSTAT_LANE_CPU_FREQ;
	case GFXSTAT_SERIES_CPU_LOAD: case GFXSTAT_SERIES_CLUSTER_LOAD:
		return GFXSTAT_LANE_CPU_LOAD;
	case GFXSTAT_SERIES_GPU_FREQ: case GFXSTAT_SERIES_GPU_ACTIVE:
		return GFXSTAT_LANE_GPU;
	case GFXSTAT_SERIES_THERMAL:
		return GFXSTAT_LANE_THERMAL;
	case GFXSTAT_SERIES_BATTERY_CURRENT: case GFXSTAT_SERIES_RAIL_POWER:
		return GFXSTAT_LANE_POWER;
	default:
		return GFXSTAT_LANE_COUNT;
	}
}

/* ---------------------------------------------------------------------------------------- */
/* context.csv                                                                               */

enum col_kind { C_NONE, C_LOAD_ALL, C_LOAD_CPU, C_FREQ_CPU, C_GPU_FREQ, C_GPU_BUSY, C_ZONE,
		C_BAT_TEMP, C_POWER, C_APP_CPU };

struct ccol {
	enum col_kind kind;
	int cpu;
	char name[64];
	double max;
};

static void classify(struct ccol *c, const char *h)
{
	size_t n = strlen(h);
	int cpu;
	char tail[32];

	c->kind = C_NONE;
	c->cpu = -1;
	c->max = -INFINITY;
	snprintf(c->name, sizeof(c->name), "%s", h);
	if (!strcmp(h, "cpu_load_pct")) {
		c->kind = C_LOAD_ALL;
	} else if (sscanf(h, "cpu%d_%31s", &cpu, tail) == 2 && cpu >= 0 && cpu < 64) {
		c->cpu = cpu;
		c->kind = !strcmp(tail, "load_pct") ? C_LOAD_CPU :
			  !strcmp(tail, "freq_khz") ? C_FREQ_CPU : C_NONE;
	} else if (!strcmp(h, "gpu_freq_khz")) {
		c->kind = C_GPU_FREQ;
	} else if (!strcmp(h, "gpu_busy_pct")) {
		c->kind = C_GPU_BUSY;
	} else if (!strncmp(h, "thermal_mC.", 11) && n > 11) {
		c->kind = C_ZONE;
		snprintf(c->name, sizeof(c->name), "%s", h + 11);
	} else if (!strcmp(h, "battery_temp_dC")) {
		c->kind = C_BAT_TEMP;
	} else if (!strcmp(h, "battery_power_mw")) {
		c->kind = C_POWER;
	} else if (!strcmp(h, "app_cpu_pct")) {
		c->kind = C_APP_CPU;
	}
}

struct ctx_table {
	struct ccol *col;
	size_t ncol;
	int64_t *t;      /* each placed row's time */
	double *v;       /* rows x ncol, NAN: empty */
	size_t nrow, cap;
};

static int read_context(const char *dir, const struct clock_map *cm, struct ctx_table *x)
{
	char path[4096], *line = NULL, **f = NULL;
	size_t lcap = 0, i;
	ssize_t len;
	FILE *fp;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/context.csv", dir);
	fp = fopen(path, "r");
	if (!fp)
		return 0;
	if ((len = getline(&line, &lcap, fp)) <= 0)
		goto out;
	f = malloc(4096 * sizeof(*f));
	if (!f) {
		rc = GFXSTAT_E_NOMEM;
		goto out;
	}
	x->ncol = split(line, f, 4096);
	x->col = calloc(x->ncol, sizeof(*x->col));
	if (!x->col) {
		rc = GFXSTAT_E_NOMEM;
		goto out;
	}
	for (i = 0; i < x->ncol; i++)
		classify(&x->col[i], f[i]);
	while ((len = getline(&line, &lcap, fp)) > 0) {
		size_t nf = split(line, f, 4096);
		int64_t t;

		if (nf < 2 || !place(cm, f[0], f[1], &t))
			continue;
		if (x->nrow == x->cap) {
			size_t nc = x->cap ? 2 * x->cap : 256;
			int64_t *nt = realloc(x->t, nc * sizeof(*nt));
			double *nv;

			if (!nt) {
				rc = GFXSTAT_E_NOMEM;
				goto out;
			}
			x->t = nt;
			nv = realloc(x->v, nc * x->ncol * sizeof(*nv));
			if (!nv) {
				rc = GFXSTAT_E_NOMEM;
				goto out;
			}
			x->v = nv;
			x->cap = nc;
		}
		x->t[x->nrow] = t;
		for (i = 0; i < x->ncol; i++) {
			double *v = &x->v[x->nrow * x->ncol + i];
			char *e;

			*v = NAN;
			if (i < nf && f[i][0]) {
				*v = strtod(f[i], &e);
				if (*e)
					*v = NAN;
			}
			if (*v == *v && *v > x->col[i].max)
				x->col[i].max = *v;
		}
		x->nrow++;
	}
out:
	free(line);
	free(f);
	fclose(fp);
	return rc;
}

/* Whether CPUs' frequency columns @a and @b hold the same value in every row: one cpufreq
 * policy (a cluster) sets the frequency of all its CPUs, and scaling_cur_freq reads the
 * policy's (linux drivers/cpufreq/cpufreq.c, show_scaling_cur_freq). */
static int same_policy(const struct ctx_table *x, size_t a, size_t b)
{
	size_t r;

	for (r = 0; r < x->nrow; r++) {
		double p = x->v[r * x->ncol + a], q = x->v[r * x->ncol + b];

		if ((p == p) != (q == q) || (p == p && p != q))
			return 0;
	}
	return 1;
}

static int put(struct gfxstat_html *h, enum gfxstat_html_lane lane, const char *name,
	       const char *unit, int64_t t, double v)
{
	int rc;

	if (v != v)
		return 0;
	rc = gfxstat_html_context(h, lane, name, unit, t, v);
	return rc == GFXSTAT_E_NOMEM ? rc : 0;
}

static int context_lanes(struct gfxstat_html *h, const struct ctx_table *x, const int *used)
{
	int cluster[64], member[64];
	size_t fcol[64], lcol[64], zones[MAX_ZONES], nz = 0, i, k, r;
	int ncpu = 0, c, rc = 0;

	memset(member, -1, sizeof(member));
	for (i = 0; i < 64; i++)
		fcol[i] = lcol[i] = (size_t)-1;
	for (i = 0; i < x->ncol; i++) {
		if (x->col[i].kind == C_FREQ_CPU)
			fcol[x->col[i].cpu] = i;
		else if (x->col[i].kind == C_LOAD_CPU)
			lcol[x->col[i].cpu] = i;
	}
	/* clusters: CPUs with one frequency, each led by its first CPU */
	for (c = 0; c < 64; c++) {
		int d;

		cluster[c] = -1;
		if (fcol[c] == (size_t)-1)
			continue;
		ncpu++;
		for (d = 0; d < c && cluster[c] < 0; d++)
			if (cluster[d] == d && same_policy(x, fcol[c], fcol[d]))
				cluster[c] = d;
		if (cluster[c] < 0)
			cluster[c] = c;
		member[c] = cluster[c];
	}
	/* the hottest zones (by their highest reading) */
	for (i = 0; i < x->ncol; i++) {
		if (x->col[i].kind != C_ZONE || x->col[i].max == -INFINITY)
			continue;
		if (nz < MAX_ZONES) {
			zones[nz++] = i;
			continue;
		}
		for (k = 0; k < nz; k++)
			if (x->col[zones[k]].max < x->col[i].max) {
				zones[k] = i;
				break;
			}
	}
	for (r = 0; r < x->nrow && !rc; r++) {
		const double *v = &x->v[r * x->ncol];
		int64_t t = x->t[r];

		for (c = 0; c < 64 && !rc; c++) {
			char name[48], *o = name;
			double sum = 0;
			int d, n = 0, lo = c, hi = c;

			if (cluster[c] != c)
				continue;
			for (d = c; d < 64; d++)
				if (member[d] == c) {
					hi = d;
					if (lcol[d] != (size_t)-1 && v[lcol[d]] == v[lcol[d]]) {
						sum += v[lcol[d]];
						n++;
					}
				}
			/* the CPUs of a cluster are a run in every layout seen (0-3, 4-6, 7) */
			if (lo == hi)
				snprintf(o, sizeof(name), "cpu %d", lo);
			else
				snprintf(o, sizeof(name), "cpus %d-%d", lo, hi);
			if (!used[GFXSTAT_LANE_CPU_FREQ])
				rc = put(h, GFXSTAT_LANE_CPU_FREQ, name, "MHz", t, v[fcol[c]] / 1000);
			if (!rc && n && !used[GFXSTAT_LANE_CPU_LOAD])
				rc = put(h, GFXSTAT_LANE_CPU_LOAD, name, "%", t, sum / n);
		}
		for (i = 0; i < x->ncol && !rc; i++) {
			const struct ccol *cc = &x->col[i];

			if (cc->kind == C_LOAD_ALL && !used[GFXSTAT_LANE_CPU_LOAD])
				rc = put(h, GFXSTAT_LANE_CPU_LOAD, ncpu ? "all cpus" : "cpus", "%", t,
					 v[i]);
			else if (cc->kind == C_APP_CPU && !used[GFXSTAT_LANE_CPU_LOAD])
				rc = put(h, GFXSTAT_LANE_CPU_LOAD, "the app (of one cpu)", "%", t, v[i]);
			else if (cc->kind == C_GPU_FREQ && !used[GFXSTAT_LANE_GPU])
				rc = put(h, GFXSTAT_LANE_GPU, "gpu", "MHz", t, v[i] / 1000);
			else if (cc->kind == C_GPU_BUSY && !used[GFXSTAT_LANE_GPU])
				rc = put(h, GFXSTAT_LANE_GPU, "gpu busy", "%", t, v[i]);
			else if (cc->kind == C_BAT_TEMP && !used[GFXSTAT_LANE_THERMAL])
				rc = put(h, GFXSTAT_LANE_THERMAL, "battery", "C", t, v[i] / 10);
			else if (cc->kind == C_POWER && !used[GFXSTAT_LANE_POWER])
				rc = put(h, GFXSTAT_LANE_POWER, "battery", "mW", t, v[i]);
		}
		for (k = 0; k < nz && !rc && !used[GFXSTAT_LANE_THERMAL]; k++)
			rc = put(h, GFXSTAT_LANE_THERMAL, x->col[zones[k]].name, "C", t,
				 v[zones[k]] / 1000);
	}
	return rc;
}

/* ---------------------------------------------------------------------------------------- */
/* screenshots                                                                               */

struct shot {
	int64_t t;
	char file[128], why[12];
};

/* A screens.csv file name: screens/NAME.png, no other folder. */
static int safe_name(const char *f)
{
	size_t n = strlen(f);

	return !strncmp(f, "screens/", 8) && !strchr(f + 8, '/') && !strstr(f, "..") && n > 12 &&
	       n < 120 && !strcmp(f + n - 4, ".png");
}

static int add_shot(struct gfxstat_html *h, const char *dir, const struct shot *s,
		    uint64_t *unread, uint64_t *nolib)
{
	char path[4096];
	unsigned char *buf = NULL;
	long size;
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, s->file);
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) <= 0 ||
	    (unsigned long)size > 64ul << 20 || fseek(f, 0, SEEK_SET) ||
	    !(buf = malloc((size_t)size)) || fread(buf, 1, (size_t)size, f) != (size_t)size) {
		(*unread)++;
	} else {
		rc = gfxstat_html_screenshot(h, s->t, buf, (size_t)size, s->why);
		if (rc == GFXSTAT_E_INVAL)
			(*unread)++;
		if (rc == GFXSTAT_E_UNSUPPORTED)
			(*nolib)++;
		rc = rc == GFXSTAT_E_NOMEM ? rc : 0;
	}
	free(buf);
	if (f)
		fclose(f);
	return rc;
}

static int screenshots(struct gfxstat_html *h, const char *dir, const struct clock_map *cm)
{
	char path[4096], *line = NULL, *f[16];
	size_t cap = 0, n = 0, ncap = 0, i, unplaced = 0;
	uint64_t unread = 0, nolib = 0;
	struct shot *all = NULL;
	FILE *fp;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/screens.csv", dir);
	fp = fopen(path, "r");
	if (!fp)
		return 0;
	while (getline(&line, &cap, fp) > 0) {
		size_t nf = split(line, f, 16);
		long long v;

		/* time_s,file,host_time_ns,device_uptime_ns,trace_ns,trace_clock,why,bytes */
		if (nf < 8 || !strcmp(f[0], "time_s") || !safe_name(f[1]))
			continue;
		if (cli_grow((void **)&all, &ncap, n, sizeof(*all), 64)) {
			rc = GFXSTAT_E_NOMEM;
			goto out;
		}
		if (f[4][0] && sscanf(f[4], "%lld", &v) == 1)
			all[n].t = v;
		else if (!place(cm, f[2], f[3], &all[n].t)) {
			unplaced++;
			continue;
		}
		snprintf(all[n].file, sizeof(all[n].file), "%s", f[1]);
		snprintf(all[n].why, sizeof(all[n].why), "%s", f[6]);
		n++;
	}
	/* more than the report holds: spread evenly over the recording */
	for (i = 0; i < n && i < GFXSTAT_HTML_MAX_SHOTS && !rc; i++) {
		size_t k = n <= GFXSTAT_HTML_MAX_SHOTS ? i :
			   (i * (n - 1) + (GFXSTAT_HTML_MAX_SHOTS - 1) / 2) /
				   (GFXSTAT_HTML_MAX_SHOTS - 1);

		rc = add_shot(h, dir, &all[k], &unread, &nolib);
	}
	if (n > GFXSTAT_HTML_MAX_SHOTS)
		gfxstat_html_screenshots_left(h, n - GFXSTAT_HTML_MAX_SHOTS,
					      "more than the report holds (spread evenly)");
	if (unplaced)
		gfxstat_html_screenshots_left(h, unplaced, "no time on the trace's clock");
	if (unread)
		cli_warn("%s: %llu screenshots could not be read (not a PNG, damaged, or over %u "
			 "pixels): left out", dir, (unsigned long long)unread,
			 GFXSTAT_PNG_MAX_PIXELS);
	if (nolib)
		cli_warn("%s: %llu screenshots left out of the report: thumbnails need libpng (%s)",
			 dir, (unsigned long long)nolib, GFXSTAT_PNG_NEED);
out:
	free(line);
	free(all);
	fclose(fp);
	return rc;
}

int cli_report_lanes(struct gfxstat_html *h, const char *dir, const struct cli_source *src)
{
	int used[GFXSTAT_LANE_COUNT + 1] = { 0 }, rc = 0;
	size_t i, n = src && src->sys ? gfxstat_sysctx_nseries(src->sys) : 0;

	for (i = 0; i < n && !rc; i++) {
		const struct gfxstat_series *s = gfxstat_sysctx_series(src->sys, i);
		enum gfxstat_html_lane l = lane_of(s->kind);

		if (l == GFXSTAT_LANE_COUNT)
			continue;
		used[l] = 1;
		rc = gfxstat_html_series(h, s);
		rc = rc == GFXSTAT_E_NOMEM ? rc : 0;
	}
	if (dir && !rc) {
		struct clock_map cm;
		struct ctx_table x;

		memset(&x, 0, sizeof(x));
		session_clock(dir, &cm);
		rc = read_context(dir, &cm, &x);
		if (!rc && x.nrow)
			rc = context_lanes(h, &x, used);
		free(x.col);
		free(x.t);
		free(x.v);
		if (!rc)
			rc = screenshots(h, dir, &cm);
	}
	return rc;
}
