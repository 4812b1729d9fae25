/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CPU lists ("0-3,6", -C and sysfs): any text gives exactly the CPUs it
 * names, sorted and each once, or is refused at an offset within it,
 * as a reading of the grammar apart from topology.c's says.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "topology.h"

#define MAX_CPU 65536

static unsigned char named[MAX_CPU / 8];

/* A CPU number at s: its value (past MAX_CPU when too large), moving s. */
static long number(const char **s)
{
	long v = 0;

	for (; isdigit((unsigned char)**s); (*s)++)
		v = v >= MAX_CPU ? v : v * 10 + (**s - '0');
	return v;
}

/*
 * list := item (',' item)* ['\n'], item := N ['-' M] with N <= M <
 * MAX_CPU, and nothing after: a comma must be followed by an item, and
 * only sysfs's one final newline may end it. The count of CPUs, or -1
 * with *bad where it goes wrong: an item's start, the number after
 * '-', or what follows the last item.
 */
static long oracle(const char *text, size_t *bad)
{
	const char *s = text;
	long lo, hi, n = 0, c;

	memset(named, 0, sizeof(named));
	for (;;) {
		*bad = (size_t)(s - text);
		if (!isdigit((unsigned char)*s) || (lo = number(&s)) >= MAX_CPU)
			return -1;
		hi = lo;
		if (*s == '-') {
			*bad = (size_t)(++s - text);
			if (!isdigit((unsigned char)*s) ||
			    (hi = number(&s)) >= MAX_CPU || hi < lo)
				return -1;
		}
		for (c = lo; c <= hi; c++) {
			n += !(named[c / 8] & (1 << (c % 8)));
			named[c / 8] |= (unsigned char)(1 << (c % 8));
		}
		if (*s != ',')
			break;
		s++;
	}
	if (s[0] == '\n' && s[1] == '\0')
		s++;
	*bad = (size_t)(s - text);
	return *s ? -1 : n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, strnlen((const char *)data, size));
	int untouched, *cpus = &untouched, n, i;
	size_t bad = (size_t)-1, want_bad;
	long want = oracle(text, &want_bad);

	n = topology_parse_list(text, &cpus, &bad);
	FUZZ_CHECK(n > 0 || n == -EINVAL || n == -ERANGE || n == -ENOMEM,
		   "'%s': %d", text, n);
	if (n < 0) {
		FUZZ_CHECK(want < 0, "'%s' names %ld CPUs, but: %d", text, want,
			   n);
		FUZZ_CHECK(cpus == &untouched, "'%s': refused, yet *cpus set",
			   text);
		FUZZ_CHECK(bad <= strlen(text), "'%s': offset %zu past its end",
			   text, bad);
		FUZZ_CHECK(bad == want_bad, "'%s': blamed at %zu, not %zu",
			   text, bad, want_bad);
		free(text);
		return 0;
	}
	FUZZ_CHECK(n == want, "'%s': %d CPUs, want %ld", text, n, want);
	for (i = 0; i < n; i++) {
		FUZZ_CHECK(cpus[i] >= 0 && cpus[i] < MAX_CPU &&
			   (named[cpus[i] / 8] & (1 << (cpus[i] % 8))),
			   "'%s': CPU %d is not in it", text, cpus[i]);
		FUZZ_CHECK(i == 0 || cpus[i - 1] < cpus[i],
			   "'%s': %d after %d: not sorted, or twice", text,
			   cpus[i], cpus[i - 1]);
		FUZZ_CHECK(topology_contains(cpus, n, cpus[i]),
			   "'%s': topology_contains misses %d", text, cpus[i]);
	}
	free(cpus);
	free(text);
	return 0;
}
