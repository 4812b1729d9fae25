/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counting a command: its runs, its intervals, the wait for it. */
#ifndef PSTAT_RUN_H
#define PSTAT_RUN_H

#include "evlist.h"
#include "options.h"
#include "output.h"
#include "results.h"
#include "target.h"

/* What happened, beyond the counts. */
enum run_outcome {
	RUN_DONE,		/* every run ran; info->status is the command's */
	RUN_OPEN_FAILED,	/* a counter could not be opened: *failed */
	RUN_EXEC_FAILED,	/* the command could not be executed: *err */
	RUN_FAILED,		/* pstat itself failed: *err */
	RUN_REPORTED,		/* pstat failed and has said why */
};

/*
 * Run the command o->repeat times with el counting it, printing each
 * interval to out, and leave the totals in res and the run in info.
 * *failed and *err say more about a failure.
 */
enum run_outcome run_command(const struct options *o,
			     struct target *tg, struct evlist *el,
			     struct results *res, struct output *out,
			     struct output_run *info, size_t *failed,
			     int *err);

#endif
