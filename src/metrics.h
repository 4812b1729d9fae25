/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Derived metrics as perf stat prints them: CPUs utilized, rates (pure). */
#ifndef PSTAT_METRICS_H
#define PSTAT_METRICS_H

#include <stdbool.h>

/* What the whole run measured, that the metrics divide by. */
struct metrics_ctx {
	double wall_ns;		/* elapsed time of the command */
	double clock_ns;	/* task-clock (or cpu-clock); 0 if none */
};

struct metric {
	bool valid;
	double value;
	char unit[24];		/* "CPUs utilized", "/sec", "K/sec", ... */
};

/* The metric of a counted value, if perf stat shows one for it. */
void metrics_compute(bool is_clock, double value,
		     const struct metrics_ctx *ctx, struct metric *m);

#endif
