/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of fmt.c: byte for byte what snprintf writes, for values
 * of every magnitude, ties and near-ties, every precision, strings, and
 * short buffers. */
#include "config.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "fmt.h"
#include "unit.h"

/* A fixed generator: the same values on every run and machine. */
static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void same_fixed(int prec, double v, size_t len)
{
	char want[64], got[64];

	memset(want, 'x', sizeof(want));
	memset(got, 'y', sizeof(got));
	snprintf(want, len, "%.*f", prec, v);
	fmt_fixed(got, len, prec, v);
	/* Check's assertions cost a message each: only the failure. */
	if (memcmp(want, got, len ? strlen(want) + 1 : 0) != 0)
		ck_abort_msg("%%.%df of %.17g in %zu: '%s', not '%s'", prec,
			     v, len, got, want);
}

static const struct fixed_row {
	int line;
	double v;
} fixed_rows[] = {
	{ __LINE__, 0.0 }, { __LINE__, -0.0 }, { __LINE__, 100.0 },
	{ __LINE__, 0.5 }, { __LINE__, 1.5 }, { __LINE__, 2.5 },
	{ __LINE__, 0.125 }, { __LINE__, 0.375 }, { __LINE__, 1.005 },
	{ __LINE__, 2.675 }, { __LINE__, 0.045 }, { __LINE__, 99.995 },
	{ __LINE__, 99.9949999999 }, { __LINE__, 1e-9 }, { __LINE__, 5e-10 },
	{ __LINE__, 4.9999999999e-10 }, { __LINE__, 123456789.123456789 },
	{ __LINE__, 9007199254.740992 }, { __LINE__, 1e15 }, { __LINE__, 1e300 },
	{ __LINE__, -1.5 }, { __LINE__, -0.001 }, { __LINE__, DBL_MIN },
	{ __LINE__, DBL_MAX }, { __LINE__, INFINITY }, { __LINE__, -INFINITY },
	{ __LINE__, NAN }, { __LINE__, 0.1 + 0.2 }, { __LINE__, 61.5 },
	{ __LINE__, 1.0 / 3.0 }, { __LINE__, 2.0 / 3.0 },
};

/* Each value at every precision, and the two out of range. */
START_TEST(test_fixed_rows)
{
	const struct fixed_row *r = &fixed_rows[_i];
	int prec;

	for (prec = -1; prec <= 11; prec++)
		same_fixed(prec, r->v, 64);
}
END_TEST

/* Random values of every magnitude, and ties at each precision:
 * k / 2^j, and decimal near-ties k.5 / 10^p, which binary cannot hold. */
START_TEST(test_fixed_many)
{
	uint64_t s = 88172645463325252ULL;
	int i, prec;

	for (i = 0; i < 200000; i++) {
		uint64_t b = next(&s);
		double mant = (double)(b >> 11) / 9007199254740992.0;
		int e = (int)(next(&s) % 40) - 12;
		double v = mant * pow(10.0, e);

		prec = (int)(next(&s) % 10);
		same_fixed(prec, v, 64);
	}
	for (i = 0; i < 100000; i++) {
		double v = (double)(next(&s) % 100000000) /
			   (double)(1u << (next(&s) % 20));

		same_fixed((int)(next(&s) % 10), v, 64);
	}
	for (prec = 0; prec <= 9; prec++)
		for (i = 0; i < 20000; i++) {
			double v = ((double)(next(&s) % 1000000) + 0.5) /
				   pow(10.0, prec);

			same_fixed(prec, v, 64);
			same_fixed(prec, nextafter(v, 0.0), 64);
			same_fixed(prec, nextafter(v, INFINITY), 64);
		}
}
END_TEST

/* Short buffers are cut where snprintf cuts them. */
START_TEST(test_fixed_short)
{
	size_t len;

	for (len = 0; len < 16; len++) {
		same_fixed(9, 1234.56789, len);
		same_fixed(2, 100.0, len);
		same_fixed(0, 7.0, len);
	}
}
END_TEST

START_TEST(test_u64)
{
	static const uint64_t fixed[] = { 0, 1, 9, 10, 99, 100, 1000000,
					  UINT32_MAX, UINT64_MAX - 1,
					  UINT64_MAX };
	uint64_t s = 2463534242ULL;
	char want[32], got[32];
	size_t i, len;

	for (i = 0; i < 100000 + N_ROWS(fixed); i++) {
		uint64_t v = i < (size_t)N_ROWS(fixed) ? fixed[i] :
			     next(&s) >> (next(&s) % 64);

		for (len = 0; len <= sizeof(want); len += i < 20 ? 1 : 32) {
			memset(want, 'x', sizeof(want));
			memset(got, 'y', sizeof(got));
			snprintf(want, len, "%" PRIu64, v);
			fmt_u64(got, len, v);
			if (memcmp(want, got, len ? strlen(want) + 1 : 0))
				ck_abort_msg("%" PRIu64 " in %zu: '%s'", v,
					     len, got);
		}
	}
}
END_TEST

/* Strings, as "%s" copies them, cut where snprintf cuts them. */
START_TEST(test_str)
{
	static const char *const strs[] = { "", "a", "<not counted>",
					    "\xc3\xa9t\xc3\xa9", "msec" };
	char want[16], got[16];
	size_t i, len;

	for (i = 0; i < (size_t)N_ROWS(strs); i++)
		for (len = 0; len <= sizeof(want); len++) {
			memset(want, 'x', sizeof(want));
			memset(got, 'y', sizeof(got));
			snprintf(want, len, "%s", strs[i]);
			fmt_str(got, len, strs[i]);
			ck_assert_msg(memcmp(want, got,
					     len ? strlen(want) + 1 : 0) == 0,
				      "'%s' in %zu: '%s'", strs[i], len, got);
		}
}
END_TEST

static Suite *fmt_suite(void)
{
	Suite *s = suite_create("fmt");
	TCase *tc = tcase_create("fmt");

	tcase_add_loop_test(tc, test_fixed_rows, 0, N_ROWS(fixed_rows));
	tcase_add_test(tc, test_fixed_many);
	tcase_add_test(tc, test_fixed_short);
	tcase_add_test(tc, test_u64);
	tcase_add_test(tc, test_str);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(fmt_suite());
}
