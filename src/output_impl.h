/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the output traversal hands each printer. */
#ifndef PSTAT_OUTPUT_IMPL_H
#define PSTAT_OUTPUT_IMPL_H

#include <stdio.h>

#include "counts.h"
#include "metrics.h"
#include "options.h"
#include "output.h"

struct aggr;
struct region;
struct results;
struct results_row;

/* One row, ready to print. */
/* The metrics a row may carry. */
#define OUTPUT_ROW_METRICS 8

struct output_row {
	const struct results_row *rr;
	/* A kept row's region (--regions; a printer that keeps_rows
	 * sets it from out->region), or NULL. */
	const struct region *region;
	const char *aggr;	/* its aggregate's label, or NULL */
	int aggr_cpus;		/* CPUs in it, 0 when not told */
	const char *name;
	const char *cgroup;	/* -G's: NULL when no event has one, ""
				 * for this one without */
	const char *unit;
	struct counts_values vals;
	struct counts_result r;
	double raw;		/* results_value's (clocks in ns); the mean
				 * over runs with -r: what metrics divide */
	double value;		/* raw in unit, as shown (clocks in ms) */
	bool fractional;	/* two decimals, not an integer */
	int n_metrics;
	/* perf's own ratios (METRICS_MAX), then -M's shown beside it */
	struct metric m[OUTPUT_ROW_METRICS];
	bool has_variance;	/* -r: the spread of the mean is known */
	double variance_pct;
};

/* A --metric-only column: one metric of one event, for the whole run. */
struct output_column {
	size_t event;		/* its event's place in an aggregate's rows */
	int mg;			/* -1: perf's own ratio, m; else which of
				 * -M's metrics beside the event it is */
	struct metrics_column m;
	char *title;		/* unique among the columns */
	int width;		/* the human format's: title or values */
};

/* A column's value on one --metric-only line, if it has one. */
struct output_cell {
	bool has;		/* false: none in this section, a blank */
	double value;
	/* The metric: its value, and for -M's its status, the input
	 * that did not count, its threshold (metrics.h). */
	struct metric m;
};

/* --metric-only's layout, fixed at the first section. */
struct output_metric_only {
	bool ready;
	struct output_column *cols;
	size_t n_cols;
	size_t n_events;	/* rows per aggregate */
	size_t *rows;		/* [a * n_events + e]: the row of event e of
				 * aggregate a */
	struct output_cell *cells;	/* one line's, n_cols */
	int aggr_width;		/* the widest aggregate label or title */
};

struct output {
	FILE *f;
	const struct output_printer *p;
	struct output_opts o;
	const struct results *res;	/* what is being printed */
	struct metrics_ctx *ctx;	/* one per aggregate */
	size_t n_ctx;
	const char **cgroups;	/* -G's cgroups, first none (NULL): rates
				 * divide by the same cgroup's clock */
	size_t n_cgroups;
	struct output_metric_only mo;
	bool failed;		/* out of memory on the way */
	int write_err;		/* errno of the first failed flush */
	double ts;		/* end of the interval being printed */
	char ts_text[32];	/* it as machine formats print it */
	bool interval;		/* printing an interval, not the totals */
	size_t run;		/* the interval's run, 0 for the first */
	bool new_run;		/* and it is that run's first interval */
	size_t sections;	/* intervals and totals printed so far */
	size_t rows;		/* rows printed in this section */
	char thousands[8];	/* the human format's digit grouping */
	char radix[8];		/* and decimal point */
	bool colour;		/* thresholds coloured (human format) */
	/* --regions: the region whose rows are being printed, after the
	 * whole run's, or NULL. */
	const struct region *region;
	size_t regions;		/* regions printed in this section */
	/* A printer that keeps_rows: the section's rows, out->rows of
	 * them, taken before counting starts (output_prepare). */
	struct output_row *kept;
	size_t kept_cap;
	bool same_names;	/* two events of an aggregate share a name
				 * and cgroup (openmetrics numbers them) */
	/* Called when a section is written and flushed: -o's file is
	 * replaced then (output_on_section). */
	int (*section_done)(void *arg);
	void *section_done_arg;
};

/*
 * --per-thread or --per-process with a command: how one event spread
 * over the tasks (or processes), as --merge shows it over ranks.
 */
struct output_spread {
	const struct output_row *row;	/* the event's first row: its name,
					 * unit, fractional */
	const char *over;	/* "threads" or "processes" */
	size_t n;		/* rows that counted it */
	double min, max, mean;	/* as the rows show them (clocks in ms) */
	double imbalance;	/* max / mean - 1; 0 when the mean is 0 */
};

struct output_printer {
	/* Its row() keeps each row in out->kept, for section_end to print
	 * (a format whose samples go family by family, not row by row). */
	bool keeps_rows;
	void (*start)(struct output *out);
	void (*section)(struct output *out, const struct output_run *run);
	void (*row)(struct output *out, const struct output_row *row);
	/* After the totals' rows: each event's spread (first for the first
	 * of them); NULL: the format shows none (-x, -j). */
	void (*spread)(struct output *out, const struct output_spread *s,
		       bool first);
	/* --regions, after the totals' rows and spreads: before the rows
	 * of each region (first for the first), which out->region names;
	 * NULL: the format shows no regions. */
	void (*region)(struct output *out, const struct region *g,
		       bool first);
	void (*section_end)(struct output *out, const struct output_run *run);
	void (*finish)(struct output *out);
	/*
	 * --metric-only, in out->mo: the titles at the start of each
	 * section (the printer says whether they show there), then one
	 * line per aggregate; row is the aggregate's first (its label),
	 * cells one per column.
	 */
	void (*metric_titles)(struct output *out);
	void (*metric_line)(struct output *out, const struct output_row *row,
			    const struct output_cell *cells);
};

extern const struct output_printer output_human;
extern const struct output_printer output_csv;
extern const struct output_printer output_jsonl;
extern const struct output_printer output_pstat_csv;
extern const struct output_printer output_pstat_json;
extern const struct output_printer output_openmetrics;

/* The aggregate kinds' names ("cpu", ... "thread"), as perf's -j keys
 * them and OpenMetrics' labels; NULL for AGGR_GLOBAL. */
extern const char *const output_aggr_keys[];

/* A row's value v as shown, in its unit: clocks in milliseconds. */
double output_shown(const struct results_row *rr, double v);

/*
 * What a row has counted since its run began, whatever the section:
 * its readings, their state, and value and raw as make_row gives them
 * (no statistics of runs). A counter's running total, at an interval.
 */
void output_row_so_far(const struct results *res,
		       const struct results_row *rr, struct output_row *row);

/* The row's state as pstat's formats name it. */
const char *output_state_name(enum counts_state s);

/* A row's value as -x and -j print it: "<not counted>" or a number. */
void output_value_text(char *buf, size_t len, const struct output_row *row);

/*
 * The title of --metric-only's aggregate column, as perf's, or NULL;
 * *cpus says whether a column of CPU counts ("cpus") follows it.
 */
const char *output_aggr_title(const struct aggr *ag, bool *cpus);

/* A percentage with two decimals, in the C locale. */
void output_pct_text(char *buf, size_t len, double pct);

#endif
