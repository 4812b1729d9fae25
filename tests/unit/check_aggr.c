/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of aggr.c: aggregates over a fake topology, and threads. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>

#include "aggr.h"
#include "fake_sysfs.h"
#include "unit.h"

#define MAX_IDS 8

/*
 * A fake sysfs: CPUs 0 and 1 are one core's two threads, CPU 2 is the
 * second die of socket 0, on node 1 with CPU 3 of socket 1; CPU 5 has
 * no topology and CPU 1 no die_id (before Linux 5.2).
 */
static const struct fake_sysfs_cpu tree_cpus[] = {
	/* cpu, socket, die, core, node */
	{ 0, 0, 0, 0, 0 },
	{ 1, 0, -1, 0, 0 },
	{ 2, 0, 1, 1, 1 },
	{ 3, 1, 0, 0, 1 },
	{ 5, -1, -1, -1, -1 },
};

static void tree_setup(void)
{
	fake_sysfs_setup("check_aggr");
	fake_sysfs_cpus("sys", "0-3,5", tree_cpus, N_ROWS(tree_cpus));
	fake_sysfs_use("sys", "events");
}

static const int cpus[] = { 0, 1, 2, 3, 5 };

/* Each kind over cpus: the aggregates in order of first sight. */
static const struct kind_row {
	int line;
	enum aggr_kind kind;
	size_t n;			/* aggregates */
	const char *label[MAX_IDS];
	int id[MAX_IDS];		/* the first CPU of each */
	int n_cpus[MAX_IDS];
	size_t of_target[MAX_IDS];	/* for each of cpus */
} kind_rows[] = {
	{ __LINE__, AGGR_CPU, 5,
	  { "CPU0", "CPU1", "CPU2", "CPU3", "CPU5" }, { 0, 1, 2, 3, 5 },
	  { 1, 1, 1, 1, 1 }, { 0, 1, 2, 3, 4 } },
	/* CPU 5 has no topology: socket, die, core and node 0. */
	{ __LINE__, AGGR_CORE, 3,
	  { "S0-D0-C0", "S0-D1-C1", "S1-D0-C0" }, { 0, 2, 3 },
	  { 3, 1, 1 }, { 0, 0, 1, 2, 0 } },
	{ __LINE__, AGGR_DIE, 3,
	  { "S0-D0", "S0-D1", "S1-D0" }, { 0, 2, 3 },
	  { 3, 1, 1 }, { 0, 0, 1, 2, 0 } },
	{ __LINE__, AGGR_SOCKET, 2,
	  { "S0", "S1" }, { 0, 3 },
	  { 4, 1 }, { 0, 0, 0, 1, 0 } },
	{ __LINE__, AGGR_NODE, 2,
	  { "N0", "N1" }, { 0, 2 },
	  { 3, 2 }, { 0, 0, 1, 1, 0 } },
};

START_TEST(test_kinds)
{
	const struct kind_row *t = &kind_rows[_i];
	struct aggr a;
	size_t i;

	ck_assert_int_eq(aggr_build(&a, t->kind, cpus, N_ROWS(cpus), false),
			 0);
	ck_assert_int_eq(a.kind, t->kind);
	ck_assert(!a.quiet_zeros);
	ck_assert_msg(a.n == t->n, "line %d: %zu aggregates, want %zu",
		      t->line, a.n, t->n);
	for (i = 0; i < t->n; i++)
		ck_assert_msg(strcmp(a.label[i], t->label[i]) == 0 &&
			      a.id[i] == t->id[i] &&
			      a.n_cpus[i] == t->n_cpus[i],
			      "line %d: aggregate %zu is %s, id %d, %d CPUs; want %s, %d, %d",
			      t->line, i, a.label[i], a.id[i], a.n_cpus[i],
			      t->label[i], t->id[i], t->n_cpus[i]);
	for (i = 0; i < (size_t)N_ROWS(cpus); i++)
		ck_assert_msg(a.of_target[i] == t->of_target[i],
			      "line %d: CPU %d in aggregate %zu, want %zu",
			      t->line, cpus[i], a.of_target[i],
			      t->of_target[i]);
	/* Only threads are named again. */
	aggr_set_thread(&a, 0, "x", 1);
	ck_assert_str_eq(a.label[0], t->label[0]);
	aggr_free(&a);
	aggr_free(&a);
}
END_TEST

