/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How the counts of a target's threads or CPUs add up: per CPU, core,
 * die, socket, node or thread; each aggregate's label, and which
 * aggregate each thread or CPU counts into.
 */
#ifndef PSTAT_AGGR_H
#define PSTAT_AGGR_H

#include <stdbool.h>
#include <stddef.h>

/* How counts are summed up: -A, --per-core, ... or all together. */
enum aggr_kind {
	AGGR_GLOBAL,
	AGGR_CPU,
	AGGR_CORE,
	AGGR_DIE,
	AGGR_SOCKET,
	AGGR_NODE,
	AGGR_THREAD,
};

/* Which aggregate each target (thread or CPU) of the evlist adds to. */
struct aggr {
	enum aggr_kind kind;
	size_t n;		/* aggregates */
	size_t *of_target;	/* target index to aggregate */
	char (*label)[40];	/* CPU0, S0-D0-C1, S0-D0, S0, N0, comm-tid */
	int *id;		/* the CPU number for AGGR_CPU, the tid for
				 * AGGR_THREAD */
	int *n_cpus;		/* CPUs in each aggregate */
	bool quiet_zeros;	/* -a --per-thread: people are shown only
				 * the threads that counted something */
};

/*
 * The aggregates of kind over a target's n ids, in its order: its CPUs
 * for the CPU kinds (placed by the topology; a CPU whose topology
 * cannot be read is in socket, die, core and node 0), its threads for
 * AGGR_THREAD (named comm-tid from /proc). A tid of 0 is a thread to
 * come, the command, until aggr_set_thread names it. Ids that share a
 * label share an aggregate. all_threads: -a --per-thread. 0, or
 * -ENOMEM; a may be freed either way.
 */
int aggr_build(struct aggr *a, enum aggr_kind kind, const int *ids, size_t n,
	       bool all_threads);

/* Thread i of the target is now tid, called comm: its aggregate's name.
 * Nothing unless a is per thread. */
void aggr_set_thread(struct aggr *a, size_t i, const char *comm, int tid);

/* Free what aggr_build allocated; harmless twice, or on a zeroed a. */
void aggr_free(struct aggr *a);

#endif
