/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: gfxstat_shell_quote(), the one way a string reaches the phone's shell. Any
 * input with a NUL is refused and leaves "" behind; any other is quoted within 4n + 3 bytes
 * and reads back as itself (gfxstat_shell_unquote() accepts only the grammar a shell reads
 * literally: bare [A-Za-z0-9_-./:,+@%], '...' and \'); one byte less room is refused, never
 * cut. The input is also tried as a word to unquote: whatever it accepts re-quotes to a word
 * that reads back the same.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gfxstat/gfxstat_capture.h"
#include "gfxstat/gfxstat_err.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (!(cond))                                                               \
			__builtin_trap();                                                  \
	} while (0)

#define MAX_IN 4096

/* Outside single quotes, only bare bytes and \' ; inside, anything but a quote. */
static void shape(const char *q, size_t n)
{
	size_t i = 0;

	while (i < n) {
		if (q[i] == '\'') {
			const char *end = memchr(q + i + 1, '\'', n - i - 1);

			CHECK(end);
			i = (size_t)(end - q) + 1;
		} else if (q[i] == '\\') {
			CHECK(i + 1 < n && q[i + 1] == '\'');
			i += 2;
		} else {
			CHECK(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				     "_-./:,+@%", q[i]) && q[i]);
			i++;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	size_t cap = 4 * size + 3, qn = 7, bn = 7;
	char *q, *back;
	int rc;

	if (size > MAX_IN)
		return 0;
	q = malloc(cap);
	back = malloc(size + 1);
	if (!q || !back) {
		free(q);
		free(back);
		return 0;
	}
	rc = gfxstat_shell_quote(s, size, q, cap, &qn);
	if (memchr(s, 0, size)) {
		CHECK(rc == GFXSTAT_E_INVAL && q[0] == 0 && qn == 0);
	} else {
		/* bare (itself) or quoted (at least two quotes more) */
		CHECK(rc == 0 && qn == strlen(q) && qn < cap);
		CHECK((qn == size && size > 0) || qn >= size + 2);
		shape(q, qn);
		CHECK(gfxstat_shell_unquote(q, qn, back, size + 1, &bn) == 0);
		CHECK(bn == size && !memcmp(back, s, size));
		/* exactly the room it needs: one byte less is refused, and leaves "" */
		CHECK(gfxstat_shell_quote(s, size, q, qn, NULL) == GFXSTAT_E_LIMIT && q[0] == 0);
	}
	/* the input as a word: what unquote accepts is the shape above, and round-trips */
	rc = gfxstat_shell_unquote(s, size, back, size + 1, &bn);
	if (rc == 0) {
		char *again = malloc(size + 1);
		size_t an = 0;

		shape(s, size);
		CHECK(bn <= size && !memchr(back, 0, bn));
		CHECK(gfxstat_shell_quote(back, bn, q, 4 * bn + 3, &qn) == 0);
		if (again) {
			CHECK(gfxstat_shell_unquote(q, qn, again, size + 1, &an) == 0);
			CHECK(an == bn && !memcmp(again, back, bn));
			free(again);
		}
	} else {
		CHECK(rc == GFXSTAT_E_INVAL || rc == GFXSTAT_E_LIMIT);
	}
	free(q);
	free(back);
	return 0;
}
