/* SPDX-License-Identifier: MIT */
/*
 * Driving the real `adb` client: always an argument vector, never a host shell string
 * (git's run-command model). `$ADB` or --adb names the client; "adb" from PATH otherwise.
 */
#ifndef ADB_H
#define ADB_H

#include <stddef.h>
#include <sys/types.h>

/* A child process; in/out/err: -1 = "give me a pipe" (the caller then reads/writes and
 * closes it), -2 = /dev/null, else inherit. */
struct cli_child {
	const char **argv;
	int in, out, err;
	pid_t pid;
};

int cli_child_start(struct cli_child *c);
/* Wait for it; return its exit status (0-255), 128 + signal, or -1. */
int cli_child_finish(struct cli_child *c);

/*
 * cli_run() - run @argv, collect its standard output (at most @cap - 1 bytes, NUL-terminated)
 * Return: the exit status, or -1 when it could not be started or ran over @timeout_s.
 */
int cli_run(const char **argv, char *out, size_t cap, int timeout_s);

struct adb {
	const char *path;   /* the client */
	const char *serial; /* -s SERIAL, or NULL */
	int timeout_s;      /* for run commands (not streams) */
};

void adb_init(struct adb *a, const char *path, const char *serial);

/*
 * adb_run() - run `adb [-s S] ARGS...` and collect its standard output (at most @cap - 1
 * bytes, NUL-terminated); stderr is discarded unless @err_out is set.
 * Return: the exit status, or -1 when it could not be started or timed out.
 */
int adb_run(const struct adb *a, char *out, size_t cap, const char *const *args);


struct gfxstat_adb_transport;

/*
 * adb_transport() - the library's transport (gfxstat_capture.h) over the adb client @a,
 * which must outlive @t.
 */
void adb_transport(const struct adb *a, struct gfxstat_adb_transport *t);

/*
 * adb_local_transport() - the same on the phone itself: `shell CMD` runs `sh -c CMD`,
 * `exec-out cat WORD` reads the file that WORD (a gfxstat_shell_quote() word) names directly
 * (trace_pipe: waiting when it has nothing), `wait-for-device` succeeds at once; push and
 * pull fail.
 */
void adb_local_transport(struct gfxstat_adb_transport *t);

#endif
