/* SPDX-License-Identifier: MIT */
/* Messages in git's grammar: "gfxstat: error: cannot open 'x': No such file or directory". */
#include <stdarg.h>
#include <stdio.h>

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
