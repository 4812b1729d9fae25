/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What --merge reads of one rank's file (merge_read.c), for merge.c. */
#ifndef PSTAT_MERGE_IMPL_H
#define PSTAT_MERGE_IMPL_H

#include <stdbool.h>
#include <stddef.h>

/* One event's total, as the file gives it. */
struct merge_value {
	char *name;		/* "event", or "event (aggregate)"; unit and
				 * status lie in its allocation */
	const char *unit;
	const char *status;	/* "counted", "scaled", "not-counted", ... */
	bool has_value;
	double value;		/* in unit */
	double running_pct;
};

/*
 * A metric of -M on an event's row (no aggregate), as the file gives
 * it, to be computed again from the sums: its strings all in one
 * allocation, name's.
 */
struct merge_formula {
	char *name;
	const char *event;	/* the row it is on */
	const char *unit;	/* as shown: "%  tma_retiring" */
	const char *formula;
	const char *inputs;	/* the formula's names, space-separated */
	const char *input_events;	/* and their rows', in that order */
	double scale;		/* ScaleUnit's number */
};

/* One file: its events, its run record, its own strings. */
struct merge_file {
	const char *path;
	struct merge_value *vals;
	size_t n_vals, cap_vals;
	struct merge_formula *formulas;
	size_t n_formulas, cap_formulas;
	bool has_run;		/* a run record was found */
	long format_version;
	long rank, size;	/* -1 when not said */
	char *job_id;		/* NULL when not said */
	char *command;		/* the words joined by spaces */
	int exit_status;	/* -1 when killed, or no command */
	int signal;		/* 0 when none */
	double elapsed_s, user_s, sys_s, max_rss_kib;
	bool has_command;
};

/*
 * path read and parsed (CSV or JSON, told by its first bytes) into mf.
 * 0, or -EINVAL with the reason (naming path) in err, or -ENOMEM; mf
 * is for merge_file_free either way.
 */
/*
 * The JSON document of the file at path, read with the user's rights
 * and checked as a rank's file is (size, depth, a key twice, numbers as
 * JSON writes them), into *doc (json_object_put it): 0, -EINVAL with
 * the reason in err, or -ENOMEM.
 */
struct json_object;
int merge_json_load(const char *path, struct json_object **doc, char *err,
		    size_t len);

int merge_file_read(struct merge_file *mf, const char *path, char *err,
		    size_t len);
void merge_file_free(struct merge_file *mf);

#endif
