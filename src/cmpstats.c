/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The statistics of pstat compare: order statistics, Mann-Whitney, shift. */
#include "config.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmpstats.h"

/* scipy's mannwhitneyu: the exact p while one sample has at most this. */
#define EXACT_P_MAX 8
/* R's wilcox.test: the exact interval while both samples are below this. */
#define EXACT_CI_BELOW 50
/* R's qwilcox takes a probability this close below its target as reaching
 * it: a coverage equal to the level, in doubles, is not enough. */
#define CDF_FUZZ (10 * DBL_EPSILON)

#define SQRT1_2 0.70710678118654752440
#define SQRT_2PI 2.50662827463100050242

static int compare_doubles(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A sorted copy of x[0..n) in *out, to free: -EINVAL for a value that is
 * not finite, or none; -ENOMEM. */
static int sorted_copy(const double *x, size_t n, double **out)
{
	double *c;
	size_t i;

	if (n == 0)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -EINVAL;
	c = calloc(n, sizeof(*c));
	if (!c)
		return -ENOMEM;
	memcpy(c, x, n * sizeof(*c));
	qsort(c, n, sizeof(*c), compare_doubles);
	*out = c;
	return 0;
}

/* numpy's median of n sorted values: the mean of the middle two of an
 * even n, summed first as numpy does. */
static double median_sorted(const double *s, size_t n)
{
	if (n % 2)
		return s[n / 2];
	return (s[n / 2 - 1] + s[n / 2]) / 2.0;
}

/* numpy.percentile(s, 100 p) of n sorted values, method 'linear': numpy
 * interpolates from the nearer end (its _lerp). */
static double quantile_sorted(const double *s, size_t n, double p)
{
	const double h = (double)(n - 1) * p, f = floor(h), t = h - f;
	const size_t i = (size_t)f, j = i + 1 < n ? i + 1 : n - 1;
	const double d = s[j] - s[i];

	if (t >= 0.5)
		return s[j] - d * (1.0 - t);
	return s[i] + d * t;
}

static double mean_of(const double *x, size_t n)
{
	long double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += x[i];
	return (double)(sum / (long double)n);
}

/* The median of |s_i - median|, as scipy.stats.median_abs_deviation;
 * s is sorted, and used as scratch. */
static double mad_sorted(double *s, size_t n, double median)
{
	size_t i;

	for (i = 0; i < n; i++)
		s[i] = fabs(s[i] - median);
	qsort(s, n, sizeof(*s), compare_doubles);
	return median_sorted(s, n);
}

int cmpstats_summary(const double *x, size_t n, struct cmpstats_summary *s)
{
	double *c;
	int err = sorted_copy(x, n, &c);

	if (err)
		return err;
	s->n = n;
	s->mean = mean_of(x, n);
	s->min = c[0];
	s->max = c[n - 1];
	s->median = median_sorted(c, n);
	s->q1 = quantile_sorted(c, n, 0.25);
	s->q3 = quantile_sorted(c, n, 0.75);
	s->mad = mad_sorted(c, n, s->median);
	free(c);
	return 0;
}

/* What the ranks of two sorted samples together say. */
struct ranks {
	double u;		/* U1: pairs x > y, ties 1/2 */
	double tie_term;	/* sum of t^3 - t over groups of equal values */
	bool ties;
};

/*
 * One walk over both sorted samples, a group of equal values at a time.
 * U is counted twice over in integers, so it is exact; t^3 - t in long
 * double is exact up to 2^64 (t up to 2.6 million), as scipy's int64 up
 * to 2^63.
 */
static void rank_facts(const double *xs, size_t n, const double *ys,
		       size_t m, struct ranks *r)
{
	uint64_t twice_u = 0;
	long double tie_term = 0;
	size_t i = 0, j = 0, a, b;
	double v;

	r->ties = false;
	while (i < n || j < m) {
		v = j == m || (i < n && xs[i] < ys[j]) ? xs[i] : ys[j];
		for (a = 0; i < n && xs[i] == v; i++)
			a++;
		for (b = 0; j < m && ys[j] == v; j++)
			b++;
		/* These a x's are above the j - b y's before them. */
		twice_u += (uint64_t)a * (2 * (uint64_t)(j - b) + b);
		if (a + b > 1) {
			r->ties = true;
			tie_term += (long double)(a + b) * (a + b) * (a + b) -
				    (long double)(a + b);
		}
	}
	r->u = (double)twice_u / 2.0;
	r->tie_term = (double)tie_term;
}

/*
 * The number of the C(n+m, n) arrangements of two samples with U = q,
 * for q = 0..qmax, into c (qmax + 1 doubles): the coefficients of the
 * Gaussian binomial [n+m, a]_q, a = min(n, m), b = max(n, m), as the
 * product of (1 - q^(b+i)) / (1 - q^i) for i = 1..a. Each factor's
 * division adds, its multiplication subtracts only from q > b + i,
 * and every partial product counts something: no negative value on
 * the way. O(a qmax) time.
 */
static void u_counts(size_t n, size_t m, size_t qmax, double *c)
{
	const size_t a = n < m ? n : m, b = n < m ? m : n;
	size_t i, q;

	memset(c, 0, (qmax + 1) * sizeof(*c));
	c[0] = 1.0;
	for (i = 1; i <= a; i++) {
		for (q = i; q <= qmax; q++)
			c[q] += c[q - i];
		for (q = qmax; q >= b + i; q--)
			c[q] -= c[q - b - i];
	}
}

/* C(n+m, n), as a double. */
static double arrangements(size_t n, size_t m)
{
	const size_t a = n < m ? n : m, b = n < m ? m : n;
	long double r = 1;
	size_t i;

	for (i = 1; i <= a; i++)
		r = r * (long double)(b + i) / (long double)i;
	return (double)r;
}

/* P(U <= q) for every q = 0..qmax into cdf (qmax + 1 doubles). */
static void u_cdf(size_t n, size_t m, size_t qmax, double *cdf)
{
	const double total = arrangements(n, m);
	double sum = 0;
	size_t q;

	u_counts(n, m, qmax, cdf);
	for (q = 0; q <= qmax; q++) {
		sum += cdf[q];
		cdf[q] = sum / total;
	}
}

/* scipy's exact p: 2 P(U <= min(U1, U2)), by the symmetry of U. */
static int exact_p(size_t n, size_t m, double u_min, double *p)
{
	const size_t q = (size_t)u_min;
	double *cdf = calloc(q + 1, sizeof(*cdf));

	if (!cdf)
		return -ENOMEM;
	u_cdf(n, m, q, cdf);
	*p = 2.0 * cdf[q];
	free(cdf);
	return 0;
}

/* scipy's asymptotic p, its operations in its order; all values equal
 * (s = 0): z = -inf, p = 1. */
static double normal_p(size_t n, size_t m, double u_max, double tie_term)
{
	const double nm = (double)n * (double)m, big_n = (double)(n + m);
	const double s = sqrt(nm / 12.0 * ((big_n + 1.0) -
					   tie_term / (big_n * (big_n - 1.0))));

	if (!(s > 0.0))
		return 1.0;
	/* 2 P(Z > z), which erfc keeps to an ulp or so in the tail. */
	return erfc((u_max - nm / 2.0 - 0.5) / s * SQRT1_2);
}

/*
 * Sorted copies of both samples into *xs and *ys (each to free, NULL
 * when not made), and their ranks' facts: what the test and the
 * interval both start from. 0, -EINVAL or -ENOMEM.
 */
static int sorted_ranked(const double *x, size_t n, const double *y,
			 size_t m, double **xs, double **ys, struct ranks *rk)
{
	int err = sorted_copy(x, n, xs);

	if (!err)
		err = sorted_copy(y, m, ys);
	if (!err)
		rank_facts(*xs, n, *ys, m, rk);
	return err;
}

int cmpstats_mann_whitney(const double *x, size_t n, const double *y,
			  size_t m, struct cmpstats_mwu *r)
{
	double *xs = NULL, *ys = NULL, u_max, p;
	struct ranks rk;
	int err;

	err = sorted_ranked(x, n, y, m, &xs, &ys, &rk);
	if (err)
		goto out;
	u_max = fmax(rk.u, (double)n * (double)m - rk.u);
	r->u = rk.u;
	r->exact = (n <= EXACT_P_MAX || m <= EXACT_P_MAX) && !rk.ties;
	if (r->exact)
		err = exact_p(n, m, (double)n * (double)m - u_max, &p);
	else
		p = normal_p(n, m, u_max, rk.tie_term);
	if (!err)
		r->p = fmin(fmax(p, 0.0), 1.0);
out:
	free(ys);
	free(xs);
	return err;
}

/* Acklam's rational approximation of the normal quantile for
 * 0 < p <= 0.5, relative error below 1.15e-9. */
static double acklam_lower(double p)
{
	static const double a[] = { -3.969683028665376e+01,
		2.209460984245205e+02, -2.759285104469687e+02,
		1.383577518672690e+02, -3.066479806614716e+01,
		2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01,
		1.615858368580409e+02, -1.556989798598866e+02,
		6.680131188771972e+01, -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03,
		-3.223964580411365e-01, -2.400758277161838e+00,
		-2.549732539343734e+00, 4.374664141464968e+00,
		2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03,
		3.224671290700398e-01, 2.445134137142996e+00,
		3.754408661907416e+00 };
	double q, r;

	if (p < 0.02425) {
		q = sqrt(-2.0 * log(p));
		return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q +
			 c[4]) * q + c[5]) /
		       ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
	}
	q = p - 0.5;
	r = q * q;
	return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r +
		a[5]) * q /
	       (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r +
		1.0);
}

