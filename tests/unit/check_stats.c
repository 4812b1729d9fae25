/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of stats.c: Welford mean and spread, interval deltas. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include <check.h>

#include "counts.h"
#include "stats.h"
#include "unit.h"

#define MAX_X 12

static const struct spread_row {
	int line;
	int n;
	double x[MAX_X];
	/* Known answers; NAN: take the two-pass computation's. */
	double mean, stddev, rel;
} spread_rows[] = {
	/* Nothing, one run, identical runs: no spread. */
	{ __LINE__, 0, { 0 }, 0.0, 0.0, 0.0 },
	{ __LINE__, 1, { 42 }, 42.0, 0.0, 0.0 },
	{ __LINE__, 1, { 1e18 }, 1e18, 0.0, 0.0 },
	{ __LINE__, 5, { 7, 7, 7, 7, 7 }, 7.0, 0.0, 0.0 },
	{ __LINE__, 3, { 123456789, 123456789, 123456789 },
	  123456789.0, 0.0, 0.0 },
	/* The textbook set: sample variance 32/7. */
	{ __LINE__, 8, { 2, 4, 4, 4, 5, 5, 7, 9 }, 5.0,
	  2.1380899352993950, 15.118578920369089 },
	{ __LINE__, 2, { 1, 3 }, 2.0, 1.4142135623730951, 50.0 },
	{ __LINE__, 4, { 10, 20, 30, 40 }, 25.0, 12.909944487358056,
	  25.819888974716108 },
	/* A mean of 0 has no relative spread. */
	{ __LINE__, 2, { -1, 1 }, 0.0, 1.4142135623730951, 0.0 },
	{ __LINE__, 3, { 0, 0, 0 }, 0.0, 0.0, 0.0 },
	/* Counts around a large offset: no digits lost to it. */
	{ __LINE__, 4, { 1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16 }, 1e9 + 10,
	  5.4772255750516612, 2.7386127601397034e-7 },
	{ __LINE__, 6, { 1e12 + 1, 1e12 + 2, 1e12 + 3, 1e12 + 1,
			 1e12 + 2, 1e12 + 3 }, 1e12 + 2, NAN, NAN },
	{ __LINE__, 5, { 4e15 + 2, 4e15, 4e15 + 4, 4e15 + 2, 4e15 + 2 },
	  4e15 + 2, 1.4142135623730951, NAN },
	/* Tables for the two-pass computation. */
	{ __LINE__, 10, { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3 }, NAN, NAN, NAN },
	{ __LINE__, 7, { 0.001, 1000, 0.5, 12345.678, 9, 1e-6, 77 },
	  NAN, NAN, NAN },
	{ __LINE__, 12, { 1157962, 1160011, 1149873, 1158000, 1201000,
			  1155555, 1159999, 1150001, 1162345, 1157000,
			  1149999, 1170000 }, NAN, NAN, NAN },
	{ __LINE__, 3, { -5, 10, -2.5 }, NAN, NAN, NAN },
	{ __LINE__, 4, { 1e-150, 3e-150, 2e-150, 4e-150 }, NAN, NAN, NAN },
	{ __LINE__, 2, { 1e150, 3e150 }, 2e150, NAN, 50.0 },
};

/* The reference: mean first, then the squares about it, in long double. */
static void two_pass(const struct spread_row *t, double *mean,
		     double *stddev, double *rel, double *min, double *max)
{
	long double sum = 0, m, ss = 0, var;
	int i;

	*min = *max = t->n ? t->x[0] : 0.0;
	for (i = 0; i < t->n; i++) {
		sum += t->x[i];
		*min = fmin(*min, t->x[i]);
		*max = fmax(*max, t->x[i]);
	}
	m = t->n ? sum / t->n : 0;
	for (i = 0; i < t->n; i++)
		ss += (t->x[i] - m) * (t->x[i] - m);
	var = t->n > 1 ? ss / (t->n - 1) : 0;
	*mean = (double)m;
	*stddev = (double)sqrtl(var);
	*rel = t->n > 1 && m != 0 ? (double)(100 * sqrtl(var / t->n) / m) : 0;
}

static void near_abs(int line, const char *what, double got, double want,
		     double abs_tol)
{
	double tol = fmax(1e-13 * fabs(want), 4 * DBL_MIN) + abs_tol;

	ck_assert_msg(fabs(got - want) <= tol, "line %d: %s %.17g, want %.17g",
		      line, what, got, want);
}

static void near(int line, const char *what, double got, double want)
{
	near_abs(line, what, got, want, 0.0);
}

/*
 * Welford in doubles is off by some ulps of the mean: against a long
 * double two-pass that is all the spread may differ by (1e12 + noise).
 */
#define SPREAD_ULPS (16 * DBL_EPSILON)

START_TEST(test_spread)
{
	const struct spread_row *t = &spread_rows[_i];
	double mean, sd, rel, min, max;
	struct stats s;
	int i;

	stats_init(&s);
	for (i = 0; i < t->n; i++)
		stats_add(&s, t->x[i]);
	two_pass(t, &mean, &sd, &rel, &min, &max);
	ck_assert_msg(s.n == t->n, "line %d: n %g", t->line, s.n);
	near(t->line, "mean", stats_mean(&s), mean);
	near_abs(t->line, "stddev", stats_stddev(&s), sd,
		 SPREAD_ULPS * fabs(mean));
	near_abs(t->line, "rel", stats_rel_stddev_mean(&s), rel,
		 100.0 * SPREAD_ULPS);
	ck_assert_msg(s.min == min && s.max == max,
		      "line %d: min %g max %g, want %g %g", t->line, s.min,
		      s.max, min, max);
	if (!isnan(t->mean))
		near(t->line, "known mean", stats_mean(&s), t->mean);
	if (!isnan(t->stddev))
		near(t->line, "known stddev", stats_stddev(&s), t->stddev);
	if (!isnan(t->rel))
		near(t->line, "known rel", stats_rel_stddev_mean(&s), t->rel);
}
END_TEST

