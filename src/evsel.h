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
	size_t group;		/* index of its group in the evlist */
	int fd;			/* -1 when closed */
	int open_err;		/* errno of a failed open, 0 otherwise */
	uint64_t id;		/* PERF_EVENT_IOC_ID */
	struct counts_values vals;
};

/* 0 or -ENOMEM; the evsel owns a copy of name[0..len). */
int evsel_init(struct evsel *e, const struct perf_event_attr *attr,
	       const char *name, size_t len, size_t group);
void evsel_fini(struct evsel *e);

/* Append text to the name (group modifiers); 0 or -ENOMEM. */
int evsel_name_append(struct evsel *e, const char *text, size_t len);

int evsel_open(struct evsel *e, int pid, int cpu, int group_fd);
void evsel_close(struct evsel *e);

/* Whether an open error means the event does not exist here. */
bool evsel_err_unsupported(int err);

/* The event counts time in nanoseconds (task-clock, cpu-clock). */
bool evsel_is_clock(const struct evsel *e);
bool evsel_is_task_clock(const struct evsel *e);

#endif
