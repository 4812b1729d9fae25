/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counting a command: its runs, its intervals, the wait for it. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <stdint.h>
#include <string.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "aggr.h"
#include "clock.h"
#include "control.h"
#include "evlist.h"
#include "evsel.h"
#include "options.h"
#include "output.h"
#include "regions.h"
#include "results.h"
#include "run.h"
#include "target.h"
#include "tasks.h"
#include "workload.h"

/* How often -p and -t look whether their targets are gone. */
#define GONE_CHECK_MS 100

struct run {
	const struct options *o;
	struct target *tg;
	struct evlist *el;
	struct results *res;
	struct output *out;
	const struct run_hooks *hooks;
	struct control *ctl;	/* --control, or NULL */
	/* --regions: the command's channel (chan_fds its ends, the
	 * commands' and the acks', -1 when none), its environment, and
	 * the regions of the run. */
	struct control chan;
	int chan_fds[2];
	char **chan_env;
	char chan_vars[4][32];
	struct regions *regions;
	struct counts_values *reading;	/* the last reading, by aggregate */
	struct tasks *tasks;	/* --per-thread with a command, or NULL */
	int tasks_idle;		/* its drains in a row that found nothing */
	int timer_fd;		/* the interval timer, or -1 */
	int delay_fd;		/* -D: enables the counters, or -1 */
	int timeout_fd;		/* --timeout: stops the command, or -1 */
	int gone_fd;		/* checks whether -p/-t targets are gone */
	pid_t child;		/* the command, 0 when there is none */
	bool killing;		/* SIGTERM sent at the timeout; SIGKILL next */
	bool timed_out;
	bool counting;		/* the counters were enabled in this run */
	double t0;		/* when counting started */
	double last;		/* when the last interval ended */
	size_t intervals;	/* printed so far in this run */
	size_t run;		/* this run, 0 for the first */
	size_t runs;		/* runs begun (run_next) */
	int err;		/* a read that failed, or 0 */
	bool stop;		/* pstat was told to stop: no more runs */
};

