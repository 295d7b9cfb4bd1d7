/* SPDX-License-Identifier: MIT */
/*
 * Reading inputs: files or standard input, in large chunks, stoppable by a signal. Handlers
 * are installed without SA_RESTART so a blocked read() on a pipe returns at once and the
 * command can flush what it has: a stopped live capture loses nothing.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_input.h"
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
	unsigned long long done = 0, before = *bytes;
	struct stat st;
	int regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);

	if (regular) {
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
		done = *bytes - before; /* all of it, unless a signal stopped the mapping */
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
	/* a file read in part is an interruption; a live stream ends so */
	return cli_read_stopped(name, regular, done, regular ? (unsigned long long)st.st_size : 0);
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

const char *cli_tmpdir(void)
{
	const char *d = getenv("TMPDIR");

	if (d && *d)
		return d;
#ifdef __ANDROID__
	return "/data/local/tmp"; /* Android has no /tmp; the shell user may write here */
#else
	return "/tmp";
#endif
}

struct gfxstat_metrics *cli_metrics_new(const struct gfxstat_metrics_opts *o)
{
	struct gfxstat_metrics *m = gfxstat_metrics_new(o);

	if (m) /* a long recording's frames wait there, not in memory */
		gfxstat_metrics_set_tmpdir(m, cli_tmpdir());
	return m;
}

