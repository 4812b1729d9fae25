/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of evparse.c: the -e grammar, its errors and tracepoints. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include <check.h>

#include "evlist.h"
#include "evparse.h"
#include "pmu.h"

#define HW PERF_TYPE_HARDWARE
#define SW PERF_TYPE_SOFTWARE
#define TP PERF_TYPE_TRACEPOINT
#define MAX_EVENTS 4

#define N_ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

struct want_event {
	const char *name;
	size_t group;
	uint32_t type;
	uint64_t config;
	unsigned eu, ek, eh;	/* exclude_user, _kernel, _hv */
};

struct good_row {
	int line;
	const char *spec;
	size_t n;
	struct want_event ev[MAX_EVENTS];
};

static const struct good_row good_rows[] = {
	{ __LINE__, "cycles", 1, {
		{ "cycles", 0, HW, 0, 0, 0, 0 } } },
	{ __LINE__, "cycles,instructions", 2, {
		{ "cycles", 0, HW, 0, 0, 0, 0 },
		{ "instructions", 1, HW, 1, 0, 0, 0 } } },
	{ __LINE__, "task-clock:u", 1, {
		{ "task-clock:u", 0, SW, 1, 0, 1, 1 } } },
	{ __LINE__, "cycles:k", 1, {
		{ "cycles:k", 0, HW, 0, 1, 0, 1 } } },
	{ __LINE__, "cycles:uk", 1, {
		{ "cycles:uk", 0, HW, 0, 0, 0, 1 } } },
	{ __LINE__, "cycles:h", 1, {
		{ "cycles:h", 0, HW, 0, 1, 1, 0 } } },
	{ __LINE__, "cycles:ukh", 1, {
		{ "cycles:ukh", 0, HW, 0, 0, 0, 0 } } },
	{ __LINE__, "cycles:uu", 1, {
		{ "cycles:uu", 0, HW, 0, 0, 1, 1 } } },
	{ __LINE__, "{cycles,instructions}", 2, {
		{ "cycles", 0, HW, 0, 0, 0, 0 },
		{ "instructions", 0, HW, 1, 0, 0, 0 } } },
	{ __LINE__, "{cycles,instructions}:u", 2, {
		{ "cycles:u", 0, HW, 0, 0, 1, 1 },
		{ "instructions:u", 0, HW, 1, 0, 1, 1 } } },
	/* perf merges a group's letters into what a member already has. */
	{ __LINE__, "{cycles:k,instructions}:u", 2, {
		{ "cycles:ku", 0, HW, 0, 0, 0, 1 },
		{ "instructions:u", 0, HW, 1, 0, 1, 1 } } },
	{ __LINE__, "cs,{task-clock,faults},migrations", 4, {
		{ "cs", 0, SW, 3, 0, 0, 0 },
		{ "task-clock", 1, SW, 1, 0, 0, 0 },
		{ "faults", 1, SW, 2, 0, 0, 0 },
		{ "migrations", 2, SW, 4, 0, 0, 0 } } },
	{ __LINE__, "{cycles},{instructions}", 2, {
		{ "cycles", 0, HW, 0, 0, 0, 0 },
		{ "instructions", 1, HW, 1, 0, 0, 0 } } },
	{ __LINE__, " cycles , instructions ", 2, {
		{ "cycles", 0, HW, 0, 0, 0, 0 },
		{ "instructions", 1, HW, 1, 0, 0, 0 } } },
	{ __LINE__, "{ cycles , instructions }", 2, {
		{ "cycles", 0, HW, 0, 0, 0, 0 },
		{ "instructions", 0, HW, 1, 0, 0, 0 } } },
	{ __LINE__, "cpu-cycles,branches,ref-cycles,cpu-clock", 4, {
		{ "cpu-cycles", 0, HW, 0, 0, 0, 0 },
		{ "branches", 1, HW, 4, 0, 0, 0 },
		{ "ref-cycles", 2, HW, 9, 0, 0, 0 },
		{ "cpu-clock", 3, SW, 0, 0, 0, 0 } } },
};

