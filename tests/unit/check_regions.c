/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of regions.c: spans summed over entries, nesting of one
 * name counted once, ends of regions not open, regions open at the end,
 * readings that went backwards, and the bound on names.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>

#include <check.h>

#include "regions.h"
#include "unit.h"

/* A reading of two values: value v, enabled and running e. */
static void reading(struct counts_values *r, uint64_t v, uint64_t e)
{
	r[0] = (struct counts_values){ v, e, e };
	r[1] = (struct counts_values){ 2 * v, e, e / 2 };
}

START_TEST(test_spans)
{
	struct regions *rs = regions_new(2);
	struct counts_values now[2];
	const struct region *a;

	ck_assert_ptr_nonnull(rs);
	reading(now, 10, 100);
	ck_assert_int_eq(regions_begin(rs, "a", now, 1000.0), 0);
	reading(now, 15, 150);
	ck_assert_int_eq(regions_end(rs, "a", now, 1500.0), 0);
	reading(now, 40, 400);
	ck_assert_int_eq(regions_begin(rs, "a", now, 4000.0), 0);
	reading(now, 47, 470);
	ck_assert_int_eq(regions_end(rs, "a", now, 4700.0), 0);
	ck_assert_uint_eq(rs->n, 1);
	a = &rs->r[0];
	ck_assert_str_eq(a->name, "a");
	ck_assert_uint_eq(a->entries, 2);
	ck_assert_uint_eq(a->sum[0].value, 12);
	ck_assert_uint_eq(a->sum[0].enabled, 120);
	ck_assert_uint_eq(a->sum[1].value, 24);
	ck_assert_uint_eq(a->sum[1].running, 60);
	ck_assert(a->time_ns == 1200.0);
	ck_assert(!a->open);
	regions_free(rs);
}
END_TEST

/* The same name within itself: one span, from the first begin to the
 * last end; another name within it: a span of its own. */
START_TEST(test_nesting)
{
	struct regions *rs = regions_new(2);
	struct counts_values now[2];

	reading(now, 0, 0);
	regions_begin(rs, "o", now, 0.0);
	reading(now, 5, 50);
	regions_begin(rs, "o", now, 50.0);
	regions_begin(rs, "i", now, 50.0);
	reading(now, 8, 80);
	regions_end(rs, "i", now, 80.0);
	regions_end(rs, "o", now, 80.0);
	ck_assert_uint_eq(rs->r[0].sum[0].value, 0);
	reading(now, 9, 90);
	regions_end(rs, "o", now, 90.0);
	ck_assert_uint_eq(rs->r[0].entries, 2);
	ck_assert_uint_eq(rs->r[0].sum[0].value, 9);
	ck_assert_uint_eq(rs->r[1].sum[0].value, 3);
	ck_assert(rs->r[0].time_ns == 90.0);
	regions_free(rs);
}
END_TEST

/* An end of a region not open; one left open at the end; a reading
 * lower than the begin's adds nothing. */
START_TEST(test_unmatched_open)
{
	struct regions *rs = regions_new(2);
	struct counts_values now[2];

	reading(now, 10, 100);
	ck_assert_int_eq(regions_end(rs, "never", now, 0.0), 0);
	ck_assert_uint_eq(rs->r[0].unmatched, 1);
	ck_assert_uint_eq(rs->r[0].entries, 0);
	regions_begin(rs, "left", now, 100.0);
	reading(now, 4, 40);
	regions_finish(rs, now, 300.0);
	ck_assert(rs->r[1].open);
	ck_assert_uint_eq(rs->r[1].sum[0].value, 0);
	ck_assert(rs->r[1].time_ns == 200.0);
	/* Closed by the end: a later end is one without a begin. */
	regions_end(rs, "left", now, 400.0);
	ck_assert_uint_eq(rs->r[1].unmatched, 1);
	regions_free(rs);
}
END_TEST

START_TEST(test_bound)
{
	struct regions *rs = regions_new(1);
	struct counts_values now[1] = { { 0, 0, 0 } };
	char name[16];
	int i;

	for (i = 0; i < REGIONS_MAX; i++) {
		snprintf(name, sizeof(name), "r%d", i);
		ck_assert_int_eq(regions_begin(rs, name, now, 0.0), 0);
	}
	ck_assert_int_eq(regions_begin(rs, "more", now, 0.0), -E2BIG);
	ck_assert_int_eq(regions_end(rs, "more", now, 0.0), -E2BIG);
	ck_assert_uint_eq(rs->dropped, 2);
	/* Known names go on. */
	ck_assert_int_eq(regions_end(rs, "r7", now, 1.0), 0);
	ck_assert_uint_eq(rs->n, REGIONS_MAX);
	regions_free(rs);
}
END_TEST

static Suite *regions_suite(void)
{
	Suite *s = suite_create("regions");
	TCase *tc = tcase_create("regions");

	tcase_add_test(tc, test_spans);
	tcase_add_test(tc, test_nesting);
	tcase_add_test(tc, test_unmatched_open);
	tcase_add_test(tc, test_bound);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(regions_suite());
}
