/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fmt.c against snprintf, byte for byte: any double (every bit pattern,
 * NaNs, infinities, subnormals, ties), any precision (-3 to 20), any
 * uint64_t, any string, into buffers of every length from 0 to 64; and
 * not a byte written past the length given.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "fuzz.h"

#define BUF 80
/* What fmt.c must leave alone past the length it is given. */
#define GUARD 'g'

static void same(const char *what, const char *want, const char *got,
		 size_t len)
{
	size_t i;

	FUZZ_CHECK(len == 0 || strcmp(want, got) == 0,
		   "%s in %zu: '%s', not '%s'", what, len, got, want);
	for (i = len; i < BUF; i++)
		FUZZ_CHECK(got[i] == GUARD, "%s in %zu: byte %zu written",
			   what, len, i);
}

static void check_fixed(double v, int prec, size_t len)
{
	char want[BUF], got[BUF], what[64];

	memset(want, 0, sizeof(want));
	memset(got, GUARD, sizeof(got));
	snprintf(want, len, "%.*f", prec, v);
	fmt_fixed(got, len, prec, v);
	snprintf(what, sizeof(what), "%%.%df of %a", prec, v);
	same(what, want, got, len);
}

static void check_u64(uint64_t v, size_t len)
{
	char want[BUF], got[BUF], what[64];

	memset(want, 0, sizeof(want));
	memset(got, GUARD, sizeof(got));
	snprintf(want, len, "%" PRIu64, v);
	fmt_u64(got, len, v);
	snprintf(what, sizeof(what), "%" PRIu64, v);
	same(what, want, got, len);
}

static void check_str(const char *s, size_t len)
{
	char want[BUF], got[BUF];

	memset(want, 0, sizeof(want));
	memset(got, GUARD, sizeof(got));
	snprintf(want, len, "%s", s);
	fmt_str(got, len, s);
	same("%s", want, got, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint64_t bits = fuzz_uint(&in, 8);
	int prec = (int)(fuzz_byte(&in) % 24) - 3;
	size_t len = fuzz_byte(&in) % 65;
	char *s;
	double v;

	memcpy(&v, &bits, sizeof(v));
	/* A precision fmt.c is asked for in pstat, 0 to 9, and past it. */
	check_fixed(v, prec < 0 ? 0 : prec, len);
	check_fixed(v, prec < 0 ? 0 : prec, BUF - 1);
	/* Decimal values, the kind pstat prints: ties among them. */
	check_fixed((double)(int64_t)bits / 1000.0, prec < 0 ? 2 : prec % 10,
		    len);
	check_u64(bits, len);
	check_u64(bits, BUF - 1);
	s = fuzz_str(&in);
	check_str(s, len);
	free(s);
	return 0;
}
