/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of rank.c: rank detection's precedence and -o templates. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "rank.h"
#include "unit.h"

static const struct detect_row {
	int line;
	const char *env[6];
	int ret;
	long rank, local, size;
	const char *var;	/* the variable that gave it; or, on an
				 * error, one the reason must name */
	const char *job;
} detect_rows[] = {
	{ __LINE__, { NULL }, 0, -1, -1, -1, NULL, NULL },
	{ __LINE__, { "HOME=/root", "RANK=3" }, 0, -1, -1, -1, NULL, NULL },
	/* Each family, with its local rank and size. */
	{ __LINE__, { "PSTAT_RANK=2", "PSTAT_LOCAL_RANK=0", "PSTAT_SIZE=4" },
	  0, 2, 0, 4, "PSTAT_RANK", NULL },
	{ __LINE__, { "OMPI_COMM_WORLD_RANK=3", "OMPI_COMM_WORLD_SIZE=4",
		      "OMPI_COMM_WORLD_LOCAL_RANK=1" },
	  0, 3, 1, 4, "OMPI_COMM_WORLD_RANK", NULL },
	{ __LINE__, { "PMIX_RANK=5" }, 0, 5, -1, -1, "PMIX_RANK", NULL },
	{ __LINE__, { "PMI_RANK=1", "PMI_SIZE=2", "MPI_LOCALRANKID=1" },
	  0, 1, 1, 2, "PMI_RANK", NULL },
	{ __LINE__, { "MV2_COMM_WORLD_RANK=7", "MV2_COMM_WORLD_SIZE=8",
		      "MV2_COMM_WORLD_LOCAL_RANK=3" },
	  0, 7, 3, 8, "MV2_COMM_WORLD_RANK", NULL },
	{ __LINE__, { "SLURM_PROCID=9", "SLURM_LOCALID=1", "SLURM_NTASKS=10",
		      "SLURM_JOB_ID=4242" },
	  0, 9, 1, 10, "SLURM_PROCID", "4242" },
	/* sbatch: mpirun's ranks all see SLURM_PROCID=0; MPI's wins. */
	{ __LINE__, { "SLURM_PROCID=0", "SLURM_NTASKS=1",
		      "OMPI_COMM_WORLD_RANK=1", "SLURM_JOB_ID=77" },
	  0, 1, -1, -1, "OMPI_COMM_WORLD_RANK", "77" },
	{ __LINE__, { "SLURM_PROCID=0", "PMI_RANK=3", "PMIX_RANK=2" },
	  0, 2, -1, -1, "PMIX_RANK", NULL },
	{ __LINE__, { "MV2_COMM_WORLD_RANK=4", "PMI_RANK=3" },
	  0, 3, -1, -1, "PMI_RANK", NULL },
	{ __LINE__, { "SLURM_PROCID=1", "MV2_COMM_WORLD_RANK=4" },
	  0, 4, -1, -1, "MV2_COMM_WORLD_RANK", NULL },
	/* PSTAT_RANK over everything; the job id too. */
	{ __LINE__, { "OMPI_COMM_WORLD_RANK=1", "PMI_RANK=2",
		      "SLURM_PROCID=3", "PSTAT_RANK=0",
		      "PSTAT_JOB_ID=mine", "SLURM_JOB_ID=5" },
	  0, 0, -1, -1, "PSTAT_RANK", "mine" },
	{ __LINE__, { "PBS_JOBID=12.server" }, 0, -1, -1, -1, NULL,
	  "12.server" },
	/* A prefix of a name is not the name. */
	{ __LINE__, { "PSTAT_RANKS=1", "PMI_RANK_X=2" }, 0, -1, -1, -1,
	  NULL, NULL },
	/* Bad values: named, never skipped over to the next family. */
	{ __LINE__, { "PSTAT_RANK=x", "PMI_RANK=1" }, -EINVAL, -1, -1, -1,
	  "PSTAT_RANK", NULL },
	{ __LINE__, { "PSTAT_RANK=" }, -EINVAL, -1, -1, -1, "PSTAT_RANK",
	  NULL },
	{ __LINE__, { "PMI_RANK=-1" }, -EINVAL, -1, -1, -1, "PMI_RANK",
	  NULL },
	{ __LINE__, { "PMI_RANK= 1" }, -EINVAL, -1, -1, -1, "PMI_RANK",
	  NULL },
	{ __LINE__, { "PMI_RANK=1x" }, -EINVAL, -1, -1, -1, "PMI_RANK",
	  NULL },
	{ __LINE__, { "SLURM_PROCID=99999999999" }, -EINVAL, -1, -1, -1,
	  "SLURM_PROCID", NULL },
	{ __LINE__, { "PMI_RANK=1", "PMI_SIZE=0" }, -EINVAL, -1, -1, -1,
	  "PMI_SIZE", NULL },
	{ __LINE__, { "PMI_RANK=1", "MPI_LOCALRANKID=one" }, -EINVAL, -1, -1,
	  -1, "MPI_LOCALRANKID", NULL },
	{ __LINE__, { "PMI_RANK=4", "PMI_SIZE=4" }, -EINVAL, -1, -1, -1,
	  "PMI_SIZE", NULL },
};

