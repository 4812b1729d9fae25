/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One event term to its perf_event_attr: names, tracepoints, modifiers. */
#ifndef PSTAT_EVENT_H
#define PSTAT_EVENT_H

#include <stddef.h>
#include <linux/perf_event.h>

/* A zeroed attr of this header's size. */
void event_attr_init(struct perf_event_attr *attr);

/* A hardware or software event by perf's name; 0 or -ENOENT. */
int event_from_name(struct perf_event_attr *attr, const char *name,
		    size_t len);

/* A tracepoint; 0 or the error of pmu_tracepoint_id(). */
int event_from_tracepoint(struct perf_event_attr *attr, const char *sys,
			  size_t sys_len, const char *name, size_t name_len);

/* Whether c is a modifier letter this version knows. */
int event_is_modifier(char c);

/*
 * Apply modifier letters on top of what attr already excludes, as perf
 * does. 0, or -EINVAL with *bad set to the offset of the letter at fault.
 */
int event_apply_modifiers(struct perf_event_attr *attr, const char *mods,
			  size_t len, size_t *bad);

#endif
