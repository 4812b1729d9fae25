/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results, in the format asked for: one traversal, a printer each. */
#ifndef PSTAT_OUTPUT_H
#define PSTAT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "evlist.h"

/* How the run went, for the header and footer. */
struct output_run {
	char *const *argv;
	double elapsed_ns;
	double user_s, sys_s;
};

struct output_opts {
	const char *sep;	/* CSV separator; NULL: human output */
	bool no_merge;		/* each PMU instance on its own row */
};

/* 0, or -EIO when a write failed. */
int output_print(FILE *f, const struct evlist *el,
		 const struct output_run *run, const struct output_opts *o);

#endif
