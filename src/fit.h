/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whether a group's events can count at once on a PMU's counters. */
#ifndef PSTAT_FIT_H
#define PSTAT_FIT_H

#include <stdbool.h>
#include <stddef.h>

/* The most counters of each kind a PMU is taken to have. */
#define FIT_MAX_COUNTERS 32

/* A PMU's counters: generic, and fixed (each for one event). */
struct fit_pmu {
	unsigned int generic, fixed;
	unsigned int fixed_taken;	/* mask: fixed counters held already
					 * (the NMI watchdog's) */
};

/* The counters one event may use: bit N, generic or fixed counter N. */
struct fit_event {
	unsigned int generic, fixed;
};

/*
 * An event's counters from perf's tables' Counter field: "0,1,2,3"
 * (those generic counters), "Fixed counter N" (fixed counter N, and any
 * generic one when gp_too: an event with a real event code, which the
 * kernel also schedules there; event 0 is a fixed counter's alone),
 * "Fixed" (any fixed counter); NULL or empty: any generic counter. 0,
 * or -EINVAL for a field of another form.
 */
int fit_event_parse(const char *counter, bool gp_too, const struct fit_pmu *p,
		    struct fit_event *e);

/*
 * Whether the n events fit p's counters at once, each on a counter it
 * may use and no counter twice (a matching, as the kernel's scheduler
 * finds one): true, with how many take generic and fixed counters in
 * *generic and *fixed; false, with in *generic how many could be
 * placed at most.
 */
bool fit_group(const struct fit_event *ev, size_t n, const struct fit_pmu *p,
	       unsigned int *generic, unsigned int *fixed);

#endif
