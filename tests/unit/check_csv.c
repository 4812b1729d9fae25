/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of csv.c: which fields are quoted, and how they are written. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "unit.h"

static const struct field_row {
	int line;
	const char *s, *sep, *want;
} field_rows[] = {
	{ __LINE__, "task-clock", ",", "task-clock" },
	{ __LINE__, "", ",", "" },
	{ __LINE__, "a,b", ",", "\"a,b\"" },
	{ __LINE__, "say \"hi\"", ",", "\"say \"\"hi\"\"\"" },
	{ __LINE__, "\"", ",", "\"\"\"\"" },
	{ __LINE__, "two\nlines", ",", "\"two\nlines\"" },
	{ __LINE__, "cr\r", ",", "\"cr\r\"" },
	{ __LINE__, "a,b", ";", "a,b" },
	{ __LINE__, "a;b", ";", "\"a;b\"" },
	/* A separator of two: in the field, or running on into the next. */
	{ __LINE__, "a;;b", ";;", "\"a;;b\"" },
	{ __LINE__, "a;b", ";;", "a;b" },
	{ __LINE__, "a;", ";;", "\"a;\"" },
	{ __LINE__, "a;", ";:", "a;" },
	{ __LINE__, "ab", "bc", "ab" },
	{ __LINE__, "ab", "bb", "\"ab\"" },
};

struct buf {
	char s[128];
	size_t n;
};

static void put(void *ctx, const char *s, size_t len)
{
	struct buf *b = ctx;

	ck_assert_uint_lt(b->n + len, sizeof(b->s));
	memcpy(b->s + b->n, s, len);
	b->n += len;
	b->s[b->n] = '\0';
}

START_TEST(test_field)
{
	const struct field_row *t = &field_rows[_i];
	struct buf b = { .n = 0 };

	csv_field(put, &b, t->s, strlen(t->s), t->sep);
	ck_assert_msg(strcmp(b.s, t->want) == 0,
		      "line %d: '%s' with '%s' gave '%s', want '%s'", t->line,
		      t->s, t->sep, b.s, t->want);
}
END_TEST

/* A comma-separated file's cells, through stdio. */
START_TEST(test_cell)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	csv_cell(f, "x", false);
	csv_cell(f, "a,\"b\"", false);
	csv_cell(f, "", true);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_str_eq(text, "x,\"a,\"\"b\"\"\",\n");
	free(text);
}
END_TEST

static Suite *csv_suite(void)
{
	Suite *s = suite_create("csv");
	TCase *tc = tcase_create("csv");

	tcase_add_loop_test(tc, test_field, 0, N_ROWS(field_rows));
	tcase_add_test(tc, test_cell);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(csv_suite());
}
