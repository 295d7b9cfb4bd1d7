/* SPDX-License-Identifier: MIT */
/*
 * The recorder on the phone: the phone build pushed to /data/local/tmp and started with
 * nohup, detached from adb's session, so that the capture outlives the cable (as the seed's
 * script did); stopped like Ctrl-C, and its session pulled.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_local.h"

int gfxstat_phone_abi(const struct gfxstat_adb_transport *t, char *out, size_t cap)
{
	size_t n;

	if (gx_cap_shell(t, out, cap, "getprop ro.product.cpu.abi"))
		return GFXSTAT_CAP_E_NOT_ANSWERING;
	n = strlen(out);
	while (n && (out[n - 1] == '\n' || out[n - 1] == '\r' || out[n - 1] == ' '))
		out[--n] = 0;
	return 0;
}

/* A session name the phone's folder can hold as one plain entry. */
static int plain_name(const char *name)
{
	return *name && strcmp(name, ".") && strcmp(name, "..") && !strchr(name, '/');
}

int gfxstat_phone_launch(const struct gfxstat_adb_transport *t, const char *binary,
			 const char *name, const struct gfxstat_phone_opts *o)
{
	const char *push[] = { "push", binary, GFXSTAT_PHONE_BIN, NULL };
	const char *chmod_w[] = { "chmod", "755", GFXSTAT_PHONE_BIN, NULL };
	const char *cats = o->categories ? o->categories : "gfx view input";
	char cmd[2048], dur[64], poll[32], path[600], ctx[32];
	struct gx_cmd line;

	if (!plain_name(name) || (o->app && !gfxstat_capture_app_valid(o->app)) ||
	    !gfxstat_capture_categories_valid(cats))
		return GFXSTAT_CAP_E_BAD_OPTION;
	/* the whole line first: nothing is pushed for a line that cannot be built */
	gx_cmd_init(&line, cmd, sizeof(cmd));
	gx_cmd_raw(&line, "mkdir -p " GFXSTAT_PHONE_SESSIONS " && cd " GFXSTAT_PHONE_DIR
		   " && nohup " GFXSTAT_PHONE_BIN " record --local -q --categories");
	gx_cmd_word(&line, cats);
	if (o->duration_s > 0) {
		snprintf(dur, sizeof(dur), "%.3f", o->duration_s);
		gx_cmd_raw(&line, " --duration");
		gx_cmd_word(&line, dur);
	}
	if (o->source != GFXSTAT_CAPTURE_AUTO) {
		gx_cmd_raw(&line, " --source");
		gx_cmd_word(&line, gfxstat_capture_source_name(o->source));
	}
	if (o->app) {
		gx_cmd_raw(&line, " --app");
		gx_cmd_word(&line, o->app);
	}
	if (o->poll_ms > 0) {
		snprintf(poll, sizeof(poll), "%ld", o->poll_ms);
		gx_cmd_raw(&line, " --poll-ms");
		gx_cmd_word(&line, poll);
	}
	/* the default is the phone's own: a binary without the option still starts */
	if (o->context_ms >= 0 && o->context_ms != GFXSTAT_CONTEXT_MS) {
		snprintf(ctx, sizeof(ctx), "%ld", o->context_ms);
		gx_cmd_raw(&line, " --context-ms");
		gx_cmd_word(&line, ctx);
	}
	snprintf(path, sizeof(path), GFXSTAT_PHONE_SESSIONS "/%s", name);
	gx_cmd_raw(&line, " -o");
	gx_cmd_word(&line, path);
	/* nohup and no terminal: the recording outlives this adb session and the cable */
	gx_cmd_raw(&line, " --pid-file " GFXSTAT_PHONE_PID " >");
	snprintf(path, sizeof(path), GFXSTAT_PHONE_SESSIONS "/%s.log", name);
	gx_cmd_word(&line, path);
	gx_cmd_raw(&line, " 2>&1 < /dev/null &");
	if (line.err)
		return GFXSTAT_CAP_E_BAD_OPTION;
	if (t->run(t->ctx, push, NULL, 0, 0) || gx_cap_shellv(t, NULL, 0, chmod_w))
		return GFXSTAT_CAP_E_FAILED;
	return gx_cap_shell(t, NULL, 0, cmd) ? GFXSTAT_CAP_E_FAILED : 0;
}

int gfxstat_phone_stop(const struct gfxstat_adb_transport *t)
{
	const char *test_w[] = { "test", "-e", GFXSTAT_PHONE_PID, NULL };
	char out[256], pid_text[32];
	const char *kill_w[] = { "kill", "-TERM", pid_text, NULL };
	long pid;
	int i;

	if (gx_cap_shell(t, out, sizeof(out), "cat " GFXSTAT_PHONE_PID))
		return GFXSTAT_CAP_E_NO_PROCESS;
	pid = strtol(out, NULL, 10);
	if (pid <= 0)
		return GFXSTAT_CAP_E_NO_PROCESS;
	snprintf(pid_text, sizeof(pid_text), "%ld", pid);
	if (gx_cap_shellv(t, NULL, 0, kill_w))
		return GFXSTAT_CAP_E_FAILED;
	/* it removes its pid file once the session is flushed and tracing is off */
	for (i = 0; i < 150; i++) {
		if (gx_cap_shellv(t, NULL, 0, test_w))
			return 0;
		gx_cap_sleep_ms(100);
	}
	return GFXSTAT_CAP_E_FAILED;
}

int gfxstat_phone_pull(const struct gfxstat_adb_transport *t, const char *name, const char *dir,
		       char *got, size_t cap)
{
	char list[8192], src[512];
	const char *pull[] = { "pull", src, dir, NULL };

	got[0] = 0;
	if (name && *name) {
		/* adb pull takes no shell, but a path out of the sessions folder is not a session */
		if (!plain_name(name))
			return GFXSTAT_CAP_E_BAD_OPTION;
		snprintf(got, cap, "%s", name);
	} else {
		char *line, *save = NULL;

		/* session names sort by time: the last one is the newest */
		if (gx_cap_shell(t, list, sizeof(list), "ls " GFXSTAT_PHONE_SESSIONS))
			return GFXSTAT_CAP_E_NO_PROCESS;
		for (line = strtok_r(list, "\r\n", &save); line; line = strtok_r(NULL, "\r\n", &save))
			if (strncmp(line, "gfxstat-", 8) == 0 && !strstr(line, ".log") &&
			    strcmp(line, got) > 0)
				snprintf(got, cap, "%s", line);
		if (!got[0])
			return GFXSTAT_CAP_E_NO_PROCESS;
	}
	snprintf(src, sizeof(src), GFXSTAT_PHONE_SESSIONS "/%s", got);
	return t->run(t->ctx, pull, NULL, 0, 0) ? GFXSTAT_CAP_E_FAILED : 0;
}
