/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What pstat compare's driver, reader and printers share. */
#ifndef PSTAT_COMPARE_IMPL_H
#define PSTAT_COMPARE_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cmpstats.h"
#include "counts.h"
#include "options.h"

/* What a row is a sample of. */
enum compare_kind {
	COMPARE_EVENT,		/* a counted event */
	COMPARE_METRIC,		/* one of -M's metrics */
	COMPARE_WALL,		/* each run's elapsed time */
	COMPARE_RSS,		/* each run's max RSS */
};

/* One row's values on one side: a value of each run that counted it. */
struct compare_samples {
	double *v;		/* in the order the runs were made */
	size_t n, cap;
	size_t missing;		/* runs kept in which it did not count */
	enum counts_state state;	/* why, the last time */
	bool no_number;		/* a run gave NaN or an infinity (a
				 * metric's division by zero) */
	bool multiplexed;	/* a run counted it part of its time */
	double least_running_pct;	/* the least of them (100: all) */
	struct cmpstats_summary sum;	/* of v, when n > 0 */
};

/* What the comparison says of a change. */
enum compare_verdict {
	COMPARE_NO_DATA,	/* a side has no value of it */
	COMPARE_TOO_FEW,	/* too few runs for an interval */
	COMPARE_UNSURE,		/* the interval crosses the threshold */
	COMPARE_SAME,		/* the interval lies within the threshold */
	COMPARE_MORE,		/* it lies above it */
	COMPARE_LESS,		/* below it */
};

/* One side against the first, for one row. */
struct compare_change {
	enum compare_verdict verdict;
	double ratio;		/* median / first's median - 1, in %; NaN
				 * when the first's median is 0 */
	struct cmpstats_shift hl;	/* of this side's values - the first's */
	double est_pct, lo_pct, hi_pct;	/* hl relative to the first's
					 * median, in %; NaN as ratio */
	struct cmpstats_mwu mwu;
	bool fail;		/* a --fail-on condition met */
};

struct compare_row {
	char *name;		/* the event's, the metric's, "wall-time",
				 * "max-rss" */
	char *unit;		/* "msec", "KiB", a metric's, or "" */
	enum compare_kind kind;
	double threshold_pct;
	struct compare_samples *side;	/* one per side */
	struct compare_change *change;	/* one per side; [0] unused */
};

/* A run as it was made, in order. */
struct compare_run {
	size_t side;
	size_t run;		/* of its side's runs (or warm-up runs),
				 * from 0 */
	bool warmup;
	bool kept;		/* its values are samples */
	int exit_status;	/* -1: killed (signal) */
	int signal;		/* 0: none */
	bool timed_out;
};

struct compare {
	size_t n_sides;
	char ***argv;		/* each side's command, or NULL */
	bool own_argv;		/* argv and its words are c's to free */
	const char *const *files;	/* each side's file, or NULL: live */
	size_t runs, warmup;	/* asked of each side */
	struct compare_row *rows;
	size_t n_rows;
	struct compare_run *log;
	size_t n_log, cap_log;
	size_t *kept;		/* per side: runs whose values are samples */
	size_t *failed;		/* and runs that failed */
	bool interrupted;	/* a signal stopped the runs */
};

/* A new row (its samples and changes for c's sides); NULL: ENOMEM. */
struct compare_row *compare_add_row(struct compare *c, const char *name,
				    const char *unit, enum compare_kind kind);

/* A value of a run, into s. 0 or -ENOMEM. */
int compare_add_sample(struct compare_samples *s, double v);

/* The run into c's log. 0 or -ENOMEM. */
int compare_log_run(struct compare *c, const struct compare_run *r);

/* Statistics and verdicts of every row, with the options' thresholds
 * and --fail-on conditions. 0 or -ENOMEM. */
int compare_analyse(struct compare *c, const struct options *o);

/* The side's label: "A", "B", ... "Z", then "S27"... in buf. */
const char *compare_label(size_t side, char *buf, size_t len);

/* A verdict's word for a row of kind. */
const char *compare_verdict_name(enum compare_verdict v,
				 enum compare_kind kind);

void compare_free(struct compare *c);

/*
 * The saved results of o->compare_files into c: pstat -r N
 * --format=json documents (one side each), or one comparison saved
 * with --format=json. 0, -EINVAL with the reason in err, or -ENOMEM.
 */
int compare_read(struct compare *c, const struct options *o, char *err,
		 size_t len);

/* c as o->out.format asks, to f (tty: a terminal, width columns). 0,
 * or -errno of a write that failed. */
int compare_print(FILE *f, const struct compare *c, const struct options *o,
		  bool tty, int width);

#endif
