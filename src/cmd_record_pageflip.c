/* SPDX-License-Identifier: MIT */
/*
 * gfxstat record --source pageflip: when nothing else works (no trace_pipe, no Perfetto, no
 * app layer or gfxinfo to poll), the whole display's page-flip counter, as alibaba/mobileperf
 * (mobileperf/android/fps.py _get_surface_stats_legacy(): `service call SurfaceFlinger
 * 1013`, the count difference over host time) and Gracker/FPSDump (FPSUtils.java: transact
 * 1013, frames * 1e9 / System.nanoTime() difference) read it. SurfaceFlinger increments it
 * once per composition of the default display (LineageOS/android_frameworks_native
 * services/surfaceflinger/SurfaceFlinger.cpp onTransact(), case 1013 getPageFlipCount();
 * newer versions answer NAME_NOT_FOUND, which `service call` prints as "Parcel(NULL)").
 *
 * It says nothing per layer, per app or per frame: only how often the screen changed.
 * Unlike mobileperf (which clamps at 60 whatever the display), every interval is judged
 * against the display's highest refresh rate (gfxstat_pageflip_step()): more flips than
 * that is reported as a problem, never printed as a frame rate; a count that goes down is a
 * reset (reboot, SurfaceFlinger restart), a gap; the uint32 counter's wrap is counted right.
 *
 * Polled every CMD_PAGEFLIP_POLL_MS (1 s, mobileperf's default): one sample per second of
 * the live view, and an adb round trip (tens of ms) is then a few percent of the interval.
 * The interval is between the midpoints of the two adb calls; half of each call's duration
 * is the slack the judge allows, since the device read the counter somewhere inside it.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cmd_record_pageflip.h"
#include "gfxstat/gfxstat_device.h"

#define PF_OUT_MAX 4096
#define PF_CMD "service call SurfaceFlinger 1013"

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sleep_ns(int64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };

	nanosleep(&ts, NULL);
}

/* The highest refresh rate: the largest of "60 90 120", else the --latency period's. */
static uint32_t max_rate(const char *modes, int64_t period_ns)
{
	uint32_t best = 0, mhz;
	const char *s = modes ? modes : "";

	while (*s) {
		size_t n = strcspn(s, " ");

		if (n && gfxstat_fps_parse(s, n, &mhz) == GFXSTAT_PARSE_OK && mhz > best)
			best = mhz;
		s += n;
		s += strspn(s, " ");
	}
	if (!best && period_ns > 0)
		best = (uint32_t)((1000000000000LL + period_ns / 2) / period_ns);
	return best;
}

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

static void row(struct cmd_pageflip *p, FILE *f, const char *fmt, ...) CLI_PRINTF(3, 4);

static void row(struct cmd_pageflip *p, FILE *f, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vfprintf(f, fmt, ap);
	va_end(ap);
	/* flushed row by row: a killed capture keeps every sample */
	if ((k < 0 || fflush(f)) && !p->write_failed)
		p->write_failed = errno ? errno : EIO;
}

static void view(struct cmd_pageflip *p, double now, uint64_t flips_1s, int64_t span_1s)
{
	char a[32], b[32];
	const char *last = span_1s > 0 ? mhz_text(rate_mhz(flips_1s, span_1s), a, sizeof(a)) : "-";
	const char *all = p->span_ns > 0 ? mhz_text(rate_mhz(p->flips, p->span_ns), b, sizeof(b))
					 : "-";

	if (cli_quiet)
		return;
	if (p->tty) {
		printf("\033[H\033[2J");
		printf("gfxstat: recording %s (pageflip: %s), %.0f s  -- Ctrl-C to stop\n",
		       p->serial, p->why, now - p->t0);
		printf("whole display, SurfaceFlinger page flips (not frames of an app or layer)\n");
		printf("%9s %9s %8s %5s %13s\n", "fps(1s)", "fps(all)", "samples", "gaps",
		       "over-refresh");
		printf("%9s %9s %8llu %5llu %13llu\n", last, all, (unsigned long long)p->samples,
		       (unsigned long long)p->gaps, (unsigned long long)p->too_fast);
	} else {
		printf("%s%s%.0f s\twhole display (page flips)\tfps %s (all %s)\tgaps %llu\t"
		       "over-refresh %llu\n", p->prefix ? p->prefix : "", p->prefix ? "\t" : "",
		       now - p->t0, last, all, (unsigned long long)p->gaps,
		       (unsigned long long)p->too_fast);
	}
	fflush(stdout);
}

