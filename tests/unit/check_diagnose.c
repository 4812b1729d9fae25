/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of diagnose.c, the words of failures and fixes from facts,
 * and of --check (checkup.c), against a fake kernel behind sys_set_ops(). */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include <check.h>

#include "checkup.h"
#include "diagnose.h"
#include "event.h"
#include "sys.h"

#include "fake_kernel.h"
#include "unit.h"

/* What a thread's breakpoints are on the architecture built for. */
#if defined(__x86_64__) || defined(__i386__)
#define BREAKPOINT_ROOM_WORDS "x86 has 4 breakpoints per thread"
#elif defined(__aarch64__) || defined(__arm__)
#define BREAKPOINT_ROOM_WORDS "Arm CPUs have 2 to 16 of each per thread"
#else
#define BREAKPOINT_ROOM_WORDS "debug registers are all taken"
#endif

/* Every message: its event, its errno's cause, and what to do. */
static const struct message_row {
	int line;
	int err;
	uint32_t type;
	bool exclude_user, exclude_kernel;
	int pid, cpu;
	const char *leader;
	int paranoid;
	bool perfmon;
	int probe_err;		/* task-clock:u on pstat itself */
	int seccomp;
	long target_uid;
	const char *want[3];
} message_rows[] = {
	/* -a, -C at paranoid 2 and 1 */
	{ __LINE__, EACCES, PERF_TYPE_SOFTWARE, false, false, -1, 0, NULL,
	  2, false, 0, 0, -1,
	  { "whole CPUs (-a, -C)", "kernel.perf_event_paranoid at most 0, and it is 2",
	    "setcap cap_perfmon+ep /usr/bin/pstat" } },
	{ __LINE__, EACCES, PERF_TYPE_SOFTWARE, false, true, -1, 0, NULL,
	  1, false, 0, 0, -1,
	  { "CAP_PERFMON (Linux 5.8+; CAP_SYS_ADMIN before)", "it is 1 here",
	    "sysctl kernel.perf_event_paranoid=0" } },
	/* another user's process */
	{ __LINE__, EACCES, PERF_TYPE_SOFTWARE, false, false, 1, -1, NULL,
	  2, false, 0, 0, 0,
	  { "cannot attach to process 1", "belongs to uid 0",
	    "CAP_SYS_PTRACE" } },
	/* the kernel part, which the event cannot leave out */
	{ __LINE__, EACCES, 9, false, false, 42, -1, NULL,
	  2, false, 0, 0, -1,
	  { "msr/tsc/: permission denied", "cannot leave the kernel out",
	    "kernel.perf_event_paranoid=1" } },
	/* :k */
	{ __LINE__, EACCES, PERF_TYPE_SOFTWARE, true, false, 42, -1, NULL,
	  2, false, 0, 0, -1,
	  { "counting kernel activity", "with :u instead", "CAP_PERFMON" } },
	/* Debian's 3 and Ubuntu's 4 refuse everything */
	{ __LINE__, EACCES, PERF_TYPE_SOFTWARE, false, false, 42, -1, NULL,
	  3, false, EACCES, 0, -1,
	  { "kernel.perf_event_paranoid=3", "CAP_SYS_ADMIN",
	    "sysctl kernel.perf_event_paranoid=2" } },
	{ __LINE__, EACCES, PERF_TYPE_SOFTWARE, false, false, 42, -1, NULL,
	  4, false, EACCES, 0, -1,
	  { "kernel.perf_event_paranoid=4", "Ubuntu",
	    "sysctl kernel.perf_event_paranoid=2" } },
	/* allowed by the level, refused all the same */
	{ __LINE__, EACCES, PERF_TYPE_SOFTWARE, false, false, 42, -1, NULL,
	  -1, false, 0, 0, -1,
	  { "permission denied although", "security module", NULL } },
	/* seccomp */
	{ __LINE__, EPERM, PERF_TYPE_SOFTWARE, false, false, 42, -1, NULL,
	  2, false, EPERM, 2, -1,
	  { "EPERM for every event", "seccomp filter", "--cap-add PERFMON" } },
	{ __LINE__, EPERM, PERF_TYPE_BREAKPOINT, false, false, 42, -1, NULL,
	  2, true, 0, 0, -1,
	  { "kernel address", "CAP_SYS_ADMIN", NULL } },
	{ __LINE__, EINVAL, PERF_TYPE_BREAKPOINT, true, true, 42, -1, NULL,
	  2, false, 0, 0, -1, { "must be aligned", NULL, NULL } },
	{ __LINE__, EINVAL, 9, true, false, 42, -1, NULL,
	  2, false, 0, 0, -1, { "cannot leave out user", NULL, NULL } },
	{ __LINE__, EINVAL, PERF_TYPE_SOFTWARE, false, false, 42, -1, "lead",
	  2, false, 0, 0, -1, { "in a group with lead", ":W", NULL } },
	{ __LINE__, EINVAL, PERF_TYPE_SOFTWARE, false, false, -1, 4096, NULL,
	  2, true, 0, 0, -1, { "CPU 4096 does not exist", NULL, NULL } },
	{ __LINE__, EINVAL, PERF_TYPE_TRACEPOINT, false, false, 42, -1, NULL,
	  2, false, 0, 0, -1, { "no tracepoint with id", NULL, NULL } },
	{ __LINE__, EINVAL, PERF_TYPE_SOFTWARE, false, false, 42, -1, NULL,
	  2, false, 0, 0, -1, { "pstat --explain", NULL, NULL } },
	{ __LINE__, ENOENT, PERF_TYPE_HARDWARE, true, false, 42, -1, NULL,
	  2, false, 0, 0, -1, { "no hardware PMU", NULL, NULL } },
	{ __LINE__, ENOENT, PERF_TYPE_SOFTWARE, false, false, 42, -1, NULL,
	  2, false, 0, 0, -1, { "does not exist here", "ENOENT", NULL } },
	{ __LINE__, EOPNOTSUPP, PERF_TYPE_SOFTWARE, false, false, 42, -1,
	  NULL, 2, false, 0, 0, -1, { "lacks a feature", "EOPNOTSUPP", NULL } },
	{ __LINE__, ENODEV, PERF_TYPE_SOFTWARE, false, false, -1, 3, NULL,
	  2, true, 0, 0, -1, { "CPU 3 is offline", NULL, NULL } },
	{ __LINE__, E2BIG, PERF_TYPE_SOFTWARE, false, false, 42, -1, NULL,
	  2, false, 0, 0, -1, { "split the group", NULL, NULL } },
	{ __LINE__, EMFILE, PERF_TYPE_SOFTWARE, false, false, 42, -1, NULL,
	  2, false, 0, 0, -1, { "too many open files", "ulimit -n 4096",
				 NULL } },
	{ __LINE__, ENOSPC, PERF_TYPE_BREAKPOINT, false, false, 42, -1, NULL,
	  2, false, 0, 0, -1, { "no room left on the hardware: ",
				 BREAKPOINT_ROOM_WORDS, NULL } },
	{ __LINE__, EBUSY, PERF_TYPE_SOFTWARE, false, false, 42, -1, NULL,
	  2, false, 0, 0, -1, { "busy", "exclusively", NULL } },
	{ __LINE__, ESRCH, PERF_TYPE_SOFTWARE, false, false, 4242, -1, NULL,
	  2, false, 0, 0, -1, { "no such process 4242", NULL, NULL } },
	{ __LINE__, EOVERFLOW, PERF_TYPE_SOFTWARE, false, false, 42, -1, NULL,
	  2, false, 0, 0, -1, { "perf_event_max_stack", NULL, NULL } },
	{ __LINE__, ENOSYS, PERF_TYPE_SOFTWARE, false, false, 42, -1, NULL,
	  2, false, 0, 0, -1, { "CONFIG_PERF_EVENTS", NULL, NULL } },
};

