/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The notes of a run: said once each, on stderr, never into machine output. */
#ifndef PSTAT_NOTES_H
#define PSTAT_NOTES_H

#include <stdbool.h>
#include <stddef.h>

struct evlist;
struct regions;
struct results;
struct workload_stop;

/*
 * The first run's counters are open and the command has not started:
 * one note per cause (no hardware PMU, weak groups split, events counted
 * as :u, events not supported here, a command whose exec stops the
 * counting). command is the command's file as the run will execute it,
 * or NULL. Nothing is read when notes are not said (diag_notes_on).
 * arg is unused: it is there to fit struct run_hooks.
 */
void notes_opened(void *arg, const struct evlist *el, const char *command);

/*
 * Run run (from 0) of of (0: -r 0, no end) ended with status (as wait
 * gives it); signalled:
 * the signal pstat passed on, which cut it short, or 0; left_out: so it
 * is left out of the means. A note when a run of several fails, or one
 * is left out. arg is the command's argv.
 */
void notes_run_ended(void *arg, size_t run, size_t of, int status,
		     int signalled, bool left_out);

/*
 * --control's "cmd NAME" named no event: nothing was switched. arg is
 * unused: it is there to fit struct run_hooks.
 */
void notes_unmatched(void *arg, const char *cmd, const char *name);

/*
 * After the results: one note per group of events that were enabled
 * but never ran (<not counted>: the PMU never had counters for the
 * whole group), and one for such events outside groups.
 */
void notes_counted(const struct results *res);

/*
 * After the results of --regions: a note for the regions still open at
 * the end, one for ends of regions not open, one for names past
 * REGIONS_MAX. rs may be NULL.
 */
void notes_regions(const struct regions *rs);

/*
 * The note about events counted as :u because the kernel refused their
 * kernel part, into buf; false when no event was. paranoid as
 * diagnose_gather gives it.
 */
bool notes_user_only(const struct evlist *el, int paranoid, char *buf,
		     size_t len);

/* The note about a command whose exec stops the counting
 * (workload_exec_stops), into buf. */
void notes_exec_stops(const char *path, const struct workload_stop *stop,
		      char *buf, size_t len);

#endif
