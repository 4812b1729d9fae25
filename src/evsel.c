/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One counter: its attr, its name, its descriptor and what it read. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "evsel_impl.h"
#include "pmu.h"
#include "sys.h"
#include "topology.h"

/*
 * Its PMU's cpumask: an uncore PMU counts once a socket, on its CPUs;
 * or its cpus: a hybrid CPU's core PMU counts on its own kind of core.
 * A mask that cannot be read or parsed leaves every CPU; one that
 * cannot be held is -ENOMEM, not every CPU counting it again.
 */
static int read_cpumask(struct evsel *e, const char *pmu)
{
	char mask[4096];
	size_t bad;
	int n;

	if (!pmu || (pmu_read(pmu, "cpumask", mask, sizeof(mask)) < 0 &&
		     pmu_read(pmu, "cpus", mask, sizeof(mask)) < 0))
		return 0;
	n = topology_parse_list(mask, &e->cpus, &bad);
	if (n == -ENOMEM)
		return n;
	e->n_cpus = n > 0 ? n : 0;
	return 0;
}

/*
 * The unit, then the name, live in the evsel's own allocation: one
 * allocation an event, not three. A name made longer (:u) moves out.
 */
static bool name_inline(const struct evsel *e)
{
	return e->name == e->text + strlen(e->unit) + 1;
}

struct evsel *evsel_new(const struct evsel_desc *d)
{
	const char *unit = d->unit ? d->unit : "";
	size_t ulen = strlen(unit), nlen = strlen(d->name);
	struct evsel *e = calloc(1, sizeof(*e) + ulen + 1 + nlen + 1);

	if (!e)
		return NULL;
	e->unit = memcpy(e->text, unit, ulen + 1);
	e->name = memcpy(e->text + ulen + 1, d->name, nlen + 1);
	e->attr = d->attr;
	e->has_modifiers = d->has_modifiers;
	e->merge_cont = d->merge_cont;
	e->scale = d->scale ? d->scale : 1.0;
	e->precise_max = d->precise_max;
	e->weak = d->weak;
	e->tool = d->tool;
	e->pinned = d->attr.pinned;
	e->exclusive = d->attr.exclusive;
	e->cgroup_fd = -1;
	e->instance = d->instance ? strdup(d->instance) : NULL;
	e->source = d->source ? strdup(d->source) : NULL;
	if ((d->instance && !e->instance) || (d->source && !e->source) ||
	    read_cpumask(e, d->pmu) < 0) {
		evsel_free(e);
		return NULL;
	}
	return e;
}

void evsel_describe(const struct evsel *e, struct evsel_desc *d)
{
	*d = (struct evsel_desc){
		.attr = e->attr,
		.name = e->name,
		.has_modifiers = e->has_modifiers,
		.instance = e->instance,
		.merge_cont = e->merge_cont,
		.scale = e->scale,
		.unit = e->unit[0] ? e->unit : NULL,
		.precise_max = e->precise_max,
		.weak = e->weak,
		.tool = e->tool,
		.source = e->source,
	};
}

void evsel_free(struct evsel *e)
{
	if (!e)
		return;
	evsel_close(e);
	if (!name_inline(e))
		free(e->name);
	free(e->instance);
	free(e->source);
	free(e->cpus);
	if (e->tvals_owned)
		free(e->tvals);
	free(e);
}

/* Append text to the name; 0 or -ENOMEM. */
static int name_append(struct evsel *e, const char *text)
{
	size_t old = strlen(e->name), len = strlen(text);
	char *name = malloc(old + len + 1);

	if (!name)
		return -ENOMEM;
	memcpy(name, e->name, old);
	memcpy(name + old, text, len + 1);
	if (!name_inline(e))
		free(e->name);
	e->name = name;
	return 0;
}

const char *evsel_name(const struct evsel *e)
{
	return e->name;
}

const char *evsel_cgroup(const struct evsel *e)
{
	return e->cgroup;
}

const char *evsel_instance(const struct evsel *e)
{
	return e->instance;
}

