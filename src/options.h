/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command line: one option table for getopt and --help, into a
 * struct of what was asked (the output's options among it), validated.
 */
#ifndef PSTAT_OPTIONS_H
#define PSTAT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "aggr.h"

enum output_format {
	OUTPUT_HUMAN,		/* perf stat's layout */
	OUTPUT_CSV,		/* -x: perf stat's columns */
	OUTPUT_JSONL,		/* -j: perf stat's JSON lines */
	OUTPUT_PSTAT_CSV,	/* --format=csv: pstat's own, versioned */
	OUTPUT_PSTAT_JSON,	/* --format=json: one document */
	OUTPUT_OPENMETRICS,	/* --format=openmetrics: an exposition per
				 * interval and one for the totals */
};

/* How the results should look, as asked: output.c reads it. */
struct metricgroup;

struct output_opts {
	enum output_format format;
	const struct metricgroup *mg;	/* -M's metrics, or NULL */
	size_t mg_block;	/* --for-each-cgroup: el's events of each
				 * cgroup, in which mg's are alike; 0: one */
	const char *sep;	/* -x separator */
	bool big_num;		/* group digits in human output */
	bool metric_only;	/* --metric-only */
	bool no_threshold;	/* --metric-no-threshold: no colours */
	bool tty;		/* the output is a terminal (count.c) */
	bool interval;		/* -I: rows carry a timestamp */
	bool summary;		/* -I with totals at the end too */
	bool no_csv_summary;	/* -x: no 'summary' first on those totals */
	bool interval_clear;	/* --interval-clear: a clear screen first */
	bool table;		/* --table: each run's elapsed time */
	size_t runs;		/* -r; SIZE_MAX for -r 0, until stopped */
};

enum options_action {
	OPTIONS_RUN,
	OPTIONS_HELP,
	OPTIONS_VERSION,
	OPTIONS_LIST,
	OPTIONS_EXPLAIN,
	OPTIONS_CHECK,		/* --check: what this machine allows */
	OPTIONS_MERGE,		/* --merge FILE...: the ranks' files */
	OPTIONS_COMPARE,	/* pstat compare: commands or files */
	OPTIONS_TOP,		/* pstat top: a table per interval */
};

/*
 * A -G list, and how many -e came before it: it names their events;
 * and -M's too when the first -M or --topdown came after those -e and
 * before it (perf adds -M's events where -M is).
 */
struct options_cgroup {
	const char *list;
	size_t after;
	bool after_metrics;
};

struct options {
	enum options_action action;
	const char **events;	/* each -e, in order (point into argv) */
	size_t n_events;
	bool *events_pfm;	/* events[i] came from --pfm-events */
	const char **metrics;	/* each -M, in order (into argv) */
	size_t n_metrics;
	size_t metrics_at;	/* how many -e came before the first -M or
				 * --topdown: where their events go */
	bool metric_no_group;	/* --metric-no-group */
	bool metric_no_merge;	/* --metric-no-merge */
	bool topdown;		/* --topdown: -M TopdownL<td_level> */
	unsigned int td_level;	/* --td-level, 1 by default */
	int detailed;		/* -d given this many times */
	bool null_run;		/* -n: no counters, time only */
	bool no_inherit;	/* -i */
	bool no_merge;		/* --no-merge */
	bool no_scale;		/* --no-scale */
	bool json;		/* -j/--json: perf's JSON lines, or --list's
				 * and --check's JSON */
	struct output_opts out;	/* format, separator, digits, ... */
	size_t repeat;		/* -r, 1 by default; SIZE_MAX for -r 0 */
	bool forever;		/* -r 0: repeat until interrupted */
	const char *pre_cmd;	/* --pre: a shell command before each run */
	const char *post_cmd;	/* --post: and after it */
	bool sync;		/* -S: sync(2) before each run */
	int verbose;		/* -v given this many times */
	bool quiet;		/* -q: results and errors only */
	bool all_user;		/* --all-user: every event :u */
	bool all_kernel;	/* --all-kernel: every event :k */
	unsigned int interval_ms;	/* -I, 0 for none */
	size_t interval_count;	/* --interval-count, 0 for no limit */
	const char *pids;	/* -p list, as given */
	const char *tids;	/* -t list */
	bool all_cpus;		/* -a */
	const char *cpu_list;	/* -C list */
	struct options_cgroup *cgroups;	/* each -G, in order */
	size_t n_cgroups;
	const char *for_each_cgroup;	/* --for-each-cgroup list, or NULL */
	enum aggr_kind aggr;	/* -A, --per-..., or AGGR_GLOBAL */
	bool per_process;	/* --per-process: AGGR_THREAD's rows summed
				 * per process */
	long delay_ms;		/* -D, 0 for none, -1: until --control
				 * says "enable" */
	const char *control;	/* --control fd:... or fifo:..., or NULL */
	bool regions;		/* --regions: count the command's regions */
	unsigned int timeout_ms;	/* --timeout, 0 for none */
	const char *output_file;	/* -o */
	bool append;		/* --append */
	int log_fd;		/* --log-fd, -1 for none */
	char **argv;		/* the command, NULL-terminated, or NULL
				 * for targets alone (-p, -t, -a, -C) */
	const char *list_filter;	/* --list FILTER, or NULL */
	bool list_pfm;		/* --list pfm [FILTER]: libpfm4's events */
	bool list_metrics;	/* --list metrics [FILTER]: perf's metrics */
	bool list_metricgroups;	/* --list metricgroups [FILTER] */
	char *const *merge_files;	/* --merge's files (into argv) */
	size_t n_merge_files;
	/* pstat compare (OPTIONS_COMPARE): */
	bool compare;		/* its command line: its options' table */
	size_t warmup;		/* --warmup: uncounted runs of each first */
	bool ignore_failure;	/* -i: a failed run is left out, no more */
	const char **thresholds;	/* each --threshold, as given */
	size_t n_thresholds;
	const char **fail_on;	/* each --fail-on, as given */
	size_t n_fail_on;
	char ***sides;		/* each command, NULL-terminated: into
				 * side_words, which points into argv */
	char **side_words;
	size_t n_sides;
	char *const *compare_files;	/* or the files, saved results */
	size_t n_compare_files;
	/* pstat top (OPTIONS_TOP), with pids, events, the format: */
	bool top_batch;		/* -b: a table each interval */
	unsigned int top_delay_ms;	/* -d, 2000 by default */
	size_t top_iterations;	/* -n, 0: until interrupted */
	bool top_per_thread;	/* --per-thread: a row per thread */
	const char *top_user;	/* -u USER, as given, or NULL */
	const char *top_sort;	/* --sort COLUMN, or NULL */
};

/* --threshold [EVENT=]PCT%: a change within PCT% is no change. */
struct options_threshold {
	const char *event;	/* into the argument; NULL: every row */
	size_t event_len;
	double pct;		/* 0 or more */
};

/* --fail-on EVENT>PCT% or EVENT<PCT%: a condition on the interval. */
struct options_fail_on {
	const char *event;	/* into the argument */
	size_t event_len;
	bool above;		/* '>': the whole interval above pct */
	double pct;		/* signed */
};

/* The syntax of each; 0, or -EINVAL with the reason in err (without
 * "pstat: "). */
int options_parse_threshold(const char *arg, struct options_threshold *t,
			    char *err, size_t len);
int options_parse_fail_on(const char *arg, struct options_fail_on *f,
			  char *err, size_t len);

/*
 * Parse argv. 0, or -EINVAL with a one-line reason in err (without the
 * "pstat: " prefix); -ENOMEM.
 */
int options_parse(struct options *o, int argc, char **argv, char *err,
		  size_t err_len);
void options_free(struct options *o);

void options_usage(FILE *f);

#endif
