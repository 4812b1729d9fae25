/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Statistics of repeated runs and deltas of interval readings (pure). */
#include "config.h"

#include <float.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "counts.h"
#include "stats.h"

void stats_init(struct stats *s)
{
	memset(s, 0, sizeof(*s));
}

/* Welford's update: no sum of squares to lose digits in. */
void stats_add(struct stats *s, double x)
{
	double delta = x - s->mean;

	s->n += 1.0;
	s->mean += delta / s->n;
	s->m2 += delta * (x - s->mean);
	if (s->n == 1.0 || x < s->min)
		s->min = x;
	if (s->n == 1.0 || x > s->max)
		s->max = x;
}

double stats_mean(const struct stats *s)
{
	return s->mean;
}

/*
 * The square root by Newton's method, so that pstat does not load libm
 * for one function (start-up time is budgeted). From above the root the
 * iterates fall until rounding stops them, within an ulp of sqrt(x).
 */
static double root(double x)
{
	uint64_t bits;
	double r, next;

	if (!(x > 0.0))
		return 0.0;
	if (x > DBL_MAX)
		return x;
	/* Halving the exponent bits guesses within a few percent. */
	memcpy(&bits, &x, sizeof(bits));
	bits = (bits >> 1) + (UINT64_C(1023) << 51);
	memcpy(&r, &bits, sizeof(r));
	/* One step from any guess lands above the root (AM-GM). */
	r = 0.5 * (r + x / r);
	for (;;) {
		next = 0.5 * (r + x / r);
		if (!(next < r))
			return r;
		r = next;
	}
}

double stats_stddev(const struct stats *s)
{
	if (s->n < 2.0)
		return 0.0;
	return root(s->m2 / (s->n - 1.0));
}

/* As perf's stddev_stats() and rel_stddev_stats(). */
double stats_rel_stddev_mean(const struct stats *s)
{
	if (s->n < 2.0 || s->mean == 0.0)
		return 0.0;
	return 100.0 * root(s->m2 / (s->n - 1.0) / s->n) / s->mean;
}

static uint64_t minus(uint64_t now, uint64_t prev)
{
	return now > prev ? now - prev : 0;
}

bool stats_delta(const struct counts_values *now,
		 const struct counts_values *prev,
		 struct counts_values *delta)
{
	const struct counts_values d = {
		.value = minus(now->value, prev->value),
		.enabled = minus(now->enabled, prev->enabled),
		.running = minus(now->running, prev->running),
	};
	bool forward = now->value >= prev->value &&
		       now->enabled >= prev->enabled &&
		       now->running >= prev->running;

	*delta = d;
	return forward;
}
