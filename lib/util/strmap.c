/* SPDX-License-Identifier: MIT */
/* String -> dense index map with interned keys; indexes are stable and in insertion order. */
#include <stdlib.h>

#include "../gx_local.h"

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

long gx_strmap_find(const struct gx_strmap *m, const char *p, size_t n)
{
	uint64_t h = gx_hash(p, n);
	size_t j = h & (m->nslots - 1);

	while (m->slots[j]) {
		const struct gx_strmap_key *k = &m->keys[m->slots[j] - 1];

		if (k->hash == h && k->n == n && memcmp(k->p, p, n) == 0)
			return (long)m->slots[j] - 1;
		j = (j + 1) & (m->nslots - 1);
	}
	return -1;
}

long gx_strmap_add(struct gx_strmap *m, const char *p, size_t n, int *created)
{
	long i = gx_strmap_find(m, p, n);
	struct gx_strmap_key *k;
	size_t j;

	if (created)
		*created = 0;
	if (i >= 0)
		return i;
	if (m->n >= m->max_keys)
		return GFXSTAT_E_LIMIT;
	if (m->n == m->cap) {
		size_t nc = m->cap ? m->cap * 2 : 16;
		struct gx_strmap_key *nk = realloc(m->keys, nc * sizeof(*nk));

		if (!nk)
			return GFXSTAT_E_NOMEM;
		m->keys = nk;
		m->cap = nc;
	}
	k = &m->keys[m->n];
	k->p = malloc(n + 1);
	if (!k->p)
		return GFXSTAT_E_NOMEM;
	memcpy(k->p, p, n);
	k->p[n] = 0;
	k->n = n;
	k->hash = gx_hash(p, n);
	j = k->hash & (m->nslots - 1);
	while (m->slots[j])
		j = (j + 1) & (m->nslots - 1);
	m->slots[j] = (uint32_t)(++m->n);
	if (m->n * 2 > m->nslots && grow(m)) {
		/* the key is in; a failed grow only leaves the table fuller */
	}
	if (created)
		*created = 1;
	return (long)m->n - 1;
}
