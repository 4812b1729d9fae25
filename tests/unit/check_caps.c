/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of caps.c, the :u fallback of evsel.c and --check, against a
 * fake kernel behind sys_set_ops(). */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include <check.h>

#include "caps.h"
#include "checkup.h"
#include "event.h"
#include "evlist.h"
#include "evsel.h"
#include "results.h"
#include "sys.h"

#define N_ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define FIRST_FD 100

/* A kernel at some paranoid level that refuses what it is told to. */
static struct fake {
	int paranoid;		/* CAPS_PARANOID_UNKNOWN: no answer */
	int kernel_err;		/* for attrs that count the kernel */
	int user_err;		/* for attrs that leave it out */
	int cpu_err;		/* for pid -1, whatever the attr */
	size_t n_opens;
	struct perf_event_attr last;
	int next_fd;
} fake;

static int fake_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		     int group_fd, unsigned long flags)
{
	int err = attr->exclude_kernel ? fake.user_err : fake.kernel_err;

	fake.n_opens++;
	fake.last = *attr;
	if (pid == -1 && fake.cpu_err)
		err = fake.cpu_err;
	return err ? -err : fake.next_fd++;
}

static int fake_ioctl(int fd, unsigned long request, void *arg)
{
	*(uint64_t *)arg = 1000 + (uint64_t)fd;
	return 0;
}

static ssize_t fake_read(int fd, void *buf, size_t len)
{
	return -EIO;
}

static int fake_close(int fd)
{
	return 0;
}

static int fake_paranoid(int *level)
{
	if (fake.paranoid == CAPS_PARANOID_UNKNOWN)
		return -ENOENT;
	*level = fake.paranoid;
	return 0;
}

static const struct sys_ops fake_ops = {
	.perf_event_open = fake_open,
	.ioctl = fake_ioctl,
	.read = fake_read,
	.close = fake_close,
	.paranoid = fake_paranoid,
};

static void fake_setup(void)
{
	memset(&fake, 0, sizeof(fake));
	fake.next_fd = FIRST_FD;
	fake.paranoid = 2;
	sys_set_ops(&fake_ops);
}

static void fake_teardown(void)
{
	sys_set_ops(NULL);
}

/* The :u fallback, one open of one evsel. */
static const struct fallback_row {
	int line;
	const char *name;
	bool has_modifiers;
	bool exclude_user;	/* a :k event */
	int paranoid;
	int pid;
	int kernel_err, user_err;
	int ret;		/* evsel_open's */
	size_t opens;
	const char *name_after;
	bool user_only;
	bool excluded_after;	/* attr.exclude_kernel afterwards */
} fallback_rows[] = {
	{ __LINE__, "task-clock", false, false, 2, 42, EACCES, 0,
	  0, 2, "task-clock:u", true, true },
	{ __LINE__, "task-clock:D", true, false, 2, 42, EACCES, 0,
	  0, 2, "task-clock:Du", true, true },
	{ __LINE__, "task-clock", false, false, 3, 42, EACCES, 0,
	  0, 2, "task-clock:u", true, true },
	/* Not a paranoid refusal: the same answer, once. */
	{ __LINE__, "task-clock", false, false, 1, 42, EACCES, 0,
	  -EACCES, 1, "task-clock", false, false },
	{ __LINE__, "task-clock", false, false, CAPS_PARANOID_UNKNOWN, 42,
	  EACCES, 0, -EACCES, 1, "task-clock", false, false },
	/* Whole CPUs are refused, not narrowed. */
	{ __LINE__, "cpu-clock", false, false, 2, -1, EACCES, 0,
	  -EACCES, 1, "cpu-clock", false, false },
	/* :k asked for the kernel only. */
	{ __LINE__, "task-clock:k", true, true, 2, 42, EACCES, 0,
	  -EACCES, 1, "task-clock:k", false, false },
	/* The msr PMU cannot leave the kernel out: the refusal stands. */
	{ __LINE__, "msr/tsc/", false, false, 2, 42, EACCES, EINVAL,
	  -EACCES, 2, "msr/tsc/", false, false },
	/* Another user's process: refused either way. */
	{ __LINE__, "task-clock", false, false, 2, 1, EACCES, EACCES,
	  -EACCES, 2, "task-clock", false, false },
	/* No such event here, as perf: cycles:u <not supported>. */
	{ __LINE__, "cycles", false, false, 2, 42, EACCES, ENOENT,
	  -ENOENT, 2, "cycles:u", true, true },
	/* Other errors are not retried. */
	{ __LINE__, "task-clock", false, false, 2, 42, EINVAL, 0,
	  -EINVAL, 1, "task-clock", false, false },
};

