/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One counter: its attr, its name, its descriptor and what it read. */
#ifndef PSTAT_EVSEL_H
#define PSTAT_EVSEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "counts.h"

struct evsel {
	struct perf_event_attr attr;
	char *name;		/* as the user spelled it */
	char *instance;		/* pmu_N/terms/ of a PMU with several
				 * instances, for --no-merge; or NULL */
	bool merge_cont;	/* sums into the evsel before it */
	bool has_modifiers;	/* the name already ends in modifiers */
	bool precise_max;	/* :P, the highest precise_ip that opens */
	bool weak;		/* in a :W group */
	bool pinned;		/* :D, which the kernel takes on leaders */
	bool exclusive;		/* :e, likewise */
	bool split;		/* its weak group was split to open */
	int *cpus;		/* its PMU's cpumask, or NULL for any CPU */
	int n_cpus;
	double scale;		/* from sysfs .scale, else 1 */
	char unit[32];		/* from sysfs .unit, else empty */
	size_t group;		/* index of its group in the evlist */
	int open_err;		/* errno that left it unsupported, or 0 */
	int err_pid, err_cpu;	/* the target open_err came from */
	bool user_only;		/* :u added: the kernel refused to count
				 * kernel activity (perf_event_paranoid) */
	bool modifiers_refused;	/* its PMU takes it, but not with its
				 * modifiers (msr/tsc/u): unsupported */

	/* One counter per target (a thread or a CPU), after evsel_alloc. */
	size_t n_targets;
	int *fds;		/* -1 when closed or never opened */
	uint64_t *ids;		/* PERF_EVENT_IOC_ID of each */
	struct counts_values *tvals;	/* the last read of each */
	struct counts_values vals;	/* their sum */
};

/* 0 or -ENOMEM; the evsel owns a copy of name[0..len). */
int evsel_init(struct evsel *e, const struct perf_event_attr *attr,
	       const char *name, size_t len, size_t group);
void evsel_fini(struct evsel *e);

/* Append text to the name (group modifiers); 0 or -ENOMEM. */
int evsel_name_append(struct evsel *e, const char *text, size_t len);

/* Room for n targets, all closed. 0 or -ENOMEM. */
int evsel_alloc(struct evsel *e, size_t n);

/*
 * Open target t. 0 or -errno (then also in open_err, err_pid and
 * err_cpu). When the kernel refuses to count kernel activity (EACCES
 * under perf_event_paranoid >= 2, for a task), the event is counted in
 * user space only, as :u, like perf does.
 */
int evsel_open(struct evsel *e, size_t t, int pid, int cpu, int group_fd);
void evsel_close(struct evsel *e);

/*
 * Open a disabled counter of type and config on pid (0: pstat itself)
 * and cpu, user space only if asked, and close it: 0 when the kernel
 * takes it, else its errno.
 */
int evsel_probe(uint32_t type, uint64_t config, bool user_only, int pid,
		int cpu);

/* Whether any target's counter is open. */
bool evsel_is_open(const struct evsel *e);

/* Whether an open error means the event does not exist here. */
bool evsel_err_unsupported(int err);

/* The event counts time in nanoseconds (task-clock, cpu-clock). */
bool evsel_is_clock(const struct evsel *e);

/*
 * The kernel counts the event only in kernel mode, so with the kernel
 * left out it reads 0 whatever happened: context-switches,
 * cpu-migrations, cgroup-switches and tracepoints other than
 * syscalls:* (COUNTING_NOTES 1.4).
 */
bool evsel_kernel_only(const struct evsel *e);

#endif
