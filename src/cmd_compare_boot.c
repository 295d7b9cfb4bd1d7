/* SPDX-License-Identifier: MIT */
/*
 * gfxstat compare, fewer than 3 recordings a side: Welch's t over segments of time (the
 * default), or the block bootstrap (--method block), both over the library's metrics. Every
 * segment and block is cut from one recording: frames of two recordings never share one.
 */
#include <math.h>
#include <stdlib.h>

#include "cli.h"
#include "cli_gate.h"
#include "cmd_compare.h"

/* Frames [from, to) of one recording's key: a block or a segment. */
struct span {
	const struct keyed_frames *k;
	size_t from, to;
};

static int cmp_present(const void *a, const void *b)
{
	const struct gfxstat_frame *x = a, *y = b;

	return x->present_ns < y->present_ns ? -1 : x->present_ns > y->present_ns;
}

static void sort_key(struct keyed_frames *k)
{
	if (!k->sorted && k->n)
		qsort(k->f, k->n, sizeof(*k->f), cmp_present);
	k->sorted = 1;
}

static void shift(int64_t *t, int64_t d)
{
	if (*t != GFXSTAT_NS_NONE && *t > 0)
		*t += d;
}

static int64_t period_of(const struct gfxstat_frame *f)
{
	return f->vsync_period_ns > 0 ? f->vsync_period_ns : 16666667;
}

/*
 * Every metric of @nsp spans laid end to end into @out (CLI_M_COUNT values): each frame keeps
 * its own interval to the frame before it in its recording (0 for another layer of the app in
 * the same vsync, which the library then merges as it merges an app's layers); a span's first
 * frame keeps its gap to the frame before it, so every layer's presents still increase.
 */
static int resample(const struct compare *c, const struct span *sp, size_t nsp, double *out)
{
	struct gfxstat_metrics_opts mo;
	struct gfxstat_metrics *m;
	const struct gfxstat_layer_metrics *l = NULL;
	int64_t t = 0;
	size_t b, i, n;
	int rc = 0, j, first = 1;

	gfxstat_metrics_opts_init(&mo);
	m = cli_metrics_new(&mo);
	if (!m)
		return GFXSTAT_E_NOMEM;
	for (b = 0; b < nsp && !rc; b++) {
		const struct gfxstat_frame *kf = sp[b].k->f;

		for (i = sp[b].from; i < sp[b].to && !rc; i++) {
			struct gfxstat_frame f = kf[i];
			int64_t iv = i ? f.present_ns - kf[i - 1].present_ns : period_of(&f), d;

			if (first)
				t = f.present_ns;
			else if (i == sp[b].from)
				t += iv > 0 ? iv : period_of(&f);
			else
				t += iv > 0 ? iv : 0;
			first = 0;
			d = t - f.present_ns;
			f.present_ns = t;
			f.interval_ns = GFXSTAT_NS_NONE;
			shift(&f.latch_ns, d);
			shift(&f.desired_present_ns, d);
			shift(&f.expected_start_ns, d);
			shift(&f.expected_end_ns, d);
			shift(&f.actual_start_ns, d);
			shift(&f.actual_end_ns, d);
			for (j = GFXSTAT_FI_INTENDED_VSYNC; j < GFXSTAT_FI_COUNT; j++)
				if (j != GFXSTAT_FI_INPUT_EVENT_ID && j != GFXSTAT_FI_FRAME_INTERVAL &&
				    j != GFXSTAT_FI_DEQUEUE_BUFFER_DURATION &&
				    j != GFXSTAT_FI_QUEUE_BUFFER_DURATION)
					shift(&f.fi[j], d);
			rc = gfxstat_metrics_frame(m, &f);
		}
	}
	if (!rc)
		rc = gfxstat_metrics_finish(m);
	n = rc ? 0 : gfxstat_metrics_count(m);
	for (i = 0; i < n; i++) {
		const struct gfxstat_layer_metrics *r = gfxstat_metrics_get(m, i);

		if (!l || r->is_app == !c->layer)
			l = r;
	}
	for (j = 0; j < CLI_M_COUNT; j++)
		out[j] = l ? cli_metric_value(l, j) : NAN;
	gfxstat_metrics_free(m);
	return rc;
}

/* @k's frames (sorted) cut into blocks of @len ns, appended to *@sp (grown): return the number
 * of blocks, or 0 when out of memory. */
