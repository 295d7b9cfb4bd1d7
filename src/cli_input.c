/* SPDX-License-Identifier: MIT */
/*
 * Reading inputs: files or standard input, in large chunks, stoppable by a signal. Handlers
 * are installed without SA_RESTART so a blocked read() on a pipe returns at once and the
 * command can flush what it has: a stopped live capture loses nothing.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "gfxstat/gfxstat.h"

#define CHUNK (1 << 20)
/* Regular files are mapped a window at a time: no copy through read(), and a bounded
 * address-space footprint even on a 32-bit phone reading a multi-GB trace. */
#define MAP_WINDOW ((off_t)4 << 20)

volatile sig_atomic_t cli_stop_signal;

static void on_signal(int sig)
{
	cli_stop_signal = sig;
}

void cli_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	{
		/* under nohup (record --on-device) a hang-up must not end the capture */
		struct sigaction old;

		if (sigaction(SIGHUP, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			return;
	}
	sigaction(SIGHUP, &sa, NULL);
}

const char *cli_signal_name(int sig)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	default:
		return "a signal";
	}
}

double cli_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cli_str_contains(struct gfxstat_str s, const char *want)
{
	size_t n = strlen(want), i;

	for (i = 0; i + n <= s.n; i++)
		if (memcmp(s.p + i, want, n) == 0)
			return 1;
	return 0;
}

int cli_str_is(struct gfxstat_str s, const char *want)
{
	return s.n == strlen(want) && memcmp(s.p, want, s.n) == 0;
}

/* Progress on a terminal only, at most once a second; a pipe or a log gets none. */
struct progress {
	int on;
	double next;
	unsigned long long total;
	const char *name;
};

static void progress_show(struct progress *pg, unsigned long long done, int last)
{
	char b1[32], b2[32];
	double t;

	if (!pg->on)
		return;
	if (!last) {
		t = cli_now();
		if (t < pg->next)
			return;
		pg->next = t + 1.0;
	}
	if (pg->total)
		fprintf(stderr, "\rgfxstat: %s: %s of %s (%.0f%%)%s", pg->name,
			cli_bytes(done, b1, sizeof(b1)), cli_bytes(pg->total, b2, sizeof(b2)),
			100.0 * (double)done / (double)pg->total, last ? "\n" : "");
	else
		fprintf(stderr, "\rgfxstat: %s: %s%s", pg->name, cli_bytes(done, b1, sizeof(b1)),
			last ? "\n" : "");
}

/*
 * Return: CLI_OK, CLI_INPUT, 1 when @feed asked to stop, or -1 when the file cannot be
 * mapped at all (the caller then reads it).
 */
static int map_fd(int fd, const struct stat *st, struct progress *pg,
		  int (*feed)(void *user, const void *buf, size_t n), void *user,
		  unsigned long long *bytes)
{
	off_t off = 0;

	while (off < st->st_size && !cli_stop_signal) {
		size_t len = (size_t)(st->st_size - off < MAP_WINDOW ? st->st_size - off
								    : MAP_WINDOW);
		void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, off);
		int stop;

		if (p == MAP_FAILED)
			return off ? CLI_INPUT : -1;
		posix_madvise(p, len, POSIX_MADV_SEQUENTIAL);
		posix_madvise(p, len, POSIX_MADV_WILLNEED);
		stop = feed(user, p, len);
		munmap(p, len);
		off += (off_t)len;
		*bytes += len;
		if (stop)
			return 1;
		progress_show(pg, (unsigned long long)off, 0);
	}
	/* the file may have grown while we read it: read() takes the rest */
	if (lseek(fd, off, SEEK_SET) != off)
		return CLI_INPUT;
	return CLI_OK;
}

