/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The progress line of -r N on a terminal: run i of N, the time so far
 * and an estimate of what is left, rewritten as each run starts and
 * every second while it runs, and erased before anything else is
 * written.
 */
#ifndef PSTAT_PROGRESS_H
#define PSTAT_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct progress {
	FILE *f;		/* the terminal; NULL: no line at all */
	double t0;		/* when the first run started (s) */
	double done_s;		/* what the runs that ended took (s) */
	size_t done;		/* how many ended */
	size_t run, of;		/* the run shown, of how many */
	bool shown;		/* the line is on the terminal now */
	int tick_fd;		/* ready every second; -1: none */
};

/*
 * A line on f (NULL: none, and every call below does nothing), with its
 * clock: progress_tick when tick_fd is ready.
 */
void progress_init(struct progress *p, FILE *f);

/* The line again with the time now, if it is there. */
void progress_tick(struct progress *p, double now);

/* Erase the line and stop its clock. */
void progress_fini(struct progress *p);

/* Whether there is a line: without one, nothing needs the clock. */
bool progress_on(const struct progress *p);

/* Run run (from 0) of of starts: the line, at now (seconds). */
void progress_started(struct progress *p, size_t run, size_t of,
		      double now);

/* A run ended at now: the line is erased. */
void progress_ended(struct progress *p, double now);

/* Erase the line, if it is there. */
void progress_clear(struct progress *p);

/* CLOCK_MONOTONIC in seconds. */
double progress_now(void);

/*
 * The line's text: "run 3 of 10, 4.2 s so far, about 9.8 s left"; the
 * estimate only once a run has ended (done of them took done_s), and
 * less the time since then. "run 3, 4.2 s so far" for of SIZE_MAX,
 * runs until interrupted.
 */
void progress_format(char *buf, size_t len, size_t run, size_t of,
		     double elapsed, size_t done, double done_s);

#endif
