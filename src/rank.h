/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MPI and Slurm ranks from the environment, and -o's name templates
 * (%r %l %s %h %p %j): pure, the environment given as an argument.
 */
#ifndef PSTAT_RANK_H
#define PSTAT_RANK_H

#include <stdbool.h>
#include <stddef.h>

/* What the launcher said about this process. */
struct rank_info {
	bool found;		/* a rank variable was set */
	long rank;		/* -1 when not found */
	long local_rank;	/* -1 when its family does not say */
	long size;		/* -1 when its family does not say */
	const char *var;	/* the variable that gave the rank, or NULL */
	const char *job_id;	/* the scheduler's job id, or NULL */
	const char *job_var;	/* the variable that gave it, or NULL */
};

/*
 * The rank, local rank and size from env (NAME=VALUE strings, NULL at
 * the end), the first set of PSTAT_RANK, OMPI_COMM_WORLD_RANK,
 * PMIX_RANK, PMI_RANK, MV2_COMM_WORLD_RANK, SLURM_PROCID; the local
 * rank and size from that variable's family. 0 (ri->found says
 * whether), or -EINVAL with a reason naming the variable in err; ri
 * then has no rank.
 */
int rank_detect(struct rank_info *ri, char *const *env, char *err,
		size_t len);

/* Whether a -o template names the rank, local rank or size. */
bool rank_template_needs_rank(const char *tmpl);

/* What a template may put in a name besides the rank. */
struct rank_names {
	const char *host;	/* the short host name, or NULL */
	long pid;		/* pstat's */
};

/*
 * tmpl with %r %l %s %h %p %j expanded (a width zero-pads a number:
 * %4r is 0003) and %% a '%', into out. 0, or -EINVAL with the reason in
 * err: an unknown escape, or one whose value is not known here (the
 * variables looked at named), a %j or %h that holds '/' or '..' (it
 * could lead out of the folder), or a name longer than out.
 */
int rank_expand(const char *tmpl, const struct rank_info *ri,
		const struct rank_names *names, char *out, size_t out_len,
		char *err, size_t err_len);

#endif
