/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of evsel.c: the :u fallback, kernel-only events and the
 * probe, against a fake kernel behind sys_set_ops(). */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include <check.h>

#include "event.h"
#include "evlist.h"
#include "evsel_impl.h"
#include "evsel.h"
#include "results.h"
#include "sys.h"
#include "target.h"

#include "fake_kernel.h"
#include "unit.h"

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
	{ __LINE__, "task-clock", false, false, FAKE_NO_PARANOID, 42,
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
	struct evsel_desc d = { .name = t->name,
				.has_modifiers = t->has_modifiers };
	struct evsel *ep;
	int ret;

	event_attr_init(&d.attr);
	d.attr.type = PERF_TYPE_SOFTWARE;
	d.attr.config = PERF_COUNT_SW_TASK_CLOCK;
	d.attr.exclude_user = t->exclude_user;
	d.attr.exclude_hv = t->exclude_user;
	ep = evsel_new(&d);
	ck_assert_ptr_nonnull(ep);
	ck_assert_int_eq(evsel_alloc(ep, 2), 0);
#define e (*ep)
	fake.paranoid = t->paranoid;
	fake.kernel_err = t->kernel_err;
	fake.user_err = t->user_err;
	ret = evsel_open(&e, 0, t->pid, -1, -1, true);
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
		ck_assert_int_eq(evsel_open(&e, 1, t->pid, -1, -1, true), 0);
		ck_assert_uint_eq(fake.n_opens, t->opens + 1);
		ck_assert_str_eq(e.name, t->name_after);
	}
#undef e
	evsel_free(ep);
}
END_TEST

/* -vv's observer at the seam (sys_observe_opens): what it was told. */
static struct seen {
	int pid, cpu, group_fd, ret;
	int exclude_kernel;
	unsigned long flags;
} seen[4];
static size_t n_seen;

static void observe(void *arg, const struct perf_event_attr *attr,
		    pid_t pid, int cpu, int group_fd, unsigned long flags,
		    int ret)
{
	ck_assert_ptr_eq(arg, &n_seen);
	ck_assert_uint_lt(n_seen, 4);
	seen[n_seen++] = (struct seen){ pid, cpu, group_fd, ret,
					attr->exclude_kernel, flags };
}

/* Both opens of the :u fallback are seen, each with its own result. */
START_TEST(test_observe_opens)
{
	struct evsel_desc d = { .name = "task-clock" };
	struct evsel *e;

	event_attr_init(&d.attr);
	d.attr.type = PERF_TYPE_SOFTWARE;
	d.attr.config = PERF_COUNT_SW_TASK_CLOCK;
	e = evsel_new(&d);
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(evsel_alloc(e, 1), 0);
	fake.paranoid = 2;
	fake.kernel_err = EACCES;
	n_seen = 0;
	sys_observe_opens(observe, &n_seen);
	ck_assert_int_eq(evsel_open(e, 0, 42, -1, -1, true), 0);
	sys_observe_opens(NULL, NULL);
	ck_assert_uint_eq(n_seen, 2);
	ck_assert(seen[0].pid == 42 && seen[0].cpu == -1 &&
		  seen[0].group_fd == -1 && seen[0].ret == -EACCES &&
		  !seen[0].exclude_kernel &&
		  seen[0].flags == PERF_FLAG_FD_CLOEXEC);
	ck_assert(seen[1].ret >= 0 && seen[1].exclude_kernel);
	/* No observer: nothing is told. */
	evsel_close(e);
	ck_assert_int_eq(evsel_open(e, 0, 42, -1, -1, true), 0);
	ck_assert_uint_eq(n_seen, 2);
	evsel_free(e);
}
END_TEST

/* --all-user, --all-kernel: over the event's modifiers, as perf. */
static const struct space_row {
	int line;
	enum evlist_space space;
	bool exclude_user, exclude_kernel;	/* the event's own */
	bool want_user, want_kernel;		/* exclude_* after */
} space_rows[] = {
	{ __LINE__, EVLIST_SPACE_AS_GIVEN, false, true, false, true },
	{ __LINE__, EVLIST_SPACE_USER, false, false, false, true },
	{ __LINE__, EVLIST_SPACE_USER, true, false, false, true },
	{ __LINE__, EVLIST_SPACE_KERNEL, false, false, true, false },
	{ __LINE__, EVLIST_SPACE_KERNEL, false, true, true, false },
};

