/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What to count besides the command: threads of processes, or CPUs; and
 * the aggregation of -A and --per-* over them (aggr.h). */
#ifndef PSTAT_TARGET_H
#define PSTAT_TARGET_H

#include <stdbool.h>
#include <stddef.h>

#include "aggr.h"
#include "options.h"

struct target {
	int *tids;		/* threads to attach to, or NULL */
	size_t n_tids;
	int *cpus;		/* CPUs to count on, or NULL */
	size_t n_cpus;
	char desc[256];		/* for the header: "'system wide'", ... */
	bool command_slot;	/* -a --per-thread with a command: the last
				 * of tids is the command's, once
				 * target_set_command gives it */
	char comm[16];		/* the command's name, as the kernel will
				 * call it after its exec */
	struct aggr aggr;	/* AGGR_GLOBAL: all targets together */
};

/*
 * The targets of -p, -t, -a and -C, and the aggregation of -A and
 * --per-*. 0, or -EINVAL with a one-line reason in err; -ENOMEM.
 */
int target_resolve(struct target *t, const struct options *o, char *err,
		   size_t len);
void target_free(struct target *t);

/* The command of a command slot is pid now: count it, label its row. */
void target_set_command(struct target *t, int pid);

/* Whether any of the tids still exists. */
bool target_alive(const struct target *t);

#endif
