/* SPDX-License-Identifier: MIT */
/*
 * gfxstat compare, fewer than 3 recordings a side: Welch's t over segments of time (the
 * default), or the block bootstrap (--method block), both over the library's metrics.
 */
#include <math.h>
#include <stdlib.h>

#include "cli_gate.h"
#include "cmd_compare.h"

static int cmp_present(const void *a, const void *b)
{
	const struct gfxstat_frame *x = a, *y = b;

	return x->present_ns < y->present_ns ? -1 : x->present_ns > y->present_ns;
}

static void shift(int64_t *t, int64_t d)
{
	if (*t != GFXSTAT_NS_NONE && *t > 0)
		*t += d;
}

/*
 * One resample's metrics into @out (CLI_M_COUNT values): the key's frames cut into blocks of
 * time, @nb blocks drawn (@draw; NULL = every block in order), laid end to end so that every
 * frame keeps its own interval to the frame before it in the recording.
 */
static int resample(const struct compare *c, const struct keyed_frames *k, const size_t *bstart,
		    size_t nb, const size_t *draw, double *out)
{
	struct gfxstat_metrics_opts mo;
	struct gfxstat_metrics *m;
	const struct gfxstat_layer_metrics *l = NULL;
	int64_t t = k->f[0].present_ns;
	size_t b, i, n;
	int rc = 0, j;

	gfxstat_metrics_opts_init(&mo);
	m = gfxstat_metrics_new(&mo);
	if (!m)
		return GFXSTAT_E_NOMEM;
	for (b = 0; b < nb && !rc; b++) {
		size_t blk = draw ? draw[b] : b;

		for (i = bstart[blk]; i < bstart[blk + 1] && !rc; i++) {
			struct gfxstat_frame f = k->f[i];
			int64_t iv = i ? f.present_ns - k->f[i - 1].present_ns
				       : (f.vsync_period_ns > 0 ? f.vsync_period_ns : 16666667);
			int64_t d;

			if (b || i != bstart[blk])
				t += iv > 0 ? iv : 1;
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

/* Block starts of @k, blocks of @len ns: bstart[b] is the first frame of block b, bstart[nb] =
 * k->n. */
static size_t *blocks(int64_t len, struct keyed_frames *k, size_t *nb)
{
	int64_t t0, span;
	size_t *bs, b, i = 0;

	qsort(k->f, k->n, sizeof(*k->f), cmp_present);
	t0 = k->f[0].present_ns;
	span = k->f[k->n - 1].present_ns - t0;
	*nb = (size_t)(span / len) + 1;
	bs = malloc((*nb + 1) * sizeof(*bs));
	if (!bs)
		return NULL;
	for (b = 0; b < *nb; b++) {
		while (i < k->n && k->f[i].present_ns < t0 + (int64_t)b * len)
			i++;
		bs[b] = i;
	}
	bs[*nb] = k->n;
	return bs;
}

/* Block bootstrap of every metric of one key: @rb, @rn from the base and new sides. */
int cmp_boot_key(const struct compare *c, struct keyed_frames *kb, struct keyed_frames *kn,
		    struct result *res)
{
	size_t nbb, nbn, *bb = blocks(c->block_ns, kb, &nbb), *bn = blocks(c->block_ns, kn, &nbn);
	size_t *draw, r;
	double *d = malloc((size_t)c->resamples * CLI_M_COUNT * sizeof(*d)), vb[CLI_M_COUNT],
	       vn[CLI_M_COUNT], *col = malloc((size_t)c->resamples * sizeof(*col));
	struct gfxstat_rng rng;
	int rc = GFXSTAT_E_NOMEM, j;

	draw = malloc((nbb > nbn ? nbb : nbn) * sizeof(*draw));
	if (!bb || !bn || !d || !draw || !col)
		goto out;
	gfxstat_rng_seed(&rng, c->seed);
	for (r = 0; r < (size_t)c->resamples; r++) {
		gfxstat_block_draw(&rng, nbb, draw, nbb);
		if ((rc = resample(c, kb, bb, nbb, draw, vb)))
			goto out;
		gfxstat_block_draw(&rng, nbn, draw, nbn);
		if ((rc = resample(c, kn, bn, nbn, draw, vn)))
			goto out;
		for (j = 0; j < CLI_M_COUNT; j++)
			d[r * CLI_M_COUNT + j] = vn[j] - vb[j];
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
	free(bb);
	free(bn);
	free(d);
	free(draw);
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
	int64_t span, len;
	size_t want, nb, b, *bs;

	qsort(k->f, k->n, sizeof(*k->f), cmp_present);
	span = k->f[k->n - 1].present_ns - k->f[0].present_ns;
	want = (size_t)(span / c->seg_ns);
	want = want < 2 ? 2 : want > MAX_SEGMENTS ? MAX_SEGMENTS : want;
	len = span / (int64_t)want + 1; /* then span / len < want: at most want segments */
	bs = blocks(len, k, &nb);
	if (!bs)
		return 0;
	for (b = 0; b < nb; b++)
		if (resample(c, k, bs, 1, &b, v + b * CLI_M_COUNT)) {
			free(bs);
			return 0;
		}
	free(bs);
	return nb;
}

/* the span of @k's frames (sorted) in seconds, at least 1 */
static double span_s(const struct keyed_frames *k)
{
	double s = (double)(k->f[k->n - 1].present_ns - k->f[0].present_ns) / 1e9;

	return s > 1 ? s : 1;
}

int cmp_seg_key(const struct compare *c, struct keyed_frames *kb, struct keyed_frames *kn,
		struct result *res)
{
	double vb[MAX_SEGMENTS * CLI_M_COUNT], vn[MAX_SEGMENTS * CLI_M_COUNT];
	double a[MAX_SEGMENTS], b[MAX_SEGMENTS];
	size_t sb = seg_values(c, kb, vb), sn = sb ? seg_values(c, kn, vn) : 0, i, na, nb;
	int j;

	if (!sn)
		return GFXSTAT_E_NOMEM;
	for (j = 0; j < CLI_M_COUNT; j++) {
		/* a count (frozen frames) grows with the span: a segment's count x the number of
		 * segments estimates the whole recording's */
		double sca = j == CLI_M_FROZEN ? (double)sb : 1, scb = j == CLI_M_FROZEN ? (double)sn : 1;
		for (i = na = 0; i < sb; i++)
			if (!isnan(vb[i * CLI_M_COUNT + j]))
				a[na++] = sca * vb[i * CLI_M_COUNT + j];
		for (i = nb = 0; i < sn; i++)
			if (!isnan(vn[i * CLI_M_COUNT + j]))
				b[nb++] = scb * vn[i * CLI_M_COUNT + j];
		struct gfxstat_ci ci;
		double v = 0;

		/* rare events: at least Poisson's variance, which segments without any miss */
		if (j == CLI_M_FROZEN)
			v = res->ci[j].base + res->ci[j].new_;
		else if (j == CLI_M_JANK_PER_MIN || j == CLI_M_BIG_JANK_PER_MIN)
			v = res->ci[j].base * 60 / span_s(kb) + res->ci[j].new_ * 60 / span_s(kn);
		if (isnan(res->ci[j].diff) ||
		    gfxstat_ci_segments(a, na, b, nb, res->ci[j].diff, v, LEVEL, &ci))
			continue;
		/* the whole recordings' values stay the point estimates; SEG_WIDEN: what two
		 * recordings differ by beyond their segments (docs/compare.md, measured) */
		res->ci[j].method = ci.method;
		res->ci[j].lo = ci.diff - SEG_WIDEN * (ci.diff - ci.lo);
		res->ci[j].hi = ci.diff + SEG_WIDEN * (ci.hi - ci.diff);
		res->ci[j].df = ci.df;
	}
	return 0;
}

/* The point estimate of every metric of @key on side @s: the recording's own metrics when it
 * is one, else all of the side's frames in order (several recordings, fewer than 3). */
int cmp_point(const struct compare *c, struct side *s, struct keyed_frames *k, double *out)
{
	const struct gfxstat_layer_metrics *l = s->nrec == 1 ? cmp_find_row(c, s->m[0], k->key) : NULL;
	size_t nb, *bs;
	int j, rc;

	if (l) {
		for (j = 0; j < CLI_M_COUNT; j++)
			out[j] = cli_metric_value(l, j);
		return 0;
	}
	bs = blocks(c->block_ns, k, &nb);
	if (!bs)
		return GFXSTAT_E_NOMEM;
	rc = resample(c, k, bs, nb, NULL, out);
	free(bs);
	return rc;
}

