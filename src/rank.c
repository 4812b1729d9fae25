/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MPI and Slurm ranks from the environment, and -o's name templates:
 * pure. The MPI library's variables come before the scheduler's: inside
 * an sbatch job every rank mpirun starts sees SLURM_PROCID=0.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "rank.h"

/* A launcher's variables: its rank, and beside it the local rank and
 * the size, when it says them. */
static const struct family {
	const char *rank, *local, *size;
} families[] = {
	{ "PSTAT_RANK", "PSTAT_LOCAL_RANK", "PSTAT_SIZE" },
	{ "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
	  "OMPI_COMM_WORLD_SIZE" },
	{ "PMIX_RANK", NULL, NULL },
	{ "PMI_RANK", "MPI_LOCALRANKID", "PMI_SIZE" },
	{ "MV2_COMM_WORLD_RANK", "MV2_COMM_WORLD_LOCAL_RANK",
	  "MV2_COMM_WORLD_SIZE" },
	{ "SLURM_PROCID", "SLURM_LOCALID", "SLURM_NTASKS" },
};

#define N_FAMILIES (sizeof(families) / sizeof(families[0]))

/* Job ids, the override first, then the schedulers'. */
static const char *const job_vars[] = {
	"PSTAT_JOB_ID", "SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID",
	"FLUX_JOB_ID",
};

#define N_JOB_VARS (sizeof(job_vars) / sizeof(job_vars[0]))

/* NAME's value in env, or NULL. */
static const char *env_get(char *const *env, const char *name)
{
	size_t n = strlen(name);

	for (; env && *env; env++)
		if (strncmp(*env, name, n) == 0 && (*env)[n] == '=')
			return *env + n + 1;
	return NULL;
}

/* A decimal number from min up, within an int; 0 or -EINVAL. */
static int decimal(const char *s, long min, long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtol(s, &end, 10);
	return errno || *end || *v < min || *v > INT_MAX ? -EINVAL : 0;
}

/* Variable name's value, if set, into *v (-1 when not). */
static int number_var(char *const *env, const char *name, long min,
		      long *v, char *err, size_t len)
{
	const char *s = name ? env_get(env, name) : NULL;

	*v = -1;
	if (!s)
		return 0;
	if (decimal(s, min, v) < 0)
		return error_say(err, len,
			   "%s='%s' is not a %s: a decimal number from %ld; fix or unset it",
			   name, s, min ? "size" : "rank", min);
	return 0;
}

static int from_family(struct rank_info *ri, char *const *env,
		       const struct family *f, char *err, size_t len)
{
	int ret;

	ret = number_var(env, f->rank, 0, &ri->rank, err, len);
	if (ret == 0)
		ret = number_var(env, f->local, 0, &ri->local_rank, err, len);
	if (ret == 0)
		ret = number_var(env, f->size, 1, &ri->size, err, len);
	if (ret == 0 && ri->size >= 0 && ri->rank >= ri->size)
		ret = error_say(err, len, "%s=%ld is not below %s=%ld; fix them",
			  f->rank, ri->rank, f->size, ri->size);
	if (ret < 0) {
		ri->rank = ri->local_rank = ri->size = -1;
		return ret;
	}
	ri->found = true;
	ri->var = f->rank;
	return 0;
}

int rank_detect(struct rank_info *ri, char *const *env, char *err,
		size_t len)
{
	size_t i;

	*ri = (struct rank_info){ .rank = -1, .local_rank = -1, .size = -1 };
	for (i = 0; i < N_JOB_VARS && !ri->job_id; i++) {
		ri->job_id = env_get(env, job_vars[i]);
		if (ri->job_id && !*ri->job_id)
			ri->job_id = NULL;
		if (ri->job_id)
			ri->job_var = job_vars[i];
	}
	for (i = 0; i < N_FAMILIES; i++)
		if (env_get(env, families[i].rank))
			return from_family(ri, env, &families[i], err, len);
	return 0;
}

/* The variables looked at for one of the family's fields, in err. */
static void looked_at(char *err, size_t len, size_t field)
{
	size_t i, n = 0;
	const char *v;

	for (i = 0; i < N_FAMILIES; i++) {
		v = field == 0 ? families[i].rank : field == 1 ?
		    families[i].local : families[i].size;
		if (v && n < len)
			n += (size_t)snprintf(err + n, len - n, "%s%s",
					      n ? ", " : "", v);
	}
}

