/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The set of counters and their groups: build, open, read, close. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "counts.h"
#include "evlist.h"
#include "sys.h"
#include "target.h"
#include "topology.h"

struct evlist {
	struct evsel *ev;
	size_t n, cap;
	size_t groups;		/* groups started so far */
	bool in_group;		/* between group_begin and group_end */
	bool group_empty;	/* group_begin seen, no member yet */
	uint64_t *buf;		/* one group read, sized for the largest */
	size_t buf_len;
	size_t n_targets;	/* threads x CPUs, once opened */
	int *anchors;		/* see evlist_anchor_tracepoints */
	size_t n_anchors;
};

struct evlist *evlist_new(void)
{
	return calloc(1, sizeof(struct evlist));
}

void evlist_free(struct evlist *el)
{
	size_t i;

	if (!el)
		return;
	for (i = 0; i < el->n; i++)
		evsel_fini(&el->ev[i]);
	for (i = 0; i < el->n_anchors; i++)
		sys_close(el->anchors[i]);
	free(el->anchors);
	free(el->ev);
	free(el->buf);
	free(el);
}

int evlist_add(struct evlist *el, const struct perf_event_attr *attr,
	       const char *name, size_t name_len)
{
	size_t group;
	int ret;

	if (el->n == el->cap) {
		size_t cap = el->cap ? 2 * el->cap : 16;
		struct evsel *ev = realloc(el->ev, cap * sizeof(*ev));

		if (!ev)
			return -ENOMEM;
		el->ev = ev;
		el->cap = cap;
	}
	if (!el->in_group || el->group_empty)
		el->groups++;
	group = el->groups - 1;
	ret = evsel_init(&el->ev[el->n], attr, name, name_len, group);
	if (ret < 0)
		return ret;
	el->group_empty = false;
	el->n++;
	return 0;
}

void evlist_group_begin(struct evlist *el)
{
	el->in_group = true;
	el->group_empty = true;
}

void evlist_group_end(struct evlist *el)
{
	el->in_group = false;
}

size_t evlist_count(const struct evlist *el)
{
	return el->n;
}

struct evsel *evlist_at(struct evlist *el, size_t i)
{
	return &el->ev[i];
}

const struct evsel *evlist_at_const(const struct evlist *el, size_t i)
{
	return &el->ev[i];
}

/* Members of a group are contiguous: [*first, *first + return). */
static size_t group_span(const struct evlist *el, size_t first)
{
	size_t i = first;

	while (i < el->n && el->ev[i].group == el->ev[first].group)
		i++;
	return i - first;
}

size_t evlist_targets(const struct evlist *el)
{
	return el->n_targets;
}

static void set_counting_attr(struct evsel *e, const struct target *t,
			      bool leader)
{
	struct perf_event_attr *a = &e->attr;

	a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			 PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	a->inherit = t->inherit;
	/* Members follow their leader: enabling it starts them all. */
	a->disabled = leader;
	a->enable_on_exec = leader && t->enable_on_exec;
	/* The kernel takes these on a leader only. */
	a->pinned = leader && e->pinned;
	a->exclusive = leader && e->exclusive;
}

void evlist_configure(struct evlist *el, const struct target *t)
{
	size_t i;

	for (i = 0; i < el->n; i++) {
		struct evsel *e = &el->ev[i];

		set_counting_attr(e, t, i == 0 || el->ev[i - 1].group != e->group);
		if (e->precise_max)
			e->attr.precise_ip = 3;
	}
}

/* :P asks for the most precise the kernel takes, from 3 down. */
static int open_precise(struct evsel *e, size_t t, int pid, int cpu,
			int group_fd)
{
	int ret;

	if (e->precise_max)
		e->attr.precise_ip = 3;
	for (;;) {
		ret = evsel_open(e, t, pid, cpu, group_fd);
		if (ret == 0 || !e->precise_max || e->attr.precise_ip == 0)
			return ret;
		e->attr.precise_ip--;
	}
}

static int target_pid(const struct target *tg, size_t t)
{
	return tg->pids ? tg->pids[t / (tg->cpus ? tg->n_cpus : 1)] : -1;
}

static int target_cpu(const struct target *tg, size_t t)
{
	return tg->cpus ? tg->cpus[t % tg->n_cpus] : -1;
}