static size_t blocks(int64_t len, struct keyed_frames *k, struct span **sp, size_t *nsp)
{
	int64_t t0, span;
	size_t nb, b, i = 0;
	struct span *ns;

	sort_key(k);
	t0 = k->f[0].present_ns;
	span = k->f[k->n - 1].present_ns - t0;
	nb = (size_t)(span / len) + 1;
	ns = realloc(*sp, (*nsp + nb) * sizeof(*ns));
	if (!ns)
		return 0;
	*sp = ns;
	for (b = 0; b < nb; b++) {
		/* a block starts at its first frame at or after t0 + b x len: frames presented at
		 * one instant (an app's layers) stay in one block */
		while (i < k->n && k->f[i].present_ns < t0 + (int64_t)b * len)
			i++;
		ns[*nsp + b].k = k;
		ns[*nsp + b].from = i;
	}
	for (b = 0; b < nb; b++)
		ns[*nsp + b].to = b + 1 < nb ? ns[*nsp + b + 1].from : k->n;
	*nsp += nb;
	return nb;
}

/* The recordings of @ks whose key has 2 frames or more. */
static size_t usable(const struct key_side *ks)
{
	size_t q, n = 0;

	for (q = 0; q < ks->n; q++)
		n += ks->k[q] && ks->k[q]->n >= 2;
	return n;
}

/* Block bootstrap: c->resamples draws a side, with replacement, of as many blocks as the
 * side has (the blocks of its recordings together), each laid end to end. */
int cmp_boot_key(const struct compare *c, const struct key_side *kb, const struct key_side *kn,
		 struct result *res)
{
	struct span *pool[2] = { NULL, NULL }, *draw_sp = NULL;
	size_t npool[2] = { 0, 0 }, *draw = NULL, r, q, most;
	double *d = malloc((size_t)c->resamples * CLI_M_COUNT * sizeof(*d)), v[2][CLI_M_COUNT];
	double *col = malloc((size_t)c->resamples * sizeof(*col));
	const struct key_side *ks[2] = { kb, kn };
	struct gfxstat_rng rng;
	int rc = GFXSTAT_E_NOMEM, j, s;

	if (!d || !col)
		goto out;
	if (!usable(kb) || !usable(kn)) {
		rc = 0;
		goto out;
	}
	for (s = 0; s < 2; s++)
		for (q = 0; q < ks[s]->n; q++)
			if (ks[s]->k[q] && ks[s]->k[q]->n >= 2 &&
			    !blocks(c->block_ns, ks[s]->k[q], &pool[s], &npool[s]))
				goto out;
	most = npool[0] > npool[1] ? npool[0] : npool[1];
	draw = malloc(most * sizeof(*draw));
	draw_sp = malloc(most * sizeof(*draw_sp));
	if (!draw || !draw_sp)
		goto out;
	gfxstat_rng_seed(&rng, c->seed);
	for (r = 0; r < (size_t)c->resamples; r++) {
		for (s = 0; s < 2; s++) {
			gfxstat_block_draw(&rng, npool[s], draw, npool[s]);
			for (q = 0; q < npool[s]; q++)
				draw_sp[q] = pool[s][draw[q]];
			if ((rc = resample(c, draw_sp, npool[s], v[s])))
				goto out;
		}
		for (j = 0; j < CLI_M_COUNT; j++)
			d[r * CLI_M_COUNT + j] = v[1][j] - v[0][j];
	}
	for (j = 0; j < CLI_M_COUNT; j++) {
		struct gfxstat_ci *ci = &res->ci[j];
		size_t n = 0;

		for (r = 0; r < (size_t)c->resamples; r++)
			if (!isnan(d[r * CLI_M_COUNT + j]))
				col[n++] = d[r * CLI_M_COUNT + j];
		/* a metric most resamples lack (scrolls cut apart) has no interval */
		if (isnan(ci->diff) || n < (size_t)c->resamples * 9 / 10)
			continue;
		gfxstat_ci_percentile(col, n, LEVEL, &ci->lo, &ci->hi);
		ci->method = GFXSTAT_CI_BLOCK;
	}
	rc = 0;
out:
	free(pool[0]);
	free(pool[1]);
	free(draw);
	free(draw_sp);
	free(d);
	free(col);
	return rc;
}

/*
 * Every metric of each of @k's segments into @v (MAX_SEGMENTS x CLI_M_COUNT): the frames cut
 * into consecutive segments of equal time, one per c->seg_ns of span, 2 to MAX_SEGMENTS.
 * Return: the number of segments, 0 when out of memory.
 */
static size_t seg_values(const struct compare *c, struct keyed_frames *k, double *v)
{
	struct span *sp = NULL;
	int64_t span, len;
	size_t want, nb, b, nsp = 0;

	sort_key(k);
	span = k->f[k->n - 1].present_ns - k->f[0].present_ns;
	want = (size_t)(span / c->seg_ns);
	want = want < 2 ? 2 : want > MAX_SEGMENTS ? MAX_SEGMENTS : want;
	len = span / (int64_t)want + 1; /* then span / len < want: at most want segments */
	nb = blocks(len, k, &sp, &nsp);
	for (b = 0; b < nb; b++)
		if (resample(c, &sp[b], 1, v + b * CLI_M_COUNT)) {
			nb = 0;
			break;
		}
	free(sp);
	return nb;
}

