/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of topology.c: CPU lists, and where CPUs sit in sysfs. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <check.h>

#include "fake_sysfs.h"
#include "topology.h"
#include "unit.h"

#define MAX_CPUS 8

struct list_row {
	int line;
	const char *s;
	int n;			/* the count, or -EINVAL or -ERANGE */
	int cpus[MAX_CPUS];	/* the first MAX_CPUS of them */
	size_t bad;		/* with an error: the offset blamed */
};

static const struct list_row list_rows[] = {
	/* Single CPUs, ranges, both. */
	{ __LINE__, "0", 1, { 0 } },
	{ __LINE__, "5", 1, { 5 } },
	{ __LINE__, "0-3", 4, { 0, 1, 2, 3 } },
	{ __LINE__, "0-3,6", 5, { 0, 1, 2, 3, 6 } },
	{ __LINE__, "2-2", 1, { 2 } },
	{ __LINE__, "1,3,5,7", 4, { 1, 3, 5, 7 } },
	{ __LINE__, "010", 1, { 10 } },		/* decimal, never octal */
	/* Sorted, and each CPU once. */
	{ __LINE__, "6,0-3", 5, { 0, 1, 2, 3, 6 } },
	{ __LINE__, "7,5,3,1", 4, { 1, 3, 5, 7 } },
	{ __LINE__, "1,1,1", 1, { 1 } },
	{ __LINE__, "0-3,2-5", 6, { 0, 1, 2, 3, 4, 5 } },
	{ __LINE__, "4-7,0-7,5", 8, { 0, 1, 2, 3, 4, 5, 6, 7 } },
	/* sysfs ends its lists with a newline. */
	{ __LINE__, "0-1,3\n", 3, { 0, 1, 3 } },
	/* The largest CPU a list may name, and past it. */
	{ __LINE__, "65535", 1, { 65535 } },
	{ __LINE__, "65534-65535", 2, { 65534, 65535 } },
	{ __LINE__, "65536", -ERANGE, { 0 }, 0 },
	{ __LINE__, "0-65536", -ERANGE, { 0 }, 2 },
	{ __LINE__, "1,99999999999999999999", -ERANGE, { 0 }, 2 },
	{ __LINE__, "1-99999999999999999999999", -ERANGE, { 0 }, 2 },
	/* Nothing at all. */
	{ __LINE__, "", -EINVAL, { 0 }, 0 },
	{ __LINE__, "\n", -EINVAL, { 0 }, 0 },
	/* Not a number where one must be: the offset of that place. */
	{ __LINE__, "a", -EINVAL, { 0 }, 0 },
	{ __LINE__, ",", -EINVAL, { 0 }, 0 },
	{ __LINE__, "-1", -EINVAL, { 0 }, 0 },
	{ __LINE__, "+1", -EINVAL, { 0 }, 0 },
	{ __LINE__, "0-", -EINVAL, { 0 }, 2 },
	{ __LINE__, "0-a", -EINVAL, { 0 }, 2 },
	{ __LINE__, "0--3", -EINVAL, { 0 }, 2 },
	{ __LINE__, "0,,1", -EINVAL, { 0 }, 2 },
	/* A comma promises one more: none is an error, not "0". */
	{ __LINE__, "0,", -EINVAL, { 0 }, 2 },
	{ __LINE__, "0-3,\n", -EINVAL, { 0 }, 4 },
	/* A newline ends the list, and only as its last character: "0\n5"
	 * was CPU 0 alone, with "5" left unread. */
	{ __LINE__, "0\n5", -EINVAL, { 0 }, 1 },
	{ __LINE__, "0\n\n", -EINVAL, { 0 }, 1 },
	{ __LINE__, "0,\n5", -EINVAL, { 0 }, 2 },
	{ __LINE__, "0-3,x", -EINVAL, { 0 }, 4 },
	/* A range that runs backwards: blamed on its end. */
	{ __LINE__, "3-1", -EINVAL, { 0 }, 2 },
	{ __LINE__, "0,10-9", -EINVAL, { 0 }, 5 },
	/* Anything after a number but ',' '-' or the end. */
	{ __LINE__, "0x1", -EINVAL, { 0 }, 1 },
	{ __LINE__, "0-3:1", -EINVAL, { 0 }, 3 },
	{ __LINE__, "1 2", -EINVAL, { 0 }, 1 },
	{ __LINE__, "0-1-2", -EINVAL, { 0 }, 3 },
	/* No whitespace but the final newline. */
	{ __LINE__, " 0", -EINVAL, { 0 }, 0 },
	{ __LINE__, "0 ", -EINVAL, { 0 }, 1 },
	{ __LINE__, "0, 1", -EINVAL, { 0 }, 2 },
	{ __LINE__, "0 - 3", -EINVAL, { 0 }, 1 },
	{ __LINE__, "0-\t3", -EINVAL, { 0 }, 2 },
	{ __LINE__, "\t0", -EINVAL, { 0 }, 0 },
};

