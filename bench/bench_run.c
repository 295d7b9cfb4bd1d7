/* SPDX-License-Identifier: MIT */
/*
 * bench_run: run a command N times after one warm-up run and print the fastest wall time,
 * its user and system time, and the largest peak RSS seen. Output is one line of
 * "key=value" pairs for bench.sh. The command's standard output goes to /dev/null, its
 * standard error to FILE with -e (warnings would clutter the table; a failure names FILE).
 *   bench_run [-e FILE] N command [args...]
 */
#define _DEFAULT_SOURCE /* wait4 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double tv(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	double best = 1e300, best_user = 0, best_sys = 0;
	const char *err = NULL;
	long max_rss = 0;
	int n, i;

	if (argc >= 3 && !strcmp(argv[1], "-e")) {
		err = argv[2];
		argc -= 2;
		argv += 2;
	}
	n = argc >= 3 ? (int)strtol(argv[1], NULL, 10) : 0;
	if (n < 1) {
		fprintf(stderr, "usage: bench_run [-e FILE] N command [args...]\n");
		return 2;
	}
	for (i = 0; i <= n; i++) {
		struct rusage ru;
		int status;
		double t0 = now(), t;
		pid_t pid = fork();

		if (pid < 0) {
			perror("bench_run: fork");
			return 1;
		}
		if (pid == 0) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd >= 0)
				dup2(fd, 1);
			if (err) {
				fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
				if (fd >= 0)
					dup2(fd, 2);
			}
			execvp(argv[2], argv + 2);
			perror("bench_run: exec");
			_exit(127);
		}
		if (wait4(pid, &status, 0, &ru) < 0) {
			perror("bench_run: wait4");
			return 1;
		}
		t = now() - t0;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "bench_run: '%s' failed (status %d)%s%s\n", argv[2], status,
				err ? "; its messages are in " : "", err ? err : "");
			return 1;
		}
		if (ru.ru_maxrss > max_rss)
			max_rss = ru.ru_maxrss;
		if (i > 0 && t < best) { /* run 0 is the warm-up */
			best = t;
			best_user = tv(ru.ru_utime);
			best_sys = tv(ru.ru_stime);
		}
	}
	printf("wall=%.4f user=%.4f sys=%.4f maxrss_kb=%ld\n", best, best_user, best_sys, max_rss);
	return 0;
}
