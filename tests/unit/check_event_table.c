/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of event_table.c: perf's event names, aliases and typos. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include <check.h>

#include "event_table.h"

#define HW PERF_TYPE_HARDWARE
#define SW PERF_TYPE_SOFTWARE

/* Every name perf stat -e takes for a hardware or software event. */
static const struct name_row {
	int line;
	const char *name;
	uint32_t type;
	uint64_t config;
} name_rows[] = {
	{ __LINE__, "cpu-cycles", HW, 0 },
	{ __LINE__, "cycles", HW, 0 },
	{ __LINE__, "instructions", HW, 1 },
	{ __LINE__, "cache-references", HW, 2 },
	{ __LINE__, "cache-misses", HW, 3 },
	{ __LINE__, "branch-instructions", HW, 4 },
	{ __LINE__, "branches", HW, 4 },
	{ __LINE__, "branch-misses", HW, 5 },
	{ __LINE__, "bus-cycles", HW, 6 },
	{ __LINE__, "stalled-cycles-frontend", HW, 7 },
	{ __LINE__, "idle-cycles-frontend", HW, 7 },
	{ __LINE__, "stalled-cycles-backend", HW, 8 },
	{ __LINE__, "idle-cycles-backend", HW, 8 },
	{ __LINE__, "ref-cycles", HW, 9 },
	{ __LINE__, "cpu-clock", SW, 0 },
	{ __LINE__, "task-clock", SW, 1 },
	{ __LINE__, "page-faults", SW, 2 },
	{ __LINE__, "faults", SW, 2 },
	{ __LINE__, "context-switches", SW, 3 },
	{ __LINE__, "cs", SW, 3 },
	{ __LINE__, "cpu-migrations", SW, 4 },
	{ __LINE__, "migrations", SW, 4 },
	{ __LINE__, "minor-faults", SW, 5 },
	{ __LINE__, "major-faults", SW, 6 },
	{ __LINE__, "alignment-faults", SW, 7 },
	{ __LINE__, "emulation-faults", SW, 8 },
	{ __LINE__, "dummy", SW, 9 },
	{ __LINE__, "bpf-output", SW, 10 },
	{ __LINE__, "cgroup-switches", SW, 11 },
};

#define N_ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

START_TEST(test_find)
{
	const struct name_row *t = &name_rows[_i];
	const struct event_def *d = event_table_find(t->name, strlen(t->name));

	ck_assert_msg(d != NULL, "line %d: '%s' not found", t->line, t->name);
	ck_assert_msg(strcmp(d->name, t->name) == 0,
		      "line %d: '%s' found as '%s'", t->line, t->name, d->name);
	ck_assert_msg(d->type == t->type && d->config == t->config,
		      "line %d: '%s' is %u/%ju, want %u/%ju", t->line, t->name,
		      d->type, (uintmax_t)d->config, t->type,
		      (uintmax_t)t->config);
}
END_TEST

/* The table has no row this test does not know the meaning of. */
START_TEST(test_all_known)
{
	size_t n, i;
	const struct event_def *all = event_table_all(&n);
	int j;

	ck_assert_uint_eq(n, N_ROWS(name_rows));
	for (i = 0; i < n; i++) {
		for (j = 0; j < N_ROWS(name_rows); j++)
			if (strcmp(all[i].name, name_rows[j].name) == 0)
				break;
		ck_assert_msg(j < N_ROWS(name_rows), "row '%s' untested",
			      all[i].name);
		ck_assert_msg(all[i].type == name_rows[j].type &&
			      all[i].config == name_rows[j].config,
			      "line %d: row '%s' disagrees", name_rows[j].line,
			      all[i].name);
	}
}
END_TEST

static const struct miss_row {
	int line;
	const char *name;
	size_t len;
} miss_rows[] = {
	{ __LINE__, "cycle", 5 },
	{ __LINE__, "task-clock2", 11 },
	{ __LINE__, "cyclesx", 7 },
	{ __LINE__, "-cycles", 7 },
	{ __LINE__, "c", 1 },
	{ __LINE__, "", 0 },
	{ __LINE__, "CYCLES", 6 },
	{ __LINE__, "cycles ", 7 },
	/* The length bounds the name: a prefix of a longer spec. */
	{ __LINE__, "cycles", 5 },
};