/* Why the first answer is not a count, for the error message. */
static const char *refusal(enum gfxstat_parse_res res, const struct gfxstat_pageflip_reply *r)
{
	if (res == GFXSTAT_PARSE_FAIL)
		return "no answer to '" PF_CMD "'";
	switch (r->kind) {
	case GFXSTAT_PAGEFLIP_EMPTY:
		return "SurfaceFlinger answers transaction 1013 with an empty Parcel: unused on this "
		       "Android version (NAME_NOT_FOUND), or refused (permission, SELinux)";
	case GFXSTAT_PAGEFLIP_ERROR:
		return "SurfaceFlinger's reply to transaction 1013 is an error";
	case GFXSTAT_PAGEFLIP_NOT_A_COUNT:
		return "transaction 1013 answers something other than a count on this build";
	case GFXSTAT_PAGEFLIP_NO_SERVICE:
		return "the SurfaceFlinger service is not visible to the shell";
	default:
		return "unexpected answer";
	}
}

int cmd_pageflip_record(struct cmd_pageflip *p)
{
	char *buf = malloc(PF_OUT_MAX), path[768], a[32];
	FILE *csv;
	int64_t t0_ns = mono_ns() - (int64_t)((cli_now() - p->t0) * 1e9);
	int64_t next_poll = 0, prev_mid = 0, prev_half = 0, span_1s = 0;
	double next_view = p->t0 + 1.0;
	uint64_t flips_1s = 0;
	uint32_t prev = 0;
	int have_prev = 0, fails = 0;

	snprintf(path, sizeof(path), "%s/pageflip.csv", p->dir);
	csv = fopen(path, "w");
	if (!buf || !csv) {
		cli_error("cannot write '%s': %s", path, strerror(errno));
		free(buf);
		if (csv)
			fclose(csv);
		return CLI_OUTPUT;
	}
	p->max_mhz = max_rate(p->modes, p->period_ns);
	if (!p->max_mhz)
		cli_warn("%s: the refresh rates are unknown: page flips are only bounded by 1000 "
			 "per second", p->serial);
	row(p, csv, "host_time_ns,count,delta,interval_ns,fps,note\n");
	for (;;) {
		struct gfxstat_pageflip_reply r;
		struct gfxstat_pageflip_step st;
		enum gfxstat_parse_res res;
		int64_t now_ns = mono_ns(), t1, t2, mid, half;
		double now = cli_now();
		int rc;

		if (cli_stop_signal) {
			p->stop_reason = cli_signal_name(cli_stop_signal);
			break;
		}
		if (p->duration_ns > 0 && (now - p->t0) * 1e9 >= (double)p->duration_ns) {
			p->stop_reason = "duration reached";
			break;
		}
		if (now >= next_view) {
			view(p, now, flips_1s, span_1s);
			flips_1s = 0;
			span_1s = 0;
			if (p->raw)
				gzflush(p->raw, Z_SYNC_FLUSH);
			next_view = now + 1.0;
		}
		if (now_ns < next_poll) {
			int64_t left = next_poll - now_ns;

			sleep_ns(left < 50000000 ? left : 50000000);
			continue;
		}
		next_poll = (next_poll ? next_poll : now_ns) + (int64_t)p->poll_ms * 1000000;
		if (next_poll < now_ns)
			next_poll = now_ns + (int64_t)p->poll_ms * 1000000;
		t1 = mono_ns();
		rc = p->shell(p->ctx, buf, PF_OUT_MAX, PF_CMD);
		t2 = mono_ns();
		if (rc < 0)
			buf[0] = 0;
		if (p->raw) {
			gzprintf(p->raw, "$ %s\n", PF_CMD);
			gzwrite(p->raw, buf, (unsigned)strlen(buf));
		}
		res = gfxstat_pageflip_reply_parse(buf, strlen(buf), &r);
		if (res != GFXSTAT_PARSE_OK) {
			if (!p->samples) {
				/* the last resort has nothing either: say what the device said */
				cli_error("%s: no page-flip counter: %s", p->serial, refusal(res, &r));
				p->stop_reason = "no page-flip counter";
				p->exit_code = CLI_DEVICE;
				break;
			}
			p->failed++;
			if (++fails >= 3) {
				p->stop_reason = "the device stopped answering";
				p->exit_code = CLI_DEVICE;
				break;
			}
			continue;
		}
		fails = 0;
		half = (t2 - t1) / 2;
		mid = t1 + half;
		p->samples++;
		if (!have_prev) {
			row(p, csv, "%lld,%lu,,,,first\n", (long long)(mid - t0_ns),
			    (unsigned long)r.count);
			goto next;
		}
		switch (gfxstat_pageflip_step(prev, r.count, mid - prev_mid, prev_half + half,
					      p->max_mhz, &st)) {
		case GFXSTAT_PAGEFLIP_STEP_OK:
		case GFXSTAT_PAGEFLIP_STEP_WRAP:
			p->intervals++;
			p->flips += st.flips;
			p->span_ns += st.span_ns;
			flips_1s += st.flips;
			span_1s += st.span_ns;
			row(p, csv, "%lld,%lu,%lu,%lld,%s,%s\n", (long long)(mid - t0_ns),
			    (unsigned long)r.count, (unsigned long)st.flips,
			    (long long)(mid - prev_mid), mhz_text(st.fps_mhz, a, sizeof(a)),
			    st.kind == GFXSTAT_PAGEFLIP_STEP_WRAP ? "wrap" : "");
			break;
		case GFXSTAT_PAGEFLIP_STEP_RESET:
			p->gaps++;
			cli_warn("%s: the page-flip count went down from %lu to %lu (SurfaceFlinger "
				 "restarted or the device rebooted): a gap, not counted", p->serial,
				 (unsigned long)prev, (unsigned long)r.count);
			row(p, csv, "%lld,%lu,,%lld,,reset\n", (long long)(mid - t0_ns),
			    (unsigned long)r.count, (long long)(mid - prev_mid));
			break;
		case GFXSTAT_PAGEFLIP_STEP_TOO_FAST:
			p->too_fast++;
			cli_warn("%s: %lu page flips in %.3f s is more than the display's %s Hz "
				 "allows: not a frame rate, interval not counted", p->serial,
				 (unsigned long)st.flips, (double)(mid - prev_mid) / 1e9,
				 mhz_text(p->max_mhz ? p->max_mhz
						     : GFXSTAT_PAGEFLIP_UNKNOWN_MAX_MHZ, a,
					  sizeof(a)));
			row(p, csv, "%lld,%lu,%lu,%lld,,over_refresh\n", (long long)(mid - t0_ns),
			    (unsigned long)r.count, (unsigned long)st.flips,
			    (long long)(mid - prev_mid));
			break;
		case GFXSTAT_PAGEFLIP_STEP_BAD_TIME:
			row(p, csv, "%lld,%lu,,%lld,,bad_time\n", (long long)(mid - t0_ns),
			    (unsigned long)r.count, (long long)(mid - prev_mid));
			break;
		}
next:
		have_prev = 1;
		prev = r.count;
		prev_mid = mid;
		prev_half = half;
	}
	if (p->samples)
		view(p, cli_now(), flips_1s, span_1s);
	if (fclose(csv) && !p->write_failed)
		p->write_failed = errno ? errno : EIO;
	free(buf);
	return p->exit_code;
}

