/* SPDX-License-Identifier: MIT */
/*
 * The janky frames of a run grouped by the signature of their cause (gfxstat_cause.h): which
 * cause cost the most jank time. Ranked by total jank time, then frames, then signature, so
 * the order is the same on every run.
 *
 * What is shown of a cluster is its summary, and two signatures can read the same: gfxsim's
 * "sleeping|main|traversal > inflate|" and "sleeping|main|traversal > draw > Record
 * View#draw()|" are both "main thread sleeping in traversal (measure, layout, draw)", and a
 * headline "2 of 16 janky frames" under that phrase hid that 9 of the 16 read so. Clusters of
 * one summary are therefore merged for what is shown (gfxstat_cause_clusters_get()): their
 * frames and jank time add up, and the signature is that of their part ranked first. Merging,
 * not naming what differs in every summary, because the summaries come from several
 * producers (thread states, gfxinfo phases, FrameTimeline's bits, SurfaceFlinger), each of
 * which would have to keep its phrases one-to-one with its signatures; merging holds for any
 * phrase, and each frame's own line (--janky, the worst frames) still says the full path.
 */
#include <stdlib.h>

#include "../gx_local.h"
#include "gfxstat/gfxstat_cause.h"
#include "../produce/jank_class_local.h"

#define MAX_CLUSTERS 65536 /* past it, frames join the cluster "other causes" */

struct gfxstat_cause_clusters {
	struct gfxstat_cause_cluster *c;
	size_t n, cap;
	struct gx_strmap ix;
	int sorted;
	uint64_t frames;
	struct gfxstat_cause_cluster *m; /* get()'s: the clusters merged by summary */
};

struct gfxstat_cause_clusters *gfxstat_cause_clusters_new(void)
{
	struct gfxstat_cause_clusters *cc = calloc(1, sizeof(*cc));

	if (!cc)
		return NULL;
	if (gx_strmap_init(&cc->ix, MAX_CLUSTERS)) {
		free(cc);
		return NULL;
	}
	return cc;
}

void gfxstat_cause_clusters_free(struct gfxstat_cause_clusters *cc)
{
	if (!cc)
		return;
	free(cc->c);
	free(cc->m);
	gx_strmap_free(&cc->ix);
	free(cc);
}

static void copy_cstr(char *dst, const char *src, size_t cap)
{
	size_t n = strlen(src);

	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
}

int gfxstat_cause_clusters_add(struct gfxstat_cause_clusters *cc, enum gfxstat_cause_class cls,
			       const char *signature, const char *summary, int64_t jank_ns)
{
	int created = 0;
	long i;

	if (cc->sorted) {
		/* get() reordered the array: the map's indexes follow insertion, so rebuild it */
		size_t k;

		gx_strmap_free(&cc->ix);
		if (gx_strmap_init(&cc->ix, MAX_CLUSTERS))
			return GFXSTAT_E_NOMEM;
		for (k = 0; k < cc->n; k++)
			if (gx_strmap_add(&cc->ix, cc->c[k].signature, strlen(cc->c[k].signature),
					  &created) < 0)
				return GFXSTAT_E_NOMEM;
		cc->sorted = 0;
	}
	i = gx_strmap_add(&cc->ix, signature, strlen(signature), &created);
	if (i == GFXSTAT_E_LIMIT) {
		signature = "unknown|other causes";
		summary = "other causes";
		cls = GFXSTAT_CAUSE_UNKNOWN;
		i = gx_strmap_find(&cc->ix, signature, strlen(signature));
		if (i < 0) {
			/* the last slot is given to "other causes" */
			i = (long)cc->n - 1;
			copy_cstr(cc->c[i].signature, signature, sizeof(cc->c[i].signature));
			gx_cause_phrase(cc->c[i].summary, sizeof(cc->c[i].summary), summary,
					strlen(summary));
			cc->c[i].cls = cls;
		}
	} else if (i < 0) {
		return GFXSTAT_E_NOMEM;
	} else if (created) {
		if (gx_grow((void **)&cc->c, &cc->cap, cc->n, sizeof(*cc->c), 16))
			return GFXSTAT_E_NOMEM;
		memset(&cc->c[cc->n], 0, sizeof(cc->c[0]));
		cc->c[cc->n].cls = cls;
		copy_cstr(cc->c[cc->n].signature, signature, sizeof(cc->c[0].signature));
		/* the line under a headline shows it: a whole phrase, its brackets closed, even
		 * when a caller's is cut or too long */
		gx_cause_phrase(cc->c[cc->n].summary, sizeof(cc->c[0].summary), summary,
				strlen(summary));
		cc->n++;
	}
	cc->c[i].frames++;
	if (jank_ns == GFXSTAT_NS_NONE)
		cc->c[i].late_unknown++; /* how late is not known: said, never counted as 0 */
	else
		cc->c[i].jank_ns += jank_ns > 0 ? jank_ns : 0;
	cc->frames++;
	return 0;
}

static int cmp_cluster(const void *a, const void *b)
{
	const struct gfxstat_cause_cluster *x = a, *y = b;

	if (x->jank_ns != y->jank_ns)
		return x->jank_ns > y->jank_ns ? -1 : 1;
	if (x->frames != y->frames)
		return x->frames > y->frames ? -1 : 1;
	return strcmp(x->signature, y->signature);
}

size_t gfxstat_cause_clusters_get(struct gfxstat_cause_clusters *cc,
				  const struct gfxstat_cause_cluster **out)
{
	struct gx_strmap by;
	size_t k, nm = 0;

	if (cc->n > 1)
		qsort(cc->c, cc->n, sizeof(*cc->c), cmp_cluster);
	cc->sorted = 1;
	free(cc->m);
	cc->m = malloc((cc->n ? cc->n : 1) * sizeof(*cc->m));
	/* out of memory: the clusters by signature, unmerged, rather than none */
	if (!cc->m || gx_strmap_init(&by, MAX_CLUSTERS)) {
		free(cc->m);
		cc->m = NULL;
		*out = cc->c;
		return cc->n;
	}
	/* in rank order, so each merged cluster takes the signature (and class) of its part
	 * ranked first */
	for (k = 0; k < cc->n; k++) {
		const struct gfxstat_cause_cluster *x = &cc->c[k];
		int created = 0;
		long i = gx_strmap_add(&by, x->summary, strlen(x->summary), &created);

		if (i < 0) { /* no memory: this one stays on its own */
			cc->m[nm++] = *x;
			continue;
		}
		if (created) {
			cc->m[nm++] = *x;
			continue;
		}
		/* the map's indexes follow insertion, as the merged array's do while no add
		 * failed; a failed add (above) shifts them, so look for it */
		{
			size_t j = (size_t)i < nm ? (size_t)i : 0;

			while (j < nm && strcmp(cc->m[j].summary, x->summary))
				j++;
			if (j == nm) {
				cc->m[nm++] = *x;
				continue;
			}
			cc->m[j].frames += x->frames;
			cc->m[j].jank_ns += x->jank_ns;
			cc->m[j].late_unknown += x->late_unknown;
		}
	}
	gx_strmap_free(&by);
	if (nm > 1)
		qsort(cc->m, nm, sizeof(*cc->m), cmp_cluster);
	*out = cc->m;
	return nm;
}

uint64_t gfxstat_cause_clusters_frames(const struct gfxstat_cause_clusters *cc)
{
	return cc->frames;
}
