/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One counter: the event as described, opened once per target, and
 * what each target last read. Opaque: only evsel.c and evlist.c (by
 * evsel_impl.h) see inside.
 */
#ifndef PSTAT_EVSEL_H
#define PSTAT_EVSEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "event_table.h"

struct counts_values;
struct evsel;

/* One event as the parser describes it, complete before it is added. */
struct evsel_desc {
	struct perf_event_attr attr;
	const char *name;	/* as the user spelled it, modifiers too */
	bool has_modifiers;	/* the name already ends in modifiers */
	const char *pmu;	/* its PMU of its own (msr, uncore_imc_0), for
				 * the CPUs it counts on; or NULL */
	const char *instance;	/* "pmu_N/terms/" of a PMU with several
				 * instances, for --no-merge; or NULL */
	bool merge_cont;	/* sums into the event before it */
	double scale;		/* from sysfs .scale, else 1 */
	const char *unit;	/* from sysfs .unit, else NULL */
	bool precise_max;	/* :P, the highest precise_ip that opens */
	bool weak;		/* in a :W group */
	enum event_tool tool;	/* counted by pstat, or EVENT_TOOL_NONE */
	const char *source;	/* where its encoding came from ("libpfm4,
				 * model skl (...)"), for --explain; or NULL */
};

/* A counter for d, closed; its PMU's cpumask read. NULL: no memory. */
struct evsel *evsel_new(const struct evsel_desc *d);

/*
 * The description of e's event, for a counter of the same event on
 * tasks (any CPU): its strings are e's, valid while e is; no PMU, so
 * no cpumask is read again.
 */
void evsel_describe(const struct evsel *e, struct evsel_desc *d);
void evsel_free(struct evsel *e);

/* The name shown: as spelled, with :u when the kernel made it so. */
const char *evsel_name(const struct evsel *e);
/* The cgroup it counts in (-G), as named, or NULL. */
const char *evsel_cgroup(const struct evsel *e);
/* Its PMU instance as "pmu_N/terms/", or NULL: for --no-merge. */
const char *evsel_instance(const struct evsel *e);
const struct perf_event_attr *evsel_attr(const struct evsel *e);
double evsel_scale(const struct evsel *e);
/* sysfs's unit, or "". */
const char *evsel_unit(const struct evsel *e);
/* It sums into the evsel before it: another instance of its PMU. */
bool evsel_merges(const struct evsel *e);
bool evsel_precise_max(const struct evsel *e);
enum event_tool evsel_tool(const struct evsel *e);
/* Where its encoding came from, or NULL: pstat's own. */
const char *evsel_source(const struct evsel *e);

/* Whether its PMU counts on cpu (-1: any CPU, always). */
bool evsel_counts_on(const struct evsel *e, int cpu);

/*
 * What opening it found: the errno that left it unsupported (0 if
 * none), and the target where that happened.
 */
int evsel_open_err(const struct evsel *e);
void evsel_failed_on(const struct evsel *e, int *pid, int *cpu);
/* :u added because the kernel refused the kernel part (paranoid). */
bool evsel_user_only(const struct evsel *e);
/* Its PMU takes it, but not with its modifiers (msr/tsc/u). */
bool evsel_modifiers_refused(const struct evsel *e);
/* Its weak group was refused whole and split to open. */
bool evsel_split(const struct evsel *e);

/*
 * A read of its group found end of file: the kernel put the group in
 * error state (a pinned group it could not keep on the PMU), and it
 * counts no more. Until the next open.
 */
bool evsel_in_error(const struct evsel *e);

/* Whether any target's counter is open. */
bool evsel_is_open(const struct evsel *e);

/* Whether target t's counter is open (not where its PMU does not count). */
bool evsel_open_on(const struct evsel *e, size_t t);

/* The targets it is opened on, and what target t read last. */
size_t evsel_targets(const struct evsel *e);
const struct counts_values *evsel_value(const struct evsel *e, size_t t);

/*
 * Open a disabled counter of type and config on pid (0: pstat itself)
 * and cpu, user space only if asked, and close it: 0 when the kernel
 * takes it, else its errno.
 */
int evsel_probe(uint32_t type, uint64_t config, bool user_only, int pid,
		int cpu);

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
