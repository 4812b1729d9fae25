/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One event term to its perf_event_attr: names, caches, raw, PMU terms,
 * tracepoints, breakpoints and modifiers. */
#ifndef PSTAT_EVENT_H
#define PSTAT_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "error.h"

/* A zeroed attr of this header's size. */
void event_attr_init(struct perf_event_attr *attr);

/*
 * A hardware, software or hardware-cache event by perf's name, or a raw
 * event rNNNN / r0xNNNN. 0, -ENOENT, or -EOPNOTSUPP for a cache
 * operation that the cache does not have.
 */
int event_from_name(struct perf_event_attr *attr, const char *name,
		    size_t len);

/*
 * A generic hardware or cache event, or a raw one, for one core PMU of a
 * hybrid CPU, as perf 6.1 encodes it: the PMU's type in the upper 32
 * bits of config (PERF_PMU_TYPE_SHIFT), or as the type of a raw event.
 * Other events are left as they are.
 */
void event_on_core_pmu(struct perf_event_attr *attr, uint32_t pmu_type);

/* A tracepoint by its id. */
void event_from_tracepoint(struct perf_event_attr *attr, uint64_t id);

/*
 * A breakpoint: type from the letters r, w and x ("" for rw), length 0
 * for perf's default (the size of a long for x, else 4). 0 or -EINVAL
 * with err filled in (offsets into type).
 */
int event_from_breakpoint(struct perf_event_attr *attr, uint64_t addr,
			  uint64_t len, const char *type, size_t type_len,
			  struct error *err);

/* What a PMU event brings besides its attr. */
struct event_pmu_extra {
	char name[256];		/* from name=, else empty */
	double scale;		/* from an alias's .scale, else 1 */
	char unit[32];		/* from an alias's .unit, else empty */
};

/*
 * Where event_from_pmu finds an event name that neither the PMU's
 * format nor its sysfs aliases know: perf's tables (evparse sets it),
 * as perf takes cpu_atom/TOPDOWN_BE_BOUND.ALL/. The name's terms into
 * buf (len bytes), 0; -ENOENT where no table has it for pmu; -errno.
 */
typedef int (*event_table_alias_fn)(const char *pmu, const char *name,
				    char *buf, size_t len);
void event_set_table_alias(event_table_alias_fn fn);

/*
 * The terms of pmu/terms/ for PMU pmu: format terms from sysfs, the
 * built-in config, config1, config2 and name, the PMU's event aliases
 * and the names of perf's tables (event_set_table_alias). 0, or
 * -EINVAL with err (offsets into terms), or -errno.
 */
int event_from_pmu(struct perf_event_attr *attr, const char *pmu,
		   const char *terms, size_t len, struct event_pmu_extra *x,
		   struct error *err);

/* Modifiers that are not attr bits. */
struct event_mods {
	bool precise_max;	/* P: the highest precise_ip that opens */
	bool weak;		/* W: a group that may split when refused */
};

/* Whether c is a modifier letter. */
bool event_is_modifier(char c);

/*
 * Apply modifier letters on top of what attr already has, as perf does.
 * 0, or -EINVAL with err->off at the letter at fault.
 */
int event_apply_modifiers(struct perf_event_attr *attr, const char *mods,
			  size_t len, struct event_mods *m,
			  struct error *err);

#endif
