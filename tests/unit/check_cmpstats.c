/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of cmpstats.c: pstat compare's statistics, against scipy. */
#include "config.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "cmpstats.h"
#include "unit.h"

#define MAX_X 12

/*
 * Made once with Debian 12's scipy 1.10.1 and numpy 1.24.2, by
 * tests/cmpstats-scipy.py's expected(level, x, y) for each row:
 *
 *   /usr/bin/python3 -c 'import importlib.util as u
 *   s = u.spec_from_file_location("t", "tests/cmpstats-scipy.py")
 *   t = u.module_from_spec(s); s.loader.exec_module(t)
 *   print(t.expected(0.95, [1.0, 2.0], [3.0, 4.0]))'
 *
 * u and p: scipy.stats.mannwhitneyu(x, y); estimate:
 * numpy.median(numpy.subtract.outer(y, x)); lo, hi: the sorted
 * differences at k and nm - k + 1, with k, has_interval and
 * level_achieved from that script's own Python rule (exact counts in
 * integers, R's qwilcox; or the normal rule with scipy.stats.norm.ppf).
 */
static const struct pair_row {
	int line;
	size_t n, m;
	double x[MAX_X], y[MAX_X];
	double level, u, p;
	bool exact;
	double estimate, lo, hi;
	bool has_interval;
	double level_achieved;
	size_t k;
} pair_rows[] = {
	/* n = m = 1 */
	{ __LINE__, 1, 1,
	  { 1 },
	  { 2 },
	  0.95, 0.0, 1.0, true,
	  1.0, 1.0, 1.0, false, 0.0, 1 },
	/* n = m = 1, tied */
	{ __LINE__, 1, 1,
	  { 1 },
	  { 1 },
	  0.95, 0.5, 1.0, false,
	  0.0, 0.0, 0.0, false, 0.0, 1 },
	/* n = m = 2 */
	{ __LINE__, 2, 2,
	  { 1, 2 },
	  { 3, 4 },
	  0.95, 0.0, 0.3333333333333333, true,
	  2.0, 1.0, 3.0, false, 0.6666666666666667, 1 },
	/* n = m = 3: below cmpstats_min_runs(0.95) */
	{ __LINE__, 3, 3,
	  { 1, 2, 3 },
	  { 4, 5, 6 },
	  0.95, 0.0, 0.1, true,
	  3.0, 1.0, 5.0, false, 0.9, 1 },
	/* n = m = 4: the least with an interval */
	{ __LINE__, 4, 4,
	  { 1, 2, 3, 4 },
	  { 5, 6, 7, 8 },
	  0.95, 0.0, 0.02857142857142857, true,
	  4.0, 1.0, 7.0, true, 0.9714285714285714, 1 },
	/* n = m = 4, overlapping */
	{ __LINE__, 4, 4,
	  { 1, 3, 6, 8 },
	  { 2, 4, 5, 7 },
	  0.95, 8.0, 1.0, true,
	  0.0, -6.0, 6.0, true, 0.9714285714285714, 1 },
	/* unequal sizes */
	{ __LINE__, 3, 5,
	  { 1.5, 3.25, 2 },
	  { 2.5, 4, 6, 3, 5.5 },
	  0.95, 2.0, 0.14285714285714285, true,
	  2.0, -0.75, 4.5, true, 0.9642857142857143, 1 },
	/* unequal sizes, the other way */
	{ __LINE__, 5, 3,
	  { 2.5, 4, 6, 3, 5.5 },
	  { 1.5, 3.25, 2 },
	  0.95, 13.0, 0.14285714285714285, true,
	  -2.0, -4.5, 0.75, true, 0.9642857142857143, 1 },
	/* ties: asymptotic p and the normal rule, small as it is */
	{ __LINE__, 6, 7,
	  { 1, 2, 2, 3, 3, 3 },
	  { 2, 3, 3, 4, 4, 5, 6 },
	  0.95, 7.0, 0.04567124293968339, false,
	  1.0, 0.0, 3.0, true, 0.95, 7 },
	/* 8 and 9, no ties: exact (8 <= 8) */
	{ __LINE__, 8, 9,
	  { 11, 2, 7, 14, 5, 9, 1, 16 },
	  { 3, 12, 8, 15, 17, 4, 13, 6, 10 },
	  0.95, 29.0, 0.5414232825997531, true,
	  1.5, -4.0, 8.0, true, 0.9535993418346359, 16 },
	/* 9 and 8: exact */
	{ __LINE__, 9, 8,
	  { 3, 12, 8, 15, 17, 4, 13, 6, 10 },
	  { 11, 2, 7, 14, 5, 9, 1, 16 },
	  0.95, 43.0, 0.5414232825997531, true,
	  -1.5, -8.0, 4.0, true, 0.9535993418346359, 16 },
	/* 9 and 9, no ties: asymptotic */
	{ __LINE__, 9, 9,
	  { 11, 2, 7, 14, 5, 9, 1, 16, 18 },
	  { 3, 12, 8, 15, 17, 4, 13, 6, 10 },
	  0.95, 38.0, 0.859819205054158, false,
	  1.0, -6.0, 7.0, true, 0.9600164541341012, 18 },
	/* one tie among 8 and 9: asymptotic */
	{ __LINE__, 8, 9,
	  { 11, 2, 7, 14, 5, 9, 1, 16 },
	  { 3, 12, 8, 15, 17, 4, 13, 6, 11 },
	  0.95, 28.5, 0.5003186734539344, false,
	  2.0, -4.0, 8.0, true, 0.95, 15 },
	/* all equal */
	{ __LINE__, 4, 5,
	  { 5, 5, 5, 5 },
	  { 5, 5, 5, 5, 5 },
	  0.95, 10.0, 1.0, false,
	  0.0, 0.0, 0.0, true, 0.95, 1 },
	/* deterministic: all equal within each side */
	{ __LINE__, 12, 12,
	  { 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000,
	    1000 },
	  { 1010, 1010, 1010, 1010, 1010, 1010, 1010, 1010, 1010, 1010, 1010,
	    1010 },
	  0.95, 0.0, 1.911834771154503e-06, false,
	  10.0, 10.0, 10.0, true, 0.95, 38 },
	/* negative values */
	{ __LINE__, 4, 5,
	  { -5.5, -3.25, -10, -7 },
	  { -1, -2.5, -4, -0.5, -3 },
	  0.95, 1.0, 0.031746031746031744, true,
	  4.25, 0.25, 9.0, true, 0.9682539682539683, 2 },
	/* around 1e12 */
	{ __LINE__, 6, 6,
	  { 1e12 + 3, 1e12 + 1, 1e12 + 7, 1e12 + 2, 1e12 + 9, 1e12 + 4 },
	  { 1e12 + 11, 1e12 + 5, 1e12 + 13, 1e12 + 6, 1e12 + 15, 1e12 + 8 },
	  0.95, 5.0, 0.04112554112554113, true,
	  5.0, 1.0, 11.0, true, 0.9588744588744589, 6 },
	/* around 1e12, tied */
	{ __LINE__, 6, 6,
	  { 1e12 + 3, 1e12 + 3, 1e12 + 7, 1e12 + 2, 1e12 + 9, 1e12 + 4 },
	  { 1e12 + 3, 1e12 + 5, 1e12 + 13, 1e12 + 6, 1e12 + 15, 1e12 + 8 },
	  0.95, 9.0, 0.17046586501309957, false,
	  3.0, -2.0, 11.0, true, 0.95, 5 },
	/* level 0.9 */
	{ __LINE__, 6, 6,
	  { 1.1, 2.3, 0.7, 3.9, 2.8, 1.6 },
	  { 2.2, 3.1, 4.4, 2.9, 3.6, 5 },
	  0.9, 6.0, 0.06493506493506493, true,
	  1.5, 0.30000000000000027, 2.7, true, 0.9069264069264069, 8 },
	/* level 0.99 */
	{ __LINE__, 7, 7,
	  { 1.1, 2.3, 0.7, 3.9, 2.8, 1.6, 0.2 },
	  { 2.2, 3.1, 4.4, 2.9, 3.6, 5, 4.1 },
	  0.99, 6.0, 0.01748251748251748, true,
	  2.0, -0.2999999999999998, 3.8999999999999995, true,
	  0.993006993006993, 5 },
	/* level 0.9, n = m = 3: 2 / C(6, 3) is alpha, not below it */
	{ __LINE__, 3, 3,
	  { 1, 2, 3 },
	  { 4, 5, 6 },
	  0.9, 0.0, 0.1, true,
	  3.0, 1.0, 5.0, false, 0.9, 1 },
	/* 10 and 12: asymptotic p, exact interval */
	{ __LINE__, 10, 12,
	  { 101.2, 99.8, 100.5, 102.3, 98.7, 100.9, 101.7, 99.1, 100.2, 103 },
	  { 102.1, 103.4, 101.9, 104.2, 102.8, 103.9, 101.5, 104.8, 102.6,
	    103.1, 105.3, 102.2 },
	  0.95, 11.0, 0.0013838653775658093, false,
	  2.3999999999999986, 1.1000000000000085, 3.6000000000000085, true,
	  0.957429567336688, 30 },
	/* 12 and 12 of few values: ties */
	{ __LINE__, 12, 12,
	  { 3, 1, 2, 2, 4, 3, 1, 2, 3, 2, 4, 1 },
	  { 3, 4, 2, 5, 3, 4, 4, 3, 5, 2, 4, 3 },
	  0.95, 32.0, 0.018854661323137244, false,
	  1.0, 0.0, 2.0, true, 0.95, 38 },
};

