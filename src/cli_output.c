/* SPDX-License-Identifier: MIT */
/*
 * Results are written whole or not at all: files the user names go through a temporary file
 * renamed over the target, and a run that a signal cut short (a regular file read in part)
 * ends with 128 + the signal and writes nothing. A live stream (a pipe, record) is different:
 * a signal is how it ends, and its results are complete.
 */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_output.h"

/* ---- interruptions ------------------------------------------------------------------ */

static volatile sig_atomic_t stream_signal; /* the signal that ended a live stream */
static int said;                            /* the interruption was reported */

int cli_read_stopped(const char *name, int regular, unsigned long long done,
		     unsigned long long size)
{
	int sig = cli_stop_signal;

	if (!sig)
		return CLI_OK;
	if (!regular || done >= size) {
		stream_signal = sig;
		return CLI_OK;
	}
	if (!said)
		cli_error("%s: interrupted after %llu of %llu bytes (%s): the results would be "
			  "incomplete, none are written", name, done, size, cli_signal_name(sig));
	said = 1;
	return 128 + sig;
}

int cli_interrupted(void)
{
	int sig = cli_stop_signal;

	if (!sig || sig == stream_signal)
		return 0;
	if (!said)
		cli_error("interrupted (%s): the results would be incomplete, none are written",
			  cli_signal_name(sig));
	said = 1;
	return 128 + sig;
}

