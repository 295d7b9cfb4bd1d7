/* SPDX-License-Identifier: MIT */
/* Messages in git's grammar: "gfxstat: error: cannot open 'x': No such file or directory". */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cli_quiet;

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	fputs("gfxstat: ", stderr);
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", fmt, ap);
	va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void cli_info(const char *fmt, ...)
{
	va_list ap;

	if (cli_quiet)
		return;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

static const char *name_of(const char *path)
{
	return strcmp(path, "-") ? path : "standard input";
}

int cli_empty_input(const char *path)
{
	cli_error("%s: empty (0 bytes): nothing to read", name_of(path));
	return CLI_INPUT;
}

int cli_damaged(const char *path, unsigned long long n)
{
	cli_error("%s: damaged or truncated (%llu problem%s, see the warnings above): the results "
		  "cover only what could be read", name_of(path), n, n == 1 ? "" : "s");
	return CLI_INPUT;
}

int cli_check_path(const char *opt, const char *path)
{
	if (path && !*path) {
		cli_error("%s needs a file name, not ''", opt);
		return CLI_USAGE;
	}
	return 0;
}

const char *cli_bytes(unsigned long long n, char *buf, size_t cap)
{
	if (n >= 1000000000ULL)
		snprintf(buf, cap, "%.2f GB", (double)n / 1e9);
	else if (n >= 1000000ULL)
		snprintf(buf, cap, "%.1f MB", (double)n / 1e6);
	else if (n >= 1000ULL)
		snprintf(buf, cap, "%.1f kB", (double)n / 1e3);
	else
		snprintf(buf, cap, "%llu B", n);
	return buf;
}
