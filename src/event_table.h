/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The static tables of named events: hardware and software, with
 * aliases; perf stat's default and -d event sets.
 */
#ifndef PSTAT_EVENT_TABLE_H
#define PSTAT_EVENT_TABLE_H

#include <stddef.h>
#include <stdint.h>

/*
 * perf's tool events: pstat counts them itself, in nanoseconds, on a
 * dummy counter that the kernel keeps in the group as any other.
 */
enum event_tool {
	EVENT_TOOL_NONE,
	EVENT_TOOL_DURATION,	/* duration_time: wall-clock time counting */
	EVENT_TOOL_USER,	/* user_time: the command's user CPU time */
	EVENT_TOOL_SYSTEM,	/* system_time: its system CPU time */
	EVENT_TOOL_N
};

struct event_def {
	const char *name;
	size_t len;		/* of name */
	uint32_t type;		/* PERF_TYPE_HARDWARE or PERF_TYPE_SOFTWARE */
	uint64_t config;
	const char *alias_of;	/* the canonical name, NULL for it */
	enum event_tool tool;	/* a tool event: its kind; config is the
				 * software dummy */
};

/* The row named exactly name[0..len), or NULL. */
const struct event_def *event_table_find(const char *name, size_t len);

/* Every row, canonical names first in each kind; *n gets the count. */
const struct event_def *event_table_all(size_t *n);

/*
 * The known name nearest to name[0..len) (case-insensitive edit
 * distance), or NULL when nothing is close enough to be a typo.
 */
const char *event_table_suggest(const char *name, size_t len);

/*
 * A hardware cache event in perf's grammar, <cache>[-<op>][-<result>]
 * (L1-dcache-load-misses, LLC-loads, dTLB-load-misses), any spelling
 * perf takes, case-insensitive. 0 with config = cache | op << 8 |
 * result << 16; -ENOENT when name is not one; -EOPNOTSUPP when the cache
 * has no such operation (L1-icache-stores).
 */
int event_table_cache(const char *name, size_t len, uint64_t *config);

/*
 * The i-th cache event under its canonical name, as perf lists it.
 * 0, or -ENOENT past the last one.
 */
int event_table_cache_at(size_t i, char *buf, size_t len, uint64_t *config);

/* perf stat's default events, as an -e list. */
const char *event_table_default_set(void);

/*
 * The events the level-th -d adds to those of the levels below it
 * (-d, -dd, -ddd: 1 to 3), as an -e list; NULL past the last level.
 */
const char *event_table_detailed_set(int level);

#endif
