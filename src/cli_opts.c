/* SPDX-License-Identifier: MIT */
/* Table-driven options: one table gives getopt_long its input and --help its text. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gfxstat/gfxstat.h"

#define MAX_OPTS 64

const char cli_exit_table[] =
	"exit status:\n"
	"  0  ok\n"
	"  1  a --fail-if gate failed (analyze, compare, trend)\n"
	"  2  usage: a bad command line\n"
	"  3  input: unreadable, damaged or truncated, or nothing found in it\n"
	"  4  device: adb or the phone failed\n"
	"  5  output: the results could not be written\n"
	"  130, 143  SIGINT, SIGTERM while a file was read: nothing written (a pipe ends cleanly)\n";

/* An entry with no help text is another name for the entry before it (gfx's seed letters). */
static const struct cli_opt *canonical(const struct cli_opt *opts, const struct cli_opt *o)
{
	while (!o->help && o > opts)
		o--;
	return o;
}

static int opt_left(const struct cli_opt *o, char *left, size_t cap, int with_arg)
{
	int n;

	if (o->id < 128)
		n = snprintf(left, cap, "-%c, ", o->id);
	else
		n = snprintf(left, cap, "    ");
	n += snprintf(left + n, cap - (size_t)n, "--%s%s%s", o->long_name,
		      with_arg && o->arg ? " " : "", with_arg && o->arg ? o->arg : "");
	return n;
}

void cli_help(const struct cli_cmd *cmd, FILE *f)
{
	const struct cli_opt *o, *a;

	fprintf(f, "usage: %s\n\n%s\n", cmd->usage, cmd->summary);
	if (cmd->opts && cmd->opts[0].id) {
		fputs("\noptions:\n", f);
		for (o = cmd->opts; o->id; o++) {
			char left[64];

			if (!o->help)
				continue;
			opt_left(o, left, sizeof(left), 1);
			if (strlen(left) > 26)
				fprintf(f, "  %s\n  %-26s  %s", left, "", o->help);
			else
				fprintf(f, "  %-26s  %s", left, o->help);
			for (a = o + 1; a->id && !a->help; a++) {
				char alias[64];

				opt_left(a, alias, sizeof(alias), 0);
				fprintf(f, "%s%s", a == o + 1 ? " (also " : ", ",
					alias[0] == ' ' ? alias + 4 : alias);
			}
			fputs(a == o + 1 ? "\n" : ")\n", f);
		}
	}
	if (cmd->details)
		fprintf(f, "\n%s", cmd->details);
	fprintf(f, "\n%s", cli_exit_table);
}

int cli_parse(const struct cli_cmd *cmd, int argc, char **argv,
	      int (*fn)(void *user, int id, const char *arg), void *user)
{
	struct option lo[MAX_OPTS + 2];
	char so[3 * MAX_OPTS + 4];
	size_t nl = 0, ns = 0;
	const struct cli_opt *o;
	int c;

	/* GNU order, as git and adb users expect: options anywhere ("analyze trace --json"),
	 * operands gathered after them, "--" ends the options */
	so[ns++] = ':'; /* report a missing argument as ':' */
	for (o = cmd->opts; o && o->id && nl < MAX_OPTS; o++) {
		lo[nl].name = o->long_name;
		lo[nl].has_arg = o->arg ? required_argument : no_argument;
		lo[nl].flag = NULL;
		lo[nl].val = canonical(cmd->opts, o)->id;
		nl++;
		if (o->id < 128) {
			so[ns++] = (char)o->id;
			if (o->arg)
				so[ns++] = ':';
		}
	}
	lo[nl].name = "help";
	lo[nl].has_arg = no_argument;
	lo[nl].flag = NULL;
	lo[nl].val = 'h';
	memset(&lo[nl + 1], 0, sizeof(lo[0]));
	so[ns++] = 'h';
	so[ns] = 0;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (c == 'h') {
			cli_help(cmd, stdout);
			return -2;
		}
		if (c == '?' || c == ':') {
			const char *what = argv[optind - 1];

			if (c == ':')
				cli_error("option '%s' needs a value", what);
			else if (optopt && optopt < 128)
				cli_error("unknown option '-%c'", optopt);
			else
				cli_error("unknown option '%s'", what);
			fprintf(stderr, "usage: %s\nTry '%s --help' for more.\n", cmd->usage,
				cmd->name);
			return -1;
		}
		/* a short alias: the handler sees the canonical option */
		for (o = cmd->opts; o->id; o++)
			if (o->id == c) {
				c = canonical(cmd->opts, o)->id;
				break;
			}
		if (fn(user, c, optarg))
			return -1;
	}
	return optind;
}

int cli_double(const char *opt, const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v) || v < min || v > max) {
		cli_error("%s takes a number from %g to %g, not '%s'", opt, min, max, s);
		return -1;
	}
	*out = v;
	return 0;
}

int cli_long(const char *opt, const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < min || v > max) {
		cli_error("%s takes a whole number from %ld to %ld, not '%s'", opt, min, max, s);
		return -1;
	}
	*out = v;
	return 0;
}

int cli_duration_ns(const char *opt, const char *s, long long scale_ns, long long *out)
{
	int64_t v;

	if (gfxstat_parse_decimal_ns(s, strlen(s), scale_ns, &v)) {
		cli_error("%s takes a non-negative decimal number, not '%s'", opt, s);
		return -1;
	}
	*out = v;
	return 0;
}