/* Parse spec into a fresh evlist and compare it with the row. */
static void check_good(const struct good_row *t)
{
	struct evlist *el = evlist_new();
	struct evparse_error err = { 0 };
	size_t i;
	int ret;

	ck_assert_ptr_nonnull(el);
	ret = evparse(el, t->spec, &err);
	ck_assert_msg(ret == 0, "line %d: '%s' returned %d: col %zu: %s",
		      t->line, t->spec, ret, err.col, err.reason);
	ck_assert_msg(evlist_count(el) == t->n, "line %d: '%s': %zu events",
		      t->line, t->spec, evlist_count(el));
	for (i = 0; i < t->n; i++) {
		const struct want_event *w = &t->ev[i];
		const struct evsel *e = evlist_at(el, i);
		const struct perf_event_attr *a = &e->attr;

		ck_assert_msg(strcmp(e->name, w->name) == 0,
			      "line %d: event %zu named '%s', want '%s'",
			      t->line, i, e->name, w->name);
		ck_assert_msg(e->group == w->group,
			      "line %d: '%s' in group %zu, want %zu", t->line,
			      w->name, e->group, w->group);
		ck_assert_msg(a->type == w->type && a->config == w->config,
			      "line %d: '%s' is %u/%ju, want %u/%ju", t->line,
			      w->name, a->type, (uintmax_t)a->config, w->type,
			      (uintmax_t)w->config);
		ck_assert_msg(a->exclude_user == w->eu &&
			      a->exclude_kernel == w->ek &&
			      a->exclude_hv == w->eh,
			      "line %d: '%s' excludes u%u k%u h%u, "
			      "want u%u k%u h%u",
			      t->line, w->name, (unsigned)a->exclude_user,
			      (unsigned)a->exclude_kernel,
			      (unsigned)a->exclude_hv, w->eu, w->ek, w->eh);
		ck_assert_msg(a->size == sizeof(*a), "line %d: attr size %u",
			      t->line, a->size);
	}
	evlist_free(el);
}

START_TEST(test_good)
{
	check_good(&good_rows[_i]);
}
END_TEST

/* Every -e adds to the same list; groups keep counting. */
START_TEST(test_two_specs)
{
	struct evlist *el = evlist_new();
	struct evparse_error err;

	ck_assert_int_eq(evparse(el, "cycles", &err), 0);
	ck_assert_int_eq(evparse(el, "{instructions,branches}:u", &err), 0);
	ck_assert_int_eq(evparse(el, "task-clock", &err), 0);
	ck_assert_uint_eq(evlist_count(el), 4);
	ck_assert_uint_eq(evlist_at(el, 0)->group, 0);
	ck_assert_uint_eq(evlist_at(el, 1)->group, 1);
	ck_assert_uint_eq(evlist_at(el, 2)->group, 1);
	ck_assert_uint_eq(evlist_at(el, 3)->group, 2);
	ck_assert_str_eq(evlist_at(el, 0)->name, "cycles");
	ck_assert_str_eq(evlist_at(el, 2)->name, "branches:u");
	ck_assert_uint_eq(evlist_at(el, 0)->attr.exclude_kernel, 0);
	evlist_free(el);
}
END_TEST

struct bad_row {
	int line;
	const char *spec;
	size_t col;
	const char *reason;	/* a substring of err.reason */
	const char *hint;	/* a substring of err.hint, or NULL */
};

static const struct bad_row bad_rows[] = {
	{ __LINE__, "cylces", 0, "unknown event 'cylces'",
	  "did you mean 'cycles'" },
	{ __LINE__, "cycles,cylces", 7, "unknown event 'cylces'",
	  "did you mean 'cycles'" },
	{ __LINE__, "TASK-CLOCK", 0, "unknown event 'TASK-CLOCK'",
	  "did you mean 'task-clock'" },
	{ __LINE__, "zzzzzzzz", 0, "unknown event 'zzzzzzzz'",
	  "pstat --list" },
	{ __LINE__, "cycles:x", 7, "unknown modifier 'x'", NULL },
	{ __LINE__, "task-clock:uz", 12, "unknown modifier 'z'", NULL },
	{ __LINE__, "cycles:", 7, "expected modifiers", NULL },
	{ __LINE__, "{cycles,instructions}:x", 22, "unknown modifier 'x'",
	  NULL },
	{ __LINE__, "{cycles,instructions}:", 22, "expected modifiers", NULL },
	{ __LINE__, "{cycles,instructions", 0, "unclosed '{'", NULL },
	{ __LINE__, "cycles,{instructions", 7, "unclosed '{'", NULL },
	{ __LINE__, "{cycles,{instructions}}", 8, "nested", NULL },
	{ __LINE__, "{cycles;instructions}", 7, "expected ',' or '}'", NULL },
	{ __LINE__, "{}", 1, "expected an event name", NULL },
	{ __LINE__, "", 0, "expected an event name", NULL },
	{ __LINE__, "cycles,", 7, "expected an event name", NULL },
	{ __LINE__, "cycles,,instructions", 7, "unexpected ','", NULL },
	{ __LINE__, ",cycles", 0, "unexpected ','", NULL },
	{ __LINE__, "{,cycles}", 1, "unexpected ','", NULL },
	{ __LINE__, "cycles;", 6, "expected ','", NULL },
	{ __LINE__, "cycles}", 6, "expected ','", NULL },
	{ __LINE__, "cycles instructions", 7, "expected ','", NULL },
};