START_TEST(test_messages)
{
	const struct message_row *t = &message_rows[_i];
	struct perf_event_attr attr;
	struct diagnose_facts s = {
		.paranoid = t->paranoid,
		.user_err = t->probe_err,
		.seccomp = t->seccomp,
		.uid = 65534,
		.target_uid = t->target_uid,
		.nofile = 1024,
		.nofile_max = 4096,
		.n_cpus = 2,
		.exe = "/usr/bin/pstat",
	};
	struct diagnose_failure f = {
		.event = t->type == 9 ? "msr/tsc/" : "ev",
		.attr = &attr,
		.err = t->err,
		.pid = t->pid,
		.cpu = t->cpu,
		.leader = t->leader,
	};
	char buf[2048];
	size_t i;

	s.have[CAPS_PERFMON] = t->perfmon;
	event_attr_init(&attr);
	attr.type = t->type;
	attr.exclude_user = t->exclude_user;
	attr.exclude_kernel = t->exclude_kernel;
	diagnose_open_error(&f, &s, buf, sizeof(buf));
	ck_assert_msg(strncmp(buf, f.event, strlen(f.event)) == 0,
		      "line %d: '%s' does not name the event", t->line, buf);
	ck_assert_msg(!strchr(buf, '\n'), "line %d: several lines", t->line);
	for (i = 0; i < 3 && t->want[i]; i++)
		ck_assert_msg(strstr(buf, t->want[i]),
			      "line %d: no '%s' in '%s'", t->line, t->want[i],
			      buf);
}
END_TEST