/* Relative closeness; want 0 asks for exactly 0. */
static void near(int line, const char *what, double got, double want,
		 double rel)
{
	ck_assert_msg(got == want || fabs(got - want) <= rel * fabs(want),
		      "line %d: %s %.17g, want %.17g", line, what, got, want);
}

static void check_shift(int line, const struct cmpstats_shift *s,
			const struct pair_row *t)
{
	ck_assert_msg(s->estimate == t->estimate && s->lo == t->lo &&
		      s->hi == t->hi,
		      "line %d: %.17g [%.17g, %.17g], "
		      "want %.17g [%.17g, %.17g]",
		      line, s->estimate, s->lo, s->hi, t->estimate, t->lo,
		      t->hi);
	ck_assert_msg(s->has_interval == t->has_interval && s->k == t->k,
		      "line %d: has_interval %d k %zu, want %d %zu", line,
		      s->has_interval, s->k, t->has_interval, t->k);
	near(line, "level_achieved", s->level_achieved, t->level_achieved,
	     1e-12);
}

START_TEST(test_pairs)
{
	const struct pair_row *t = &pair_rows[_i];
	struct cmpstats_shift s;
	struct cmpstats_mwu r;

	ck_assert_int_eq(cmpstats_mann_whitney(t->x, t->n, t->y, t->m, &r),
			 0);
	ck_assert_msg(r.u == t->u, "line %d: u %g, want %g", t->line, r.u,
		      t->u);
	near(t->line, "p", r.p, t->p, 1e-12);
	ck_assert_msg(r.exact == t->exact, "line %d: exact %d", t->line,
		      r.exact);
	ck_assert_int_eq(cmpstats_hodges_lehmann(t->x, t->n, t->y, t->m,
						 t->level, &s), 0);
	check_shift(t->line, &s, t);
	/* The differences made and sorted, or each selected: the same. */
	ck_assert_int_eq(cmpstats_hodges_lehmann_with(t->x, t->n, t->y, t->m,
						      t->level, 0, &s), 0);
	check_shift(t->line, &s, t);
	ck_assert_int_eq(cmpstats_hodges_lehmann_with(t->x, t->n, t->y, t->m,
						      t->level, SIZE_MAX, &s),
			 0);
	check_shift(t->line, &s, t);
}
END_TEST

