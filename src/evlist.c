/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The set of counters and their groups: build, open, read, close. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "counts.h"
#include "evlist.h"
#include "evsel_impl.h"
#include "sys.h"
#include "target.h"

/* A group: its leader is the member at first, the others follow it. */
struct group {
	size_t first, n;
};

struct evlist {
	struct evsel **ev;	/* each allocated once: pointers stay */
	size_t n, cap;
	struct group *groups;
	size_t n_groups, groups_cap;
	bool in_group;		/* between group_begin and group_end */
	bool group_empty;	/* group_begin seen, no member yet */
	bool cgroups;		/* -G or --for-each-cgroup named some */
	uint64_t *buf;		/* one group read, sized for the largest */
	size_t buf_len;
	void *targets;		/* every evsel's values, ids and fds */
	size_t n_targets;	/* threads x CPUs, once opened */
	int *anchors;		/* see evlist_anchor_tracepoints */
	size_t n_anchors;
	enum evlist_space space;	/* see evlist_set_space */
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
	for (i = el->n; i-- > 0;)
		evsel_free(el->ev[i]);
	for (i = 0; i < el->n_anchors; i++)
		sys_close(el->anchors[i]);
	free(el->anchors);
	free(el->ev);
	free(el->groups);
	free(el->buf);
	free(el->targets);
	free(el);
}

/*
 * Room for want items of size size in *v, which has room for *cap:
 * twice as much as before at least, so that adding one by one copies
 * little. 0 or -ENOMEM.
 */
static int room(void *v, size_t *cap, size_t want, size_t size)
{
	void *p;

	if (want <= *cap)
		return 0;
	if (want < 2 * *cap)
		want = 2 * *cap;
	if (want < 16)
		want = 16;
	p = reallocarray(*(void **)v, want, size);
	if (!p)
		return -ENOMEM;
	*(void **)v = p;
	*cap = want;
	return 0;
}

/* Room for one more of n items of size size in *v. 0 or -ENOMEM. */
static int grow(void *v, size_t *cap, size_t n, size_t size)
{
	return room(v, cap, n + 1, size);
}

int evlist_reserve(struct evlist *el, size_t n)
{
	if (n > SIZE_MAX / 2 - el->n)
		return -ENOMEM;
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): ev holds pointers */
	if (room(&el->ev, &el->cap, el->n + n, sizeof(*el->ev)) < 0 ||
	    room(&el->groups, &el->groups_cap, el->n_groups + n,
		 sizeof(*el->groups)) < 0)
		return -ENOMEM;
	return 0;
}

/* Each evsel's group index, after the table changed. */
static void number_groups(struct evlist *el)
{
	size_t g, i;

	for (g = 0; g < el->n_groups; g++)
		for (i = 0; i < el->groups[g].n; i++)
			el->ev[el->groups[g].first + i]->group = g;
}

void evlist_set_space(struct evlist *el, enum evlist_space space)
{
	el->space = space;
}

/* perf's --all-user and --all-kernel: over the event's own modifiers. */
static void apply_space(const struct evlist *el, struct evsel_desc *d)
{
	if (el->space == EVLIST_SPACE_USER) {
		d->attr.exclude_kernel = 1;
		d->attr.exclude_user = 0;
	} else if (el->space == EVLIST_SPACE_KERNEL) {
		d->attr.exclude_user = 1;
		d->attr.exclude_kernel = 0;
	}
}

int evlist_add(struct evlist *el, const struct evsel_desc *desc)
{
	bool new_group = !el->in_group || el->group_empty;
	struct evsel_desc d = *desc;
	struct evsel *e;

	/* NOLINTNEXTLINE(bugprone-sizeof-expression): ev holds pointers */
	if (grow(&el->ev, &el->cap, el->n, sizeof(*el->ev)) < 0 ||
	    (new_group && grow(&el->groups, &el->groups_cap, el->n_groups,
			       sizeof(*el->groups)) < 0))
		return -ENOMEM;
	apply_space(el, &d);
	e = evsel_new(&d);
	if (!e)
		return -ENOMEM;
	if (new_group)
		el->groups[el->n_groups++] = (struct group){ el->n, 0 };
	el->groups[el->n_groups - 1].n++;
	e->group = el->n_groups - 1;
	el->ev[el->n++] = e;
	el->group_empty = false;
	return 0;
}

struct evlist *evlist_copy(const struct evlist *el)
{
	struct evlist *copy = evlist_new();
	struct evsel_desc d;
	size_t g, i;
	int ret = copy ? evlist_reserve(copy, el->n) : -ENOMEM;

	for (g = 0; ret == 0 && g < el->n_groups; g++) {
		evlist_group_begin(copy);
		for (i = el->groups[g].first;
		     ret == 0 && i < el->groups[g].first + el->groups[g].n;
		     i++) {
			evsel_describe(el->ev[i], &d);
			ret = evlist_add(copy, &d);
		}
		evlist_group_end(copy);
	}
	if (ret == 0)
		return copy;
	evlist_free(copy);
	return NULL;
}