/* EACCES on the command's process, held before its exec, at a level
 * that lets the user count it: a pstat that is not dumpable says so. */
static const struct dumpable_row {
	int line;
	bool command, dumpable, set_uid, set_gid, ptrace;
	const char *want, *not;
} dumpable_rows[] = {
	{ __LINE__, true, false, false, true, false,
	  "pstat is set-group-ID, so the command's process is not dumpable",
	  "security module" },
	{ __LINE__, true, false, false, true, false, "chmod g-s /usr/bin/pstat",
	  NULL },
	{ __LINE__, true, false, true, false, false, "set-user-ID", NULL },
	{ __LINE__, true, false, false, false, false,
	  "pstat is not dumpable", "chmod" },
	{ __LINE__, true, true, false, false, false, "security module",
	  "dumpable" },
	{ __LINE__, false, false, false, true, false, "security module",
	  "dumpable" },
	{ __LINE__, true, false, false, true, true, "security module",
	  "dumpable" },
};

START_TEST(test_not_dumpable)
{
	const struct dumpable_row *t = &dumpable_rows[_i];
	struct perf_event_attr attr;
	struct diagnose_facts s = {
		.paranoid = 2, .uid = 65534, .target_uid = -1,
		.dumpable = t->dumpable, .set_uid = t->set_uid,
		.set_gid = t->set_gid, .exe = "/usr/bin/pstat",
	};
	struct diagnose_failure f = {
		.event = "task-clock:u", .attr = &attr, .err = EACCES,
		.pid = 42, .cpu = -1, .command = t->command,
	};
	char buf[2048];

	s.have[CAPS_SYS_PTRACE] = t->ptrace;
	event_attr_init(&attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.exclude_kernel = attr.exclude_hv = true;
	diagnose_open_error(&f, &s, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, t->want), "line %d: no '%s' in '%s'",
		      t->line, t->want, buf);
	ck_assert_msg(!t->not || !strstr(buf, t->not),
		      "line %d: '%s' in '%s'", t->line, t->not, buf);
}
END_TEST

/* Each level has its own words, and 3 and 4 name their distribution. */
START_TEST(test_paranoid_meaning)
{
	int level;

	for (level = -1; level <= 4; level++)
		ck_assert(diagnose_paranoid_meaning(level) !=
			  diagnose_paranoid_meaning(level + 1));
	ck_assert_ptr_nonnull(strstr(diagnose_paranoid_meaning(3), "Debian"));
	ck_assert_ptr_nonnull(strstr(diagnose_paranoid_meaning(4), "Ubuntu"));
	ck_assert_ptr_nonnull(strstr(diagnose_paranoid_meaning(2),
				     "user space only"));
}
END_TEST