/* The samples are read, never sorted in place. */
START_TEST(test_unchanged)
{
	const struct pair_row *t = &pair_rows[_i];
	struct cmpstats_summary sum;
	struct cmpstats_shift s;
	struct cmpstats_mwu r;
	double x[MAX_X], y[MAX_X];

	memcpy(x, t->x, sizeof(x));
	memcpy(y, t->y, sizeof(y));
	ck_assert_int_eq(cmpstats_mann_whitney(x, t->n, y, t->m, &r), 0);
	ck_assert_int_eq(cmpstats_hodges_lehmann_with(x, t->n, y, t->m, 0.95,
						      0, &s), 0);
	ck_assert_int_eq(cmpstats_summary(y, t->m, &sum), 0);
	ck_assert(memcmp(x, t->x, sizeof(x)) == 0);
	ck_assert(memcmp(y, t->y, sizeof(y)) == 0);
}
END_TEST

/*
 * numpy.median, numpy.mean, min, max, numpy.percentile(x, 25) and
 * (x, 75), scipy.stats.median_abs_deviation(x), by scipy 1.10.1 and
 * numpy 1.24.2 (/usr/bin/python3 on Debian 12).
 */
static const struct summary_row {
	int line;
	size_t n;
	double x[MAX_X];
	double median, mean, min, max, q1, q3, mad;
} summary_rows[] = {
	{ __LINE__, 1, { 42 }, 42.0, 42.0, 42.0, 42.0, 42.0, 42.0, 0.0 },
	{ __LINE__, 3, { 3, 1, 2 }, 2.0, 2.0, 1.0, 3.0, 1.5, 2.5, 1.0 },
	{ __LINE__, 4, { 4, 1, 3, 2 }, 2.5, 2.5, 1.0, 4.0, 1.75, 3.25, 1.0 },
	{ __LINE__, 8, { 2, 4, 4, 4, 5, 5, 7, 9 },
	  4.5, 5.0, 2.0, 9.0, 4.0, 5.5, 0.5 },
	{ __LINE__, 5, { 7, 7, 7, 7, 7 }, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 0.0 },
	{ __LINE__, 5, { -5.5, -3.25, -10, -7, -1 },
	  -5.5, -5.35, -10.0, -1.0, -7.0, -3.25, 2.25 },
	{ __LINE__, 6, { 1e12 + 3, 1e12 + 1, 1e12 + 7, 1e12 + 2, 1e12 + 9,
			 1e12 + 4 },
	  1000000000003.5, 1000000000004.3334, 1000000000001.0,
	  1000000000009.0, 1000000000002.25, 1000000000006.25, 2.0 },
	{ __LINE__, 7, { 0.1, 0.7, 0.2, 0.9, 0.3, 0.4, 1.7 },
	  0.4, 0.6142857142857142, 0.1, 1.7, 0.25, 0.8, 0.29999999999999993 },
	/* Where the order of the operations shows: (a + b) / 2 is 0.45,
	 * a + (b - a) / 2 is not; so is numpy's interpolation from b. */
	{ __LINE__, 2, { 0.8, 0.1 }, 0.45, 0.45, 0.1, 0.8, 0.275, 0.625, 0.35 },
	{ __LINE__, 3, { 0.9, 0.1, 0.8 },
	  0.8, 0.6, 0.1, 0.9, 0.45, 0.8500000000000001, 0.09999999999999998 },
};

