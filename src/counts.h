/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counter values: group read decoding and multiplex scaling (pure). */
#ifndef PSTAT_COUNTS_H
#define PSTAT_COUNTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What one read said about one counter. */
struct counts_values {
	uint64_t value;
	uint64_t enabled;
	uint64_t running;
};

enum counts_state {
	COUNTS_COUNTED,		/* exact: it ran the whole time it was enabled */
	COUNTS_SCALED,		/* multiplexed: an estimate */
	COUNTS_NOT_COUNTED,	/* enabled but never ran */
	COUNTS_NOT_SUPPORTED,	/* the kernel does not have the event here */
};

/* A value and what it is worth. */
struct counts_result {
	enum counts_state state;
	uint64_t value;		/* estimate, saturated at UINT64_MAX */
	double running_pct;	/* 100 * running / enabled; 100 when exact */
};

void counts_scale(const struct counts_values *v, struct counts_result *r);

/* Whether r holds a count, exact or estimated: what every format shows
 * as a number, and a metric may use. */
static inline bool counts_counted(const struct counts_result *r)
{
	return r->state == COUNTS_COUNTED || r->state == COUNTS_SCALED;
}

/*
 * A PERF_FORMAT_GROUP read with ID, TOTAL_TIME_ENABLED and
 * TOTAL_TIME_RUNNING: nr, enabled, running, then nr (value, id) pairs.
 */
struct counts_group {
	uint64_t nr;
	uint64_t enabled;
	uint64_t running;
	const uint64_t *entries;	/* value, id, value, id, ... */
};

/* The bytes a group read of nr events needs. */
size_t counts_group_size(size_t nr);

/* 0, or -EIO when len and the nr inside the buffer disagree. */
int counts_group_decode(const uint64_t *buf, size_t len,
			struct counts_group *g);

#endif
