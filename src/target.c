/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where to count: the command, threads of processes, or CPUs. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aggr.h"
#include "error.h"
#include "options.h"
#include "target.h"
#include "topology.h"

static int push(int **list, size_t *n, int v)
{
	int *grown = realloc(*list, (*n + 1) * sizeof(**list));

	if (!grown)
		return -ENOMEM;
	grown[(*n)++] = v;
	*list = grown;
	return 0;
}

/* Each id once, in the order first given: a thread counted twice
 * would count twice. */
static void drop_duplicates(int *ids, size_t *n)
{
	size_t i, j, kept = 0;

	for (i = 0; i < *n; i++) {
		for (j = 0; j < kept && ids[j] != ids[i]; j++)
			;
		if (j == kept)
			ids[kept++] = ids[i];
	}
	*n = kept;
}

/* "12,34" into numbers; 0 or -EINVAL. */
static int id_list(const char *s, const char *what, int **ids, size_t *n,
		   char *err, size_t len)
{
	const char *p = s;
	char *end;
	long v;

	if (!*s)
		return error_say(err, len, "empty %s list", what);
	do {
		/* Digits only: strtol would take blanks and a sign too. */
		errno = 0;
		v = strtol(p, &end, 10);
		if (!isdigit((unsigned char)*p) || errno || v <= 0 ||
		    v > 0x3fffffff || (*end && *end != ','))
			return error_say(err, len, "bad %s list '%s': give numbers separated by commas",
				      what, s);
		if (push(ids, n, (int)v) < 0)
			return -ENOMEM;
		p = end + 1;
	} while (*end);
	return 0;
}

/*
 * Why path, /proc/ID or under it, cannot be read for a process or
 * thread that -p or -t named: it is not there, or /proc is not (a
 * container without it, a private mount): say which.
 */
static int proc_refused(const char *path, int id, const char *what,
			char *err, size_t len)
{
	int e = errno;

	if (e == ENOENT && kill(id, 0) < 0 && errno == ESRCH)
		return error_say(err, len, "no such %s %d (-%c)", what, id,
			      what[0]);
	if (e == ENOENT)
		return error_say(err, len, "%s %d (-%c) runs, but %s is not there: pstat finds threads in /proc, which is not mounted here or hides it (hidepid)",
			      what, id, what[0], path);
	return error_say(err, len, "cannot read %s for %s %d (-%c): %s; pstat finds threads in /proc",
		      path, what, id, what[0], strerror(e));
}

/* Every thread of process pid, from /proc/PID/task. */
static int add_threads(struct target *t, int pid, char *err, size_t len)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return proc_refused(path, pid, "process", err, len);
	while (ret == 0 && (d = readdir(dir)))
		if (isdigit((unsigned char)d->d_name[0]))
			ret = push(&t->pids, &t->n_pids, atoi(d->d_name));
	closedir(dir);
	return ret;
}

