/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whether a group's events can count at once on a PMU's counters. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fit.h"

/* Bits 0 to n - 1. */
static unsigned int all(unsigned int n)
{
	return n >= FIT_MAX_COUNTERS ? ~0u : (1u << n) - 1;
}

int fit_event_parse(const char *counter, bool gp_too, const struct fit_pmu *p,
		    struct fit_event *e)
{
	const char *s = counter;
	unsigned long n;
	char *end;

	*e = (struct fit_event){ 0 };
	if (!s || !*s) {
		e->generic = all(p->generic);
		return 0;
	}
	if (strncasecmp(s, "Fixed counter ", 14) == 0) {
		n = strtoul(s + 14, &end, 10);
		if (!isdigit((unsigned char)s[14]) || *end ||
		    n >= FIT_MAX_COUNTERS)
			return -EINVAL;
		e->fixed = (1u << n) & all(p->fixed);
		if (gp_too)
			e->generic = all(p->generic);
		return 0;
	}
	if (strcasecmp(s, "Fixed") == 0) {
		e->fixed = all(p->fixed);
		return 0;
	}
	for (;;) {
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		n = strtoul(s, &end, 10);
		if (n < FIT_MAX_COUNTERS)
			e->generic |= (1u << n) & all(p->generic);
		s = end;
		if (!*s)
			return 0;
		if (*s++ != ',')
			return -EINVAL;
	}
}

/* Counters 0 to FIT_MAX_COUNTERS - 1 generic, then as many fixed. */
#define SLOTS (2 * FIT_MAX_COUNTERS)

/*
 * Kuhn's augmenting path from event i: whether it found a counter. The
 * fixed counters are tried first, as the kernel's scheduler does.
 */
/* NOLINTNEXTLINE(misc-no-recursion): as deep as there are counters */
static bool place(const struct fit_event *ev, size_t i, int owner[SLOTS],
		  bool seen[SLOTS], unsigned int free_fixed)
{
	unsigned int mask;
	int k, c;

	for (k = 0; k < SLOTS; k++) {
		c = (k + FIT_MAX_COUNTERS) % SLOTS;
		mask = c < FIT_MAX_COUNTERS ? ev[i].generic
					    : ev[i].fixed & free_fixed;
		if (!(mask & (1u << (c % FIT_MAX_COUNTERS))) || seen[c])
			continue;
		seen[c] = true;
		if (owner[c] < 0 ||
		    place(ev, (size_t)owner[c], owner, seen, free_fixed)) {
			owner[c] = (int)i;
			return true;
		}
	}
	return false;
}

bool fit_group(const struct fit_event *ev, size_t n, const struct fit_pmu *p,
	       unsigned int *generic, unsigned int *fixed)
{
	unsigned int free_fixed = all(p->fixed) & ~p->fixed_taken, placed = 0;
	bool seen[SLOTS];
	int owner[SLOTS], c;
	size_t i;

	for (c = 0; c < SLOTS; c++)
		owner[c] = -1;
	for (i = 0; i < n; i++) {
		memset(seen, 0, sizeof(seen));
		if (place(ev, i, owner, seen, free_fixed))
			placed++;
	}
	*generic = *fixed = 0;
	if (placed < n) {
		*generic = placed;
		return false;
	}
	for (c = 0; c < SLOTS; c++)
		if (owner[c] >= 0)
			(*(c < FIT_MAX_COUNTERS ? generic : fixed))++;
	return true;
}
