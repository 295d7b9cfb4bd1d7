/* SPDX-License-Identifier: MIT */
/*
 * Refresh period from VSYNC counter toggles. Each toggle is one vsync, but software vsyncs
 * only tick while something draws and can skip (an app drawing at 30 fps on a 60 Hz panel
 * toggles VSYNC-app every 33 ms), so the period is the recurring interval that most others
 * are whole multiples of, not the median of all. HW_VSYNC toggles, when present, tick on
 * every panel vsync and are preferred.
 */
#include <stdlib.h>

#include "produce_local.h"

#define DET_MAX 128
#define DET_MIN 3                                /* fewest intervals we will trust */
#define DET_IDLE_NS (100 * GFXSTAT_NSEC_PER_MSEC) /* longer gaps are idle, not periods */

enum { FAM_HW, FAM_APP, FAM_SF, FAM_COUNT };

static const char *const fam_names[FAM_COUNT] = { "HW_VSYNC", "VSYNC-app", "VSYNC-sf" };

struct family {
	int64_t last;
	int has_last;
	unsigned n;
	int64_t iv[DET_MAX];
};

struct gfxstat_vsync_detect {
	struct family fam[FAM_COUNT];
	int64_t first_ts;
	int has_first;
};

struct gfxstat_vsync_detect *gfxstat_vsync_detect_new(void)
{
	return calloc(1, sizeof(struct gfxstat_vsync_detect));
}

void gfxstat_vsync_detect_free(struct gfxstat_vsync_detect *d)
{
	free(d);
}

static int family_of(const char *s, size_t n)
{
	if (n > 9 && memcmp(s, "HW_VSYNC_", 9) == 0 && gx_isdigit(s[9]))
		return FAM_HW;
	if ((n == 9 && memcmp(s, "VSYNC-app", 9) == 0) || (n == 5 && memcmp(s, "VSYNC", 5) == 0))
		return FAM_APP;
	if (n == 8 && memcmp(s, "VSYNC-sf", 8) == 0)
		return FAM_SF;
	return -1;
}

int gfxstat_vsync_detect_add(struct gfxstat_vsync_detect *d, const char *name, size_t n,
			     int64_t ts_ns)
{
	int fi = family_of(name, n);
	struct family *f;

	if (fi < 0)
		return 0;
	f = &d->fam[fi];
	if (!d->has_first) {
		d->first_ts = ts_ns;
		d->has_first = 1;
	}
	if (f->has_last && ts_ns > f->last && ts_ns - f->last <= DET_IDLE_NS && f->n < DET_MAX)
		f->iv[f->n++] = ts_ns - f->last;
	f->last = ts_ns;
	f->has_last = 1;
	if (d->fam[FAM_HW].n >= 32 || d->fam[FAM_APP].n >= 120 || d->fam[FAM_SF].n >= 120)
		return 1;
	if (ts_ns - d->first_ts >= 2 * GFXSTAT_NSEC_PER_SEC) {
		for (fi = 0; fi < FAM_COUNT; fi++)
			if (d->fam[fi].n >= 8)
				return 1;
	}
	return 0;
}

/* @d is @c or a whole multiple of it, within 12 % of @c: a toggle that skipped vsyncs */
static int supports(int64_t d, int64_t c)
{
	int64_t k = (d + c / 2) / c;

	return k >= 1 && llabs(d - k * c) <= c * 12 / 100;
}

/*
 * The period: among the intervals that recur (at least 2, and a fifth of them, within 12 %
 * of each other), the one that explains the most intervals as whole multiples of it, the
 * shorter on a tie; then the mean of its cluster. One early vsync (a 10.6 ms interval in a
 * 60 Hz trace) recurs too rarely to decide, and software vsyncs that skip (22.2 ms gaps at
 * 90 Hz) still count for the period they are multiples of.
 */
int64_t gx_cluster_mean(const int64_t *iv, unsigned n)
{
	int64_t v[GX_CLUSTER_MAX], best = 0, sum = 0;
	unsigned i, j, k = 0, best_support = 0, need;

	if (!n)
		return 0;
	if (n > GX_CLUSTER_MAX)
		n = GX_CLUSTER_MAX;
	memcpy(v, iv, n * sizeof(v[0]));
	qsort(v, n, sizeof(v[0]), gx_cmp_i64);
	need = n / 5 > 2 ? n / 5 : 2;
	for (i = 0; i < n; i++) {
		unsigned near = 0, support = 0;

		if (v[i] <= 0 || (i && v[i] == v[i - 1]))
			continue;
		for (j = 0; j < n; j++) {
			near += llabs(v[j] - v[i]) <= v[i] * 12 / 100;
			support += supports(v[j], v[i]);
		}
		if (near >= need && support > best_support) {
			best = v[i];
			best_support = support;
		}
	}
	if (!best) /* nothing recurs: the 10th percentile, not the minimum */
		best = v[n / 10];
	for (i = 0; i < n; i++) {
		if (llabs(v[i] - best) <= best * 15 / 100) {
			sum += v[i];
			k++;
		}
	}
	return (sum + k / 2) / k;
}

int64_t gfxstat_vsync_detect_result(const struct gfxstat_vsync_detect *d, const char **source,
				    unsigned *intervals)
{
	int fi, best = -1;

	for (fi = 0; fi < FAM_COUNT && best < 0; fi++)
		if (d->fam[fi].n >= 8)
			best = fi;
	for (fi = 0; fi < FAM_COUNT && best < 0; fi++)
		if (d->fam[fi].n >= DET_MIN)
			best = fi;
	if (source)
		*source = best < 0 ? NULL : fam_names[best];
	if (intervals)
		*intervals = best < 0 ? 0 : d->fam[best].n;
	return best < 0 ? 0 : gx_cluster_mean(d->fam[best].iv, d->fam[best].n);
}
