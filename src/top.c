/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat top: counters per process or thread, found by scanning /proc. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <signal.h>
#include <unistd.h>

#include "count.h"
#include "counts.h"
#include "dest.h"
#include "diag.h"
#include "diagnose.h"
#include "evlist.h"
#include "evsel.h"
#include "options.h"
#include "run.h"
#include "target.h"
#include "top.h"
#include "top_impl.h"

/* The kernel's flag of its own threads, in /proc/PID/stat. */
#define PF_KTHREAD 0x00200000UL

/* Without -e: what a top shows, and what needs a PMU (IPC). */
static const char *const default_events[] = {
	"task-clock,context-switches,page-faults,cycles,instructions",
};

/* What the command line chose, beyond the events. */
struct top_filter {
	int *pids;		/* -p, or NULL */
	size_t n_pids;
	bool by_user;		/* -u */
	uid_t uid;
	int self;		/* pstat itself: not a row */
};

/* What /proc/PID/stat (or a thread's) says of a task. */
struct top_stat {
	char comm[16];
	unsigned long long ticks;	/* utime + stime */
	bool kthread;
};

const char *top_event_name(const struct top *t, size_t i)
{
	return evsel_name(evlist_at(t->events, i));
}

/* "/proc/PID/stat" or ".../task/TID/stat" into s: 0, or -errno. */
static int read_stat(const char *path, struct top_stat *s)
{
	char buf[1024], *open, *close;
	unsigned long long utime = 0, stime = 0;
	unsigned long flags = 0;
	size_t n;
	FILE *f = fopen(path, "re");

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	(void)fclose(f);
	buf[n] = '\0';
	open = strchr(buf, '(');
	close = strrchr(buf, ')');
	/* After the name: state ppid pgrp session tty tpgid flags minflt
	 * cminflt majflt cmajflt utime stime. */
	if (!open || !close || close < open ||
	    sscanf(close + 1, " %*c %*d %*d %*d %*d %*d %lu %*u %*u %*u %*u %llu %llu",
		   &flags, &utime, &stime) != 3)
		return -EIO;
	n = (size_t)(close - open - 1);
	if (n >= sizeof(s->comm))
		n = sizeof(s->comm) - 1;
	memcpy(s->comm, open + 1, n);
	s->comm[n] = '\0';
	s->ticks = utime + stime;
	s->kthread = flags & PF_KTHREAD;
	return 0;
}

/* A /proc directory entry's number, or 0 when it is not one. */
static int entry_id(const struct dirent *d)
{
	const char *p;
	long v;

	for (p = d->d_name; *p; p++)
		if (!isdigit((unsigned char)*p))
			return 0;
	v = strtol(d->d_name, NULL, 10);
	return v > 0 && v <= 0x3fffffff ? (int)v : 0;
}

/* The threads of process pid, now, into *tids: their number, or -errno. */
static long list_threads(int pid, int **tids)
{
	char path[64];
	struct dirent *d;
	size_t n = 0, cap = 0;
	int *grown, id;
	DIR *dir;

	*tids = NULL;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		id = entry_id(d);
		if (!id)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			grown = realloc(*tids, cap * sizeof(**tids));
			if (!grown) {
				closedir(dir);
				return -ENOMEM;
			}
			*tids = grown;
		}
		(*tids)[n++] = id;
	}
	closedir(dir);
	return (long)n;
}

static void row_close(struct top *t, struct top_row *r)
{
	evlist_free(r->el);
	r->el = NULL;
	t->fds_used -= r->fds;
	r->fds = 0;
}

static void row_free(struct top *t, struct top_row *r)
{
	if (!r)
		return;
	row_close(t, r);
	free(r->total);
	free(r->delta);
	free(r->counted);
	free(r);
}

static struct top_row *find_row(const struct top *t, int tid)
{
	size_t i;