/*
 * Where the target has a fused multiply-add (arm64), the compiler may
 * fuse the quartiles' interpolation, which numpy does in two roundings:
 * an ulp apart.
 */
#ifdef FP_FAST_FMA
#define FUSED_ULPS (2 * DBL_EPSILON)
#else
#define FUSED_ULPS 0.0
#endif

START_TEST(test_summary)
{
	const struct summary_row *t = &summary_rows[_i];
	struct cmpstats_summary s;

	ck_assert_int_eq(cmpstats_summary(t->x, t->n, &s), 0);
	ck_assert_uint_eq(s.n, t->n);
	near(t->line, "median", s.median, t->median, 0);
	/* numpy sums pairwise, in doubles: an ulp or so apart. */
	near(t->line, "mean", s.mean, t->mean, 4 * DBL_EPSILON);
	near(t->line, "min", s.min, t->min, 0);
	near(t->line, "max", s.max, t->max, 0);
	near(t->line, "q1", s.q1, t->q1, FUSED_ULPS);
	near(t->line, "q3", s.q3, t->q3, FUSED_ULPS);
	near(t->line, "mad", s.mad, t->mad, 0);
}
END_TEST

static void fill(double *v, size_t n, double value)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = value;
}

/*
 * A deterministic count, 30 runs a side: the exact change, an interval
 * of no width, a tiny p (scipy.stats.mannwhitneyu([1000.0] * 30,
 * [1010.0] * 30).pvalue). Equal sides: no change, p = 1.
 */
