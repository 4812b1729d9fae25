/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Derived metrics as perf stat prints them: CPUs utilized, rates (pure). */
#include "config.h"

#include <stdio.h>

#include "metrics.h"

/* perf's scale for rates: above a thousand, K; above a million, M; ... */
static void rate(double per_sec, struct metric *m)
{
	static const struct {
		double above;
		const char *unit;
	} steps[] = {
		{ 1e9, "G/sec" },
		{ 1e6, "M/sec" },
		{ 1e3, "K/sec" },
	};
	size_t i;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (per_sec > steps[i].above) {
			m->value = per_sec / steps[i].above;
			snprintf(m->unit, sizeof(m->unit), "%s", steps[i].unit);
			return;
		}
	}
	m->value = per_sec;
	snprintf(m->unit, sizeof(m->unit), "/sec");
}

void metrics_compute(bool is_clock, double value,
		     const struct metrics_ctx *ctx, struct metric *m)
{
	m->valid = false;
	m->value = 0.0;
	m->unit[0] = '\0';
	if (is_clock) {
		if (ctx->wall_ns <= 0.0)
			return;
		m->valid = true;
		m->value = value / ctx->wall_ns;
		snprintf(m->unit, sizeof(m->unit), "CPUs utilized");
		return;
	}
	if (ctx->clock_ns <= 0.0)
		return;
	m->valid = true;
	rate(value * 1e9 / ctx->clock_ns, m);
}