/* Parse spec into a fresh evlist and compare the error with the row. */
static void check_bad(const struct bad_row *t)
{
	struct evlist *el = evlist_new();
	struct evparse_error err;
	int ret;

	memset(&err, 0x55, sizeof(err));
	ret = evparse(el, t->spec, &err);
	ck_assert_msg(ret == -EINVAL, "line %d: '%s' returned %d", t->line,
		      t->spec, ret);
	ck_assert_msg(memchr(err.reason, '\0', sizeof(err.reason)) &&
		      memchr(err.hint, '\0', sizeof(err.hint)),
		      "line %d: '%s': unterminated error text", t->line,
		      t->spec);
	ck_assert_msg(err.col == t->col, "line %d: '%s': col %zu, want %zu",
		      t->line, t->spec, err.col, t->col);
	ck_assert_msg(strstr(err.reason, t->reason),
		      "line %d: '%s': reason '%s', want '%s'", t->line,
		      t->spec, err.reason, t->reason);
	ck_assert_msg(!t->hint || strstr(err.hint, t->hint),
		      "line %d: '%s': hint '%s', want '%s'", t->line, t->spec,
		      err.hint, t->hint);
	evlist_free(el);
}

START_TEST(test_bad)
{
	check_bad(&bad_rows[_i]);
}
END_TEST

/* A fake tracefs: directories, id files, and some it may not read. */
static const struct node {
	const char *path;
	const char *text;	/* NULL: a directory */
	mode_t mode;
} tree[] = {
	{ "events", NULL, 0755 },
	{ "events/syscalls", NULL, 0755 },
	{ "events/syscalls/sys_enter_write", NULL, 0755 },
	{ "events/syscalls/sys_enter_write/id", "123\n", 0644 },
	{ "events/sched", NULL, 0755 },
	{ "events/sched/sched_switch", NULL, 0755 },
	{ "events/sched/sched_switch/id", "77\n", 0644 },
	{ "events/locked", NULL, 0755 },
	{ "events/locked/secret", NULL, 0755 },
	{ "events/locked/secret/id", "5\n", 0000 },
	{ "closed", NULL, 0000 },
};

/* pmu_set_roots() keeps the pointer, not a copy. */
static char tmp_root[256], tracefs[512];

static void tree_path(char *buf, size_t len, const char *rel)
{
	int n = snprintf(buf, len, "%s/%s", tmp_root, rel);

	ck_assert_msg(n > 0 && (size_t)n < len, "path too long: %s", rel);
}

static void make_node(const struct node *nd)
{
	char path[512];
	int fd;

	tree_path(path, sizeof(path), nd->path);
	if (!nd->text) {
		ck_assert_msg(mkdir(path, 0700) == 0, "mkdir %s", path);
	} else {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
		ck_assert_msg(fd >= 0, "create %s", path);
		ck_assert_msg(write(fd, nd->text, strlen(nd->text)) ==
			      (ssize_t)strlen(nd->text), "write %s", path);
		close(fd);
	}
	ck_assert_msg(chmod(path, nd->mode) == 0, "chmod %s", path);
}

/* Point pmu at a directory under tmp_root. */
static void tracefs_use(const char *rel)
{
	tree_path(tracefs, sizeof(tracefs), rel);
	pmu_set_roots(NULL, tracefs);
}

