/* SPDX-License-Identifier: MIT */
/*
 * libgfxstat: the statistics behind `gfxstat compare` -- confidence intervals for the
 * difference of a metric between two sets of runs, and a seeded PRNG for resampling.
 * Everything here is pure and deterministic: the same inputs and seed give the same result.
 * Ownership: every function reads the caller's arrays and keeps nothing.
 */
#ifndef GFXSTAT_COMPARE_H
#define GFXSTAT_COMPARE_H

#include <stddef.h>
#include <stdint.h>

/* xoshiro256** seeded through splitmix64: fast, good enough for resampling, reproducible. */
struct gfxstat_rng {
	uint64_t s[4];
};

/**
 * gfxstat_rng_seed() - start a stream; the same seed gives the same stream on every host
 * gfxstat_rng_next() - the next 64 random bits
 * gfxstat_rng_below() - a uniform integer in [0, n), without modulo bias (n > 0)
 */
void gfxstat_rng_seed(struct gfxstat_rng *r, uint64_t seed);
uint64_t gfxstat_rng_next(struct gfxstat_rng *r);
uint64_t gfxstat_rng_below(struct gfxstat_rng *r, uint64_t n);

/* How an interval was obtained. */
enum gfxstat_ci_method {
	GFXSTAT_CI_NONE,      /* not enough data: no interval */
	GFXSTAT_CI_WELCH,     /* per-run values, Welch's t interval */
	GFXSTAT_CI_BLOCK,     /* one recording a side, block bootstrap percentile interval */
	GFXSTAT_CI_SEGMENTS,  /* few recordings a side: Welch's t over segments of time */
};

/* The difference NEW - BASE and its confidence interval [lo, hi]. */
struct gfxstat_ci {
	enum gfxstat_ci_method method;
	double base, new_;  /* point estimates (means over runs, or the whole recording) */
	double diff;        /* new_ - base */
	double lo, hi;      /* interval for diff; lo <= diff <= hi for Welch */
	double df;          /* Welch-Satterthwaite degrees of freedom (Welch only) */
};

/**
 * gfxstat_t_quantile() - the quantile @p (0 < p < 1) of Student's t with @df > 0 degrees of
 * freedom, to about 1e-10
 */
double gfxstat_t_quantile(double p, double df);

/**
 * gfxstat_ci_welch() - Welch's t interval for mean(@b) - mean(@a)
 * @a: the base runs' values; @na: their count (>= 2)
 * @b: the new runs' values; @nb: their count (>= 2)
 * @level: confidence level, e.g. 0.95
 * @out: the interval. When both sides have no spread the interval is the point itself.
 *
 * Why not a percentile bootstrap of per-run values: with 3 to 5 runs a side it is far too
 * narrow (the resampled means vary less than the true ones); Welch's interval uses the t
 * distribution and keeps its stated coverage on such small samples (docs/compare.md).
 * Return: 0, or -1 when a side has fewer than 2 values (@out->method is then NONE).
 */
int gfxstat_ci_welch(const double *a, size_t na, const double *b, size_t nb, double level,
		     struct gfxstat_ci *out);

/**
 * gfxstat_ci_segments() - an interval for @diff from the values of consecutive segments of
 * time of one recording a side: Welch's t interval of mean(@b) - mean(@a), moved to be
 * centred on @diff (the difference of the whole recordings' values)
 * @a, @na: the base segments' values (>= 2); @b, @nb: the new segments' values (>= 2)
 * @diff: NEW - BASE over the whole recordings
 * @min_var: a floor for the variance of @diff, 0 for none; for a count of rare events, its
 *	Poisson variance (base + new counts), which segments cannot see when each holds none
 * @level: e.g. 0.95
 * @out: the interval, half-width t(@level; Welch's df) x max(Welch's se, sqrt(@min_var));
 *	base and new_ are the segment means, diff is @diff
 *
 * Segments see whatever moves over seconds (bursts, drifts), which a block bootstrap of 1 s
 * blocks does not, and Welch's t pays for having few of them (docs/compare.md).
 * Return: 0, or -1 when a side has fewer than 2 values (@out->method is then NONE).
 */
int gfxstat_ci_segments(const double *a, size_t na, const double *b, size_t nb, double diff,
			double min_var, double level, struct gfxstat_ci *out);

/**
 * gfxstat_ci_percentile() - the central @level interval of replicate differences
 * @d: the replicates (sorted in place); @n: their count (>= 1)
 * @lo, @hi: the (1-level)/2 and (1+level)/2 quantiles, linearly interpolated
 * Return: 0, or -1 when @n is 0.
 */
int gfxstat_ci_percentile(double *d, size_t n, double level, double *lo, double *hi);

/**
 * gfxstat_block_draw() - one block-bootstrap draw: @n block indices, each uniform in
 * [0, @nblocks), with replacement, into @out (moving-block bootstrap with blocks that do not
 * overlap: the caller cuts the recording into blocks of time)
 */
void gfxstat_block_draw(struct gfxstat_rng *r, size_t nblocks, size_t *out, size_t n);

/**
 * gfxstat_mean_sd() - mean and sample standard deviation (n - 1) of @v
 * Return: the mean; *@sd is 0 when @n < 2. @n must be > 0.
 */
double gfxstat_mean_sd(const double *v, size_t n, double *sd);

#endif
