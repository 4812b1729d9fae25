/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --merge: pstat's own CSV and JSON files, one per MPI or Slurm rank,
 * read back and made into the job's statistics, and printed.
 */
#ifndef PSTAT_MERGE_H
#define PSTAT_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "metrics.h"
#include "options.h"

/* One event over the ranks. */
/* The metrics an event's merged row has: perf's own, then -M's. */
#define MERGE_METRICS (METRICS_MAX + 8)

struct merge_event {
	char *name;		/* "event", or "event (aggregate)" */
	char *unit;
	size_t counted;		/* ranks with a value */
	double sum, mean, stddev;	/* over the ranks counted */
	double min, max;
	long min_rank, max_rank;	/* the lowest rank with each */
	double imbalance_pct;	/* (max / mean - 1) x 100 */
	double load_balance;	/* mean / max */
	double min_running_pct;	/* the lowest running percentage */
	long min_running_rank;
	long *uncounted;	/* ranks without a value, ascending */
	const char **uncounted_why;	/* "not-supported", "not-counted",
					 * "absent" */
	size_t n_uncounted;
	double *values;		/* each file's, NaN where not counted */
	int n_metrics;		/* from the summed counts: perf's own
				 * ratios, then -M's */
	struct metric m[MERGE_METRICS];
};

/* One rank's run record. */
struct merge_rank {
	long rank;
	const char *file;
	int exit_status;	/* -1 when it was killed, or no command */
	int signal;		/* 0 when none */
	double elapsed_s, user_s, sys_s, max_rss_kib;
	bool has_command;	/* user_s, sys_s, max_rss_kib are known */
};

/* Ranks first to last. */
struct merge_range {
	long first, last;
};

/* min, sum and max of a run fact, and the ranks of min and max. */
struct merge_spread {
	size_t n;
	double sum, min, max;
	long min_rank, max_rank;
};

struct merge {
	struct merge_rank *ranks;	/* ascending */
	size_t n_ranks;
	struct merge_event *events;	/* in the first rank's order */
	size_t n_events;
	long size;		/* the job's, or -1 when no file says */
	const char *job_id;	/* the first rank's, or NULL */
	char *command;		/* the first rank's */
	double wall_s;		/* the longest elapsed time */
	struct merge_spread user, sys, rss;
	long *present;		/* the ranks, ascending */
	struct merge_range *missing;	/* ranks below size without a
					 * file, ascending */
	size_t n_missing;	/* ranges */
	long *failed;		/* ranks whose command failed */
	size_t n_failed;
	int status;		/* the lowest-ranked failure's exit status
				 * (128+N for signal N), or 0 */
	void *priv;		/* merge.c's own: what was read */
};

/*
 * Read files[0..n) and compute. 0, or -EINVAL with the reason in err
 * (naming the file), or -ENOMEM. m is freed by merge_free either way.
 */
int merge_read(struct merge *m, char *const *files, size_t n, char *err,
	       size_t len);
void merge_free(struct merge *m);

/* The report in format (human, pstat's CSV or JSON): 0 or -errno. */
int merge_print(FILE *f, const struct merge *m, enum output_format format);

#endif