	for (i = 0; i < t->n_rows; i++)
		if (t->rows[i]->tid == tid)
			return t->rows[i];
	return NULL;
}

static struct top_row *row_new(struct top *t, int pid, int tid)
{
	struct top_row *r = calloc(1, sizeof(*r)), **grown;

	if (!r)
		return NULL;
	r->pid = pid;
	r->tid = tid;
	r->cpu_pct = NAN;
	r->total = calloc(t->n_events + 1, sizeof(*r->total));
	r->delta = calloc(t->n_events + 1, sizeof(*r->delta));
	r->counted = calloc(t->n_events + 1, sizeof(*r->counted));
	if (t->n_rows == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		/* NOLINTNEXTLINE(bugprone-sizeof-expression): pointers */
		grown = realloc(t->rows, t->cap * sizeof(*t->rows));
		if (grown)
			t->rows = grown;
		else
			t->cap = t->n_rows;
	}
	if (!r->total || !r->delta || !r->counted || t->n_rows == t->cap) {
		row_free(t, r);
		return NULL;
	}
	t->rows[t->n_rows++] = r;
	return r;
}

/* The task the scan found: its row updated, or a new one. 0 or -ENOMEM. */
static int found(struct top *t, int pid, int tid, const struct top_stat *s)
{
	struct top_row *r = find_row(t, tid);

	if (!r) {
		r = row_new(t, pid, tid);
		if (!r)
			return -ENOMEM;
		/* No delta yet: the busiest so far. */
		r->ticks_delta = s->ticks;
	} else {
		r->ticks_delta = s->ticks - r->ticks;
	}
	r->ticks = s->ticks;
	r->seen = true;
	memcpy(r->comm, s->comm, sizeof(r->comm));
	return 0;
}

static bool wanted(const struct top *t, const struct top_filter *f,
		   int pid)
{
	char path[32];
	struct stat st;
	size_t i;

	if (pid == f->self)
		return false;
	if (f->pids) {
		for (i = 0; i < f->n_pids && f->pids[i] != pid; i++)
			;
		if (i == f->n_pids)
			return false;
	}
	if (!f->by_user)
		return true;
	snprintf(path, sizeof(path), "/proc/%d", pid);
	return stat(path, &st) == 0 && st.st_uid == f->uid;
}

/* --per-thread: each thread of pid. 0 or -ENOMEM. */
static int found_threads(struct top *t, int pid)
{
	struct top_stat s = { 0 };
	char path[80];
	int *tids, ret = 0;
	long n, i;

	n = list_threads(pid, &tids);
	if (n == -ENOMEM)
		return -ENOMEM;
	for (i = 0; ret == 0 && tids && i < n; i++) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid,
			 tids[i]);
		if (read_stat(path, &s) == 0)
			ret = found(t, pid, tids[i], &s);
	}
	free(tids);
	return ret;
}

/* Every task f takes, now: rows seen, new ones made. 0 or -errno. */
static int scan(struct top *t, const struct top_filter *f)
{
	struct top_stat s = { 0 };
	struct dirent *d;
	char path[48];
	int pid, ret = 0;
	DIR *proc = opendir("/proc");

	if (!proc)
		return -errno;
	while (ret == 0 && (d = readdir(proc))) {
		pid = entry_id(d);
		if (!pid || !wanted(t, f, pid))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		/* Gone already, or a kernel thread: no row. */
		if (read_stat(path, &s) < 0 || s.kthread)
			continue;
		ret = t->o->top_per_thread ? found_threads(t, pid)
					   : found(t, pid, pid, &s);
	}
	closedir(proc);
	return ret;
}

/*
 * Before a scan: rows shown as ended are closed and dropped, the rest
 * unseen. After it: what was not seen has ended (a row never counted
 * goes at once).
 */
static void sweep_ended(struct top *t)
{
	size_t i, kept = 0;

	for (i = 0; i < t->n_rows; i++) {
		struct top_row *r = t->rows[i];

		if (r->state == TOP_ENDED) {
			row_free(t, r);
			continue;
		}
		r->seen = false;
		t->rows[kept++] = r;
	}
	t->n_rows = kept;
}

