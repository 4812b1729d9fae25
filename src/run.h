/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counting a command: its runs, its intervals, the wait for it. */
#ifndef PSTAT_RUN_H
#define PSTAT_RUN_H

#include <stdbool.h>
#include <stddef.h>

/* Descriptors pstat needs besides counters: stdio, pipes, timers. */
#define RUN_RESERVED_FDS 16

struct control;
struct evlist;
struct options;
struct output;
struct output_run;
struct results;
struct target;

/* What happened, beyond the counts. */
enum run_outcome {
	RUN_DONE,		/* every run ran; info->status is the command's */
	RUN_OPEN_FAILED,	/* a counter could not be opened */
	RUN_EXEC_FAILED,	/* the command could not be executed */
	RUN_FD_LIMIT,		/* the counters need more descriptors than
				 * the hard limit allows */
	RUN_FAILED,		/* pstat itself failed */
};

/* What went wrong, for main to word (diagnose.c). */
struct run_failure {
	int err;		/* the errno of a failure */
	bool tasks;		/* RUN_FAILED: making the ring buffer of
				 * --per-thread with a command (tasks.h) */
	size_t failed;		/* RUN_OPEN_FAILED: the evsel's index */
	size_t counters;	/* RUN_FD_LIMIT: descriptors for counters, */
	size_t fds;		/* with pstat's own, */
	unsigned long long fd_limit;	/* and the hard limit */
	/* --pre or --post failed (then the outcome may be RUN_DONE, with
	 * the runs before it in the results): which, its command, the
	 * run (from 0) it came with and its wait status; or NULL. */
	const char *step;
	const char *step_cmd;
	size_t step_run;
	int step_status;
	/* The signal to pstat that stopped it, or 0: one that came while
	 * no command of its ran (before a run's command was let go,
	 * during --pre or --post, after the last run), or one passed on
	 * that stopped -r's runs. The runs before it are in the results
	 * (then the outcome is RUN_DONE); the status is 128 + signal. */
	int signal;
};

/*
 * What the caller hears of as the runs go (notes.c), at the moment it
 * happens; each may be NULL.
 */
struct run_hooks {
	/* The first run's counters are open; the command (its file, or
	 * NULL) has not started, and no interval has passed. */
	void (*opened)(void *arg, const struct evlist *el,
		       const char *command);
	/* Run run (from 0) of of starts: its command is let go now. */
	void (*run_started)(void *arg, size_t run, size_t of);
	/*
	 * Run run (from 0) of of ended: the command's wait status, the
	 * signal pstat passed on (0: none), and whether the run was cut
	 * short and left out of the means. Every run of a command, and a
	 * run left out. of is 0 for -r 0: until interrupted.
	 */
	void (*run_ended)(void *arg, size_t run, size_t of, int status,
			  int signalled, bool left_out);
	/* While a command runs, tick when tick_fd is ready (the progress
	 * line's clock); NULL: nothing to watch. */
	void (*tick)(void *arg);
	int tick_fd;
	/* --control's "enable NAME" or "disable NAME" (cmd) named no event
	 * of the run: nothing changed, and the line is still answered. */
	void (*unmatched)(void *arg, const char *cmd, const char *name);
	void *arg;
};

/*
 * run_command one run at a time, for those who choose what runs when
 * (compare.c): run_new as run_command begins (NULL when out of
 * memory); run_next makes the next run, --pre and --post with it,
 * while run_stopped is false (a signal to pstat, a step that failed);
 * run_finish frees r, leaves the results made (or NULL) and may turn
 * *ret into RUN_FAILED, as run_command returns. info's last_* fields
 * describe the run run_next made.
 */
struct run;
struct run *run_new(const struct options *o, struct target *tg,
		   struct evlist *el, struct output *out,
		   struct output_run *info, const struct run_hooks *hooks,
		   struct control *ctl);
enum run_outcome run_next(struct run *r, struct output_run *info,
			  struct run_failure *fail);
bool run_stopped(const struct run *r);
/* The results so far (made as the first run's command starts), or NULL. */
const struct results *run_results(const struct run *r);
struct results *run_finish(struct run *r, enum run_outcome *ret,
			   struct output_run *info, struct run_failure *fail);

/*
 * Run the command o->repeat times with el counting it, printing each
 * interval to out, and leave the totals in *res and the run in info.
 * The results are made while the first run's command starts: *res is
 * always set when the runs are RUN_DONE, and may be NULL otherwise; the
 * caller frees it. hooks (or NULL) hear of the run; ctl (or NULL),
 * opened, is --control's channel, obeyed while the command runs; *fail
 * says more about a failure.
 */
enum run_outcome run_command(const struct options *o,
			     struct target *tg, struct evlist *el,
			     struct results **res, struct output *out,
			     struct output_run *info,
			     const struct run_hooks *hooks,
			     struct control *ctl, struct run_failure *fail);

#endif
