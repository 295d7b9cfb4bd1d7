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

int gfxstat_phone_launch(const struct gfxstat_adb_transport *t, const char *binary,
			 const char *name, double duration_s, const char *categories)
{
	const char *push[] = { "push", binary, GFXSTAT_PHONE_BIN, NULL };
	char cmd[1200], dur[64] = "";

	if (t->run(t->ctx, push, NULL, 0, 0) ||
	    gx_cap_shell(t, NULL, 0, "chmod 755 " GFXSTAT_PHONE_BIN))
		return GFXSTAT_CAP_E_FAILED;
	if (duration_s > 0)
		snprintf(dur, sizeof(dur), " --duration %.3f", duration_s);
	/* nohup and no terminal: the recording outlives this adb session and the cable */
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p " GFXSTAT_PHONE_SESSIONS " && cd " GFXSTAT_PHONE_DIR " && nohup "
		 GFXSTAT_PHONE_BIN " record --local -q%s --categories '%s' -o "
		 GFXSTAT_PHONE_SESSIONS "/%s --pid-file " GFXSTAT_PHONE_PID " > "
		 GFXSTAT_PHONE_SESSIONS "/%s.log 2>&1 < /dev/null &",
		 dur, categories ? categories : "gfx view input", name, name);
	return gx_cap_shell(t, NULL, 0, cmd) ? GFXSTAT_CAP_E_FAILED : 0;
}

int gfxstat_phone_stop(const struct gfxstat_adb_transport *t)
{
	char out[256], cmd[128];
	long pid;
	int i;

	if (gx_cap_shell(t, out, sizeof(out), "cat " GFXSTAT_PHONE_PID))
		return GFXSTAT_CAP_E_NO_PROCESS;
	pid = strtol(out, NULL, 10);
	if (pid <= 0)
		return GFXSTAT_CAP_E_NO_PROCESS;
	snprintf(cmd, sizeof(cmd), "kill -TERM %ld", pid);
	if (gx_cap_shell(t, NULL, 0, cmd))
		return GFXSTAT_CAP_E_FAILED;
	/* it removes its pid file once the session is flushed and tracing is off */
	for (i = 0; i < 150; i++) {
		if (gx_cap_shell(t, NULL, 0, "test -e " GFXSTAT_PHONE_PID))
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
