/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of target.c: where each command line counts. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <check.h>

#include "aggr.h"
#include "fake_sysfs.h"
#include "options.h"
#include "target.h"
#include "unit.h"

#define MAX_ARGS 12

/* The options of args (after "pstat"), and their target: 0 or -errno. */
static int resolve(struct options *o, struct target *t, char *err,
		   size_t len, const char *const *args)
{
	char *argv[MAX_ARGS + 2] = { (char *)"pstat" };
	char opt_err[256];
	int argc = 1, ret;

	while (*args && argc <= MAX_ARGS)
		argv[argc++] = (char *)*args++;
	ret = options_parse(o, argc, argv, opt_err, sizeof(opt_err));
	ck_assert_msg(ret == 0, "options: %s", opt_err);
	return target_resolve(t, o, err, len);
}

static bool has_pid(const struct target *t, int pid)
{
	size_t i;

	for (i = 0; i < t->n_pids; i++)
		if (t->pids[i] == pid)
			return true;
	return false;
}

/* A second thread of this process, parked until the test ends. */
static int pipe_fds[2] = { -1, -1 };
static pthread_t parked;
static int parked_tid;

static void *park(void *arg)
{
	char c;

	__atomic_store_n(&parked_tid, (int)syscall(SYS_gettid),
			 __ATOMIC_SEQ_CST);
	while (read(pipe_fds[0], &c, 1) < 0 && errno == EINTR)
		;
	return arg;
}

static void thread_setup(void)
{
	ck_assert_int_eq(pipe(pipe_fds), 0);
	ck_assert_int_eq(pthread_create(&parked, NULL, park, NULL), 0);
	while (!__atomic_load_n(&parked_tid, __ATOMIC_SEQ_CST))
		usleep(1000);
}

static void thread_teardown(void)
{
	close(pipe_fds[1]);
	pthread_join(parked, NULL);
	close(pipe_fds[0]);
	parked_tid = 0;
}

/* The command: one slot, filled each run; counted from its exec. */
static const struct command_row {
	int line;
	const char *args[MAX_ARGS];
	bool inherit, enable_on_exec;
	const char *comm;
} command_rows[] = {
	{ __LINE__, { "true" }, true, true, "true" },
	{ __LINE__, { "-e", "task-clock", "--", "/bin/true", "x" }, true,
	  true, "true" },
	{ __LINE__, { "-i", "true" }, false, true, "true" },
	{ __LINE__, { "-D", "10", "true" }, true, false, "true" },
	/* The kernel's comm: the file's name, 15 bytes at most. */
	{ __LINE__, { "./a-command-named-long" }, true, true,
	  "a-command-named" },
	/* --explain: a command's attrs, whatever the target. */
	{ __LINE__, { "--explain", "-e", "cycles" }, true, true, "" },
	{ __LINE__, { "--explain", "-e", "cycles", "-i" }, false, true, "" },
	{ __LINE__, { "--explain", "-e", "cycles", "-p", "1073741823" },
	  true, true, "" },
	{ __LINE__, { "--explain", "-e", "cycles", "-a", "-A" }, true, true,
	  "" },
};

START_TEST(test_command)
{
	const struct command_row *r = &command_rows[_i];
	struct options o;
	struct target t;
	char err[256];

	ck_assert_msg(resolve(&o, &t, err, sizeof(err), r->args) == 0,
		      "line %d: %s", r->line, err);
	ck_assert_msg(t.n_pids == 1 && t.pids && t.pids[0] == 0 &&
		      t.command_slot && !t.cpus && !t.n_cpus,
		      "line %d: %zu pids, %zu cpus", r->line, t.n_pids,
		      t.n_cpus);
	ck_assert_msg(t.inherit == r->inherit &&
		      t.enable_on_exec == r->enable_on_exec &&
		      !t.skip_vanished,
		      "line %d: inherit %d enable_on_exec %d skip_vanished %d",
		      r->line, t.inherit, t.enable_on_exec, t.skip_vanished);
	ck_assert_msg(strcmp(t.comm, r->comm) == 0, "line %d: comm '%s'",
		      r->line, t.comm);
	ck_assert_str_eq(t.desc, "");
	ck_assert_int_eq(t.aggr.kind, AGGR_GLOBAL);
	/* Each run's command goes into the slot. */
	target_set_command(&t, 4242);
	ck_assert_int_eq(t.pids[0], 4242);
	target_set_command(&t, 4343);
	ck_assert_int_eq(t.pids[0], 4343);
	ck_assert_uint_eq(t.n_pids, 1);
	target_free(&t);
	target_free(&t);
	options_free(&o);
}
END_TEST

