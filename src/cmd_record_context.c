/* SPDX-License-Identifier: MIT */
/*
 * gfxstat record's context.csv and the summary's "context" (cmd_record_context.h). A load
 * is the library's permille written as a percent with one decimal; every other value is the
 * device's integer in the unit its column names. A cell with no value is empty, never 0.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_record_context.h"

static int permille(enum gfxstat_context_kind k)
{
	return k == GFXSTAT_CTX_CPU_LOAD || k == GFXSTAT_CTX_GPU_BUSY || k == GFXSTAT_CTX_APP_CPU;
}

const char *cmd_context_value(enum gfxstat_context_kind kind, int64_t v, char *buf, size_t cap)
{
	if (v == GFXSTAT_CONTEXT_NONE)
		snprintf(buf, cap, "%s", "");
	else if (permille(kind))
		snprintf(buf, cap, "%s%lld.%lld", v < 0 ? "-" : "", llabs((long long)v) / 10,
			 llabs((long long)v) % 10);
	else
		snprintf(buf, cap, "%lld", (long long)v);
	return buf;
}

static void flushed(struct cmd_context *x, int k)
{
	/* flushed row by row: a killed capture keeps every sample */
	if ((k < 0 || fflush(x->csv)) && !x->write_failed)
		x->write_failed = errno ? errno : EIO;
}

int cmd_context_sample(struct cmd_context *x, const char *dir,
		       const struct gfxstat_context_info *ci,
		       const struct gfxstat_context_sample *s)
{
	char a[48];
	size_t i;
	int k;

	if (!x->csv && !x->write_failed) {
		char path[768];

		snprintf(path, sizeof(path), "%s/context.csv", dir);
		x->csv = fopen(path, "w");
		if (!x->csv) {
			x->write_failed = errno ? errno : EIO;
			return x->write_failed;
		}
		/* the names are the library's: [A-Za-z0-9._+-] only, no CSV quoting needed */
		k = fprintf(x->csv, "host_time_ns,device_uptime_ns");
		for (i = 0; i < ci->nseries && k >= 0; i++)
			k = fprintf(x->csv, ",%s", ci->series[i].name);
		if (k >= 0)
			k = fprintf(x->csv, "\n");
		flushed(x, k);
	}
	if (!x->csv)
		return x->write_failed;
	k = fprintf(x->csv, "%lld,", (long long)s->time_ns);
	if (k >= 0 && s->uptime_ns != GFXSTAT_CONTEXT_NONE)
		k = fprintf(x->csv, "%lld", (long long)s->uptime_ns);
	for (i = 0; i < s->n && i < ci->nseries && k >= 0; i++)
		k = fprintf(x->csv, ",%s", cmd_context_value(ci->series[i].kind, s->v[i], a,
							      sizeof(a)));
	if (k >= 0)
		k = fprintf(x->csv, "\n");
	flushed(x, k);
	return x->write_failed;
}

int cmd_context_close(struct cmd_context *x)
{
	if (x->csv && fclose(x->csv) && !x->write_failed)
		x->write_failed = errno ? errno : EIO;
	x->csv = NULL;
	return x->write_failed;
}

/* @num / @den rounded to the nearest (den > 0). */
static int64_t div_round(int64_t num, int64_t den)
{
	return num >= 0 ? (num + den / 2) / den : -((-num + den / 2) / den);
}

void cmd_context_json(FILE *f, const struct gfxstat_context_info *ci)
{
	char a[48];
	size_t i;
	int battery = 0;

	if (!ci->period_ms) {
		fprintf(f, ",\"context\":null");
		return;
	}
	fprintf(f, ",\"context\":{\"period_ms\":%ld,\"samples\":%llu,\"failed_reads\":%llu,"
		   "\"series\":[", ci->period_ms, (unsigned long long)ci->samples,
		(unsigned long long)ci->failed);
	for (i = 0; i < ci->nseries; i++) {
		const struct gfxstat_context_series *s = &ci->series[i];

		battery |= s->kind == GFXSTAT_CTX_BATTERY_CURRENT;
		fprintf(f, "%s{\"name\":", i ? "," : "");
		cli_json_str(f, s->name);
		fprintf(f, ",\"unit\":");
		cli_json_str(f, permille(s->kind) ? "%" : s->unit);
		fprintf(f, ",\"path\":");
		cli_json_str(f, s->path);
		fprintf(f, ",\"samples\":%llu", (unsigned long long)s->n);
		if (!s->n) {
			fprintf(f, ",\"min\":null,\"mean\":null,\"max\":null}");
			continue;
		}
		fprintf(f, ",\"min\":%s", cmd_context_value(s->kind, s->min, a, sizeof(a)));
		/* the mean in the column's resolution, rounded to the nearest */
		fprintf(f, ",\"mean\":%s", cmd_context_value(s->kind, div_round(s->sum,
							     (int64_t)s->n), a, sizeof(a)));
		fprintf(f, ",\"max\":%s}", cmd_context_value(s->kind, s->max, a, sizeof(a)));
	}
	fprintf(f, "],\"refused\":[");
	for (i = 0; i < ci->nrefused; i++) {
		fprintf(f, "%s{\"series\":", i ? "," : "");
		cli_json_str(f, ci->refused[i].what);
		fprintf(f, ",\"path\":");
		cli_json_str(f, ci->refused[i].path);
		fprintf(f, ",\"reason\":");
		cli_json_str(f, ci->refused[i].reason);
		fprintf(f, "}");
	}
	fprintf(f, "]");
	if (battery)
		fprintf(f, ",\"battery_sign\":\"current_now as the device reports it: below 0 while "
			   "discharging on most devices (Android's BatteryManager convention); "
			   "battery_power_mw = voltage_now x current_now, the same sign\"");
	fprintf(f, "}");
}
