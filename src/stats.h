/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Statistics of repeated runs and deltas of interval readings (pure). */
#ifndef PSTAT_STATS_H
#define PSTAT_STATS_H

#include <stdbool.h>

struct counts_values;

/* Running mean and variance (Welford), as perf's update_stats(). */
struct stats {
	double n, mean, m2;
	double min, max;	/* 0 until the first value */
};

void stats_init(struct stats *s);
void stats_add(struct stats *s, double x);
double stats_mean(const struct stats *s);

/* The sample standard deviation; 0 when n < 2. */
double stats_stddev(const struct stats *s);

/*
 * perf's "( +- x% )": the standard deviation of the mean relative to the
 * mean, in percent, 100 * stddev / sqrt(n) / mean; 0 when the mean is 0
 * or n < 2.
 */
double stats_rel_stddev_mean(const struct stats *s);

/*
 * What a counter did between two cumulative readings, field by field:
 * now - prev, or 0 for a field that went backwards. A counter's
 * readings never go backwards, and no 64-bit count wraps; when one
 * did, the delta says nothing of the interval: false. delta may be
 * either input.
 */
bool stats_delta(const struct counts_values *now,
		 const struct counts_values *prev,
		 struct counts_values *delta);

#endif