/* Identical values leave exactly no spread, whatever their size. */
START_TEST(test_identical)
{
	static const double v[] = { 0, 1, 1e-300, 1157962, 1e9 + 0.5, 1e300 };
	struct stats s;
	size_t i;
	int k;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		stats_init(&s);
		for (k = 0; k < 1000; k++)
			stats_add(&s, v[i]);
		ck_assert(stats_mean(&s) == v[i]);
		ck_assert(stats_stddev(&s) == 0.0);
		ck_assert(stats_rel_stddev_mean(&s) == 0.0);
		ck_assert(s.min == v[i] && s.max == v[i]);
	}
}
END_TEST

/* A million noisy runs around 1e9: Welford keeps the spread. */
START_TEST(test_stable)
{
	struct stats s;
	int i;

	stats_init(&s);
	for (i = 0; i < 1000000; i++)
		stats_add(&s, 1e9 + (i % 2 ? 1.0 : -1.0));
	near(__LINE__, "mean", stats_mean(&s), 1e9);
	near(__LINE__, "stddev", stats_stddev(&s), sqrt(1e6 / (1e6 - 1)));
	near(__LINE__, "rel", stats_rel_stddev_mean(&s),
	     100.0 * sqrt(1.0 / (1e6 - 1)) / 1e9);
}
END_TEST

/* The private square root agrees with libm's to an ulp, subnormals too. */
START_TEST(test_root)
{
	struct stats s = { .n = 2 };
	double got, want;
	int e, k;

	for (e = -1074; e <= 1023; e++) {
		for (k = 0; k < 4; k++) {
			s.m2 = ldexp(1.0 + k / 4.0, e);
			got = stats_stddev(&s);
			want = sqrt(s.m2);
			ck_assert_msg(fabs(got - want) <= DBL_EPSILON * want,
				      "sqrt(%a): %a, want %a", s.m2, got, want);
		}
	}
	s.m2 = INFINITY;
	ck_assert(isinf(stats_stddev(&s)));
	s.m2 = 0.0;
	ck_assert(stats_stddev(&s) == 0.0);
}
END_TEST

static const struct delta_row {
	int line;
	struct counts_values now, prev, want;
	bool forward;		/* what stats_delta returns */
} delta_rows[] = {
	{ __LINE__, { 1500, 2000, 1000 }, { 1000, 1000, 500 },
	  { 500, 1000, 500 }, true },
	{ __LINE__, { 1000, 1000, 500 }, { 0, 0, 0 }, { 1000, 1000, 500 },
	  true },
	/* Equal readings: nothing happened. */
	{ __LINE__, { 42, 7, 7 }, { 42, 7, 7 }, { 0, 0, 0 }, true },
	{ __LINE__, { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 }, true },
	/* A counter that went backwards: 0, never a wrap, and false. */
	{ __LINE__, { 900, 2000, 2000 }, { 1000, 1000, 1000 },
	  { 0, 1000, 1000 }, false },
	{ __LINE__, { 1000, 500, 2000 }, { 1000, 1000, 1000 },
	  { 0, 0, 1000 }, false },
	{ __LINE__, { 1000, 2000, 500 }, { 1000, 1000, 1000 },
	  { 0, 1000, 0 }, false },
	{ __LINE__, { 0, 0, 0 }, { UINT64_MAX, 1, 1 }, { 0, 0, 0 }, false },
	{ __LINE__, { UINT64_MAX, UINT64_MAX, UINT64_MAX }, { 0, 1, 2 },
	  { UINT64_MAX, UINT64_MAX - 1, UINT64_MAX - 2 }, true },
};

static void check_delta(int line, const struct counts_values *d,
			const struct counts_values *w)
{
	ck_assert_msg(d->value == w->value && d->enabled == w->enabled &&
		      d->running == w->running,
		      "line %d: %ju %ju %ju, want %ju %ju %ju", line,
		      (uintmax_t)d->value, (uintmax_t)d->enabled,
		      (uintmax_t)d->running, (uintmax_t)w->value,
		      (uintmax_t)w->enabled, (uintmax_t)w->running);
}

START_TEST(test_delta)
{
	const struct delta_row *t = &delta_rows[_i];
	struct counts_values d = { 1, 2, 3 }, in_place;

	ck_assert_msg(stats_delta(&t->now, &t->prev, &d) == t->forward,
		      "line %d: forward is not %d", t->line, t->forward);
	check_delta(t->line, &d, &t->want);
	/* The delta may overwrite either reading. */
	in_place = t->prev;
	ck_assert(stats_delta(&t->now, &in_place, &in_place) == t->forward);
	check_delta(t->line, &in_place, &t->want);
	in_place = t->now;
	ck_assert(stats_delta(&in_place, &t->prev, &in_place) == t->forward);
	check_delta(t->line, &in_place, &t->want);
}
END_TEST

static Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("spread");
	TCase *td = tcase_create("delta");

	tcase_add_loop_test(tc, test_spread, 0, N_ROWS(spread_rows));
	tcase_add_test(tc, test_identical);
	tcase_add_test(tc, test_stable);
	tcase_add_test(tc, test_root);
	suite_add_tcase(s, tc);
	tcase_add_loop_test(td, test_delta, 0, N_ROWS(delta_rows));
	suite_add_tcase(s, td);
	return s;
}

int main(void)
{
	return unit_run(stats_suite());
}
