/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of metrics.c: CPUs utilized and rates with perf's units. */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "metrics.h"

#define N_ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const struct metric_row {
	int line;
	bool is_clock;
	double value;
	double wall_ns, clock_ns;
	bool valid;
	double want;
	const char *unit;
} metric_rows[] = {
	/* A clock's nanoseconds over the wall clock's. */
	{ __LINE__, true, 1157962, 1707000, 1157962, true,
	  1157962.0 / 1707000, "CPUs utilized" },
	{ __LINE__, true, 2e9, 1e9, 2e9, true, 2.0, "CPUs utilized" },
	{ __LINE__, true, 0, 1e9, 0, true, 0.0, "CPUs utilized" },
	{ __LINE__, true, 5e8, 1e9, 0, true, 0.5, "CPUs utilized" },
	{ __LINE__, true, 1157962, 0, 1157962, false, 0.0, "" },
	/* Anything else per second of the clock. */
	{ __LINE__, false, 0, 1e9, 1e9, true, 0.0, "/sec" },
	{ __LINE__, false, 500, 1e9, 1e9, true, 500.0, "/sec" },
	{ __LINE__, false, 1000, 1e9, 1e9, true, 1000.0, "/sec" },
	{ __LINE__, false, 97514, 1e9, 1e9, true, 97.514, "K/sec" },
	{ __LINE__, false, 97514, 5e9, 5e8, true, 195.028, "K/sec" },
	{ __LINE__, false, 1e6, 1e9, 1e9, true, 1000.0, "K/sec" },
	{ __LINE__, false, 5e6, 1e9, 1e9, true, 5.0, "M/sec" },
	{ __LINE__, false, 1e9, 1e9, 1e9, true, 1000.0, "M/sec" },
	{ __LINE__, false, 2e9, 1e9, 1e9, true, 2.0, "G/sec" },
	{ __LINE__, false, 3e12, 1e9, 1e9, true, 3000.0, "G/sec" },
	/* Without a clock there is no rate. */
	{ __LINE__, false, 500, 1e9, 0, false, 0.0, "" },
	{ __LINE__, false, 0, 0, 0, false, 0.0, "" },
};

START_TEST(test_metric)
{
	const struct metric_row *t = &metric_rows[_i];
	const struct metrics_ctx ctx = {
		.wall_ns = t->wall_ns,
		.clock_ns = t->clock_ns,
	};
	struct metric m;

	memset(&m, 0x55, sizeof(m));
	metrics_compute(t->is_clock, t->value, &ctx, &m);
	ck_assert_msg(m.valid == t->valid, "line %d: valid %d", t->line,
		      m.valid);
	ck_assert_msg(fabs(m.value - t->want) <= 1e-9 * fabs(t->want),
		      "line %d: value %.12g, want %.12g", t->line, m.value,
		      t->want);
	ck_assert_msg(memchr(m.unit, '\0', sizeof(m.unit)) &&
		      strcmp(m.unit, t->unit) == 0,
		      "line %d: unit '%.*s', want '%s'", t->line,
		      (int)sizeof(m.unit), m.unit, t->unit);
}
END_TEST

static Suite *metrics_suite(void)
{
	Suite *s = suite_create("metrics");
	TCase *tc = tcase_create("compute");

	tcase_add_loop_test(tc, test_metric, 0, N_ROWS(metric_rows));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(metrics_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
