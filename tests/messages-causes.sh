#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Messages that name the real cause: pstat out of descriptors (not the
# command), a -G name that leads out of the cgroup hierarchy (not "Bad
# file descriptor"), and a -o template whose %j would lead out of its
# folder (refused, nothing written outside).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
unset PSTAT_RANK PSTAT_LOCAL_RANK PSTAT_SIZE PSTAT_JOB_ID \
	OMPI_COMM_WORLD_RANK PMIX_RANK PMI_RANK MV2_COMM_WORLD_RANK \
	SLURM_PROCID SLURM_LOCALID SLURM_NTASKS SLURM_JOB_ID

# A limit of 4 to 7 descriptors: pstat's own pipes do not fit.
for n in 4 5 6 7; do
	rm -f ran
	rc=0
	(
		# shellcheck disable=SC3045 # dash, bash and busybox have -n
		ulimit -n "$n" || exit 99
		exec "$PSTAT" -e task-clock -- touch ran
	) >out 2>err || rc=$?
	[ "$rc" != 99 ] || framework_failure_ "ulimit -n $n"
	expect_rc 125
	[ ! -e ran ] || fail_ "ulimit -n $n: the command ran"
	expect_eq "$(grep -c '^pstat: ' err)" 1 "ulimit -n $n: 'pstat: ' lines"
	grep -q "^pstat: ran out of file descriptors before counting: the limit is $n (ulimit -n), .*raise it with 'ulimit -n [0-9]*'" err ||
		{ show_err_; fail_ "ulimit -n $n: the message"; }
	! grep -q 'touch' err || { show_err_; fail_ "ulimit -n $n: blames the command"; }
done

# -G ..: out of the hierarchy, whatever is there.
if ! awk '$3 == "cgroup2" || ($3 == "cgroup" && $4 ~ /perf_event/) {
	found = 1 } END { exit !found }' /proc/self/mounts; then
	echo "no cgroup hierarchy for perf_event mounted: -G not tried"
else
	for name in .. ../.. a/../.. /..; do
		expect_refused_saying "cgroup '$name' leads out of .*without '\.\.'" \
			-a -e task-clock -G "$name"
	done
fi

# -o with a job id that climbs: refused, nothing written.
mkdir -p d/sub
cd d/sub || framework_failure_ "cd d/sub"
for job in ../../x a/b ..; do
	rc=0
	env PSTAT_JOB_ID="$job" "$PSTAT" -o 'out-%j.txt' -e task-clock \
		-- touch ran >out 2>err || rc=$?
	expect_rc 125
	[ ! -e ran ] || fail_ "PSTAT_JOB_ID=$job: the command ran"
	grep -q "^pstat: -o 'out-%j.txt': %j is '$job' (from PSTAT_JOB_ID), which holds '/' or '..'" err ||
		{ show_err_; fail_ "PSTAT_JOB_ID=$job: the message"; }
done
[ -z "$(find "$tmpdir" -name 'out-*')" ] ||
	fail_ "a -o file was written: $(find "$tmpdir" -name 'out-*')"
env PSTAT_JOB_ID=1234.server "$PSTAT" -o 'out-%j.txt' -e task-clock -- true ||
	fail_ "PSTAT_JOB_ID=1234.server: status $?"
[ -s out-1234.server.txt ] || fail_ "PSTAT_JOB_ID=1234.server: no file"