static void close_group_target(struct evlist *el, size_t first, size_t n,
			       size_t t)
{
	size_t i;

	for (i = first; i < first + n; i++) {
		struct evsel *e = &el->ev[i];

		if (e->fds[t] >= 0)
			sys_close(e->fds[t]);
		e->fds[t] = -1;
	}
}

/* Whether e's PMU counts on cpu (-1: any). */
static bool counts_on(const struct evsel *e, int cpu)
{
	return cpu < 0 || !e->cpus ||
	       topology_contains(e->cpus, e->n_cpus, cpu);
}

static int open_group_target(struct evlist *el, size_t first, size_t n,
			     const struct target *tg, size_t t,
			     size_t *failed)
{
	int pid = target_pid(tg, t), cpu = target_cpu(tg, t);
	int leader_fd = -1;
	size_t i;

	for (i = first; i < first + n; i++) {
		struct evsel *e = &el->ev[i];
		int ret;

		/* Not here on the first target: not here at all. */
		if (t > 0 && evsel_err_unsupported(e->open_err))
			continue;
		if (!counts_on(e, cpu))
			continue;	/* its PMU does not count there */
		set_counting_attr(e, tg, leader_fd < 0);
		ret = open_precise(e, t, pid, cpu, leader_fd);
		if (ret < 0 && evsel_err_unsupported(-ret))
			continue;
		if (ret == -ESRCH && tg->skip_vanished) {
			e->open_err = 0;
			close_group_target(el, first, n, t);
			return 0;
		}
		if (ret < 0) {
			*failed = i;
			return ret;
		}
		if (leader_fd < 0)
			leader_fd = e->fds[t];
	}
	return 0;
}

static int open_group(struct evlist *el, size_t first, size_t n,
		      const struct target *tg, size_t *failed)
{
	size_t t;
	int ret = 0;

	for (t = 0; ret == 0 && t < el->n_targets; t++)
		ret = open_group_target(el, first, n, tg, t, failed);
	return ret;
}

/* A weak group the kernel refused: its members each lead their own. */
static void split_group(struct evlist *el, size_t first, size_t n)
{
	size_t i, t;

	for (t = 0; t < el->n_targets; t++)
		close_group_target(el, first, n, t);
	for (i = first; i < first + n; i++) {
		el->ev[i].group = el->groups++;
		el->ev[i].split = true;
		el->ev[i].open_err = 0;
	}
}

static bool group_is_weak(const struct evlist *el, size_t first, size_t n)
{
	return n > 1 && el->ev[first].weak;
}

static int alloc_buffers(struct evlist *el, const struct target *tg)
{
	size_t i, largest = 0;
	int ret = 0;

	el->n_targets = (tg->pids ? tg->n_pids : 1) * (tg->cpus ? tg->n_cpus : 1);
	for (i = 0; ret == 0 && i < el->n; i++)
		ret = evsel_alloc(&el->ev[i], el->n_targets);
	for (i = 0; i < el->n; i += group_span(el, i))
		if (group_span(el, i) > largest)
			largest = group_span(el, i);
	free(el->buf);
	el->buf_len = counts_group_size(largest);
	el->buf = malloc(el->buf_len);
	return ret < 0 ? ret : el->buf ? 0 : -ENOMEM;
}

int evlist_open(struct evlist *el, const struct target *tg,
		size_t *failed)
{
	size_t i, n;
	int ret = alloc_buffers(el, tg);

	*failed = 0;
	for (i = 0; ret == 0 && i < el->n; i += n) {
		n = group_span(el, i);
		ret = open_group(el, i, n, tg, failed);
		if (ret < 0 && !evsel_err_unsupported(-ret) &&
		    group_is_weak(el, i, n)) {
			split_group(el, i, n);
			n = 0;	/* again, as groups of one */
			ret = 0;
		}
	}
	if (ret < 0)
		evlist_close(el);
	return ret;
}

const struct evsel *evlist_open_leader(const struct evlist *el, size_t i)
{
	const struct evsel *e = &el->ev[i];
	size_t j = i;

	while (j > 0 && el->ev[j - 1].group == e->group)
		j--;
	/* The first that opened where e failed, as open_group_target. */
	for (; j < i; j++)
		if (!el->ev[j].open_err && counts_on(&el->ev[j], e->err_cpu))
			return &el->ev[j];
	return NULL;
}

