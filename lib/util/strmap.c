/* SPDX-License-Identifier: MIT */
/* String -> dense index map with interned keys; indexes are stable and in insertion order. */
#include <stdlib.h>

#include "../gx_local.h"

static uint64_t load64(const char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return w;
}

static uint64_t load32(const char *p)
{
	uint32_t w;

	memcpy(&w, p, 4);
	return w;
}

/*
 * The slots' hash: eight bytes at a time, a short tail as two overlapping loads (a marker's tid
 * or a layer name is looked up for every event), mixed once at the end since the slot is its
 * low bits. Only where a key sits depends on it: indexes stay in insertion order whatever the
 * hash, so byte order does not matter.
 */
static inline uint64_t key_hash(const char *p, size_t n)
{
	const uint64_t k = 0x9e3779b97f4a7c15ULL;
	uint64_t h = (uint64_t)n * k, w;
	size_t r = n;

	for (; r >= 8; p += 8, r -= 8)
		h = ((h ^ load64(p)) * k) ^ (h >> 29);
	if (r) {
		if (n >= 8) /* the last 8 bytes, overlapping the words before */
			w = load64(p + r - 8);
		else if (r >= 4)
			w = load32(p) | load32(p + r - 4) << 32;
		else
			w = (uint64_t)(unsigned char)p[0] | (uint64_t)(unsigned char)p[r / 2] << 8 |
			    (uint64_t)(unsigned char)p[r - 1] << 16;
		h = (h ^ w) * k;
	}
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ULL;
	return h ^ (h >> 32);
}

/* @a and @b of @n bytes are equal: short keys without a call */
static int same(const char *a, const char *b, size_t n)
{
	if (n > 16)
		return memcmp(a, b, n) == 0;
	if (n >= 8)
		return load64(a) == load64(b) && load64(a + n - 8) == load64(b + n - 8);
	if (n >= 4)
		return load32(a) == load32(b) && load32(a + n - 4) == load32(b + n - 4);
	while (n--)
		if (*a++ != *b++)
			return 0;
	return 1;
}

int gx_strmap_init(struct gx_strmap *m, size_t max_keys)
{
	memset(m, 0, sizeof(*m));
	m->max_keys = max_keys;
	m->nslots = 64;
	m->slots = calloc(m->nslots, sizeof(*m->slots));
	return m->slots ? 0 : GFXSTAT_E_NOMEM;
}

void gx_strmap_free(struct gx_strmap *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->keys[i].p);
	free(m->keys);
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

static int grow(struct gx_strmap *m)
{
	size_t ns = m->nslots * 2, i;
	uint32_t *s = calloc(ns, sizeof(*s));

	if (!s)
		return GFXSTAT_E_NOMEM;
	for (i = 0; i < m->n; i++) {
		size_t j = m->keys[i].hash & (ns - 1);

		while (s[j])
			j = (j + 1) & (ns - 1);
		s[j] = (uint32_t)(i + 1);
	}
	free(m->slots);
	m->slots = s;
	m->nslots = ns;
	return 0;
}

/* The index of @p (hash @h), or -1 with *@slot the empty slot that ends its probe. */
static inline long lookup(const struct gx_strmap *m, const char *p, size_t n, uint64_t h,
			   size_t *slot)
{
	size_t j = h & (m->nslots - 1);

	while (m->slots[j]) {
		const struct gx_strmap_key *k = &m->keys[m->slots[j] - 1];

		if (k->hash == h && k->n == n && same(k->p, p, n))
			return (long)m->slots[j] - 1;
		j = (j + 1) & (m->nslots - 1);
	}
	*slot = j;
	return -1;
}

long gx_strmap_find(const struct gx_strmap *m, const char *p, size_t n)
{
	size_t j;

	return lookup(m, p, n, key_hash(p, n), &j);
}

long gx_strmap_add(struct gx_strmap *m, const char *p, size_t n, int *created)
{
	uint64_t h = key_hash(p, n);
	size_t j = 0; /* lookup() sets it when the key is new */
	long i = lookup(m, p, n, h, &j);
	struct gx_strmap_key *k;

	if (created)
		*created = 0;
	if (i >= 0)
		return i;
	if (m->n >= m->max_keys)
		return GFXSTAT_E_LIMIT;
	if (gx_grow((void **)&m->keys, &m->cap, m->n, sizeof(*m->keys), 16))
		return GFXSTAT_E_NOMEM;
	k = &m->keys[m->n];
	k->p = malloc(n + 1);
	if (!k->p)
		return GFXSTAT_E_NOMEM;
	memcpy(k->p, p, n);
	k->p[n] = 0;
	k->n = n;
	k->hash = h;
	m->slots[j] = (uint32_t)(++m->n);
	if (m->n * 2 > m->nslots && grow(m)) {
		/* the key is in; a failed grow only leaves the table fuller */
	}
	if (created)
		*created = 1;
	return (long)m->n - 1;
}
