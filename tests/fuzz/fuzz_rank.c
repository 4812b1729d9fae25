/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -o templates with launcher variables: any environment gives the rank,
 * local rank, size and job id that a reading of rank.h says (the first
 * launcher whose rank variable is set; decimal numbers within an int,
 * the rank below the size) or is refused with a reason naming the
 * variable; any template expands as a second expander says, byte for
 * byte, within the length given, or is refused with a reason that
 * shows it. The input: the template, the host (empty: unknown), then
 * NAME=VALUE strings, NUL-separated.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "rank.h"

#define MAX_ENV 64
#define OUT_LEN 128

static const char *const rank_vars[][3] = {
	{ "PSTAT_RANK", "PSTAT_LOCAL_RANK", "PSTAT_SIZE" },
	{ "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
	  "OMPI_COMM_WORLD_SIZE" },
	{ "PMIX_RANK", NULL, NULL },
	{ "PMI_RANK", "MPI_LOCALRANKID", "PMI_SIZE" },
	{ "MV2_COMM_WORLD_RANK", "MV2_COMM_WORLD_LOCAL_RANK",
	  "MV2_COMM_WORLD_SIZE" },
	{ "SLURM_PROCID", "SLURM_LOCALID", "SLURM_NTASKS" },
};

static const char *const job_vars[] = {
	"PSTAT_JOB_ID", "SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID",
	"FLUX_JOB_ID",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The first NAME=VALUE of env, as getenv finds it, or NULL. */
static const char *get(char *const *env, const char *name)
{
	size_t n = name ? strlen(name) : 0;

	for (; name && *env; env++)
		if (strncmp(*env, name, n) == 0 && (*env)[n] == '=')
			return *env + n + 1;
	return NULL;
}

/* Digits only, from min to INT_MAX: the value, or -2 when not one. */
static long number(const char *s, long min)
{
	long v = 0;

	if (!*s)
		return -2;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -2;
		v = v * 10 + (*s - '0');
		if (v > INT_MAX)
			return -2;
	}
	return v >= min ? v : -2;
}

/* What rank_detect should find: 0, or -EINVAL naming *bad. */
static int oracle_detect(char *const *env, struct rank_info *want,
			 const char **bad)
{
	const char *s;
	long v[3];
	size_t i, k;

	*want = (struct rank_info){ .rank = -1, .local_rank = -1,
				    .size = -1 };
	*bad = NULL;
	for (i = 0; i < N(job_vars) && !want->job_id; i++) {
		s = get(env, job_vars[i]);
		want->job_id = s && *s ? s : NULL;
	}
	for (i = 0; i < N(rank_vars) && !get(env, rank_vars[i][0]); i++)
		;
	if (i == N(rank_vars))
		return 0;
	for (k = 0; k < 3; k++) {
		s = get(env, rank_vars[i][k]);
		v[k] = s ? number(s, k == 2 ? 1 : 0) : -1;
		if (v[k] == -2) {
			*bad = rank_vars[i][k];
			return -EINVAL;
		}
	}
	if (v[2] >= 0 && v[0] >= v[2]) {
		*bad = rank_vars[i][0];
		return -EINVAL;
	}
	*want = (struct rank_info){ .found = true, .rank = v[0],
				    .local_rank = v[1], .size = v[2],
				    .var = rank_vars[i][0],
				    .job_id = want->job_id };
	return 0;
}

/*
 * tmpl expanded into out (len bytes): 0, -EINVAL when refused; *risky
 * says whether a field put in holds a '/' or "..", which a name may not
 * take from the environment (rank.c may refuse it).
 */