START_TEST(test_deterministic)
{
	double a[30], b[30];
	struct cmpstats_shift s;
	struct cmpstats_mwu r;

	fill(a, 30, 1000);
	fill(b, 30, 1010);
	ck_assert_int_eq(cmpstats_mann_whitney(a, 30, b, 30, &r), 0);
	ck_assert(!r.exact && r.u == 0.0);
	near(__LINE__, "p", r.p, 1.685298194892643e-14, 1e-12);
	ck_assert_int_eq(cmpstats_hodges_lehmann(a, 30, b, 30, 0.95, &s), 0);
	ck_assert(s.has_interval);
	ck_assert(s.estimate == 10.0 && s.lo == 10.0 && s.hi == 10.0);
	ck_assert_int_eq(cmpstats_mann_whitney(a, 30, a, 30, &r), 0);
	ck_assert(r.p == 1.0 && r.u == 450.0);
	ck_assert_int_eq(cmpstats_hodges_lehmann(a, 30, a, 30, 0.95, &s), 0);
	ck_assert(s.has_interval);
	ck_assert(s.estimate == 0.0 && s.lo == 0.0 && s.hi == 0.0);
	/* No -0.0 either, which would print as "-0". */
	ck_assert(!signbit(s.estimate) && !signbit(s.lo) && !signbit(s.hi));
}
END_TEST

/*
 * A -0.0 in a sample makes differences of -0.0, which equal 0 but
 * would print as "-0" and, as bisection keys, sit apart from +0.0.
 */
START_TEST(test_signed_zero)
{
	static const double zeros[] = { 0.0, 0.0, 0.0 };
	static const double minus[] = { -0.0, -0.0, -0.0 };
	static const double mixed[] = { -1.0, -0.0, 0.0, 2.0 };
	static const double tiny[] = { DBL_TRUE_MIN, 0.0 };
	struct cmpstats_shift s;
	size_t max_pairs;

	for (max_pairs = 0; max_pairs < 2; max_pairs++) {
		ck_assert_int_eq(cmpstats_hodges_lehmann_with(
			zeros, 3, minus, 3, 0.95, max_pairs * SIZE_MAX, &s), 0);
		ck_assert(s.estimate == 0.0 && !signbit(s.estimate));
		ck_assert(s.lo == 0.0 && !signbit(s.lo));
		ck_assert(s.hi == 0.0 && !signbit(s.hi));
		ck_assert_int_eq(cmpstats_hodges_lehmann_with(
			zeros, 3, mixed, 4, 0.95, max_pairs * SIZE_MAX, &s), 0);
		ck_assert(s.estimate == 0.0 && !signbit(s.estimate));
		ck_assert(s.lo == -1.0 && s.hi == 2.0);
	}
	/* Differences -DBL_TRUE_MIN and 0: the middle of their keys is
	 * -0.0, no cut between them; the selection still ends. */
	ck_assert_int_eq(cmpstats_hodges_lehmann_with(zeros, 1, tiny, 2, 0.95,
						      0, &s), 0);
	ck_assert(s.lo == 0.0 && s.hi == DBL_TRUE_MIN);
	ck_assert_int_eq(cmpstats_hodges_lehmann_with(tiny, 2, zeros, 1, 0.95,
						      0, &s), 0);
	ck_assert(s.lo == -DBL_TRUE_MIN && s.hi == 0.0 && !signbit(s.hi));
	ck_assert(s.estimate == 0.0 && !signbit(s.estimate));
}
END_TEST

/*
 * scipy's exact p with 3 against 2000 (3 <= 8, no ties): U over
 * C(2003, 3) arrangements, the counts subtracting past q = 2000.
 * scipy.stats.mannwhitneyu(x, [float(i) for i in range(2000)]).
 */
static const struct wide_row {
	int line;
	double x[3];
	double u, p;
} wide_rows[] = {
	{ __LINE__, { 0.5, 1000.5, 1999.5 }, 3002.0, 0.9988761239695932 },
	{ __LINE__, { 1500.5, 1800.5, 1999.5 }, 5302.0, 0.014340567849135573 },
	{ __LINE__, { 2000.5, 2001.5, 2002.5 }, 6000.0,
	  1.4955093581531735e-09 },
};

