/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where to count: the command, threads of processes, or CPUs, with
 * inherit and enable_on_exec, as the options ask; the one description
 * evlist_open takes. It holds the aggregation of -A and --per-* over
 * its threads or CPUs (aggr.h).
 */
#ifndef PSTAT_TARGET_H
#define PSTAT_TARGET_H

#include <stdbool.h>
#include <stddef.h>

#include "aggr.h"

struct options;

/*
 * Every thread of pids on every CPU of cpus. A NULL list means -1 (any
 * thread, any CPU); the kernel wants one of the two.
 */
struct target {
	int *pids;		/* threads to count, or the command's slot */
	size_t n_pids;
	int *cpus;		/* CPUs to count on */
	size_t n_cpus;
	bool inherit;		/* count children and threads too */
	bool enable_on_exec;	/* the kernel starts counting at exec */
	bool skip_vanished;	/* a thread gone before its open is no error */
	bool per_task;		/* --per-thread or --per-process with a
				 * command: each task's counts from the
				 * kernel's records (tasks.c) */
	bool per_process;	/* --per-process: summed per process */
	bool command_slot;	/* the last of pids is the command's, once
				 * target_set_command gives it */
	char desc[256];		/* for the header: "'system wide'", ...;
				 * empty for the command */
	char comm[16];		/* the command's name, as the kernel will
				 * call it after its exec */
	struct aggr aggr;	/* AGGR_GLOBAL: all targets together */
};

/*
 * Where o asks to count: a command (one pid slot, enable_on_exec unless
 * -D), -p's or -t's threads, -a's or -C's CPUs, -a --per-thread's every
 * thread (and the command's slot); and the aggregation of -A and
 * --per-*. --explain gets a command's target whatever else is asked.
 * 0, or -EINVAL with a one-line reason in err; -ENOMEM.
 */
int target_resolve(struct target *t, const struct options *o, char *err,
		   size_t len);
void target_free(struct target *t);

/* The command of a command slot is pid now: count it, name its row. */
void target_set_command(struct target *t, int pid);

/*
 * The counters each event needs: every thread on every CPU, a missing
 * list counting as one (any thread, any CPU); and counter i's thread
 * and CPU, -1 for any.
 */
size_t target_count(const struct target *t);
int target_pid(const struct target *t, size_t i);
int target_cpu(const struct target *t, size_t i);

/* Whether any of the pids still exists. */
bool target_alive(const struct target *t);

#endif
