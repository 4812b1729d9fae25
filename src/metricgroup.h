/* SPDX-License-Identifier: GPL-2.0-or-later */
/* -M: perf's metrics from its tables, their events counted, their values. */
#ifndef PSTAT_METRICGROUP_H
#define PSTAT_METRICGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "counts.h"
#include "error.h"
#include "metrics.h"

struct evlist;

/* How -M's events are grouped, as perf's options say. */
struct metricgroup_opts {
	bool no_group;		/* --metric-no-group: no braces */
	bool no_merge;		/* --metric-no-merge: a group each */
	bool system_wide;	/* -a or -C: #core_wide may be 1 */
	const char *cpu_list;	/* -C's list, or NULL */
};

/* The metrics -M asked for, and the events they read (opaque). */
struct metricgroup;

/*
 * The metrics of each word of the lists (names or groups, in any case,
 * comma-separated; perf's -M), from this CPU's tables (pmu_tables.h),
 * into *out:
 * their events go to the end of el, each metric's in a weak group
 * ({...}:W) unless opts or its constraint say otherwise, a metric whose
 * events an earlier group holds sharing it. 0; -EINVAL with err (an
 * unknown word with the closest names, a formula perf's grammar
 * refuses, no tables for this CPU); -ENOMEM.
 */
int metricgroup_add(struct metricgroup **out, const char *const *lists,
		    size_t n_lists, const struct metricgroup_opts *opts,
		    struct evlist *el, struct error *err);

void metricgroup_free(struct metricgroup *mg);

/* How many of -M's words metricgroup_renamed reports, at most. */
#define METRICGROUP_RENAMED_MAX 16

/*
 * The i-th word of -M that is perf 6.1's name of a metric that perf
 * 6.12's tables renamed (IpBranch: tma_info_inst_mix_ipbranch, the one
 * name that ends in _ipbranch), taken as the new name: true, with the
 * two names (valid while mg is); false past the last.
 */
bool metricgroup_renamed(const struct metricgroup *mg, size_t i,
			 const char **from, const char **to);

/*
 * --explain -M: the model, and each metric's formula, ScaleUnit and the
 * events of el it reads, its group's first event named.
 */
void metricgroup_explain(FILE *f, const struct metricgroup *mg,
			 const struct evlist *el);

/* What a metric's value is computed from: its events' values, read
 * through the caller, in one aggregate of the results. */
struct metricgroup_values {
	void *arg;
	/*
	 * The state of el's event i; when it counted (counted or
	 * scaled), its value (scaled, as shown) in *v and the
	 * percentage of its enabled time it ran in *running_pct.
	 */
	enum counts_state (*event)(void *arg, size_t i, double *v,
				   double *running_pct);
	double wall_ns;		/* the elapsed time: duration_time */
	double user_ns;		/* the command's user time: user_time */
	double system_ns;	/* and its system time: system_time */
	bool thresholds;	/* evaluate MetricThreshold (not with
				 * --metric-no-threshold) */
};

/*
 * The metrics shown beside el's event i (the first event of their
 * group), as perf shows them: their value scaled by ScaleUnit, and the
 * unit and name; and what pstat says more (metrics.h): the status, the
 * input that did not count, the inputs read, the least running
 * percentage among them, the threshold. How many, at most max into
 * out. A metric whose input did not count has that input's status and
 * name, and a NaN value; one that divides by zero is NaN.
 */
int metricgroup_row(const struct metricgroup *mg, size_t i,
		    const struct metricgroup_values *v, struct metric *out,
		    int max);

#endif