static int resolve_threads(struct target *t, const struct options *o,
			   char *err, size_t len)
{
	int *ids = NULL;
	size_t n = 0, i;
	char path[64];
	int ret;

	ret = id_list(o->pids ? o->pids : o->tids, o->pids ? "pid" : "tid",
		      &ids, &n, err, len);
	for (i = 0; ret == 0 && i < n; i++) {
		if (o->pids) {
			ret = add_threads(t, ids[i], err, len);
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%d", ids[i]);
		ret = access(path, F_OK) == 0 ? push(&t->pids, &t->n_pids, ids[i])
			: proc_refused(path, ids[i], "thread", err, len);
	}
	if (n > 1)	/* one process's threads are unique already */
		drop_duplicates(t->pids, &t->n_pids);
	snprintf(t->desc, sizeof(t->desc), "%s id '%s'",
		 o->pids ? "process" : "thread", o->pids ? o->pids : o->tids);
	free(ids);
	return ret;
}

static int resolve_cpus(struct target *t, const struct options *o,
			char *err, size_t len)
{
	int *online = NULL, *cpus = NULL, n_online, n, i;
	size_t bad;

	n_online = topology_online(&online);
	if (n_online < 0)
		return error_say(err, len, "cannot read the online CPUs: %s",
			      strerror(-n_online));
	if (!o->cpu_list) {
		t->cpus = online;
		t->n_cpus = (size_t)n_online;
		snprintf(t->desc, sizeof(t->desc), "'system wide'");
		return 0;
	}
	/* sysfs's final newline is no part of what a user types: no
	 * newline goes into a message or the title either. */
	bad = strcspn(o->cpu_list, "\n");
	if (o->cpu_list[bad]) {
		free(online);
		return error_say(err, len, "bad CPU list: a newline in it, after '%.*s'; give CPUs such as 0-3,6",
			      (int)bad, o->cpu_list);
	}
	n = topology_parse_list(o->cpu_list, &cpus, &bad);
	for (i = 0; n > 0 && i < n; i++)
		if (!topology_contains(online, n_online, cpus[i])) {
			error_say(err, len, "CPU %d is not online (-C %s); see /sys/devices/system/cpu/online",
			       cpus[i], o->cpu_list);
			n = -EINVAL;
		}
	free(online);
	if (n == -ERANGE)
		n = error_say(err, len, "CPU number too large in '%s' at '%s': pstat counts CPUs 0 to %d",
			   o->cpu_list, o->cpu_list + bad,
			   TOPOLOGY_MAX_CPUS - 1);
	if (n == -EINVAL && !*err && !o->cpu_list[bad])
		error_say(err, len, "bad CPU list '%s': it ends where a CPU must follow; give CPUs such as 0-3,6",
		       o->cpu_list);
	else if (n == -EINVAL && !*err)
		error_say(err, len, "bad CPU list '%s' at '%s': give CPUs such as 0-3,6",
		       o->cpu_list, o->cpu_list + bad);
	if (n < 0) {
		free(cpus);
		return n;
	}
	t->cpus = cpus;
	t->n_cpus = (size_t)n;
	snprintf(t->desc, sizeof(t->desc), "'CPU(s) %s'", o->cpu_list);
	return 0;
}

/*
 * The command's slot, at the end of pids: the command is forked for
 * each run, and target_set_command gives its pid. argv: the command, or
 * NULL for --explain, which shows the attrs a command would get.
 */
static int add_command_slot(struct target *t, char *const argv[])
{
	const char *base;

	if (argv) {
		base = strrchr(argv[0], '/');
		/* The kernel's comm: the file's name, 15 bytes at most. */
		snprintf(t->comm, sizeof(t->comm), "%s",
			 base ? base + 1 : argv[0]);
	}
	t->command_slot = true;
	return push(&t->pids, &t->n_pids, 0);
}

/*
 * -a --per-thread: every thread of every process there is now but
 * pstat; what they create later is counted with them (inherit). The
 * command, forked later, gets a slot of its own at the end.
 */
static int resolve_all_threads(struct target *t, char *const argv[],
			       char *err, size_t len)
{
	struct dirent *d;
	DIR *proc = opendir("/proc");
	char ignored[8];
	int pid, ret = 0;

	if (!proc)
		return error_say(err, len, "cannot list /proc: %s", strerror(errno));
	/* A process gone since the listing is no error: skip it. */
	while (ret != -ENOMEM && (d = readdir(proc))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		pid = atoi(d->d_name);
		if (pid != getpid())
			ret = add_threads(t, pid, ignored, sizeof(ignored));
	}
	closedir(proc);
	if (ret == -ENOMEM)
		return ret;
	snprintf(t->desc, sizeof(t->desc), "'system wide'");
	/* A thread may end between listing and opening. */
	t->skip_vanished = true;
	if (argv && add_command_slot(t, argv) < 0)
		return -ENOMEM;
	return t->n_pids ? 0 : error_say(err, len, "no threads found in /proc");
}

/* The command alone, from its exec on: nothing of pstat is counted. */
static int resolve_command(struct target *t, const struct options *o)
{
	t->enable_on_exec = !o->delay_ms;
	/* --per-thread or --per-process with a command (tasks.h). */
	t->per_task = o->aggr == AGGR_THREAD && !o->pids && !o->tids &&
		      !o->all_cpus && !o->cpu_list;
	t->per_process = t->per_task && o->per_process;
	return add_command_slot(t, o->argv);
}

/* Which of the options' targets: the first that applies. */
static int resolve_where(struct target *t, const struct options *o,
			 char *err, size_t len)
{
	int ret;

	if (o->action == OPTIONS_EXPLAIN)
		return resolve_command(t, o);
	if (o->all_cpus && o->aggr == AGGR_THREAD)
		return resolve_all_threads(t, o->argv, err, len);
	if (o->pids || o->tids) {
		ret = resolve_threads(t, o, err, len);
		/* A thread may end between listing and opening. */
		t->skip_vanished = true;
		return ret;
	}
	if (o->all_cpus || o->cpu_list)
		return resolve_cpus(t, o, err, len);
	return resolve_command(t, o);
}

int target_resolve(struct target *t, const struct options *o, char *err,
		   size_t len)
{
	bool threads = o->aggr == AGGR_THREAD;
	int ret;

	memset(t, 0, sizeof(*t));
	err[0] = '\0';
	t->inherit = !o->no_inherit;
	ret = resolve_where(t, o, err, len);
	/* --explain counts nothing: no rows to sum up. */
	if (ret == 0 && o->aggr != AGGR_GLOBAL &&
	    o->action != OPTIONS_EXPLAIN)
		ret = aggr_build(&t->aggr, o->aggr, threads ? t->pids : t->cpus,
				 threads ? t->n_pids : t->n_cpus,
				 threads && o->all_cpus);
	if (ret < 0)
		target_free(t);
	return ret;
}

void target_free(struct target *t)
{
	free(t->pids);
	free(t->cpus);
	aggr_free(&t->aggr);
	memset(t, 0, sizeof(*t));
}

void target_set_command(struct target *t, int pid)
{
	size_t last = t->n_pids - 1;

	if (!t->command_slot)
		return;
	t->pids[last] = pid;
	aggr_set_thread(&t->aggr, last, t->comm, pid);
}

/* Running or sleeping, not gone and not a zombie waiting for its parent. */
static bool thread_alive(int tid)
{
	char path[64], buf[256], *paren;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	/* "pid (comm) S ...": the state follows the last parenthesis. */
	paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
}

bool target_alive(const struct target *t)
{
	size_t i;

	for (i = 0; i < t->n_pids; i++)
		if (thread_alive(t->pids[i]))
			return true;
	return false;
}

size_t target_count(const struct target *t)
{
	return (t->pids ? t->n_pids : 1) * (t->cpus ? t->n_cpus : 1);
}

int target_pid(const struct target *t, size_t i)
{
	return t->pids ? t->pids[i / (t->cpus ? t->n_cpus : 1)] : -1;
}

int target_cpu(const struct target *t, size_t i)
{
	return t->cpus ? t->cpus[i % t->n_cpus] : -1;
}
