/* SPDX-License-Identifier: MIT */
/*
 * gfxstat record --source pageflip: pageflip.csv, the live view and the summary of the
 * whole display's page flips. They say nothing per layer, per app or per frame: only how
 * often the screen was composed. Every rate here is within the display's highest refresh
 * rate by construction (gfxstat_pageflip_step(), in the library).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "cli.h"
#include "cmd_record_pageflip.h"

/* "59.873" from milli-Hz */
static const char *mhz_text(uint64_t mhz, char *buf, size_t cap)
{
	snprintf(buf, cap, "%llu.%03llu", (unsigned long long)(mhz / 1000),
		 (unsigned long long)(mhz % 1000));
	return buf;
}

/* flips over span_ns, in milli-Hz (each interval is within the rate, so the sum is too) */
static uint64_t rate_mhz(uint64_t flips, int64_t span_ns)
{
	return span_ns > 0 ? (uint64_t)((double)flips * 1e12 / (double)span_ns + 0.5) : 0;
}

static void row(struct cmd_pageflip *p, const char *fmt, ...) CLI_PRINTF(2, 3);

static void row(struct cmd_pageflip *p, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (!p->csv)
		return;
	va_start(ap, fmt);
	k = vfprintf(p->csv, fmt, ap);
	va_end(ap);
	/* flushed row by row: a killed capture keeps every sample */
	if ((k < 0 || fflush(p->csv)) && !p->write_failed)
		p->write_failed = errno ? errno : EIO;
}

int cmd_pageflip_open(struct cmd_pageflip *p, const char *dir)
{
	char path[768];

	if (p->csv)
		return 0;
	snprintf(path, sizeof(path), "%s/pageflip.csv", dir);
	p->csv = fopen(path, "w");
	if (!p->csv)
		return errno ? errno : EIO;
	row(p, "host_time_ns,count,delta,interval_ns,fps,note\n");
	return p->write_failed;
}

void cmd_pageflip_sample(struct cmd_pageflip *p, const struct gfxstat_pageflip_sample *s)
{
	long long t = (long long)s->time_ns, iv = (long long)s->interval_ns;
	unsigned long c = (unsigned long)s->count, d = (unsigned long)s->flips;
	char a[32];

	switch (s->note) {
	case GFXSTAT_PF_FIRST:
		row(p, "%lld,%lu,,,,first\n", t, c);
		break;
	case GFXSTAT_PF_OK:
	case GFXSTAT_PF_WRAP:
		p->flips_1s += s->flips;
		p->span_1s += s->span_ns;
		row(p, "%lld,%lu,%lu,%lld,%s,%s\n", t, c, d, iv, mhz_text(s->fps_mhz, a, sizeof(a)),
		    s->note == GFXSTAT_PF_WRAP ? "wrap" : "");
		break;
	case GFXSTAT_PF_RESET:
		row(p, "%lld,%lu,,%lld,,reset\n", t, c, iv);
		break;
	case GFXSTAT_PF_TOO_FAST:
		row(p, "%lld,%lu,%lu,%lld,,over_refresh\n", t, c, d, iv);
		break;
	case GFXSTAT_PF_BAD_TIME:
		row(p, "%lld,%lu,,%lld,,bad_time\n", t, c, iv);
		break;
	}
}

void cmd_pageflip_view(struct cmd_pageflip *p, const struct gfxstat_pageflip_totals *t, int tty,
		       const char *prefix, const char *serial, const char *why, double secs)
{
	char a[32], b[32];
	const char *last = p->span_1s > 0 ? mhz_text(rate_mhz(p->flips_1s, p->span_1s), a,
						      sizeof(a)) : "-";
	const char *all = t->span_ns > 0 ? mhz_text(rate_mhz(t->flips, t->span_ns), b, sizeof(b))
					 : "-";

	if (tty) {
		printf("\033[H\033[2J");
		printf("gfxstat: recording %s (pageflip: %s), %.0f s  -- Ctrl-C to stop\n",
		       serial, why, secs);
		printf("whole display, SurfaceFlinger page flips (not frames of an app or layer)\n");
		printf("%9s %9s %8s %5s %13s\n", "fps(1s)", "fps(all)", "samples", "gaps",
		       "over-refresh");
		printf("%9s %9s %8llu %5llu %13llu\n", last, all, (unsigned long long)t->samples,
		       (unsigned long long)t->gaps, (unsigned long long)t->too_fast);
	} else {
		printf("%s%s%.0f s\twhole display (page flips)\tfps %s (all %s)\tgaps %llu\t"
		       "over-refresh %llu\n", prefix ? prefix : "", prefix ? "\t" : "", secs, last,
		       all, (unsigned long long)t->gaps, (unsigned long long)t->too_fast);
	}
	p->flips_1s = 0;
	p->span_1s = 0;
	fflush(stdout);
}

int cmd_pageflip_close(struct cmd_pageflip *p)
{
	if (p->csv && fclose(p->csv) && !p->write_failed)
		p->write_failed = errno ? errno : EIO;
	p->csv = NULL;
	return p->write_failed;
}

void cmd_pageflip_json(FILE *f, const struct gfxstat_pageflip_totals *t)
{
	char a[32];

	fprintf(f, ",\"display\":{\"what\":\"whole-display page flips (SurfaceFlinger "
		   "transaction 1013): how often the screen was composed, not frames of an app or "
		   "a layer\",\"fps\":");
	if (t->span_ns > 0)
		fprintf(f, "%s", mhz_text(rate_mhz(t->flips, t->span_ns), a, sizeof(a)));
	else
		fprintf(f, "null");
	fprintf(f, ",\"max_refresh_hz\":");
	if (t->max_mhz)
		fprintf(f, "%s", mhz_text(t->max_mhz, a, sizeof(a)));
	else
		fprintf(f, "null");
	fprintf(f, ",\"page_flips\":%llu,\"seconds\":%lld.%09lld,\"samples\":%llu,"
		   "\"intervals\":%llu,\"gaps\":%llu,\"over_refresh\":%llu,\"failed_polls\":%llu,"
		   "\"poll_ms\":%ld}", (unsigned long long)t->flips,
		(long long)(t->span_ns / 1000000000), (long long)(t->span_ns % 1000000000),
		(unsigned long long)t->samples, (unsigned long long)t->intervals,
		(unsigned long long)t->gaps, (unsigned long long)t->too_fast,
		(unsigned long long)t->failed, t->poll_ms);
}