int cli_input_is_live(const char *path)
{
	struct stat st;

	if (!path || !strcmp(path, "-"))
		return fstat(0, &st) == 0 && !S_ISREG(st.st_mode);
	return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* ---- temporary files ------------------------------------------------------------------ */

/*
 * The temporary files in use, which a fatal signal removes. Only while no handler of the
 * command's own is installed: cli_catch_signals() turns signals into cli_stop_signal, and
 * cli_output_close() then removes the file itself.
 */
#define MAX_TMP 8
static char *volatile active[MAX_TMP];

static void on_fatal_signal(int sig)
{
	int i;

	for (i = 0; i < MAX_TMP; i++)
		if (active[i])
			unlink(active[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void remove_on_fatal_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old, sa;

		if (sigaction(sigs[i], NULL, &old) || old.sa_handler != SIG_DFL)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fatal_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}

static int track(char *tmp)
{
	int i;

	for (i = 0; i < MAX_TMP; i++)
		if (!active[i]) {
			active[i] = tmp;
			return i;
		}
	return -1;
}

static void untrack(struct cli_output *o)
{
	if (o->slot >= 0)
		active[o->slot] = NULL;
	o->slot = -1;
}

/* The mode a new file gets from fopen(): 0666 less the umask. */
static mode_t new_file_mode(void)
{
	mode_t m = umask(0);

	umask(m);
	return 0666 & ~m;
}

static int open_in_place(struct cli_output *o, const char *path)
{
	o->f = fopen(path, "w");
	return o->f ? 0 : errno ? errno : EIO;
}

int cli_output_open(struct cli_output *o, const char *path, int flags)
{
	struct stat st, lst;
	const char *base;
	size_t dirlen, n;
	int fd, e, exists;

	memset(o, 0, sizeof(*o));
	o->slot = -1;
	/* '-' is standard output, as an INPUT of '-' is standard input (not a file named '-') */
	if (path && !strcmp(path, "-"))
		path = NULL;
	o->path = path;
	if (!path) {
		o->f = stdout;
		return 0;
	}
	exists = lstat(path, &lst) == 0;
	if (exists && S_ISLNK(lst.st_mode)) {
		/* replace the file the link names, and keep the link */
		exists = stat(path, &st) == 0;
		if (exists && S_ISREG(st.st_mode))
			o->target = realpath(path, NULL);
		if (!o->target)
			return open_in_place(o, path);
	} else {
		st = lst;
	}
	/* /dev/null, /dev/stdout, a FIFO: nothing to replace, and nothing may replace them */
	if ((exists && !S_ISREG(st.st_mode)) || (flags & CLI_OUT_LIVE)) {
		free(o->target);
		o->target = NULL;
		return open_in_place(o, path);
	}
	/* a file the user may not write stays so, as fopen() would have refused it */
	if (exists && access(o->target ? o->target : path, W_OK))
		e = errno ? errno : EACCES;
	else if (!o->target && !(o->target = strdup(path)))
		e = ENOMEM;
	else
		e = 0;
	if (e) {
		free(o->target);
		o->target = NULL;
		return e;
	}
	base = strrchr(o->target, '/');
	base = base ? base + 1 : o->target;
	dirlen = (size_t)(base - o->target);
	n = strlen(o->target) + 16;
	o->tmp = malloc(n);
	if (!o->tmp) {
		e = ENOMEM;
		goto fail;
	}
	/* hidden, beside the target: the rename stays in one file system */
	snprintf(o->tmp, n, "%.*s.%s.XXXXXX", (int)dirlen, o->target, base);
	remove_on_fatal_signals();
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		e = errno ? errno : EIO;
		goto fail;
	}
	o->slot = track(o->tmp);
	/* the target's mode and owner, as writing it in place would have kept them */
	if (exists && geteuid() == 0 && fchown(fd, st.st_uid, st.st_gid)) {
		/* best effort: the file is the caller's then, as a new one would be */
	}
	fchmod(fd, exists ? st.st_mode & 07777 : new_file_mode());
	o->f = fdopen(fd, "w");
	if (!o->f) {
		e = errno ? errno : EIO;
		close(fd);
		unlink(o->tmp);
		untrack(o);
		goto fail;
	}
	return 0;
fail:
	free(o->tmp);
	free(o->target);
	o->tmp = o->target = NULL;
	return e;
}

/* fsync the folder, so that the rename survives a crash; best effort */
static void sync_dir(const char *file)
{
	const char *slash = strrchr(file, '/');
	char *dir = slash ? strndup(file, slash == file ? 1 : (size_t)(slash - file)) : NULL;
	int fd = open(dir ? dir : ".", O_RDONLY);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

int cli_output_close(struct cli_output *o, int keep)
{
	int e = 0;

	if (!o->f)
		return 0;
	if (o->f == stdout) {
		o->f = NULL;
		if (fflush(stdout) || ferror(stdout))
			return errno ? errno : EIO;
		return 0;
	}
	if (!o->tmp) {
		e = fclose(o->f) ? (errno ? errno : EIO) : 0;
		o->f = NULL;
		free(o->target);
		o->target = NULL;
		return e;
	}
	if (keep && cli_interrupted())
		e = EINTR;
	else if (!keep)
		e = -1;
	if (!e && (fflush(o->f) || ferror(o->f)))
		e = errno ? errno : EIO;
	if (!e && fsync(fileno(o->f)))
		e = errno;
	if (fclose(o->f) && !e)
		e = errno ? errno : EIO;
	o->f = NULL;
	/* a signal now would find the temporary file gone or renamed: either is right */
	if (!e && rename(o->tmp, o->target))
		e = errno ? errno : EIO;
	untrack(o);
	if (e)
		unlink(o->tmp);
	else
		sync_dir(o->target);
	free(o->tmp);
	free(o->target);
	o->tmp = o->target = NULL;
	return e < 0 ? 0 : e;
}

int cli_output_create(struct cli_output *o, const char *path, int flags)
{
	int e = cli_output_open(o, path, flags);

	if (!e)
		return CLI_OK;
	cli_error("cannot write '%s': %s", path, strerror(e));
	return CLI_OUTPUT;
}

int cli_output_finish(struct cli_output *o, int keep)
{
	int e = cli_output_close(o, keep), sig;

	if (!e)
		return CLI_OK;
	if (e == EINTR && (sig = cli_interrupted()))
		return sig;
	cli_error("cannot write '%s': %s", o->path ? o->path : "standard output", strerror(e));
	return CLI_OUTPUT;
}