/* the span of @k's frames (sorted) in seconds, at least 1 */
static double span_s(const struct keyed_frames *k)
{
	double s = (double)(k->f[k->n - 1].present_ns - k->f[0].present_ns) / 1e9;

	return s > 1 ? s : 1;
}

/*
 * One side's segment values of every metric into @v (metric-major: v[j * cap + i]) and their
 * count per metric into @nv, and the Poisson variance of the side's mean count (frozen) and
 * rates (jank per minute) into @pois. Return: 0, or GFXSTAT_E_NOMEM.
 */
static int side_segments(const struct compare *c, const struct key_side *ks, double *v,
			 size_t cap, size_t *nv, double *pois)
{
	double seg[MAX_SEGMENTS * CLI_M_COUNT];
	size_t q, i, n = 0;
	int j;

	for (j = 0; j < CLI_M_COUNT; j++) {
		nv[j] = 0;
		pois[j] = 0;
	}
	for (q = 0; q < ks->n; q++) {
		struct keyed_frames *k = ks->k[q];
		size_t ns;

		if (!k || k->n < 2)
			continue;
		ns = seg_values(c, k, seg);
		if (!ns)
			return GFXSTAT_E_NOMEM;
		n++;
		for (j = 0; j < CLI_M_COUNT; j++) {
			/* a count (frozen frames) grows with the span: a segment's count x the
			 * number of segments estimates the whole recording's */
			double sc = j == CLI_M_FROZEN ? (double)ns : 1, x;

			for (i = 0; i < ns; i++)
				if (!isnan(seg[i * CLI_M_COUNT + j]) && nv[j] < cap)
					v[(size_t)j * cap + nv[j]++] = sc * seg[i * CLI_M_COUNT + j];
			/* rare events: each recording's count is Poisson, so its variance is the
			 * count itself (per minute for the rates) */
			x = cli_metric_value(ks->row[q], j);
			if (isnan(x))
				continue;
			if (j == CLI_M_FROZEN)
				pois[j] += x;
			else if (j == CLI_M_JANK_PER_MIN || j == CLI_M_BIG_JANK_PER_MIN)
				pois[j] += x * 60 / span_s(k);
		}
	}
	/* of the mean of n recordings: the sum of their variances / n^2 */
	for (j = 0; j < CLI_M_COUNT; j++)
		pois[j] = n ? pois[j] / ((double)n * (double)n) : 0;
	return 0;
}

int cmp_seg_key(const struct compare *c, const struct key_side *kb, const struct key_side *kn,
		struct result *res)
{
	size_t capb = kb->n * MAX_SEGMENTS, capn = kn->n * MAX_SEGMENTS;
	double *vb = malloc((capb ? capb : 1) * CLI_M_COUNT * sizeof(*vb));
	double *vn = malloc((capn ? capn : 1) * CLI_M_COUNT * sizeof(*vn));
	double pb[CLI_M_COUNT], pn[CLI_M_COUNT];
	size_t nb[CLI_M_COUNT], nn[CLI_M_COUNT];
	int rc = GFXSTAT_E_NOMEM, j;

	if (!vb || !vn)
		goto out;
	if (!usable(kb) || !usable(kn)) {
		rc = 0;
		goto out;
	}
	if ((rc = side_segments(c, kb, vb, capb, nb, pb)) ||
	    (rc = side_segments(c, kn, vn, capn, nn, pn)))
		goto out;
	for (j = 0; j < CLI_M_COUNT; j++) {
		struct gfxstat_ci ci;
		double v = 0;

		/* rare events: at least Poisson's variance, which segments without any miss */
		if (j == CLI_M_FROZEN || j == CLI_M_JANK_PER_MIN || j == CLI_M_BIG_JANK_PER_MIN)
			v = pb[j] + pn[j];
		if (isnan(res->ci[j].diff) ||
		    gfxstat_ci_segments(vb + (size_t)j * capb, nb[j], vn + (size_t)j * capn, nn[j],
					res->ci[j].diff, v, LEVEL, &ci))
			continue;
		/* the per-recording means stay the point estimates; SEG_WIDEN: what two
		 * recordings differ by beyond their segments (docs/compare.md, measured) */
		res->ci[j].method = ci.method;
		res->ci[j].lo = ci.diff - SEG_WIDEN * (ci.diff - ci.lo);
		res->ci[j].hi = ci.diff + SEG_WIDEN * (ci.hi - ci.diff);
		res->ci[j].df = ci.df;
	}
	rc = 0;
out:
	free(vb);
	free(vn);
	return rc;
}
