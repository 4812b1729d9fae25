/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of counts.c: multiplex scaling and group read decoding. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include <check.h>

#include "counts.h"
#include "unit.h"

static const struct scale_row {
	int line;
	struct counts_values in;
	enum counts_state state;
	uint64_t value;
	double pct;
} scale_rows[] = {
	/* Ran the whole time it was enabled: the value as read. */
	{ __LINE__, { 1234, 500, 500 }, COUNTS_COUNTED, 1234, 100.0 },
	{ __LINE__, { UINT64_MAX, 7, 7 }, COUNTS_COUNTED, UINT64_MAX, 100.0 },
	/* Never enabled: the task never ran, an exact value. */
	{ __LINE__, { 0, 0, 0 }, COUNTS_COUNTED, 0, 100.0 },
	{ __LINE__, { 42, 0, 0 }, COUNTS_COUNTED, 42, 100.0 },
	{ __LINE__, { 42, 0, 10 }, COUNTS_COUNTED, 42, 100.0 },
	/* Enabled but never scheduled on the PMU. */
	{ __LINE__, { 0, 100, 0 }, COUNTS_NOT_COUNTED, 0, 0.0 },
	{ __LINE__, { 5, 100, 0 }, COUNTS_NOT_COUNTED, 0, 0.0 },
	/* Multiplexed: value * enabled / running. */
	{ __LINE__, { 1000, 200, 100 }, COUNTS_SCALED, 2000, 50.0 },
	{ __LINE__, { 1000, 4, 1 }, COUNTS_SCALED, 4000, 25.0 },
	{ __LINE__, { 0, 200, 100 }, COUNTS_SCALED, 0, 50.0 },
	/* value * enabled needs more than 64 bits. */
	{ __LINE__, { 1000000000000ull, 10000000000ull, 5000000000ull },
	  COUNTS_SCALED, 2000000000000ull, 50.0 },
	{ __LINE__, { UINT64_MAX / 3, 3000, 1000 },
	  COUNTS_SCALED, UINT64_MAX, 100.0 / 3 },
	/* Too big for 64 bits at all: saturate, never wrap. */
	{ __LINE__, { UINT64_MAX / 2, 3000, 1000 },
	  COUNTS_SCALED, UINT64_MAX, 100.0 / 3 },
	{ __LINE__, { UINT64_MAX, UINT64_MAX, 1 },
	  COUNTS_SCALED, UINT64_MAX, 100.0 / (double)UINT64_MAX },
	/* Clock skew can make running pass enabled: exact, not shrunk. */
	{ __LINE__, { 700, 100, 150 }, COUNTS_COUNTED, 700, 100.0 },
};

START_TEST(test_scale)
{
	const struct scale_row *t = &scale_rows[_i];
	struct counts_result r;

	counts_scale(&t->in, &r);
	ck_assert_msg(r.state == t->state, "line %d: state %d, want %d",
		      t->line, (int)r.state, (int)t->state);
	ck_assert_msg(r.value == t->value, "line %d: value %ju, want %ju",
		      t->line, (uintmax_t)r.value, (uintmax_t)t->value);
	ck_assert_msg(fabs(r.running_pct - t->pct) < 1e-9,
		      "line %d: running %.12g%%, want %.12g%%", t->line,
		      r.running_pct, t->pct);
}
END_TEST

START_TEST(test_group_size)
{
	ck_assert_uint_eq(counts_group_size(0), 24);
	ck_assert_uint_eq(counts_group_size(1), 40);
	ck_assert_uint_eq(counts_group_size(3), 72);
}
END_TEST

#define U64(n) ((n) * sizeof(uint64_t))

static const struct decode_row {
	int line;
	uint64_t buf[9];
	size_t len;
	int ret;
} decode_rows[] = {
	{ __LINE__, { 3, 1000, 900, 11, 101, 22, 102, 33, 103 }, U64(9), 0 },
	{ __LINE__, { 1, 1000, 900, 11, 101 }, U64(5), 0 },
	{ __LINE__, { 0, 1000, 900 }, U64(3), 0 },
	/* nr and the length disagree. */
	{ __LINE__, { 2, 1000, 900, 11, 101, 22, 102, 33, 103 }, U64(9),
	  -EIO },
	{ __LINE__, { 4, 1000, 900, 11, 101, 22, 102, 33, 103 }, U64(9),
	  -EIO },
	{ __LINE__, { 1, 1000, 900, 11, 101, 22, 102, 33, 103 }, U64(9),
	  -EIO },
	{ __LINE__, { 3, 1000, 900, 11, 101, 22, 102, 33, 103 }, U64(9) - 1,
	  -EIO },
	{ __LINE__, { 3, 1000, 900, 11, 101, 22, 102, 33, 103 }, U64(9) + 1,
	  -EIO },
	{ __LINE__, { 3, 1000, 900, 11, 101, 22, 102, 33 }, U64(8), -EIO },
	/* Shorter than the header. */
	{ __LINE__, { 0 }, 0, -EIO },
	{ __LINE__, { 0, 1000 }, U64(2), -EIO },
	{ __LINE__, { 0, 1000, 900 }, U64(3) - 1, -EIO },
	/* An nr whose size wraps around to the length must not pass. */
	{ __LINE__, { 3 + (1ull << 60), 1000, 900, 11, 101, 22, 102, 33, 103 },
	  U64(9), -EIO },
	{ __LINE__, { 3 + (1ull << 63), 1000, 900, 11, 101, 22, 102, 33, 103 },
	  U64(9), -EIO },
	{ __LINE__, { UINT64_MAX, 1000, 900, 11, 101, 22, 102, 33, 103 },
	  U64(9), -EIO },
	{ __LINE__, { UINT64_MAX / 2, 1000, 900 }, U64(3), -EIO },
};

START_TEST(test_group_decode)
{
	const struct decode_row *t = &decode_rows[_i];
	struct counts_group g;
	int ret;

	ret = counts_group_decode(t->buf, t->len, &g);
	ck_assert_msg(ret == t->ret, "line %d: returned %d, want %d", t->line,
		      ret, t->ret);
	if (ret < 0)
		return;
	ck_assert_msg(g.nr == t->buf[0] && g.enabled == t->buf[1] &&
		      g.running == t->buf[2],
		      "line %d: header %ju %ju %ju", t->line, (uintmax_t)g.nr,
		      (uintmax_t)g.enabled, (uintmax_t)g.running);
	ck_assert_msg(g.entries == t->buf + 3,
		      "line %d: entries do not follow the header", t->line);
}
END_TEST

static Suite *counts_suite(void)
{
	Suite *s = suite_create("counts");
	TCase *tc;

	tc = tcase_create("scale");
	tcase_add_loop_test(tc, test_scale, 0, N_ROWS(scale_rows));
	suite_add_tcase(s, tc);

	tc = tcase_create("group");
	tcase_add_test(tc, test_group_size);
	tcase_add_loop_test(tc, test_group_decode, 0, N_ROWS(decode_rows));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(counts_suite());
}
