/* SPDX-License-Identifier: MIT */
/* The CLI's shared pieces: exit codes, messages, option tables, input reading. */
#ifndef CLI_H
#define CLI_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

enum cli_exit {
	CLI_OK = 0,
	CLI_JANK = 1,   /* a --fail-if gate failed */
	CLI_USAGE = 2,  /* bad command line */
	CLI_INPUT = 3,  /* unreadable or unusable input */
	CLI_DEVICE = 4, /* device or adb failure */
	CLI_OUTPUT = 5, /* cannot write the results */
};

#if defined(__GNUC__)
#define CLI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CLI_PRINTF(a, b)
#endif

/* The exit status table every --help ends with (and the README and man pages repeat). */
extern const char cli_exit_table[];

extern int cli_quiet;
void cli_error(const char *fmt, ...) CLI_PRINTF(1, 2);
void cli_warn(const char *fmt, ...) CLI_PRINTF(1, 2);
void cli_info(const char *fmt, ...) CLI_PRINTF(1, 2);

/*
 * cli_shown() - @s as it may go to a terminal (tables, messages): control characters (ESC,
 * CR, DEL, the C1 controls) and bytes that are not UTF-8 as \x1b, UTF-8 text as it is. Valid
 * until the 8th call after (a few may share one printf()); @s itself when nothing needs it.
 * cli_shown_n() takes @n bytes, as a struct gfxstat_str holds them. Messages escape already.
 */
const char *cli_shown(const char *s);
const char *cli_shown_n(const char *s, size_t n);

/* "PATH: empty (0 bytes)": the same sentence in every command. Return: CLI_INPUT. */
int cli_empty_input(const char *path);
/*
 * cli_damaged() - after writing what could be read: @path lost data (@n ERROR-severity
 * counters, warned about above). The same sentence in every command. Return: CLI_INPUT.
 */
int cli_damaged(const char *path, unsigned long long n);
/* A file name given to @opt: NULL or non-empty, else a usage error. Return: 0 or CLI_USAGE. */
int cli_check_path(const char *opt, const char *path);

/* One option: the table drives both getopt_long and --help (git's parse-options). */
struct cli_opt {
	int id;               /* returned to the handler; a short option's letter if it has one */
	const char *long_name;
	const char *arg;      /* argument name for --help, NULL for a flag */
	const char *help;     /* NULL: another name for the entry before it (an alias) */
};

struct cli_cmd {
	const char *name;
	const char *usage;    /* "gfxstat gfx [options] [FILE|-]..." */
	const char *summary;  /* one line */
	const char *details;  /* printed after the options, may be NULL */
	const struct cli_opt *opts; /* ends with id 0 */
};

/*
 * cli_parse() - parse argv against cmd->opts, calling @fn for each option
 * Return: index of the first operand, or -1 after printing a usage error; -2 after --help.
 */
int cli_parse(const struct cli_cmd *cmd, int argc, char **argv,
	      int (*fn)(void *user, int id, const char *arg), void *user);
void cli_help(const struct cli_cmd *cmd, FILE *f);

/* Number arguments: return 0 or print an error naming the option and return -1. */
int cli_double(const char *opt, const char *s, double min, double max, double *out);
int cli_long(const char *opt, const char *s, long min, long max, long *out);
int cli_duration_ns(const char *opt, const char *s, long long scale_ns, long long *out);

/* Set by SIGINT, SIGTERM or SIGHUP once cli_catch_signals() ran. */
extern volatile sig_atomic_t cli_stop_signal;
void cli_catch_signals(void);
const char *cli_signal_name(int sig);
/*
 * cli_read_stopped() - a signal stopped the reading of @name after @done bytes: of a
 * @regular file of @size bytes, an interruption (said once); of a live stream, its end.
 * Return: 128 + the signal, or CLI_OK (also when no signal came).
 */
int cli_read_stopped(const char *name, int regular, unsigned long long done,
		     unsigned long long size);