START_TEST(test_exact_wide)
{
	const struct wide_row *t = &wide_rows[_i];
	struct cmpstats_mwu r;
	double y[2000];
	size_t i;

	for (i = 0; i < 2000; i++)
		y[i] = (double)i;
	ck_assert_int_eq(cmpstats_mann_whitney(t->x, 3, y, 2000, &r), 0);
	ck_assert(r.exact);
	near(t->line, "u", r.u, t->u, 0);
	near(t->line, "p", r.p, t->p, 1e-12);
}
END_TEST

static int compare_doubles(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The differences y_j - x_i, sorted, the plain way: to free. */
static double *sorted_differences(const double *x, size_t n,
				  const double *y, size_t m)
{
	double *d = calloc(n * m, sizeof(*d));
	size_t i, j;

	ck_assert_ptr_nonnull(d);
	for (i = 0; i < n; i++)
		for (j = 0; j < m; j++)
			d[i * m + j] = y[j] - x[i];
	qsort(d, n * m, sizeof(*d), compare_doubles);
	return d;
}

/*
 * Both sides of R's exact rule (both samples below 50) and the normal
 * rule without ties; k from tests/cmpstats-scipy.py's expected_rule(n,
 * m, False, 0.95), the ends the sorted differences at k, nm - k + 1.
 */
static const struct rule_row {
	int line;
	size_t n, m;
	size_t k;
	double level_achieved;
} rule_rows[] = {
	{ __LINE__, 49, 49, 925, 0.9504286694703119 },
	{ __LINE__, 50, 50, 965, 0.95 },
	{ __LINE__, 60, 55, 1299, 0.95 },
};

START_TEST(test_rule)
{
	const struct rule_row *t = &rule_rows[_i];
	double x[60], y[60], *d;
	struct cmpstats_shift s;
	size_t i;

	/* No ties: x the integers, y between them. */
	for (i = 0; i < t->n; i++)
		x[(i * 11) % t->n] = (double)i;
	for (i = 0; i < t->m; i++)
		y[i] = (double)i + 3.5;
	ck_assert_int_eq(cmpstats_hodges_lehmann(x, t->n, y, t->m, 0.95, &s),
			 0);
	d = sorted_differences(x, t->n, y, t->m);
	ck_assert_msg(s.k == t->k && s.has_interval, "line %d: k %zu",
		      t->line, s.k);
	near(t->line, "lo", s.lo, d[t->k - 1], 0);
	near(t->line, "hi", s.hi, d[t->n * t->m - t->k], 0);
	near(t->line, "level_achieved", s.level_achieved, t->level_achieved,
	     1e-12);
	free(d);
}
END_TEST

/* scipy.stats.norm.ppf(p), scipy 1.10.1. */
static const struct quantile_row {
	int line;
	double p, z;
} quantile_rows[] = {
	{ __LINE__, 0.975, 1.959963984540054 },
	{ __LINE__, 0.5, 0.0 },
	{ __LINE__, 0.3, -0.5244005127080409 },
	{ __LINE__, 0.02425, -1.972961051311885 },
	{ __LINE__, 0.001, -3.090232306167813 },
	{ __LINE__, 1e-10, -6.361340902404056 },
	{ __LINE__, 1e-300, -37.0470962993612 },
	{ __LINE__, 0.9, 1.2815515655446004 },
	{ __LINE__, 0.999999, 4.753424308817087 },
	{ __LINE__, 1 - DBL_EPSILON / 2, 8.209536151601387 },
};

START_TEST(test_normal_quantile)
{
	const struct quantile_row *t = &quantile_rows[_i];
	const double z = cmpstats_normal_quantile(t->p);

	ck_assert_msg(fabs(z - t->z) <= 1e-14 * fabs(t->z) + 1e-300,
		      "line %d: %.17g, want %.17g", t->line, z, t->z);
}
END_TEST

START_TEST(test_normal_quantile_domain)
{
	static const double bad[] = { 0.0, 1.0, -0.5, 1.5, NAN, INFINITY };
	size_t i;

	/* The interval's z at 0.95, to 1e-12 as the issue asks. */
	ck_assert(fabs(cmpstats_normal_quantile(0.975) - 1.959963984540054) <=
		  1e-12);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert(isnan(cmpstats_normal_quantile(bad[i])));
}
END_TEST

/*
 * The least runs a side for an interval: the smallest n with
 * 2 / C(2n, n) below 1 - level (less R's fuzz), from
 * tests/cmpstats-scipy.py's expected_rule(n, n, False, level).
 * At 0.9, n = 3 gives exactly 2 / 20 = 0.1: not below.
 */
static const struct runs_row {
	int line;
	double level;
	size_t n;
} runs_rows[] = {
	{ __LINE__, 0.95, 4 },
	{ __LINE__, 0.99, 5 },
	{ __LINE__, 0.9, 4 },
	{ __LINE__, 0.8, 3 },
	{ __LINE__, 0.5, 2 },
	{ __LINE__, 0.3, 2 },
	{ __LINE__, 0.999, 7 },
};

/* Whether n runs a side, none tied, give an interval at level. */
static bool interval_with(size_t n, double level)
{
	double x[16], y[16];
	struct cmpstats_shift s;
	size_t i;

	for (i = 0; i < n; i++) {
		x[i] = (double)i;
		y[i] = (double)i + 0.5;
	}
	ck_assert_int_eq(cmpstats_hodges_lehmann(x, n, y, n, level, &s), 0);
	return s.has_interval;
}

START_TEST(test_min_runs)
{
	const struct runs_row *t = &runs_rows[_i];

	ck_assert_msg(cmpstats_min_runs(t->level) == t->n,
		      "line %d: %zu, want %zu", t->line,
		      cmpstats_min_runs(t->level), t->n);
	ck_assert(interval_with(t->n, t->level));
	ck_assert(!interval_with(t->n - 1, t->level));
}
END_TEST

START_TEST(test_errors)
{
	static const double levels[] = { 0.0, 1.0, -0.5, 1.5, NAN };
	const double ok[] = { 1, 2, 3 }, nan[] = { 1, NAN, 3 };
	const double inf[] = { 1, 2, -INFINITY };
	struct cmpstats_summary sum;
	struct cmpstats_shift s;
	struct cmpstats_mwu r;
	size_t i;

	ck_assert_int_eq(cmpstats_summary(ok, 0, &sum), -EINVAL);
	ck_assert_int_eq(cmpstats_summary(nan, 3, &sum), -EINVAL);
	ck_assert_int_eq(cmpstats_summary(inf, 3, &sum), -EINVAL);
	ck_assert_int_eq(cmpstats_mann_whitney(ok, 0, ok, 3, &r), -EINVAL);
	ck_assert_int_eq(cmpstats_mann_whitney(ok, 3, ok, 0, &r), -EINVAL);
	ck_assert_int_eq(cmpstats_mann_whitney(nan, 3, ok, 3, &r), -EINVAL);
	ck_assert_int_eq(cmpstats_mann_whitney(ok, 3, inf, 3, &r), -EINVAL);
	ck_assert_int_eq(cmpstats_hodges_lehmann(ok, 0, ok, 3, 0.95, &s),
			 -EINVAL);
	ck_assert_int_eq(cmpstats_hodges_lehmann(ok, 3, ok, 0, 0.95, &s),
			 -EINVAL);
	ck_assert_int_eq(cmpstats_hodges_lehmann(inf, 3, ok, 3, 0.95, &s),
			 -EINVAL);
	ck_assert_int_eq(cmpstats_hodges_lehmann(ok, 3, nan, 3, 0.95, &s),
			 -EINVAL);
	for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		ck_assert_int_eq(cmpstats_hodges_lehmann(ok, 3, ok, 3,
							 levels[i], &s),
				 -EINVAL);
		ck_assert_uint_eq(cmpstats_min_runs(levels[i]), 0);
	}
}
END_TEST

