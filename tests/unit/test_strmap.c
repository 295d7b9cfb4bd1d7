/* SPDX-License-Identifier: MIT */
/*
 * The interned string map (lib/util/strmap.c): indexes in insertion order, whatever the hash;
 * keys that differ in one byte anywhere (the word-at-a-time hash and compare read a short key
 * as two overlapping loads) stay apart.
 */
#include <stdlib.h>

#include "check.h"
#include "../../lib/gx_local.h"

/* A key of @n bytes, all 'a' but byte @at set to @c (@at >= @n: none changed). */
static void key(char *b, size_t n, size_t at, char c)
{
	memset(b, 'a', n);
	if (at < n)
		b[at] = c;
}

TEST(one_byte_apart)
{
	struct gx_strmap m;
	char b[48];
	size_t n, at;
	long want = 0;
	int created = 0, all_new = 1, all_found = 1;

	CHECK_EQ(gx_strmap_init(&m, 100000), 0);
	/* every length 0..40, and for each, the key with one byte changed at each place: all
	 * distinct keys, so each is new and gets the next index */
	for (n = 0; n <= 40; n++) {
		for (at = 0; at <= n; at++) {
			key(b, n, at, 'b');
			if (gx_strmap_add(&m, b, n, &created) != want || !created)
				all_new = 0;
			want++;
		}
	}
	CHECK(all_new);
	CHECK_EQ((long)m.n, want);
	/* found again at the same index, from another buffer (not the key's own bytes) */
	want = 0;
	for (n = 0; n <= 40; n++) {
		for (at = 0; at <= n; at++) {
			char *copy = malloc(n + 1);

			key(copy, n, at, 'b');
			if (gx_strmap_find(&m, copy, n) != want ||
			    gx_strmap_add(&m, copy, n, &created) != want || created)
				all_found = 0;
			free(copy);
			want++;
		}
	}
	CHECK(all_found);
	/* 'c' in place of 'b' is in no key: a miss at every length and place */
	key(b, 17, 9, 'c');
	CHECK_EQ(gx_strmap_find(&m, b, 17), -1);
	key(b, 5, 4, 'c');
	CHECK_EQ(gx_strmap_find(&m, b, 5), -1);
	key(b, 3, 1, 'c');
	CHECK_EQ(gx_strmap_find(&m, b, 3), -1);
	/* the stored copies, NUL-terminated: the order above gives "" (length 0), then for
	 * length 1 "b" (byte 0 changed) and "a" (none changed) */
	CHECK_EQ(m.keys[0].n, 0);
	CHECK(strcmp(m.keys[1].p, "b") == 0);
	CHECK(strcmp(m.keys[2].p, "a") == 0);
	gx_strmap_free(&m);
}

TEST(ids_and_limit)
{
	struct gx_strmap m;
	int32_t id;
	int ok = 1;

	/* 4-byte ids as jank_cause.c keys its threads: 5000 of them, past many grows */
	CHECK_EQ(gx_strmap_init(&m, 5000), 0);
	for (id = 0; id < 5000; id++)
		if (gx_strmap_add(&m, (const char *)&id, sizeof(id), NULL) != id)
			ok = 0;
	for (id = 4999; id >= 0; id--)
		if (gx_strmap_find(&m, (const char *)&id, sizeof(id)) != id)
			ok = 0;
	CHECK(ok);
	id = 5000;
	CHECK_EQ(gx_strmap_find(&m, (const char *)&id, sizeof(id)), -1);
	CHECK_EQ(gx_strmap_add(&m, (const char *)&id, sizeof(id), NULL), GFXSTAT_E_LIMIT);
	id = 17;
	CHECK_EQ(gx_strmap_add(&m, (const char *)&id, sizeof(id), NULL), 17); /* full, but known */
	gx_strmap_free(&m);
}

TEST_SUITE(test_strmap)
{
	RUN(one_byte_apart);
	RUN(ids_and_limit);
}
