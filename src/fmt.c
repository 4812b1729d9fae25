/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers to text without printf: the interval loop's and rows' formatting. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"

/* Digits of v, backwards from end; how many. */
static size_t digits(char *end, uint64_t v)
{
	size_t n = 0;

	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
		n++;
	} while (v);
	return n;
}

/* The n bytes at s, as snprintf would copy them into buf. */
static void copy_out(char *buf, size_t len, const char *s, size_t n)
{
	if (len == 0)
		return;
	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
}

void fmt_str(char *buf, size_t len, const char *s)
{
	copy_out(buf, len, s, strlen(s));
}

void fmt_u64(char *buf, size_t len, uint64_t v)
{
	char tmp[24];
	size_t n = digits(tmp + sizeof(tmp), v);

	copy_out(buf, len, tmp + sizeof(tmp) - n, n);
}

static const double tens[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
};

/*
 * v x 10^prec rounded to an integer, in *r, when that is certainly what
 * printf's exact rounding gives: the product's error is an ulp or two,
 * so a fraction that far from one half cannot round the other way.
 */
static int scaled(double v, int prec, uint64_t *r)
{
	double x, fl, frac;

	if (!(v >= 0.0) || prec < 0 || prec > 9 || signbit(v))
		return -1;
	x = v * tens[prec];
	if (!(x < 9007199254740992.0))	/* 2^53: integers stay exact */
		return -1;
	fl = floor(x);
	frac = x - fl;
	if (fabs(frac - 0.5) <= 4 * DBL_EPSILON * (x > 1.0 ? x : 1.0))
		return -1;
	*r = (uint64_t)fl + (frac > 0.5);
	return 0;
}

void fmt_fixed(char *buf, size_t len, int prec, double v)
{
	char tmp[32];
	char *end = tmp + sizeof(tmp), *p;
	uint64_t r;
	size_t n;

	if (scaled(v, prec, &r) < 0) {
		snprintf(buf, len, "%.*f", prec, v);
		return;
	}
	n = digits(end, r);
	/* At least one digit before the point: 0.05, not .05. */
	while (n < (size_t)prec + 1)
		end[-(int)++n] = '0';
	p = end - n;
	if (prec > 0) {
		memmove(p - 1, p, n - (size_t)prec);
		end[-prec - 1] = '.';
		p--;
		n++;
	}
	copy_out(buf, len, p, n);
}