/* --check's exit status and JSON, with a kernel that refuses or not. */
static const struct check_row {
	int line;
	int kernel_err, user_err;
	bool json;
	int ret;
	const char *want;
} check_rows[] = {
	{ __LINE__, 0, 0, false, 0, "kernel included" },
	{ __LINE__, EACCES, 0, false, 0, "user space only" },
	{ __LINE__, EACCES, 0, true, 0, "\"own_command\": true" },
	{ __LINE__, EACCES, 0, true, 0, "\"kernel_counting\": false" },
	{ __LINE__, EACCES, EACCES, false, 1, "cannot count even" },
	{ __LINE__, EPERM, EPERM, true, 1, "\"own_command\": false" },
	{ __LINE__, EPERM, EPERM, true, 1, "\"exit_status\": 1" },
};

START_TEST(test_check)
{
	const struct check_row *t = &check_rows[_i];
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int ret;

	ck_assert_ptr_nonnull(f);
	fake.kernel_err = t->kernel_err;
	fake.user_err = t->user_err;
	ret = checkup_print(f, t->json);
	fclose(f);
	ck_assert_msg(ret == t->ret, "line %d: returned %d", t->line, ret);
	ck_assert_msg(strstr(text, t->want), "line %d: no '%s' in:\n%s",
		      t->line, t->want, text);
	free(text);
}
END_TEST

/* The fixes: each names the command that applies it. */
static const struct fix_row {
	int line;
	enum diagnose_fix which;
	const char *want;
} fix_rows[] = {
	{ __LINE__, DIAGNOSE_FIX_PERF_EVENTS, "CONFIG_PERF_EVENTS" },
	{ __LINE__, DIAGNOSE_FIX_VPMU, "pmu=on" },
	{ __LINE__, DIAGNOSE_FIX_CONTAINER, "--cap-add PERFMON" },
	{ __LINE__, DIAGNOSE_FIX_OTHER_USERS, "CAP_SYS_PTRACE" },
	{ __LINE__, DIAGNOSE_FIX_NMI_WATCHDOG, "sysctl kernel.nmi_watchdog=0" },
	{ __LINE__, DIAGNOSE_FIX_HARD_LIMIT, "ulimit -Hn" },
};

START_TEST(test_fixes)
{
	const struct fix_row *t = &fix_rows[_i];

	ck_assert_msg(strstr(diagnose_fix(t->which), t->want),
		      "line %d: no '%s' in '%s'", t->line, t->want,
		      diagnose_fix(t->which));
}
END_TEST

/* The fixes worded from facts, and the sentences shared by several
 * messages. */
START_TEST(test_fix_words)
{
	struct diagnose_facts s;
	char buf[512];

	memset(&s, 0, sizeof(s));
	diagnose_setcap_fix(&s, buf, sizeof(buf));
	ck_assert_str_eq(buf, "give pstat CAP_PERFMON (Linux 5.8+; CAP_SYS_ADMIN before): 'sudo setcap cap_perfmon+ep $(command -v pstat)'");
	snprintf(s.exe, sizeof(s.exe), "/usr/bin/pstat");
	diagnose_setcap_fix(&s, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "'sudo setcap cap_perfmon+ep /usr/bin/pstat'"));
	diagnose_sysctl_fix(1, buf, sizeof(buf));
	ck_assert_str_eq(buf, "'sudo sysctl kernel.perf_event_paranoid=1'");
	diagnose_tracefs_fix(NULL, buf, sizeof(buf));
	ck_assert_str_eq(buf, "sudo mount -t tracefs nodev /sys/kernel/tracing");
	diagnose_tracefs_fix("/sys/kernel/debug/tracing/events", buf,
			     sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "run as root"));
	ck_assert_ptr_nonnull(strstr(buf, "'sudo mount -o remount,mode=750,gid=GROUP /sys/kernel/debug/tracing'"));
	diagnose_fd_limit(6, 22, 20, buf, sizeof(buf));
	ck_assert_str_eq(buf, "6 counters need 22 file descriptors, but the limit is 20: raise it with 'ulimit -n 22'");
	diagnose_fd_limit(1, 17, 16, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1 counter needs 17 file descriptors, but the limit is 16: raise it with 'ulimit -n 17'");
	s.nofile = s.nofile_max = 7;
	s.fds_open = 4;
	diagnose_out_of_fds(&s, 17, buf, sizeof(buf));
	ck_assert_str_eq(buf, "ran out of file descriptors before counting: the limit is 7 (ulimit -n), 4 are open already, and pstat needs 17 more for its pipes and counters: raise it with 'ulimit -n 21', which root must allow (the hard limit, ulimit -Hn)");
	s.nofile_max = 4096;
	diagnose_out_of_fds(&s, 17, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "raise it with 'ulimit -n 21'"));
	ck_assert_ptr_null(strstr(buf, "root"));
	ck_assert_ptr_nonnull(strstr(diagnose_no_core_pmu(),
				     "no hardware PMU"));
	ck_assert_ptr_nonnull(strstr(diagnose_modifiers_refused(),
				     "cannot leave out user"));
}
END_TEST

