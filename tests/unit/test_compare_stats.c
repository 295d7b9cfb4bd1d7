/* SPDX-License-Identifier: MIT */
/* The statistics of `gfxstat compare`, against values from t tables and worked by hand. */
#include <math.h>

#include "check.h"
#include "gfxstat/gfxstat_compare.h"

TEST(t_quantiles)
{
	/* Student's t tables: t(0.975; 1) = 12.7062, t(0.975; 2) = 4.3027, t(0.975; 4) =
	 * 2.7764, t(0.975; 10) = 2.2281, t(0.95; 30) = 1.6973; t(0.5) = 0 by symmetry */
	CHECK(fabs(gfxstat_t_quantile(0.975, 1) - 12.7062047) < 1e-6);
	CHECK(fabs(gfxstat_t_quantile(0.975, 2) - 4.3026527) < 1e-6);
	CHECK(fabs(gfxstat_t_quantile(0.975, 4) - 2.7764451) < 1e-6);
	CHECK(fabs(gfxstat_t_quantile(0.975, 10) - 2.2281389) < 1e-6);
	CHECK(fabs(gfxstat_t_quantile(0.95, 30) - 1.6972609) < 1e-6);
	CHECK(fabs(gfxstat_t_quantile(0.5, 7)) < 1e-6);
	CHECK(fabs(gfxstat_t_quantile(0.025, 4) + 2.7764451) < 1e-6);
}

TEST(welch_by_hand)
{
	/* a = 1 2 3, b = 4 5 6: means 2 and 5, diff 3; sd 1 each, so var/n = 1/3 a side,
	 * se = sqrt(2/3); df = (2/3)^2 / ((1/3)^2/2 + (1/3)^2/2) = 4; t(0.975; 4) = 2.7764451
	 * so the interval is 3 -+ 2.7764451 * 0.8164966 = 3 -+ 2.2669580 */
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 }, c[] = { 7, 7, 7 }, d[] = { 7, 7 };
	struct gfxstat_ci ci;

	CHECK_EQ(gfxstat_ci_welch(a, 3, b, 3, 0.95, &ci), 0);
	CHECK_EQ(ci.method, GFXSTAT_CI_WELCH);
	CHECK(fabs(ci.diff - 3) < 1e-12);
	CHECK(fabs(ci.df - 4) < 1e-12);
	CHECK(fabs(ci.lo - 0.7330420) < 1e-6);
	CHECK(fabs(ci.hi - 5.2669580) < 1e-6);
	/* no spread on either side: the interval is the difference itself, 0 */
	CHECK_EQ(gfxstat_ci_welch(c, 3, d, 2, 0.95, &ci), 0);
	CHECK(ci.lo == 0 && ci.hi == 0 && ci.diff == 0);
	/* one value a side is not enough */
	CHECK_EQ(gfxstat_ci_welch(a, 1, b, 3, 0.95, &ci), -1);
	CHECK_EQ(ci.method, GFXSTAT_CI_NONE);
}

TEST(equal_values_exact)
{
	/* the same recording read several times: its value, exactly, and no spread. Summed,
	 * 0.1 + 0.1 + 0.1 = 0.30000000000000004, and / 3 = 0.10000000000000002, not 0.1; five
	 * times 116.49 / 5 is 116.49 - 1.4e-14. Those would make a spread of ~1e-14 and an
	 * interval [-4e-14, 4e-14] around a difference that is exactly 116.39. */
	const double a[] = { 0.1, 0.1, 0.1 }, b[] = { 116.49, 116.49, 116.49, 116.49, 116.49 };
	struct gfxstat_ci ci;
	double sd = 1;

	CHECK(gfxstat_mean_sd(a, 3, &sd) == 0.1);
	CHECK(sd == 0);
	CHECK(gfxstat_mean_sd(b, 5, &sd) == 116.49);
	CHECK_EQ(gfxstat_ci_welch(a, 3, b, 5, 0.95, &ci), 0);
	CHECK(ci.base == 0.1 && ci.new_ == 116.49);
	CHECK(ci.lo == ci.diff && ci.hi == ci.diff && ci.diff == 116.49 - 0.1);
	/* values that differ keep their ordinary mean and sd: 1 2 3 -> 2, 1 */
	CHECK(gfxstat_mean_sd((const double[]){ 1, 2, 3 }, 3, &sd) == 2 && fabs(sd - 1) < 1e-15);
}