int cli_threads(void)
{
	static int n;
	const char *e = getenv("GFXSTAT_THREADS");
	long cpus;

	if (n)
		return n;
	if (e && *e) {
		char *end;
		long v = strtol(e, &end, 10);

		if (!*end && v >= 1 && v <= 1024)
			return n = (int)v;
		cli_warn("GFXSTAT_THREADS='%s' is not a number of threads (1 or more): ignored", e);
	}
	/* one decoding thread beside the caller's is all the library uses */
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	return n = cpus > 1 ? 2 : 1;
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

/* ---- recordings: files, session folders, run folders, folders of recordings ---------- */

static int is_dir(const char *p)
{
	struct stat st;

	return strcmp(p, "-") && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_reg(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

const char *cli_session_capture(const char *dir, char *buf, size_t cap)
{
	/* what cmd_record*.c and the phone side write, best first */
	static const char *const raw[] = { "trace.txt.gz", "trace.pftrace", "latency.txt.gz",
					   "gfxinfo.txt.gz", "gfxstat.pftrace", "trace.txt" };
	size_t i;

	for (i = 0; i < sizeof(raw) / sizeof(raw[0]); i++) {
		snprintf(buf, cap, "%s/%s", dir, raw[i]);
		if (is_reg(buf))
			return buf;
	}
	return NULL;
}

/* Whether iteration folder @dir says it failed (cmd_record_repeat.c writes iteration.json). */
static int iteration_failed(const char *dir)
{
	char p[4096], buf[4096];
	size_t n;
	FILE *f;

	snprintf(p, sizeof(p), "%s/iteration.json", dir);
	f = fopen(p, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return strstr(buf, "\"failed\":true") != NULL;
}

static int push_str(char ***v, size_t *n, const char *s)
{
	char *d = strdup(s), **nv = d ? realloc(*v, (*n + 1) * sizeof(**v)) : NULL;

	if (!nv) {
		free(d);
		return -1;
	}
	*v = nv;
	nv[(*n)++] = d;
	return 0;
}

/* @path as a file of recording @rec, a new recording when @fresh (named @name) */
static int add_file(struct cli_inputs *in, const char *path, int fresh, const char *name)
{
	struct cli_input_file *nf;

	if (fresh && push_str(&in->name, &in->nrec, name))
		return -1;
	nf = realloc(in->file, (in->nfile + 1) * sizeof(*nf));
	if (!nf)
		return -1;
	in->file = nf;
	nf[in->nfile].path = strdup(path);
	if (!nf[in->nfile].path)
		return -1;
	nf[in->nfile++].rec = in->nrec - 1;
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* what gfxstat and Macrobenchmark write beside recordings: never a recording */
static int not_recording(const char *name)
{
	static const char *const ext[] = { ".json", ".csv", ".log", ".md", ".xml", ".html.tmp" };
	size_t n = strlen(name), i;

	if (name[0] == '.')
		return 1;
	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		if (n > strlen(ext[i]) && !strcmp(name + n - strlen(ext[i]), ext[i]))
			return 1;
	return 0;
}

/* A folder that is not a session: its sessions (a run folder), else its files. */
static int add_folder(struct cli_inputs *in, const char *dir)
{
	char **names = NULL, p[4096], cap[4096];
	size_t nn = 0, i, before = in->nrec;
	int rc = 0, pass;
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d) {
		cli_error("cannot open '%s': %s", dir, strerror(errno));
		return CLI_INPUT;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    push_str(&names, &nn, e->d_name)) {
			rc = -1;
			break;
		}
	closedir(d);
	if (nn)
		qsort(names, nn, sizeof(*names), cmp_name);
	/* pass 0: session subfolders (a run folder); pass 1, only if none: the files */
	for (pass = 0; pass < 2 && !rc && in->nrec == before; pass++)
		for (i = 0; i < nn && !rc; i++) {
			snprintf(p, sizeof(p), "%s%s%s", dir,
				 dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/", names[i]);
			if (pass == 0 && is_dir(p) && cli_session_capture(p, cap, sizeof(cap))) {
				if (iteration_failed(p))
					rc = push_str(&in->failed, &in->nfailed, p);
				else
					rc = add_file(in, cap, 1, p);
			} else if (pass == 1 && is_reg(p) && !not_recording(names[i])) {
				rc = add_file(in, p, 1, p);
			}
		}
	for (i = 0; i < nn; i++)
		free(names[i]);
	free(names);
	if (rc) {
		cli_error("out of memory");
		return CLI_INPUT;
	}
	if (in->nrec == before && !in->nfailed) {
		cli_error("'%s' holds no recording: no session folder (with trace.txt.gz, "
			  "trace.pftrace, latency.txt.gz or gfxinfo.txt.gz), no run folder of "
			  "sessions and no file of a recording", dir);
		return CLI_INPUT;
	}
	return 0;
}

int cli_inputs_expand(char *const *ops, size_t n, unsigned flags, struct cli_inputs *in)
{
	char cap[4096];
	size_t i;
	int rc = 0, prev_file = 0;

	memset(in, 0, sizeof(*in));
	for (i = 0; i < n && !rc; i++) {
		if (!is_dir(ops[i])) {
			/* consecutive files are one recording in time order, as always */
			rc = add_file(in, ops[i], !prev_file || (flags & CLI_INPUTS_EACH_FILE), ops[i]);
			prev_file = 1;
			continue;
		}
		prev_file = 0;
		if (cli_session_capture(ops[i], cap, sizeof(cap))) {
			if (iteration_failed(ops[i]))
				cli_warn("%s: its iteration.json says it failed; read as given", ops[i]);
			rc = add_file(in, cap, 1, ops[i]);
		} else {
			rc = add_folder(in, ops[i]);
			if (rc == CLI_INPUT) {
				cli_inputs_free(in);
				return CLI_INPUT;
			}
		}
	}
	if (rc) {
		cli_error("out of memory");
		cli_inputs_free(in);
		return CLI_INPUT;
	}
	return 0;
}

void cli_inputs_free(struct cli_inputs *in)
{
	size_t i;

	for (i = 0; i < in->nfile; i++)
		free(in->file[i].path);
	for (i = 0; i < in->nrec; i++)
		free(in->name[i]);
	for (i = 0; i < in->nfailed; i++)
		free(in->failed[i]);
	free(in->file);
	free(in->name);
	free(in->failed);
	memset(in, 0, sizeof(*in));
}

int cli_inputs_one(const struct cli_inputs *in, const char *cmd)
{
	if (in->nrec <= 1)
		return CLI_OK;
	cli_error("%zu recordings given (%s, %s%s): %s lists one recording's frames, and two "
		  "recordings are never one timeline; give one, or use analyze or compare, which "
		  "read each on its own", in->nrec, in->name[0], in->name[1],
		  in->nrec > 2 ? ", ..." : "", cmd);
	return CLI_USAGE;
}

/* the expansions cli_inputs_argv() made, freed at exit (their strings are the new argv) */
static struct cli_inputs kept_inputs;
static char **kept_argv;

static void free_kept(void)
{
	cli_inputs_free(&kept_inputs);
	free(kept_argv);
	kept_argv = NULL;
}

int cli_inputs_argv(int *argc, char ***argv, int first, const char *one_cmd)
{
	struct cli_inputs in;
	char **nv;
	size_t i;
	int rc;

	rc = cli_inputs_expand(*argv + first, (size_t)(*argc - first), 0, &in);
	if (rc)
		return rc;
	if (!in.nrec) {
		cli_error("no recording: every iteration failed (%s%s)", in.failed[0],
			  in.nfailed > 1 ? ", ..." : "");
		cli_inputs_free(&in);
		return CLI_INPUT;
	}
	for (i = 0; i < in.nfailed; i++)
		cli_warn("%s: its iteration.json says it failed: left out", in.failed[i]);
	if (one_cmd && (rc = cli_inputs_one(&in, one_cmd))) {
		cli_inputs_free(&in);
		return rc;
	}
	nv = malloc(((size_t)first + in.nfile + 1) * sizeof(*nv));
	if (!nv) {
		cli_error("out of memory");
		cli_inputs_free(&in);
		return CLI_INPUT;
	}
	for (i = 0; i < (size_t)first; i++)
		nv[i] = (*argv)[i];
	for (i = 0; i < in.nfile; i++)
		nv[first + i] = in.file[i].path;
	nv[first + in.nfile] = NULL;
	if (kept_argv || kept_inputs.nfile)
		free_kept(); /* one command per process; a second call replaces the first */
	else
		atexit(free_kept);
	kept_inputs = in;
	kept_argv = nv;
	*argc = first + (int)in.nfile;
	*argv = nv;
	return CLI_OK;
}
