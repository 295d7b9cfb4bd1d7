/* SPDX-License-Identifier: MIT */
/*
 * The polled sources: `dumpsys SurfaceFlinger --latency <layer>` (stitched by the parser),
 * `dumpsys gfxinfo <pkg> framestats` (rows seen before dropped by gx_cap_frame()), and the
 * whole display's page-flip counter, `service call SurfaceFlinger 1013`, as
 * alibaba/mobileperf (fps.py _get_surface_stats_legacy()) and Gracker/FPSDump
 * (FPSUtils.java) read it: SurfaceFlinger counts one per composition of the default display;
 * newer versions answer NAME_NOT_FOUND, which `service call` prints as "Parcel(NULL)". Every
 * page-flip interval is judged against the display's highest refresh rate
 * (gfxstat_pageflip_step()): more flips than that is a problem, never a frame rate; a count
 * that goes down is a gap; the uint32 wrap is counted right. The interval runs between the
 * midpoints of the two adb calls, and half of each call's duration is the slack allowed.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_local.h"

#define PF_CMD "service call SurfaceFlinger 1013"

int gx_cap_pick_layer(struct gfxstat_capture *c, const char *pkg, char *out, size_t cap)
{
	char *buf = c->buf, *line, *save = NULL;
	int best = 0;

	out[0] = 0;
	if (gx_cap_shell(c->t, buf, GX_CAP_OUT_MAX, "dumpsys SurfaceFlinger --list") != 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t n = strlen(line);
		struct gfxstat_str name;
		int score;

		while (n && (line[n - 1] == '\r' || line[n - 1] == ' '))
			n--;
		if (gfxstat_sflist_line(line, n, &name) != GFXSTAT_PARSE_OK)
			continue;
		score = gfxstat_sflist_score(name, pkg);
		if (score > best && name.n < cap) {
			best = score;
			memcpy(out, name.p, name.n);
			out[name.n] = 0;
		}
	}
	return out[0] ? 0 : -1;
}

/* A poll answered with a refusal or "no such process". Return: 0 or a GFXSTAT_CAP_E_*. */
static int refused(struct gfxstat_capture *c, const char *out, const char *pkg)
{
	if (strstr(out, "No process found for:")) {
		gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: no process '%s' on the device (dumpsys gfxinfo: "
			   "\"No process found\"): start the app, or name a running one with --app",
			   c->dev.serial, pkg);
		return GFXSTAT_CAP_E_NO_PROCESS;
	}
	if (strstr(out, "Permission Denial") || strstr(out, "Permission denied")) {
		gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: permission denied: the device refused 'dumpsys' "
			   "to the shell user", c->dev.serial);
		return GFXSTAT_CAP_E_PERMISSION;
	}
	return 0;
}

