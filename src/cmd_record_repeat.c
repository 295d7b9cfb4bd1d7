/* SPDX-License-Identifier: MIT */
/*
 * gfxstat record --repeat N -- CMD [ARG...]: N iterations of a user flow, each its own session
 * folder (iter-01, iter-02...) inside one run folder. Per iteration: --before (sh -c), the
 * capture starts, CMD runs on the host (argv, no shell; its output into command.log), the
 * capture stops --settle seconds after CMD exits, --after. iteration.json says what ran, how
 * it ended and when; "failed":true marks an iteration whose CMD, --before or capture failed.
 * Such an iteration is kept, never dropped: 'gfxstat compare' leaves it out and names it.
 * run.json lists the iterations, rewritten after each so a killed run still lists its own.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd_record.h"

/* What an iteration folder may hold besides a session (cmd_record_dir_check's files). */
static const char *const iter_files[] = { "iteration.json", "command.log", NULL };

struct iter {
	const struct rec_repeat *rp;
	int idx;
	char name[16];          /* "iter-01" */
	char dir[700];
	char log[760];
	pid_t pid;              /* the command while it runs */
	int started, done, killed;
	int status;             /* its wait status, once done */
	int spawn_err;          /* errno of a fork that failed */
	int before_status, after_status; /* -1: not run */
	int64_t start_ns, end_ns; /* wall clock */
	double end_mono;
	int capture_exit;
	int failed;
	char why[256];
};

static int64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void iso_time(int64_t ns, char *buf, size_t cap)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;
	size_t n;

	gmtime_r(&t, &tm);
	n = strftime(buf, cap, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, cap - n, ".%03dZ", (int)(ns % 1000000000 / 1000000));
}

/* Start @argv (or sh -c @shell) with its output appended to @log. Return: pid, or -1. */
static pid_t spawn(char *const *argv, const char *shell, const char *log)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0666);

		signal(SIGPIPE, SIG_DFL); /* record ignores it; the command must not */
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		if (shell)
			execl("/bin/sh", "sh", "-c", shell, (char *)NULL);
		else
			execvp(argv[0], argv);
		fprintf(stderr, "gfxstat: error: cannot run '%s': %s\n", shell ? "/bin/sh" : argv[0],
			strerror(errno));
		_exit(127);
	}
	return pid;
}

