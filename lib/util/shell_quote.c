/* SPDX-License-Identifier: MIT */
/*
 * One word for a device's shell (gfxstat_capture.h): every string that reaches the phone's
 * `sh -c` through `adb shell` / `adb exec-out` goes through gfxstat_shell_quote(). POSIX sh
 * single quotes, as Android's mksh and toybox sh read them too: nothing between two single
 * quotes is special (no $, `, \, newline or glob), so the only byte to handle is the quote
 * itself, written '\'' (close, an escaped quote, reopen). A NUL byte cannot be in any argv
 * word: it is refused, never dropped or cut at, so what runs is exactly what was asked for.
 */
#include <string.h>

#include "gfxstat/gfxstat_capture.h"
#include "gfxstat/gfxstat_err.h"

/* Bytes a shell reads as themselves anywhere in a word (Python's shlex.quote set, less '='
 * so that a word never reads as an assignment): such a word is left bare, for readable logs. */
static int bare(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("_-./:,+@%", c));
}

int gfxstat_shell_quote(const char *s, size_t n, char *out, size_t cap, size_t *len)
{
	size_t i, k = 0, need = 0;
	int all_bare = n > 0;

	if (len)
		*len = 0;
	if (cap)
		out[0] = 0;
	if (n && memchr(s, 0, n))
		return GFXSTAT_E_INVAL;
	for (i = 0; i < n; i++) {
		all_bare = all_bare && bare((unsigned char)s[i]);
		need += s[i] == '\'' ? 4 : 1;
	}
	need = all_bare ? n : need + 2;
	if (need >= cap)
		return GFXSTAT_E_LIMIT;
	if (all_bare) {
		memcpy(out, s, n);
		k = n;
	} else {
		out[k++] = '\'';
		for (i = 0; i < n; i++) {
			if (s[i] == '\'') {
				memcpy(out + k, "'\\''", 4);
				k += 4;
			} else {
				out[k++] = s[i];
			}
		}
		out[k++] = '\'';
	}
	out[k] = 0;
	if (len)
		*len = k;
	return 0;
}

int gfxstat_shell_unquote(const char *w, size_t n, char *out, size_t cap, size_t *len)
{
	size_t i = 0, k = 0;

	if (len)
		*len = 0;
	if (cap)
		out[0] = 0;
	/* a NUL is in no word quote writes, and would cut the C string the caller gets */
	if (!n || memchr(w, 0, n))
		return GFXSTAT_E_INVAL;
	while (i < n) {
		if (w[i] == '\'') {
			const char *end = memchr(w + i + 1, '\'', n - i - 1);
			size_t m;

			if (!end)
				return GFXSTAT_E_INVAL;
			m = (size_t)(end - (w + i + 1));
			if (k + m >= cap)
				return GFXSTAT_E_LIMIT;
			memcpy(out + k, w + i + 1, m);
			k += m;
			i += m + 2;
		} else if (w[i] == '\\' && i + 1 < n && w[i + 1] == '\'') {
			if (k + 1 >= cap)
				return GFXSTAT_E_LIMIT;
			out[k++] = '\'';
			i += 2;
		} else if (bare((unsigned char)w[i])) {
			if (k + 1 >= cap)
				return GFXSTAT_E_LIMIT;
			out[k++] = w[i++];
		} else {
			return GFXSTAT_E_INVAL;
		}
	}
	if (k >= cap)
		return GFXSTAT_E_LIMIT;
	out[k] = 0;
	if (len)
		*len = k;
	return 0;
}