static int read_fd(int fd, const char *name, char *buf,
		   int (*feed)(void *user, const void *buf, size_t n), void *user,
		   unsigned long long *bytes)
{
	struct progress pg = { 0, 0, 0, name };
	unsigned long long done = 0;
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		int rc;

		if (!cli_quiet && isatty(2) && st.st_size > (64 << 20)) {
			pg.on = 1;
			pg.total = (unsigned long long)st.st_size;
			pg.next = cli_now() + 1.0;
		}
		rc = map_fd(fd, &st, &pg, feed, user, bytes);
		if (rc == CLI_INPUT) {
			cli_error("cannot read '%s': %s", name, strerror(errno));
			return rc;
		}
		if (rc == 1)
			return CLI_OK;
		if (rc == CLI_OK)
			done = (unsigned long long)st.st_size;
	}
	while (!cli_stop_signal) {
		ssize_t n = read(fd, buf, CHUNK);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			cli_error("cannot read '%s': %s", name, strerror(errno));
			return CLI_INPUT;
		}
		if (n == 0)
			break;
		done += (unsigned long long)n;
		*bytes += (unsigned long long)n;
		if (feed(user, buf, (size_t)n))
			break;
		progress_show(&pg, done, 0);
	}
	if (pg.on && pg.next)
		progress_show(&pg, done, 1);
	return CLI_OK;
}

int cli_read_inputs(char **paths, int n, int (*feed)(void *user, const void *buf, size_t n),
		    int (*end_of_file)(void *user), void *user, unsigned long long *bytes)
{
	static char *stdin_only[] = { "-" };
	char *buf = malloc(CHUNK);
	int i, rc = CLI_OK;

	if (!buf) {
		cli_error("out of memory");
		return CLI_INPUT;
	}
	if (n == 0) {
		paths = stdin_only;
		n = 1;
	}
	for (i = 0; i < n && rc == CLI_OK && !cli_stop_signal; i++) {
		int is_stdin = strcmp(paths[i], "-") == 0;
		int fd = is_stdin ? 0 : open(paths[i], O_RDONLY);

		if (fd < 0) {
			cli_error("cannot open '%s': %s", paths[i], strerror(errno));
			rc = CLI_INPUT;
			break;
		}
#ifdef POSIX_FADV_SEQUENTIAL
		if (!is_stdin)
			posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
		rc = read_fd(fd, is_stdin ? "standard input" : paths[i], buf, feed, user, bytes);
		if (!is_stdin)
			close(fd);
		if (end_of_file(user))
			break;
	}
	free(buf);
	return rc;
}

/* mkdir -p: return 0 or an errno value. */
int cli_mkdir_p(const char *dir)
{
	char *p = strdup(dir), *s;
	int rc = 0;

	if (!p)
		return ENOMEM;
	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(p, 0777) && errno != EEXIST)
			rc = errno;
		*s = '/';
	}
	if (!rc && mkdir(p, 0777) && errno != EEXIST)
		rc = errno;
	free(p);
	return rc;
}

int cli_write_row(FILE *f, struct cli_rowbuf *b, cli_fmt_fn fmt, const void *row, int flush)
{
	size_t n = fmt(row, b->p, b->cap);

	if (n >= b->cap) {
		/* a long row (an info list, a long layer name): format again, big enough */
		char *np = realloc(b->p, n + 1);

		if (!np)
			return ENOMEM;
		b->p = np;
		b->cap = n + 1;
		fmt(row, b->p, b->cap);
	}
	if (fwrite(b->p, 1, n, f) != n || (flush && fflush(f)))
		return errno ? errno : EIO;
	return 0;
}

size_t cli_fmt_gfx_window(const void *w, char *buf, size_t cap)
{
	return gfxstat_gfx_window_csv(w, buf, cap);
}

size_t cli_fmt_gfx_drop(const void *d, char *buf, size_t cap)
{
	return gfxstat_gfx_drop_csv(d, buf, cap);
}

size_t cli_fmt_frame_csv(const void *f, char *buf, size_t cap)
{
	return gfxstat_frame_csv(f, buf, cap);
}

size_t cli_fmt_frame_json(const void *f, char *buf, size_t cap)
{
	return gfxstat_frame_json(f, buf, cap);
}