const struct perf_event_attr *evsel_attr(const struct evsel *e)
{
	return &e->attr;
}

double evsel_scale(const struct evsel *e)
{
	return e->scale;
}

const char *evsel_unit(const struct evsel *e)
{
	return e->unit;
}

bool evsel_merges(const struct evsel *e)
{
	return e->merge_cont;
}

bool evsel_precise_max(const struct evsel *e)
{
	return e->precise_max;
}

enum event_tool evsel_tool(const struct evsel *e)
{
	return e->tool;
}

const char *evsel_source(const struct evsel *e)
{
	return e->source;
}

bool evsel_counts_on(const struct evsel *e, int cpu)
{
	return cpu < 0 || !e->cpus || topology_contains(e->cpus, e->n_cpus, cpu);
}

int evsel_open_err(const struct evsel *e)
{
	return e->open_err;
}

void evsel_failed_on(const struct evsel *e, int *pid, int *cpu)
{
	*pid = e->err_pid;
	*cpu = e->err_cpu;
}

bool evsel_user_only(const struct evsel *e)
{
	return e->user_only;
}

bool evsel_modifiers_refused(const struct evsel *e)
{
	return e->modifiers_refused;
}

bool evsel_split(const struct evsel *e)
{
	return e->split;
}

size_t evsel_targets(const struct evsel *e)
{
	return e->n_targets;
}

const struct counts_values *evsel_value(const struct evsel *e, size_t t)
{
	return &e->tvals[t];
}

size_t evsel_room(size_t n)
{
	size_t len = n * (sizeof(*((struct evsel *)0)->tvals) +
			  sizeof(uint64_t) + sizeof(int));

	return (len + 7) & ~(size_t)7;
}

/* The values, then the ids, then the fds, in mem; all closed. */
static void place(struct evsel *e, size_t n, void *mem)
{
	size_t t;

	e->tvals = mem;
	e->ids = e->tvals ? (uint64_t *)(e->tvals + n) : NULL;
	e->fds = e->tvals ? (int *)(e->ids + n) : NULL;
	e->n_targets = e->tvals ? n : 0;
	e->in_error = false;
	for (t = 0; t < e->n_targets; t++)
		e->fds[t] = -1;
}

static void forget_targets(struct evsel *e)
{
	evsel_close(e);
	if (e->tvals_owned)
		free(e->tvals);
	e->tvals = NULL;
	e->tvals_owned = false;
}

int evsel_alloc(struct evsel *e, size_t n)
{
	forget_targets(e);
	place(e, n, calloc(1, evsel_room(n)));
	e->tvals_owned = true;
	return e->n_targets == n ? 0 : -ENOMEM;
}

void evsel_place(struct evsel *e, size_t n, void *mem)
{
	forget_targets(e);
	place(e, n, mem);
}

/*
 * Whether an open refused with EACCES is worth retrying as :u: the
 * kernel part was asked for (and the user part too), the target is a
 * task, not a CPU, and kernel.perf_event_paranoid is 2 or more.
 */
static bool user_only_retry(const struct perf_event_attr *a, int pid)
{
	int level;

	return !a->exclude_kernel && !a->exclude_user && pid != -1 &&
	       sys_paranoid(&level) == 0 && level >= 2;
}

/*
 * The kernel refused the kernel part: try user space only. The name
 * says so once. If that fails too for a reason of its own (the msr PMU
 * cannot leave the kernel out), the refusal is what the user hears of;
 * an event that does not exist here stays :u and <not supported>, as
 * in perf.
 */
static int open_user_only(struct evsel *e, int pid, int cpu, int group_fd)
{
	const char *mark = e->has_modifiers ? "u" : ":u";
	int fd;

	e->attr.exclude_kernel = e->attr.exclude_hv = 1;
	fd = sys_perf_event_open(&e->attr, pid, cpu, group_fd,
				 PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && !evsel_err_unsupported(-fd)) {
		e->attr.exclude_kernel = e->attr.exclude_hv = 0;
		return -EACCES;
	}
	if (!e->user_only && name_append(e, mark) < 0) {
		if (fd >= 0)
			sys_close(fd);
		return -ENOMEM;
	}
	e->user_only = true;
	return fd;
}

