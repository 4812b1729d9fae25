/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of json.c: strings escaped into valid JSON, numbers. */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "json.h"
#include "unit.h"

/* What json_string or json_number wrote, to be freed. */
static char *written(const char *s, double v, bool number)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	if (number)
		json_number(f, v);
	else
		json_string(f, s);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_ptr_nonnull(buf);
	return buf;
}

/*
 * The length of the well-formed UTF-8 sequence at s, or 0 (Unicode's
 * table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF).
 */
static size_t utf8_len(const unsigned char *s)
{
	static const struct {
		unsigned char lead_lo, lead_hi, lo, hi;
		size_t n;
	} forms[] = {
		{ 0x00, 0x7f, 0x00, 0x00, 1 },
		{ 0xc2, 0xdf, 0x80, 0xbf, 2 },
		{ 0xe0, 0xe0, 0xa0, 0xbf, 3 },
		{ 0xe1, 0xec, 0x80, 0xbf, 3 },
		{ 0xed, 0xed, 0x80, 0x9f, 3 },
		{ 0xee, 0xef, 0x80, 0xbf, 3 },
		{ 0xf0, 0xf0, 0x90, 0xbf, 4 },
		{ 0xf1, 0xf3, 0x80, 0xbf, 4 },
		{ 0xf4, 0xf4, 0x80, 0x8f, 4 },
	};
	size_t i, k;

	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		if (s[0] < forms[i].lead_lo || s[0] > forms[i].lead_hi)
			continue;
		if (forms[i].n > 1 &&
		    (s[1] < forms[i].lo || s[1] > forms[i].hi))
			return 0;
		for (k = 2; k < forms[i].n; k++)
			if (s[k] < 0x80 || s[k] > 0xbf)
				return 0;
		return forms[i].n;
	}
	return 0;
}

static bool utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	for (; *p; p += n)
		if (!(n = utf8_len(p)))
			return false;
	return true;
}

