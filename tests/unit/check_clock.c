/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of clock.c: each clock as clock_gettime gives it, both ways. */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include <check.h>

#include "clock.h"
#include "unit.h"

static const struct clock_row {
	int line;
	clockid_t id;
	bool often;		/* after clock_read_often */
} clock_rows[] = {
	{ __LINE__, CLOCK_MONOTONIC, false },
	{ __LINE__, CLOCK_REALTIME, false },
	{ __LINE__, CLOCK_BOOTTIME, false },
	{ __LINE__, CLOCK_MONOTONIC, true },
	{ __LINE__, CLOCK_REALTIME, true },
	{ __LINE__, CLOCK_BOOTTIME, true },
};

static long long ns(const struct timespec *ts)
{
	return (long long)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

/* Between two reads of the C library's, of the same clock. Each test
 * runs in a process of its own: the first rows read by system call. */
START_TEST(test_clock)
{
	const struct clock_row *t = &clock_rows[_i];
	struct timespec before, now = { -1, -1 }, after;

	if (t->often)
		clock_read_often();
	ck_assert_int_eq(clock_gettime(t->id, &before), 0);
	clock_now(t->id, &now);
	ck_assert_int_eq(clock_gettime(t->id, &after), 0);
	ck_assert_msg(now.tv_nsec >= 0 && now.tv_nsec < 1000000000,
		      "line %d: tv_nsec %ld", t->line, now.tv_nsec);
	ck_assert_msg(ns(&before) <= ns(&now) && ns(&now) <= ns(&after),
		      "line %d: %lld not within [%lld, %lld]", t->line,
		      ns(&now), ns(&before), ns(&after));
}
END_TEST

static Suite *clock_suite(void)
{
	Suite *s = suite_create("clock");
	TCase *tc = tcase_create("clock");

	tcase_add_loop_test(tc, test_clock, 0, N_ROWS(clock_rows));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(clock_suite());
}
