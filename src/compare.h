/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pstat compare: commands run in interleaved, balanced runs, or saved
 * results read back, and each event's change against the first.
 */
#ifndef PSTAT_COMPARE_H
#define PSTAT_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

struct options;

/*
 * The action: run o->sides (or read o->compare_files), print the
 * comparison, and say how it went: 0; 1 when a --fail-on condition
 * was met or a run failed (without -i); 125, 126, 127 or 128+N as
 * pstat's count gives them. env_err: what workload_init returned.
 */
int compare_run(struct options *o, int env_err);

#endif
