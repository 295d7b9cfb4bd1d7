/* SPDX-License-Identifier: MIT */
/*
 * The streamed sources: atrace from trace_pipe, parsed as it arrives, and Perfetto with
 * FrameTimeline, pulled when it ends. Both go through the entry point (gfxstat_source.h), so
 * a session's frames are those of `gfxstat frames` on its raw capture.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_local.h"

#define CHUNK (1 << 16)
#define PERFETTO_FILE "/data/misc/perfetto-traces/gfxstat.pftrace"

/* Raw bytes kept and fed to the entry point. Return: 0, or non-zero to stop. */
static int take(struct gfxstat_capture *c, const char *name, const void *buf, size_t n)
{
	int rc;

	gx_cap_raw(c, name, buf, n);
	rc = gfxstat_source_feed(c->src, buf, n);
	if (rc == GFXSTAT_E_NOMEM) {
		gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: out of memory", c->dev.serial);
		c->err = GFXSTAT_CAP_E_NOMEM;
	}
	return rc == GFXSTAT_E_NOMEM;
}

/* `atrace ... --async_start CAT...`: each category of the list (spaces or commas) a word. */
static void atrace_start_cmd(struct gx_cmd *line, const char *list)
{
	char cat[128];

	gx_cmd_raw(line, "atrace -b 4096 -c --async_start");
	while (*list) {
		size_t n = strcspn(list, " ,");

		if (n >= sizeof(cat))
			line->err = GFXSTAT_E_LIMIT;
		else if (n) {
			memcpy(cat, list, n);
			cat[n] = 0;
			gx_cmd_word(line, cat);
		}
		list += n;
		list += strspn(list, " ,");
	}
}

int gx_cap_trace(struct gfxstat_capture *c)
{
	char cmd[2048], pipe_path[600], pipe_word[2500], cats[2100];
	const char *args[] = { "exec-out", "cat", pipe_word, NULL };
	struct gx_cmd line;
	char *buf;
	void *s;
	uint64_t got = 0;
	int eof = 0;

	if (c->dev.tracing_on == 1) {
		/* a stale session (ours or the seed's) would fight us for trace_pipe */
		gx_cap_log(c, GFXSTAT_LOG_INFO, "%s: tracing is already on: stopping the old "
			   "session first", c->dev.serial);
		gx_cap_shell(c->t, NULL, 0, "atrace --async_stop -o /dev/null");
	}
	gx_cmd_init(&line, cmd, sizeof(cmd));
	/* with the context, the thread-state categories the device lists (the causes of jank) */
	gx_cap_context_categories(c, cats, sizeof(cats));
	atrace_start_cmd(&line, cats);
	/* the tracefs folder is the device's answer: one quoted word for exec-out's shell */
	snprintf(pipe_path, sizeof(pipe_path), "%s/trace_pipe", c->dev.tracefs);
	if (line.err || gfxstat_shell_quote(pipe_path, strlen(pipe_path), pipe_word,
					    sizeof(pipe_word), NULL)) {
		gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: the categories or the tracefs folder do not "
			   "fit a command line", c->dev.serial);
		return GFXSTAT_CAP_E_FAILED;
	}
	if (gx_cap_shell(c->t, c->buf, GX_CAP_OUT_MAX, cmd) != 0) {
		gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: '%s' failed", c->dev.serial, cmd);
		return GFXSTAT_CAP_E_FAILED;
	}
	buf = malloc(CHUNK);
	if (!buf || gfxstat_source_begin(c->src, "trace.txt.gz")) {
		free(buf);
		return GFXSTAT_CAP_E_NOMEM;
	}
	s = c->t->stream_start(c->t->ctx, args, NULL, 0);
	if (!s) {
		free(buf);
		gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: cannot read %s", c->dev.serial, pipe_path);
		return GFXSTAT_CAP_E_NO_ADB;
	}
	while (!eof && !gx_cap_tick(c)) {
		long n = c->t->stream_read(s, buf, CHUNK, 200);

		if (n < 0)
			eof = 1;
		else if (n > 0 && take(c, "trace.txt.gz", buf, (size_t)n))
			break;
		got += n > 0 ? (uint64_t)n : 0;
	}
	c->t->stream_stop(s);
	free(buf);
	if (eof && !got && !c->stop_reason) {
		/* nothing at all came: trace_pipe is not readable here (permission denied) */
		gx_cap_shell(c->t, NULL, 0, "atrace --async_stop -o /dev/null");
		return 1;
	}
	if (eof && !c->stop_reason) {
		c->stop_reason = "the trace stream ended: device disconnected or adb died";
		gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: %s (what came is kept)", c->dev.serial,
			   c->stop_reason);
		return GFXSTAT_CAP_E_LOST;
	}
	return c->err;
}

