/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing JSON: strings escaped, numbers in the C locale. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

int json_utf8_sequence(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	int n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return -1;
	/* No overlong forms, no surrogates, nothing past U+10FFFF. */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	for (i = 1; i < n; i++, lo = 0x80, hi = 0xbf)
		if (s[i] < lo || s[i] > hi)
			return -i;
	return n;
}

/* Whether the well-formed sequence of n bytes at s is U+FFFD itself. */
static bool replacement(const unsigned char *s, int n)
{
	return n == 3 && s[0] == 0xef && s[1] == 0xbf && s[2] == 0xbd;
}

/*
 * A byte of 0x80 or more: the sequence it starts, or U+FFFD for it.
 * U+FFFD itself is written as the escape too: what reads the same is
 * written the same (json_same_string).
 */
static const unsigned char *utf8_char(FILE *f, const unsigned char *c)
{
	int n = json_utf8_sequence(c);

	if (n > 0 && !replacement(c, n)) {
		fwrite(c, 1, (size_t)n, f);
		return c + n;
	}
	fputs("\\ufffd", f);
	return n > 0 ? c + n : c - n;
}

/* An ASCII byte, escaped where JSON needs it or it would not show. */
static const unsigned char *ascii_char(FILE *f, const unsigned char *c)
{
	switch (*c) {
	case '"':
		fputs("\\\"", f);
		break;
	case '\\':
		fputs("\\\\", f);
		break;
	case '\n':
		fputs("\\n", f);
		break;
	case '\t':
		fputs("\\t", f);
		break;
	case '\r':
		fputs("\\r", f);
		break;
	default:
		if (*c < 0x20 || *c == 0x7f)
			fprintf(f, "\\u%04x", *c);
		else
			fputc(*c, f);
	}
	return c + 1;
}

void json_string(FILE *f, const char *s)
{
	const unsigned char *c = (const unsigned char *)s;

	fputc('"', f);
	while (*c)
		c = *c < 0x80 ? ascii_char(f, c) : utf8_char(f, c);
	fputc('"', f);
}

bool json_same_string(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a;
	const unsigned char *y = (const unsigned char *)b;
	bool fx, fy;
	int n, m;

	while (*x && *y) {
		n = *x < 0x80 ? 1 : json_utf8_sequence(x);
		m = *y < 0x80 ? 1 : json_utf8_sequence(y);
		/* Ill-formed parts, however long, are all U+FFFD, as
		 * U+FFFD itself is. */
		fx = n < 0 || replacement(x, n);
		fy = m < 0 || replacement(y, m);
		if (fx != fy || (!fx && (n != m ||
					 memcmp(x, y, (size_t)n) != 0)))
			return false;
		x += n > 0 ? n : -n;
		y += m > 0 ? m : -m;
	}
	return !*x && !*y;
}

void json_number_text(char *buf, size_t len, double v)
{
	int prec;

	/* The range first: a cast of a double past it is undefined. */
	if (fabs(v) < 9e15 && v == (double)(long long)v) {
		snprintf(buf, len, "%lld", (long long)v);
		return;
	}
	/* The shortest %g that reads back as the same double. */
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, len, "%.*g", prec, v);
}

void json_number(FILE *f, double v)
{
	char buf[32];

	if (!isfinite(v)) {
		fputs("null", f);
		return;
	}
	json_number_text(buf, sizeof(buf), v);
	fputs(buf, f);
}

void json_int(FILE *f, long long v)
{
	fprintf(f, "%lld", v);
}

void json_uint(FILE *f, unsigned long long v)
{
	fprintf(f, "%llu", v);
}

void json_bool(FILE *f, bool v)
{
	fputs(v ? "true" : "false", f);
}

void json_null(FILE *f)
{
	fputs("null", f);
}