/*
 * One Halley step on P(Z <= x) - p from Acklam's x, in the lower tail
 * (p <= 0.5), where erfc keeps its relative precision: 1e-9 becomes an
 * ulp or so.
 */
static double quantile_lower(double p)
{
	const double x = acklam_lower(p);
	const double e = 0.5 * erfc(-x * SQRT1_2) - p;
	const double u = e * SQRT_2PI * exp(x * x / 2.0);

	return x - u / (1.0 + x * u / 2.0);
}

/* The upper half by symmetry: 1 - p is exact there. */
double cmpstats_normal_quantile(double p)
{
	if (!(p > 0.0 && p < 1.0))
		return NAN;
	return p > 0.5 ? -quantile_lower(1.0 - p) : quantile_lower(p);
}

/* How the interval's k was chosen. */
struct shift_rule {
	size_t k;
	bool has_interval;
	double level_achieved;
};

/* The exact rule: k as R's qwilcox(alpha / 2, n, m) gives it. */
static int exact_rule(size_t n, size_t m, double level, struct shift_rule *r)
{
	const size_t qmax = n * m / 2;
	const double half_alpha = (1.0 - level) / 2.0 - CDF_FUZZ;
	double *cdf = calloc(qmax + 1, sizeof(*cdf));
	size_t q;

	if (!cdf)
		return -ENOMEM;
	u_cdf(n, m, qmax, cdf);
	/* P(U <= nm/2) >= 1/2: some q <= qmax reaches alpha / 2. */
	for (q = 0; q < qmax && cdf[q] < half_alpha; q++)
		;
	r->has_interval = q > 0;
	r->k = q > 0 ? q : 1;
	r->level_achieved = 1.0 - 2.0 * (q > 0 ? cdf[q - 1] : cdf[0]);
	free(cdf);
	return 0;
}

