/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What sysfs and tracefs say about event sources, under movable roots. */
#ifndef PSTAT_PMU_H
#define PSTAT_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Look somewhere else than /sys and the tracefs mount (tests); NULL
 * restores the default. PSTAT_SYSFS and PSTAT_TRACEFS in the
 * environment do the same for the program.
 */
void pmu_set_roots(const char *sysfs, const char *tracefs);

/*
 * The id of tracepoint sys:name. 0, -ENOENT when there is no such
 * tracepoint, -EACCES when tracefs may not be read, -ENODEV when no
 * tracefs is mounted.
 */
int pmu_tracepoint_id(const char *sys, size_t sys_len,
		      const char *name, size_t name_len, uint64_t *id);

/*
 * Call fn for every tracepoint whose system and name match the globs,
 * sorted by system, then name. The number of matches, or -errno as for
 * pmu_tracepoint_id, or fn's own negative return.
 */
int pmu_tracepoint_glob(const char *sys_glob, const char *name_glob,
			int (*fn)(void *arg, const char *sys,
				  const char *name, uint64_t id),
			void *arg);

/* The sysfs root in use: /sys, or what the tests or PSTAT_SYSFS set. */
const char *pmu_sysfs_root(void);

/* The tracefs events directory in use, for messages; NULL if none. */
const char *pmu_tracefs_events(void);

/* Whether the kernel shows a core (hardware) PMU: sysfs "cpu", or one
 * that names its CPUs (arm64's armv8_pmuv3, hybrid x86's cpu_core). */
bool pmu_have_core_pmu(void);

/*
 * The name of the core PMU, which perf's tables call "cpu": "cpu" on
 * x86, else the first PMU (by name) with a cpus file, as arm64's
 * armv8_pmuv3_0 (the first core of a hybrid CPU). 0, -ENOENT where
 * there is none, or -ENOMEM.
 */
int pmu_core_name(char *buf, size_t len);

/* Where a format term's bits go: config, config1 or config2. */
struct pmu_format {
	int word;		/* 0: config, 1: config1, 2: config2 */
	uint64_t mask;		/* the bits the value is spread over */
};

/* "config:0-7,32-35" into f. 0, or -EINVAL for anything else. */
int pmu_format_parse(const char *text, struct pmu_format *f);

/*
 * Spread value over f's bits, low value bits to low config bits, into
 * *word. 0, or -ERANGE when the value does not fit.
 */
int pmu_format_pack(const struct pmu_format *f, uint64_t value,
		    uint64_t *word);

/*
 * The PMUs a name means, in order: itself, or else every NAME_N (the
 * uncore_imc_0, uncore_imc_1 of uncore_imc), by N; where none is, the
 * same of uncore_NAME, as perf takes cha_0 and imc (its tables write
 * them so). The caller frees *names and each of them. The count, 0
 * when none, or -ENOMEM.
 */
int pmu_instances(const char *name, size_t len, char ***names);
void pmu_instances_free(char **names, int n);

/* A small file under the sysfs root ("devices/system/cpu/online"),
 * without its trailing newline. 0 or -errno. */
int pmu_read_sysfs(const char *rel, char *buf, size_t len);

/* A file of PMU pmu, "type" or "format/event", without its newline. */
int pmu_read(const char *pmu, const char *file, char *buf, size_t len);

/* PMU pmu's type for perf_event_attr. 0 or -errno. */
int pmu_type(const char *pmu, uint32_t *type);

/*
 * Every name in a PMU's directory dir ("format", "events"), sorted,
 * without the metadata files of events (name.scale, name.unit, ...).
 * The count, or -errno; the caller frees with pmu_instances_free.
 */
int pmu_names(const char *pmu, const char *dir, char ***names);

/* Every PMU, sorted; as pmu_names. */
int pmu_all(char ***names);

/*
 * The entry of PMU pmu's directory dir ("events", "format") that is
 * name, in any case, as perf finds aliases: its own spelling into real.
 * 0, or -ENOENT.
 */
int pmu_lookup(const char *pmu, const char *dir, const char *name,
	       char *real, size_t len);

/*
 * Every PMU with an event alias name[0..len) (any case), sorted. The
 * count, 0 when none, or -ENOMEM; free as pmu_instances_free.
 */
int pmu_alias_owners(const char *name, size_t len, char ***pmus);

/*
 * The core PMUs of a hybrid CPU, as perf 6.1 finds them: no "cpu" PMU,
 * and cpu_* PMUs that name their CPUs in a "cpus" file (cpu_atom,
 * cpu_core), sorted. The count, 0 when the CPU is not hybrid, or
 * -ENOMEM; free as pmu_instances_free.
 */
int pmu_hybrid_cores(char ***names);

/* Whether pmu is one of pmu_hybrid_cores. */
bool pmu_is_hybrid_core(const char *pmu);

#endif
