/* SPDX-License-Identifier: MIT */
/* Messages in git's grammar: "gfxstat: error: cannot open 'x': No such file or directory". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_quiet;

/*
 * The length of the UTF-8 character at @s (at most @n bytes) that a terminal shows as
 * text, or 0: a control character (C0, DEL, C1) or a byte that does not start a well-formed
 * one (overlong forms and surrogates included, as RFC 3629 has them).
 */
static size_t text_char(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len, i;
	unsigned char lo = 0x80, hi = 0xbf;

	if (c >= 0x20 && c < 0x7f)
		return 1;
	if (c < 0xc2 || c > 0xf4)
		return 0; /* C0, DEL, a stray continuation byte, an overlong lead, beyond U+10FFFF */
	len = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if (c == 0xc2)
		lo = 0xa0; /* U+0080..U+009F: the C1 controls (0x9b is a CSI to some terminals) */
	else if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

/* @s escaped into @b (grown as needed); 0, or -1 when out of memory. */
static int escape(const char *s, size_t n, char **b, size_t *cap)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0, o = 0;

	for (;;) {
		const unsigned char *u = (const unsigned char *)s + i;
		size_t k;

		if (o + 8 >= *cap) { /* room for the longest step and the terminator */
			size_t nc = *cap ? *cap * 2 : 256;
			char *np = realloc(*b, nc);

			if (!np)
				return -1;
			*b = np;
			*cap = nc;
		}
		if (i >= n)
			break;
		k = text_char(u, n - i);
		if (k) { /* at most 4 bytes: room is left */
			memcpy(*b + o, u, k);
			o += k;
			i += k;
		} else {
			(*b)[o++] = '\\';
			(*b)[o++] = 'x';
			(*b)[o++] = hex[*u >> 4];
			(*b)[o++] = hex[*u & 15];
			i++;
		}
	}
	(*b)[o] = 0;
	return 0;
}

/* Whether the @n bytes at @s can go to a terminal as they are. */
static int plain(const char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n) {
		k = text_char((const unsigned char *)s + i, n - i);
		if (!k)
			return 0;
		i += k;
	}
	return 1;
}

/* The last results, reused in turn: a few may be used in one printf(). */
#define RING 8
static struct {
	char *p;
	size_t cap;
} ring[RING];
static unsigned ring_next;

const char *cli_shown_n(const char *s, size_t n)
{
	unsigned i = ring_next++ % RING;

	if (!s || !n)
		return ""; /* an empty struct gfxstat_str may have no pointer */
	if (escape(s, n, &ring[i].p, &ring[i].cap))
		return "(out of memory)";
	return ring[i].p;
}

const char *cli_shown(const char *s)
{
	if (!s || plain(s, strlen(s)))
		return s ? s : "(null)";
	return cli_shown_n(s, strlen(s));
}

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	char small[512], *big = NULL;
	const char *text = small;
	va_list aq;
	int n;

	/* a file or layer name may hold ESC and other controls: never raw to the terminal */
	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, aq);
	va_end(aq);
	if (n >= (int)sizeof(small) && (big = malloc((size_t)n + 1))) {
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		text = big;
	} else if (n < 0) {
		text = fmt;
	}
	fputs("gfxstat: ", stderr);
	fputs(prefix, stderr);
	fputs(cli_shown(text), stderr);
	fputc('\n', stderr);
	free(big);
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