void evlist_set_cgroup(struct evlist *el, size_t i, const char *name,
		       int fd)
{
	el->ev[i]->cgroup = name;
	el->ev[i]->cgroup_fd = fd;
	el->cgroups = true;
}

bool evlist_has_cgroups(const struct evlist *el)
{
	return el->cgroups;
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

const struct evsel *evlist_at(const struct evlist *el, size_t i)
{
	return el->ev[i];
}

struct evlist_group evlist_group_of(const struct evlist *el, size_t i)
{
	const struct group *g = &el->groups[el->ev[i]->group];

	return (struct evlist_group){
		.index = el->ev[i]->group,
		.first = g->first,
		.n = g->n,
	};
}

int evlist_redirect(struct evlist *el, int fd)
{
	size_t i, t;
	int ret;

	for (i = 0; i < el->n; i++) {
		for (t = 0; t < el->ev[i]->n_targets; t++) {
			if (el->ev[i]->fds[t] < 0)
				continue;
			ret = sys_event_ioctl(el->ev[i]->fds[t],
					      PERF_EVENT_IOC_SET_OUTPUT,
					      (unsigned long)fd);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

bool evlist_find_id(const struct evlist *el, uint64_t id, size_t *i)
{
	size_t t;

	for (*i = 0; *i < el->n; (*i)++)
		for (t = 0; t < el->ev[*i]->n_targets; t++)
			if (el->ev[*i]->fds[t] >= 0 &&
			    el->ev[*i]->ids[t] == id)
				return true;
	return false;
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
	/*
	 * --per-thread with a command: each task's counts come as a
	 * PERF_RECORD_READ when it exits (tasks.c). Every counter asks:
	 * the kernel takes a member out of its group before it writes
	 * the member's record, so a leader's record alone may lack them.
	 */
	a->inherit_stat = t->per_task;
}

void evlist_configure(struct evlist *el, const struct target *t)
{
	size_t i;

	for (i = 0; i < el->n; i++) {
		struct evsel *e = el->ev[i];

		set_counting_attr(e, t, el->groups[e->group].first == i);
		if (e->precise_max)
			e->attr.precise_ip = 3;
	}
}

/* :P asks for the most precise the kernel takes, from 3 down. */
static int open_precise(struct evsel *e, size_t t, int pid, int cpu,
			int group_fd, bool need_id)
{
	int ret;

	if (e->precise_max)
		e->attr.precise_ip = 3;
	for (;;) {
		ret = evsel_open(e, t, pid, cpu, group_fd, need_id);
		if (ret == 0 || !e->precise_max || e->attr.precise_ip == 0)
			return ret;
		e->attr.precise_ip--;
	}
}

static void close_group_target(struct evlist *el, size_t first, size_t n,
			       size_t t)
{
	size_t i;

	for (i = first; i < first + n; i++) {
		struct evsel *e = el->ev[i];

		if (e->fds[t] >= 0)
			sys_close(e->fds[t]);
		e->fds[t] = -1;
	}
}

static int open_group_target(struct evlist *el, size_t first, size_t n,
			     const struct target *tg, size_t t,
			     size_t *failed)
{
	int pid = target_pid(tg, t), cpu = target_cpu(tg, t);
	int leader_fd = -1;
	size_t i;

	for (i = first; i < first + n; i++) {
		struct evsel *e = el->ev[i];
		int ret;

		/* Not here on the first target: not here at all. */
		if (t > 0 && evsel_err_unsupported(e->open_err))
			continue;
		if (!evsel_counts_on(e, cpu))
			continue;	/* its PMU does not count there */
		set_counting_attr(e, tg, leader_fd < 0);
		/* A group of one reads one value: no id to match it by. */
		ret = open_precise(e, t, pid, cpu, leader_fd,
				   n > 1 || tg->per_task);
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

/*
 * A weak group the kernel refused: its members each lead their own,
 * in its place in the table. 0 or -ENOMEM.
 */
static int split_group(struct evlist *el, size_t g)
{
	struct group old = el->groups[g];
	size_t i, t;

	for (t = 0; t < el->n_targets; t++)
		close_group_target(el, old.first, old.n, t);
	for (i = 1; i < old.n; i++) {
		if (grow(&el->groups, &el->groups_cap, el->n_groups,
			 sizeof(*el->groups)) < 0)
			return -ENOMEM;
		el->n_groups++;
	}
	memmove(&el->groups[g + old.n], &el->groups[g + 1],
		(el->n_groups - old.n - g) * sizeof(*el->groups));
	for (i = 0; i < old.n; i++) {
		struct evsel *e = el->ev[old.first + i];

		el->groups[g + i] = (struct group){ old.first + i, 1 };
		e->split = true;
		e->open_err = 0;
	}
	number_groups(el);
	return 0;
}

static bool group_is_weak(const struct evlist *el, const struct group *g)
{
	return g->n > 1 && el->ev[g->first]->weak;
}

/* Each evsel's room for its targets, all in one allocation: 200
 * events are one calloc, not 200. 0 or -ENOMEM. */
static int alloc_targets(struct evlist *el)
{
	size_t room = evsel_room(el->n_targets), i;
	char *mem = NULL;

	for (i = 0; i < el->n; i++)
		evsel_close(el->ev[i]);
	if (room && el->n) {
		mem = el->n <= SIZE_MAX / room ? calloc(el->n, room) : NULL;
		if (!mem)
			return -ENOMEM;
	}
	for (i = 0; i < el->n; i++)
		evsel_place(el->ev[i], el->n_targets,
			    mem ? mem + i * room : NULL);
	free(el->targets);
	el->targets = mem;
	return 0;
}

static int alloc_buffers(struct evlist *el, const struct target *tg)
{
	size_t i, largest = 0;
	int ret;

	el->n_targets = target_count(tg);
	ret = alloc_targets(el);
	for (i = 0; i < el->n_groups; i++)
		if (el->groups[i].n > largest)
			largest = el->groups[i].n;
	free(el->buf);
	el->buf_len = counts_group_size(largest);
	el->buf = malloc(el->buf_len);
	return ret < 0 ? ret : el->buf ? 0 : -ENOMEM;
}

/*
 * Who counts now that leader and member switches changed: a member
 * counts while it and its leader are on (the kernel schedules the
 * group by its leader).
 */
static void update_counting(struct evlist *el)
{
	const struct group *g;
	struct evsel *e;
	bool counting;
	size_t i;

	for (i = 0; i < el->n; i++) {
		e = el->ev[i];
		g = &el->groups[e->group];
		counting = e->on && el->ev[g->first]->on;
		if (counting && !e->counting)
			e->starts++;
		e->counting = counting;
	}
}

/* As opened: members on, leaders on if the exec enables them. */
static void reset_switches(struct evlist *el, const struct target *tg)
{
	size_t i;

	for (i = 0; i < el->n; i++) {
		el->ev[i]->on = el->groups[el->ev[i]->group].first != i ||
				tg->enable_on_exec;
		el->ev[i]->counting = false;
		el->ev[i]->starts = 0;
	}
	update_counting(el);
}

int evlist_open(struct evlist *el, const struct target *tg,
		size_t *failed)
{
	size_t g;
	int ret = alloc_buffers(el, tg);

	*failed = EVLIST_NO_EVSEL;
	for (g = 0; ret == 0 && g < el->n_groups; g++) {
		ret = open_group(el, el->groups[g].first, el->groups[g].n, tg,
				 failed);
		if (ret < 0 && !evsel_err_unsupported(-ret) &&
		    group_is_weak(el, &el->groups[g])) {
			*failed = EVLIST_NO_EVSEL;
			ret = split_group(el, g);
			if (ret == 0)
				g--;	/* again, as groups of one */
		}
	}
	if (ret < 0)
		evlist_close(el);
	else
		reset_switches(el, tg);
	return ret;
}

const struct evsel *evlist_open_leader(const struct evlist *el, size_t i)
{
	const struct evsel *e = el->ev[i];
	size_t j;

	/* The first that opened where e failed, as open_group_target. */
	for (j = el->groups[e->group].first; j < i; j++)
		if (!el->ev[j]->open_err && evsel_counts_on(el->ev[j], e->err_cpu))
			return el->ev[j];
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
		if (el->ev[i]->fds[t] < 0)
			continue;
		if (leader_fd < 0)
			leader_fd = el->ev[i]->fds[t];
		want++;
	}
	if (leader_fd < 0)
		return 0;	/* nothing in it could be opened here */
	len = sys_read(leader_fd, el->buf, counts_group_size(want));
	if (len < 0)
		return (int)len;
	/* End of file: a group in error state, which counts no more. */
	if (len == 0) {
		for (i = first; i < first + n; i++) {
			el->ev[i]->in_error = true;
			el->ev[i]->tvals[t] = (struct counts_values){ 0 };
		}
		return 0;
	}
	if (counts_group_decode(el->buf, (size_t)len, &g) < 0 || g.nr != want)
		return -EIO;
	for (j = 0; j < g.nr; j++) {
		uint64_t value = g.entries[2 * j], id = g.entries[2 * j + 1];

		for (i = first; i < first + n; i++)
			if (el->ev[i]->fds[t] >= 0 &&
			    (n == 1 || el->ev[i]->ids[t] == id))
				break;
		if (i == first + n)
			return -EIO;	/* an id that is not ours */
		el->ev[i]->tvals[t] = (struct counts_values){
			.value = value,
			.enabled = g.enabled,
			.running = g.running,
		};
	}
	return 0;
}

int evlist_read(struct evlist *el)
{
	size_t g, t;
	int ret = 0;

	for (g = 0; ret == 0 && g < el->n_groups; g++)
		for (t = 0; ret == 0 && t < el->n_targets; t++)
			ret = read_group_target(el, el->groups[g].first,
						el->groups[g].n, t);
	return ret;
}

void evlist_tool_values(struct evlist *el, const uint64_t ns[EVENT_TOOL_N])
{
	size_t i, t;

	for (i = 0; i < el->n; i++) {
		struct evsel *e = el->ev[i];
		uint64_t v = ns[e->tool];

		if (e->tool == EVENT_TOOL_NONE || !e->tvals)
			continue;
		for (t = 0; t < e->n_targets; t++)
			e->tvals[t] = (struct counts_values){ 0 };
		if (e->n_targets)
			e->tvals[0] = (struct counts_values){ v, v, v };
	}
}

/* The leader of the group at first on target t, or -1. */
static int leader_fd(const struct evlist *el, size_t first, size_t n,
		     size_t t)
{
	size_t i;

	for (i = first; i < first + n; i++)
		if (el->ev[i]->fds && el->ev[i]->fds[t] >= 0)
			return el->ev[i]->fds[t];
	return -1;
}

/* Enable or disable leaders only: members follow (COUNTING_NOTES 6.1). */
static int ioctl_leaders(struct evlist *el, unsigned long request)
{
	size_t g, t;
	int fd, ret;

	for (g = 0; g < el->n_groups; g++) {
		for (t = 0; t < el->n_targets; t++) {
			fd = leader_fd(el, el->groups[g].first,
				       el->groups[g].n, t);
			if (fd < 0)
				continue;
			ret = sys_event_ioctl(fd, request, 0);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

/* Every leader on or off, as the ioctls left them. */
static int switch_leaders(struct evlist *el, bool on)
{
	int ret = ioctl_leaders(el, on ? PERF_EVENT_IOC_ENABLE
				       : PERF_EVENT_IOC_DISABLE);
	size_t g;

	if (ret == 0) {
		for (g = 0; g < el->n_groups; g++)
			el->ev[el->groups[g].first]->on = on;
		update_counting(el);
	}
	return ret;
}

int evlist_enable(struct evlist *el)
{
	return switch_leaders(el, true);
}

int evlist_disable(struct evlist *el)
{
	return switch_leaders(el, false);
}

int evlist_toggle_named(struct evlist *el, const char *name, bool enable)
{
	unsigned long request = enable ? PERF_EVENT_IOC_ENABLE
				       : PERF_EVENT_IOC_DISABLE;
	size_t i, t, found = 0;
	int ret = 0;

	for (i = 0; ret == 0 && i < el->n; i++) {
		if (strcmp(evsel_name(el->ev[i]), name) != 0)
			continue;
		found++;
		for (t = 0; ret == 0 && t < el->n_targets; t++)
			if (el->ev[i]->fds[t] >= 0)
				ret = sys_event_ioctl(el->ev[i]->fds[t],
						      request, 0);
		if (ret == 0)
			el->ev[i]->on = enable;
	}
	update_counting(el);
	return ret < 0 ? ret : found ? 0 : -ENOENT;
}

bool evlist_counting(const struct evlist *el, size_t i, uint64_t *starts)
{
	*starts = el->ev[i]->starts;
	return el->ev[i]->counting;
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
		const struct perf_event_attr *a = &el->ev[i]->attr;

		if (a->type != PERF_TYPE_TRACEPOINT)
			continue;
		for (j = 0; j < i; j++)
			if (el->ev[j]->attr.type == PERF_TYPE_TRACEPOINT &&
			    el->ev[j]->attr.config == a->config)
				break;
		if (j < i)
			continue;
		/* Disabled, it never fires; it only holds the registration. */
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_TRACEPOINT;
		attr.config = a->config;
		attr.disabled = 1;
		attr.exclude_kernel = a->exclude_kernel;
		attr.exclude_hv = a->exclude_hv;
		fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0)
			el->anchors[el->n_anchors++] = fd;
	}
}

void evlist_leave_to_exit(struct evlist *el)
{
	size_t i, t;

	for (i = 0; i < el->n; i++)
		for (t = 0; t < el->ev[i]->n_targets; t++)
			el->ev[i]->fds[t] = -1;
}

/* In reverse: a group's members before their leader, whose close would
 * otherwise make each of them a group of its own first. */
void evlist_close(struct evlist *el)
{
	size_t i;

	for (i = el->n; i-- > 0;)
		evsel_close(el->ev[i]);
}
