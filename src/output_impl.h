/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the output traversal hands each printer. */
#ifndef PSTAT_OUTPUT_IMPL_H
#define PSTAT_OUTPUT_IMPL_H

#include <stdio.h>

#include "counts.h"
#include "evsel.h"
#include "metrics.h"
#include "output.h"

/* One event, or the instances of a PMU summed, ready to print. */
struct output_row {
	const struct evsel *e;	/* the first of them */
	const char *name;
	const char *unit;	/* "msec" for clocks, sysfs's unit, or "" */
	struct counts_values vals;
	struct counts_result r;
	double value;		/* r.value in that unit */
	bool fractional;	/* print two decimals, not an integer */
	struct metric m;
};

struct output_printer {
	void (*header)(FILE *f, const struct output_run *run,
		       const struct output_opts *o);
	void (*row)(FILE *f, const struct output_row *row,
		    const struct output_opts *o);
	void (*footer)(FILE *f, const struct output_run *run,
		       const struct output_opts *o);
};

extern const struct output_printer output_human;
extern const struct output_printer output_csv;

#endif
