/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of notes.c, against a fake kernel behind sys_set_ops(). */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/perf_event.h>

#include <check.h>

#include "aggr.h"
#include "diag.h"
#include "event.h"
#include "evlist.h"
#include "notes.h"
#include "results.h"
#include "sys.h"
#include "target.h"
#include "unit.h"
#include "workload.h"

#include "fake_kernel.h"

/* The fake kernel, and notes said again after a test that quieted them. */
static void notes_teardown(void)
{
	fake_teardown();
	diag_quiet(false);
}

static void add_event(struct evlist *el, uint32_t type, uint64_t config,
		      const char *name)
{
	struct evsel_desc d = { .name = name };

	event_attr_init(&d.attr);
	d.attr.type = type;
	d.attr.config = config;
	ck_assert_int_eq(evlist_add(el, &d), 0);
}

/* task-clock, context-switches, page-faults: as nobody sees them. */
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

START_TEST(test_user_only_note)
{
	struct evlist *el = user_only_list();
	char buf[1024];

	ck_assert(notes_user_only(el, 2, buf, sizeof(buf)));
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
	ck_assert(!notes_user_only(el, 2, buf, sizeof(buf)));
	evlist_free(el);
}
END_TEST

/* Unknown level: the kernel refused, and pstat cannot say why. */
START_TEST(test_user_only_note_unknown)
{
	struct evlist *el = user_only_list();
	char buf[1024];

	ck_assert(notes_user_only(el, -1000, buf, sizeof(buf)));
	ck_assert_msg(strncmp(buf, "the kernel (a security module?)", 31) == 0,
		      "%s", buf);
	evlist_free(el);
}
END_TEST

/* The note of a command whose exec stops the counting, by why. */
static const struct stop_row {
	int line;
	struct workload_stop stop;
	const char *want[2];
} stop_rows[] = {
	{ __LINE__, { WORKLOAD_SETUID, 0, 0 },
	  { "'/bin/su' is set-user-ID root: the kernel stops counting",
	    "run pstat as root" } },
	{ __LINE__, { WORKLOAD_SETUID, 1000, 0 },
	  { "is set-user-ID uid 1000:", "run pstat as uid 1000" } },
	{ __LINE__, { WORKLOAD_SETGID, 0, 42 },
	  { "is set-group-ID (to gid 42)", "with gid 42 as its real group" } },
	{ __LINE__, { WORKLOAD_UNREADABLE, 0, 0 },
	  { "cannot be read by you, only executed", "as its owner or as root" } },
};

START_TEST(test_exec_stops)
{
	const struct stop_row *t = &stop_rows[_i];
	char buf[1024];
	size_t i;

	notes_exec_stops("/bin/su", &t->stop, buf, sizeof(buf));
	ck_assert_msg(strncmp(buf, "'/bin/su' ", 10) == 0, "line %d: %s",
		      t->line, buf);
	for (i = 0; i < 2; i++)
		ck_assert_msg(strstr(buf, t->want[i]), "line %d: no '%s' in %s",
			      t->line, t->want[i], buf);
}
END_TEST

/* What f's notes said on stderr, from a temporary file. */
static char said[4096];

static void capture(void (*f)(void *), void *arg)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO);
	size_t n;

	ck_assert_ptr_nonnull(tmp);
	ck_assert_int_ge(saved, 0);
	fflush(stderr);
	ck_assert_int_ge(dup2(fileno(tmp), STDERR_FILENO), 0);
	f(arg);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	n = fread(said, 1, sizeof(said) - 1, tmp);
	said[n] = '\0';
	fclose(tmp);
}

static void opened(void *arg)
{
	notes_opened(NULL, arg, NULL);
}

/* The note of the :u fallback, once; nothing read when notes are off. */
START_TEST(test_opened)
{
	struct evlist *el = user_only_list();

	fake.n_paranoid = 0;	/* the :u retries asked too */
	capture(opened, el);
	ck_assert_msg(strstr(said, "pstat: note: kernel.perf_event_paranoid=2"),
		      "%s", said);
	ck_assert_uint_eq(fake.n_paranoid, 1);
	diag_quiet(true);
	capture(opened, el);
	ck_assert_str_eq(said, "");
	ck_assert_uint_eq(fake.n_paranoid, 1);
	evlist_free(el);
}
END_TEST

