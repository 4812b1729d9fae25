/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Named regions of the command (--regions): what the counters read
 * between each "begin NAME" and its "end NAME", summed over the
 * entries, with the entries and the time inside.
 */
#ifndef PSTAT_REGIONS_H
#define PSTAT_REGIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counts.h"

struct results;

/* The most names a run keeps; begins of more are counted, not kept. */
#define REGIONS_MAX 1024

struct region {
	char *name;
	unsigned depth;		/* begins not yet ended */
	uint64_t entries;	/* begins */
	uint64_t unmatched;	/* ends that came while it was not open */
	double begun_ns;	/* when the outermost begin came */
	double time_ns;		/* time inside, the spans summed */
	bool open;		/* still open when the run ended */
	struct counts_values *start;	/* the reading at the outer begin */
	struct counts_values *sum;	/* the spans' differences, summed */
	struct results *res;	/* sum as rows, made for printing */
};

struct regions {
	size_t n_values;	/* values in a reading */
	struct region *r;	/* in the order first named */
	size_t n, cap;
	uint64_t dropped;	/* marks of names beyond REGIONS_MAX */
};

/* Regions over readings of n_values values; NULL when out of memory. */
struct regions *regions_new(size_t n_values);
void regions_free(struct regions *rs);

/*
 * "begin NAME" at t (ns) with the counters reading now: a begin of an
 * open region only counts an entry (the outermost span counts). 0, or
 * -ENOMEM; -E2BIG when REGIONS_MAX names are known already (counted in
 * dropped).
 */
int regions_begin(struct regions *rs, const char *name,
		  const struct counts_values *now, double t);

/*
 * "end NAME": the last end of an open region adds the span to its sum.
 * An end of a region not open is counted as unmatched. 0, -ENOMEM or
 * -E2BIG as regions_begin.
 */
int regions_end(struct regions *rs, const char *name,
		const struct counts_values *now, double t);

/*
 * The run ended with the counters reading now: the regions still open
 * add their span up to now and are marked open.
 */
void regions_finish(struct regions *rs, const struct counts_values *now,
		    double t);

#endif
