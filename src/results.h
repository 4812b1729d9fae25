/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rows pstat prints: evsels merged, one row per aggregate (aggr.h),
 * interval deltas, repeat statistics.
 */
#ifndef PSTAT_RESULTS_H
#define PSTAT_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#include "counts.h"
#include "stats.h"

struct aggr;
struct evlist;
struct evsel;

/*
 * One printed event of one aggregate: an evsel, or the instances of a
 * PMU summed. Its values are cumulative readings; an interval is the
 * difference of two.
 */
struct results_row {
	const struct evsel *e;	/* the first evsel of the row */
	/* What it is shown as, described once when the results are made
	 * (after the first open, which may rename an event :u): */
	const char *name;	/* the event's, or its PMU instance's */
	const char *unit;	/* "msec" for clocks, sysfs's unit, or "" */
	const char *cgroup;	/* NULL: none */
	const struct perf_event_attr *attr;	/* what its metrics key on */
	double scale;		/* sysfs's .scale */
	bool clock;		/* a clock, counted in ns, shown in msec */
	size_t first;		/* its index in the evlist */
	size_t n_evsels;	/* it and the instances merged into it */
	size_t aggr;		/* its aggregate */
	bool by_instance;	/* --no-merge: named by its PMU instance */
	struct counts_values now;	/* the last reading */
	struct counts_values prev;	/* the reading before the interval */
	bool covered;		/* opened on a CPU of its aggregate, or
				 * not supported, or pstat's own: else
				 * its PMU counts on none of them (a
				 * hybrid's core PMU), and it is no row */
	bool counting_now;	/* it counted at the last reading */
	bool counting_prev;	/* and at the one before the interval */
	uint64_t starts_now;	/* times it began counting by the last */
	uint64_t starts_prev;	/* and by the one before the interval */
	struct stats runs;	/* the value of each run, with -r */
	double enabled_sum;	/* enabled and running times of the runs */
	double running_sum;	/* in runs, over which their means go */
	bool runs_scaled;	/* one of those runs was an estimate */
	double *run_values;	/* each run's value (results_value) */
	bool *run_counted;	/* whether run i gave a value at all;
				 * both NULL unless keep_values */
};

struct results {
	const struct evlist *el;
	struct results_row *rows;
	size_t n_rows;
	const struct aggr *aggr;	/* NULL: all targets together */
	size_t n_runs;		/* runs recorded so far */
	size_t max_runs;
	bool no_scale;		/* show counts as read, unscaled */
	bool enabled;		/* counting had started by the last
				 * snapshot: else nothing is counted, not
				 * 0 (-D longer than the command) */
	struct stats wall_ns;	/* elapsed time of each run */
	/*
	 * What is kept of each run beside the statistics, which is what
	 * the output shows (both, unless the caller says less before
	 * the first run ends): the rows' values (pstat's own formats
	 * list them), and the elapsed times (--table). Else memory
	 * does not grow with the runs (-r 0).
	 */
	bool keep_values;
	/* --per-thread or --per-process with a command: what the kernel's
	 * records did not tell (tasks.h), which the notes and pstat's own
	 * formats say. */
	bool per_task;
	bool tasks_per_process;	/* a row per process, not per thread */
	uint64_t tasks_lost;	/* records the kernel had no room for */
	bool tasks_full;	/* the buffer filled up: maybe more */
	size_t tasks_unended;	/* tasks whose end never came */
	bool keep_wall;
	double *run_wall_ns;	/* each run's elapsed time, or NULL */
	size_t runs_cap;	/* room for the values of this many runs */
	double *values;		/* the rows' run_values, one allocation */
	bool *counted;		/* and their run_counted */
};

/*
 * Rows for el's evsels, one per aggregate; merged instances share a row
 * unless no_merge. aggr may be NULL, and must outlive the results.
 * Rows go aggregate by aggregate, but event by event for CPUs and
 * threads, as perf stat prints them.
 */
struct results *results_new(const struct evlist *el, bool no_merge,
			    size_t max_runs, const struct aggr *aggr);
void results_free(struct results *r);

/* Take the evsels' last reads as the rows' readings. */
void results_snapshot(struct results *r);

/*
 * Take v as the rows' readings instead: the values of each aggregate,
 * one per evsel of each (--per-thread with a command: tasks.c's).
 */
void results_snapshot_values(struct results *r, const struct counts_values *v);

/*
 * What a row shows: over the whole run, or since the previous interval.
 * false when nothing is known of it, which is <not counted>: its
 * readings went backwards, or pstat never had it counting then
 * (-D, --control), whatever the kernel's times say.
 */
bool results_values(const struct results_row *row, bool interval,
		    struct counts_values *v);

/* The interval is printed: its end becomes the next one's start. */
void results_next_interval(struct results *r);

/*
 * The evsels were switched on or off (--control) where an interval
 * ended: the next one starts with them as they are now.
 */
void results_switched(struct results *r);

/* A run's counters start at 0: its first interval counts from there. */
void results_restart_intervals(struct results *r);

/*
 * What a row shows over the runs so far (with -r), each field a
 * statistic of the runs that counted it: the mean value, enabled and
 * running times (their means), scaled when one run was. false when no
 * run counted it: the last run's state says why.
 */
bool results_over_runs(const struct results_row *row,
		       struct counts_values *v, struct counts_result *res,
		       double *mean);

/*
 * A run ended (its final snapshot taken): add it to the statistics.
 * max_runs may be SIZE_MAX (-r 0): the room for what is kept of each
 * run grows as they come. 0, or -ENOMEM (the run is not added).
 */
int results_end_run(struct results *r, double wall_ns);

/*
 * The value of v, scaled by sysfs's .scale (clocks stay in
 * nanoseconds: the printers show milliseconds), and its state;
 * no_scale shows the count as read.
 */
double results_value(const struct results *r, const struct results_row *row,
		     const struct counts_values *v, struct counts_result *res);

#endif