/* {instructions,cycles}, then branches: the events the notes name. */
static void add_group_and_branches(struct evlist *el)
{
	evlist_group_begin(el);
	add_event(el, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
		  "instructions");
	add_event(el, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles");
	evlist_group_end(el);
	add_event(el, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
		  "branches");
}

/*
 * {instructions,cycles} and branches enabled and never run, then
 * instructions counted; what the reads say when a PMU's counters were
 * all taken (a pinned event, the NMI watchdog). Unsupported (ENOENT)
 * when unsupported is set: no note for it.
 */
static struct results *not_counted(struct evlist *el, bool unsupported)
{
	struct results *res;
	size_t failed = 99;
	int pid = 42, fd;
	const struct target target = {
		.pids = &pid, .n_pids = 1, .inherit = true,
		.enable_on_exec = true,
	};

	add_group_and_branches(el);
	add_event(el, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
		  "instructions");
	if (unsupported)
		fake.open_errno[2] = ENOENT;
	ck_assert_int_eq(evlist_open(el, &target, &failed), 0);
	for (fd = FAKE_FIRST_FD; fd < fake.next_fd; fd++)
		fake_count(fd, 0, 5000, 0);
	fake_count(fake.next_fd - 1, 3000, 5000, 2000);
	ck_assert_int_eq(evlist_read(el), 0);
	res = results_new(el, false, 1, NULL);
	ck_assert_ptr_nonnull(res);
	res->enabled = true;
	results_snapshot(res);
	return res;
}

static void counted(void *arg)
{
	notes_counted(arg);
}

/* A group that never ran is named whole; events alone, by name. */
START_TEST(test_counted)
{
	struct evlist *el = evlist_new();
	struct results *res;

	ck_assert_ptr_nonnull(el);
	res = not_counted(el, _i);
	capture(counted, res);
	ck_assert_msg(strstr(said, "pstat: note: the group {instructions,cycles}: <not counted>: ") &&
		      strstr(said, "make it smaller"), "%s", said);
	if (_i)
		ck_assert_msg(!strstr(said, "branches"), "%s", said);
	else
		ck_assert_msg(strstr(said, "pstat: note: branches: <not counted>: the PMU had no counter free for it "),
			      "%s", said);
	ck_assert_msg(!strstr(said, "instructions, ") &&
		      !strstr(said, "instructions:"), "%s", said);
	diag_quiet(true);
	capture(counted, res);
	ck_assert_str_eq(said, "");
	results_free(res);
	evlist_free(el);
}
END_TEST

/*
 * Per CPU, two CPUs, many events: an event never ran when it did not
 * on any CPU (a CPU its task never ran on, enabled 0, does not count).
 * Every third of 30 more never ran either; one pass over the rows
 * tells them all.
 */
#define N_MORE 30
#define MORE_CONFIG 0x100	/* raw configs of the 30 more: 0x100 + k */

/* What counter call read, by its event (config) and CPU. */
static void count_per_cpu(size_t call)
{
	const struct fake_open *o = &fake.opens[call];
	uint64_t c = o->attr.config, enabled = 5000, running = 0;

	if (o->ret < 0)
		return;
	if (o->attr.type == PERF_TYPE_RAW)
		running = (c - MORE_CONFIG) % 3 ? 5000 : 0;
	else if (c == PERF_COUNT_HW_BRANCH_INSTRUCTIONS && o->cpu == 1)
		running = 5000;
	else if (c == PERF_COUNT_HW_CACHE_MISSES && o->cpu == 1)
		enabled = 0;	/* its task never ran there */
	else if (c == PERF_COUNT_HW_CACHE_REFERENCES)
		running = 5000;
	fake_count(o->ret, running ? 10 : 0, enabled, running);
}

START_TEST(test_counted_per_cpu)
{
	static const struct {
		uint64_t config;
		const char *name;
	} hw[] = {
		{ PERF_COUNT_HW_BRANCH_MISSES, "branch-misses" },
		{ PERF_COUNT_HW_CACHE_MISSES, "cache-misses" },
		{ PERF_COUNT_HW_CACHE_REFERENCES, "cache-references" },
	};
	static int cpus[] = { 0, 1 };
	const struct target target = { .cpus = cpus, .n_cpus = 2 };
	struct evlist *el = evlist_new();
	struct results *res;
	size_t failed, i;
	char names[N_MORE][8], want[512];

	ck_assert_ptr_nonnull(el);
	add_group_and_branches(el);
	for (i = 0; i < sizeof(hw) / sizeof(hw[0]); i++)
		add_event(el, PERF_TYPE_HARDWARE, hw[i].config, hw[i].name);
	for (i = 0; i < N_MORE; i++) {
		snprintf(names[i], sizeof(names[i]), "e%zu", i);
		add_event(el, PERF_TYPE_RAW, MORE_CONFIG + i, names[i]);
	}
	ck_assert_int_eq(evlist_open(el, &target, &failed), 0);
	for (i = 0; i < fake.n_opens; i++)
		count_per_cpu(i);
	ck_assert_int_eq(evlist_read(el), 0);
	res = results_new(el, false, 1, &fake_per_cpu);
	ck_assert_ptr_nonnull(res);
	results_snapshot(res);
	capture(counted, res);
	ck_assert_msg(strstr(said, "pstat: note: the group {instructions,cycles}: <not counted>: "),
		      "%s", said);
	snprintf(want, sizeof(want), "pstat: note: branch-misses");
	for (i = 0; i < N_MORE; i += 3)
		snprintf(want + strlen(want), sizeof(want) - strlen(want),
			 ", e%zu", i);
	strcat(want, ": <not counted>: the PMU had no counter free for them ");
	ck_assert_msg(strstr(said, want), "%s\nwant\n%s", said, want);
	ck_assert_msg(!strstr(said, "branches") && !strstr(said, "cache-"),
		      "%s", said);
	results_free(res);
	evlist_free(el);
}
END_TEST

/* The notes of a run's end, by how it ended. */
static const struct end_row {
	int line;
	size_t run, of;
	int status, signalled;
	bool left_out;
	const char *want;	/* NULL: no note */
} end_rows[] = {
	{ __LINE__, 0, 3, 3 << 8, 0, false,
	  "pstat: note: run 1 of 3: 'prog' exited with status 3\n" },
	{ __LINE__, 1, 3, SIGKILL, 0, false,
	  "pstat: note: run 2 of 3: 'prog' was killed by SIGKILL\n" },
	{ __LINE__, 1, 5, SIGINT, SIGINT, true,
	  "pstat: note: run 2 of 5 was cut short by SIGINT: it is left out of the means\n" },
	/* One run: its status is pstat's, which says enough. */
	{ __LINE__, 0, 1, 3 << 8, 0, false, NULL },
	{ __LINE__, 0, 3, 0, 0, false, NULL },
	/* Cut short and kept: the last run, its status said by main. */
	{ __LINE__, 0, 3, SIGINT, SIGINT, false, NULL },
};

static const struct end_row *end_row;

static void run_ended(void *arg)
{
	const struct end_row *t = end_row;

	notes_run_ended(arg, t->run, t->of, t->status, t->signalled,
			t->left_out);
}

START_TEST(test_run_ended)
{
	static char prog[] = "prog";
	char *argv[] = { prog, NULL };

	end_row = &end_rows[_i];
	capture(run_ended, argv);
	ck_assert_msg(strcmp(said, end_row->want ? end_row->want : "") == 0,
		      "line %d: said '%s'", end_row->line, said);
}
END_TEST

static Suite *notes_suite(void)
{
	Suite *s = suite_create("notes");
	TCase *tc;

	tc = tcase_create("words");
	tcase_add_checked_fixture(tc, fake_setup, notes_teardown);
	tcase_add_test(tc, test_user_only_note);
	tcase_add_test(tc, test_user_only_note_unknown);
	tcase_add_loop_test(tc, test_exec_stops, 0, N_ROWS(stop_rows));
	suite_add_tcase(s, tc);

	tc = tcase_create("printed");
	tcase_add_checked_fixture(tc, fake_setup, notes_teardown);
	tcase_add_test(tc, test_opened);
	tcase_add_loop_test(tc, test_run_ended, 0, N_ROWS(end_rows));
	tcase_add_loop_test(tc, test_counted, 0, 2);
	tcase_add_test(tc, test_counted_per_cpu);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(notes_suite());
}