START_TEST(test_detect)
{
	const struct detect_row *t = &detect_rows[_i];
	struct rank_info ri;
	char err[512] = "";
	int ret;

	ret = rank_detect(&ri, (char *const *)t->env, err, sizeof(err));
	ck_assert_msg(ret == t->ret, "line %d: %d", t->line, ret);
	ck_assert_msg(ri.found == (t->ret == 0 && t->var != NULL),
		      "line %d: found", t->line);
	ck_assert_msg(ri.rank == t->rank && ri.local_rank == t->local &&
		      ri.size == t->size, "line %d: %ld %ld %ld", t->line,
		      ri.rank, ri.local_rank, ri.size);
	if (ret < 0)
		ck_assert_msg(strstr(err, t->var), "line %d: %s", t->line,
			      err);
	else if (t->var)
		ck_assert_msg(strcmp(ri.var, t->var) == 0, "line %d: %s",
			      t->line, ri.var);
	if (t->job)
		ck_assert_msg(ri.job_id && strcmp(ri.job_id, t->job) == 0 &&
			      ri.job_var, "line %d: job", t->line);
	else
		ck_assert_msg(!ri.job_id && !ri.job_var, "line %d: job",
			      t->line);
}
END_TEST

static const struct expand_row {
	int line;
	const char *tmpl;
	bool has_rank;		/* rank 3, local 1, size 4, job 88 */
	bool has_host;		/* host "node7" */
	const char *want;	/* NULL: refused */
	const char *reason;	/* a part of the reason */
} expand_rows[] = {
	{ __LINE__, "out.csv", true, true, "out.csv", NULL },
	{ __LINE__, "", true, true, "", NULL },
	{ __LINE__, "out.%r.csv", true, true, "out.3.csv", NULL },
	{ __LINE__, "%l-%s", true, true, "1-4", NULL },
	{ __LINE__, "%4r", true, true, "0003", NULL },
	{ __LINE__, "%04r", true, true, "0003", NULL },
	{ __LINE__, "%1r", true, true, "3", NULL },
	{ __LINE__, "%2l.%3s", true, true, "01.004", NULL },
	{ __LINE__, "%h", true, true, "node7", NULL },
	{ __LINE__, "%p", true, true, "1234", NULL },
	{ __LINE__, "%8p", true, true, "00001234", NULL },
	{ __LINE__, "%j", true, true, "88", NULL },
	{ __LINE__, "%%", true, true, "%", NULL },
	{ __LINE__, "100%%.%r", true, true, "100%.3", NULL },
	{ __LINE__, "%%r", false, true, "%r", NULL },
	{ __LINE__, "d/%h.%p", false, true, "d/node7.1234", NULL },
	/* Errors. */
	{ __LINE__, "%x", true, true, NULL, "unknown escape '%x'" },
	{ __LINE__, "a%", true, true, NULL, "unknown escape" },
	{ __LINE__, "%4%", true, true, NULL, "unknown escape '%4%'" },
	{ __LINE__, "%100r", true, true, NULL, "width" },
	{ __LINE__, "%3h", true, true, NULL, "a width goes with" },
	{ __LINE__, "%r", false, true, NULL, "PMI_RANK, MV2_COMM_WORLD_RANK" },
	{ __LINE__, "%l", false, true, NULL, "SLURM_LOCALID" },
	{ __LINE__, "%s", false, true, NULL, "PMI_SIZE" },
	{ __LINE__, "%j", false, true, NULL, "SLURM_JOB_ID" },
	{ __LINE__, "%h", true, false, NULL, "host name" },
	{ __LINE__, "x%r", false, false, NULL, "-o 'x%r'" },
};

START_TEST(test_expand)
{
	const struct expand_row *t = &expand_rows[_i];
	const struct rank_info with = {
		.found = true, .rank = 3, .local_rank = 1, .size = 4,
		.var = "PSTAT_RANK", .job_id = "88",
	};
	const struct rank_info without = {
		.rank = -1, .local_rank = -1, .size = -1,
	};
	const struct rank_names names = {
		.host = t->has_host ? "node7" : NULL, .pid = 1234,
	};
	char out[64], err[512] = "";
	int ret;

	ret = rank_expand(t->tmpl, t->has_rank ? &with : &without, &names,
			  out, sizeof(out), err, sizeof(err));
	if (t->want) {
		ck_assert_msg(ret == 0, "line %d: %s", t->line, err);
		ck_assert_msg(strcmp(out, t->want) == 0, "line %d: '%s'",
			      t->line, out);
	} else {
		ck_assert_msg(ret == -EINVAL, "line %d: %d", t->line, ret);
		ck_assert_msg(strstr(err, t->reason), "line %d: %s", t->line,
			      err);
	}
}
END_TEST

