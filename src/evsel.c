/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One counter: its attr, its name, its descriptor and what it read. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "evsel.h"
#include "sys.h"

int evsel_init(struct evsel *e, const struct perf_event_attr *attr,
	       const char *name, size_t len, size_t group)
{
	memset(e, 0, sizeof(*e));
	e->attr = *attr;
	e->group = group;
	e->fd = -1;
	e->name = strndup(name, len);
	return e->name ? 0 : -ENOMEM;
}

void evsel_fini(struct evsel *e)
{
	evsel_close(e);
	free(e->name);
	e->name = NULL;
}

int evsel_name_append(struct evsel *e, const char *text, size_t len)
{
	size_t old = strlen(e->name);
	char *name = realloc(e->name, old + len + 1);

	if (!name)
		return -ENOMEM;
	memcpy(name + old, text, len);
	name[old + len] = '\0';
	e->name = name;
	return 0;
}

int evsel_open(struct evsel *e, int pid, int cpu, int group_fd)
{
	int fd, ret;

	e->open_err = 0;
	fd = sys_perf_event_open(&e->attr, pid, cpu, group_fd,
				 PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		e->open_err = -fd;
		return fd;
	}
	e->fd = fd;
	ret = sys_event_id(fd, &e->id);
	if (ret < 0) {
		evsel_close(e);
		e->open_err = -ret;
		return ret;
	}
	return 0;
}

void evsel_close(struct evsel *e)
{
	if (e->fd >= 0)
		sys_close(e->fd);
	e->fd = -1;
}

bool evsel_err_unsupported(int err)
{
	/* The man page warns these vary by PMU and architecture. */
	return err == ENOENT || err == EOPNOTSUPP || err == ENXIO ||
	       err == ENODEV;
}

bool evsel_is_clock(const struct evsel *e)
{
	return e->attr.type == PERF_TYPE_SOFTWARE &&
	       (e->attr.config == PERF_COUNT_SW_TASK_CLOCK ||
		e->attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

bool evsel_is_task_clock(const struct evsel *e)
{
	return e->attr.type == PERF_TYPE_SOFTWARE &&
	       e->attr.config == PERF_COUNT_SW_TASK_CLOCK;
}