int gx_cap_polls(struct gfxstat_capture *c)
{
	int latency = c->source == GFXSTAT_CAPTURE_LATENCY;
	const char *raw = latency ? "latency.txt.gz" : "gfxinfo.txt.gz";
	char cmd[2048], layer[400], pkg[256], head[2100];
	struct gx_cmd line;
	struct gfxstat_sfl *sfl = NULL;
	struct gfxstat_gfxinfo *gi = NULL;
	int64_t next = 0;
	int fails = 0, rc = 0;

	gx_cap_package(c, pkg, sizeof(pkg));
	gx_cmd_init(&line, cmd, sizeof(cmd));
	if (latency) {
		struct gfxstat_sfl_sink ls = { gx_cap_frame, NULL, c };

		if (gx_cap_pick_layer(c, pkg, layer, sizeof(layer))) {
			gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: no SurfaceFlinger layer for '%s'",
				   c->dev.serial, pkg);
			return GFXSTAT_CAP_E_NO_LAYER;
		}
		gx_cap_log(c, GFXSTAT_LOG_INFO, "%s: polling --latency of '%s'", c->dev.serial,
			   layer);
		sfl = gfxstat_sfl_new(layer, &ls, NULL);
		/* the layer name is the device's, and an app names its own windows and
		 * SurfaceViews: one quoted word, whatever it holds */
		gx_cmd_raw(&line, "dumpsys SurfaceFlinger --latency");
		gx_cmd_word(&line, layer);
	} else {
		struct gfxstat_gfxinfo_sink gs;

		if (!pkg[0]) {
			gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: gfxinfo needs --app PKG (no focused app "
				   "found)", c->dev.serial);
			return GFXSTAT_CAP_E_NEED_APP;
		}
		memset(&gs, 0, sizeof(gs));
		gs.frame = gx_cap_frame;
		gs.user = c;
		gi = gfxstat_gfxinfo_new(NULL, &gs, NULL);
		gx_cmd_raw(&line, "dumpsys gfxinfo");
		gx_cmd_word(&line, pkg);
		gx_cmd_raw(&line, " framestats");
	}
	if (!sfl && !gi)
		return GFXSTAT_CAP_E_NOMEM;
	if (line.err) {
		/* a NUL cannot come from a C string: only a name too long for the line */
		gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: the name to poll is too long for a command "
			   "line: '%.200s'", c->dev.serial, latency ? layer : pkg);
		gfxstat_sfl_free(sfl);
		gfxstat_gfxinfo_free(gi);
		return GFXSTAT_CAP_E_FAILED;
	}
	while (!gx_cap_tick(c)) {
		int64_t now = gx_cap_now_ns();
		size_t n;

		if (now < next) {
			gx_cap_sleep_ms(50);
			continue;
		}
		/* latency: the ring holds 127 frames, ~1 s at 120 Hz; gfxinfo: 120 frames */
		next = now + (latency ? 900 : 800) * GFXSTAT_NSEC_PER_MSEC;
		if (gx_cap_shell(c->t, c->buf, GX_CAP_OUT_MAX, cmd) != 0) {
			if (++fails >= 3) {
				c->stop_reason = "the device stopped answering";
				gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: the device stopped answering "
					   "'%s' (what came is kept)", c->dev.serial, cmd);
				rc = GFXSTAT_CAP_E_LOST;
				break;
			}
			continue;
		}
		fails = 0;
		n = strlen(c->buf);
		snprintf(head, sizeof(head), "$ %s\n", cmd);
		gx_cap_raw(c, raw, head, strlen(head));
		gx_cap_raw(c, raw, c->buf, n);
		rc = refused(c, c->buf, pkg);
		if (rc) {
			c->stop_reason = gfxstat_capture_strerror(rc);
			break;
		}
		if (sfl)
			rc = gfxstat_sfl_feed(sfl, c->buf, n) || gfxstat_sfl_end_file(sfl);
		else
			rc = gfxstat_gfxinfo_feed(gi, c->buf, n) || gfxstat_gfxinfo_finish(gi);
		if (rc) {
			rc = GFXSTAT_CAP_E_NOMEM;
			break;
		}
	}
	if (sfl) {
		gfxstat_sfl_finish(sfl);
		gfxstat_sfl_free(sfl);
	}
	gfxstat_gfxinfo_free(gi);
	return rc;
}

