/* SPDX-License-Identifier: MIT */
/* The report's causes with their class and cluster keys: the verdict's top cause, the
 * timeline's colours. Kept apart from the cause texts (html_report.c), found the same way. */
#include <stdlib.h>

#include "gfxstat/gfxstat_cause.h"
#include "html_local.h"

static char *dup_s(const char *s)
{
	size_t n = strlen(s);
	char *d = malloc(n + 1);

	if (d)
		memcpy(d, s, n + 1);
	return d;
}

int gfxstat_html_cause_why(struct gfxstat_html *h, const struct gfxstat_frame *f,
			   const struct gfxstat_cause *c)
{
	struct gx_hwhy *y;
	long l;
	int rc = gfxstat_html_cause(h, f, c->text);

	if (rc)
		return rc;
	if (f->present_ns == GFXSTAT_NS_NONE && f->duration_ns == GFXSTAT_NS_NONE)
		return 0; /* as gfxstat_html_cause(): the metrics leave it out */
	/* the layer gfxstat_html_cause() has just found (or added) */
	l = f->present_ns == GFXSTAT_NS_NONE ? gx_strmap_find(&h->unames, f->layer.p, f->layer.n)
					     : gx_rstore_layer(&h->st, f);
	if (l < 0)
		return l == -1 ? 0 : (int)l;
	if (gx_grow((void **)&h->why, &h->capwhy, h->nwhy, sizeof(*h->why), 256))
		return GFXSTAT_E_NOMEM;
	y = &h->why[h->nwhy];
	y->layer = l;
	y->present = f->present_ns;
	y->ord = f->present_ns == GFXSTAT_NS_NONE ? h->ucount[l] : 0;
	y->cls = (int)c->cls;
	y->sig = dup_s(c->signature);
	y->summary = dup_s(c->summary);
	if (!y->sig || !y->summary) {
		free(y->sig);
		free(y->summary);
		return GFXSTAT_E_NOMEM;
	}
	h->nwhy++;
	h->why_sorted = 0;
	return 0;
}

void gx_html_why_free(struct gfxstat_html *h)
{
	size_t i;

	for (i = 0; i < h->nwhy; i++) {
		free(h->why[i].sig);
		free(h->why[i].summary);
	}
	free(h->why);
	h->why = NULL;
	h->nwhy = h->capwhy = 0;
}

static int cmp_why(const void *a, const void *b)
{
	const struct gx_hwhy *x = a, *y = b;

	if (x->layer != y->layer)
		return x->layer < y->layer ? -1 : 1;
	if (x->present != y->present)
		return x->present < y->present ? -1 : 1;
	return (x->ord > y->ord) - (x->ord < y->ord);
}

const struct gx_hwhy *gx_html_why_of(struct gfxstat_html *h, const char *name, int64_t present,
				     uint64_t ord)
{
	struct gx_hwhy key;

	if (!h->nwhy)
		return NULL;
	if (!h->why_sorted) {
		qsort(h->why, h->nwhy, sizeof(*h->why), cmp_why);
		h->why_sorted = 1;
	}
	key.layer = present == GFXSTAT_NS_NONE ? gx_strmap_find(&h->unames, name, strlen(name))
					       : gx_rstore_find(&h->st, name);
	key.present = present;
	key.ord = present == GFXSTAT_NS_NONE ? ord : 0;
	if (key.layer < 0)
		return NULL;
	return bsearch(&key, h->why, h->nwhy, sizeof(*h->why), cmp_why);
}

const char *gx_html_class_name(const struct gx_hwhy *y)
{
	return gfxstat_cause_class_name(y ? (enum gfxstat_cause_class)y->cls
					  : GFXSTAT_CAUSE_UNKNOWN);
}