/*
 * cli_interrupted() - whether a signal cut the run short (any but the one that ended a live
 * stream): then its results are incomplete and must not be written (said once).
 * Return: 128 + the signal, or 0.
 */
int cli_interrupted(void);

/*
 * cli_read_inputs() - feed every file (or standard input for "-" or none) to @feed,
 * calling @end_of_file after each. Stops early on a signal or when @feed fails.
 * Return: CLI_OK, CLI_INPUT after printing why a file could not be read, or 128 + the
 * signal after saying that one stopped the reading of a regular file before its end.
 */
int cli_read_inputs(char **paths, int n, int (*feed)(void *user, const void *buf, size_t n),
		    int (*end_of_file)(void *user), void *user, unsigned long long *bytes);

/* mkdir -p DIR. Return: 0, or an errno value. */
int cli_mkdir_p(const char *dir);
/* Where a long input's held frames wait past a few MB: $TMPDIR, else the system's place. */
const char *cli_tmpdir(void);
/* gfxstat_metrics_new() with the frames waiting for the end in cli_tmpdir() */
struct gfxstat_metrics_opts;
struct gfxstat_metrics *cli_metrics_new(const struct gfxstat_metrics_opts *o);
/* Threads an input's parsing may use: $GFXSTAT_THREADS, else 2 with two CPUs or more. */
int cli_threads(void);

/* A row formatter as the library's: snprintf-like, returns the length needed. */
typedef size_t (*cli_fmt_fn)(const void *row, char *buf, size_t cap);
size_t cli_fmt_gfx_window(const void *w, char *buf, size_t cap);
size_t cli_fmt_gfx_drop(const void *d, char *buf, size_t cap);
size_t cli_fmt_frame_csv(const void *f, char *buf, size_t cap);
size_t cli_fmt_frame_json(const void *f, char *buf, size_t cap);

/* A row buffer that grows to the longest row; free(p) when done. */
struct cli_rowbuf {
	char *p;
	size_t cap;
};

/*
 * cli_write_row() - format @row into @b (growing it) and write it to @f, flushed if @flush
 * Return: 0, or an errno value.
 */
int cli_write_row(FILE *f, struct cli_rowbuf *b, cli_fmt_fn fmt, const void *row, int flush);

/*
 * cli_grow_to() - make room in the array *@p of *@cap elements of @size for @need of them,
 * the capacity doubled (from @first the first time) until they fit; cli_grow(): @n used, room
 * for one more. Pass (void **)&arr for a plain object pointer arr only.
 * Return: 0, or -1 out of memory or past size_t (*@p and *@cap unchanged).
 */
int cli_grow_to(void **p, size_t *cap, size_t need, size_t size, size_t first);
int cli_grow(void **p, size_t *cap, size_t n, size_t size, size_t first);

/* Monotonic seconds, for timing and periodic work. */
double cli_now(void);

struct gfxstat_str;
/* Whether @s contains @want (the --layer filters). */
int cli_str_contains(struct gfxstat_str s, const char *want);
/* Whether @s is the package @want (the --app filters): exact, as analyze always did. */
int cli_str_is(struct gfxstat_str s, const char *want);

/* A JSON string literal of @s, escaped. */
void cli_json_str(FILE *o, const char *s);

/* Human-readable byte count, "1.23 GB". */
const char *cli_bytes(unsigned long long n, char *buf, size_t cap);

int cmd_gfx(int argc, char **argv);
int cmd_frames(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_stop(int argc, char **argv);
int cmd_pull(int argc, char **argv);

struct gfxstat_layer_metrics;
/* One layer's metrics as the JSON object `analyze --json` prints. */
void cli_json_layer(FILE *o, const struct gfxstat_layer_metrics *l);
/* The same object left open, for the caller to add fields and close with '}'. */
void cli_json_layer_open(FILE *o, const struct gfxstat_layer_metrics *l);
int cmd_inspect(int argc, char **argv);

#endif
