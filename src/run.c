/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counting a command: its runs, its intervals, the wait for it. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "pmu.h"
#include "run.h"
#include "workload.h"

struct run {
	const struct options *o;
	struct evlist *el;
	struct results *res;
	struct output *out;
	int timer_fd;		/* the interval timer, or -1 */
	double t0;		/* when the command was let go */
	double last;		/* when the last interval ended */
	size_t intervals;	/* printed so far */
	int err;		/* a read that failed, or 0 */
	bool stop;		/* pstat was told to stop: no more runs */
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Read every group and print the counts since the last interval. */
static void print_interval(struct run *r, double t)
{
	int ret = evlist_read(r->el);

	if (ret < 0) {
		r->err = ret;
		return;
	}
	results_snapshot(r->res);
	output_interval(r->out, r->res, (t - r->t0) / 1e9, t - r->last);
	results_next_interval(r->res);
	r->last = t;
	r->intervals++;
}

/* The timer fired: one interval, unless --interval-count is reached. */
static int interval_ready(void *arg)
{
	struct run *r = arg;
	uint64_t expirations;

	if (read(r->timer_fd, &expirations, sizeof(expirations)) < 0)
		return 0;
	print_interval(r, now_ns());
	return r->err || (r->o->interval_count &&
			  r->intervals >= r->o->interval_count);
}

/*
 * A periodic timer from the start: the kernel keeps the period, so the
 * intervals do not drift however long printing takes.
 */
static int start_timer(struct run *r)
{
	struct itimerspec its = { 0 };
	long ms = (long)r->o->interval_ms;

	r->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (r->timer_fd < 0)
		return -errno;
	its.it_interval.tv_sec = ms / 1000;
	its.it_interval.tv_nsec = ms % 1000 * 1000000L;
	its.it_value = its.it_interval;
	return timerfd_settime(r->timer_fd, 0, &its, NULL) < 0 ? -errno : 0;
}

static void stop_timer(struct run *r)
{
	if (r->timer_fd >= 0)
		close(r->timer_fd);
	r->timer_fd = -1;
}

/* One note for the run, not one per event. */
static void note_missing_pmu(const struct evlist *el)
{
	size_t i;

	for (i = 0; i < evlist_count(el); i++) {
		const struct evsel *e = evlist_at_const(el, i);

		if (e->open_err && (e->attr.type == PERF_TYPE_HARDWARE ||
				    e->attr.type == PERF_TYPE_HW_CACHE ||
				    e->attr.type == PERF_TYPE_RAW)) {
			if (!pmu_have_core_pmu())
				diag_note("no hardware PMU is visible (a virtual machine, usually): hardware events are <not supported>; software events and tracepoints still count");
			return;
		}
	}
}

/* One note per weak group the kernel refused whole. */
static void note_split_groups(const struct evlist *el)
{
	size_t i;

	for (i = 0; i < evlist_count(el); i++) {
		const struct evsel *e = evlist_at_const(el, i);

		if (e->split && (i == 0 || !evlist_at_const(el, i - 1)->split))
			diag_note("the kernel refused the weak group led by %s as a whole: its events are counted separately",
				  e->name);
	}
}

/* Say so when a run of several fails, as its status will be pstat's. */
static void note_failed_run(const struct options *o, size_t run, int status)
{
	if (o->repeat <= 1 || (WIFEXITED(status) && !WEXITSTATUS(status)))
		return;
	if (WIFEXITED(status))
		diag_note("run %zu of %zu: '%s' exited with status %d", run + 1,
			  o->repeat, o->argv[0], WEXITSTATUS(status));
	else
		diag_note("run %zu of %zu: '%s' was killed by signal %d", run + 1,
			  o->repeat, o->argv[0], WTERMSIG(status));
}

static void account(struct output_run *info, const struct workload *w,
		    double elapsed, size_t run)
{
	double n = (double)run + 1;

	/* Means over the runs, so one run reads as itself. */
	info->elapsed_ns += (elapsed - info->elapsed_ns) / n;
	info->user_s += ((double)w->ru.ru_utime.tv_sec +
			 (double)w->ru.ru_utime.tv_usec / 1e6 - info->user_s) / n;
	info->sys_s += ((double)w->ru.ru_stime.tv_sec +
			(double)w->ru.ru_stime.tv_usec / 1e6 - info->sys_s) / n;
	if (w->ru.ru_maxrss > info->max_rss_kib)
		info->max_rss_kib = w->ru.ru_maxrss;
	/* The status of the first failing run, else of the last. */
	if (run == 0 || (WIFEXITED(info->status) && !WEXITSTATUS(info->status)))
		info->status = w->status;
	info->runs_done = run + 1;
}

/* One run: fork, open, let go, wait with intervals, read. */
static enum run_outcome run_once(struct run *r, struct output_run *info,
				 size_t run, size_t *failed, int *err)
{
	struct evlist_target target = {
		.n_pids = 1,
		.inherit = !r->o->no_inherit,
		.enable_on_exec = true,
	};
	struct workload_watch timer = { .ready = interval_ready, .arg = r };
	struct workload w;
	double elapsed;
	int ret;

	ret = workload_prepare(&w, r->o->argv);
	if (ret < 0) {
		*err = -ret;
		return RUN_FAILED;
	}
	target.pids = &w.pid;
	ret = evlist_open(r->el, &target, failed);
	if (ret < 0) {
		workload_abort(&w);
		*err = -ret;
		return RUN_OPEN_FAILED;
	}
	if (run == 0) {
		note_missing_pmu(r->el);
		note_split_groups(r->el);
	}
	if (r->o->interval_ms && (ret = start_timer(r)) < 0) {
		workload_abort(&w);
		*err = -ret;
		return RUN_FAILED;
	}
	r->t0 = r->last = now_ns();
	ret = workload_start(&w);
	if (ret != 0) {
		stop_timer(r);
		evlist_close(r->el);
		*err = ret < 0 ? -ret : ret;
		return ret < 0 ? RUN_FAILED : RUN_EXEC_FAILED;
	}
	timer.fd = r->timer_fd;
	ret = workload_wait(&w, &timer, r->timer_fd >= 0 ? 1 : 0);
	elapsed = now_ns() - r->t0;
	stop_timer(r);
	if (ret < 0 || r->err) {
		*err = ret < 0 ? -ret : -r->err;
		return RUN_FAILED;
	}
	/* The last, partial interval; then the run's totals. */
	if (r->o->interval_ms && (!r->o->interval_count ||
				  r->intervals < r->o->interval_count))
		print_interval(r, r->t0 + elapsed);
	ret = r->err ? r->err : evlist_read(r->el);
	if (ret < 0) {
		*err = -ret;
		return RUN_FAILED;
	}
	results_snapshot(r->res);
	results_end_run(r->res, elapsed);
	account(info, &w, elapsed, run);
	note_failed_run(r->o, run, w.status);
	/* Ctrl-C or a kill: stop repeating, as the user asked. */
	r->stop = w.signalled != 0;
	return RUN_DONE;
}

enum run_outcome run_command(const struct options *o, struct evlist *el,
			     struct results *res, struct output *out,
			     struct output_run *info, size_t *failed,
			     int *err)
{
	struct run r = {
		.o = o, .el = el, .res = res, .out = out, .timer_fd = -1,
	};
	enum run_outcome ret = RUN_DONE;
	size_t run;

	info->argv = o->argv;
	/* Each run closes its tracepoints: keep them registered between. */
	if (o->repeat > 1)
		evlist_anchor_tracepoints(el);
	for (run = 0; run < o->repeat && ret == RUN_DONE && !r.stop; run++) {
		/* The counters of the last run stay open until printed. */
		if (run > 0)
			evlist_close(el);
		ret = run_once(&r, info, run, failed, err);
	}
	return ret;
}
