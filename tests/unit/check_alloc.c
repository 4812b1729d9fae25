/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Allocation failures on the way to output: whichever of pstat's own
 * allocations fails, from the aggregates to the last printed line, the
 * results (and --list) are whole or the failure is said (NULL,
 * -ENOMEM); never rows silently missing. The suite links with --wrap for malloc, calloc and
 * realloc, so that pstat's own calls can be made to fail one at a time.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "aggr.h"
#include "evlist.h"
#include "evparse.h"
#include "list.h"
#include "options.h"
#include "output.h"
#include "pmu.h"
#include "results.h"
#include "target.h"

#include "fake_kernel.h"
#include "fake_sysfs.h"
#include "alloc_fail.h"
#include "unit.h"

/* How many allocations the code under test made. */
static long made;

static int cpus[] = { 0, 1 };

/* The events of spec, open on two CPUs of the fake kernel, read. */
static struct evlist *counted(const char *spec)
{
	const struct target t = {
		.cpus = cpus, .n_cpus = N_ROWS(cpus), .inherit = true,
	};
	struct evlist *el = evlist_new();
	struct error err;
	size_t failed, i;

	ck_assert_ptr_nonnull(el);
	ck_assert_msg(evparse(el, spec, &err) == 0, "'%s': %s", spec,
		      err.reason);
	ck_assert_int_eq(evlist_open(el, &t, &failed), 0);
	for (i = 0; i < fake.n_opens; i++)
		fake_count(fake.opens[i].ret, 1000000 * (i + 1), 2000000,
			   2000000);
	ck_assert_int_eq(evlist_read(el), 0);
	return el;
}

static char arg0[] = "true";
static char *const run_argv[] = { arg0, NULL };

static const struct alloc_row {
	int line;
	const char *spec;
	enum aggr_kind aggr;
	struct output_opts o;
	size_t runs;
} alloc_rows[] = {
	{ __LINE__, "task-clock,page-faults", AGGR_GLOBAL,
	  { .format = OUTPUT_HUMAN, .big_num = true, .runs = 1 }, 1 },
	{ __LINE__, "task-clock,page-faults", AGGR_CPU,
	  { .format = OUTPUT_CSV, .sep = ",", .runs = 1 }, 1 },
	{ __LINE__, "task-clock,page-faults", AGGR_GLOBAL,
	  { .format = OUTPUT_HUMAN, .runs = 3 }, 3 },
	{ __LINE__, "task-clock,page-faults,cs", AGGR_GLOBAL,
	  { .format = OUTPUT_HUMAN, .metric_only = true, .runs = 1 }, 1 },
	{ __LINE__, "task-clock,page-faults,cs", AGGR_CPU,
	  { .format = OUTPUT_JSONL, .metric_only = true, .runs = 1 }, 1 },
	{ __LINE__, "task-clock,page-faults", AGGR_CORE,
	  { .format = OUTPUT_PSTAT_JSON, .runs = 2 }, 2 },
	{ __LINE__, "task-clock,page-faults", AGGR_CPU,
	  { .format = OUTPUT_PSTAT_CSV, .runs = 1 }, 1 },
};

/*
 * Aggregates, results and output of el as t asks, into *text, with
 * allocation k failing (0: none): 0, or -ENOMEM when any step said it
 * ran out of memory.
 */
static int print(const struct alloc_row *t, const struct evlist *el,
		 long k, char **text)
{
	const struct output_run run = {
		.argv = run_argv, .elapsed_ns = 2e6, .runs_done = t->runs,
	};
	struct aggr ag = { 0 };
	struct results *res = NULL;
	struct output *out = NULL;
	size_t len = 0, r;
	FILE *f = open_memstream(text, &len);
	int ret = 0;

	ck_assert_ptr_nonnull(f);
	alloc_calls = 0;
	alloc_fail_at = k;
	if (t->aggr != AGGR_GLOBAL)
		ret = aggr_build(&ag, t->aggr, cpus, N_ROWS(cpus), false);
	if (ret == 0)
		res = results_new(el, false, t->runs,
				  t->aggr != AGGR_GLOBAL ? &ag : NULL);
	if (res)
		out = output_new(f, &t->o);
	if (out) {
		/* A run not added is said by its caller (run.c). */
		for (r = 0; r < t->runs && ret == 0; r++) {
			results_snapshot(res);
			ret = results_end_run(res, 2e6);
		}
		output_final(out, res, &run);
		if (output_close(out) < 0 || ret < 0)
			ret = -ENOMEM;
	} else {
		ret = -ENOMEM;
	}
	alloc_fail_at = 0;
	made = alloc_calls;
	results_free(res);
	aggr_free(&ag);
	ck_assert_int_eq(fclose(f), 0);
	return ret;
}