static void put_utf8(char **out, unsigned long cp)
{
	unsigned char *o = (unsigned char *)*out;

	if (cp < 0x80) {
		*o++ = (unsigned char)cp;
	} else if (cp < 0x800) {
		*o++ = (unsigned char)(0xc0 | cp >> 6);
		*o++ = (unsigned char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (unsigned char)(0xe0 | cp >> 12);
		*o++ = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (unsigned char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (unsigned char)(0xf0 | cp >> 18);
		*o++ = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
		*o++ = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (unsigned char)(0x80 | (cp & 0x3f));
	}
	*out = (char *)o;
}

static bool hex4(const char *p, unsigned long *v)
{
	char digits[5] = { 0 }, *end;

	if (strspn(p, "0123456789abcdefABCDEF") < 4)
		return false;
	memcpy(digits, p, 4);
	*v = strtoul(digits, &end, 16);
	return true;
}

/*
 * A JSON string literal, all of s, back into its bytes (to be freed),
 * or NULL where s is not one: RFC 8259, section 7, and UTF-8 throughout.
 */
static char *decode(const char *s)
{
	static const char shorts[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
	char *out = malloc(strlen(s) + 1), *o = out;
	const char *esc;
	unsigned long cp, lo;

	if (!out || *s++ != '"' || !utf8_valid(s))
		goto invalid;
	while (*s != '"') {
		if ((unsigned char)*s < 0x20)
			goto invalid;	/* a raw control, or the end */
		if (*s != '\\') {
			*o++ = *s++;
			continue;
		}
		s++;
		for (esc = shorts; *esc && *esc != *s; esc += 2)
			;
		if (*s && *esc) {
			*o++ = esc[1];
			s++;
			continue;
		}
		if (*s++ != 'u' || !hex4(s, &cp))
			goto invalid;
		s += 4;
		if (cp >= 0xd800 && cp < 0xdc00) {
			if (s[0] != '\\' || s[1] != 'u' || !hex4(s + 2, &lo) ||
			    lo < 0xdc00 || lo > 0xdfff)
				goto invalid;
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			s += 6;
		} else if (cp >= 0xdc00 && cp < 0xe000) {
			goto invalid;
		}
		if (cp == 0)
			goto invalid;	/* no C string holds it */
		put_utf8(&o, cp);
	}
	if (s[1])
		goto invalid;
	*o = '\0';
	return out;
invalid:
	free(out);
	return NULL;
}

/* Every byte a C string can hold, alone: valid JSON, and back again. */
START_TEST(test_each_ascii_byte)
{
	char in[2] = { (char)_i, 0 }, *got, *back;

	got = written(in, 0, false);
	back = decode(got);
	ck_assert_msg(back, "0x%02x: %s is not a JSON string", _i, got);
	ck_assert_msg(strcmp(back, in) == 0, "0x%02x: %s reads back wrong",
		      _i, got);
	/* Only what must be escaped is, and control characters are. */
	if (_i >= 0x20 && _i < 0x7f && _i != '"' && _i != '\\')
		ck_assert_int_eq(strlen(got), 3);
	else
		ck_assert_msg(got[1] == '\\', "0x%02x: %s", _i, got);
	free(back);
	free(got);
}
END_TEST

struct string_row {
	int line;
	const char *in, *out;
};

static const struct string_row string_rows[] = {
	{ __LINE__, "", "\"\"" },
	{ __LINE__, "cycles", "\"cycles\"" },
	/* The short escapes json.c uses, and \u for the other controls. */
	{ __LINE__, "a\nb", "\"a\\nb\"" },
	{ __LINE__, "\t", "\"\\t\"" },
	{ __LINE__, "\r\n", "\"\\r\\n\"" },
	{ __LINE__, "\b", "\"\\u0008\"" },
	{ __LINE__, "\f", "\"\\u000c\"" },
	{ __LINE__, "\x01", "\"\\u0001\"" },
	{ __LINE__, "\x1b[0m", "\"\\u001b[0m\"" },
	{ __LINE__, "\x1f", "\"\\u001f\"" },
	{ __LINE__, "\x7f", "\"\\u007f\"" },
	/* Quotes and backslashes; a slash needs nothing. */
	{ __LINE__, "\"", "\"\\\"\"" },
	{ __LINE__, "\\", "\"\\\\\"" },
	{ __LINE__, "say \"hi\\n\"", "\"say \\\"hi\\\\n\\\"\"" },
	{ __LINE__, "a/b", "\"a/b\"" },
	{ __LINE__, "'", "\"'\"" },
	/* Well-formed UTF-8 goes through as it is. */
	{ __LINE__, "\xc2\x80", "\"\xc2\x80\"" },		/* U+0080 */
	{ __LINE__, "caf\xc3\xa9", "\"caf\xc3\xa9\"" },
	{ __LINE__, "\xe2\x82\xac", "\"\xe2\x82\xac\"" },	/* euro */
	{ __LINE__, "\xed\x9f\xbf", "\"\xed\x9f\xbf\"" },	/* U+D7FF */
	{ __LINE__, "\xee\x80\x80", "\"\xee\x80\x80\"" },	/* U+E000 */
	/* U+FFFD itself as the escape too: read alike, written alike. */
	{ __LINE__, "\xef\xbf\xbd", "\"\\ufffd\"" },
	{ __LINE__, "a\xef\xbf\xbd\xc3\xa9", "\"a\\ufffd\xc3\xa9\"" },
	{ __LINE__, "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"" },
	{ __LINE__, "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"" },
	/*
	 * Ill-formed UTF-8: each maximal ill-formed part (Unicode's
	 * "substitution of maximal subparts", as Python's decoder does)
	 * becomes one U+FFFD, so the document stays valid.
	 */
	{ __LINE__, "\xff", "\"\\ufffd\"" },
	{ __LINE__, "a\xff" "b", "\"a\\ufffdb\"" },
	{ __LINE__, "\x80", "\"\\ufffd\"" },
	{ __LINE__, "\x80\xbf", "\"\\ufffd\\ufffd\"" },
	{ __LINE__, "\xc3", "\"\\ufffd\"" },
	{ __LINE__, "\xc3(", "\"\\ufffd(\"" },
	{ __LINE__, "\xc3\"", "\"\\ufffd\\\"\"" },
	{ __LINE__, "\xc3\xc3\xa9", "\"\\ufffd\xc3\xa9\"" },
	{ __LINE__, "\xe2\x82", "\"\\ufffd\"" },
	{ __LINE__, "\xe2\x82(", "\"\\ufffd(\"" },
	{ __LINE__, "\xf0\x9f\x98", "\"\\ufffd\"" },
	{ __LINE__, "\xf0\x9f\x98\n", "\"\\ufffd\\n\"" },
	/* Overlong forms, surrogates, past U+10FFFF, bytes never used. */
	{ __LINE__, "\xc0\xaf", "\"\\ufffd\\ufffd\"" },
	{ __LINE__, "\xc1\xbf", "\"\\ufffd\\ufffd\"" },
	{ __LINE__, "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"" },
	{ __LINE__, "\xe0\x9f\xbf", "\"\\ufffd\\ufffd\\ufffd\"" },
	{ __LINE__, "\xf0\x8f\xbf\xbf", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
	{ __LINE__, "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },
	{ __LINE__, "\xed\xbf\xbf", "\"\\ufffd\\ufffd\\ufffd\"" },
	{ __LINE__, "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
	{ __LINE__, "\xf5\x80", "\"\\ufffd\\ufffd\"" },
	{ __LINE__, "\xfe\xff", "\"\\ufffd\\ufffd\"" },
};

START_TEST(test_string)
{
	const struct string_row *t = &string_rows[_i];
	char *got = written(t->in, 0, false), *back;

	ck_assert_msg(strcmp(got, t->out) == 0, "line %d: %s, want %s",
		      t->line, got, t->out);
	back = decode(got);
	ck_assert_msg(back, "line %d: %s is not a JSON string", t->line, got);
	if (utf8_valid(t->in))
		ck_assert_msg(strcmp(back, t->in) == 0,
			      "line %d: %s reads back wrong", t->line, got);
	free(back);
	free(got);
}
END_TEST

/* Any bytes at all give a valid JSON string; valid UTF-8 reads back. */
START_TEST(test_string_any_bytes)
{
	static const unsigned char pick[] = {
		'a', '"', '\\', '\n', 0x01, 0x1f, 0x7f, 0x80, 0x8f, 0x90,
		0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0,
		0xf4, 0xf5, 0xff,
	};
	uint32_t seed = 2463534242u;
	char in[8], *got, *back;
	int i, k, n;

	for (i = 0; i < 100000; i++) {
		n = i % (int)sizeof(in);
		for (k = 0; k < n; k++) {
			seed ^= seed << 13;
			seed ^= seed >> 17;
			seed ^= seed << 5;
			in[k] = (char)pick[seed % sizeof(pick)];
		}
		in[n] = '\0';
		got = written(in, 0, false);
		back = decode(got);
		ck_assert_msg(back, "%s is not a JSON string", got);
		if (utf8_valid(in))
			ck_assert_msg(strcmp(back, in) == 0, "%s reads back wrong",
				      got);
		free(back);
		free(got);
	}
}
END_TEST

struct number_row {
	int line;
	double v;
	const char *out;
};

static const struct number_row number_rows[] = {
	/* No NaN or infinity in JSON. */
	{ __LINE__, NAN, "null" },
	{ __LINE__, -NAN, "null" },
	{ __LINE__, INFINITY, "null" },
	{ __LINE__, -INFINITY, "null" },
	/* Whole numbers as integers, without a point or an exponent. */
	{ __LINE__, 0.0, "0" },
	{ __LINE__, -0.0, "0" },
	{ __LINE__, 1.0, "1" },
	{ __LINE__, -5.0, "-5" },
	{ __LINE__, 1157962.0, "1157962" },
	{ __LINE__, 8999999999999999.0, "8999999999999999" },
	{ __LINE__, -8999999999999999.0, "-8999999999999999" },
	/* From 9e15 on, %g, which still reads back exactly. */
	{ __LINE__, 9e15, "9e+15" },
	{ __LINE__, 9007199254740992.0, "9007199254740992" },
	{ __LINE__, 18446744073709551616.0, "1.8446744073709552e+19" },
	{ __LINE__, 1e300, "1e+300" },
	{ __LINE__, -1e300, "-1e+300" },
	{ __LINE__, 1.7976931348623157e308, "1.7976931348623157e+308" },
	/* Fractions: 15 digits, or 16 or 17 where 15 do not read back. */
	{ __LINE__, 0.5, "0.5" },
	{ __LINE__, 1.5, "1.5" },
	{ __LINE__, 0.1, "0.1" },
	{ __LINE__, -2.25, "-2.25" },
	{ __LINE__, 1.0 / 3.0, "0.3333333333333333" },
	{ __LINE__, 2.0 / 3.0, "0.6666666666666666" },
	{ __LINE__, 0.1 + 0.2, "0.30000000000000004" },
	{ __LINE__, 100.0 / 7.0, "14.285714285714286" },
	{ __LINE__, 1e-7, "1e-07" },
	{ __LINE__, 2.2250738585072014e-308, "2.2250738585072014e-308" },
	{ __LINE__, 5e-324, "4.94065645841247e-324" },
	{ __LINE__, 12345.678, "12345.678" },
};

/* RFC 8259's number: -? int frac? exp? */
static bool json_number_syntax(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		s += strspn(s, "0123456789");
	else
		return false;
	if (*s == '.') {
		if (!strspn(++s, "0123456789"))
			return false;
		s += strspn(s, "0123456789");
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!strspn(s, "0123456789"))
			return false;
		s += strspn(s, "0123456789");
	}
	return *s == '\0';
}

START_TEST(test_number)
{
	const struct number_row *t = &number_rows[_i];
	char *got = written(NULL, t->v, true);

	ck_assert_msg(strcmp(got, t->out) == 0, "line %d: %s, want %s",
		      t->line, got, t->out);
	if (isfinite(t->v))
		ck_assert_msg(json_number_syntax(got) &&
			      strtod(got, NULL) == t->v,
			      "line %d: %s does not read back", t->line, got);
	free(got);
}
END_TEST

/* Strings that json_string writes alike, and some it does not. */
static const struct same_row {
	int line;
	const char *a, *b;
	bool same;
} same_rows[] = {
	{ __LINE__, "", "", true },
	{ __LINE__, "cycles", "cycles", true },
	{ __LINE__, "cycles", "cycle", false },
	{ __LINE__, "caf\xc3\xa9", "caf\xc3\xa9", true },
	{ __LINE__, "caf\xc3\xa9", "caf\xc3\xa8", false },
	/* Each ill-formed part is U+FFFD, whatever its bytes or length. */
	{ __LINE__, "a\xff", "a\xfe", true },
	{ __LINE__, "a\xe2\x82", "a\xff", true },
	{ __LINE__, "a\xe2\x82(", "a\x80(", true },
	{ __LINE__, "\xc0\xaf", "\xff\xff", true },
	{ __LINE__, "\xc0\xaf", "\xff", false },
	/* U+FFFD itself: the same key when read (fuzz_writers found two
	 * metric-only titles alike so in -j). */
	{ __LINE__, "\xff", "\xef\xbf\xbd", true },
	{ __LINE__, "a\xef\xbf\xbd", "a\xc0", true },
	{ __LINE__, "\xef\xbf\xbd", "\xef\xbf\xbc", false },
	{ __LINE__, "\xff", "", false },
};

START_TEST(test_same_string)
{
	const struct same_row *t = &same_rows[_i];

	ck_assert_msg(json_same_string(t->a, t->b) == t->same &&
		      json_same_string(t->b, t->a) == t->same,
		      "line %d: want %s", t->line, t->same ? "same" : "not");
}
END_TEST

/* Alike exactly when written alike, for any bytes. */
START_TEST(test_same_string_any_bytes)
{
	static const unsigned char pick[] = {
		'a', 0x80, 0xbf, 0xc2, 0xe0, 0xe2, 0xed, 0xf0, 0xf4, 0xff,
	};
	uint32_t seed = 88675123u;
	char in[2][5], *got[2];
	int i, j, k, n;

	for (i = 0; i < 50000; i++) {
		for (j = 0; j < 2; j++) {
			n = (i >> j) % (int)sizeof(in[j]);
			for (k = 0; k < n; k++) {
				seed ^= seed << 13;
				seed ^= seed >> 17;
				seed ^= seed << 5;
				in[j][k] = (char)pick[seed % sizeof(pick)];
			}
			in[j][n] = '\0';
			got[j] = written(in[j], 0, false);
		}
		ck_assert_msg(json_same_string(in[0], in[1]) ==
			      (strcmp(got[0], got[1]) == 0), "%s and %s",
			      got[0], got[1]);
		free(got[0]);
		free(got[1]);
	}
}
END_TEST

/* Doubles of every exponent read back exactly, as JSON numbers. */
START_TEST(test_number_round_trip)
{
	uint64_t bits = 0x9e3779b97f4a7c15u;
	char *got;
	double v;
	int i;

	for (i = 0; i < 20000; i++) {
		bits ^= bits << 13;
		bits ^= bits >> 7;
		bits ^= bits << 17;
		memcpy(&v, &bits, sizeof(v));
		got = written(NULL, v, true);
		if (!isfinite(v))
			ck_assert_str_eq(got, "null");
		else
			ck_assert_msg(json_number_syntax(got) &&
				      strtod(got, NULL) == v &&
				      strlen(got) <= 24,
				      "%a: %s", v, got);
		free(got);
	}
}
END_TEST

static Suite *json_suite(void)
{
	Suite *s = suite_create("json");
	TCase *ts = tcase_create("string");
	TCase *tn = tcase_create("number");

	tcase_add_loop_test(ts, test_each_ascii_byte, 1, 0x80);
	tcase_add_loop_test(ts, test_string, 0, N_ROWS(string_rows));
	tcase_add_test(ts, test_string_any_bytes);
	tcase_add_loop_test(ts, test_same_string, 0, N_ROWS(same_rows));
	tcase_add_test(ts, test_same_string_any_bytes);
	suite_add_tcase(s, ts);
	tcase_add_loop_test(tn, test_number, 0, N_ROWS(number_rows));
	tcase_add_test(tn, test_number_round_trip);
	/* Check's 4 s are a time limit: a loaded machine must not fail it. */
	tcase_set_timeout(tn, 120);
	suite_add_tcase(s, tn);
	return s;
}

int main(void)
{
	return unit_run(json_suite());
}
