/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The statistics of pstat compare: order statistics, Mann-Whitney, shift. */
#ifndef PSTAT_CMPSTATS_H
#define PSTAT_CMPSTATS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Every function here takes finite values only: a NaN or an infinity
 * is -EINVAL (the caller leaves such runs out). None prints; numbers
 * never pass through the locale.
 */

/* Order statistics of one sample. */
struct cmpstats_summary {
	size_t n;
	double median, mean, min, max;
	double q1, q3;		/* quartiles, as numpy's default (linear) */
	double mad;		/* median absolute deviation from the median
				 * (unscaled) */
};

/*
 * The median is numpy's (the mean of the middle two of an even n), the
 * quartiles numpy.percentile's default (linear between order
 * statistics, h = (n - 1) p), the mean a long double sum over n.
 * x is not changed (a copy is sorted). n == 0: -EINVAL; -ENOMEM.
 */
int cmpstats_summary(const double *x, size_t n, struct cmpstats_summary *s);

/*
 * Mann-Whitney U test, two-sided, exactly as scipy.stats.mannwhitneyu(x,
 * y) of scipy 1.10 with its defaults (method='auto', use_continuity=True):
 * - u is scipy's statistic U1: the pairs with x > y, ties counting 1/2;
 * - exact: the exact null distribution of U was used, which is when
 *   n <= 8 or m <= 8 and no two of all n + m values are equal. Then
 *   p = 2 P(U <= min(U1, U2)) over the C(n+m, n) equally likely
 *   arrangements.
 * - otherwise the normal approximation with scipy's tie correction
 *   and continuity correction: z = (max(U1, U2) - nm/2 - 1/2) / s,
 *   s = sqrt(nm/12 ((N+1) - sum(t^3 - t) / (N(N-1)))), N = n + m, t the
 *   size of each group of equal values; p = 2 P(Z > z).
 * p is clipped to [0, 1]. All n + m values equal: s = 0 and U1 = U2, so
 * z = -0.5 / 0 = -inf and scipy gives p = 1 (not NaN, thanks to the
 * continuity correction); so does this, and exact is false.
 * n == 0 or m == 0: -EINVAL; -ENOMEM.
 */
struct cmpstats_mwu {
	double u, p;
	bool exact;
};
int cmpstats_mann_whitney(const double *x, size_t n, const double *y,
			  size_t m, struct cmpstats_mwu *r);

/*
 * Hodges-Lehmann estimate of the shift y - x: the median of the n*m
 * pairwise differences y_j - x_i (numpy's median: the mean of the middle
 * two when n*m is even), and its distribution-free confidence interval
 * at level (0 < level < 1, 0.95 usually) from the Mann-Whitney
 * distribution (Moses' or Bauer's interval, the one R's
 * wilcox.test(x = y, y = x, conf.int = TRUE) gives in its exact case):
 * [D_(k), D_(nm-k+1)] of the sorted differences D, where
 * - exact rule, when n < 50 and m < 50 and no two of the n + m values
 *   are equal (R's rule): k is R's qwilcox(alpha/2, n, m) with
 *   alpha = 1 - level, the smallest q with P(U <= q) >= alpha/2 (less
 *   R's fuzz of 10 DBL_EPSILON), so that the coverage
 *   1 - 2 P(U <= k - 1) is above level; q == 0 means even k = 1 does
 *   not reach the level: no interval;
 * - normal rule otherwise: k = floor(nm/2 - z * sqrt(nm (n+m+1) / 12))
 *   with z the (1 + level)/2 quantile of the standard normal, and no
 *   tie correction and no continuity correction (ties make the
 *   interval conservative); k < 1: no interval. R's own asymptotic
 *   interval finds its ends by root-finding instead, with both
 *   corrections, and so may differ here by an order statistic or so.
 * has_interval false: lo and hi are the least and greatest difference
 * (k = 1). level_achieved: the coverage 1 - 2 P(U <= k - 1) under the
 * exact rule; level under the normal rule, or when it gives no interval
 * the coverage the approximation gives k = 1 (0 when none).
 * All values equal within each side: every difference is the same, the
 * estimate and both ends are it.
 * n == 0, m == 0, level outside (0, 1): -EINVAL; -ENOMEM.
 */
struct cmpstats_shift {
	double estimate, lo, hi;
	bool has_interval;
	double level_achieved;
	size_t k;
};
int cmpstats_hodges_lehmann(const double *x, size_t n, const double *y,
			    size_t m, double level, struct cmpstats_shift *s);

/*
 * Up to this many pairs (512 KiB of them), cmpstats_hodges_lehmann
 * makes and sorts the differences; beyond, it selects each of the four
 * order statistics it needs without making them: a bisection on the
 * bits of the value, each of its at most 64 steps counting over the two
 * sorted samples in O(n + m), in memory for the samples alone. That is
 * the faster way from about 100 runs a side (2000 a side here: 2 ms
 * against 0.4 s), and takes 0.8 s for 1,000,000 a side.
 */
#define CMPSTATS_PAIRS_MAX ((size_t)1 << 16)

/*
 * cmpstats_hodges_lehmann with the bound above as a parameter, for the
 * tests: max_pairs 0 always selects, SIZE_MAX always sorts. Both ways
 * give the same numbers, bit for bit.
 */
int cmpstats_hodges_lehmann_with(const double *x, size_t n, const double *y,
				 size_t m, double level, size_t max_pairs,
				 struct cmpstats_shift *s);

/*
 * The smallest n (runs per side, n = m, no ties) for which
 * cmpstats_hodges_lehmann gives an interval at level: 4 at 0.95
 * (2 / C(8, 4) = 0.0286 <= 0.05), 5 at 0.99. 0 for a level outside
 * (0, 1).
 */
size_t cmpstats_min_runs(double level);

/*
 * The quantile function of the standard normal distribution: the z with
 * P(Z <= z) = p, within a few ulps (Acklam's approximation, then a
 * Halley step on erfc). 0 < p < 1, else NaN.
 */
double cmpstats_normal_quantile(double p);

#endif