void cmd_pageflip_json(FILE *f, const struct cmd_pageflip *p)
{
	char a[32];

	fprintf(f, ",\"display\":{\"what\":\"whole-display page flips (SurfaceFlinger "
		   "transaction 1013): how often the screen was composed, not frames of an app or "
		   "a layer\",\"fps\":");
	if (p->span_ns > 0)
		fprintf(f, "%s", mhz_text(rate_mhz(p->flips, p->span_ns), a, sizeof(a)));
	else
		fprintf(f, "null");
	fprintf(f, ",\"max_refresh_hz\":");
	if (p->max_mhz)
		fprintf(f, "%s", mhz_text(p->max_mhz, a, sizeof(a)));
	else
		fprintf(f, "null");
	fprintf(f, ",\"page_flips\":%llu,\"seconds\":%lld.%09lld,\"samples\":%llu,"
		   "\"intervals\":%llu,\"gaps\":%llu,\"over_refresh\":%llu,\"failed_polls\":%llu,"
		   "\"poll_ms\":%ld}", (unsigned long long)p->flips,
		(long long)(p->span_ns / 1000000000), (long long)(p->span_ns % 1000000000),
		(unsigned long long)p->samples, (unsigned long long)p->intervals,
		(unsigned long long)p->gaps, (unsigned long long)p->too_fast,
		(unsigned long long)p->failed, p->poll_ms);
}
