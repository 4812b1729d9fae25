/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The set of counters and their groups: build, open, read, close. */
#ifndef PSTAT_EVLIST_H
#define PSTAT_EVLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/perf_event.h>

#include "evsel.h"

struct evlist;

struct evlist *evlist_new(void);
void evlist_free(struct evlist *el);

/*
 * Add a counter. Outside evlist_group_begin/end each counter is a group
 * of one. 0 or -ENOMEM.
 */
int evlist_add(struct evlist *el, const struct perf_event_attr *attr,
	       const char *name, size_t name_len);
void evlist_group_begin(struct evlist *el);
void evlist_group_end(struct evlist *el);

size_t evlist_count(const struct evlist *el);
struct evsel *evlist_at(struct evlist *el, size_t i);
const struct evsel *evlist_at_const(const struct evlist *el, size_t i);

struct evlist_target {
	int pid;		/* the task, or -1 for a CPU */
	int cpu;		/* the CPU, or -1 for any */
	bool inherit;		/* count children and threads too */
	bool enable_on_exec;	/* the kernel starts counting at exec */
};

/*
 * Open every group on the target. An event the kernel does not have
 * here is left closed with its open_err, and the next member of its
 * group leads instead. 0, or -errno of the first fatal failure with
 * *failed set to that evsel; everything opened is closed again then.
 */
int evlist_open(struct evlist *el, const struct evlist_target *t,
		size_t *failed);

/* One read per group, values matched by id. 0 or -errno. */
int evlist_read(struct evlist *el);

/* Close every descriptor; harmless when already closed. */
void evlist_close(struct evlist *el);

#endif
