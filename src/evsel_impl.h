/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside a counter: for evsel.c and evlist.c, which opens and reads it. */
#ifndef PSTAT_EVSEL_IMPL_H
#define PSTAT_EVSEL_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "counts.h"
#include "evsel.h"

struct evsel {
	struct perf_event_attr attr;
	char *name;		/* in text, or its own when made longer */
	bool has_modifiers;	/* the name already ends in modifiers */
	char *instance;		/* see evsel_instance */
	bool merge_cont;
	double scale;
	char *unit;		/* in text */
	char *source;		/* see evsel_source */
	bool precise_max;
	bool weak;
	enum event_tool tool;
	bool pinned;		/* :D, which the kernel takes on leaders */
	bool exclusive;		/* :e, likewise */
	int *cpus;		/* its PMU's cpumask, or NULL for any CPU */
	int n_cpus;
	size_t group;		/* its group in the evlist, set there */
	bool split;
	int open_err;
	int err_pid, err_cpu;
	bool user_only;
	bool modifiers_refused;
	const char *cgroup;	/* -G: the cgroup counted in, or NULL */
	int cgroup_fd;		/* its directory, owned by the caller; -1 */

	/* One counter per target (a thread or a CPU), after evsel_alloc. */
	size_t n_targets;
	int *fds;		/* -1 when closed or never opened */
	uint64_t *ids;		/* PERF_EVENT_IOC_ID of each */
	struct counts_values *tvals;	/* the last read of each; fds and
					 * ids are in its allocation */
	bool tvals_owned;	/* false: the evlist's (evsel_place) */
	bool in_error;		/* a read of its group found end of file */
	bool on;		/* enabled by pstat (members are at open) */
	bool counting;		/* it and its leader on: the kernel counts it */
	uint64_t starts;	/* times it began counting since the open */
	char text[];		/* the unit, then the name (see evsel_new) */
};

/* Room for n targets, all closed. 0 or -ENOMEM. */
int evsel_alloc(struct evsel *e, size_t n);

/*
 * The bytes evsel_place takes for n targets: their values, ids and
 * descriptors, a multiple of 8 so that the next evsel's are aligned.
 */
size_t evsel_room(size_t n);

/*
 * Room for n targets, all closed, in mem (evsel_room(n) zeroed bytes
 * that the caller owns and frees after the evsel's last use): one
 * allocation for every evsel of an evlist, not one each.
 */
void evsel_place(struct evsel *e, size_t n, void *mem);

/*
 * Open target t. 0 or -errno (then also in open_err, err_pid and
 * err_cpu). When the kernel refuses to count kernel activity (EACCES
 * under perf_event_paranoid >= 2, for a task), the event is counted in
 * user space only, as :u, like perf does. need_id: ask the kernel for
 * the counter's id (PERF_EVENT_IOC_ID), by which a group's read is
 * matched; a group of one needs none.
 */
int evsel_open(struct evsel *e, size_t t, int pid, int cpu, int group_fd,
	       bool need_id);
void evsel_close(struct evsel *e);

#endif