/*
 * EINVAL for an event of a PMU of its own with modifiers: whether the
 * event opens without them, alone and disabled. Then it is the
 * modifiers the PMU refuses (the msr PMU counts everything or nothing),
 * and the event is <not supported> here, as in perf, instead of
 * stopping the whole run.
 */
static bool modifiers_refused(const struct evsel *e, int pid, int cpu)
{
	struct perf_event_attr a = e->attr;
	int fd;

	if (a.type < PERF_TYPE_MAX ||
	    !(a.exclude_user || a.exclude_kernel || a.exclude_hv ||
	      a.exclude_idle || a.exclude_host || a.exclude_guest))
		return false;
	a.exclude_user = a.exclude_kernel = a.exclude_hv = 0;
	a.exclude_idle = a.exclude_host = a.exclude_guest = 0;
	a.disabled = 1;
	a.enable_on_exec = 0;
	fd = sys_perf_event_open(&a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return false;
	sys_close(fd);
	return true;
}

int evsel_open(struct evsel *e, size_t t, int pid, int cpu, int group_fd,
	       bool need_id)
{
	int fd, ret;

	/* -G: the tasks of the cgroup, on each CPU (pid is -1 there). */
	if (e->cgroup_fd >= 0 && cpu >= 0)
		fd = sys_perf_event_open(&e->attr, e->cgroup_fd, cpu, group_fd,
					 PERF_FLAG_FD_CLOEXEC |
					 PERF_FLAG_PID_CGROUP);
	else
		fd = sys_perf_event_open(&e->attr, pid, cpu, group_fd,
					 PERF_FLAG_FD_CLOEXEC);
	if (fd == -EACCES && user_only_retry(&e->attr, pid))
		fd = open_user_only(e, pid, cpu, group_fd);
	if (fd == -EINVAL && modifiers_refused(e, pid, cpu)) {
		e->modifiers_refused = true;
		fd = -EOPNOTSUPP;
	}
	if (fd < 0) {
		e->open_err = -fd;
		e->err_pid = pid;
		e->err_cpu = cpu;
		return fd;
	}
	e->fds[t] = fd;
	ret = need_id ? sys_event_id(fd, &e->ids[t]) : 0;
	if (ret < 0) {
		sys_close(fd);
		e->fds[t] = -1;
		e->open_err = -ret;
		return ret;
	}
	e->open_err = 0;
	return 0;
}

void evsel_close(struct evsel *e)
{
	size_t t;

	for (t = 0; t < e->n_targets; t++) {
		if (e->fds[t] >= 0)
			sys_close(e->fds[t]);
		e->fds[t] = -1;
	}
}

int evsel_probe(uint32_t type, uint64_t config, bool user_only, int pid,
		int cpu)
{
	struct perf_event_attr attr;
	int fd;

	event_attr_init(&attr);
	attr.type = type;
	attr.config = config;
	attr.disabled = 1;
	attr.exclude_kernel = attr.exclude_hv = user_only;
	fd = sys_perf_event_open(&attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -fd;
	sys_close(fd);
	return 0;
}

bool evsel_in_error(const struct evsel *e)
{
	return e->in_error;
}

bool evsel_open_on(const struct evsel *e, size_t t)
{
	return t < e->n_targets && e->fds[t] >= 0;
}

bool evsel_is_open(const struct evsel *e)
{
	size_t t;

	for (t = 0; t < e->n_targets; t++)
		if (e->fds[t] >= 0)
			return true;
	return false;
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

bool evsel_kernel_only(const struct evsel *e)
{
	const struct perf_event_attr *a = &e->attr;

	if (a->type == PERF_TYPE_TRACEPOINT)
		/* Only the syscall events carry the task's user registers. */
		return strncmp(e->name, "syscalls:", 9) != 0;
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
		a->config == PERF_COUNT_SW_CPU_MIGRATIONS ||
		a->config == PERF_COUNT_SW_CGROUP_SWITCHES);
}