static double now_ns(void)
{
	struct timespec ts;

	clock_now(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Until it is read, a timer stays ready, and would fire again at once. */
static void drain(int fd)
{
	uint64_t expirations;
	ssize_t n;

	do {
		n = read(fd, &expirations, sizeof(expirations));
	} while (n < 0 && errno == EINTR);
}

/* What pstat counts itself: duration_time from counting's start to t,
 * user_time and system_time once the command ended (ru, or NULL: not
 * yet, 0 as perf has them). */
static void tool_counts(struct run *r, double t, const struct rusage *ru)
{
	uint64_t ns[EVENT_TOOL_N] = { 0 };

	ns[EVENT_TOOL_DURATION] = r->counting ? (uint64_t)(t - r->t0) : 0;
	if (ru) {
		ns[EVENT_TOOL_USER] = (uint64_t)ru->ru_utime.tv_sec * 1000000000u +
				      (uint64_t)ru->ru_utime.tv_usec * 1000u;
		ns[EVENT_TOOL_SYSTEM] = (uint64_t)ru->ru_stime.tv_sec * 1000000000u +
					(uint64_t)ru->ru_stime.tv_usec * 1000u;
	}
	evlist_tool_values(r->el, ns);
}

/* Read every group, and what pstat counts itself, at t. */
static int read_counts(struct run *r, double t, const struct rusage *ru)
{
	int ret = evlist_read(r->el);

	if (ret == 0)
		tool_counts(r, t, ru);
	return ret;
}

/*
 * The run's totals: what the counters read at the end, or, when
 * --interval-count stopped the intervals, what they read at the last:
 * the totals sum the intervals shown, as perf's --summary does, even
 * when the command runs on after them.
 */
static int read_totals(struct run *r, double t, const struct rusage *ru)
{
	if (r->o->interval_ms && r->o->interval_count &&
	    r->intervals >= r->o->interval_count) {
		tool_counts(r, r->last, ru);
		return 0;
	}
	return read_counts(r, t, ru);
}

/*
 * Read every group and print the counts since the last interval. An
 * interval --control cut short is no interval of --interval-count's.
 */
static void print_interval(struct run *r, double t, bool counted)
{
	int ret;

	if (!r->res)
		return;		/* none could be made: r->err says so */
	ret = read_counts(r, t, NULL);
	if (ret < 0) {
		r->err = ret;
		return;
	}
	results_snapshot(r->res);
	output_interval(r->out, r->res, r->run, (t - r->t0) / 1e9,
			t - r->last);
	results_next_interval(r->res);
	r->last = t;
	r->intervals += counted;
}

/* The timer fired: one interval, unless --interval-count is reached. */
static enum workload_watch_next interval_ready(void *arg)
{
	struct run *r = arg;
	bool done;

	drain(r->timer_fd);
	print_interval(r, now_ns(), true);
	done = r->err || (r->o->interval_count &&
			  r->intervals >= r->o->interval_count);
	/* Without a command, the last interval ends the counting. */
	return done ? (r->child ? WORKLOAD_WATCH_OFF : WORKLOAD_WAIT_DONE)
		    : WORKLOAD_WATCH_ON;
}

/*
 * A timer firing after ms, then every period ms (0: once). Periodic
 * timers are the kernel's: intervals do not drift however long printing
 * takes. The descriptor, or -errno.
 */
static int timer(int fd, long ms, long period)
{
	struct itimerspec its = { 0 };
	int new_fd = -1, err;

	if (fd < 0)
		fd = new_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	its.it_value.tv_sec = ms / 1000;
	its.it_value.tv_nsec = ms % 1000 * 1000000L;
	its.it_interval.tv_sec = period / 1000;
	its.it_interval.tv_nsec = period % 1000 * 1000000L;
	if (timerfd_settime(fd, 0, &its, NULL) < 0) {
		err = errno;
		if (new_fd >= 0)
			close(new_fd);
		return -err;
	}
	return fd;
}

static void close_timer(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/*
 * Counting starts (at the exec, or when -D's delay is over): the clock
 * of elapsed time, -I's intervals and --timeout start with it, so the
 * first interval is a whole one and the timeout counts what it says.
 */
static int start_clocks(struct run *r)
{
	long every = r->o->interval_ms;
	int ret = 0;

	r->t0 = r->last = now_ns();
	r->counting = true;
	if (r->res)
		r->res->enabled = true;
	if (every)
		ret = timer(r->timer_fd, every, every);
	if (ret >= 0 && r->o->timeout_ms)
		ret = timer(r->timeout_fd, r->o->timeout_ms, 0);
	return ret < 0 ? ret : 0;
}

/* -D: the delay is over. */
static enum workload_watch_next delay_ready(void *arg)
{
	struct run *r = arg;
	int ret;

	drain(r->delay_fd);
	ret = evlist_enable(r->el);
	if (ret == 0)
		ret = start_clocks(r);
	if (ret < 0)
		r->err = ret;
	return WORKLOAD_WATCH_OFF;
}

/* The last reading, summed by aggregate as the results sum it. */
static void take_reading(struct run *r)
{
	const struct aggr *ag = r->tg->aggr.kind != AGGR_GLOBAL ? &r->tg->aggr
								: NULL;
	size_t n_ev = evlist_count(r->el), n = r->regions->n_values, i, t;

	memset(r->reading, 0, n * sizeof(*r->reading));
	for (i = 0; i < n_ev; i++) {
		const struct evsel *e = evlist_at(r->el, i);
		enum event_tool tool = evsel_tool(e);

		for (t = 0; t < evsel_targets(e); t++) {
			const struct counts_values *v = evsel_value(e, t);
			size_t k = (ag ? ag->of_target[t] : 0) * n_ev + i;

			if (k >= n)
				continue;
			/* Only the command's end tells its CPU times. */
			if (tool == EVENT_TOOL_USER ||
			    tool == EVENT_TOOL_SYSTEM) {
				r->reading[k].enabled = (uint64_t)now_ns();
				continue;
			}
			r->reading[k].value += v->value;
			r->reading[k].enabled += v->enabled;
			r->reading[k].running += v->running;
		}
	}
}

/*
 * "begin NAME" or "end NAME": the counters are read, and the region
 * takes the reading, before the command hears the ack. A name past
 * REGIONS_MAX is counted, not kept: no reason to stop.
 */
static int region_mark(struct run *r, const char *arg, bool begin)
{
	char name[CONTROL_LINE_MAX];
	double t = now_ns();
	size_t i;
	int ret;

	if (!r->regions)
		return 0;	/* a harness's, without --regions */
	/* The command's bytes reach terminals: no control characters. */
	for (i = 0; arg[i] && i + 1 < sizeof(name); i++) {
		name[i] = arg[i];
		if ((unsigned char)arg[i] < 0x20 || arg[i] == 0x7f)
			name[i] = '?';
	}
	name[i] = '\0';
	ret = read_counts(r, t, NULL);
	if (ret < 0)
		return ret;
	take_reading(r);
	ret = begin ? regions_begin(r->regions, name, r->reading, t)
		    : regions_end(r->regions, name, r->reading, t);
	return ret == -E2BIG ? 0 : ret;
}

/*
 * A --control command: "enable" starts counting (the clocks too, the
 * first time) or resumes it, "disable" pauses it; with -I each prints
 * the interval so far, as perf does. "enable NAME" and "disable NAME"
 * start and stop that event alone; a NAME of no event changes nothing,
 * and the hooks hear of it.
 */
static int control_apply(struct run *r, struct control *c,
			 enum control_cmd cmd)
{
	bool enable = cmd == CONTROL_ENABLE;
	const char *cmd_name = enable ? "enable" : "disable";
	const char *name = c->arg;
	int ret;

	if (cmd == CONTROL_PING)
		return 0;
	if (cmd == CONTROL_BEGIN || cmd == CONTROL_END)
		return region_mark(r, c->arg, cmd == CONTROL_BEGIN);
	if (r->counting && r->o->interval_ms)
		print_interval(r, now_ns(), false);
	if (name[0])
		ret = evlist_toggle_named(r->el, name, enable);
	else
		ret = enable ? evlist_enable(r->el) : evlist_disable(r->el);
	if (name[0] && ret == -ENOENT) {
		if (r->hooks->unmatched)
			r->hooks->unmatched(r->hooks->arg, cmd_name, name);
		return 0;
	}
	/* The interval printed above ended where they switched. */
	if (ret == 0 && r->res)
		results_switched(r->res);
	if (ret == 0 && enable && !r->counting)
		ret = start_clocks(r);
	return ret;
}

/* A channel has lines to read: 0, 1 at its end, or -errno. */
static int obey(struct run *r, struct control *c)
{
	enum control_cmd cmd;
	int ret = control_read(c);

	while (ret >= 0 && (cmd = control_next(c)) != CONTROL_NONE) {
		if (cmd == CONTROL_UNKNOWN)
			continue;
		ret = control_apply(r, c, cmd);
		/* A harness that stops reading acks is no reason to stop. */
		if (ret == 0)
			(void)control_ack(c);
	}
	return ret;
}

/* --control has lines to read. */
static enum workload_watch_next control_ready(void *arg)
{
	struct run *r = arg;
	int ret = obey(r, r->ctl);

	if (ret < 0)
		r->err = ret;
	/* At end of file, or after a failure: no more commands. */
	return ret != 0 ? WORKLOAD_WATCH_OFF : WORKLOAD_WATCH_ON;
}

/* The command's channel (--regions) has lines to read. */
static enum workload_watch_next channel_ready(void *arg)
{
	struct run *r = arg;
	int ret = obey(r, &r->chan);

	if (ret < 0)
		r->err = ret;
	return ret != 0 ? WORKLOAD_WATCH_OFF : WORKLOAD_WATCH_ON;
}

/*
 * What the command wrote on its channel and pstat has not read: a
 * "disable" or "end" it did not wait for the ack of, before its end.
 */
static void channel_drain(struct run *r)
{
	size_t before;

	if (r->chan_fds[0] < 0)
		return;
	do {
		before = r->chan.len;
		if (obey(r, &r->chan) != 0)
			break;
	} while (r->chan.len != before);
}

/* --timeout: SIGTERM, then SIGKILL a grace period later. Without a
 * command, the end of counting. */
static enum workload_watch_next timeout_ready(void *arg)
{
	struct run *r = arg;

	drain(r->timeout_fd);
	r->timed_out = true;
	if (!r->child)
		return WORKLOAD_WAIT_DONE;
	kill(r->child, r->killing ? SIGKILL : SIGTERM);
	if (r->killing)
		return WORKLOAD_WATCH_OFF;
	r->killing = true;
	return timer(r->timeout_fd, WORKLOAD_GRACE_MS, 0) < 0
	       ? WORKLOAD_WATCH_OFF : WORKLOAD_WATCH_ON;
}

/*
 * -p, -t without a command: done when every target thread is gone.
 * (poll's POLLHUP cannot tell: a counter without a ring buffer always
 * reports it.)
 */
static enum workload_watch_next gone_ready(void *arg)
{
	struct run *r = arg;

	drain(r->gone_fd);
	return target_alive(r->tg) ? WORKLOAD_WATCH_ON : WORKLOAD_WAIT_DONE;
}

/* A run whose counts are in the results: its times join the means. */
static void account_times(struct output_run *info, const struct workload *w,
			  double elapsed)
{
	double n = (double)++info->runs_done;

	/* Means over the runs, so one run reads as itself. */
	info->elapsed_ns += (elapsed - info->elapsed_ns) / n;
	const struct rusage *ru = workload_rusage(w);

	info->user_s += ((double)ru->ru_utime.tv_sec +
			 (double)ru->ru_utime.tv_usec / 1e6 - info->user_s) / n;
	info->sys_s += ((double)ru->ru_stime.tv_sec +
			(double)ru->ru_stime.tv_usec / 1e6 - info->sys_s) / n;
	if (ru->ru_maxrss > info->max_rss_kib)
		info->max_rss_kib = ru->ru_maxrss;
	info->last_elapsed_ns = elapsed;
	info->last_user_s = (double)ru->ru_utime.tv_sec +
			    (double)ru->ru_utime.tv_usec / 1e6;
	info->last_sys_s = (double)ru->ru_stime.tv_sec +
			   (double)ru->ru_stime.tv_usec / 1e6;
	info->last_max_rss_kib = ru->ru_maxrss;
}

/* Every run, counted or not: the status of the first failing one,
 * else of the last, and whether --timeout stopped that one. */
static void account_status(struct output_run *info, const struct run *r,
			   const struct workload *w, size_t run)
{
	info->last_status = workload_status(w);
	info->last_timed_out = r->timed_out;
	if (run == 0 || (WIFEXITED(info->status) && !WEXITSTATUS(info->status))) {
		info->status = workload_status(w);
		info->timed_out = r->timed_out;
	}
}

/*
 * Each counter is a descriptor: events x targets may pass the soft
 * limit, so raise it to the hard one when that is enough. 0, or -EMFILE
 * with the numbers in *fail.
 */
static int raise_fd_limit(const struct run *r, size_t n_targets,
			  struct run_failure *fail)
{
	size_t counters = evlist_fds_needed(r->el, n_targets);
	size_t need = counters + RUN_RESERVED_FDS;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
		fail->counters = counters;
		fail->fds = need;
		fail->fd_limit = (unsigned long long)rl.rlim_max;
		return -EMFILE;
	}
	rl.rlim_cur = need;
	setrlimit(RLIMIT_NOFILE, &rl);
	return 0;
}

/* The hooks' clock: the progress line's. */
static enum workload_watch_next tick_ready(void *arg)
{
	const struct run *r = arg;

	r->hooks->tick(r->hooks->arg);
	return WORKLOAD_WATCH_ON;
}

/*
 * The kernel's records of the command's tasks are half a buffer: take
 * them. None twice in a row: the buffer's task, the command's first
 * thread, has ended, and the poll says so until the command is reaped;
 * the last records are taken after the end (a command whose first
 * thread ends before its others may then lose some, which is said).
 */
static enum workload_watch_next tasks_ready(void *arg)
{
	struct run *r = arg;
	int n = tasks_drain(r->tasks, r->el);

	if (n < 0)
		r->err = n;
	r->tasks_idle = n == 0 ? r->tasks_idle + 1 : 0;
	return n >= 0 && r->tasks_idle < 2 ? WORKLOAD_WATCH_ON
					   : WORKLOAD_WATCH_OFF;
}

/* The ring buffer's pages: PSTAT_RING_PAGES, for tests of a small one. */
static size_t ring_pages(void)
{
	const char *s = getenv("PSTAT_RING_PAGES");

	return s ? strtoul(s, NULL, 10) : TASKS_PAGES;
}

static int make_results(struct run *r);

/*
 * --per-thread with a command, once the last records are in: a row per
 * task (or process), the command's own counts being what they leave of
 * its totals; then the results, of those rows. 0 or -ENOMEM.
 */
static int task_results(struct run *r)
{
	size_t n_ev = evlist_count(r->el), i;
	struct counts_values *totals = calloc(n_ev + 1, sizeof(*totals));
	struct counts_values *vals = NULL;
	struct tasks_gaps gaps;
	struct aggr a;
	int ret = totals ? tasks_drain(r->tasks, r->el) : -ENOMEM;

	for (i = 0; ret >= 0 && i < n_ev; i++)
		if (evsel_targets(evlist_at(r->el, i)))
			totals[i] = *evsel_value(evlist_at(r->el, i), 0);
	if (ret >= 0)
		ret = tasks_aggr(r->tasks, totals, r->tg->per_process, &a,
				 &vals, &gaps);
	free(totals);
	if (ret < 0)
		return ret;
	aggr_free(&r->tg->aggr);
	r->tg->aggr = a;
	ret = make_results(r);
	if (ret == 0) {
		results_snapshot_values(r->res, vals);
		r->res->per_task = true;
		r->res->tasks_per_process = r->tg->per_process;
		r->res->tasks_lost = gaps.lost;
		r->res->tasks_full = gaps.full;
		r->res->tasks_unended = gaps.unended;
	}
	free(vals);
	return ret;
}

/*
 * The run ended: the regions still open end here, and each region's
 * sums become results to print (a region never entered counted
 * nothing). 0 or -ENOMEM.
 */
static int region_results(struct run *r, double t)
{
	const struct target *tg = r->tg;
	size_t i;

	take_reading(r);
	regions_finish(r->regions, r->reading, t);
	for (i = 0; i < r->regions->n; i++) {
		struct region *g = &r->regions->r[i];

		if (g->res)
			continue;
		g->res = results_new(r->el, r->o->no_merge, 1,
				     tg->aggr.kind != AGGR_GLOBAL ? &tg->aggr
								  : NULL);
		if (!g->res)
			return -ENOMEM;
		g->res->no_scale = r->o->no_scale;
		if (g->entries) {
			results_snapshot_values(g->res, g->sum);
			g->res->enabled = true;
		}
		if (results_end_run(g->res, g->time_ns) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* The watches of this run: intervals, -D, --timeout, gone targets. */
static int arm_watches(struct run *r, struct workload_watch *w, size_t *n)
{
	size_t t;

	*n = 0;
	/* Disarmed until counting starts: start_clocks. */
	if (r->o->interval_ms) {
		r->timer_fd = timer(-1, 0, 0);
		w[(*n)++] = (struct workload_watch){ r->timer_fd, interval_ready, r };
	}
	if (r->o->delay_ms > 0) {
		r->delay_fd = timer(-1, r->o->delay_ms, 0);
		w[(*n)++] = (struct workload_watch){ r->delay_fd, delay_ready, r };
	}
	if (r->o->timeout_ms) {
		r->timeout_fd = timer(-1, 0, 0);
		w[(*n)++] = (struct workload_watch){ r->timeout_fd, timeout_ready, r };
	}
	if (!r->child && r->tg->pids) {
		r->gone_fd = timer(-1, GONE_CHECK_MS, GONE_CHECK_MS);
		w[(*n)++] = (struct workload_watch){ r->gone_fd, gone_ready, r };
	}
	for (t = 0; t < *n; t++)
		if (w[t].fd < 0)
			return w[t].fd;
	/* Not timers of this run's: run_command's caller closes them. */
	if (r->hooks->tick && r->hooks->tick_fd >= 0 && r->child)
		w[(*n)++] = (struct workload_watch){ r->hooks->tick_fd, tick_ready, r };
	if (r->ctl)
		w[(*n)++] = (struct workload_watch){ r->ctl->ctl_fd, control_ready, r };
	if (r->chan_fds[0] >= 0)
		w[(*n)++] = (struct workload_watch){ r->chan.ctl_fd, channel_ready, r };
	if (r->tasks)
		w[(*n)++] = (struct workload_watch){ tasks_fd(r->tasks), tasks_ready, r };
	return 0;
}

static void disarm_watches(struct run *r)
{
	close_timer(&r->timer_fd);
	close_timer(&r->delay_fd);
	close_timer(&r->timeout_fd);
	close_timer(&r->gone_fd);
}

/*
 * The results and what printing them takes, made once the first run's
 * command is let go (or at once, when there is none, or no run): they
 * are made while it execs and runs, on another CPU where there is one,
 * not before it. 0 or -ENOMEM.
 */
static int make_results(struct run *r)
{
	const struct target *tg = r->tg;

	if (r->res)
		return 0;
	r->res = results_new(r->el, r->o->no_merge, r->o->repeat,
			     tg->aggr.kind != AGGR_GLOBAL ? &tg->aggr : NULL);
	if (!r->res)
		return -ENOMEM;
	r->res->no_scale = r->o->no_scale;
	r->res->enabled = r->counting;
	/*
	 * -r 0 keeps of each run what the output lists (pstat's JSON and
	 * OpenMetrics its values, --table its time), so that its memory
	 * does not grow with the runs; -r N, whose cost the user chose,
	 * keeps them all for ratios over the very runs that counted their
	 * numerators.
	 */
	r->res->keep_values = r->o->repeat != SIZE_MAX ||
			      r->o->out.format == OUTPUT_PSTAT_JSON ||
			      r->o->out.format == OUTPUT_OPENMETRICS;
	r->res->keep_wall = r->o->out.table || r->res->keep_values;
	if (output_prepare(r->out, r->res) < 0) {
		results_free(r->res);
		r->res = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* Fork the command, or only watch signals when there is none. */
static int begin(struct run *r, struct workload *w)
{
	return r->o->argv ? workload_prepare(w, r->o->argv)
			  : workload_watch_signals(w);
}

/* The runs asked for, 0 for -r 0: until interrupted. */
static size_t runs_asked(const struct options *o)
{
	return o->forever ? 0 : o->repeat;
}

/*
 * Whether a signal to pstat came while it let no command run: the
 * user's, who asked pstat to stop, whatever failed because of it (a
 * Ctrl-C reaches the held child too, and ends it before its exec).
 * Then no more runs are made. Without a command, the signal is read as
 * counting starts, and ends it.
 */
static bool stopped(struct run *r, struct run_failure *fail)
{
	int sig = r->o->argv ? workload_pending_signal() : 0;

	if (!sig)
		return false;
	r->stop = true;
	fail->signal = sig;
	return true;
}

/* The run was stopped before its command was let go: not counted. */
static enum run_outcome not_started(struct run *r, struct workload *w)
{
	disarm_watches(r);
	workload_abort(w);
	return RUN_DONE;
}

/* One run of w: fork, open, let go, wait with intervals, read. */
static enum run_outcome run_with(struct run *r, struct workload *w,
				 struct output_run *info, size_t run,
				 struct run_failure *fail)
{
	const struct run_hooks *h = r->hooks;
	const struct target *tg = r->tg;
	struct workload_watch watches[8];
	size_t n_watches;
	double elapsed;
	int ret, exec_err = 0;

	r->killing = r->timed_out = r->counting = false;
	/* Each run its own intervals, --interval-count's too. */
	r->run = run;
	r->intervals = 0;
	if (r->res) {
		results_restart_intervals(r->res);
		r->res->enabled = false;
	}
	/* Until counting starts (start_clocks), no time has passed. */
	r->t0 = r->last = 0.0;
	ret = begin(r, w);
	if (ret < 0) {
		fail->err = -ret;
		return RUN_FAILED;
	}
	r->child = workload_pid(w);
	if (r->child)
		target_set_command(r->tg, r->child);
	if (raise_fd_limit(r, target_count(tg), fail) < 0) {
		workload_abort(w);
		return RUN_FD_LIMIT;
	}
	ret = evlist_open(r->el, tg, &fail->failed);
	if (ret < 0 && stopped(r, fail))
		return not_started(r, w);
	if (ret < 0) {
		workload_abort(w);
		fail->err = -ret;
		/* Out of memory: no counter to blame. */
		return fail->failed == EVLIST_NO_EVSEL ? RUN_FAILED
						       : RUN_OPEN_FAILED;
	}
	r->tasks_idle = 0;
	if (tg->per_task && r->child)
		ret = tasks_open(&r->tasks, r->el, r->child, ring_pages());
	if (ret < 0) {
		workload_abort(w);
		fail->err = -ret;
		fail->tasks = true;
		return RUN_FAILED;
	}
	if (run == 0 && h->opened)
		h->opened(h->arg, r->el, r->child ? workload_path(w) : NULL);
	/* Without enable_on_exec the counters start here, or after -D. */
	ret = arm_watches(r, watches, &n_watches);
	if (ret == 0 && !tg->enable_on_exec && !r->o->delay_ms)
		ret = evlist_enable(r->el);
	if (ret == 0 && !r->o->delay_ms)
		ret = start_clocks(r);
	if (ret < 0) {
		disarm_watches(r);
		workload_abort(w);
		fail->err = -ret;
		return RUN_FAILED;
	}
	if (stopped(r, fail))
		return not_started(r, w);
	if (r->child && h->run_started)
		h->run_started(h->arg, run, r->o->repeat);
	/* With nothing to watch, nothing can happen before the command
	 * ends: its exec's failure can be learnt then. */
	ret = r->child ? workload_start(w, n_watches > 0) : 0;
	if (ret < 0 && stopped(r, fail))
		return not_started(r, w);
	if (ret < 0) {
		disarm_watches(r);
		workload_abort(w);
		fail->err = -ret;
		return RUN_FAILED;
	}
	/* Short of memory for them, the command still runs to its end,
	 * and pstat then says it could not count it. */
	if (ret == 0 && !r->tasks && make_results(r) < 0)
		r->err = -ENOMEM;
	if (ret == 0) {
		ret = workload_wait(w, watches, n_watches);
		exec_err = r->child ? workload_exec_error(w) : 0;
	}
	if (ret > 0 || exec_err) {
		disarm_watches(r);
		evlist_close(r->el);
		fail->err = ret > 0 ? ret : exec_err;
		return RUN_EXEC_FAILED;
	}
	if (!tg->enable_on_exec)
		evlist_disable(r->el);
	elapsed = r->counting ? now_ns() - r->t0 : 0.0;
	disarm_watches(r);
	if (ret < 0 || r->err) {
		fail->err = ret < 0 ? -ret : -r->err;
		return RUN_FAILED;
	}
	channel_drain(r);
	/* The last, partial interval; then the run's totals. */
	if (r->o->interval_ms && (!r->o->interval_count ||
				  r->intervals < r->o->interval_count))
		print_interval(r, r->t0 + elapsed, true);
	ret = r->err ? r->err : read_totals(r, r->t0 + elapsed,
					    r->child ? workload_rusage(w) : NULL);
	if (ret < 0) {
		fail->err = -ret;
		return RUN_FAILED;
	}
	/* Ctrl-C or a kill: stop repeating, as the user asked; a signal
	 * that stops runs that were to come is pstat's status. */
	r->stop = workload_signalled(w) != 0;
	if (r->stop && r->child && runs_asked(r->o) != 1)
		fail->signal = workload_signalled(w);
	info->interrupted = r->stop && r->child;
	if (r->child)
		account_status(info, r, w, run);
	/* A run cut short is no sample of the command: leave it out of
	 * the means, unless there is nothing else to show. */
	if (r->stop && r->o->repeat > 1 && info->runs_done > 0) {
		if (h->run_ended)
			h->run_ended(h->arg, run, runs_asked(r->o), workload_status(w),
				     workload_signalled(w), true);
		return RUN_DONE;
	}
	info->partial = info->interrupted;
	ret = r->tasks ? task_results(r) : 0;
	if (ret < 0) {
		fail->err = -ret;
		return RUN_FAILED;
	}
	if (!r->tasks)
		results_snapshot(r->res);
	if (r->regions && region_results(r, r->t0 + elapsed) < 0) {
		fail->err = ENOMEM;
		return RUN_FAILED;
	}
	if (results_end_run(r->res, elapsed) < 0) {
		fail->err = ENOMEM;
		return RUN_FAILED;
	}
	account_times(info, w, elapsed);
	if (r->child && h->run_ended)
		h->run_ended(h->arg, run, runs_asked(r->o), workload_status(w),
			     workload_signalled(w), false);
	return RUN_DONE;
}

/* One run, with a workload of its own. */
static enum run_outcome run_once(struct run *r, struct output_run *info,
				 size_t run, struct run_failure *fail)
{
	struct workload *w = workload_new();
	enum run_outcome ret;

	if (!w) {
		fail->err = ENOMEM;
		return RUN_FAILED;
	}
	if (r->chan_fds[0] >= 0)
		workload_pass(w, r->chan_fds, r->chan_env);
	ret = run_with(r, w, info, run, fail);
	tasks_close(r->tasks);
	r->tasks = NULL;
	workload_free(w);
	return ret;
}

/*
 * --pre or --post in w: the shell command, run as the command is (the
 * caller's signals, none of pstat's privileges), with no counter on it.
 * 0, 0 with r->stop and fail->step set when it failed or was killed,
 * 0 with r->stop and fail->signal set when a signal to pstat stopped
 * it (or came before it began), or -errno when it could not be run.
 */
static int step_with(struct run *r, struct workload *w, const char *cmd,
		     const char *what, size_t run, struct run_failure *fail)
{
	char sh[] = "/bin/sh", dash_c[] = "-c";
	char *argv[] = { sh, dash_c, (char *)cmd, NULL };
	int ret, exec_err, status;

	ret = workload_prepare(w, argv);
	if (ret < 0)
		return ret;
	if (!stopped(r, fail))
		ret = workload_start(w, false);
	/* Not started, or ended by a signal before it could be. */
	if (r->stop || ret < 0) {
		workload_abort(w);
		return r->stop || stopped(r, fail) ? 0 : ret;
	}
	ret = workload_wait(w, NULL, 0);
	exec_err = workload_exec_error(w);
	if (ret == 0 && exec_err)
		ret = -exec_err;	/* /bin/sh could not be executed */
	if (ret < 0)
		return ret;
	status = workload_status(w);
	/* A signal to pstat, passed on: the user's, not the step's fault. */
	if (workload_signalled(w)) {
		r->stop = true;
		fail->signal = workload_signalled(w);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		r->stop = true;
		fail->step = what;
		fail->step_cmd = cmd;
		fail->step_run = run;
		fail->step_status = status;
	}
	return 0;
}

/* --pre or --post (cmd, NULL for none), with a workload of its own. */
static int step(struct run *r, const char *cmd, const char *what,
		size_t run, struct run_failure *fail)
{
	struct workload *w;
	int ret;

	if (!cmd)
		return 0;
	w = workload_new();
	if (!w)
		return -ENOMEM;
	ret = step_with(r, w, cmd, what, run, fail);
	workload_free(w);
	return ret;
}

static void close_channel(struct run *r);

/*
 * --regions or --control with a command: a channel whose other end the
 * command keeps, named in its environment, and with --regions what
 * counting its regions takes. 0 or -errno.
 */
static int open_channel(struct run *r)
{
	static const char *const names[] = {
		"PSTAT_CTL_FD", "PSTAT_ACK_FD", "PERF_CTL_FD", "PERF_ACK_FD",
	};
	char *vars[5];
	size_t n_values, i;
	int ret = control_channel(&r->chan, r->chan_fds);

	if (ret < 0)
		return ret;
	/* The commands' end, then the acks', under both names. */
	for (i = 0; i < 4; i++) {
		snprintf(r->chan_vars[i], sizeof(r->chan_vars[i]), "%s=%d",
			 names[i], r->chan_fds[i % 2]);
		vars[i] = r->chan_vars[i];
	}
	vars[4] = NULL;
	n_values = evlist_count(r->el) *
		   (r->tg->aggr.kind != AGGR_GLOBAL ? r->tg->aggr.n : 1);
	r->chan_env = workload_environ_with(vars);
	/* --control alone: the command may enable and disable. */
	if (r->chan_env && !r->o->regions)
		return 0;
	r->regions = regions_new(n_values);
	r->reading = calloc(n_values + 1, sizeof(*r->reading));
	if (r->chan_env && r->regions && r->reading)
		return 0;
	close_channel(r);
	return -ENOMEM;
}

static void close_channel(struct run *r)
{
	if (r->chan_fds[0] < 0)
		return;
	control_close(&r->chan);
	close(r->chan_fds[0]);
	close(r->chan_fds[1]);
	r->chan_fds[0] = r->chan_fds[1] = -1;
	free(r->chan_env);
	free(r->reading);
	regions_free(r->regions);
	r->chan_env = NULL;
	r->reading = NULL;
	r->regions = NULL;
}

struct run *run_new(const struct options *o, struct target *tg,
		   struct evlist *el, struct output *out,
		   struct output_run *info, const struct run_hooks *hooks,
		   struct control *ctl)
{
	static const struct run_hooks no_hooks;
	struct run *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	*r = (struct run){
		.o = o, .tg = tg, .el = el, .out = out, .ctl = ctl,
		.hooks = hooks ? hooks : &no_hooks,
		.timer_fd = -1, .delay_fd = -1, .timeout_fd = -1, .gone_fd = -1,
		.chan_fds = { -1, -1 },
	};
	if ((o->regions || o->control) && o->argv && open_channel(r) < 0) {
		free(r);
		return NULL;
	}
	info->argv = o->argv;
	info->target = tg->desc[0] ? tg->desc : NULL;
	if (o->interval_ms || runs_asked(o) != 1)
		clock_read_often();
	/* Each run closes its tracepoints: keep them registered between. */
	if (o->repeat > 1)
		evlist_anchor_tracepoints(el);
	return r;
}

bool run_stopped(const struct run *r)
{
	return r->stop;
}

const struct results *run_results(const struct run *r)
{
	return r->res;
}

enum run_outcome run_next(struct run *r, struct output_run *info,
			  struct run_failure *fail)
{
	const struct options *o = r->o;
	enum run_outcome ret = RUN_DONE;
	size_t run = r->runs;
	int err;

	/* The counters of the last run stay open until printed. */
	if (run > 0)
		evlist_close(r->el);
	r->runs++;
	err = step(r, o->pre_cmd, "--pre", run, fail);
	if (err == 0 && r->stop)
		return RUN_DONE;
	if (err == 0 && o->sync)
		sync();
	if (err == 0)
		ret = run_once(r, info, run, fail);
	if (err == 0 && ret == RUN_DONE && !r->stop)
		err = step(r, o->post_cmd, "--post", run, fail);
	if (err < 0) {
		fail->err = -err;
		ret = RUN_FAILED;
	}
	return ret;
}

struct results *run_finish(struct run *r, enum run_outcome *ret,
			   struct output_run *info, struct run_failure *fail)
{
	struct results *res;

	/* One that came after the last command ended stops pstat too. */
	if (*ret == RUN_DONE && !fail->signal)
		stopped(r, fail);
	/* The run record says what the exit status says: that signal (a
	 * wait status of a process it killed is the signal's number). */
	if (fail->signal)
		info->status = fail->signal;
	/* A later run that failed before it counted leaves the runs made
	 * to show (main.c's late failure), as they ended. */
	if (*ret != RUN_DONE && info->runs_done > 0 && r->res)
		r->res->enabled = true;
	/* Whatever ended the runs, what is done has results to show. */
	if (*ret == RUN_DONE && make_results(r) < 0) {
		fail->err = ENOMEM;
		*ret = RUN_FAILED;
	}
	res = r->res;
	/* The regions go with the results, to be printed. */
	info->regions = r->regions;
	r->regions = NULL;
	close_channel(r);
	free(r);
	return res;
}

enum run_outcome run_command(const struct options *o,
			     struct target *tg, struct evlist *el,
			     struct results **res, struct output *out,
			     struct output_run *info,
			     const struct run_hooks *hooks,
			     struct control *ctl, struct run_failure *fail)
{
	enum run_outcome ret = RUN_DONE;
	struct run *r = run_new(o, tg, el, out, info, hooks, ctl);

	*res = NULL;
	if (!r) {
		fail->err = ENOMEM;
		return RUN_FAILED;
	}
	while (r->runs < o->repeat && ret == RUN_DONE && !r->stop)
		ret = run_next(r, info, fail);
	*res = run_finish(r, &ret, info, fail);
	return ret;
}
