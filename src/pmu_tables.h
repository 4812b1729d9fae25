/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf's event and metric tables (its pmu-events JSON) for one CPU model. */
#ifndef PSTAT_PMU_TABLES_H
#define PSTAT_PMU_TABLES_H

#include <stdbool.h>
#include <stddef.h>

/*
 * One CPU model's events and metrics, read with json-c from the files
 * perf builds its own tables from (tools/perf/pmu-events/arch in the
 * kernel's source): arch/ARCH/mapfile.csv says which directory holds
 * the model of a CPUID string, and every .json file there is read.
 * Opaque; every string below lives as long as the tables.
 */
struct pmu_tables;

/*
 * A metric (an entry with MetricName and MetricExpr): the JSON's text,
 * NULL where the entry has no such key. expr may name events of the
 * model, other metrics (which the evaluator resolves) and perf's
 * literals (#slots, #SMT_on, duration_time).
 */
struct pmu_metric {
	const char *name;		/* MetricName */
	const char *expr;		/* MetricExpr */
	const char *groups;		/* MetricGroup: ';'-separated */
	const char *desc;		/* BriefDescription, as perf shows it */
	const char *threshold;		/* MetricThreshold: an expression */
	const char *scale_unit;		/* ScaleUnit: "100%", "1GHz" */
	const char *constraint;		/* MetricConstraint: NO_GROUP_EVENTS */
	const char *nogroup_groups;	/* MetricgroupNoGroup: ';'-separated */
	const char *default_group;	/* DefaultMetricgroupName */
	/* jevents.py's topic: "metrics" for a file named *metrics.json,
	 * else the file's name without .json, '-' made ' '. */
	const char *topic;
	/* "cpu" (the core PMU, whatever sysfs names it), or Unit's PMU:
	 * cpu_core and cpu_atom of a hybrid CPU. */
	const char *pmu;
};

/*
 * An event (an entry with EventName, or its ArchStdEvent's): terms is
 * the string perf's jevents.py makes of its fields, for pmu/terms/:
 * "event=0xc0,period=2000003", "event=0xb7,period=100003,umask=1,
 * offcore_rsp=0x10001". pmu is "cpu" for the core PMU, or the PMU the
 * Unit names as jevents.py names it ("uncore_cha", "cpu_atom"), which
 * means every PMU of that name and its _N instances.
 */
struct pmu_event {
	const char *name;		/* EventName, as the JSON spells it */
	const char *desc;		/* BriefDescription, as perf shows it */
	const char *pmu;
	const char *terms;
	const char *scale_unit;		/* ScaleUnit, or NULL */
	bool per_pkg;			/* PerPkg: one count per package */
	bool deprecated;
	const char *counter;		/* Counter: "0,1,2,3", "Fixed counter
					 * 1"; or NULL */
};

/* counter.json's entry: the counters of a PMU (pmu as an event's). */
struct pmu_counters {
	const char *pmu;
	unsigned int generic, fixed;
};

/* A metric group: a name in some metric's MetricGroup. */
struct pmu_group {
	const char *name;
	const char *desc;	/* the model's metricgroups.json's, or NULL */
	size_t n_metrics;
};

/*
 * What a load reads: a model's events (for their names), its metrics
 * (and their groups), or both. Files that hold none of what is wanted
 * are not parsed: most of a model's bytes are events.
 */
enum pmu_tables_want {
	PMU_TABLES_EVENTS = 1 << 0,
	PMU_TABLES_METRICS = 1 << 1,
};

/*
 * The tables (want: enum pmu_tables_want's) of the model of PERF_CPUID
 * (as perf, but read with secure_getenv), or else of this CPU: perf's
 * CPUID string (x86: vendor-family-model-stepping from the cpuid
 * instruction; arm64: the MIDR of the first online CPU in sysfs, under
 * PSTAT_SYSFS as pmu.c reads it). From PSTAT_PMU_EVENTS (secure_getenv)
 * or else the installed directory. 0; -ENOENT when no model is there
 * for the CPUID (err says which CPUID, where pstat looked and how to
 * choose one), -EINVAL for a file that is not perf's JSON (err names
 * it), -ENOMEM, or -errno of a file that could not be read (err says
 * which). The caller frees *t (pmu_tables_free).
 */
