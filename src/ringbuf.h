/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The records of a perf ring buffer (perf_event_open(2), "MMAP layout"):
 * taken one by one from its data area, across its end, and decoded.
 * Pure: the caller maps the buffer and moves data_tail.
 */
#ifndef PSTAT_RINGBUF_H
#define PSTAT_RINGBUF_H

#include <stddef.h>
#include <stdint.h>

/* The largest record kept whole; a longer one is passed over. */
#define RINGBUF_RECORD_MAX 4096

/* One record, copied out of the buffer (so it is whole in memory). */
struct ringbuf_record {
	uint32_t type;		/* PERF_RECORD_*, 0: one passed over */
	size_t size;		/* header included */
	union {
		unsigned char bytes[RINGBUF_RECORD_MAX];
		uint64_t align;
	} u;
};

/*
 * The data area: size bytes (a power of two) at data, of which the
 * kernel has written up to head (counted from the start, not wrapped).
 */
struct ringbuf_view {
	const unsigned char *data;
	uint64_t size;
	uint64_t head;
};

/*
 * The record at *tail, into rec, and *tail past it: 1; 0 when there is
 * none left (*tail == head); -EBADMSG when the buffer makes no sense
 * (a record shorter than its header, or past head): the caller then
 * drops what is left. A record longer than RINGBUF_RECORD_MAX is
 * passed over: 1 with rec->type 0.
 */
int ringbuf_next(const struct ringbuf_view *v, uint64_t *tail,
		 struct ringbuf_record *rec);

/* What pstat takes from a record. */
enum ringbuf_kind {
	RINGBUF_OTHER,		/* a type pstat does not read: skip it */
	RINGBUF_READ,		/* a task ended: its counts */
	RINGBUF_COMM,		/* a task took a name (exec, prctl) */
	RINGBUF_FORK,		/* a task was made */
	RINGBUF_LOST,		/* records the kernel had no room for */
};

struct ringbuf_event {
	enum ringbuf_kind kind;
	uint32_t pid, tid;	/* READ, COMM, FORK: the task */
	uint32_t ptid;		/* FORK: the task that made it */
	const char *comm;	/* COMM: NUL-terminated, in the record */
	const uint64_t *values;	/* READ: the read_format's u64s */
	size_t n_values;
	uint64_t lost;		/* LOST: how many */
};

/*
 * Decode rec (which must outlive ev). 0, or -EBADMSG when a record of a
 * kind pstat reads is too short for it.
 */
int ringbuf_decode(const struct ringbuf_record *rec,
		   struct ringbuf_event *ev);

#endif