/* xorshift64*: the same samples on every machine. */
static uint64_t next_random(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * UINT64_C(2685821657736338717);
}

/* A value of one of five kinds of sample: continuous, few values
 * (ties), one value, negative, around 1e12. */
static double random_value(uint64_t *state, unsigned int kind, double shift)
{
	const double u = (double)(next_random(state) >> 11) /
			 9007199254740992.0;	/* 2^53: u in [0, 1) */

	switch (kind % 5) {
	case 0:
		return 100.0 + shift + 10.0 * u;
	case 1:
		return floor(6.0 * u) + shift;
	case 2:
		return 1000.0 + shift;
	case 3:
		return -1000.0 * u * u - shift;
	default:
		return 1e12 + floor(2000.0 * u) + shift;
	}
}

static void random_sample(uint64_t *state, double *v, size_t n,
			  unsigned int kind, double shift)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = random_value(state, kind, shift);
}

/* Selected without the differences, or made and sorted: the same. */
static void check_paths(const double *x, size_t n, const double *y, size_t m,
			double level)
{
	struct cmpstats_shift made, selected;

	ck_assert_int_eq(cmpstats_hodges_lehmann_with(x, n, y, m, level,
						      SIZE_MAX, &made), 0);
	ck_assert_int_eq(cmpstats_hodges_lehmann_with(x, n, y, m, level, 0,
						      &selected), 0);
	ck_assert_msg(made.estimate == selected.estimate &&
		      made.lo == selected.lo && made.hi == selected.hi &&
		      made.k == selected.k,
		      "n %zu m %zu: made %.17g [%.17g, %.17g], selected %.17g "
		      "[%.17g, %.17g]", n, m, made.estimate, made.lo, made.hi,
		      selected.estimate, selected.lo, selected.hi);
	ck_assert(made.lo <= made.estimate && made.estimate <= made.hi);
}

