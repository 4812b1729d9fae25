/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --per-thread and --per-process with a command: the counts of each
 * task the command makes, from the records the kernel writes to a ring
 * buffer as each one ends (PERF_RECORD_READ, with inherit_stat), named
 * by PERF_RECORD_COMM and FORK.
 */
#ifndef PSTAT_TASKS_H
#define PSTAT_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counts.h"

struct aggr;
struct evlist;

/* The tasks of one run: opaque; tasks_open and tasks_close. */
struct tasks;

/* The ring buffer's data pages by default (a power of two). */
#define TASKS_PAGES 16

/*
 * A buffer for the records of command pid (not yet let go), and el's
 * counters (open, with inherit_stat) writing into it; pages of data, a
 * power of two (others are taken as TASKS_PAGES). 0 or -errno.
 */
int tasks_open(struct tasks **tp, struct evlist *el, int pid, size_t pages);

/* The descriptor to poll: readable when the buffer is half full. */
int tasks_fd(const struct tasks *t);

/*
 * Take the records written so far: the number taken, or -ENOMEM (a
 * task that could not be added: its counts stay in the command's row,
 * and are said to be lost).
 */
int tasks_drain(struct tasks *t, const struct evlist *el);

/* What the records did not tell. */
struct tasks_gaps {
	uint64_t lost;		/* records the kernel said it dropped */
	bool full;		/* the buffer filled up: maybe more */
	size_t unended;		/* tasks seen made, whose end never came */
};

/*
 * The rows: an AGGR_THREAD aggregate per task (comm-tid) or per process
 * (comm-pid), the command first, and their values, n_evsels of each,
 * in *vals (the caller frees it). totals[i] is what evsel i read for
 * the whole command: the command's own task gets what the records do
 * not account for. 0 or -ENOMEM.
 */
int tasks_aggr(const struct tasks *t, const struct counts_values *totals,
	       bool per_process, struct aggr *a, struct counts_values **vals,
	       struct tasks_gaps *gaps);

/* Unmap, close and free; NULL-safe. */
void tasks_close(struct tasks *t);

#endif
