/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The count action, and the pieces --explain and --merge share with it. */
#ifndef PSTAT_COUNT_H
#define PSTAT_COUNT_H

#include <stdbool.h>
#include <stdio.h>

#include "run.h"

struct cgroups;
struct evlist;
struct options;

/* Exit statuses, as env(1) and timeout(1) give them. */
enum {
	EXIT_TIMEOUT = 124,
	EXIT_PSTAT_FAILED = 125,
	EXIT_CANNOT_RUN = 126,
	EXIT_NOT_FOUND = 127,
};

struct metricgroup;
struct target;

/*
 * What stopped the runs (run_command's outcome and failure), in msg,
 * and the exit status it gives: 125, or 126 and 127 for a command
 * that could not be run.
 */
int count_failed(const struct options *o, const struct target *tg,
		 const struct evlist *el, enum run_outcome outcome,
		 const struct run_failure *f, char *msg, size_t len);

/* Whether fd writes where pstat's own messages go: stderr's file. */
bool count_shares_stderr(int fd);

/*
 * The events of -e, -d, --pfm-events (perf's default set without
 * them, or -M), with the cgroups of -G and --for-each-cgroup in cg
 * (NULL for none: --explain, whose attrs they do not change), into el;
 * -M's and --topdown's metrics into *mg (NULL without them). 0,
 * -EINVAL once said, or -errno.
 */
int count_events(const struct options *o, struct evlist *el,
		 struct cgroups *cg, struct metricgroup **mg);

/*
 * Where results go: -o's file (opened with the user's rights), --log-fd,
 * or stderr, as a stream that a signal can always end a wait on
 * (dest.h); its descriptor in *fd. NULL once said.
 */
FILE *count_destination(const struct options *o, int *fd);

/*
 * Count the command or the targets of o as it asks, print the results
 * and say what happened: the exit status (the command's, 128+N, 124,
 * 125, 126 or 127). env_err: what workload_init returned.
 */
int count_run(struct options *o, int env_err);

#endif