/* -p: every thread of each process, each once; gone ones skipped. */
START_TEST(test_pids)
{
	char self[64], err[256];
	const char *args[] = { "-p", self, NULL };
	struct options o;
	struct target t;
	size_t i, j;

	snprintf(self, sizeof(self), "%d,%d,%d", (int)getpid(), (int)getpid(),
		 (int)getppid());
	ck_assert_msg(resolve(&o, &t, err, sizeof(err), args) == 0, "%s", err);
	ck_assert(has_pid(&t, (int)getpid()));
	ck_assert(has_pid(&t, parked_tid));
	ck_assert(has_pid(&t, (int)getppid()));
	for (i = 0; i < t.n_pids; i++)
		for (j = i + 1; j < t.n_pids; j++)
			ck_assert_msg(t.pids[i] != t.pids[j], "%d twice",
				      t.pids[i]);
	ck_assert(!t.cpus && !t.command_slot && !t.enable_on_exec);
	ck_assert(t.inherit && t.skip_vanished);
	ck_assert(target_alive(&t));
	ck_assert_int_eq(strncmp(t.desc, "process id '", 12), 0);
	ck_assert_int_eq(t.aggr.kind, AGGR_GLOBAL);
	/* No command slot: nothing to fill. */
	target_set_command(&t, 4242);
	ck_assert(!has_pid(&t, 4242));
	target_free(&t);
	options_free(&o);
}
END_TEST

/* -p --per-thread: a row per thread, named comm-tid. */
START_TEST(test_pids_per_thread)
{
	char self[32], err[256], want[64];
	const char *args[] = { "-p", self, "--per-thread", "-i", NULL };
	struct options o;
	struct target t;
	size_t i;

	snprintf(self, sizeof(self), "%d", (int)getpid());
	ck_assert_msg(resolve(&o, &t, err, sizeof(err), args) == 0, "%s", err);
	ck_assert(!t.inherit);
	ck_assert_int_eq(t.aggr.kind, AGGR_THREAD);
	ck_assert(!t.aggr.quiet_zeros);
	ck_assert_uint_eq(t.aggr.n, t.n_pids);
	for (i = 0; i < t.n_pids; i++) {
		ck_assert_int_eq(t.aggr.id[t.aggr.of_target[i]], t.pids[i]);
		snprintf(want, sizeof(want), "-%d", t.pids[i]);
		ck_assert_msg(strstr(t.aggr.label[t.aggr.of_target[i]], want),
			      "%s for %d", t.aggr.label[t.aggr.of_target[i]],
			      t.pids[i]);
	}
	target_free(&t);
	options_free(&o);
}
END_TEST

/* -t: those threads alone. */
START_TEST(test_tids)
{
	char tids[64], err[256], want[96];
	const char *args[] = { "-t", tids, NULL };
	struct options o;
	struct target t;

	snprintf(tids, sizeof(tids), "%d,%d", parked_tid, parked_tid);
	ck_assert_msg(resolve(&o, &t, err, sizeof(err), args) == 0, "%s", err);
	ck_assert_uint_eq(t.n_pids, 1);
	ck_assert_int_eq(t.pids[0], parked_tid);
	ck_assert(t.skip_vanished && !t.enable_on_exec && !t.command_slot);
	snprintf(want, sizeof(want), "thread id '%s'", tids);
	ck_assert_str_eq(t.desc, want);
	target_free(&t);
	options_free(&o);
}
END_TEST