START_TEST(test_alloc_failures)
{
	const struct alloc_row *t = &alloc_rows[_i];
	struct evlist *el = counted(t->spec);
	char *whole = NULL, *text;
	long k, n;
	int ret;

	ck_assert_msg(print(t, el, 0, &whole) == 0, "line %d", t->line);
	n = made;
	ck_assert_msg(n > 0, "line %d: no allocation to fail", t->line);
	for (k = 1; k <= n; k++) {
		text = NULL;
		ret = print(t, el, k, &text);
		ck_assert_msg(ret == -ENOMEM || ret == 0,
			      "line %d, allocation %ld: returned %d", t->line,
			      k, ret);
		ck_assert_msg(ret == -ENOMEM || strcmp(text, whole) == 0,
			      "line %d, allocation %ld of %ld failed unsaid:\n"
			      "%.500s\ninstead of\n%.500s", t->line, k, n, text,
			      whole);
		free(text);
	}
	free(whole);
	evlist_free(el);
}
END_TEST

/*
 * A small sysfs and tracefs for --list. The probes of --list go to
 * the real kernel: the fake one asserts as it answers, and Check
 * allocates for each assertion, which the test would fail.
 */
static const struct fake_sysfs_entry msr_events[] = {
	{ "tsc", "event=0x00" },
	{ "aperf", "event=0x01" },
	{ NULL },
};

static const struct fake_sysfs_pmu pmus[] = {
	{ "msr", "9", NULL, NULL, msr_events },
	{ "software", "1" },
};

static const struct fake_sysfs_file tracefs[] = {
	{ "events/sched/sched_switch/id", "77\n" },
	{ "events/syscalls/sys_enter_write/id", "123\n" },
};

static void tree_setup(void)
{
	fake_sysfs_setup("check_alloc");
	fake_sysfs_pmus("sys", pmus, N_ROWS(pmus));
	fake_sysfs_files(tracefs, N_ROWS(tracefs));
	fake_sysfs_use("sys", "events");
}

/* --list into *text, allocation k failing (0: none): list_print's
 * return. */
static int list(bool json, long k, char **text)
{
	size_t len = 0;
	FILE *f = open_memstream(text, &len);
	int ret;

	ck_assert_ptr_nonnull(f);
	alloc_calls = 0;
	alloc_fail_at = k;
	ret = list_print(f, NULL, json);
	alloc_fail_at = 0;
	made = alloc_calls;
	ck_assert_int_eq(fclose(f), 0);
	return ret;
}

/* --list, each allocation failing in turn: the whole list, or -ENOMEM. */
START_TEST(test_list)
{
	char *whole = NULL, *text;
	long k, n;
	int ret;

	ck_assert_int_eq(list(_i, 0, &whole), 0);
	ck_assert_ptr_nonnull(strstr(whole, "msr/tsc/"));
	ck_assert_ptr_nonnull(strstr(whole, "syscalls:sys_enter_write"));
	n = made;
	ck_assert_int_gt(n, 0);
	for (k = 1; k <= n; k++) {
		text = NULL;
		ret = list(_i, k, &text);
		ck_assert_msg(ret == -ENOMEM || (ret == 0 &&
						 strcmp(text, whole) == 0),
			      "allocation %ld of %ld: returned %d with\n%.300s", k,
			      n, ret, text);
		free(text);
	}
	free(whole);
}
END_TEST

static Suite *alloc_suite(void)
{
	Suite *s = suite_create("alloc");
	TCase *tc = tcase_create("results");

	tcase_add_checked_fixture(tc, fake_setup, fake_teardown);
	tcase_add_loop_test(tc, test_alloc_failures, 0, N_ROWS(alloc_rows));
	suite_add_tcase(s, tc);
	tc = tcase_create("list");
	tcase_add_checked_fixture(tc, tree_setup, fake_sysfs_teardown);
	tcase_add_loop_test(tc, test_list, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(alloc_suite());
}
