/* SPDX-License-Identifier: MIT */
/* gfxstat: the command dispatcher. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd_compare.h"
#include "cmd_gfxinfo.h"
#include "cmd_history.h"
#include "cmd_perfetto.h"
#include "cmd_report.h"
#include "cmd_unwrap.h"
#include "gfxstat/gfxstat.h"

/* the commit the build was made from: mk/install.mk passes it; "unknown" outside git */
#ifndef GFXSTAT_COMMIT
#define GFXSTAT_COMMIT "unknown"
#endif

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "analyze", cmd_analyze, "frame rate and jank per layer and app, by every tool's definition" },
	{ "compare", cmd_compare, "BASE against NEW: difference, 95 % interval, verdict; gates" },
	{ "devices", cmd_devices, "attached phones: model, Android version, refresh, tracing" },
	{ "export", cmd_export, "frames as Trace Event JSON for Perfetto UI and chrome://tracing" },
	{ "frames", cmd_frames, "every frame of every layer, from any supported input" },
	{ "gfx", cmd_gfx, "per-surface FPS windows from atrace gfx text (android_FPS_frome_GFX)" },
	{ "gfxinfo", cmd_gfxinfo, "dumpsys gfxinfo summaries recomputed from the framestats rows" },
	{ "history", cmd_history, "the saved runs: when, label, device, each app's FPS and jank" },
	{ "inspect", cmd_inspect, "what an input is: format, Android version, refresh rate, layers" },
	{ "latency", cmd_latency, "frames from dumpsys SurfaceFlinger --latency polls, stitched" },
	{ "perfetto-dump", cmd_perfetto_dump,
	  "what the Perfetto decoder finds in a protobuf trace (developer)" },
	{ "pull", cmd_pull, "fetch a session recorded on the phone" },
	{ "record", cmd_record, "measure a phone over adb, live, from the best source it allows" },
	{ "report", cmd_report, "one self-contained HTML report with charts, from any input" },
	{ "stop", cmd_stop, "end a recording started with record --on-device" },
	{ "trend", cmd_trend, "one metric of one app over labels, versions or days" },
	{ "unwrap", cmd_unwrap, "decode systrace HTML, atrace -z, gzip or UTF-16 to trace text" },
};

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: gfxstat [--version] [--help] [<options>] <command> [<args>]\n\n"
	      "Frame rate and jank of Android apps, from traces and dumps.\n\ncommands:\n", f);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-14s %s\n", commands[i].name, commands[i].summary);
	fputs("\noptions:\n"
	      "  -h, --help       this text; 'gfxstat <command> --help' (or 'gfxstat help\n"
	      "                   <command>') describes a command\n"
	      "  -V, --version    the version and the git commit it was built from\n"
	      "  <options>        a command's options may come before it too: 'gfxstat -q\n"
	      "                   analyze X' is 'gfxstat analyze -q X'\n"
	      "\nAn INPUT may be systrace HTML or a systrace .zip, atrace -z, gzip, UTF-16,\n"
	      "ftrace text, Perfetto, dumpsys gfxinfo or SurfaceFlinger --latency; '-' is\n"
	      "standard input.\n\n"
	      "environment:\n"
	      "  TMPDIR  where a long recording's frames wait for its end, and are sorted, once\n"
	      "          they pass a few MB (a file with no name, gone when gfxstat ends);\n"
	      "          default /tmp; where none can be written, they stay in memory\n"
	      "  GFXSTAT_THREADS  threads a trace's parsing may use (Perfetto, and long ftrace\n"
	      "          text): 1 keeps it to one; default 2 where there are two CPUs or more\n"
	      "          (the outputs are the same)\n\n", f);
	fputs(cli_exit_table, f);
}

static const struct command *command_of(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

/*
 * Options may come before the command too ('gfxstat -q analyze X', as a shell alias or a
 * script's prefix puts them): the first word that names a command is the command, and the
 * words before it are its first arguments.
 */
static int options_first(int argc, char **argv)
{
	const struct command *c = NULL;
	char *cmd;
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if ((c = command_of(argv[i])))
			break;
	if (!c) {
		cli_error("'%s' comes before any command; give a command, e.g. 'gfxstat analyze "
			  "%s FILE' (see 'gfxstat --help')", argv[1], argv[1]);
		return CLI_USAGE;
	}
	/* argv's own array is the program's to change: the command moves to its front */
	cmd = argv[i];
	memmove(argv + 2, argv + 1, (size_t)(i - 1) * sizeof(*argv));
	argv[1] = cmd;
	return c->fn(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		usage(stderr);
		return CLI_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		/* 'gfxstat help analyze', 'gfxstat --help analyze': the command's own help */
		if (argc > 2 && (c = command_of(argv[2]))) {
			char *sub[] = { argv[2], "--help", NULL };

			return c->fn(2, sub);
		}
		usage(stdout);
		return CLI_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("gfxstat %s (commit %s)\n", GFXSTAT_VERSION, GFXSTAT_COMMIT);
		return CLI_OK;
	}
	if (argv[1][0] == '-' && argv[1][1])
		return options_first(argc, argv);
	c = command_of(argv[1]);
	if (c)
		return c->fn(argc - 1, argv + 1);
	cli_error("'%s' is not a gfxstat command; see 'gfxstat --help'", argv[1]);
	return CLI_USAGE;
}
