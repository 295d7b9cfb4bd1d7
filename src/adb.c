/* SPDX-License-Identifier: MIT */
/* Child processes and the adb client. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "adb.h"
#include "cli.h"
#include "gfxstat/gfxstat_capture.h"

#define MAX_ARGS 32

static void redirect(int want, int pipe_end, int target)
{
	if (want == -1) {
		dup2(pipe_end, target);
	} else if (want == -2) {
		int fd = open("/dev/null", O_RDWR);

		if (fd >= 0) {
			dup2(fd, target);
			close(fd);
		}
	}
}

int cli_child_start(struct cli_child *c)
{
	int pin[2] = { -1, -1 }, pout[2] = { -1, -1 }, perr[2] = { -1, -1 };
	pid_t pid;

	if ((c->in == -1 && pipe(pin)) || (c->out == -1 && pipe(pout)) ||
	    (c->err == -1 && pipe(perr)))
		goto fail;
	pid = fork();
	if (pid < 0)
		goto fail;
	if (pid == 0) {
		/* the child: its own process group, so a Ctrl-C on our terminal reaches us
		 * first and we decide how adb is stopped */
		setpgid(0, 0);
		redirect(c->in, pin[0], 0);
		redirect(c->out, pout[1], 1);
		redirect(c->err, perr[1], 2);
		if (pin[0] >= 0) {
			close(pin[0]);
			close(pin[1]);
		}
		if (pout[0] >= 0) {
			close(pout[0]);
			close(pout[1]);
		}
		if (perr[0] >= 0) {
			close(perr[0]);
			close(perr[1]);
		}
		signal(SIGPIPE, SIG_DFL);
		execvp(c->argv[0], (char *const *)c->argv);
		_exit(127);
	}
	c->pid = pid;
	if (c->in == -1) {
		close(pin[0]);
		c->in = pin[1];
	}
	if (c->out == -1) {
		close(pout[1]);
		c->out = pout[0];
	}
	if (c->err == -1) {
		close(perr[1]);
		c->err = perr[0];
	}
	return 0;
fail:
	if (pin[0] >= 0) {
		close(pin[0]);
		close(pin[1]);
	}
	if (pout[0] >= 0) {
		close(pout[0]);
		close(pout[1]);
	}
	if (perr[0] >= 0) {
		close(perr[0]);
		close(perr[1]);
	}
	return -1;
}

