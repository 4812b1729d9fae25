/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The set of counters and their groups: build, open, read, close. */
#ifndef PSTAT_EVLIST_H
#define PSTAT_EVLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/perf_event.h>

#include "evsel.h"

struct evlist;
struct target;

struct evlist *evlist_new(void);
void evlist_free(struct evlist *el);

/*
 * A new evlist of el's events in el's groups, closed, for tasks on any
 * CPU (no cgroups): pstat top's counters of one more task. NULL: no
 * memory.
 */
struct evlist *evlist_copy(const struct evlist *el);

/* Where every event added from now on counts, whatever its modifiers. */
enum evlist_space {
	EVLIST_SPACE_AS_GIVEN,	/* as its modifiers say */
	EVLIST_SPACE_USER,	/* --all-user: user space only */
	EVLIST_SPACE_KERNEL,	/* --all-kernel: the kernel only */
};
void evlist_set_space(struct evlist *el, enum evlist_space space);

/*
 * Add a counter for the event d describes, complete. Outside
 * evlist_group_begin/end each counter is a group of one. 0 or -ENOMEM.
 */
int evlist_add(struct evlist *el, const struct evsel_desc *d);

/*
 * Room for n more counters (and groups), at once: a parser that knows
 * about how many are coming saves the copies of growing one by one.
 * 0 or -ENOMEM; more may still be added past n.
 */
int evlist_reserve(struct evlist *el, size_t n);
void evlist_group_begin(struct evlist *el);

/*
 * Count evsel i in the cgroup name (kept, not copied), whose directory
 * fd the caller keeps open until the evlist is freed: perf's -G names
 * the events before it, so they are added first.
 */
void evlist_set_cgroup(struct evlist *el, size_t i, const char *name,
		       int fd);
/* Whether -G or --for-each-cgroup named any: rows show a cgroup. */
bool evlist_has_cgroups(const struct evlist *el);
void evlist_group_end(struct evlist *el);

size_t evlist_count(const struct evlist *el);
const struct evsel *evlist_at(const struct evlist *el, size_t i);

/* Each evsel e of el, in order, with its index i. */
#define evlist_for_each(el, i, e)					\
	for ((i) = 0; (i) < evlist_count(el) && ((e) = evlist_at(el, i)); \
	     (i)++)

/* Counter i's group: its number, and its members, first the leader. */
struct evlist_group {
	size_t index;
	size_t first, n;
};
struct evlist_group evlist_group_of(const struct evlist *el, size_t i);

/*
 * Give every evsel the attr it would be opened with on target t, as if
 * every event opened: for --explain.
 */
void evlist_configure(struct evlist *el, const struct target *t);

/*
 * Open every group on every target. An event the kernel does not have
 * here is left closed with its open_err, and the next member of its
 * group leads instead. A weak group (:W) that the kernel refuses whole
 * is split into groups of one, marked split. 0, or -errno of the first
 * fatal failure with *failed set to that evsel, or to EVLIST_NO_EVSEL
 * when pstat itself ran out of memory; everything opened is closed
 * again then.
 */
int evlist_open(struct evlist *el, const struct target *t,
		size_t *failed);
#define EVLIST_NO_EVSEL ((size_t)-1)

/*
 * The member of evsel i's group that led it when evlist_open failed on
 * i: the first before it that opened there (one the kernel does not
 * have stepped aside for the next); NULL when i led.
 */
const struct evsel *evlist_open_leader(const struct evlist *el, size_t i);

/* The number of targets opened: threads x CPUs. */
size_t evlist_targets(const struct evlist *el);

/*
 * Every open counter writes its records to the ring buffer of counter
 * fd (PERF_EVENT_IOC_SET_OUTPUT): the kernel maps no inherited per-task
 * counter itself (EINVAL), but lets it write into another's buffer. 0
 * or -errno.
 */
int evlist_redirect(struct evlist *el, int fd);

/* The evsel whose counter has id (PERF_EVENT_IOC_ID), in *i. */
bool evlist_find_id(const struct evlist *el, uint64_t id, size_t *i);

/*
 * One read per group and target, values matched by id: each evsel's
 * per-target values (evsel_value). 0 or -errno.
 */
int evlist_read(struct evlist *el);

/*
 * The values of the tool events (duration_time, ...) after a read:
 * ns[tool] nanoseconds, on the first target, which the kernel's dummy
 * counter does not know.
 */
void evlist_tool_values(struct evlist *el, const uint64_t ns[EVENT_TOOL_N]);

/* Start and stop every group on every target (ioctl on the leaders). */
int evlist_enable(struct evlist *el);
int evlist_disable(struct evlist *el);

/*
 * Start or stop the events named name (as shown) alone, on every
 * target: --control's "enable NAME". 0, -ENOENT when no event has that
 * name (nothing changes), or -errno.
 */
int evlist_toggle_named(struct evlist *el, const char *name, bool enable);

/*
 * Whether evsel i counts now, as pstat left it: enabled (at the exec,
 * or by evlist_enable, or by name) and so is its group's leader; and
 * how many times it began to since it was opened. A window of time in
 * which an evsel never counted is <not counted>, not 0, whatever its
 * reading says.
 */
bool evlist_counting(const struct evlist *el, size_t i, uint64_t *starts);

/* How many descriptors opening needs: events x targets. */
size_t evlist_fds_needed(const struct evlist *el, size_t n_targets);

/*
 * Keep each tracepoint registered until evlist_free, with a disabled
 * counter on pstat itself: its last close costs tens of milliseconds,
 * and repeated runs would pay it every time. Best effort.
 */
void evlist_anchor_tracepoints(struct evlist *el);

/* Close every descriptor; harmless when already closed. */
void evlist_close(struct evlist *el);

/*
 * The counters are left open for exit(2) to close, in one pass of the
 * kernel's: a close(2) each costs a system call, 1.5 us here, and there
 * may be thousands (200 events: 0.1 of the fork floor). Only right
 * before pstat exits; evlist_free then frees the memory and closes
 * nothing. The same in every build: a memory checker sees the exit
 * path that ships (descriptors are not memory).
 */
void evlist_leave_to_exit(struct evlist *el);

#endif