int gx_cap_perfetto(struct gfxstat_capture *c)
{
	char cfg[2048], events[1024], *buf;
	const char *args[] = { "shell", "perfetto --txt -c - -o " PERFETTO_FILE, NULL };
	const char *pull[] = { "exec-out", "cat", PERFETTO_FILE, NULL };
	long ms = c->o.duration_ns > 0 ? (long)(c->o.duration_ns / 1000000) : 10000;
	int64_t drain_until = 0;
	int n;
	void *s;

	gx_cap_context_ftrace(c, events, sizeof(events)); /* thread states, system series */
	n = snprintf(cfg, sizeof(cfg),
		     "duration_ms: %ld\nbuffers: { size_kb: 65536 fill_policy: DISCARD }\n"
		     "data_sources: { config { name: \"linux.ftrace\" ftrace_config {\n"
		     "  ftrace_events: \"ftrace/print\"\n  atrace_categories: \"gfx\"\n"
		     "  atrace_categories: \"view\"\n  atrace_categories: \"input\"\n%s} } }\n"
		     "data_sources: { config { name: \"android.surfaceflinger.frametimeline\" } }\n",
		     ms, events);
	buf = malloc(CHUNK);
	if (!buf)
		return GFXSTAT_CAP_E_NOMEM;
	s = c->t->stream_start(c->t->ctx, args, cfg, (size_t)n);
	if (!s) {
		free(buf);
		gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: cannot start perfetto", c->dev.serial);
		return GFXSTAT_CAP_E_NO_ADB;
	}
	gx_cap_log(c, GFXSTAT_LOG_INFO, "%s: Perfetto runs for %ld ms on the device",
		   c->dev.serial, ms);
	/* perfetto's output ends when it has written its trace */
	for (;;) {
		long k = c->t->stream_read(s, buf, CHUNK, 100);

		if (k < 0)
			break;
		if (!drain_until && gx_cap_tick(c) && c->stop_reason &&
		    strcmp(c->stop_reason, "duration reached")) {
			/* perfetto writes its trace when interrupted */
			gx_cap_shell(c->t, NULL, 0, "pkill -INT perfetto");
			drain_until = gx_cap_now_ns() + 10 * GFXSTAT_NSEC_PER_SEC;
		}
		if (drain_until && gx_cap_now_ns() > drain_until)
			break;
	}
	c->t->stream_stop(s);
	if (!c->stop_reason)
		c->stop_reason = "duration reached";
	s = c->t->stream_start(c->t->ctx, pull, NULL, 0);
	if (!s || gfxstat_source_begin(c->src, "trace.pftrace")) {
		free(buf);
		if (s)
			c->t->stream_stop(s);
		gx_cap_log(c, GFXSTAT_LOG_ERROR, "%s: cannot pull the Perfetto trace", c->dev.serial);
		return GFXSTAT_CAP_E_FAILED;
	}
	for (;;) {
		long k = c->t->stream_read(s, buf, CHUNK, 1000);

		if (k < 0 || (k > 0 && take(c, "trace.pftrace", buf, (size_t)k)))
			break;
	}
	c->t->stream_stop(s);
	free(buf);
	return c->err;
}