START_TEST(test_space)
{
	const struct space_row *t = &space_rows[_i];
	struct evsel_desc d = { .name = "task-clock" };
	struct evlist *el = evlist_new();
	const struct perf_event_attr *a;

	ck_assert_ptr_nonnull(el);
	event_attr_init(&d.attr);
	d.attr.exclude_user = t->exclude_user;
	d.attr.exclude_kernel = t->exclude_kernel;
	evlist_set_space(el, t->space);
	ck_assert_int_eq(evlist_add(el, &d), 0);
	a = evsel_attr(evlist_at(el, 0));
	ck_assert_msg(a->exclude_user == t->want_user &&
		      a->exclude_kernel == t->want_kernel,
		      "line %d: exclude_user %d, exclude_kernel %d", t->line,
		      a->exclude_user, a->exclude_kernel);
	evlist_free(el);
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
	struct evsel_desc d = { .name = t->name };
	struct evsel *e;

	event_attr_init(&d.attr);
	d.attr.type = t->type;
	d.attr.config = t->config;
	e = evsel_new(&d);
	ck_assert_ptr_nonnull(e);
	ck_assert_msg(evsel_kernel_only(e) == t->kernel_only, "line %d",
		      t->line);
	evsel_free(e);
}
END_TEST

static void add_event(struct evlist *el, uint32_t type, uint64_t config,
		      const char *name)
{
	struct evsel_desc d = { .name = name };

	event_attr_init(&d.attr);
	d.attr.type = type;
	d.attr.config = config;
	ck_assert_int_eq(evlist_add(el, &d), 0);
}

/* task-clock, context-switches, page-faults, cycles: as nobody sees them. */
static struct evlist *user_only_list(void)
{
	struct evlist *el = evlist_new();
	size_t failed = 99;
	int pid = 42;
	const struct target target = {
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

/* The probe: a disabled counter, opened and closed, its errno. */
static const struct probe_row {
	int line;
	bool user_only;
	int pid, cpu;
	int kernel_err, user_err;
	int ret;
} probe_rows[] = {
	{ __LINE__, true, 0, -1, EACCES, 0, 0 },
	{ __LINE__, false, 0, -1, EACCES, 0, EACCES },
	{ __LINE__, true, 1, -1, 0, EACCES, EACCES },
	{ __LINE__, false, -1, 0, 0, 0, 0 },
	{ __LINE__, true, 0, -1, 0, ENOENT, ENOENT },
};

START_TEST(test_probe)
{
	const struct probe_row *t = &probe_rows[_i];
	int ret;

	fake.kernel_err = t->kernel_err;
	fake.user_err = t->user_err;
	ret = evsel_probe(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
			  t->user_only, t->pid, t->cpu);
	ck_assert_msg(ret == t->ret, "line %d: returned %d", t->line, ret);
	ck_assert_uint_eq(fake.n_opens, 1);
	ck_assert_uint_eq(fake.n_closes, ret ? 0 : 1);
	ck_assert(fake.opens[fake.n_opens - 1].attr.disabled);
	ck_assert_uint_eq(fake.opens[fake.n_opens - 1].attr.type, PERF_TYPE_HARDWARE);
	ck_assert_uint_eq(fake.opens[fake.n_opens - 1].attr.config, PERF_COUNT_HW_CPU_CYCLES);
	ck_assert_int_eq(fake.opens[fake.n_opens - 1].attr.exclude_kernel, t->user_only);
	ck_assert_int_eq(fake.opens[fake.n_opens - 1].attr.exclude_hv, t->user_only);
	ck_assert_int_eq(fake.opens[fake.n_opens - 1].pid, t->pid);
	ck_assert_int_eq(fake.opens[fake.n_opens - 1].cpu, t->cpu);
}
END_TEST

static Suite *evsel_suite(void)
{
	Suite *s = suite_create("evsel");
	TCase *tc;

	tc = tcase_create("fallback");
	tcase_add_checked_fixture(tc, fake_setup, fake_teardown);
	tcase_add_loop_test(tc, test_fallback, 0, N_ROWS(fallback_rows));
	tcase_add_loop_test(tc, test_kernel_only, 0, N_ROWS(kernel_only_rows));
	tcase_add_test(tc, test_blind_not_counted);
	tcase_add_test(tc, test_observe_opens);
	tcase_add_loop_test(tc, test_space, 0, N_ROWS(space_rows));
	suite_add_tcase(s, tc);

	tc = tcase_create("probe");
	tcase_add_checked_fixture(tc, fake_setup, fake_teardown);
	tcase_add_loop_test(tc, test_probe, 0, N_ROWS(probe_rows));
	suite_add_tcase(s, tc);

	return s;
}

int main(void)
{
	return unit_run(evsel_suite());
}
