/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of workload.c: the $PATH search in a directory of fake
 * commands, the set-ID analysis, and the child's exec. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "fake_sysfs.h"
#include "spawn.h"
#include "unit.h"
#include "workload.h"

/*
 * A directory of commands: exe/prog (executable), noexec/prog (not),
 * dir/prog (a directory), empty/; and script, a shell script without
 * #! that exits 7.
 */
static const char *root;

static void setup(void)
{
	root = fake_sysfs_setup("check_workload");
	fake_sysfs_mkdir("exe");
	fake_sysfs_mkdir("noexec");
	fake_sysfs_mkdir("dir/prog");
	fake_sysfs_mkdir("empty");
	fake_sysfs_write("exe/prog", "#!/bin/sh\nexit 0\n");
	fake_sysfs_chmod("exe/prog", 0755);
	fake_sysfs_write("noexec/prog", "#!/bin/sh\nexit 0\n");
	fake_sysfs_chmod("noexec/prog", 0644);
	fake_sysfs_write("script", "exit 7\n");
	fake_sysfs_chmod("script", 0755);
	ck_assert_int_eq(chdir(root), 0);
}

/* The tests change PATH: removed without a shell. */
static void teardown(void)
{
	ck_assert_int_eq(chdir("/"), 0);
	fake_sysfs_teardown();
}

/* PATH's directories under root, ":"-separated ("" is itself). */
static const struct resolve_row {
	int line;
	const char *path;	/* NULL: unset */
	const char *file;
	int ret;
	const char *found;	/* under root, or as it is when no '/' */
} resolve_rows[] = {
	{ __LINE__, "exe", "prog", 0, "exe/prog" },
	/* Not executable, or a directory: passed over, as execvp does. */
	{ __LINE__, "noexec:exe", "prog", 0, "exe/prog" },
	{ __LINE__, "dir:exe", "prog", 0, "exe/prog" },
	/* Only those: permission denied, not "not found". */
	{ __LINE__, "noexec", "prog", -EACCES, NULL },
	{ __LINE__, "empty:dir", "prog", -EACCES, NULL },
	{ __LINE__, "empty", "prog", -ENOENT, NULL },
	{ __LINE__, "empty:nonexistent", "prog", -ENOENT, NULL },
	{ __LINE__, "", "prog", -ENOENT, NULL },
	{ __LINE__, "exe", "", -ENOENT, NULL },
	/* An empty directory is the current one, at either end too. */
	{ __LINE__, ":empty", "script", 0, "=script" },
	{ __LINE__, "empty:", "script", 0, "=script" },
	{ __LINE__, "empty::exe", "script", 0, "=script" },
	/* A name with '/' is used as it is, found or not. */
	{ __LINE__, "exe", "./nonexistent", 0, "=./nonexistent" },
	{ __LINE__, "exe", "noexec/prog", 0, "=noexec/prog" },
	/* No PATH: execvp's /bin:/usr/bin. */
	{ __LINE__, NULL, "sh", 0, "=/bin/sh" },
};

START_TEST(test_resolve)
{
	const struct resolve_row *t = &resolve_rows[_i];
	char path[4 * PATH_MAX] = "", want[PATH_MAX], buf[PATH_MAX];
	const char *p, *end;
	size_t used = 0;
	int ret;

	/* Each directory under root; an empty one stays empty. */
	for (p = t->path; p; p = *end ? end + 1 : NULL) {
		end = strchrnul(p, ':');
		used += (size_t)snprintf(path + used, sizeof(path) - used,
					 "%s%s%s%.*s", p > t->path ? ":" : "",
					 end > p ? root : "", end > p ? "/" : "",
					 (int)(end - p), p);
	}
	if (t->path)
		ck_assert_int_eq(setenv("PATH", path, 1), 0);
	else
		ck_assert_int_eq(unsetenv("PATH"), 0);
	ret = workload_resolve(t->file, buf, sizeof(buf));
	ck_assert_msg(ret == t->ret, "line %d: returned %d", t->line, ret);
	if (!t->found)
		return;
	if (t->found[0] == '=')
		snprintf(want, sizeof(want), "%s", t->found + 1);
	else
		snprintf(want, sizeof(want), "%s/%s", root, t->found);
	ck_assert_msg(strcmp(buf, want) == 0, "line %d: found '%s'", t->line,
		      buf);
}
END_TEST

/* Plain files and scripts are counted; so is a set-ID file of one's own. */
START_TEST(test_exec_stops)
{
	struct workload_stop stop;
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/exe/prog", root);
	ck_assert(!workload_exec_stops(path, &stop));
	ck_assert_int_eq(stop.why, WORKLOAD_COUNTED);
	ck_assert_int_eq(chmod(path, 04755), 0);
	ck_assert(!workload_exec_stops(path, &stop));
	ck_assert(!workload_exec_stops("/nonexistent/prog", &stop));
}
END_TEST

