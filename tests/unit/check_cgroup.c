/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of cgroup.c: the hierarchy perf_event counts in, found in
 * a mounts file; perf's pairing of -G names with events; and the open
 * in a cgroup (its directory as pid, PERF_FLAG_PID_CGROUP, a CPU).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "cgroup.h"
#include "event.h"
#include "evlist.h"
#include "fake_kernel.h"
#include "fake_sysfs.h"
#include "target.h"
#include "unit.h"

static const struct root_row {
	int line;
	const char *mounts;
	int ret;
	const char *root;
} root_rows[] = {
	/* This machine's: v1 controllers, perf_event on none, cgroup2. */
	{ __LINE__,
	  "cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0\n"
	  "cgroup /sys/fs/cgroup/systemd cgroup rw,name=systemd 0 0\n"
	  "cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0\n",
	  0, "/sys/fs/cgroup/unified" },
	/* A v1 perf_event hierarchy wins, wherever it is listed. */
	{ __LINE__,
	  "cgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0\n"
	  "cgroup /sys/fs/cgroup/perf_event cgroup rw,perf_event 0 0\n",
	  0, "/sys/fs/cgroup/perf_event" },
	{ __LINE__,
	  "cgroup /x cgroup rw,cpu,perf_event,memory 0 0\n", 0, "/x" },
	/* Not an option of that name, only one that starts so. */
	{ __LINE__, "cgroup /x cgroup rw,perf_events 0 0\n", -ENOENT, "" },
	{ __LINE__, "cgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n", 0,
	  "/sys/fs/cgroup" },
	{ __LINE__, "proc /proc proc rw 0 0\n", -ENOENT, "" },
	{ __LINE__, "", -ENOENT, "" },
};

START_TEST(test_root)
{
	const struct root_row *t = &root_rows[_i];
	char path[] = "/tmp/check_cgroup.XXXXXX", root[256] = "";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	ck_assert_ptr_nonnull(f);
	fputs(t->mounts, f);
	fclose(f);
	ck_assert_msg(cgroup_find_root(path, root, sizeof(root)) == t->ret &&
		      strcmp(root, t->root) == 0, "line %d: '%s'", t->line,
		      root);
	unlink(path);
}
END_TEST

/* A cgroup hierarchy of two, a and b. */
static const char *dir;

static void dirs_setup(void)
{
	fake_setup();
	dir = fake_sysfs_setup("check_cgroup_dir");
	fake_sysfs_mkdir("a");
	fake_sysfs_mkdir("b");
}

static void dirs_teardown(void)
{
	fake_sysfs_teardown();
	fake_teardown();
}

static void add(struct evlist *el, const char *name)
{
	struct evsel_desc d = { .name = name };

	event_attr_init(&d.attr);
	d.attr.type = PERF_TYPE_SOFTWARE;
	d.attr.config = PERF_COUNT_SW_TASK_CLOCK;
	ck_assert_int_eq(evlist_add(el, &d), 0);
}

#define MAX_EV 4

/* -e's (how many events each), each followed by a -G list or NULL. */
static const struct pair_row {
	int line;
	size_t events[MAX_EV];
	const char *lists[MAX_EV];
	int ret;
	const char *want[MAX_EV];	/* each event's cgroup */
} pair_rows[] = {
	{ __LINE__, { 2 }, { "a" }, 0, { "a", "a" } },
	{ __LINE__, { 2 }, { "a,b" }, 0, { "a", "b" } },
	{ __LINE__, { 2 }, { ",b" }, 0, { NULL, "b" } },
	{ __LINE__, { 2 }, { "a," }, 0, { "a", NULL } },
	{ __LINE__, { 1, 1 }, { "a", NULL }, 0, { "a", NULL } },
	{ __LINE__, { 1, 1 }, { "a", "b" }, 0, { "a", "b" } },
	{ __LINE__, { 1, 2 }, { "a", "b" }, 0, { "a", "b", NULL } },
	{ __LINE__, { 2, 1 }, { "a,", "b" }, 0, { "a", NULL, "b" } },
	{ __LINE__, { 1 }, { "a,b" }, -EINVAL },
	{ __LINE__, { 1 }, { "c" }, -EINVAL },
	{ __LINE__, { 0, 1 }, { "a" }, -EINVAL },
	{ __LINE__, { 1 }, { "/" }, 0, { "/" } },
	{ __LINE__, { 1 }, { "a/./" }, 0, { "a/./" } },
	/* Out of the hierarchy, though there is a directory there. */
	{ __LINE__, { 1 }, { ".." }, -EINVAL },
	{ __LINE__, { 1 }, { "a/.." }, -EINVAL },
	{ __LINE__, { 2 }, { "a,b/../.." }, -EINVAL },
	{ __LINE__, { 1 }, { "/../a" }, -EINVAL },
};

