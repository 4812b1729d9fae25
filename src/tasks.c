/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The counts of each task a command makes, from the kernel's records.
 *
 * What this kernel does (measured on 6.18, see tests/per-thread.sh):
 * - An inherited per-task counter (inherit=1, cpu=-1) cannot be mapped
 *   (mmap: EINVAL), but PERF_EVENT_IOC_SET_OUTPUT sends its records
 *   into the ring buffer of a dummy counter on the same task, which can;
 *   the inherited copies in the command's threads and children write
 *   there too.
 * - With inherit_stat, each copy writes a PERF_RECORD_READ as its task
 *   ends, in the counter's read_format: with PERF_FORMAT_GROUP, nr then
 *   {value, id} pairs. The kernel takes a member out of its group before
 *   its record, so a leader's record may hold the whole group, or only
 *   itself, and a member's record itself, or the group again: every
 *   counter asks for inherit_stat, and a value is set by (task, id), not
 *   added, so that a value that comes twice counts once.
 * - The command's own task writes none (it is no inherited copy): its
 *   counts are the command's totals less those of the records.
 * - perf record -s has all its counters inherited, so the kernel may
 *   swap the command's context with a thread's that is its clone (a
 *   context switch made cheap); the thread then ends with the original
 *   counters and writes no record, and perf report -T lacks it (9 runs
 *   of 10 of tests/progs/tasks here). The buffer's owner here is not
 *   inherited, so no thread's context is a clone of the command's
 *   (inherit_task_group clears inherited_all), and that cannot happen.
 * - PERF_RECORD_COMM (at exec, or a thread naming itself) and
 *   PERF_RECORD_FORK name the tasks: a new task has its maker's name
 *   until it takes one. They come from a second dummy, inherited, with
 *   attr.comm and attr.task, whatever events opened.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "aggr.h"
#include "evlist.h"
#include "ringbuf.h"
#include "sys.h"
#include "tasks.h"

struct task {
	int pid, tid;
	char comm[16];
	bool ended;		/* its PERF_RECORD_READ came */
};

struct tasks {
	int fd;			/* the dummy counter that owns the buffer */
	int names_fd;		/* the inherited one that names tasks */
	void *map;		/* its metadata page, then the data */
	size_t map_len;
	uint64_t data_size;
	size_t n_ev;		/* evsels: the values of each task */
	struct task *t;
	struct counts_values *vals;	/* n_ev per task */
	size_t n, cap;
	uint64_t lost;
	bool full;		/* a drain found less room than a record needs */
	int command;		/* the command's pid: its task is first */
	struct ringbuf_record rec;
};

/*
 * The buffer's owner (names false), woken when half full, to take the
 * records while there is room; or the inherited counter that says when
 * tasks are made and named. Dummies: they count nothing.
 */