/* Set-user-ID to someone else: stops, unless the kernel ignores it. */
START_TEST(test_exec_stops_setuid)
{
	struct workload_stop stop;
	struct statvfs vfs;
	char path[PATH_MAX], script[PATH_MAX];
	bool honoured;

	if (geteuid() != 0)
		return;		/* only root can give a file away */
	snprintf(path, sizeof(path), "%s/exe/bin", root);
	snprintf(script, sizeof(script), "%s/exe/prog", root);
	/* An ELF file: a copy of /bin/true would do, but any non-#! is. */
	fake_sysfs_write("exe/bin", "\177ELF");
	fake_sysfs_chmod("exe/bin", 0755);
	ck_assert_int_eq(chown(path, 65534, 65534), 0);
	ck_assert_int_eq(chmod(path, 04755), 0);
	ck_assert_int_eq(chown(script, 65534, 65534), 0);
	ck_assert_int_eq(chmod(script, 04755), 0);
	honoured = statvfs(path, &vfs) == 0 && !(vfs.f_flag & ST_NOSUID) &&
		   prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1;
	ck_assert(workload_exec_stops(path, &stop) == honoured);
	if (honoured) {
		ck_assert_int_eq(stop.why, WORKLOAD_SETUID);
		ck_assert_int_eq(stop.uid, 65534);
	}
	/* The kernel takes no set-ID bit of a #! script. */
	ck_assert(!workload_exec_stops(script, &stop));
}
END_TEST

/* How many descriptors this process has open. */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* prepare, start and wait of argv, the start waiting for the exec or
 * not; the exec's errno, the status. */
static int run(char *const argv[], bool wait_exec, int *status)
{
	struct workload *w = workload_new();
	int fds = open_fds(), ret;

	ck_assert_ptr_nonnull(w);
	ret = workload_prepare(w, argv);
	ck_assert_int_eq(ret, 0);
	ret = workload_start(w, wait_exec);
	ck_assert_int_ge(ret, 0);
	if (ret == 0)
		ck_assert_int_eq(workload_wait(w, NULL, 0), 0);
	if (!wait_exec) {
		ck_assert_int_eq(ret, 0);
		ret = workload_exec_error(w);
		/* Told once. */
		ck_assert_int_eq(workload_exec_error(w), 0);
	}
	/* Its pipes and signalfd closed once the child is gone. */
	ck_assert_int_eq(open_fds(), fds);
	ck_assert_int_eq(workload_pid(w), 0);
	*status = workload_status(w);
	workload_free(w);
	return ret;
}

/* What execvp did: found on PATH, a script without #! run by sh, and
 * the errno of a command that cannot run; by a child cloned with
 * CLONE_VM (where the build can), then by a forked one; the exec's
 * failure learnt at once, then after the wait. */
START_TEST(test_exec)
{
	static char script[] = "script", a[] = "a", prog[] = "prog";
	char path[PATH_MAX];
	char *argv[] = { script, a, NULL };
	bool wait_exec = _i < 2;
	int status;

	if (_i & 1) {
		ck_assert_int_eq(setenv("PSTAT_FORK", "1", 1), 0);
		ck_assert(spawn_forks());
	} else {
		ck_assert_int_eq(unsetenv("PSTAT_FORK"), 0);
	}
	snprintf(path, sizeof(path), "%s/exe", root);
	ck_assert_int_eq(setenv("PATH", path, 1), 0);
	ck_assert_int_eq(run(argv, wait_exec, &status), ENOENT);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 127);
	snprintf(path, sizeof(path), "%s/exe:%s", root, root);
	ck_assert_int_eq(setenv("PATH", path, 1), 0);
	ck_assert_int_eq(run(argv, wait_exec, &status), 0);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 7);
	argv[0] = prog;
	ck_assert_int_eq(run(argv, wait_exec, &status), 0);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	snprintf(path, sizeof(path), "%s/noexec", root);
	ck_assert_int_eq(setenv("PATH", path, 1), 0);
	ck_assert_int_eq(run(argv, wait_exec, &status), EACCES);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 126);
}
END_TEST

static Suite *workload_suite(void)
{
	Suite *s = suite_create("workload");
	TCase *tc = tcase_create("path");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_resolve, 0, N_ROWS(resolve_rows));
	tcase_add_test(tc, test_exec_stops);
	tcase_add_test(tc, test_exec_stops_setuid);
	tcase_add_loop_test(tc, test_exec, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(workload_suite());
}
