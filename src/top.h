/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat top: counters per process or thread, a table each interval. */
#ifndef PSTAT_TOP_H
#define PSTAT_TOP_H

struct options;

/*
 * Count o's events on each process (or thread) that o's filters take,
 * found by a scan of /proc each interval, and print the table each
 * interval: the exit status (0, or 125 said once).
 */
int top_run(const struct options *o);

#endif
