/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What sysfs and tracefs say about event sources, under movable roots. */
#ifndef PSTAT_PMU_H
#define PSTAT_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Look somewhere else than /sys and the tracefs mount (unit tests);
 * NULL restores the default.
 */
void pmu_set_roots(const char *sysfs, const char *tracefs);

/*
 * The id of tracepoint sys:name. 0, -ENOENT when there is no such
 * tracepoint, -EACCES when tracefs may not be read, -ENODEV when no
 * tracefs is mounted.
 */
int pmu_tracepoint_id(const char *sys, size_t sys_len,
		      const char *name, size_t name_len, uint64_t *id);

/* The tracefs events directory in use, for messages. */
const char *pmu_tracefs_events(void);

/* Whether the kernel shows a core (hardware) PMU. */
bool pmu_have_core_pmu(void);

#endif