START_TEST(test_parse_list)
{
	static int untouched;
	const struct list_row *t = &list_rows[_i];
	int *cpus = &untouched, n, i;
	size_t bad = 12345;

	n = topology_parse_list(t->s, &cpus, &bad);
	ck_assert_msg(n == t->n, "line %d: %d, want %d", t->line, n, t->n);
	if (n < 0) {
		ck_assert_msg(bad == t->bad, "line %d: offset %zu, want %zu",
			      t->line, bad, t->bad);
		/* Nothing to free: the caller's pointer is left alone. */
		ck_assert(cpus == &untouched);
		return;
	}
	for (i = 0; i < n && i < MAX_CPUS; i++)
		ck_assert_msg(cpus[i] == t->cpus[i],
			      "line %d: cpus[%d] is %d, want %d", t->line, i,
			      cpus[i], t->cpus[i]);
	free(cpus);
}
END_TEST

/* Every CPU a list may name, in one range and twice over. */
START_TEST(test_parse_list_all)
{
	int *cpus, n, i;
	size_t bad;

	n = topology_parse_list("0-65535,65535-65535,0-65535\n", &cpus, &bad);
	ck_assert_int_eq(n, 65536);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(cpus[i], i);
	for (i = -1; i <= 65536; i += 4097)
		ck_assert_int_eq(topology_contains(cpus, n, i),
				 i >= 0 && i < 65536);
	free(cpus);
}
END_TEST

/* Address-space limits and these tools do not mix. */
static bool limits_work(void)
{
	const char *preload = getenv("LD_PRELOAD");

#if defined(__SANITIZE_ADDRESS__)
	return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	return false;
#endif
#endif
	return !preload || !strstr(preload, "vgpreload");
}

/*
 * A 32 KiB list that names every CPU 4096 times: pstat used to expand
 * each range into an array before dropping repeats (1 GiB, 34 s). Now
 * it parses in 64 MiB of address space more than the suite has.
 */
START_TEST(test_parse_list_long)
{
	static const char every[] = "0-65535,";
	const size_t reps = 4096;
	struct rlimit old, lim;
	unsigned long pages = 0;
	char *list, statm[64];
	int *cpus, n, fd;
	size_t bad, i;

	list = malloc(reps * strlen(every) + 1);
	ck_assert_ptr_nonnull(list);
	for (i = 0; i < reps; i++)
		memcpy(list + i * strlen(every), every, strlen(every));
	list[reps * strlen(every) - 1] = '\0';	/* no trailing comma */
	if (limits_work()) {
		fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_gt(read(fd, statm, sizeof(statm) - 1), 0);
		close(fd);
		statm[sizeof(statm) - 1] = '\0';
		ck_assert_int_eq(sscanf(statm, "%lu", &pages), 1);
		ck_assert_int_eq(getrlimit(RLIMIT_AS, &old), 0);
		lim = old;
		lim.rlim_cur = pages * (rlim_t)sysconf(_SC_PAGESIZE) +
			       (64 << 20);
		ck_assert_int_eq(setrlimit(RLIMIT_AS, &lim), 0);
	}
	n = topology_parse_list(list, &cpus, &bad);
	if (pages)
		ck_assert_int_eq(setrlimit(RLIMIT_AS, &old), 0);
	ck_assert_int_eq(n, 65536);
	ck_assert_int_eq(cpus[0], 0);
	ck_assert_int_eq(cpus[65535], 65535);
	free(cpus);
	free(list);
}
END_TEST