static void mark_ended(struct top *t)
{
	size_t i, kept = 0;

	for (i = 0; i < t->n_rows; i++) {
		struct top_row *r = t->rows[i];

		if (!r->seen && !r->el) {
			row_free(t, r);
			continue;
		}
		if (!r->seen)
			r->state = TOP_ENDED;
		t->rows[kept++] = r;
	}
	t->n_rows = kept;
}

/* Why r may not be counted, in the words of --check. */
static void deny(struct top_row *r, const struct evsel *e, int err)
{
	struct diagnose_facts facts;
	struct diagnose_failure fail = {
		.event = evsel_name(e),
		.attr = evsel_attr(e),
		.err = err,
		.pid = r->tid,
		.cpu = -1,
	};

	diagnose_gather(&facts, DIAGNOSE_OPEN, r->pid);
	diagnose_open_error(&fail, &facts, r->reason, sizeof(r->reason));
	r->state = TOP_DENIED;
}

/*
 * Open r's counters: on each of its threads with inherit, or on the
 * thread alone. 0; -EMFILE when the descriptors ran out; -ENOMEM. A
 * task that may not be counted is TOP_DENIED, and 0.
 */
static int row_open(struct top *t, struct top_row *r)
{
	struct target tg = { .inherit = !t->o->top_per_thread,
			     .skip_vanished = true };
	size_t failed, i;
	int ret;
	long n = 1;

	if (t->o->top_per_thread) {
		tg.pids = malloc(sizeof(*tg.pids));
		if (!tg.pids)
			return -ENOMEM;
		tg.pids[0] = r->tid;
	} else {
		n = list_threads(r->pid, &tg.pids);
	}
	/* Gone since the scan: the next one says so. */
	if (n <= 0) {
		free(tg.pids);
		return n == -ENOMEM ? -ENOMEM : 0;
	}
	tg.n_pids = (size_t)n;
	r->el = evlist_copy(t->events);
	ret = r->el ? evlist_open(r->el, &tg, &failed) : -ENOMEM;
	if (ret == 0)
		ret = evlist_enable(r->el);
	free(tg.pids);
	if (ret < 0 && ret != -ENOMEM && ret != -EMFILE &&
	    failed != EVLIST_NO_EVSEL)
		deny(r, evlist_at(r->el, failed), -ret);
	if (ret < 0) {
		evlist_free(r->el);
		r->el = NULL;
		return ret == -ENOMEM || ret == -EMFILE ? ret : 0;
	}
	r->fds = evlist_fds_needed(r->el, evlist_targets(r->el));
	t->fds_used += r->fds;
	for (i = 0; i < t->n_events; i++)
		r->counted[i] = evsel_is_open(evlist_at(r->el, i));
	return 0;
}

/* The busier (by CPU time since the last scan) first. */
static int busier(const void *a, const void *b)
{
	const struct top_row *x = *(struct top_row *const *)a;
	const struct top_row *y = *(struct top_row *const *)b;

	if (x->ticks_delta != y->ticks_delta)
		return x->ticks_delta > y->ticks_delta ? -1 : 1;
	return x->tid - y->tid;
}

/*
 * Counters for the rows that have none, the busiest first, while the
 * descriptors last; those left over are counted in n_over. 0 or
 * -ENOMEM.
 */
