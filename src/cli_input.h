/* SPDX-License-Identifier: MIT */
/*
 * What every command that reads recordings takes, expanded one way (cli_input.c): a file,
 * '-', a session folder of `gfxstat record` (its raw capture), a run folder of sessions
 * (`record --repeat`, `record --all`; an iteration marked failed is left out and named), or a
 * folder of recordings (every other file in it, one recording each). A recording is the
 * files read into one model; each recording is analysed on its own, never merged with another.
 * The expansion owns its strings; cli_inputs_free() releases them.
 */
#ifndef CLI_INPUT_H
#define CLI_INPUT_H

#include <stddef.h>

struct cli_input_file {
	char *path;     /* a file to read, or "-" */
	size_t rec;     /* the recording it belongs to: 0, 1, ... */
};

struct cli_inputs {
	struct cli_input_file *file; /* every file, in order, a recording's files together */
	size_t nfile;
	char **name;                 /* per recording: how it was given (its file or folder) */
	size_t nrec;
	char **failed;               /* iterations whose iteration.json says failed: left out */
	size_t nfailed;
};

/* Every file is a recording of its own (compare); else consecutive files are one recording. */
#define CLI_INPUTS_EACH_FILE 1u

/*
 * cli_inputs_expand() - expand @n operands into recordings
 * Return: 0, or CLI_INPUT after saying which folder holds no recording (@in is then empty).
 */
int cli_inputs_expand(char *const *ops, size_t n, unsigned flags, struct cli_inputs *in);
void cli_inputs_free(struct cli_inputs *in);

/* The raw capture of session folder @dir into @buf, or NULL when @dir is not a session. */
const char *cli_session_capture(const char *dir, char *buf, size_t cap);

/*
 * cli_inputs_one() - for a command that lists one recording's frames: CLI_OK when @in is
 * one recording, else CLI_USAGE after naming them (@cmd: "frames").
 */
int cli_inputs_one(const struct cli_inputs *in, const char *cmd);

/*
 * cli_inputs_argv() - for a command that reads its operands one by one: argv[@first..@argc)
 * with every folder replaced by the files of its recordings (kept until exit); with @one_cmd
 * (the command's name), more than one recording is a usage error (cli_inputs_one()).
 * Return: CLI_OK with *@argc and *@argv replaced, or the exit code after saying why.
 */
int cli_inputs_argv(int *argc, char ***argv, int first, const char *one_cmd);

#endif