static int read_group_target(struct evlist *el, size_t first, size_t n,
			     size_t t)
{
	struct counts_group g;
	size_t i, j, want = 0;
	int leader_fd = -1;
	ssize_t len;

	for (i = first; i < first + n; i++) {
		if (el->ev[i].fds[t] < 0)
			continue;
		if (leader_fd < 0)
			leader_fd = el->ev[i].fds[t];
		want++;
	}
	if (leader_fd < 0)
		return 0;	/* nothing in it could be opened here */
	len = sys_read(leader_fd, el->buf, counts_group_size(want));
	if (len < 0)
		return (int)len;
	if (counts_group_decode(el->buf, (size_t)len, &g) < 0 || g.nr != want)
		return -EIO;
	for (j = 0; j < g.nr; j++) {
		uint64_t value = g.entries[2 * j], id = g.entries[2 * j + 1];

		for (i = first; i < first + n; i++)
			if (el->ev[i].fds[t] >= 0 && el->ev[i].ids[t] == id)
				break;
		if (i == first + n)
			return -EIO;	/* an id that is not ours */
		el->ev[i].tvals[t] = (struct counts_values){
			.value = value,
			.enabled = g.enabled,
			.running = g.running,
		};
	}
	return 0;
}

/* perf's global aggregation: sum value, enabled and running, scale once. */
static void sum_targets(struct evsel *e)
{
	size_t t;

	e->vals = (struct counts_values){ 0 };
	for (t = 0; t < e->n_targets; t++) {
		e->vals.value += e->tvals[t].value;
		e->vals.enabled += e->tvals[t].enabled;
		e->vals.running += e->tvals[t].running;
	}
}

int evlist_read(struct evlist *el)
{
	size_t i, t;
	int ret = 0;

	for (i = 0; ret == 0 && i < el->n; i += group_span(el, i))
		for (t = 0; ret == 0 && t < el->n_targets; t++)
			ret = read_group_target(el, i, group_span(el, i), t);
	for (i = 0; ret == 0 && i < el->n; i++)
		sum_targets(&el->ev[i]);
	return ret;
}

/* The leader of the group at first on target t, or -1. */
static int leader_fd(const struct evlist *el, size_t first, size_t n,
		     size_t t)
{
	size_t i;

	for (i = first; i < first + n; i++)
		if (el->ev[i].fds && el->ev[i].fds[t] >= 0)
			return el->ev[i].fds[t];
	return -1;
}

/* Enable or disable leaders only: members follow (COUNTING_NOTES 6.1). */
static int ioctl_leaders(struct evlist *el, unsigned long request)
{
	size_t i, t;
	int fd, ret;

	for (i = 0; i < el->n; i += group_span(el, i)) {
		for (t = 0; t < el->n_targets; t++) {
			fd = leader_fd(el, i, group_span(el, i), t);
			if (fd < 0)
				continue;
			ret = sys_event_ioctl(fd, request, 0);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

int evlist_enable(struct evlist *el)
{
	return ioctl_leaders(el, PERF_EVENT_IOC_ENABLE);
}

int evlist_disable(struct evlist *el)
{
	return ioctl_leaders(el, PERF_EVENT_IOC_DISABLE);
}

size_t evlist_fds_needed(const struct evlist *el, size_t n_targets)
{
	return el->n * n_targets;
}

void evlist_anchor_tracepoints(struct evlist *el)
{
	struct perf_event_attr attr;
	size_t i, j;
	int fd;

	el->anchors = calloc(el->n, sizeof(*el->anchors));
	for (i = 0; el->anchors && i < el->n; i++) {
		if (el->ev[i].attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		for (j = 0; j < i; j++)
			if (el->ev[j].attr.type == PERF_TYPE_TRACEPOINT &&
			    el->ev[j].attr.config == el->ev[i].attr.config)
				break;
		if (j < i)
			continue;
		/* Disabled, it never fires; it only holds the registration. */
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_TRACEPOINT;
		attr.config = el->ev[i].attr.config;
		attr.disabled = 1;
		attr.exclude_kernel = el->ev[i].attr.exclude_kernel;
		attr.exclude_hv = el->ev[i].attr.exclude_hv;
		fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0)
			el->anchors[el->n_anchors++] = fd;
	}
}

void evlist_close(struct evlist *el)
{
	size_t i;

	for (i = 0; i < el->n; i++)
		evsel_close(&el->ev[i]);
}