START_TEST(test_find_miss)
{
	const struct miss_row *t = &miss_rows[_i];
	const struct event_def *d = event_table_find(t->name, t->len);

	ck_assert_msg(d == NULL, "line %d: '%.*s' matched '%s'", t->line,
		      (int)t->len, t->name, d ? d->name : "");
}
END_TEST

/* Only the first len bytes are the name. */
START_TEST(test_find_len)
{
	const struct event_def *d = event_table_find("cycles:u,instructions",
						     6);

	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->name, "cycles");
	d = event_table_find("task-clockwork", 10);
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->name, "task-clock");
}
END_TEST

static const struct suggest_row {
	int line;
	const char *typo;
	size_t len;
	const char *want;	/* NULL: not a typo of anything */
} suggest_rows[] = {
	{ __LINE__, "cylces", 6, "cycles" },
	{ __LINE__, "TASK-CLOCK", 10, "task-clock" },
	{ __LINE__, "Cycles", 6, "cycles" },
	{ __LINE__, "pagefaults", 10, "page-faults" },
	{ __LINE__, "instrucitons", 12, "instructions" },
	{ __LINE__, "cache-mises", 11, "cache-misses" },
	{ __LINE__, "branch-miss", 11, "branch-misses" },
	{ __LINE__, "cylces:u", 6, "cycles" },
	{ __LINE__, "zzzzzzzz", 8, NULL },
	{ __LINE__, "", 0, NULL },
	{ __LINE__, "x", 1, NULL },
	{ __LINE__, "syscalls", 8, NULL },
};

START_TEST(test_suggest)
{
	const struct suggest_row *t = &suggest_rows[_i];
	const char *got = event_table_suggest(t->typo, t->len);

	if (!t->want) {
		ck_assert_msg(got == NULL, "line %d: '%.*s' suggests '%s'",
			      t->line, (int)t->len, t->typo, got);
		return;
	}
	ck_assert_msg(got && strcmp(got, t->want) == 0,
		      "line %d: '%.*s' suggests '%s', want '%s'", t->line,
		      (int)t->len, t->typo, got ? got : "(null)", t->want);
}
END_TEST

/* An alias names a canonical row, above it, counting the same thing. */
START_TEST(test_aliases)
{
	size_t n, i, j;
	const struct event_def *all = event_table_all(&n);

	for (i = 0; i < n; i++) {
		const struct event_def *c;

		if (!all[i].alias_of)
			continue;
		c = event_table_find(all[i].alias_of, strlen(all[i].alias_of));
		ck_assert_msg(c != NULL, "'%s' is an alias of missing '%s'",
			      all[i].name, all[i].alias_of);
		ck_assert_msg(c->alias_of == NULL, "'%s' aliases alias '%s'",
			      all[i].name, c->name);
		ck_assert_msg(c->type == all[i].type &&
			      c->config == all[i].config,
			      "'%s' counts other than its '%s'", all[i].name,
			      c->name);
		ck_assert_msg(c < &all[i], "'%s' listed before its '%s'",
			      all[i].name, c->name);
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			ck_assert_msg(strcmp(all[i].name, all[j].name) != 0,
				      "'%s' twice", all[i].name);
}
END_TEST

/* Two canonical names never count the same thing. */
START_TEST(test_canonical_unique)
{
	size_t n, i, j;
	const struct event_def *all = event_table_all(&n);

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			ck_assert_msg(all[i].alias_of || all[j].alias_of ||
				      all[i].type != all[j].type ||
				      all[i].config != all[j].config,
				      "'%s' and '%s' are both canonical",
				      all[i].name, all[j].name);
}
END_TEST

static Suite *event_table_suite(void)
{
	Suite *s = suite_create("event_table");
	TCase *tc;

	tc = tcase_create("find");
	tcase_add_loop_test(tc, test_find, 0, N_ROWS(name_rows));
	tcase_add_test(tc, test_all_known);
	tcase_add_loop_test(tc, test_find_miss, 0, N_ROWS(miss_rows));
	tcase_add_test(tc, test_find_len);
	suite_add_tcase(s, tc);

	tc = tcase_create("suggest");
	tcase_add_loop_test(tc, test_suggest, 0, N_ROWS(suggest_rows));
	suite_add_tcase(s, tc);

	tc = tcase_create("aliases");
	tcase_add_test(tc, test_aliases);
	tcase_add_test(tc, test_canonical_unique);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(event_table_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