static void tracefs_setup(void)
{
	int i;
	const char *tmp = getenv("TMPDIR");

	snprintf(tmp_root, sizeof(tmp_root), "%s/check_evparse.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	ck_assert_msg(mkdtemp(tmp_root) != NULL, "mkdtemp");
	for (i = 0; i < N_ROWS(tree); i++)
		make_node(&tree[i]);
	tracefs_use("events");
}

static void tracefs_teardown(void)
{
	char path[512];
	int i;

	pmu_set_roots(NULL, NULL);
	for (i = N_ROWS(tree) - 1; i >= 0; i--) {
		tree_path(path, sizeof(path), tree[i].path);
		if (tree[i].text) {
			unlink(path);
		} else {
			chmod(path, 0700);
			rmdir(path);
		}
	}
	rmdir(tmp_root);
}

static const struct good_row tp_good_rows[] = {
	{ __LINE__, "syscalls:sys_enter_write", 1, {
		{ "syscalls:sys_enter_write", 0, TP, 123, 0, 0, 0 } } },
	{ __LINE__, "syscalls:sys_enter_write:u", 1, {
		{ "syscalls:sys_enter_write:u", 0, TP, 123, 0, 1, 1 } } },
	{ __LINE__, "{sched:sched_switch,syscalls:sys_enter_write}:k", 2, {
		{ "sched:sched_switch:k", 0, TP, 77, 1, 0, 1 },
		{ "syscalls:sys_enter_write:k", 0, TP, 123, 1, 0, 1 } } },
	{ __LINE__, "{sched:sched_switch:u,cycles}:k", 2, {
		{ "sched:sched_switch:uk", 0, TP, 77, 0, 0, 1 },
		{ "cycles:k", 0, HW, 0, 1, 0, 1 } } },
	{ __LINE__, "cycles,sched:sched_switch,task-clock", 3, {
		{ "cycles", 0, HW, 0, 0, 0, 0 },
		{ "sched:sched_switch", 1, TP, 77, 0, 0, 0 },
		{ "task-clock", 2, SW, 1, 0, 0, 0 } } },
};

START_TEST(test_tp_good)
{
	check_good(&tp_good_rows[_i]);
}
END_TEST

static const struct tp_bad_row {
	struct bad_row bad;
	const char *root;	/* tracefs under tmp_root; NULL: "events" */
	int needs_user;		/* permissions do not stop root */
} tp_bad_rows[] = {
	{ { __LINE__, "syscalls:nosuch", 0,
	    "unknown tracepoint 'syscalls:nosuch'", NULL } },
	{ { __LINE__, "cycles,nosys:sys_enter_write", 7,
	    "unknown tracepoint 'nosys:sys_enter_write'", NULL } },
	{ { __LINE__, "syscalls:", 9, "expected a tracepoint name", NULL } },
	{ { __LINE__, "syscalls:sys_enter_write:x", 25,
	    "unknown modifier 'x'", NULL } },
	/* All modifier letters: a mistyped name, not a tracepoint. */
	{ { __LINE__, "cylces:u", 0, "unknown event 'cylces'",
	    "did you mean 'cycles'" } },
	{ { __LINE__, "cycles,cylces:uk", 7, "unknown event 'cylces'",
	    "did you mean 'cycles'" } },
	{ { __LINE__, "locked:secret", 0, "permission denied", NULL },
	  NULL, 1 },
	/* The common case for users: tracefs is root's alone. */
	{ { __LINE__, "cylces:u", 0, "unknown event 'cylces'",
	    "did you mean 'cycles'" }, "closed", 1 },
	{ { __LINE__, "sched:sched_switch", 0, "permission denied", NULL },
	  "closed", 1 },
};

START_TEST(test_tp_bad)
{
	const struct tp_bad_row *t = &tp_bad_rows[_i];

	if (t->needs_user && geteuid() == 0) {
		printf("line %d: '%s' skipped: root reads any file\n",
		       t->bad.line, t->bad.spec);
		return;
	}
	if (t->root)
		tracefs_use(t->root);
	check_bad(&t->bad);
	tracefs_use("events");
}
END_TEST

static Suite *evparse_suite(void)
{
	Suite *s = suite_create("evparse");
	TCase *tc;

	tc = tcase_create("good");
	tcase_add_loop_test(tc, test_good, 0, N_ROWS(good_rows));
	tcase_add_test(tc, test_two_specs);
	suite_add_tcase(s, tc);

	tc = tcase_create("bad");
	tcase_add_loop_test(tc, test_bad, 0, N_ROWS(bad_rows));
	suite_add_tcase(s, tc);

	tc = tcase_create("tracepoint");
	tcase_add_unchecked_fixture(tc, tracefs_setup, tracefs_teardown);
	tcase_add_loop_test(tc, test_tp_good, 0, N_ROWS(tp_good_rows));
	tcase_add_loop_test(tc, test_tp_bad, 0, N_ROWS(tp_bad_rows));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(evparse_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