/* %X needs what is not known here: say what was looked at. */
static int unknown_value(const char *tmpl, char c, const struct rank_info *ri,
			 char *err, size_t len)
{
	char vars[512] = "";
	size_t i, n = 0;

	if (c == 'h')
		return error_say(err, len, "-o '%s': %%h: the host name is not known",
			   tmpl);
	if (c == 'j') {
		for (i = 0; i < N_JOB_VARS; i++)
			n += (size_t)snprintf(vars + n, sizeof(vars) - n,
					      "%s%s", i ? ", " : "",
					      job_vars[i]);
		return error_say(err, len,
			   "-o '%s': %%j needs a job id, and none of %s is set; set PSTAT_JOB_ID",
			   tmpl, vars);
	}
	for (i = 0; c != 'r' && ri->found && i < N_FAMILIES; i++) {
		const char *v = c == 'l' ? families[i].local : families[i].size;

		if (strcmp(families[i].rank, ri->var) != 0)
			continue;
		return error_say(err, len,
			   "-o '%s': %%%c: %s gave the rank, and %s%s (set PSTAT_RANK, PSTAT_LOCAL_RANK and PSTAT_SIZE to name them by hand)",
			   tmpl, c, ri->var, v ? v : "its launcher says no ",
			   v ? " is not set" : c == 'l' ? "local rank" : "size");
	}
	looked_at(vars, sizeof(vars), c == 'r' ? 0 : c == 'l' ? 1 : 2);
	return error_say(err, len,
		   "-o '%s': %%%c needs a %s, and none of %s is set (run pstat under the launcher, or set %s)",
		   tmpl, c, c == 'r' ? "rank" : c == 'l' ? "local rank" : "size",
		   vars, c == 'r' ? "PSTAT_RANK" : c == 'l' ? "PSTAT_LOCAL_RANK"
							  : "PSTAT_SIZE");
}

/* The value of escape c: a number in *num, or a string in *str. */
static int escape_value(char c, const struct rank_info *ri,
			const struct rank_names *names, long *num,
			const char **str)
{
	*str = NULL;
	*num = -1;
	switch (c) {
	case 'r': *num = ri->rank; break;
	case 'l': *num = ri->local_rank; break;
	case 's': *num = ri->size; break;
	case 'p': *num = names->pid; break;
	case 'h': *str = names->host; return *str ? 0 : -ENOENT;
	case 'j': *str = ri->job_id; return *str ? 0 : -ENOENT;
	default: return -EINVAL;
	}
	return *num >= 0 ? 0 : -ENOENT;
}

bool rank_template_needs_rank(const char *tmpl)
{
	const char *p;

	for (p = tmpl ? strchr(tmpl, '%') : NULL; p; p = strchr(p, '%')) {
		p++;
		if (*p == '%') {
			p++;
			continue;
		}
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p == 'r' || *p == 'l' || *p == 's')
			return true;
	}
	return false;
}

/*
 * A field that holds '/' or "..": in "%j/out.csv", say, it would name
 * a file outside the folder the template names.
 */
static int unsafe_field(const char *tmpl, char c, const char *str,
			const struct rank_info *ri, char *err, size_t len)
{
	char from[64] = "";

	if (!strchr(str, '/') && !strstr(str, ".."))
		return 0;
	if (c == 'j' && ri->job_var)
		snprintf(from, sizeof(from), " (from %s)", ri->job_var);
	return error_say(err, len,
		   "-o '%s': %%%c is '%s'%s, which holds '/' or '..' and could name a file outside the folder; %s",
		   tmpl, c, str, from,
		   c == 'j' ? "set PSTAT_JOB_ID to a job id without them"
			    : "use a template without %h");
}

/* One escape at *p (past the '%'), appended at out + *n. */
static int expand_one(const char *tmpl, const char **p,
		      const struct rank_info *ri,
		      const struct rank_names *names, char *out,
		      size_t out_len, size_t *n, char *err, size_t err_len)
{
	const char *start = *p, *str;
	int width = 0, w;
	long num;

	while (**p >= '0' && **p <= '9' && width < 100)
		width = width * 10 + (*(*p)++ - '0');
	if (width >= 100)
		return error_say(err, err_len, "-o '%s': a width is 1 to 99 digits",
			   tmpl);
	if (**p == '%' && *p == start)
		w = snprintf(out + *n, out_len - *n, "%%");
	else if (escape_value(**p, ri, names, &num, &str) == -EINVAL)
		return error_say(err, err_len,
			   "-o '%s': unknown escape '%%%.*s'; use %%r %%l %%s %%h %%p %%j, or %%%% for a %%",
			   tmpl, **p ? (int)(*p - start) + 1 : (int)(*p - start),
			   start);
	else if (width && str)
		return error_say(err, err_len,
			   "-o '%s': a width goes with %%r, %%l, %%s and %%p, not %%%c",
			   tmpl, **p);
	else if (!str && num < 0)
		return unknown_value(tmpl, **p, ri, err, err_len);
	else if (str && unsafe_field(tmpl, **p, str, ri, err, err_len) < 0)
		return -EINVAL;
	else if (str)
		w = snprintf(out + *n, out_len - *n, "%s", str);
	else
		w = snprintf(out + *n, out_len - *n, "%0*ld", width, num);
	(*p)++;
	*n += (size_t)w;
	if (*n >= out_len)
		return error_say(err, err_len, "-o '%s': the name is too long", tmpl);
	return 0;
}

int rank_expand(const char *tmpl, const struct rank_info *ri,
		const struct rank_names *names, char *out, size_t out_len,
		char *err, size_t err_len)
{
	const char *p = tmpl;
	size_t n = 0;
	int ret;

	while (*p) {
		if (*p != '%') {
			if (n + 1 >= out_len)
				return error_say(err, err_len,
					   "-o '%s': the name is too long",
					   tmpl);
			out[n++] = *p++;
			continue;
		}
		p++;
		ret = expand_one(tmpl, &p, ri, names, out, out_len, &n, err,
				 err_len);
		if (ret < 0)
			return ret;
	}
	out[n] = '\0';
	return 0;
}
