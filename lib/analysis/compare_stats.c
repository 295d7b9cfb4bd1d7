/* SPDX-License-Identifier: MIT */
/* Confidence intervals for `gfxstat compare`: Welch's t (over runs or segments of time), block
 * bootstrap, a seeded PRNG. */
#include <math.h>
#include <stdlib.h>

#include "gfxstat/gfxstat_compare.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void gfxstat_rng_seed(struct gfxstat_rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t gfxstat_rng_next(struct gfxstat_rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

uint64_t gfxstat_rng_below(struct gfxstat_rng *r, uint64_t n)
{
	/* reject the top values that would make some results more likely than others */
	uint64_t lim = UINT64_MAX - UINT64_MAX % n, x;

	do
		x = gfxstat_rng_next(r);
	while (x >= lim);
	return x % n;
}

void gfxstat_block_draw(struct gfxstat_rng *r, size_t nblocks, size_t *out, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = (size_t)gfxstat_rng_below(r, nblocks);
}

double gfxstat_mean_sd(const double *v, size_t n, double *sd)
{
	double m = 0, ss = 0, c = 0;
	size_t i, same = 1;

	for (i = 1; i < n && same; i++)
		same = v[i] == v[0];
	/* equal values (the same recording twice) are their own mean, with no spread: a sum's
	 * rounding would make up a spread of 1e-14 and an interval around it */
	if (same) {
		*sd = 0;
		return v[0];
	}
	for (i = 0; i < n; i++)
		m += v[i];
	m /= (double)n;
	/* two passes, the second corrected by the first's rounding (Chan, Golub, LeVeque) */
	for (i = 0; i < n; i++) {
		ss += (v[i] - m) * (v[i] - m);
		c += v[i] - m;
	}
	ss -= c * c / (double)n;
	*sd = n > 1 && ss > 0 ? sqrt(ss / (double)(n - 1)) : 0;
	return m;
}

/* The continued fraction of the regularized incomplete beta (modified Lentz). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2)), del;

		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

static double betai(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x));
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

/* P(T <= t) for Student's t with df degrees of freedom */
static double t_cdf(double t, double df)
{
	double tail = 0.5 * betai(df / 2, 0.5, df / (df + t * t));

	return t >= 0 ? 1 - tail : tail;
}

double gfxstat_t_quantile(double p, double df)
{
	double lo = -1e6, hi = 1e6;
	int i;

	/* the CDF is monotonic: bisection is slow but cannot fail */
	for (i = 0; i < 200 && hi - lo > 1e-12; i++) {
		double mid = (lo + hi) / 2;

		if (t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

int gfxstat_ci_welch(const double *a, size_t na, const double *b, size_t nb, double level,
		     struct gfxstat_ci *out)
{
	double sa, sb, va, vb, se2, q;

	out->method = GFXSTAT_CI_NONE;
	out->df = 0;
	if (na < 2 || nb < 2)
		return -1;
	out->method = GFXSTAT_CI_WELCH;
	out->base = gfxstat_mean_sd(a, na, &sa);
	out->new_ = gfxstat_mean_sd(b, nb, &sb);
	out->diff = out->new_ - out->base;
	va = sa * sa / (double)na;
	vb = sb * sb / (double)nb;
	se2 = va + vb;
	if (se2 <= 0) {
		/* no spread on either side: the difference is exact */
		out->lo = out->hi = out->diff;
		out->df = (double)(na + nb - 2);
		return 0;
	}
	out->df = se2 * se2 / (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	q = gfxstat_t_quantile(0.5 + level / 2, out->df);
	out->lo = out->diff - q * sqrt(se2);
	out->hi = out->diff + q * sqrt(se2);
	return 0;
}

int gfxstat_ci_segments(const double *a, size_t na, const double *b, size_t nb, double diff,
			double min_var, double level, struct gfxstat_ci *out)
{
	double half;

	if (gfxstat_ci_welch(a, na, b, nb, level, out))
		return -1;
	half = (out->hi - out->lo) / 2;
	if (min_var > 0) {
		double q = gfxstat_t_quantile(0.5 + level / 2, out->df), f = q * sqrt(min_var);

		half = f > half ? f : half;
	}
	out->method = GFXSTAT_CI_SEGMENTS;
	out->diff = diff;
	out->lo = diff - half;
	out->hi = diff + half;
	return 0;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

static double quantile_sorted(const double *d, size_t n, double p)
{
	double h = p * (double)(n - 1), f = floor(h);
	size_t i = (size_t)f;

	if (i + 1 >= n)
		return d[n - 1];
	return d[i] + (h - f) * (d[i + 1] - d[i]);
}

int gfxstat_ci_percentile(double *d, size_t n, double level, double *lo, double *hi)
{
	if (!n)
		return -1;
	qsort(d, n, sizeof(*d), cmp_double);
	*lo = quantile_sorted(d, n, (1 - level) / 2);
	*hi = quantile_sorted(d, n, (1 + level) / 2);
	return 0;
}
