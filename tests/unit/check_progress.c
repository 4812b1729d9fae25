/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of progress.c: the line's words, and when it is written. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "progress.h"
#include "unit.h"

static const struct format_row {
	int line;
	size_t run, of;
	double elapsed;
	size_t done;
	double done_s;
	const char *want;
} format_rows[] = {
	/* Nothing ended yet: no estimate. */
	{ __LINE__, 0, 5, 0.0, 0, 0.0, "run 1 of 5, 0.0 s so far" },
	/* Two runs took 4 s: three more, 6 s. */
	{ __LINE__, 2, 5, 4.0, 2, 4.0,
	  "run 3 of 5, 4.0 s so far, about 6.0 s left" },
	/* The last run: one run's time. */
	{ __LINE__, 9, 10, 18.0, 9, 18.0,
	  "run 10 of 10, 18.0 s so far, about 2.0 s left" },
	/* Minutes past a minute. */
	{ __LINE__, 1, 3, 65.0, 1, 65.0,
	  "run 2 of 3, 1 min 05 s so far, about 2 min 10 s left" },
	{ __LINE__, 1, 2, 59.9, 1, 59.9,
	  "run 2 of 2, 59.9 s so far, about 59.9 s left" },
	{ __LINE__, 1, 2, 59.96, 1, 59.96,
	  "run 2 of 2, 1 min 00 s so far, about 1 min 00 s left" },
	/* A tick within run 3 of 5: 1.5 s of its 2 s are gone. */
	{ __LINE__, 2, 5, 5.5, 2, 4.0,
	  "run 3 of 5, 5.5 s so far, about 4.5 s left" },
	/* Longer than the others: nothing left to say but 0. */
	{ __LINE__, 4, 5, 20.0, 4, 8.0,
	  "run 5 of 5, 20.0 s so far, about 0.0 s left" },
	/* -r 0: no number of runs, no estimate (issue 31). */
	{ __LINE__, 1, SIZE_MAX, 3.0, 1, 2.0, "run 2, 3.0 s so far" },
	{ __LINE__, 0, SIZE_MAX, 0.0, 0, 0.0, "run 1, 0.0 s so far" },
};

START_TEST(test_format)
{
	const struct format_row *t = &format_rows[_i];
	char buf[128];

	progress_format(buf, sizeof(buf), t->run, t->of, t->elapsed, t->done,
			t->done_s);
	ck_assert_msg(strcmp(buf, t->want) == 0, "line %d: '%s', not '%s'",
		      t->line, buf, t->want);
}
END_TEST

/* What the runs of -r 3 write: each line erased before the next. */
START_TEST(test_lines)
{
	struct progress p;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	progress_init(&p, f);
	progress_started(&p, 0, 3, 100.0);
	progress_ended(&p, 102.0);
	progress_started(&p, 1, 3, 102.0);
	progress_tick(&p, 103.0);
	progress_ended(&p, 104.0);
	progress_tick(&p, 104.5);	/* between runs: nothing to rewrite */
	progress_started(&p, 2, 3, 104.0);
	progress_ended(&p, 106.0);
	progress_fini(&p);
	fclose(f);
	ck_assert_str_eq(text,
		"\r\033[Kpstat: run 1 of 3, 0.0 s so far\r\033[K"
		"\r\033[Kpstat: run 2 of 3, 2.0 s so far, about 4.0 s left"
		"\r\033[Kpstat: run 2 of 3, 3.0 s so far, about 3.0 s left\r\033[K"
		"\r\033[Kpstat: run 3 of 3, 4.0 s so far, about 2.0 s left\r\033[K");
	free(text);
}
END_TEST

/* Without a stream, nothing; erasing what is not there, nothing. */
START_TEST(test_off)
{
	struct progress p;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	progress_init(&p, NULL);
	progress_started(&p, 0, 3, 1.0);
	progress_ended(&p, 2.0);
	progress_clear(&p);
	progress_init(&p, f);
	progress_clear(&p);
	fclose(f);
	ck_assert_uint_eq(len, 0);
	free(text);
}
END_TEST

static Suite *progress_suite(void)
{
	Suite *s = suite_create("progress");
	TCase *tc = tcase_create("progress");

	tcase_add_loop_test(tc, test_format, 0, N_ROWS(format_rows));
	tcase_add_test(tc, test_lines);
	tcase_add_test(tc, test_off);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(progress_suite());
}