static int oracle_expand(const char *tmpl, const struct rank_info *ri,
			 const struct rank_names *nm, char *out, size_t len,
			 bool *risky)
{
	const char *p = tmpl, *str;
	size_t n = 0;
	long num;
	int width, w;

	*risky = false;
	while (*p) {
		if (*p != '%') {
			if (n + 1 >= len)
				return -EINVAL;
			out[n++] = *p++;
			continue;
		}
		p++;
		if (*p == '%') {
			str = "%";
			width = 0;
		} else {
			for (width = 0; *p >= '0' && *p <= '9'; p++)
				if ((width = width * 10 + (*p - '0')) >= 100)
					return -EINVAL;
			num = *p == 'r' ? ri->rank : *p == 'l' ? ri->local_rank
			    : *p == 's' ? ri->size : *p == 'p' ? nm->pid : -2;
			str = *p == 'h' ? nm->host : *p == 'j' ? ri->job_id
			    : NULL;
			if (!*p || (num == -2 && *p != 'h' && *p != 'j'))
				return -EINVAL;
			if ((*p == 'h' || *p == 'j') && (width || !str))
				return -EINVAL;
			if (!str && num < 0)
				return -EINVAL;
			if (str && (strchr(str, '/') || strstr(str, "..")))
				*risky = true;
		}
		p++;
		if (str)
			w = snprintf(out + n, len - n, "%s", str);
		else
			w = snprintf(out + n, len - n, "%0*ld", width, num);
		n += (size_t)w;
		if (n >= len)
			return -EINVAL;
	}
	out[n] = '\0';
	return 0;
}

static void check_detect(char *const *env, struct rank_info *ri)
{
	struct rank_info want;
	const char *bad;
	char err[1024] = "";
	int ret = rank_detect(ri, env, err, sizeof(err));
	int want_ret = oracle_detect(env, &want, &bad);

	FUZZ_CHECK(ret == want_ret, "rank_detect: %d, not %d (%s)", ret,
		   want_ret, err);
	if (ret < 0) {
		FUZZ_CHECK(strstr(err, bad), "the reason names no %s: %s", bad,
			   err);
		FUZZ_CHECK(!ri->found && ri->rank == -1,
			   "refused, yet rank %ld", ri->rank);
		return;
	}
	FUZZ_CHECK(ri->found == want.found && ri->rank == want.rank &&
		   ri->local_rank == want.local_rank && ri->size == want.size,
		   "rank %ld/%ld of %ld, not %ld/%ld of %ld", ri->rank,
		   ri->local_rank, ri->size, want.rank, want.local_rank,
		   want.size);
	FUZZ_CHECK((!ri->var && !want.var) ||
		   (ri->var && want.var && strcmp(ri->var, want.var) == 0),
		   "rank from %s, not %s", ri->var ? ri->var : "none",
		   want.var ? want.var : "none");
	FUZZ_CHECK(ri->job_id == want.job_id, "job id '%s', not '%s'",
		   ri->job_id ? ri->job_id : "(none)",
		   want.job_id ? want.job_id : "(none)");
}

static void check_expand(const char *tmpl, const struct rank_info *ri,
			 const struct rank_names *nm, size_t len)
{
	char out[OUT_LEN + 1], want[OUT_LEN], err[1024] = "";
	bool risky;
	int ret, want_ret;

	memset(out, 'g', sizeof(out));
	ret = rank_expand(tmpl, ri, nm, out, len, err, sizeof(err));
	want_ret = oracle_expand(tmpl, ri, nm, want, len, &risky);
	FUZZ_CHECK(out[len] == 'g', "'%s': byte %zu written", tmpl, len);
	FUZZ_CHECK(ret == 0 || ret == -EINVAL, "'%s': %d", tmpl, ret);
	if (ret < 0) {
		FUZZ_CHECK(want_ret < 0 || risky,
			   "'%s' refused, but expands to '%s': %s", tmpl, want,
			   err);
		FUZZ_CHECK(err[0] && strncmp(err, "-o '", 4) == 0,
			   "'%s': the reason shows no template: %s", tmpl,
			   err);
		return;
	}
	FUZZ_CHECK(want_ret == 0, "'%s' expands to '%s', but is bad", tmpl,
		   out);
	FUZZ_CHECK(strcmp(out, want) == 0, "'%s': '%s', not '%s'", tmpl, out,
		   want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	char *tmpl, *host, *env[MAX_ENV + 1];
	struct rank_names nm;
	struct rank_info ri;
	size_t n = 0, i;

	nm.pid = (long)fuzz_uint(&in, 2);
	tmpl = fuzz_str(&in);
	host = fuzz_str(&in);
	while (in.n && n < MAX_ENV)
		env[n++] = fuzz_str(&in);
	env[n] = NULL;
	nm.host = *host ? host : NULL;
	check_detect(env, &ri);
	check_expand(tmpl, &ri, &nm, OUT_LEN);
	check_expand(tmpl, &ri, &nm, 1 + strlen(tmpl) % OUT_LEN);
	for (i = 0; i < n; i++)
		free(env[i]);
	free(tmpl);
	free(host);
	return 0;
}