START_TEST(test_fallback)
{
	const struct fallback_row *t = &fallback_rows[_i];
	struct perf_event_attr attr;
	struct evsel e;
	int ret;

	event_attr_init(&attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.exclude_user = t->exclude_user;
	attr.exclude_hv = t->exclude_user;
	ck_assert_int_eq(evsel_init(&e, &attr, t->name, strlen(t->name), 0),
			 0);
	e.has_modifiers = t->has_modifiers;
	ck_assert_int_eq(evsel_alloc(&e, 2), 0);
	fake.paranoid = t->paranoid;
	fake.kernel_err = t->kernel_err;
	fake.user_err = t->user_err;
	ret = evsel_open(&e, 0, t->pid, -1, -1);
	ck_assert_msg(ret == t->ret, "line %d: returned %d", t->line, ret);
	ck_assert_msg(fake.n_opens == t->opens, "line %d: %zu opens",
		      t->line, fake.n_opens);
	ck_assert_msg(strcmp(e.name, t->name_after) == 0,
		      "line %d: named '%s'", t->line, e.name);
	ck_assert_msg(e.user_only == t->user_only, "line %d: user_only",
		      t->line);
	ck_assert_msg(e.attr.exclude_kernel == t->excluded_after &&
		      e.attr.exclude_hv == (t->excluded_after ||
					    t->exclude_user),
		      "line %d: exclude bits", t->line);
	if (ret < 0)
		ck_assert_msg(e.open_err == -ret && e.err_pid == t->pid,
			      "line %d: open_err %d, err_pid %d", t->line,
			      e.open_err, e.err_pid);
	/* The next target opens :u at once, and the name stays. */
	if (ret == 0) {
		ck_assert_int_eq(evsel_open(&e, 1, t->pid, -1, -1), 0);
		ck_assert_uint_eq(fake.n_opens, t->opens + 1);
		ck_assert_str_eq(e.name, t->name_after);
	}
	evsel_fini(&e);
}
END_TEST

static const struct kernel_only_row {
	int line;
	uint32_t type;
	uint64_t config;
	const char *name;
	bool kernel_only;
} kernel_only_rows[] = {
	{ __LINE__, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES,
	  "context-switches", true },
	{ __LINE__, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS,
	  "cpu-migrations", true },
	{ __LINE__, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES,
	  "cgroup-switches", true },
	{ __LINE__, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK,
	  "task-clock", false },
	{ __LINE__, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS,
	  "page-faults", false },
	{ __LINE__, PERF_TYPE_TRACEPOINT, 372, "sched:sched_switch", true },
	{ __LINE__, PERF_TYPE_TRACEPOINT, 10, "raw_syscalls:sys_enter", true },
	{ __LINE__, PERF_TYPE_TRACEPOINT, 840, "syscalls:sys_enter_write",
	  false },
	{ __LINE__, PERF_TYPE_TRACEPOINT, 841, "syscalls:sys_exit_write",
	  false },
	{ __LINE__, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles",
	  false },
};

START_TEST(test_kernel_only)
{
	const struct kernel_only_row *t = &kernel_only_rows[_i];
	struct perf_event_attr attr;
	struct evsel e;

	event_attr_init(&attr);
	attr.type = t->type;
	attr.config = t->config;
	ck_assert_int_eq(evsel_init(&e, &attr, t->name, strlen(t->name), 0),
			 0);
	ck_assert_msg(evsel_kernel_only(&e) == t->kernel_only, "line %d",
		      t->line);
	evsel_fini(&e);
}
END_TEST

static void add_event(struct evlist *el, uint32_t type, uint64_t config,
		      const char *name)
{
	struct perf_event_attr attr;

	event_attr_init(&attr);
	attr.type = type;
	attr.config = config;
	ck_assert_int_eq(evlist_add(el, &attr, name, strlen(name)), 0);
}

/* task-clock, context-switches, page-faults, cycles: as nobody sees them. */
static struct evlist *user_only_list(void)
{
	struct evlist *el = evlist_new();
	size_t failed = 99;
	int pid = 42;
	const struct evlist_target target = {
		.pids = &pid, .n_pids = 1, .inherit = true,
		.enable_on_exec = true,
	};

	ck_assert_ptr_nonnull(el);
	add_event(el, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK,
		  "task-clock");
	add_event(el, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES,
		  "context-switches");
	add_event(el, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS,
		  "page-faults");
	fake.kernel_err = EACCES;
	ck_assert_int_eq(evlist_open(el, &target, &failed), 0);
	return el;
}

/* A false 0 is shown as not counted; the others count as they are. */
START_TEST(test_blind_not_counted)
{
	struct evlist *el = user_only_list();
	struct results *res = results_new(el, false, 1, NULL);
	const struct counts_values v = { 7, 100, 100 };
	struct counts_result r;
	size_t i;

	ck_assert_ptr_nonnull(res);
	ck_assert_uint_eq(res->n_rows, 3);
	for (i = 0; i < 3; i++) {
		results_value(res, &res->rows[i], &v, &r);
		ck_assert_msg(r.state == (i == 1 ? COUNTS_NOT_COUNTED
						 : COUNTS_COUNTED),
			      "row %zu: state %d", i, r.state);
	}
	ck_assert_str_eq(evlist_at(el, 1)->name, "context-switches:u");
	results_free(res);
	evlist_free(el);
}
END_TEST

START_TEST(test_user_only_note)
{
	struct evlist *el = user_only_list();
	char buf[1024];

	ck_assert(caps_user_only_note(el, 2, buf, sizeof(buf)));
	ck_assert_msg(strstr(buf, "kernel.perf_event_paranoid=2") &&
		      strstr(buf, ":u") &&
		      strstr(buf, "task-clock:u still includes kernel time") &&
		      strstr(buf, "context-switches:u: <not counted>") &&
		      !strstr(buf, "page-faults:u: <not") &&
		      strstr(buf, "CAP_PERFMON"), "%s", buf);
	evlist_free(el);
	el = evlist_new();
	add_event(el, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK,
		  "task-clock");
	ck_assert(!caps_user_only_note(el, 2, buf, sizeof(buf)));
	evlist_free(el);
}
END_TEST

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
	int probe_err;
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
	  2, false, 0, 0, -1, { "4 breakpoints", NULL, NULL } },
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
	struct caps_state s = {
		.paranoid = t->paranoid,
		.probe_err = t->probe_err,
		.seccomp = t->seccomp,
		.uid = 65534,
		.target_uid = t->target_uid,
		.nofile = 1024,
		.nofile_max = 4096,
		.n_cpus = 2,
		.exe = "/usr/bin/pstat",
	};
	struct caps_open_failure f = {
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
	caps_open_error_text(&f, &s, buf, sizeof(buf));
	ck_assert_msg(strncmp(buf, f.event, strlen(f.event)) == 0,
		      "line %d: '%s' does not name the event", t->line, buf);
	ck_assert_msg(!strchr(buf, '\n'), "line %d: several lines", t->line);
	for (i = 0; i < 3 && t->want[i]; i++)
		ck_assert_msg(strstr(buf, t->want[i]),
			      "line %d: no '%s' in '%s'", t->line, t->want[i],
			      buf);
}
END_TEST

