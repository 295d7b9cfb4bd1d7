/* SPDX-License-Identifier: MIT */
/*
 * Files the user names (-o, --junit, -F): written to a temporary file beside the target and
 * renamed over it once complete, so a full disk, an error or a signal leaves the previous
 * file as it was, never a truncated one.
 */
#ifndef CLI_OUTPUT_H
#define CLI_OUTPUT_H

#include <stdio.h>

struct cli_output {
	FILE *f;            /* write here */
	const char *path;   /* the file named, as given (messages) */
	char *target;       /* what the rename replaces: @path, or the file its symlink names */
	char *tmp;          /* the temporary file; NULL when written in place or to stdout */
	int slot;           /* in the list of temporary files a fatal signal removes, or -1 */
};

/*
 * Written in place, row by row, as before: the file of a live capture, which the user may
 * follow while it grows and which must hold every row when the capture is killed.
 */
#define CLI_OUT_LIVE 1

/*
 * cli_output_open() - open @path (NULL or "-": standard output) for writing. A regular file
 * (or a new one) goes through a temporary file in the same folder; a device, a FIFO or
 * @flags CLI_OUT_LIVE are written in place.
 * Return: 0, or an errno value (nothing printed, nothing created).
 */
int cli_output_open(struct cli_output *o, const char *path, int flags);

/*
 * cli_output_close() - with @keep, flush, sync and rename the temporary file over the
 * target; without it, on any error, or when a signal interrupted the run (cli_interrupted()),
 * remove the temporary file and leave the target as it was.
 * Return: 0, an errno value (nothing printed), or EINTR after an interruption.
 */
int cli_output_close(struct cli_output *o, int keep);

/* cli_output_open() that says why it failed. Return: CLI_OK, or CLI_OUTPUT. */
int cli_output_create(struct cli_output *o, const char *path, int flags);

/*
 * cli_output_finish() - cli_output_close() that says why it failed
 * Return: CLI_OK, CLI_OUTPUT, or 128 + the signal when the run was interrupted.
 */
int cli_output_finish(struct cli_output *o, int keep);

/* Whether @path ("-": standard input) is a live stream (a pipe, a FIFO, a terminal, a
 * device), which a signal ends cleanly, rather than a file with an end. */
int cli_input_is_live(const char *path);

#endif