TEST(segments_by_hand)
{
	/* a = 1 2 3, b = 4 5 6 as in welch_by_hand: se = 0.8164966, df = 4, half-width
	 * 2.7764451 x 0.8164966 = 2.2669580, here centred on the whole recordings' 2.5 */
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 }, c[] = { 7, 7, 7 }, d[] = { 7, 7 };
	struct gfxstat_ci ci;

	CHECK_EQ(gfxstat_ci_segments(a, 3, b, 3, 2.5, 0, 0.95, &ci), 0);
	CHECK_EQ(ci.method, GFXSTAT_CI_SEGMENTS);
	CHECK(fabs(ci.diff - 2.5) < 1e-12 && fabs(ci.base - 2) < 1e-12 && fabs(ci.new_ - 5) < 1e-12);
	CHECK(fabs(ci.lo - 0.2330420) < 1e-6 && fabs(ci.hi - 4.7669580) < 1e-6);
	/* a variance floor of 4 (se 2) above Welch's: half-width 2.7764451 x 2 = 5.5528902 */
	CHECK_EQ(gfxstat_ci_segments(a, 3, b, 3, 2.5, 4, 0.95, &ci), 0);
	CHECK(fabs(ci.lo + 3.0528902) < 1e-6 && fabs(ci.hi - 8.0528902) < 1e-6);
	/* a floor below Welch's changes nothing */
	CHECK_EQ(gfxstat_ci_segments(a, 3, b, 3, 2.5, 0.5, 0.95, &ci), 0);
	CHECK(fabs(ci.lo - 0.2330420) < 1e-6);
	/* no spread in the segments (rare events none of them holds): the floor alone, with
	 * 3 + 2 - 2 = 3 degrees of freedom: 1 -+ t(0.975; 3) = 3.1824463 */
	CHECK_EQ(gfxstat_ci_segments(c, 3, d, 2, 1, 1, 0.95, &ci), 0);
	CHECK(fabs(ci.lo + 2.1824463) < 1e-6 && fabs(ci.hi - 4.1824463) < 1e-6);
	CHECK_EQ(gfxstat_ci_segments(a, 1, b, 3, 2.5, 0, 0.95, &ci), -1);
	CHECK_EQ(ci.method, GFXSTAT_CI_NONE);
}

TEST(percentile_by_hand)
{
	/* sorted 1..5; 50 % interval: quantiles 0.25 and 0.75 at positions 1 and 3 -> 2 and 4;
	 * 90 %: 0.05 * 4 = 0.2 -> 1.2, 0.95 * 4 = 3.8 -> 4.8 */
	double d[] = { 5, 3, 1, 4, 2 }, lo, hi;

	CHECK_EQ(gfxstat_ci_percentile(d, 5, 0.5, &lo, &hi), 0);
	CHECK(fabs(lo - 2) < 1e-12 && fabs(hi - 4) < 1e-12);
	CHECK_EQ(gfxstat_ci_percentile(d, 5, 0.9, &lo, &hi), 0);
	CHECK(fabs(lo - 1.2) < 1e-12 && fabs(hi - 4.8) < 1e-12);
	CHECK_EQ(gfxstat_ci_percentile(d, 0, 0.9, &lo, &hi), -1);
}

TEST(rng_reproducible_uniform)
{
	struct gfxstat_rng r1, r2;
	unsigned cnt[10] = { 0 };
	size_t idx[1000], i;
	int same = 1;

	gfxstat_rng_seed(&r1, 42);
	gfxstat_rng_seed(&r2, 42);
	for (i = 0; i < 100; i++)
		same &= gfxstat_rng_next(&r1) == gfxstat_rng_next(&r2);
	CHECK(same);
	gfxstat_rng_seed(&r2, 43);
	CHECK(gfxstat_rng_next(&r1) != gfxstat_rng_next(&r2));
	/* 100000 draws in 10 bins: 10000 each, binomial sd sqrt(1e5 * 0.1 * 0.9) = 95, so
	 * 500 is over 5 sd */
	for (i = 0; i < 100000; i++)
		cnt[gfxstat_rng_below(&r1, 10)]++;
	for (i = 0; i < 10; i++)
		CHECK(cnt[i] > 9500 && cnt[i] < 10500);
	gfxstat_block_draw(&r1, 7, idx, 1000);
	for (i = 0; i < 1000; i++)
		CHECK(idx[i] < 7);
}

/* a standard normal draw (Box-Muller) */
static double normal(struct gfxstat_rng *r)
{
	double u1 = ((double)(gfxstat_rng_next(r) >> 11) + 1) / 9007199254740993.0;
	double u2 = (double)(gfxstat_rng_next(r) >> 11) / 9007199254740992.0;

	return sqrt(-2 * log(u1)) * cos(2 * 3.141592653589793 * u2);
}

TEST(welch_coverage)
{
	/* 4000 pairs of 3 normal values a side (sd 1 and 3) from the same mean: the 95 %
	 * interval must hold 0 in 95 % of them; the proportion's sd is sqrt(.95 * .05 / 4000)
	 * = 0.0034, so [0.935, 0.965] is over 4 sd either way */
	struct gfxstat_rng r;
	unsigned hold = 0, k;

	gfxstat_rng_seed(&r, 7);
	for (k = 0; k < 4000; k++) {
		double a[3], b[3];
		struct gfxstat_ci ci;
		int i;

		for (i = 0; i < 3; i++) {
			a[i] = 10 + normal(&r);
			b[i] = 10 + 3 * normal(&r);
		}
		gfxstat_ci_welch(a, 3, b, 3, 0.95, &ci);
		hold += ci.lo <= 0 && ci.hi >= 0;
	}
	CHECK(hold >= 3740 && hold <= 3860);
}

TEST_SUITE(test_compare_stats)
{
	RUN(t_quantiles);
	RUN(welch_by_hand);
	RUN(equal_values_exact);
	RUN(segments_by_hand);
	RUN(percentile_by_hand);
	RUN(rng_reproducible_uniform);
	RUN(welch_coverage);
}