START_TEST(test_contains)
{
	static const int cpus[] = { 0, 2, 3, 8, 63 };
	static const int in[] = { 0, 2, 3, 8, 63 };
	static const int out[] = { -1, 1, 4, 7, 9, 62, 64, 65535 };
	int i;

	for (i = 0; i < N_ROWS(in); i++)
		ck_assert_msg(topology_contains(cpus, N_ROWS(cpus), in[i]),
			      "%d", in[i]);
	for (i = 0; i < N_ROWS(out); i++)
		ck_assert_msg(!topology_contains(cpus, N_ROWS(cpus), out[i]),
			      "%d", out[i]);
	ck_assert(!topology_contains(cpus, 0, 0));
}
END_TEST

/*
 * A fake sysfs: CPU 0 says everything, CPU 1 has no die_id (before
 * Linux 5.2) and no node (no NUMA), CPU 3 has no topology at all.
 */
static const struct fake_sysfs_cpu tree_cpus[] = {
	/* cpu, socket, die, core, node */
	{ 0, 1, 2, 3, 1 },
	{ 1, 0, -1, 7, -1 },
	{ 3, -1, -1, -1, -1 },
};

static void tree_setup(void)
{
	fake_sysfs_setup("check_topology");
	fake_sysfs_cpus("sys", "0-1,3", tree_cpus, N_ROWS(tree_cpus));
	fake_sysfs_use("sys", "events");
}

START_TEST(test_online)
{
	int *cpus, n;

	n = topology_online(&cpus);
	ck_assert_int_eq(n, 3);
	ck_assert(cpus[0] == 0 && cpus[1] == 1 && cpus[2] == 3);
	free(cpus);
}
END_TEST

static const struct describe_row {
	int line;
	int cpu, ret;
	struct topology_cpu want;
} describe_rows[] = {
	{ __LINE__, 0, 0, { 0, 1, 2, 3, 1 } },
	/* No die_id: one die a socket; no node link: node 0. */
	{ __LINE__, 1, 0, { 1, 0, 0, 7, 0 } },
	/* No topology: -ENOENT, and -1 where sysfs did not say. */
	{ __LINE__, 3, -ENOENT, { 3, -1, 0, -1, 0 } },
	{ __LINE__, 9, -ENOENT, { 9, -1, 0, -1, 0 } },
};

START_TEST(test_describe)
{
	const struct describe_row *t = &describe_rows[_i];
	struct topology_cpu got;
	int ret;

	ret = topology_describe(t->cpu, &got);
	ck_assert_msg(ret == t->ret, "line %d: %d, want %d", t->line, ret,
		      t->ret);
	ck_assert_msg(got.cpu == t->want.cpu && got.socket == t->want.socket &&
		      got.die == t->want.die && got.core == t->want.core &&
		      got.node == t->want.node,
		      "line %d: cpu %d socket %d die %d core %d node %d",
		      t->line, got.cpu, got.socket, got.die, got.core,
		      got.node);
}
END_TEST

static Suite *topology_suite(void)
{
	Suite *s = suite_create("topology");
	TCase *tl = tcase_create("list");
	TCase *ts = tcase_create("sysfs");

	tcase_add_loop_test(tl, test_parse_list, 0, N_ROWS(list_rows));
	tcase_add_test(tl, test_parse_list_all);
	tcase_add_test(tl, test_parse_list_long);
	tcase_add_test(tl, test_contains);
	suite_add_tcase(s, tl);
	tcase_add_checked_fixture(ts, tree_setup, fake_sysfs_teardown);
	tcase_add_test(ts, test_online);
	tcase_add_loop_test(ts, test_describe, 0, N_ROWS(describe_rows));
	suite_add_tcase(s, ts);
	return s;
}

int main(void)
{
	return unit_run(topology_suite());
}
