#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pstat under real MPI launchers, on 4 ranks on this machine: Open MPI's
# mpirun and MPICH's mpiexec (by their own names: both claim mpirun).
# Each rank counts a workload of 100 x (rank + 1) writes: the merge says
# sum 1000, min 100 at rank 0, max 400 at rank 3, 4/4. Then a real MPI
# program (MPI_Init, Allreduce, Finalize) built with that library's
# mpicc, under pstat on 4 ranks: under MPICH it checks it got PMI_FD,
# the descriptor pstat passes on untouched. Then scripts/pstat-mpirun. Skipped for a launcher
# that is not installed (scripts/bootstrap --tests installs both).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs
unset PSTAT_RANK PSTAT_LOCAL_RANK PSTAT_SIZE SLURM_PROCID SLURM_LOCALID \
	SLURM_NTASKS SLURM_JOB_ID PMIX_RANK PMI_RANK OMPI_COMM_WORLD_RANK \
	MV2_COMM_WORLD_RANK

# Open MPI as root, on loopback, 4 ranks whatever the CPUs.
OMPI_ALLOW_RUN_AS_ROOT=1
OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OMPI_MCA_rmaps_base_oversubscribe=1
OMPI_MCA_oob_tcp_if_include=lo
OMPI_MCA_btl=self,vader
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM \
	OMPI_MCA_rmaps_base_oversubscribe OMPI_MCA_oob_tcp_if_include \
	OMPI_MCA_btl

tested=
expect_merged()
{
	run_pstat --merge --format=csv "$1"/rank.*
	expect_rc 0
	line=$(grep '^event,syscalls:sys_enter_write,' out)
	case $line in
	event,syscalls:sys_enter_write,1000,,4,4,1000,250.000000,*,100,0,400,3,*) ;;
	*) cat out; fail_ "$2: the merged writes: $line" ;;
	esac
}

# launch NAME LAUNCHER MPICC [ARG]: one library's case.
launch()
{
	name=$1 launcher=$2 mpicc=$3 arg=${4:-}
	command -v "$launcher" >/dev/null 2>&1 || {
		echo "$name: no $launcher here (scripts/bootstrap --tests installs it)"
		return 0
	}
	command -v "$mpicc" >/dev/null 2>&1 || {
		echo "$name: no $mpicc here (scripts/bootstrap --tests installs it)"
		return 0
	}
	"$mpicc" -o "mpi_$name" "$top_srcdir/tests/progs/mpi_allreduce.c" ||
		framework_failure_ "$mpicc cannot build the MPI program"
	# The exact workload, its count from the rank the launcher gave.
	mkdir "$name" "$name-mpi"
	rc=0
	"$launcher" -n 4 "$PSTAT" --format=csv -o "$name/rank.%r.csv" \
		-e syscalls:sys_enter_write -- sh -c \
		'exec "$0" $(( (${OMPI_COMM_WORLD_RANK:-$PMI_RANK} + 1) * 100 ))' \
		"$PROGS/writer" >"$name.out" 2>"$name.err" || rc=$?
	[ "$rc" = 0 ] || { cat "$name.out" "$name.err"; fail_ "$name: status $rc"; }
	expect_merged "$name" "$name"
	# A real MPI program; the library writes too, so the counts are
	# 100 x (rank + 1) and a little more.
	"$launcher" -n 4 "$PSTAT" --format=json -o "$name-mpi/rank.%r.json" \
		-e syscalls:sys_enter_write -- "./mpi_$name" 100 $arg \
		>"$name.out" 2>"$name.err" || rc=$?
	[ "$rc" = 0 ] || { cat "$name.out" "$name.err"; fail_ "$name: MPI program: status $rc"; }
	[ "$(grep -c 'of 4: sum 6$' "$name.out")" = 4 ] ||
		{ cat "$name.out"; fail_ "$name: the Allreduce"; }
	run_pstat --merge --format=csv "$name-mpi"/rank.*
	expect_rc 0
	grep -Eq '^event,syscalls:sys_enter_write,[0-9]+,,4,4,[0-9]+,[0-9.]+,[0-9.]+,[0-9]+,0,[0-9]+,3,' out ||
		{ cat out; fail_ "$name: the MPI program's merged writes"; }
	tested="$tested $name"
}

launch openmpi mpirun.openmpi mpicc.openmpi
launch mpich mpiexec.mpich mpicc.mpich pmi_fd

[ -n "$tested" ] || skip_ "neither Open MPI nor MPICH is installed"

# scripts/pstat-mpirun, with the first launcher there is.
case $tested in
*openmpi*) l=mpirun.openmpi p=mpi_openmpi ;;
*) l=mpiexec.mpich p=mpi_mpich ;;
esac
rc=0
PSTAT=$PSTAT "$top_srcdir/scripts/pstat-mpirun" -d wrapped -l "$l" \
	-e syscalls:sys_enter_write -n 4 -- "./$p" 100 >wrapped.out 2>&1 ||
	rc=$?
[ "$rc" = 0 ] || { cat wrapped.out; fail_ "pstat-mpirun: status $rc"; }
grep -Eq '^  syscalls:sys_enter_write +4/4 .* \(0\) +[0-9]+ \(3\) ' wrapped.out ||
	{ cat wrapped.out; fail_ "pstat-mpirun: the merged report"; }
[ -f wrapped/rank.000003.csv ] || { ls wrapped; fail_ "pstat-mpirun: files"; }
exit 0
