/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of fit.c: the counters an event of perf's tables may use,
 * and whether a group's events find a counter each at once.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include <check.h>

#include "fit.h"
#include "unit.h"

/* Skylake-X's core PMU, as its counter.json says. */
static const struct fit_pmu skx = { .generic = 4, .fixed = 3 };

/* The tables' Counter fields, as the events say them. */
static const struct parse_row {
	int line;
	const char *counter;
	bool gp_too;
	int ret;
	unsigned int generic, fixed;
} parse_rows[] = {
	{ __LINE__, NULL, true, 0, 0xf, 0 },
	{ __LINE__, "", true, 0, 0xf, 0 },
	{ __LINE__, "0,1,2,3", true, 0, 0xf, 0 },
	{ __LINE__, "2", true, 0, 0x4, 0 },
	{ __LINE__, "0,2,3", true, 0, 0xd, 0 },
	/* Counters the PMU does not have are none to use. */
	{ __LINE__, "0,1,2,3,4,5,6,7", true, 0, 0xf, 0 },
	{ __LINE__, "Fixed counter 1", true, 0, 0xf, 0x2 },
	/* event=0: the fixed counter's alone. */
	{ __LINE__, "Fixed counter 2", false, 0, 0, 0x4 },
	{ __LINE__, "Fixed", false, 0, 0, 0x7 },
	{ __LINE__, "Fixed counter x", true, -EINVAL, 0, 0 },
	{ __LINE__, "0,,1", true, -EINVAL, 0, 0 },
	{ __LINE__, "0,1,", true, -EINVAL, 0, 0 },
	{ __LINE__, "all", true, -EINVAL, 0, 0 },
};

START_TEST(test_parse)
{
	const struct parse_row *r = &parse_rows[_i];
	struct fit_event e;
	int ret = fit_event_parse(r->counter, r->gp_too, &skx, &e);

	ck_assert_msg(ret == r->ret, "line %d: %d", r->line, ret);
	if (ret < 0)
		return;
	ck_assert_msg(e.generic == r->generic && e.fixed == r->fixed,
		      "line %d: generic %#x fixed %#x", r->line, e.generic,
		      e.fixed);
}
END_TEST

/* Groups: the tables' Counter of each event (NULL ends), gp_too for
 * all, and what fits. */
static const struct group_row {
	int line;
	const char *counters[10];
	bool gp_too;
	unsigned int fixed_taken;
	bool fits;
	unsigned int generic, fixed;	/* placed; when not: generic at most */
} group_rows[] = {
	/* IpBranch: INST_RETIRED.ANY on fixed 0, a branch event. */
	{ __LINE__, { "Fixed counter 0", "0,1,2,3" }, true, 0, true, 1, 1 },
	/* Four generic and a fixed one's event: the fixed takes it. */
	{ __LINE__, { "Fixed counter 1", "0,1,2,3", "0,1,2,3", "0,1,2,3",
		      "0,1,2,3" }, true, 0, true, 4, 1 },
	/* The same with the watchdog on fixed 1: one too many. */
	{ __LINE__, { "Fixed counter 1", "0,1,2,3", "0,1,2,3", "0,1,2,3",
		      "0,1,2,3" }, true, 0x2, false, 4, 0 },
	/* Five generic ones: one too many. */
	{ __LINE__, { "0,1,2,3", "0,1,2,3", "0,1,2,3", "0,1,2,3", "0,1,2,3" },
	  true, 0, false, 4, 0 },
	/* Counter 2 alone twice: one of them waits. */
	{ __LINE__, { "2", "2" }, true, 0, false, 1, 0 },
	/* A restricted event first, the others around it. */
	{ __LINE__, { "0,1,2,3", "0,1,2,3", "0,1,2,3", "2" }, true, 0, true,
	  4, 0 },
	/* Fixed-only events: each its own counter. */
	{ __LINE__, { "Fixed counter 2", "Fixed counter 2" }, false, 0, false,
	  1, 0 },
	{ __LINE__, { "Fixed counter 0", "Fixed counter 1", "Fixed counter 2" },
	  false, 0, true, 0, 3 },
	{ __LINE__, { NULL }, true, 0, true, 0, 0 },
};

START_TEST(test_group)
{
	const struct group_row *r = &group_rows[_i];
	struct fit_pmu p = skx;
	struct fit_event ev[10];
	unsigned int gen, fix;
	size_t n;
	bool fits;

	p.fixed_taken = r->fixed_taken;
	for (n = 0; n < 10 && r->counters[n]; n++)
		ck_assert_int_eq(fit_event_parse(r->counters[n], r->gp_too, &p,
						 &ev[n]), 0);
	fits = fit_group(ev, n, &p, &gen, &fix);
	ck_assert_msg(fits == r->fits, "line %d: fits %d", r->line, fits);
	ck_assert_msg(gen == r->generic && fix == r->fixed,
		      "line %d: generic %u fixed %u", r->line, gen, fix);
}
END_TEST

static Suite *fit_suite(void)
{
	Suite *s = suite_create("fit");
	TCase *tc = tcase_create("entries");

	tcase_add_loop_test(tc, test_parse, 0, N_ROWS(parse_rows));
	tcase_add_loop_test(tc, test_group, 0, N_ROWS(group_rows));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(fit_suite());
}