static int wait_for(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

/* --before or --after: sh -c CMD. Return: its exit status (128 + signal), or -1. */
static int run_shell(const char *cmd, const struct iter *it)
{
	pid_t pid = spawn(NULL, cmd, it->log);
	int st;

	if (pid < 0 || wait_for(pid, &st))
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The capture's stop hook: start the command at the first call, stop settle s after it. */
static const char *iter_stop(void *user)
{
	struct iter *it = user;
	double now = cli_now();
	int st;

	if (!it->started) {
		it->started = 1;
		it->start_ns = wall_ns();
		it->pid = spawn(it->rp->cmd, NULL, it->log);
		if (it->pid < 0) {
			it->spawn_err = errno;
			it->pid = 0;
			it->done = 1;
			it->end_ns = it->start_ns;
			it->end_mono = now;
		}
	}
	if (it->pid && waitpid(it->pid, &st, WNOHANG) == it->pid) {
		it->status = st;
		it->pid = 0;
		it->done = 1;
		it->end_ns = wall_ns();
		it->end_mono = now;
	}
	if (cli_stop_signal) {
		/* Ctrl-C reached the command too; SIGTERM (or a hang-up) is passed on */
		if (it->pid && !it->killed && cli_stop_signal != SIGINT)
			kill(it->pid, cli_stop_signal);
		it->killed = 1;
		return NULL;
	}
	if (it->done && now >= it->end_mono + it->rp->settle)
		return it->spawn_err ? "the command could not be started" : "the command ended";
	return NULL;
}

static void json_cmd(FILE *f, const struct rec_repeat *rp)
{
	int i;

	fputc('[', f);
	for (i = 0; i < rp->ncmd; i++) {
		if (i)
			fputc(',', f);
		cli_json_str(f, rp->cmd[i]);
	}
	fputc(']', f);
}

static void json_opt_str(FILE *f, const char *key, const char *s)
{
	fprintf(f, ",\"%s\":", key);
	if (s)
		cli_json_str(f, s);
	else
		fputs("null", f);
}

static void json_status(FILE *f, const char *key, int st)
{
	if (st < 0)
		fprintf(f, ",\"%s\":null", key);
	else
		fprintf(f, ",\"%s\":%d", key, st);
}

/* How the iteration ended: it->failed and it->why. */
static void judge(struct iter *it)
{
	const struct rec_repeat *rp = it->rp;

	if (!it->started && cli_stop_signal)
		snprintf(it->why, sizeof(it->why), "stopped by %s before the capture",
			 cli_signal_name(cli_stop_signal));
	else if (!it->started)
		snprintf(it->why, sizeof(it->why), "the capture did not start (exit %d): the command "
			 "was not run", it->capture_exit);
	else if (it->spawn_err)
		snprintf(it->why, sizeof(it->why), "cannot start '%s': %s", rp->cmd[0],
			 strerror(it->spawn_err));
	else if (!it->done)
		snprintf(it->why, sizeof(it->why), "the command did not end");
	else if (WIFSIGNALED(it->status))
		snprintf(it->why, sizeof(it->why), "the command was killed by signal %d",
			 WTERMSIG(it->status));
	else if (WEXITSTATUS(it->status))
		snprintf(it->why, sizeof(it->why), "the command exited with status %d",
			 WEXITSTATUS(it->status));
	else if (it->capture_exit)
		snprintf(it->why, sizeof(it->why), "the capture failed (exit %d)", it->capture_exit);
	else if (rp->before && it->before_status)
		snprintf(it->why, sizeof(it->why), "--before failed (status %d)", it->before_status);
	else
		it->why[0] = 0;
	it->failed = it->why[0] != 0;
}

/* Return: 0, or an errno value. */
static int write_iteration(const struct iter *it)
{
	char path[800], t0[40], t1[40];
	FILE *f;

	snprintf(path, sizeof(path), "%s/iteration.json", it->dir);
	f = fopen(path, "w");
	if (!f)
		return errno;
	fprintf(f, "{\"iteration\":%d,\"session\":\"%s\",\"command\":", it->idx, it->name);
	json_cmd(f, it->rp);
	json_opt_str(f, "before", it->rp->before);
	json_status(f, "before_status", it->before_status);
	json_opt_str(f, "after", it->rp->after);
	json_status(f, "after_status", it->after_status);
	if (it->done && !it->spawn_err && WIFEXITED(it->status))
		fprintf(f, ",\"exit_status\":%d,\"signal\":null", WEXITSTATUS(it->status));
	else if (it->done && !it->spawn_err)
		fprintf(f, ",\"exit_status\":null,\"signal\":%d", WTERMSIG(it->status));
	else
		fprintf(f, ",\"exit_status\":null,\"signal\":null");
	if (it->started) {
		iso_time(it->start_ns, t0, sizeof(t0));
		iso_time(it->end_ns, t1, sizeof(t1));
		fprintf(f, ",\"start\":\"%s\",\"end\":\"%s\",\"start_ns\":%lld,\"end_ns\":%lld,"
			"\"duration_ns\":%lld", t0, t1, (long long)it->start_ns,
			(long long)it->end_ns, (long long)(it->end_ns - it->start_ns));
	} else {
		fprintf(f, ",\"start\":null,\"end\":null,\"start_ns\":null,\"end_ns\":null,"
			"\"duration_ns\":null");
	}
	fprintf(f, ",\"settle_ns\":%lld,\"capture_exit\":%d,\"failed\":%s",
		(long long)(it->rp->settle * 1e9 + 0.5), it->capture_exit,
		it->failed ? "true" : "false");
	json_opt_str(f, "why", it->failed ? it->why : NULL);
	fprintf(f, "}\n");
	return fclose(f) ? errno ? errno : EIO : 0;
}

/* run.json: the command and every iteration so far. Return: 0, or an errno value. */
static int write_run(const char *dir, const struct rec_repeat *rp, const char *serial,
		     const struct iter *its, int n, const char *stopped)
{
	char path[800];
	int i, failed = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/run.json", dir);
	f = fopen(path, "w");
	if (!f)
		return errno;
	fprintf(f, "{\"serial\":");
	cli_json_str(f, serial);
	fprintf(f, ",\"repeat\":%ld,\"command\":", rp->n);
	json_cmd(f, rp);
	json_opt_str(f, "before", rp->before);
	json_opt_str(f, "after", rp->after);
	fprintf(f, ",\"settle_ns\":%lld", (long long)(rp->settle * 1e9 + 0.5));
	json_opt_str(f, "stopped", stopped);
	fprintf(f, ",\"iterations\":[");
	for (i = 0; i < n; i++) {
		failed += its[i].failed;
		fprintf(f, "%s\n{\"session\":\"%s\",\"failed\":%s", i ? "," : "", its[i].name,
			its[i].failed ? "true" : "false");
		if (its[i].done && !its[i].spawn_err && WIFEXITED(its[i].status))
			fprintf(f, ",\"exit_status\":%d", WEXITSTATUS(its[i].status));
		else
			fprintf(f, ",\"exit_status\":null");
		fprintf(f, ",\"capture_exit\":%d", its[i].capture_exit);
		json_opt_str(f, "why", its[i].failed ? its[i].why : NULL);
		fputc('}', f);
	}
	fprintf(f, "],\"failed\":%d}\n", failed);
	return fclose(f) ? errno ? errno : EIO : 0;
}

/* A fresh run folder gfxstat-run-SERIAL-YYYYmmddTHHMMSSZ, "-2", "-3"... when taken. */
static int fresh_run_dir(const char *serial, char *buf, size_t cap)
{
	time_t t = time(NULL);
	struct tm tm;
	size_t i, n, s;
	int k;

	gmtime_r(&t, &tm);
	n = (size_t)snprintf(buf, cap, "gfxstat-run-");
	/* "192.168.0.5:5555" is a serial too: keep the name portable */
	for (i = 0; serial[i] && n + 1 < cap && i < 100; i++, n++)
		buf[n] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
				serial[i]) ? serial[i] : '_';
	s = (size_t)snprintf(buf + n, cap - n, "-%04d%02d%02dT%02d%02d%02dZ", tm.tm_year + 1900,
			     tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	n += s;
	for (k = 2; k < 1000; k++) {
		/* mkdir, not mkdir -p: an existing folder is never reused */
		if (!mkdir(buf, 0777))
			return 0;
		if (errno != EEXIST || n >= cap - 8)
			return errno;
		snprintf(buf + n, cap - n, "-%d", k);
	}
	return EEXIST;
}

/* Whether @name is an iteration folder's name, iter-<digits>. */
static int is_iter_name(const char *name)
{
	size_t n = strspn(name + 5, "0123456789");

	return !strncmp(name, "iter-", 5) && n && !name[5 + n];
}

/*
 * -o DIR holding a run (run.json or iteration folders): refused unless --overwrite, and
 * never removed here (the new run replaces it at its end: replace_run()).
 * Return: CLI_OK (@held set) or CLI_USAGE.
 */
static int run_dir_check(const char *dir, int overwrite, int *held)
{
	char path[800];
	struct dirent *e;
	DIR *d = opendir(dir);

	snprintf(path, sizeof(path), "%s/run.json", dir);
	*held = !access(path, F_OK);
	while (d && !*held && (e = readdir(d)))
		*held = is_iter_name(e->d_name);
	if (d)
		closedir(d);
	if (*held && !overwrite) {
		cli_error("'%s' already holds a run of iterations: give --overwrite to replace it, "
			  "or another folder with -o", dir);
		return CLI_USAGE;
	}
	return CLI_OK;
}

/*
 * Remove the run in @dir: run.json and every iteration folder (its session files,
 * iteration.json, command.log), so no two runs mix. Return: CLI_OK or CLI_OUTPUT.
 */
static int run_dir_clear(const char *dir)
{
	char path[800];
	struct dirent *e;
	DIR *d = opendir(dir);
	int rc = CLI_OK, i;

	snprintf(path, sizeof(path), "%s/run.json", dir);
	if (unlink(path) && errno != ENOENT) {
		cli_error("cannot remove '%s': %s", path, strerror(errno));
		rc = CLI_OUTPUT;
	}
	while (d && rc == CLI_OK && (e = readdir(d))) {
		if (!is_iter_name(e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if ((rc = cmd_record_dir_clear(path)))
			break;
		for (i = 0; iter_files[i]; i++) {
			char f[900];

			snprintf(f, sizeof(f), "%s/%s", path, iter_files[i]);
			unlink(f);
		}
		if (rmdir(path)) {
			cli_error("cannot remove '%s': %s (files gfxstat did not write?)", path,
				  strerror(errno));
			rc = CLI_OUTPUT;
		}
	}
	if (d)
		closedir(d);
	return rc;
}

/*
 * The end of a run written in @tmp (inside @dir) to replace the run there: when an
 * iteration holds a capture, the old run goes and the new one's iterations and run.json
 * take its place; else the new run goes and the old one stays as it was.
 * Return: CLI_OK or CLI_OUTPUT.
 */
static int replace_run(const char *dir, const char *tmp, const struct iter *its, int n,
		       int captured)
{
	char from[800], to[800];
	int i, rc;

	if (!captured) {
		cli_error("no iteration captured anything: the run already in '%s' is kept as it was",
			  dir);
		if (run_dir_clear(tmp) == CLI_OK && rmdir(tmp))
			cli_warn("cannot remove '%s': %s", tmp, strerror(errno));
		return CLI_OK;
	}
	if ((rc = run_dir_clear(dir))) {
		cli_error("the new run is in '%s'", tmp);
		return rc;
	}
	for (i = 0; i <= n; i++) {
		const char *name = i < n ? its[i].name : "run.json";

		snprintf(from, sizeof(from), "%s/%s", tmp, name);
		snprintf(to, sizeof(to), "%s/%s", dir, name);
		if (rename(from, to) && errno != ENOENT) {
			cli_error("cannot move '%s' to '%s': %s", from, to, strerror(errno));
			return CLI_OUTPUT;
		}
	}
	if (rmdir(tmp))
		cli_warn("cannot remove '%s': %s", tmp, strerror(errno));
	/* the reports now, in place: they name the session's files where they are */
	for (i = 0; i < n; i++) {
		snprintf(to, sizeof(to), "%s/%s", dir, its[i].name);
		if (cmd_record_dir_captured(to) && cmd_record_report(to))
			rc = CLI_OUTPUT;
	}
	return rc;
}

int cmd_record_repeat_check(struct rec_repeat *rp, char **cmd, int ncmd, int multi)
{
	if (!ncmd) {
		cli_error("--repeat needs the command to run: gfxstat record --repeat N -- CMD "
			  "[ARG...]");
		return CLI_USAGE;
	}
	if (multi) {
		cli_error("--repeat records one device from this host: --all, --local and "
			  "--on-device do not go with it");
		return CLI_USAGE;
	}
	rp->cmd = cmd;
	rp->ncmd = ncmd;
	return CLI_OK;
}

int cmd_record_repeat(const struct rec_repeat *rp, const char *serial, const char *dir,
		      int overwrite, rec_one_fn one, const void *opts)
{
	struct rec_hook hook = { iter_stop, NULL, NULL };
	struct iter *its = calloc((size_t)rp->n, sizeof(*its));
	char rundir[512], final[800];
	char *absdir = NULL;
	int i, w, width, rc = CLI_OK, werr = 0, nfailed = 0, ndone = 0, held = 0, captured = 0;
	const char *stopped = NULL;

	if (!its)
		return CLI_INPUT;
	if (dir) {
		int e = cli_mkdir_p(dir);

		if (e) {
			cli_error("cannot create '%s': %s", dir, strerror(e));
			free(its);
			return CLI_OUTPUT;
		}
		if ((rc = run_dir_check(dir, overwrite, &held))) {
			free(its);
			return rc;
		}
		/* --overwrite: the new run is written beside the old one (inside its folder: a
		 * rename away) and replaces it at the end, only if it captured anything */
		if ((size_t)snprintf(rundir, sizeof(rundir), held ? "%s/.gfxstat-new-XXXXXX" : "%s",
				     dir) >= sizeof(rundir) || (held && !mkdtemp(rundir)) ||
		    (held && !(absdir = realpath(dir, NULL)))) {
			cli_error("cannot create a folder in '%s': %s", dir, strerror(errno));
			free(its);
			return CLI_OUTPUT;
		}
	} else if ((w = fresh_run_dir(serial, rundir, sizeof(rundir)))) {
		cli_error("cannot create '%s': %s", rundir, strerror(w));
		free(its);
		return CLI_OUTPUT;
	}
	width = rp->n >= 1000 ? 4 : rp->n >= 100 ? 3 : 2; /* iter-01, iter-001: in order by name */
	for (i = 0; i < rp->n; i++) {
		struct iter *it = &its[i];
		int code;

		it->rp = rp;
		it->idx = i + 1;
		it->before_status = it->after_status = -1;
		snprintf(it->name, sizeof(it->name), "iter-%0*d", width, i + 1);
		snprintf(it->dir, sizeof(it->dir), "%s/%s", rundir, it->name);
		snprintf(it->log, sizeof(it->log), "%s/command.log", it->dir);
		if (mkdir(it->dir, 0777)) {
			cli_error("cannot create '%s': %s", it->dir, strerror(errno));
			rc = CLI_OUTPUT;
			break;
		}
		cli_info("iteration %d of %ld: %s", i + 1, rp->n, it->dir);
		if (rp->before)
			it->before_status = run_shell(rp->before, it);
		hook.user = it;
		if (absdir) {
			/* the history names the folder the session will be in */
			snprintf(final, sizeof(final), "%s/%s", absdir, it->name);
			hook.final_path = final;
		}
		code = cli_stop_signal ? CLI_OK : one(opts, serial, it->dir, &hook);
		captured = captured || cmd_record_dir_captured(it->dir);
		it->capture_exit = code;
		/* the capture may end before the command (the device went away) */
		if (it->pid && !wait_for(it->pid, &it->status)) {
			it->done = 1;
			it->end_ns = wall_ns();
		}
		it->pid = 0;
		if (rp->after)
			it->after_status = run_shell(rp->after, it);
		judge(it);
		ndone++;
		nfailed += it->failed;
		if (it->failed)
			cli_warn("%s failed: %s (kept, marked failed)", it->name, it->why);
		if (!rc && code)
			rc = code;
		if ((w = write_iteration(it)) || (w = write_run(rundir, rp, serial, its, i + 1,
								   NULL))) {
			cli_error("cannot write the run in '%s': %s", rundir, strerror(w));
			werr = 1;
		}
		if (cli_stop_signal) {
			stopped = cli_signal_name(cli_stop_signal);
			if (write_run(rundir, rp, serial, its, i + 1, stopped))
				werr = 1;
			break;
		}
	}
	if (held && (w = replace_run(dir, rundir, its, ndone, captured)) && !rc)
		rc = w;
	cli_info("%d of %ld iterations in %s, %d failed%s%s", ndone, rp->n, held ? dir : rundir,
		 nfailed, stopped ? "; stopped by " : "", stopped ? stopped : "");
	free(absdir);
	free(its);
	if (werr && !rc)
		rc = CLI_OUTPUT;
	return rc;
}