int cli_child_finish(struct cli_child *c)
{
	int status;

	while (waitpid(c->pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}

void adb_init(struct adb *a, const char *path, const char *serial)
{
	const char *env = getenv("ADB");

	a->path = path ? path : env && *env ? env : "adb";
	a->serial = serial;
	a->timeout_s = 30;
}

/* argv = adb [-s S] args... */
static int build_argv(const struct adb *a, const char **argv, const char *const *args)
{
	int n = 0, i;

	argv[n++] = a->path;
	if (a->serial) {
		argv[n++] = "-s";
		argv[n++] = a->serial;
	}
	for (i = 0; args[i] && n < MAX_ARGS - 1; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return n;
}

int cli_run(const char **argv, char *out, size_t cap, int timeout_s)
{
	struct cli_child c;
	size_t len = 0;
	double deadline = cli_now() + timeout_s;
	int timed_out = 0, rc;

	memset(&c, 0, sizeof(c));
	c.argv = argv;
	c.in = -2;
	c.out = -1;
	c.err = -2;
	if (cli_child_start(&c))
		return -1;
	for (;;) {
		struct pollfd p = { c.out, POLLIN, 0 };
		char tmp[4096];
		ssize_t n;
		int left = (int)((deadline - cli_now()) * 1000);

		if (left <= 0) {
			timed_out = 1;
			break;
		}
		if (poll(&p, 1, left) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (!p.revents)
			continue;
		n = read(c.out, tmp, sizeof(tmp));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (out && len + 1 < cap) {
			size_t take = (size_t)n < cap - 1 - len ? (size_t)n : cap - 1 - len;

			memcpy(out + len, tmp, take);
			len += take;
		}
	}
	if (out && cap)
		out[len] = 0;
	close(c.out);
	if (timed_out)
		kill(c.pid, SIGKILL);
	rc = cli_child_finish(&c);
	return timed_out ? -1 : rc;
}

int adb_run(const struct adb *a, char *out, size_t cap, const char *const *args)
{
	const char *argv[MAX_ARGS];

	build_argv(a, argv, args);
	return cli_run(argv, out, cap, a->timeout_s);
}

/* ---------------------------------------------------------------------------------------- */
/* the library's transport                                                                   */

struct cli_stream {
	struct cli_child c;
	const char *argv[MAX_ARGS];
	int file;   /* a file read directly (local trace_pipe): never ends, waits instead */
	int ended;
};

static int tr_run(void *ctx, const char *const *args, char *out, size_t cap, int timeout_s)
{
	struct adb a = *(const struct adb *)ctx;

	if (timeout_s > 0)
		a.timeout_s = timeout_s;
	return adb_run(&a, out, cap, args);
}

/* Start @argv with its output piped; @in written to its input. */
static void *stream_spawn(struct cli_stream *s, const void *in, size_t in_n)
{
	memset(&s->c, 0, sizeof(s->c));
	s->c.argv = s->argv;
	s->c.in = in ? -1 : -2;
	s->c.out = -1;
	s->c.err = -2;
	if (cli_child_start(&s->c)) {
		free(s);
		return NULL;
	}
	if (in) {
		if (write(s->c.in, in, in_n) != (ssize_t)in_n)
			cli_warn("could not write the input of '%s'", s->argv[0]);
		close(s->c.in);
	}
	return s;
}

static void *tr_stream_start(void *ctx, const char *const *args, const void *in, size_t in_n)
{
	struct cli_stream *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	build_argv(ctx, s->argv, args);
	return stream_spawn(s, in, in_n);
}

static long tr_stream_read(void *stream, void *buf, size_t cap, int timeout_ms)
{
	struct cli_stream *s = stream;
	struct pollfd p = { s->c.out, POLLIN, 0 };
	ssize_t n;

	if (s->ended)
		return -1;
	if (poll(&p, 1, timeout_ms) <= 0)
		return 0;
	n = read(s->c.out, buf, cap);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n > 0)
		return (long)n;
	if (s->file) {
		/* trace_pipe has nothing now (a plain file in tests: at its end) */
		struct timespec ts = { 0, 100000000 };

		nanosleep(&ts, NULL);
		return 0;
	}
	s->ended = 1;
	return -1;
}

static int tr_stream_stop(void *stream)
{
	struct cli_stream *s = stream;
	int st = 0;

	close(s->c.out);
	if (!s->file) {
		int status;

		if (waitpid(s->c.pid, &status, WNOHANG) == 0) {
			kill(s->c.pid, SIGTERM);
			st = cli_child_finish(&s->c);
		} else {
			st = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		}
	}
	free(s);
	return st;
}

void adb_transport(const struct adb *a, struct gfxstat_adb_transport *t)
{
	t->run = tr_run;
	t->stream_start = tr_stream_start;
	t->stream_read = tr_stream_read;
	t->stream_stop = tr_stream_stop;
	t->ctx = (void *)a;
}

static int local_run(void *ctx, const char *const *args, char *out, size_t cap, int timeout_s)
{
	const char *argv[] = { "sh", "-c", args[1], NULL };

	(void)ctx;
	if (out && cap)
		out[0] = 0;
	if (!strcmp(args[0], "wait-for-device"))
		return 0;
	if (strcmp(args[0], "shell") || !args[1])
		return -1;
	return cli_run(argv, out, cap, timeout_s > 0 ? timeout_s : 30);
}

static void *local_stream_start(void *ctx, const char *const *args, const void *in,
				size_t in_n)
{
	struct cli_stream *s = calloc(1, sizeof(*s));

	(void)ctx;
	if (!s)
		return NULL;
	if (!strcmp(args[0], "exec-out") && args[1] && !strcmp(args[1], "cat") && args[2]) {
		/* on the phone: read the file itself, no cat; the path is a word for the
		 * device's shell, as adb would hand it over (gfxstat_capture.h) */
		char path[4096];

		if (gfxstat_shell_unquote(args[2], strlen(args[2]), path, sizeof(path), NULL)) {
			free(s);
			return NULL;
		}
		s->file = 1;
		s->c.out = open(path, O_RDONLY | O_NONBLOCK);
		if (s->c.out < 0) {
			free(s);
			return NULL;
		}
		return s;
	}
	if (strcmp(args[0], "shell") || !args[1]) {
		free(s);
		return NULL;
	}
	s->argv[0] = "sh";
	s->argv[1] = "-c";
	s->argv[2] = args[1];
	s->argv[3] = NULL;
	return stream_spawn(s, in, in_n);
}

void adb_local_transport(struct gfxstat_adb_transport *t)
{
	t->run = local_run;
	t->stream_start = local_stream_start;
	t->stream_read = tr_stream_read;
	t->stream_stop = tr_stream_stop;
	t->ctx = NULL;
}