static int open_dummy(int pid, uint64_t data_size, bool names)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.watermark = !names;
	a.wakeup_watermark = names ? 0 : (uint32_t)(data_size / 2);
	a.inherit = names;
	a.comm = names;
	a.task = names;
	/* Which perf_event_paranoid 2 asks of a user; a dummy counts
	 * nothing to leave out, and its records come all the same. */
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return sys_perf_event_open(&a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

int tasks_open(struct tasks **tp, struct evlist *el, int pid, size_t pages)
{
	long page = sysconf(_SC_PAGESIZE);
	struct tasks *t = calloc(1, sizeof(*t));
	int ret;

	*tp = t;
	if (!t)
		return -ENOMEM;
	t->fd = t->names_fd = -1;
	t->command = pid;
	t->n_ev = evlist_count(el);
	if (!pages || pages > 1024 || (pages & (pages - 1)))
		pages = TASKS_PAGES;
	t->data_size = (uint64_t)pages * (uint64_t)(page > 0 ? page : 4096);
	t->map_len = (size_t)t->data_size + (size_t)(page > 0 ? page : 4096);
	ret = open_dummy(pid, t->data_size, false);
	if (ret < 0)
		goto fail;
	t->fd = ret;
	ret = sys_mmap(t->fd, t->map_len, &t->map);
	if (ret < 0) {
		t->map = NULL;
		goto fail;
	}
	ret = open_dummy(pid, 0, true);
	if (ret < 0)
		goto fail;
	t->names_fd = ret;
	ret = sys_event_ioctl(t->names_fd, PERF_EVENT_IOC_SET_OUTPUT,
			      (unsigned long)t->fd);
	if (ret == 0)
		ret = evlist_redirect(el, t->fd);
	if (ret < 0)
		goto fail;
	return 0;
fail:
	tasks_close(t);
	*tp = NULL;
	return ret;
}

int tasks_fd(const struct tasks *t)
{
	return t->fd;
}

/* The newest task with tid (a tid is used again once its task is gone). */
static struct task *find(struct tasks *t, int tid)
{
	size_t i;

	for (i = t->n; i-- > 0;)
		if (t->t[i].tid == tid)
			return &t->t[i];
	return NULL;
}

static int grow(struct tasks *t)
{
	size_t cap = t->cap ? t->cap * 2 : 16;
	struct task *nt;
	struct counts_values *nv;

	if (cap > SIZE_MAX / sizeof(*nv) / (t->n_ev + 1))
		return -ENOMEM;
	nt = realloc(t->t, cap * sizeof(*nt));
	if (!nt)
		return -ENOMEM;
	t->t = nt;
	nv = realloc(t->vals, cap * (t->n_ev + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	t->vals = nv;
	t->cap = cap;
	return 0;
}

/* A task new to pstat, named as its maker is (or "?"). */
static struct task *add(struct tasks *t, int pid, int tid, int ptid)
{
	const struct task *maker;
	struct task *k;

	if (t->n == t->cap && grow(t) < 0)
		return NULL;
	/* Found after grow, which moves the tasks. */
	maker = ptid ? find(t, ptid) : NULL;
	k = &t->t[t->n];
	*k = (struct task){ .pid = pid, .tid = tid };
	memcpy(k->comm, maker ? maker->comm : "?", maker ? sizeof(k->comm) : 2);
	memset(&t->vals[t->n * t->n_ev], 0, t->n_ev * sizeof(*t->vals));
	t->n++;
	return k;
}

/* Control characters shown as '?', as ps(1) does: one line each. */
static void set_comm(struct task *k, const char *comm)
{
	size_t i;

	snprintf(k->comm, sizeof(k->comm), "%s", comm);
	for (i = 0; k->comm[i]; i++)
		if ((unsigned char)k->comm[i] < ' ' || k->comm[i] == 0x7f)
			k->comm[i] = '?';
}

/*
 * A task ended: its counts, read_format GROUP|ID|TOTAL_TIME_ENABLED|
 * TOTAL_TIME_RUNNING (nr, enabled, running, then nr {value, id}). One
 * that makes no sense is a lost record: its counts stay the command's.
 */
static void take_read(struct tasks *t, const struct evlist *el,
		      struct task *k, const struct ringbuf_event *ev)
{
	const uint64_t *v = ev->values;
	struct counts_values *kv = &t->vals[(size_t)(k - t->t) * t->n_ev];
	size_t j, i;

	if (ev->n_values < 3 || v[0] != (ev->n_values - 3) / 2 ||
	    (ev->n_values - 3) % 2) {
		t->lost++;
		return;
	}
	for (j = 0; j < v[0]; j++)
		if (evlist_find_id(el, v[3 + 2 * j + 1], &i))
			kv[i] = (struct counts_values){
				.value = v[3 + 2 * j],
				.enabled = v[1],
				.running = v[2],
			};
	k->ended = true;
}

/* One record: a task named, made, ended; or records lost. */
static int take(struct tasks *t, const struct evlist *el,
		const struct ringbuf_event *ev)
{
	struct task *k;

	if (ev->kind == RINGBUF_LOST) {
		t->lost += ev->lost;
		return 0;
	}
	if (ev->kind == RINGBUF_OTHER)
		return 0;
	k = find(t, (int)ev->tid);
	/* A tid used again: a new task. */
	if (k && k->ended && ev->kind == RINGBUF_FORK)
		k = NULL;
	if (!k)
		k = add(t, (int)ev->pid, (int)ev->tid,
			ev->kind == RINGBUF_FORK ? (int)ev->ptid : 0);
	if (!k)
		return -ENOMEM;
	if (ev->kind == RINGBUF_COMM)
		set_comm(k, ev->comm);
	if (ev->kind == RINGBUF_READ)
		take_read(t, el, k, ev);
	return 0;
}

int tasks_drain(struct tasks *t, const struct evlist *el)
{
	struct perf_event_mmap_page *pg = t->map;
	struct ringbuf_view v = {
		.data = (const unsigned char *)t->map +
			(t->map_len - (size_t)t->data_size),
		.size = t->data_size,
	};
	struct ringbuf_event ev;
	uint64_t tail = pg->data_tail;
	int ret, n = 0;

	v.head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	/*
	 * The kernel drops what does not fit, and says how much in a
	 * PERF_RECORD_LOST only when a later record fits: the last ones
	 * of a full buffer may be lost unsaid. A READ of every counter is
	 * the largest record pstat asks for.
	 */
	if (v.head - tail + 40 + 16 * (uint64_t)t->n_ev > t->data_size)
		t->full = true;
	while ((ret = ringbuf_next(&v, &tail, &t->rec)) > 0) {
		if (ringbuf_decode(&t->rec, &ev) < 0)
			t->lost++;
		else if (take(t, el, &ev) < 0)
			break;
		n++;
	}
	/* A buffer that makes no sense: what is left of it is lost. */
	if (ret < 0) {
		t->lost++;
		tail = v.head;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	return ret > 0 ? -ENOMEM : n;
}

/* The row of id among the n so far, added when new. */
static size_t row_of(int *ids, const char **comm, size_t *n, int id,
		     const char *name)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (ids[i] == id)
			return i;
	ids[*n] = id;
	comm[*n] = name;
	return (*n)++;
}

static void add_values(struct counts_values *to,
		       const struct counts_values *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		to[i].value += v[i].value;
		to[i].enabled += v[i].enabled;
		to[i].running += v[i].running;
	}
}

static uint64_t less(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* The command's own: the totals less what the ended tasks counted. */
static void command_values(const struct tasks *t,
			   const struct counts_values *totals,
			   struct counts_values *own)
{
	struct counts_values *sum = own;
	size_t i, e;

	memset(sum, 0, t->n_ev * sizeof(*sum));
	for (i = 0; i < t->n; i++)
		if (t->t[i].ended && t->t[i].tid != t->command)
			add_values(sum, &t->vals[i * t->n_ev], t->n_ev);
	for (e = 0; e < t->n_ev; e++) {
		own[e].value = less(totals[e].value, sum[e].value);
		own[e].enabled = less(totals[e].enabled, sum[e].enabled);
		own[e].running = less(totals[e].running, sum[e].running);
	}
}

/* Rows (ids and names) of the command and of each ended task. */
static int list_rows(const struct tasks *t, bool per_process, int *ids,
		     const char **comm, size_t *of_task, struct tasks_gaps *g)
{
	const struct task *cmd = NULL;
	size_t n = 0, i;

	for (i = 0; i < t->n; i++)
		if (t->t[i].tid == t->command)
			cmd = &t->t[i];
	row_of(ids, comm, &n, t->command, cmd ? cmd->comm : "?");
	for (i = 0; i < t->n; i++) {
		const struct task *k = &t->t[i];
		int id = per_process ? k->pid : k->tid;

		of_task[i] = SIZE_MAX;
		if (k->tid == t->command)
			continue;
		if (!k->ended) {
			g->unended++;
			continue;
		}
		of_task[i] = row_of(ids, comm, &n, id, k->comm);
		/* A process is named by its first thread, once known. */
		if (per_process && k->tid == k->pid)
			comm[of_task[i]] = k->comm;
	}
	return (int)n;
}

int tasks_aggr(const struct tasks *t, const struct counts_values *totals,
	       bool per_process, struct aggr *a, struct counts_values **vals,
	       struct tasks_gaps *gaps)
{
	int *ids = calloc(t->n + 1, sizeof(*ids));
	const char **comm = calloc(t->n + 1, sizeof(*comm));
	size_t *of_task = calloc(t->n + 1, sizeof(*of_task));
	struct counts_values *v = calloc((t->n + 1) * (t->n_ev + 1),
					 sizeof(*v));
	size_t n, i, at;
	int ret = -ENOMEM;

	*gaps = (struct tasks_gaps){ .lost = t->lost, .full = t->full };
	*vals = NULL;
	if (!ids || !comm || !of_task || !v)
		goto out;
	n = (size_t)list_rows(t, per_process, ids, comm, of_task, gaps);
	ret = aggr_build(a, AGGR_THREAD, ids, n, false);
	if (ret < 0)
		goto out;
	for (i = 0; i < n; i++)
		aggr_set_thread(a, i, comm[i], ids[i]);
	command_values(t, totals, v + t->n * t->n_ev);
	add_values(&v[a->of_target[0] * t->n_ev], v + t->n * t->n_ev,
		   t->n_ev);
	memset(v + t->n * t->n_ev, 0, t->n_ev * sizeof(*v));
	for (i = 0; i < t->n; i++) {
		if (of_task[i] == SIZE_MAX)
			continue;
		at = a->of_target[of_task[i]];
		add_values(&v[at * t->n_ev], &t->vals[i * t->n_ev], t->n_ev);
	}
	*vals = v;
	v = NULL;
out:
	free(ids);
	free(comm);
	free(of_task);
	free(v);
	return ret;
}

void tasks_close(struct tasks *t)
{
	if (!t)
		return;
	if (t->map)
		sys_munmap(t->map, t->map_len);
	if (t->names_fd >= 0)
		sys_close(t->names_fd);
	if (t->fd >= 0)
		sys_close(t->fd);
	free(t->t);
	free(t->vals);
	free(t);
}
