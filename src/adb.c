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
#include <unistd.h>

#include "adb.h"
#include "cli.h"

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

int adb_shell(const struct adb *a, char *out, size_t cap, const char *cmd)
{
	const char *args[] = { "shell", cmd, NULL };

	return adb_run(a, out, cap, args);
}

int adb_stream(const struct adb *a, struct cli_child *c, const char *const *args,
	       int want_stdin)
{
	static const char *argv[MAX_ARGS];

	build_argv(a, argv, args);
	memset(c, 0, sizeof(*c));
	c->argv = argv;
	c->in = want_stdin ? -1 : -2;
	c->out = -1;
	c->err = -2;
	return cli_child_start(c);
}