/* The normal rule, with no tie or continuity correction. */
static void normal_rule(size_t n, size_t m, double level,
			struct shift_rule *r)
{
	const double nm = (double)n * (double)m;
	const double sigma = sqrt(nm * ((double)(n + m) + 1.0) / 12.0);
	const double z = cmpstats_normal_quantile((1.0 + level) / 2.0);
	const double k = floor(nm / 2.0 - z * sigma);

	r->has_interval = k >= 1.0;
	r->k = r->has_interval ? (size_t)k : 1;
	r->level_achieved = r->has_interval ? level :
			    fmax(0.0, erf((nm / 2.0 - 1.0) / sigma * SQRT1_2));
}

/* Whether n and m values, tied or not, take the exact rule. */
static bool exact_rule_applies(size_t n, size_t m, bool ties)
{
	return n < EXACT_CI_BELOW && m < EXACT_CI_BELOW && !ties;
}

size_t cmpstats_min_runs(double level)
{
	struct shift_rule r;
	size_t n;

	if (!(level > 0.0 && level < 1.0))
		return 0;
	/* Below EXACT_CI_BELOW, k = 1 reaches the level when
	 * P(U = 0) = 1 / C(2n, n) is below alpha / 2. */
	for (n = 1; n < EXACT_CI_BELOW; n++)
		if (1.0 / arrangements(n, n) < (1.0 - level) / 2.0 - CDF_FUZZ)
			return n;
	for (;; n++) {
		normal_rule(n, n, level, &r);
		if (r.has_interval)
			return n;
	}
}

/* The n*m differences y_j - x_i of two sorted samples, sorted in d when
 * they were made, else selected one by one. */
struct pairs {
	const double *xs, *ys;
	size_t n, m;
	double *d;
};

/* y - x, never -0.0: equal differences are one value, for the
 * selection's bisection and for the caller. */
static double diff(double y, double x)
{
	return (y - x) + 0.0;
}

/* Where t cuts the differences: how many are <= t, the greatest of
 * those and the least of the rest. */
struct cut {
	size_t le;
	double below, above;
};

/*
 * The differences <= t, counted over both sorted samples in O(n + m):
 * y_j - x_i falls as x_i rises (rounding keeps it monotonic), so for
 * each x_i those y_j form a prefix no shorter than the last x's.
 */