/* The comm of this process, as /proc says it. */
static void own_comm(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/comm", "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, (int)len, f));
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* comm-tid from /proc; the command's slot (0) until it is named. */
START_TEST(test_threads)
{
	int ids[] = { (int)getpid(), 0 };
	char comm[32], want[64];
	struct aggr a;

	own_comm(comm, sizeof(comm));
	ck_assert_int_eq(aggr_build(&a, AGGR_THREAD, ids, 2, true), 0);
	ck_assert(a.quiet_zeros);
	ck_assert_uint_eq(a.n, 2);
	snprintf(want, sizeof(want), "%s-%d", comm, ids[0]);
	ck_assert_str_eq(a.label[0], want);
	ck_assert_int_eq(a.id[0], ids[0]);
	ck_assert_int_eq(a.n_cpus[0], 1);
	ck_assert_str_eq(a.label[1], "?-0");
	ck_assert_uint_eq(a.of_target[0], 0);
	ck_assert_uint_eq(a.of_target[1], 1);

	aggr_set_thread(&a, 1, "true", 4242);
	ck_assert_str_eq(a.label[1], "true-4242");
	ck_assert_int_eq(a.id[1], 4242);
	ck_assert_str_eq(a.label[0], want);
	aggr_free(&a);
}
END_TEST

/* A thread listed twice is one aggregate, which it counts into twice. */
START_TEST(test_threads_same)
{
	int ids[] = { (int)getpid(), (int)getpid() };
	struct aggr a;

	ck_assert_int_eq(aggr_build(&a, AGGR_THREAD, ids, 2, false), 0);
	ck_assert_uint_eq(a.n, 1);
	ck_assert_int_eq(a.n_cpus[0], 2);
	ck_assert_uint_eq(a.of_target[0], 0);
	ck_assert_uint_eq(a.of_target[1], 0);
	aggr_free(&a);
}
END_TEST

/*
 * A thread names itself with any bytes: its whole name, its control
 * characters as '?' (a newline cut the name short).
 */
START_TEST(test_threads_named)
{
	int ids[] = { (int)getpid() };
	char want[64];
	struct aggr a;

	ck_assert_int_eq(prctl(PR_SET_NAME, "a\nb,\"c\x01\x7f)", 0, 0, 0), 0);
	ck_assert_int_eq(aggr_build(&a, AGGR_THREAD, ids, 1, false), 0);
	snprintf(want, sizeof(want), "a?b,\"c\?\?)-%d", ids[0]);
	ck_assert_str_eq(a.label[0], want);
	aggr_free(&a);
}
END_TEST

/* Nothing to aggregate is no failure; freeing a zeroed aggr is harmless. */
START_TEST(test_empty)
{
	struct aggr a, zero = { 0 };

	ck_assert_int_eq(aggr_build(&a, AGGR_SOCKET, NULL, 0, false), 0);
	ck_assert_uint_eq(a.n, 0);
	aggr_free(&a);
	aggr_free(&zero);
	aggr_set_thread(&zero, 0, "x", 1);
}
END_TEST

static Suite *aggr_suite(void)
{
	Suite *s = suite_create("aggr");
	TCase *tk = tcase_create("kinds");
	TCase *tt = tcase_create("threads");

	tcase_add_checked_fixture(tk, tree_setup, fake_sysfs_teardown);
	tcase_add_loop_test(tk, test_kinds, 0, N_ROWS(kind_rows));
	suite_add_tcase(s, tk);
	tcase_add_test(tt, test_threads);
	tcase_add_test(tt, test_threads_same);
	tcase_add_test(tt, test_threads_named);
	tcase_add_test(tt, test_empty);
	suite_add_tcase(s, tt);
	return s;
}

int main(void)
{
	return unit_run(aggr_suite());
}
