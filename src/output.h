/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The results, in the format asked for (options.h's output_opts): one
 * traversal, a printer each.
 */
#ifndef PSTAT_OUTPUT_H
#define PSTAT_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

struct output_opts;
struct rank_info;
struct regions;
struct results;

/* How the run went, for the header and footer. */
struct output_run {
	char *const *argv;	/* the command, or NULL when there is none */
	const char *target;	/* "'system wide'", "process id '12'", or
				 * NULL for the command */
	double elapsed_ns;	/* of the last run; the mean is in results */
	double user_s, sys_s;
	long max_rss_kib;
	int status;		/* wait status of the first failing run, or
				 * of the last one */
	size_t runs_done;	/* runs whose counts are in the results */
	/* The run that ended last, alone (run_next): its wait status,
	 * whether --timeout stopped it, its elapsed, user and system
	 * times and max RSS (those when its counts are in the results). */
	int last_status;
	bool last_timed_out;
	double last_elapsed_ns;
	double last_user_s, last_sys_s;
	long last_max_rss_kib;
	bool timed_out;		/* --timeout stopped the command */
	bool interrupted;	/* a signal to pstat cut the last run short */
	bool partial;		/* ...and it is the run shown: no other
				 * run was complete */
	/* What failed once counting had begun and ended the runs (a
	 * --post, a later run's open), or NULL: pstat's own formats
	 * record it. */
	const char *error;
	/* The MPI or Slurm rank, or NULL when none was found: pstat's
	 * own formats then record these too. */
	const struct rank_info *rank;
	const char *host;	/* short host name, or NULL */
	struct timespec start;	/* wall-clock time the counting began */
	/* --regions: the command's regions, printed after the totals (the
	 * caller frees them), or NULL. */
	struct regions *regions;
};

struct output;

struct output *output_new(FILE *f, const struct output_opts *o);

/*
 * The memory printing res needs (metrics contexts, --metric-only's
 * columns), taken before counting starts: nothing is allocated in the
 * interval loop, and an interval cannot be lost for want of it. Else
 * the first section takes it. 0 or -ENOMEM.
 */
int output_prepare(struct output *out, const struct results *res);

/*
 * done(arg) after each section (an interval, the totals) is written
 * and flushed: a format of whole documents (openmetrics) replaces -o's
 * file then. Its -errno fails the output as a failed write does.
 */
void output_on_section(struct output *out, int (*done)(void *arg),
		       void *arg);

/* Rows of one interval of run (0 for the first of -r's), which ended
 * ts seconds after the run's start and lasted interval_ns. */
void output_interval(struct output *out, const struct results *res,
		     size_t run, double ts, double interval_ns);

/* Whether a section (an interval) has been printed already. */
bool output_started(const struct output *out);

/* The totals and the footer; after intervals only with --summary, but
 * pstat's own formats always close with the run's description. */
void output_final(struct output *out, const struct results *res,
		  const struct output_run *run);

/*
 * A signal's name as kill -l gives it ("SIGINT", "SIGRTMIN+3"), or
 * "SIG" and its number when it has none. buf of 16 bytes is enough.
 */
const char *output_signal_name(int sig, char *buf, size_t len);

/*
 * The human format's digit grouping and decimal point, from the
 * environment's LC_NUMERIC ("," and "." where it has none, or is C),
 * for printers of their own (pstat compare). printf stays in the C
 * locale. 0, or -ENOMEM when the locale could not be loaded for want
 * of memory.
 */
int output_numeric_locale(char *thousands, size_t tlen, char *radix,
			  size_t rlen);

/* Flush and free. 0, or -errno (-EIO if unknown) when a write failed,
 * or -ENOMEM when memory ran out and the results are not whole. */
int output_close(struct output *out);

#endif