static void cut_at(const struct pairs *p, double t, struct cut *c)
{
	size_t i, j = 0;

	c->le = 0;
	c->below = -INFINITY;
	c->above = INFINITY;
	for (i = 0; i < p->n; i++) {
		while (j < p->m && diff(p->ys[j], p->xs[i]) <= t)
			j++;
		c->le += j;
		if (j > 0)
			c->below = fmax(c->below, diff(p->ys[j - 1], p->xs[i]));
		if (j < p->m)
			c->above = fmin(c->above, diff(p->ys[j], p->xs[i]));
	}
}

/* Doubles as integers in the same order (-0.0 just below +0.0), for
 * halving a range of values in at most 64 steps. */
static uint64_t order_key(double v)
{
	uint64_t b;

	memcpy(&b, &v, sizeof(b));
	return b >> 63 ? ~b : b | UINT64_C(1) << 63;
}

static double order_value(uint64_t k)
{
	const uint64_t b = k >> 63 ? k & ~(UINT64_C(1) << 63) : ~k;
	double v;

	memcpy(&v, &b, sizeof(v));
	return v;
}

/*
 * The rank-th smallest difference (from 1), none made: lo and hi are
 * differences with the answer between them; each step cuts at the
 * middle of their keys and moves one end onto the nearest difference
 * on its side, so the answer is always a difference itself.
 */
static double select_rank(const struct pairs *p, size_t rank)
{
	double lo = diff(p->ys[0], p->xs[p->n - 1]);
	double hi = diff(p->ys[p->m - 1], p->xs[0]);
	double t;
	struct cut c;

	while (lo < hi) {
		t = order_value(order_key(lo) +
				(order_key(hi) - order_key(lo)) / 2);
		/* -0.0, between a negative lo and a hi of 0. */
		if (!(t < hi))
			t = lo;
		cut_at(p, t, &c);
		if (c.le >= rank)
			hi = c.below;
		else
			lo = c.above;
	}
	return lo;
}

static double pairs_at(const struct pairs *p, size_t rank)
{
	return p->d ? p->d[rank - 1] : select_rank(p, rank);
}

/* The differences made and sorted, when there are at most max_pairs. */
static int pairs_make(struct pairs *p, size_t max_pairs)
{
	const size_t total = p->n * p->m;
	size_t i, j;

	p->d = NULL;
	if (total > max_pairs)
		return 0;
	p->d = calloc(total, sizeof(*p->d));
	if (!p->d)
		return -ENOMEM;
	for (i = 0; i < p->n; i++)
		for (j = 0; j < p->m; j++)
			p->d[i * p->m + j] = diff(p->ys[j], p->xs[i]);
	qsort(p->d, total, sizeof(*p->d), compare_doubles);
	return 0;
}

/* The median and the interval's ends from the differences. */
static void shift_from(const struct pairs *p, const struct shift_rule *r,
		       struct cmpstats_shift *s)
{
	const size_t total = p->n * p->m;

	if (total % 2)
		s->estimate = pairs_at(p, total / 2 + 1);
	else	/* numpy's mean of two */
		s->estimate = (pairs_at(p, total / 2) +
			       pairs_at(p, total / 2 + 1)) / 2.0;
	/* A zero's sign, as half of -DBL_TRUE_MIN leaves it, cleared; not
	 * by "+ 0.0" here, which a fused multiply-add would keep. */
	if (s->estimate == 0.0)
		s->estimate = fabs(s->estimate);
	s->lo = pairs_at(p, r->k);
	s->hi = pairs_at(p, total - r->k + 1);
	s->has_interval = r->has_interval;
	s->level_achieved = r->level_achieved;
	s->k = r->k;
}

int cmpstats_hodges_lehmann_with(const double *x, size_t n, const double *y,
				 size_t m, double level, size_t max_pairs,
				 struct cmpstats_shift *s)
{
	struct pairs p = { .n = n, .m = m };
	double *xs = NULL, *ys = NULL;
	struct shift_rule r;
	struct ranks rk;
	int err;

	if (!(level > 0.0 && level < 1.0) || (m && n > SIZE_MAX / m))
		return -EINVAL;
	err = sorted_ranked(x, n, y, m, &xs, &ys, &rk);
	if (err)
		goto out;
	if (exact_rule_applies(n, m, rk.ties))
		err = exact_rule(n, m, level, &r);
	else
		normal_rule(n, m, level, &r);
	p.xs = xs;
	p.ys = ys;
	if (!err)
		err = pairs_make(&p, max_pairs);
	if (!err)
		shift_from(&p, &r, s);
	free(p.d);
out:
	free(ys);
	free(xs);
	return err;
}

int cmpstats_hodges_lehmann(const double *x, size_t n, const double *y,
			    size_t m, double level, struct cmpstats_shift *s)
{
	return cmpstats_hodges_lehmann_with(x, n, y, m, level,
					    CMPSTATS_PAIRS_MAX, s);
}
