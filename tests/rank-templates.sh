#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -o name templates: each escape and its width, one file per rank, and
# every refusal before anything runs (exit 125, the variables named);
# a directory that does not exist is refused, not made.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
# Whatever launched the suite, these tests say the ranks themselves.
unset PSTAT_RANK PSTAT_LOCAL_RANK PSTAT_SIZE PSTAT_JOB_ID \
	OMPI_COMM_WORLD_RANK OMPI_COMM_WORLD_LOCAL_RANK OMPI_COMM_WORLD_SIZE \
	PMIX_RANK PMI_RANK PMI_SIZE MPI_LOCALRANKID MV2_COMM_WORLD_RANK \
	MV2_COMM_WORLD_LOCAL_RANK MV2_COMM_WORLD_SIZE SLURM_PROCID \
	SLURM_LOCALID SLURM_NTASKS SLURM_JOB_ID PBS_JOBID LSB_JOBID FLUX_JOB_ID

host=$(hostname)
host=${host%%.*}
mkdir d
for r in 0 1 2 3; do
	rc=0
	PMI_RANK=$r PMI_SIZE=4 MPI_LOCALRANKID=$r SLURM_JOB_ID=4242 \
		"$PSTAT" -e task-clock -o 'd/out.%4r-of-%s.%l.%h.%j.%%.csv' \
		-- true 2>err || rc=$?
	expect_rc 0
done
ls d >names
printf '%s\n' "out.0000-of-4.0.$host.4242.%.csv" \
	"out.0001-of-4.1.$host.4242.%.csv" "out.0002-of-4.2.$host.4242.%.csv" \
	"out.0003-of-4.3.$host.4242.%.csv" >want
cmp names want || { cat names; fail_ "the files made"; }
grep -q 'task-clock' "d/out.0002-of-4.2.$host.4242.%.csv" ||
	fail_ "the results are not in the rank's file"

# %p is pstat's own pid: the command's parent.
run_pstat -o 'pid.%p' -- sh -c 'echo $PPID >ppid'
expect_rc 0
[ -f "pid.$(cat ppid)" ] || { ls; fail_ "%p is not pstat's pid"; }

# PSTAT_RANK over the launcher's; the sbatch case: MPI's over Slurm's.
PSTAT_RANK=7 OMPI_COMM_WORLD_RANK=1 run_pstat -o 'o.%r' -- true
expect_rc 0
[ -f o.7 ] || fail_ "PSTAT_RANK did not win"
SLURM_PROCID=0 OMPI_COMM_WORLD_RANK=1 run_pstat -o 'o.%r' -- true
[ -f o.1 ] || fail_ "SLURM_PROCID won over OMPI_COMM_WORLD_RANK"

# Refusals: nothing runs, one line naming what was looked at.
expect_refused_saying "%r needs a rank, and none of PSTAT_RANK, OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK, MV2_COMM_WORLD_RANK, SLURM_PROCID is set" \
	-o 'x.%r'
[ ! -e 'x.%r' ] || fail_ "a file named x.%r was made"
expect_refused_saying "unknown escape '%q'" -o 'x.%q'
expect_refused_saying "unknown escape" -o 'x.%'
expect_refused_saying "%j needs a job id, and none of PSTAT_JOB_ID, SLURM_JOB_ID" \
	-o 'x.%j'
PMIX_RANK=1 expect_refused_saying "PMIX_RANK gave the rank" -o 'x.%s'
PMI_RANK=1 expect_refused_saying "PMI_SIZE is not set" -o 'x.%s'
PMI_RANK=one expect_refused_saying "PMI_RANK='one' is not a rank" -o 'x.%r'
PSTAT_RANK=-2 expect_refused_saying "PSTAT_RANK='-2'" --format=csv
expect_refused_saying "its directory does not exist" -o 'nodir/x.%p'
[ ! -e nodir ] || fail_ "the missing directory was made"
# A bad rank variable is nobody's business where no rank is used.
PMI_RANK=one run_pstat -e task-clock -o plain -- true
expect_rc 0
exit 0