START_TEST(test_pairing)
{
	const struct pair_row *t = &pair_rows[_i];
	struct evlist *el = evlist_new();
	struct cgroups cg;
	char err[512] = "";
	const char *got;
	size_t i, j, n = 0;
	int ret = 0;

	cgroups_init(&cg);
	snprintf(cg.root, sizeof(cg.root), "%s", dir);
	for (i = 0; ret == 0 && i < MAX_EV && (t->events[i] || t->lists[i]);
	     i++) {
		for (j = 0; j < t->events[i]; j++, n++)
			add(el, "e");
		if (t->lists[i])
			ret = cgroups_apply(&cg, el, t->lists[i], err,
					    sizeof(err));
	}
	ck_assert_msg(ret == t->ret, "line %d: %d %s", t->line, ret, err);
	for (i = 0; ret == 0 && i < n; i++) {
		got = evsel_cgroup(evlist_at(el, i));
		ck_assert_msg(got == t->want[i] || (got && t->want[i] &&
						    !strcmp(got, t->want[i])),
			      "line %d: event %zu in '%s'", t->line, i,
			      got ? got : "(none)");
	}
	ck_assert_msg(ret == 0 || strncmp(err, "-G", 2) == 0 ||
		      strstr(err, "no cgroup") || strstr(err, "leads out of"),
		      "line %d: '%s'", t->line, err);
	evlist_free(el);
	cgroups_free(&cg);
}
END_TEST

/* Opened in a cgroup: its directory as the pid, the flag, a CPU. */
START_TEST(test_open)
{
	static int cpus[] = { 0, 1 };
	const struct target t = { .cpus = cpus, .n_cpus = 2 };
	struct evlist *el = evlist_new();
	struct cgroups cg;
	char err[256];
	size_t failed, i;

	cgroups_init(&cg);
	snprintf(cg.root, sizeof(cg.root), "%s", dir);
	add(el, "x");
	add(el, "y");
	ck_assert_int_eq(cgroups_apply(&cg, el, ",b", err, sizeof(err)), 0);
	ck_assert_int_eq(evlist_open(el, &t, &failed), 0);
	ck_assert_uint_eq(fake.n_opens, 4);
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(fake.opens[i].pid, -1);
		ck_assert(!(fake.opens[i].flags & PERF_FLAG_PID_CGROUP));
	}
	for (i = 2; i < 4; i++) {
		ck_assert_int_eq(fake.opens[i].pid, cg.dirs[0].fd);
		ck_assert_int_eq(fake.opens[i].cpu, (int)i - 2);
		ck_assert(fake.opens[i].flags & PERF_FLAG_PID_CGROUP);
	}
	evlist_free(el);
	cgroups_free(&cg);
}
END_TEST

static Suite *cgroup_suite(void)
{
	Suite *s = suite_create("cgroup");
	TCase *tr = tcase_create("root");
	TCase *tp = tcase_create("pairing");

	tcase_add_loop_test(tr, test_root, 0, N_ROWS(root_rows));
	suite_add_tcase(s, tr);
	tcase_add_checked_fixture(tp, dirs_setup, dirs_teardown);
	tcase_add_loop_test(tp, test_pairing, 0, N_ROWS(pair_rows));
	tcase_add_test(tp, test_open);
	suite_add_tcase(s, tp);
	return s;
}

int main(void)
{
	return unit_run(cgroup_suite());
}
