/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The set of counters and their groups: build, open, read, close. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "counts.h"
#include "evlist.h"
#include "sys.h"

struct evlist {
	struct evsel *ev;
	size_t n, cap;
	size_t groups;		/* groups started so far */
	bool in_group;		/* between group_begin and group_end */
	bool group_empty;	/* group_begin seen, no member yet */
	uint64_t *buf;		/* one group read, sized for the largest */
	size_t buf_len;
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

static void set_counting_attr(struct evsel *e, const struct evlist_target *t,
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
}

static int open_group(struct evlist *el, size_t first, size_t n,
		      const struct evlist_target *t, size_t *failed)
{
	int leader_fd = -1;
	size_t i;

	for (i = first; i < first + n; i++) {
		struct evsel *e = &el->ev[i];
		int ret;

		set_counting_attr(e, t, leader_fd < 0);
		ret = evsel_open(e, t->pid, t->cpu, leader_fd);
		if (ret < 0 && evsel_err_unsupported(-ret))
			continue;
		if (ret < 0) {
			*failed = i;
			return ret;
		}
		if (leader_fd < 0)
			leader_fd = e->fd;
	}
	return 0;
}

static int alloc_read_buffer(struct evlist *el)
{
	size_t i, largest = 0;

	for (i = 0; i < el->n; i += group_span(el, i))
		if (group_span(el, i) > largest)
			largest = group_span(el, i);
	free(el->buf);
	el->buf_len = counts_group_size(largest);
	el->buf = malloc(el->buf_len);
	return el->buf ? 0 : -ENOMEM;
}

int evlist_open(struct evlist *el, const struct evlist_target *t,
		size_t *failed)
{
	size_t i;
	int ret = alloc_read_buffer(el);

	*failed = 0;
	for (i = 0; ret == 0 && i < el->n; i += group_span(el, i))
		ret = open_group(el, i, group_span(el, i), t, failed);
	if (ret < 0)
		evlist_close(el);
	return ret;
}

static int read_group(struct evlist *el, size_t first, size_t n)
{
	struct counts_group g;
	size_t i, j, want = 0;
	int leader_fd = -1;
	ssize_t len;

	for (i = first; i < first + n; i++) {
		if (el->ev[i].fd < 0)
			continue;
		if (leader_fd < 0)
			leader_fd = el->ev[i].fd;
		want++;
	}
	if (leader_fd < 0)
		return 0;	/* nothing in it could be opened */
	len = sys_read(leader_fd, el->buf, counts_group_size(want));
	if (len < 0)
		return (int)len;
	if (counts_group_decode(el->buf, (size_t)len, &g) < 0 || g.nr != want)
		return -EIO;
	for (j = 0; j < g.nr; j++) {
		uint64_t value = g.entries[2 * j], id = g.entries[2 * j + 1];

		for (i = first; i < first + n; i++)
			if (el->ev[i].fd >= 0 && el->ev[i].id == id)
				break;
		if (i == first + n)
			return -EIO;	/* an id that is not ours */
		el->ev[i].vals = (struct counts_values){
			.value = value,
			.enabled = g.enabled,
			.running = g.running,
		};
	}
	return 0;
}

int evlist_read(struct evlist *el)
{
	size_t i;
	int ret = 0;

	for (i = 0; ret == 0 && i < el->n; i += group_span(el, i))
		ret = read_group(el, i, group_span(el, i));
	return ret;
}

void evlist_close(struct evlist *el)
{
	size_t i;

	for (i = 0; i < el->n; i++)
		evsel_close(&el->ev[i]);
}