/* A name that does not fit is refused, not cut short. */
START_TEST(test_too_long)
{
	const struct rank_info ri = {
		.found = true, .rank = 12345, .local_rank = -1, .size = -1,
	};
	const struct rank_names names = { .pid = 1 };
	char out[8], err[256];

	ck_assert_int_eq(rank_expand("abcdefg", &ri, &names, out, sizeof(out),
				     err, sizeof(err)), 0);
	ck_assert_int_eq(rank_expand("abcdefgh", &ri, &names, out,
				     sizeof(out), err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(rank_expand("abc.%r", &ri, &names, out,
				     sizeof(out), err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "too long"));
}
END_TEST

/* %j and %h put in as they are, but never a way out of the folder. */
static const struct field_row {
	int line;
	const char *tmpl, *job, *host;
	const char *want;	/* NULL: refused */
	const char *reason;
} field_rows[] = {
	{ __LINE__, "out-%j.csv", "1234.pbs-server", "n1",
	  "out-1234.pbs-server.csv", NULL },
	{ __LINE__, "d/%h.csv", "1", "node.7", "d/node.7.csv", NULL },
	{ __LINE__, "%j/out.csv", "..", "n1", NULL,
	  "%j is '..' (from PSTAT_JOB_ID), which holds '/' or '..'" },
	{ __LINE__, "out-%j.csv", "../../x", "n1", NULL, "PSTAT_JOB_ID" },
	{ __LINE__, "out-%j.csv", "a/b", "n1", NULL, "'/' or '..'" },
	{ __LINE__, "out-%j.csv", "/etc", "n1", NULL, "'/' or '..'" },
	{ __LINE__, "out-%j.csv", "x..y", "n1", NULL, "'/' or '..'" },
	{ __LINE__, "%h/out.csv", "1", "..", NULL, "%h is '..'" },
	{ __LINE__, "out-%h.csv", "1", "a/b", NULL, "without %h" },
};

START_TEST(test_fields)
{
	const struct field_row *t = &field_rows[_i];
	const struct rank_info ri = {
		.rank = -1, .local_rank = -1, .size = -1,
		.job_id = t->job, .job_var = "PSTAT_JOB_ID",
	};
	const struct rank_names names = { .host = t->host, .pid = 1 };
	char out[64] = "", err[512] = "";
	int ret;

	ret = rank_expand(t->tmpl, &ri, &names, out, sizeof(out), err,
			  sizeof(err));
	if (t->want) {
		ck_assert_msg(ret == 0, "line %d: %s", t->line, err);
		ck_assert_msg(strcmp(out, t->want) == 0, "line %d: '%s'",
			      t->line, out);
	} else {
		ck_assert_msg(ret == -EINVAL, "line %d: %d '%s'", t->line,
			      ret, out);
		ck_assert_msg(strstr(err, t->reason), "line %d: %s", t->line,
			      err);
	}
}
END_TEST

static const struct needs_row {
	int line;
	const char *tmpl;
	bool needs;
} needs_rows[] = {
	{ __LINE__, NULL, false },
	{ __LINE__, "out.csv", false },
	{ __LINE__, "out.%h.%p.%j", false },
	{ __LINE__, "out.%%r", false },
	{ __LINE__, "out.%r", true },
	{ __LINE__, "out.%4l", true },
	{ __LINE__, "%%%s", true },
};

START_TEST(test_needs)
{
	const struct needs_row *t = &needs_rows[_i];

	ck_assert_msg(rank_template_needs_rank(t->tmpl) == t->needs,
		      "line %d", t->line);
}
END_TEST

static Suite *rank_suite(void)
{
	Suite *s = suite_create("rank");
	TCase *td = tcase_create("detect");
	TCase *te = tcase_create("expand");

	tcase_add_loop_test(td, test_detect, 0, N_ROWS(detect_rows));
	suite_add_tcase(s, td);
	tcase_add_loop_test(te, test_expand, 0, N_ROWS(expand_rows));
	tcase_add_test(te, test_too_long);
	tcase_add_loop_test(te, test_fields, 0, N_ROWS(field_rows));
	tcase_add_loop_test(te, test_needs, 0, N_ROWS(needs_rows));
	suite_add_tcase(s, te);
	return s;
}

int main(void)
{
	return unit_run(rank_suite());
}