int pmu_tables_load(struct pmu_tables **t, unsigned int want, char *err,
		    size_t len);

/* The same for the model of cpuid: a MIDR ("0x...") in arm64's
 * mapfile, any other string in x86's, matched as perf matches them. */
int pmu_tables_load_cpuid(struct pmu_tables **t, const char *cpuid,
			  unsigned int want, char *err, size_t len);

/* The directory pstat reads the tables from: PSTAT_PMU_EVENTS, or the
 * installed one. */
const char *pmu_tables_dir(void);

/*
 * This CPU's CPUID string as perf builds it, into buf. 0, or -ENOSYS
 * on an architecture pstat reads none of, or pmu_tables_midr's error.
 */
int pmu_tables_host_cpuid(char *buf, size_t len);

/*
 * arm64's CPUID string: the MIDR of the first online CPU that shows
 * one (devices/system/cpu/cpuN/regs/identification/midr_el1 under the
 * sysfs root). 0, or -ENOENT when none does, or -errno.
 */
int pmu_tables_midr(char *buf, size_t len);

/* The CPUID string the tables were chosen by, and the mapfile's
 * directory of the model ("skylakex", "arm/neoverse-n1"). */
const char *pmu_tables_cpuid(const struct pmu_tables *t);
const char *pmu_tables_model(const struct pmu_tables *t);

/* The metrics, sorted by name in any case; entries of one name (one a
 * core PMU on hybrid CPUs) next to one another, by PMU. */
size_t pmu_tables_n_metrics(const struct pmu_tables *t);
const struct pmu_metric *pmu_tables_metric_at(const struct pmu_tables *t,
					      size_t i);

/* The first metric named name, in any case (as perf), or NULL; *n (n
 * may be NULL) how many of that name follow from it, itself included. */
const struct pmu_metric *pmu_tables_metric(const struct pmu_tables *t,
					   const char *name, size_t *n);

/*
 * The metrics perf's -M word picks: those of that name or in a group of
 * that name, in any case; "all" every one, "No_group" those in none.
 * How many, the first max of them into out (out may be NULL).
 */
size_t pmu_tables_select(const struct pmu_tables *t, const char *word,
			 const struct pmu_metric **out, size_t max);

/* Whether the ';'-separated list (groups, nogroup_groups; NULL: none)
 * holds name, in any case. */
bool pmu_tables_listed(const char *list, const char *name);

/* The metric groups, sorted by name in any case, and one by name. */
size_t pmu_tables_n_groups(const struct pmu_tables *t);
const struct pmu_group *pmu_tables_group_at(const struct pmu_tables *t,
					    size_t i);
const struct pmu_group *pmu_tables_group(const struct pmu_tables *t,
					 const char *name);

/*
 * The metric and group names closest to an unknown word, for "did you
 * mean": those that end in "_WORD" (perf 6.12's names for 6.1's: IPC is
 * tma_info_thread_ipc), else those the fewest edits away, in any case,
 * and no more than a third of its length. How many, the first max of
 * them into out.
 */
size_t pmu_tables_closest(const struct pmu_tables *t, const char *word,
			  const char **out, size_t max);

/* The names nearest to word however far (fewest edits, in any case):
 * for a word that no name is close to. */
size_t pmu_tables_nearest(const struct pmu_tables *t, const char *word,
			  const char **out, size_t max);

/* The counters the tables give pmu (an event's pmu: "cpu" for the
 * core PMU), or NULL: counter.json, of Intel's models, loaded with
 * PMU_TABLES_EVENTS. */
const struct pmu_counters *pmu_tables_counters(const struct pmu_tables *t,
					       const char *pmu);

/* The events, sorted as the metrics; one by name, as a metric. */
size_t pmu_tables_n_events(const struct pmu_tables *t);
const struct pmu_event *pmu_tables_event_at(const struct pmu_tables *t,
					    size_t i);
const struct pmu_event *pmu_tables_event(const struct pmu_tables *t,
					 const char *name, size_t *n);

/*
 * e's terms for a counter: without period= (SampleAfterValue, a
 * sampling period, which perf stat leaves out of a counter's attr).
 * The caller's to free; NULL when out of memory.
 */
char *pmu_tables_counting_terms(const struct pmu_event *e);

/* NULL-safe. */
void pmu_tables_free(struct pmu_tables *t);

#endif