/* A probe's result: ok, or the errno and its meaning. */
START_TEST(test_probe_result)
{
	struct diagnose_facts s;
	char buf[256];

	memset(&s, 0, sizeof(s));
	diagnose_probe_result(&s, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "ok");
	diagnose_probe_result(&s, ENOENT, buf, sizeof(buf));
	ck_assert_str_eq(buf, "ENOENT: the event or its PMU does not exist here");
	diagnose_probe_result(&s, EPERM, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "EPERM: an exclude modifier"));
	s.user_err = EPERM;
	diagnose_probe_result(&s, EPERM, buf, sizeof(buf));
	ck_assert_str_eq(buf, "EPERM: perf_event_open is blocked for this process");
	/* Not one of perf_event_open's: strerror's words. */
	ck_assert_str_eq(diagnose_errno_meaning(ETXTBSY), strerror(ETXTBSY));
}
END_TEST

/* Facts from the fake kernel: the paranoid level and pstat's probe. */
START_TEST(test_gather)
{
	struct diagnose_facts s;

	fake.paranoid = 2;
	fake.user_err = EACCES;
	diagnose_gather(&s, DIAGNOSE_PARANOID, 0);
	ck_assert_int_eq(s.paranoid, 2);
	ck_assert_uint_eq(fake.n_opens, 0);
	diagnose_gather(&s, DIAGNOSE_OPEN, 0);
	ck_assert_int_eq(s.user_err, EACCES);
	ck_assert_uint_eq(fake.n_opens, 1);
	ck_assert_int_eq(fake.opens[fake.n_opens - 1].attr.exclude_kernel, 1);
	ck_assert_int_eq(s.target_uid, -1);
	ck_assert_int_ge(s.nofile_max, s.nofile);
	fake.paranoid = FAKE_NO_PARANOID;
	diagnose_gather(&s, DIAGNOSE_PARANOID, 0);
	ck_assert_int_eq(s.paranoid, DIAGNOSE_PARANOID_UNKNOWN);
}
END_TEST

static Suite *diagnose_suite(void)
{
	Suite *s = suite_create("diagnose");
	TCase *tc;

	tc = tcase_create("messages");
	tcase_add_loop_test(tc, test_messages, 0, N_ROWS(message_rows));
	tcase_add_loop_test(tc, test_not_dumpable, 0, N_ROWS(dumpable_rows));
	tcase_add_test(tc, test_paranoid_meaning);
	tcase_add_loop_test(tc, test_fixes, 0, N_ROWS(fix_rows));
	tcase_add_test(tc, test_fix_words);
	tcase_add_test(tc, test_probe_result);
	suite_add_tcase(s, tc);

	tc = tcase_create("facts");
	tcase_add_checked_fixture(tc, fake_setup, fake_teardown);
	tcase_add_test(tc, test_gather);
	suite_add_tcase(s, tc);

	tc = tcase_create("check");
	tcase_add_checked_fixture(tc, fake_setup, fake_teardown);
	tcase_add_loop_test(tc, test_check, 0, N_ROWS(check_rows));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(diagnose_suite());
}