/* Each level has its own words, and 3 and 4 name their distribution. */
START_TEST(test_paranoid_meaning)
{
	int level;

	for (level = -1; level <= 4; level++)
		ck_assert(caps_paranoid_meaning(level) !=
			  caps_paranoid_meaning(level + 1));
	ck_assert_ptr_nonnull(strstr(caps_paranoid_meaning(3), "Debian"));
	ck_assert_ptr_nonnull(strstr(caps_paranoid_meaning(4), "Ubuntu"));
	ck_assert_ptr_nonnull(strstr(caps_paranoid_meaning(2),
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

static Suite *caps_suite(void)
{
	Suite *s = suite_create("caps");
	TCase *tc;

	tc = tcase_create("fallback");
	tcase_add_checked_fixture(tc, fake_setup, fake_teardown);
	tcase_add_loop_test(tc, test_fallback, 0, N_ROWS(fallback_rows));
	tcase_add_loop_test(tc, test_kernel_only, 0, N_ROWS(kernel_only_rows));
	tcase_add_test(tc, test_blind_not_counted);
	tcase_add_test(tc, test_user_only_note);
	suite_add_tcase(s, tc);

	tc = tcase_create("messages");
	tcase_add_loop_test(tc, test_messages, 0, N_ROWS(message_rows));
	tcase_add_test(tc, test_paranoid_meaning);
	suite_add_tcase(s, tc);

	tc = tcase_create("check");
	tcase_add_checked_fixture(tc, fake_setup, fake_teardown);
	tcase_add_loop_test(tc, test_check, 0, N_ROWS(check_rows));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(caps_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