/* The highest refresh rate: the largest of "60 90 120", else the --latency period's. */
static uint32_t max_rate(const char *modes, int64_t period_ns)
{
	uint32_t best = 0, mhz;
	const char *s = modes;

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

/* "59.873" from milli-Hz */
static const char *mhz_text(uint32_t mhz, char *buf, size_t cap)
{
	snprintf(buf, cap, "%lu.%03lu", (unsigned long)(mhz / 1000), (unsigned long)(mhz % 1000));
	return buf;
}

static void sample(struct gfxstat_capture *c, const struct gfxstat_pageflip_sample *s)
{
	if (c->sink.pageflip)
		c->sink.pageflip(c->sink.user, s);
}

/* One counter read judged against the previous one. */
static void judge(struct gfxstat_capture *c, uint32_t prev, struct gfxstat_pageflip_sample *s,
		  int64_t slack)
{
	struct gfxstat_pageflip_step st;
	char a[32];

	switch (gfxstat_pageflip_step(prev, s->count, s->interval_ns, slack, c->pf.max_mhz, &st)) {
	case GFXSTAT_PAGEFLIP_STEP_OK:
	case GFXSTAT_PAGEFLIP_STEP_WRAP:
		c->pf.intervals++;
		c->pf.flips += st.flips;
		c->pf.span_ns += st.span_ns;
		s->note = st.kind == GFXSTAT_PAGEFLIP_STEP_WRAP ? GFXSTAT_PF_WRAP : GFXSTAT_PF_OK;
		s->flips = st.flips;
		s->span_ns = st.span_ns;
		s->fps_mhz = st.fps_mhz;
		break;
	case GFXSTAT_PAGEFLIP_STEP_RESET:
		c->pf.gaps++;
		s->note = GFXSTAT_PF_RESET;
		gx_cap_log(c, GFXSTAT_LOG_WARN, "%s: the page-flip count went down from %lu to %lu "
			   "(SurfaceFlinger restarted or the device rebooted): a gap, not counted",
			   c->dev.serial, (unsigned long)prev, (unsigned long)s->count);
		break;
	case GFXSTAT_PAGEFLIP_STEP_TOO_FAST:
		c->pf.too_fast++;
		s->note = GFXSTAT_PF_TOO_FAST;
		s->flips = st.flips;
		gx_cap_log(c, GFXSTAT_LOG_WARN, "%s: %lu page flips in %.3f s is more than the "
			   "display's %s Hz allows: not a frame rate, interval not counted",
			   c->dev.serial, (unsigned long)st.flips, (double)s->interval_ns / 1e9,
			   mhz_text(c->pf.max_mhz ? c->pf.max_mhz : GFXSTAT_PAGEFLIP_UNKNOWN_MAX_MHZ,
				    a, sizeof(a)));
		break;
	case GFXSTAT_PAGEFLIP_STEP_BAD_TIME:
		s->note = GFXSTAT_PF_BAD_TIME;
		break;
	}
}

int gx_cap_pageflip(struct gfxstat_capture *c)
{
	char head[64];
	int64_t next_poll = 0, prev_mid = 0, prev_half = 0;
	uint32_t prev = 0;
	int fails = 0;

	c->pf.max_mhz = max_rate(c->dev.modes, c->dev.period_ns);
	if (!c->pf.max_mhz)
		gx_cap_log(c, GFXSTAT_LOG_WARN, "%s: the refresh rates are unknown: page flips are "
			   "only bounded by 1000 per second", c->dev.serial);
	snprintf(head, sizeof(head), "$ %s\n", PF_CMD);
	while (!gx_cap_tick(c)) {
		struct gfxstat_pageflip_reply r;
		struct gfxstat_pageflip_sample s;
		enum gfxstat_parse_res res;
		int64_t now = gx_cap_now_ns(), t1, t2, half;
		int rc;

		if (now < next_poll) {
			int64_t left = (next_poll - now) / GFXSTAT_NSEC_PER_MSEC;

			gx_cap_sleep_ms(left < 50 ? (left > 0 ? (long)left : 1) : 50);
			continue;
		}
		next_poll = (next_poll ? next_poll : now) + c->pf.poll_ms * GFXSTAT_NSEC_PER_MSEC;
		if (next_poll < now)
			next_poll = now + c->pf.poll_ms * GFXSTAT_NSEC_PER_MSEC;
		t1 = gx_cap_now_ns();
		rc = gx_cap_shell(c->t, c->buf, 4096, PF_CMD);
		t2 = gx_cap_now_ns();
		if (rc < 0)
			c->buf[0] = 0;
		gx_cap_raw(c, "pageflip.txt.gz", head, strlen(head));
		gx_cap_raw(c, "pageflip.txt.gz", c->buf, strlen(c->buf));
		res = gfxstat_pageflip_reply_parse(c->buf, strlen(c->buf), &r);
		if (res != GFXSTAT_PARSE_OK) {
			if (!c->pf.samples) {
				/* the last resort has nothing either: say what the device said */
				gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: no page-flip counter: %s",
					   c->dev.serial, refusal(res, &r));
				c->stop_reason = "no page-flip counter";
				return GFXSTAT_CAP_E_NO_COUNTER;
			}
			c->pf.failed++;
			if (++fails >= 3) {
				c->stop_reason = "the device stopped answering";
				gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: the device stopped answering "
					   "'" PF_CMD "' (what came is kept)", c->dev.serial);
				return GFXSTAT_CAP_E_LOST;
			}
			continue;
		}
		fails = 0;
		half = (t2 - t1) / 2;
		memset(&s, 0, sizeof(s));
		s.time_ns = t1 + half - c->t0_ns;
		s.count = r.count;
		if (c->pf.samples++) {
			s.interval_ns = t1 + half - prev_mid;
			judge(c, prev, &s, prev_half + half);
		}
		sample(c, &s);
		prev = r.count;
		prev_mid = t1 + half;
		prev_half = half;
	}
	return 0;
}