#define PATHS_MAX 3000

START_TEST(test_paths_small)
{
	static double x[PATHS_MAX], y[PATHS_MAX];
	static const double levels[] = { 0.95, 0.9, 0.99 };
	uint64_t state = 27;
	unsigned int i;
	size_t n, m;

	for (i = 0; i < 400; i++) {
		n = 1 + next_random(&state) % 80;
		m = 1 + next_random(&state) % 80;
		random_sample(&state, x, n, i, 0.0);
		random_sample(&state, y, m, i, (double)(i % 4));
		check_paths(x, n, y, m, levels[i % 3]);
	}
}
END_TEST

/* Up to 3 million differences, some sides tiny. */
static const struct paths_row {
	int line;
	size_t n, m;
	unsigned int kind;
} paths_rows[] = {
	{ __LINE__, 3000, 1000, 0 },
	{ __LINE__, 1500, 1500, 1 },
	{ __LINE__, 2999, 3, 3 },
	{ __LINE__, 1, 3000, 4 },
	{ __LINE__, 1000, 2000, 4 },
	{ __LINE__, 2000, 999, 2 },
};

START_TEST(test_paths_large)
{
	static double x[PATHS_MAX], y[PATHS_MAX];
	const struct paths_row *t = &paths_rows[_i];
	uint64_t state = 1000 + (uint64_t)_i;

	random_sample(&state, x, t->n, t->kind, 0.0);
	random_sample(&state, y, t->m, t->kind, 1.0);
	check_paths(x, t->n, y, t->m, 0.95);
}
END_TEST

static Suite *cmpstats_suite(void)
{
	Suite *s = suite_create("cmpstats");
	TCase *tp = tcase_create("pairs");
	TCase *to = tcase_create("one sample");
	TCase *tr = tcase_create("rules");
	TCase *tl = tcase_create("paths");

	tcase_add_loop_test(tp, test_pairs, 0, N_ROWS(pair_rows));
	tcase_add_loop_test(tp, test_unchanged, 0, N_ROWS(pair_rows));
	tcase_add_test(tp, test_deterministic);
	tcase_add_test(tp, test_signed_zero);
	tcase_add_loop_test(tp, test_exact_wide, 0, N_ROWS(wide_rows));
	tcase_add_test(tp, test_errors);
	suite_add_tcase(s, tp);
	tcase_add_loop_test(to, test_summary, 0, N_ROWS(summary_rows));
	suite_add_tcase(s, to);
	tcase_add_loop_test(tr, test_rule, 0, N_ROWS(rule_rows));
	tcase_add_loop_test(tr, test_normal_quantile, 0, N_ROWS(quantile_rows));
	tcase_add_test(tr, test_normal_quantile_domain);
	tcase_add_loop_test(tr, test_min_runs, 0, N_ROWS(runs_rows));
	suite_add_tcase(s, tr);
	tcase_add_test(tl, test_paths_small);
	tcase_add_loop_test(tl, test_paths_large, 0, N_ROWS(paths_rows));
	suite_add_tcase(s, tl);
	return s;
}

int main(void)
{
	return unit_run(cmpstats_suite());
}