/* What is refused, with the reason. */
static const struct refused_row {
	int line;
	const char *args[MAX_ARGS];
	const char *reason;	/* a part of it */
} refused_rows[] = {
	{ __LINE__, { "-p", "1073741823" }, "no such process 1073741823" },
	{ __LINE__, { "-t", "1073741823" }, "no such thread 1073741823" },
	{ __LINE__, { "-p", "1,x" }, "bad pid list '1,x'" },
	{ __LINE__, { "-t", "0" }, "bad tid list '0'" },
	/* strtol took blanks and signs, and a trailing comma ended it. */
	{ __LINE__, { "-p", " 1" }, "bad pid list ' 1'" },
	{ __LINE__, { "-t", "1,+1" }, "bad tid list '1,+1'" },
	{ __LINE__, { "-p", "1,\n1" }, "bad pid list '1,\n1'" },
	{ __LINE__, { "-p", "1," }, "bad pid list '1,'" },
	{ __LINE__, { "-t", "1,,1" }, "bad tid list '1,,1'" },
	{ __LINE__, { "-C", "2" }, "CPU 2 is not online" },
	{ __LINE__, { "-C", "0,x" }, "bad CPU list '0,x' at 'x'" },
	/* A trailing comma was CPU 0; a newline ended the list unseen
	 * ("0\n5" counted CPU 0 under the title "CPU(s) 0\n5"). */
	{ __LINE__, { "-C", "0," }, "bad CPU list '0,': it ends where" },
	{ __LINE__, { "-C", "0\n1" }, "bad CPU list: a newline in it, after '0'" },
	{ __LINE__, { "-C", "0\n" }, "bad CPU list: a newline in it" },
	{ __LINE__, { "-C", "70000" }, "CPU number too large in '70000' at '70000': pstat counts CPUs 0 to 65535" },
	{ __LINE__, { "-C", "0-99999999999999999999" }, "CPU number too large" },
};

START_TEST(test_refused)
{
	const struct refused_row *r = &refused_rows[_i];
	struct options o;
	struct target t;
	char err[256] = "";

	ck_assert_int_eq(resolve(&o, &t, err, sizeof(err), r->args), -EINVAL);
	ck_assert_msg(strstr(err, r->reason), "line %d: '%s'", r->line, err);
	/* Nothing left to free. */
	ck_assert(!t.pids && !t.cpus && !t.aggr.label);
	options_free(&o);
}
END_TEST

/* A fake sysfs: CPUs 0, 1 and 3 online, 0 and 1 on socket 0, 3 on 1. */
static const struct fake_sysfs_cpu tree_cpus[] = {
	/* cpu, socket, die, core, node */
	{ 0, 0, -1, 0, -1 },
	{ 1, 0, -1, 1, -1 },
	{ 3, 1, -1, 0, -1 },
};

static void tree_setup(void)
{
	fake_sysfs_setup("check_target");
	fake_sysfs_cpus("sys", "0-1,3", tree_cpus, N_ROWS(tree_cpus));
	fake_sysfs_use("sys", "events");
}

/* -a and -C: CPUs, any thread, counting from the open. */
static const struct cpus_row {
	int line;
	const char *args[MAX_ARGS];
	size_t n_cpus;
	int cpus[4];
	const char *desc;
	enum aggr_kind kind;
	size_t n_aggr;
	const char *labels[4];	/* of each CPU's aggregate */
} cpus_rows[] = {
	{ __LINE__, { "-a" }, 3, { 0, 1, 3 }, "'system wide'", AGGR_GLOBAL },
	/* No command and no target: the whole machine. */
	{ __LINE__, { "-e", "task-clock" }, 3, { 0, 1, 3 }, "'system wide'",
	  AGGR_GLOBAL },
	{ __LINE__, { "-a", "true" }, 3, { 0, 1, 3 }, "'system wide'",
	  AGGR_GLOBAL },
	{ __LINE__, { "-C", "3,0,3" }, 2, { 0, 3 }, "'CPU(s) 3,0,3'",
	  AGGR_GLOBAL },
	{ __LINE__, { "-a", "-A" }, 3, { 0, 1, 3 }, "'system wide'", AGGR_CPU,
	  3, { "CPU0", "CPU1", "CPU3" } },
	{ __LINE__, { "-C", "0-1", "--per-socket" }, 2, { 0, 1 },
	  "'CPU(s) 0-1'", AGGR_SOCKET, 1, { "S0", "S0" } },
	{ __LINE__, { "-a", "--per-core", "true" }, 3, { 0, 1, 3 },
	  "'system wide'", AGGR_CORE, 3, { "S0-D0-C0", "S0-D0-C1", "S1-D0-C0" } },
};