static int plan(struct top *t)
{
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): pointers */
	struct top_row **want = malloc((t->n_rows + 1) * sizeof(*want));
	size_t i, n = 0;
	bool full = false;
	int ret = 0;

	if (!want)
		return -ENOMEM;
	for (i = 0; i < t->n_rows; i++)
		if (!t->rows[i]->el && t->rows[i]->state == TOP_LIVE)
			want[n++] = t->rows[i];
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): pointers */
	qsort(want, n, sizeof(*want), busier);
	t->n_over = 0;
	for (i = 0; ret == 0 && i < n; i++) {
		/* One thread at least; its threads, once opened. */
		if (full || t->fds_used + evlist_fds_needed(t->events, 1) >
			    t->fd_budget) {
			t->n_over++;
			continue;
		}
		ret = row_open(t, want[i]);
		if (ret == 0 && want[i]->fds && t->fds_used > t->fd_budget) {
			/* More threads than one: it did not fit after all. */
			row_close(t, want[i]);
			t->n_over++;
		}
		if (ret == -EMFILE) {
			full = true;
			t->n_over++;
			ret = 0;
		}
	}
	free(want);
	return ret;
}

/* Each counted row's counts since the last read. */
static void read_rows(struct top *t)
{
	struct counts_result res;
	const struct evsel *e;
	uint64_t sum;
	size_t i, j, k;

	for (i = 0; i < t->n_rows; i++) {
		struct top_row *r = t->rows[i];

		if (!r->el)
			continue;
		/* A read that fails leaves the last values: no change. */
		evlist_read(r->el);
		for (j = 0; j < t->n_events; j++) {
			e = evlist_at(r->el, j);
			sum = 0;
			for (k = 0; k < evsel_targets(e); k++) {
				if (!evsel_open_on(e, k))
					continue;
				counts_scale(evsel_value(e, k), &res);
				if (counts_counted(&res))
					sum += res.value;
			}
			r->delta[j] = sum >= r->total[j] ? sum - r->total[j] : 0;
			r->total[j] = sum;
		}
		r->cpu_pct = t->clock >= 0 && r->counted[t->clock] &&
			     t->interval_s > 0 ?
			     (double)r->delta[t->clock] / 1e7 / t->interval_s :
			     NAN;
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Until start + at seconds. */
static void sleep_until(double start, double at)
{
	double when = start + at;
	struct timespec ts = {
		.tv_sec = (time_t)when,
		.tv_nsec = (long)((when - floor(when)) * 1e9),
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/* The column --sort names: 0, or -1 when there is none such. */
static int sort_column(struct top *t, const char *name)
{
	static const struct {
		const char *name;
		int column;
	} fixed[] = {
		{ "%CPU", TOP_SORT_CPU }, { "CPU", TOP_SORT_CPU },
		{ "PID", TOP_SORT_PID }, { "TID", TOP_SORT_TID },
		{ "COMM", TOP_SORT_COMM },
	};
	size_t i;

	if (!name) {
		t->sort = t->clock >= 0 ? TOP_SORT_CPU : 0;
		return 0;
	}
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (strcasecmp(name, fixed[i].name) == 0 &&
		    (fixed[i].column != TOP_SORT_CPU || t->clock >= 0) &&
		    (fixed[i].column != TOP_SORT_TID ||
		     t->o->top_per_thread)) {
			t->sort = fixed[i].column;
			return 0;
		}
	for (i = 0; i < t->n_events; i++)
		if (strcmp(name, top_event_name(t, i)) == 0) {
			t->sort = (int)i;
			return 0;
		}
	return -1;
}

static const struct top *sorting;

static int by_column(const void *a, const void *b)
{
	const struct top_row *x = *(struct top_row *const *)a;
	const struct top_row *y = *(struct top_row *const *)b;
	double vx, vy;
	int c;

	switch (sorting->sort) {
	case TOP_SORT_PID:
		c = x->pid - y->pid;
		break;
	case TOP_SORT_TID:
		c = x->tid - y->tid;
		break;
	case TOP_SORT_COMM:
		c = strcmp(x->comm, y->comm);
		break;
	default:
		/* The largest first; a row without the number last. */
		vx = sorting->sort == TOP_SORT_CPU ? x->cpu_pct
			: x->counted[sorting->sort] ?
			(double)x->delta[sorting->sort] : NAN;
		vy = sorting->sort == TOP_SORT_CPU ? y->cpu_pct
			: y->counted[sorting->sort] ?
			(double)y->delta[sorting->sort] : NAN;
		if (isnan(vx) || isnan(vy))
			c = isnan(vx) - isnan(vy);
		else
			c = vx > vy ? -1 : vx < vy;
	}
	return c ? c : x->tid - y->tid;
}

static void sort_rows(struct top *t)
{
	sorting = t;
	if (t->n_rows)
		/* NOLINTNEXTLINE(bugprone-sizeof-expression): pointers */
		qsort(t->rows, t->n_rows, sizeof(*t->rows), by_column);
}

/* -p's list: numbers separated by commas. 0 or -EINVAL (said). */
static int parse_pids(const char *s, struct top_filter *f)
{
	const char *p = s;
	char *end;
	long v;

	f->pids = calloc(strlen(s) / 2 + 1, sizeof(*f->pids));
	if (!f->pids)
		return -ENOMEM;
	do {
		errno = 0;
		v = strtol(p, &end, 10);
		if (!isdigit((unsigned char)*p) || errno || v <= 0 ||
		    v > 0x3fffffff || (*end && *end != ',')) {
			diag_error("bad -p list '%s': give process ids separated by commas",
				   s);
			return -EINVAL;
		}
		f->pids[f->n_pids++] = (int)v;
		p = end + 1;
	} while (*end);
	return 0;
}

/* -u's user: a name or a number. 0 or -EINVAL (said). */
static int parse_user(const char *s, struct top_filter *f)
{
	struct passwd entry = { 0 }, *pw = NULL;
	char buf[1024];
	FILE *db;
	char *end;
	long v;

	f->by_user = true;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*s && !*end && isdigit((unsigned char)*s) && !errno &&
	    v >= 0 && v < 0x7fffffff) {
		f->uid = (uid_t)v;
		return 0;
	}
	/* /etc/passwd's names: a static pstat has no NSS modules to ask
	 * (getpwnam would load them); other users by their number. */
	db = fopen("/etc/passwd", "re");
	while (db && fgetpwent_r(db, &entry, buf, sizeof(buf), &pw) == 0 &&
	       strcmp(pw->pw_name, s) != 0)
		pw = NULL;
	if (pw)
		f->uid = pw->pw_uid;
	if (db)
		(void)fclose(db);
	if (!pw) {
		diag_error("-u: no user '%s' in /etc/passwd; give the user's number",
			   s);
		return -EINVAL;
	}
	return 0;
}

/*
 * The descriptors the counters may take: the soft limit raised to the
 * hard, less those open now and a reserve (as run.c keeps).
 */
static size_t fd_budget(void)
{
	struct rlimit rl;
	size_t open = 0, limit;
	DIR *dir;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 0;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	limit = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > SIZE_MAX / 2 ?
		SIZE_MAX / 2 : (size_t)rl.rlim_cur;
	dir = opendir("/proc/self/fd");
	while (dir && readdir(dir))
		open++;
	if (dir)
		closedir(dir);
	open += RUN_RESERVED_FDS;
	return limit > open ? limit - open : 0;
}

/* The events, the sort column, the filters: 0 or -errno (-EINVAL said). */
static int top_prepare(struct top *t, const struct options *o,
		       struct top_filter *f)
{
	struct options eo = *o;
	size_t i;
	int ret;

	if (!o->n_events) {
		eo.events = (const char **)default_events;
		eo.n_events = 1;
	}
	t->events = evlist_new();
	if (!t->events)
		return -ENOMEM;
	ret = count_events(&eo, t->events, NULL, NULL);
	if (ret < 0)
		return ret;
	t->n_events = evlist_count(t->events);
	t->clock = -1;
	for (i = 0; i < t->n_events && t->clock < 0; i++)
		if (evsel_is_clock(evlist_at(t->events, i)) &&
		    evsel_attr(evlist_at(t->events, i))->config ==
		    PERF_COUNT_SW_TASK_CLOCK &&
		    evsel_attr(evlist_at(t->events, i))->type ==
		    PERF_TYPE_SOFTWARE)
			t->clock = (long)i;
	if (sort_column(t, o->top_sort) < 0) {
		diag_error("--sort: no column '%s'; the columns are %s%sCOMM%s and the events (-e)",
			   o->top_sort, t->clock >= 0 ? "%CPU, " : "",
			   "PID, ", o->top_per_thread ? ", TID" : "");
		return -EINVAL;
	}
	f->self = getpid();
	if (o->pids && (ret = parse_pids(o->pids, f)) < 0)
		return ret;
	if (o->top_user && (ret = parse_user(o->top_user, f)) < 0)
		return ret;
	/* Closing a tracepoint's last counter costs tens of ms: keep
	 * each registered while rows come and go (a descriptor each,
	 * out of the budget). */
	evlist_anchor_tracepoints(t->events);
	t->fd_budget = fd_budget();
	return 0;
}

/* One interval's counts: the scan, each row read, sorted. 0 or -errno. */
static int step(struct top *t, const struct top_filter *f)
{
	double now;
	size_t i;
	int ret;

	sweep_ended(t);
	ret = scan(t, f);
	if (ret < 0)
		return ret;
	mark_ended(t);
	now = now_s();
	t->interval_s = now - t->last;
	t->time_s = now - t->start;
	t->last = now;
	read_rows(t);
	t->n_interval++;
	t->n_tasks = 0;
	for (i = 0; i < t->n_rows; i++)
		t->n_tasks += t->rows[i]->state != TOP_ENDED;
	sort_rows(t);
	return 0;
}

/* One interval of -b: its table printed. 0 or -errno. */
static int interval(struct top *t, const struct top_filter *f)
{
	char note[512];
	int ret;

	sleep_until(t->start, (double)(t->n_interval + 1) *
			      t->o->top_delay_ms / 1000.0);
	ret = step(t, f);
	if (ret == 0)
		ret = top_print(t->out, t);
	if (ret == 0 && t->n_over && !t->said_over &&
	    t->o->out.format == OUTPUT_CSV) {
		/* -x's lines have no room for it: said once, on stderr. */
		top_print_budget_note(t, note, sizeof(note));
		diag_note("%s", note);
		t->said_over = true;
	}
	return ret < 0 ? ret : plan(t);
}

#ifdef HAVE_NCURSES
/* The columns in the order < and > go through them. */
static void next_sort(struct top *t, int dir)
{
	int cols[4 + 64], n = 0, i;

	if (t->clock >= 0)
		cols[n++] = TOP_SORT_CPU;
	cols[n++] = TOP_SORT_PID;
	if (t->o->top_per_thread)
		cols[n++] = TOP_SORT_TID;
	cols[n++] = TOP_SORT_COMM;
	for (i = 0; i < (int)t->n_events && n < (int)(sizeof(cols) /
						       sizeof(cols[0])); i++)
		cols[n++] = i;
	for (i = 0; i < n && cols[i] != t->sort; i++)
		;
	t->sort = cols[((i < n ? i : 0) + dir + n) % n];
	sort_rows(t);
}

/* A key: 0 to go on, 1 to quit. */
static int key(struct top *t, int k, struct top_screen_view *v)
{
	switch (k) {
	case 'q':
	case 'Q':
		return 1;
	case 'h':
	case '?':
		v->help = !v->help;
		break;
	case ' ':
		v->paused = !v->paused;
		break;
	case '<':
		next_sort(t, -1);
		break;
	case '>':
		next_sort(t, 1);
		break;
	}
	return 0;
}

/*
 * The screen: an interval's table drawn at its end, keys and resizes
 * at once. The terminal is given back on every way out; a signal that
 * ends it is raised again once it is. 0 or -errno.
 */
static int screen_loop(struct top *t, const struct top_filter *f)
{
	struct top_screen_view v = { 0 };
	int ret, k = 0, sig = 0;
	double due;

	ret = top_screen_open();
	if (ret < 0)
		return ret;
	ret = scan(t, f);
	if (ret == 0)
		ret = plan(t);
	top_screen_draw(t, &v);
	while (ret == 0 && !sig && (!t->o->top_iterations ||
				    t->n_interval < t->o->top_iterations)) {
		due = t->start + (double)(t->n_interval + 1) *
				 t->o->top_delay_ms / 1000.0;
		switch (top_screen_wait(due - now_s(), &k, &sig)) {
		case TOP_SCREEN_TIMEOUT:
			ret = step(t, f);
			if (ret == 0 && !v.paused)
				top_screen_draw(t, &v);
			if (ret == 0)
				ret = plan(t);
			break;
		case TOP_SCREEN_KEY:
			if (key(t, k, &v))
				sig = -1;
			else
				top_screen_draw(t, &v);
			break;
		case TOP_SCREEN_RESIZE:
			top_screen_draw(t, &v);
			break;
		default:
			break;
		}
	}
	top_screen_close();
	if (sig > 0)
		(void)raise(sig);
	return ret;
}
#endif

/* The stream's failure: 0 for a reader that stopped reading. */
static int write_failed(const struct top *t, int ret)
{
	if (ret == -EPIPE)
		return 0;
	diag_errno(-ret, "cannot write the table%s%s",
		   t->o->output_file ? " to " : "",
		   t->o->output_file ? t->o->output_file : "");
	return EXIT_PSTAT_FAILED;
}

static int batch_loop(struct top *t, const struct top_filter *f)
{
	int ret;

	ret = scan(t, f);
	if (ret == 0)
		ret = plan(t);
	while (ret == 0 && (!t->o->top_iterations ||
			    t->n_interval < t->o->top_iterations))
		ret = interval(t, f);
	return ret;
}

static int top_loop(struct top *t, const struct top_filter *f)
{
	int ret;

	t->start = t->last = now_s();
#ifdef HAVE_NCURSES
	ret = t->o->top_batch ? batch_loop(t, f) : screen_loop(t, f);
#else
	ret = batch_loop(t, f);
#endif
	if (ret == -ENOTTY) {
		diag_error("pstat top's screen needs a terminal (standard input and output): add -b for a table each interval");
		return EXIT_PSTAT_FAILED;
	}
	if (ret == -ENOMEM)
		diag_errno(ENOMEM, "cannot count the tasks");
	else if (ret == -EIO || ret == -EPIPE || ret == -ENOSPC ||
		 ret == -EFBIG || ret == -EDQUOT)
		return write_failed(t, ret);
	else if (ret < 0)
		diag_errno(-ret, "cannot read /proc");
	return ret < 0 ? EXIT_PSTAT_FAILED : 0;
}

int top_run(const struct options *o)
{
	struct top t = { .o = o };
	struct top_filter f = { 0 };
	int ret, fd = -1;
	size_t i;

	ret = top_prepare(&t, o, &f);
	if (ret < 0 && ret != -EINVAL)
		diag_errno(-ret, "cannot make the event list");
	if (ret == 0) {
		t.out = o->output_file ? count_destination(o, &fd) : stdout;
		ret = t.out ? top_loop(&t, &f) : EXIT_PSTAT_FAILED;
		if (t.out && t.out != stdout && dest_finish(t.out) != 0 &&
		    ret == 0)
			ret = write_failed(&t, -errno);
	} else {
		ret = EXIT_PSTAT_FAILED;
	}
	for (i = 0; i < t.n_rows; i++)
		row_free(&t, t.rows[i]);
	free(t.rows);
	free(f.pids);
	evlist_free(t.events);
	return ret;
}