START_TEST(test_cpus)
{
	const struct cpus_row *r = &cpus_rows[_i];
	struct options o;
	struct target t;
	char err[256];
	size_t i;

	ck_assert_msg(resolve(&o, &t, err, sizeof(err), r->args) == 0,
		      "line %d: %s", r->line, err);
	ck_assert_msg(t.n_cpus == r->n_cpus, "line %d: %zu CPUs", r->line,
		      t.n_cpus);
	for (i = 0; i < r->n_cpus; i++)
		ck_assert_msg(t.cpus[i] == r->cpus[i], "line %d: CPU %d",
			      r->line, t.cpus[i]);
	ck_assert_msg(!t.pids && !t.n_pids && !t.command_slot &&
		      !t.enable_on_exec && !t.skip_vanished && t.inherit,
		      "line %d", r->line);
	ck_assert_str_eq(t.desc, r->desc);
	ck_assert_int_eq(t.aggr.kind, r->kind);
	if (r->kind != AGGR_GLOBAL) {
		ck_assert_uint_eq(t.aggr.n, r->n_aggr);
		ck_assert(!t.aggr.quiet_zeros);
	}
	for (i = 0; r->kind != AGGR_GLOBAL && i < r->n_cpus; i++)
		ck_assert_msg(strcmp(t.aggr.label[t.aggr.of_target[i]],
				     r->labels[i]) == 0,
			      "line %d: CPU %d in %s", r->line, t.cpus[i],
			      t.aggr.label[t.aggr.of_target[i]]);
	target_set_command(&t, 4242);
	ck_assert(!t.pids);
	target_free(&t);
	options_free(&o);
}
END_TEST

/*
 * -a --per-thread: every thread there is but pstat's own, each its own
 * row; the command, if any, in a slot at the end.
 */
START_TEST(test_all_threads)
{
	static const char *const args[] = { "-a", "--per-thread", NULL };
	struct options o;
	struct target t;
	char err[256];

	ck_assert_msg(resolve(&o, &t, err, sizeof(err), args) == 0, "%s", err);
	ck_assert(has_pid(&t, (int)getppid()));
	ck_assert(!has_pid(&t, (int)getpid()) && !has_pid(&t, parked_tid));
	ck_assert(!t.command_slot && !has_pid(&t, 0));
	ck_assert(!t.cpus && !t.enable_on_exec && t.skip_vanished);
	ck_assert_str_eq(t.desc, "'system wide'");
	ck_assert_int_eq(t.aggr.kind, AGGR_THREAD);
	ck_assert(t.aggr.quiet_zeros);
	ck_assert_uint_ge(t.aggr.n, 1);
	target_free(&t);
	options_free(&o);
}
END_TEST

START_TEST(test_all_threads_command)
{
	static const char *const args[] = { "-a", "--per-thread", "-D", "5",
					     "/bin/true", NULL };
	struct options o;
	struct target t;
	char err[256];
	size_t last;

	ck_assert_msg(resolve(&o, &t, err, sizeof(err), args) == 0, "%s", err);
	ck_assert(t.command_slot && t.n_pids >= 2);
	last = t.n_pids - 1;
	ck_assert_int_eq(t.pids[last], 0);
	ck_assert_str_eq(t.comm, "true");
	ck_assert(has_pid(&t, (int)getppid()) && !has_pid(&t, (int)getpid()));
	ck_assert(!t.enable_on_exec && t.skip_vanished);
	ck_assert_int_eq(t.aggr.kind, AGGR_THREAD);
	ck_assert(t.aggr.quiet_zeros);

	/* The run's command fills the slot and names its row. */
	target_set_command(&t, 4242);
	ck_assert_int_eq(t.pids[last], 4242);
	ck_assert_str_eq(t.aggr.label[t.aggr.of_target[last]], "true-4242");
	ck_assert_int_eq(t.aggr.id[t.aggr.of_target[last]], 4242);
	target_set_command(&t, 4343);
	ck_assert_str_eq(t.aggr.label[t.aggr.of_target[last]], "true-4343");
	target_free(&t);
	options_free(&o);
}
END_TEST

static Suite *target_suite(void)
{
	Suite *s = suite_create("target");
	TCase *tc = tcase_create("command");
	TCase *tt = tcase_create("threads");
	TCase *tp = tcase_create("cpus");

	tcase_add_loop_test(tc, test_command, 0, N_ROWS(command_rows));
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(tt, thread_setup, thread_teardown);
	tcase_add_test(tt, test_pids);
	tcase_add_test(tt, test_pids_per_thread);
	tcase_add_test(tt, test_tids);
	tcase_add_test(tt, test_all_threads);
	tcase_add_test(tt, test_all_threads_command);
	suite_add_tcase(s, tt);
	tcase_add_checked_fixture(tp, tree_setup, fake_sysfs_teardown);
	tcase_add_loop_test(tp, test_cpus, 0, N_ROWS(cpus_rows));
	/* -C's CPUs are checked against the fake ones online. */
	tcase_add_loop_test(tp, test_refused, 0, N_ROWS(refused_rows));
	suite_add_tcase(s, tp);
	return s;
}

int main(void)
{
	return unit_run(target_suite());
}
