#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# perf stat is the oracle of the event language: for each spec, the
# perf_event_attr fields that say what is counted must be the same in
# 'pstat --explain -e SPEC' as in what 'perf stat -vv -e SPEC' opens.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
command -v perf >/dev/null 2>&1 || skip_ "perf is not installed"
perf stat -e task-clock true >/dev/null 2>perf.err ||
	skip_ "perf stat does not work here: $(head -n 1 perf.err)"
# Where the kernel may not be counted, perf quietly falls back to :u,
# and pstat says so.
"$PSTAT" -x, -e task-clock -- true >/dev/null 2>err &&
	grep -q ',task-clock,' err ||
	skip_ "cannot count the kernel here: $(head -n 1 err)"

attrs_awk=${top_srcdir:?}/tests/perf-attrs.awk

# Specs both tools take here. Left out on purpose, where pstat takes
# more than perf 6.1: r0x1a8 (perf 6.1 wants rNNNN), NODE-LOADS (its
# lexer is case-sensitive), branches-load-misses (it reads 'branches' as
# the hardware event), *:sched_switch (it fails to expand the glob),
# msr/tsc/:u (it wants no colon after a PMU event). And cycles:P: perf
# stat leaves precise_ip 0 for :P, while pstat's first try, which
# --explain shows, is 3.
specs='cycles
cpu-cycles
instructions
branches
idle-cycles-backend
ref-cycles
task-clock
faults
cs
migrations
cgroup-switches
L1-dcache-load-misses
l1d-loads
L1-data-stores-miss
l1-i-prefetches
LLC-prefetches
L2-write-ops
dTLB-load-misses
Data-TLB-speculative-read-Reference
i-tlb-load-misses
Instruction-TLB-read-access
btb-misses
bpu-read-misses
node-stores
L1-dcache-misses-load
r1a8
rABC
mem:0x1000
mem:0x1000/8:w
mem:0x1000:rw
mem:0x1000:r
mem:4096:x
mem:0x1000/2:w
mem:0x1000:w:u
cycles:u
cycles:k
cycles:uk
cycles:h
cycles:I
cycles:G
cycles:H
cycles:D
cycles:e
cycles:p
cycles:pp
cycles:ppp
cycles:S
task-clock:D
task-clock:e
task-clock:I
task-clock:ppp
{task-clock,page-faults}:u
{task-clock,page-faults:k}:u
{task-clock,page-faults}:D
{task-clock,page-faults}:e
{task-clock,cycles}:W
{task-clock,cycles,page-faults}:k
faults:u,cs:k'

# Specs that need more of the machine are tests of their own, which skip
# where it lacks them: events-perf-diff-msr.sh and -tracepoints.sh set
# perf_diff_set and source this file.
case ${perf_diff_set:-} in
msr)
	require_pmu msr
	specs='msr/tsc/
msr/event=0x4/
msr/config=1,config1=2,config2=3/
msr/tsc,name=abc/
msr/tsc/u'
	;;
tracepoints)
	require_tracefs
	specs='syscalls:sys_enter_write
syscalls:sys_enter_write:k
syscalls:sys_enter_writ*'
	;;
esac

compared=0
failed=
# Specs a line, and no pathname expansion of their stars.
set -f
IFS='
'
for spec in $specs; do
	perf stat -vv -e "$spec" true >/dev/null 2>perf.err
	if grep -q 'event syntax error' perf.err; then
		echo "perf $(perf --version) does not take '$spec': left out"
		continue
	fi
	awk -v mode=perf -f "$attrs_awk" perf.err >theirs
	"$PSTAT" --explain -e "$spec" >explain 2>err ||
		{ show_err_; fail_ "pstat --explain -e '$spec' failed"; }
	awk -v mode=pstat -f "$attrs_awk" explain >ours
	# A glob's tracepoints: perf in directory order, pstat sorted.
	case $spec in
	*'*'*)
		sort theirs >sorted && mv sorted theirs
		sort ours >sorted && mv sorted ours
		;;
	esac
	[ -s theirs ] || fail_ "'$spec': no attr found in perf's output"
	if ! cmp -s theirs ours; then
		echo "--- '$spec': perf stat, then pstat --explain"
		cat theirs
		echo "+++"
		cat ours
		failed="$failed '$spec'"
	fi
	compared=$((compared + 1))
done
unset IFS
set +f

[ -z "$failed" ] || fail_ "attrs differ from perf's for:$failed"
[ "$compared" -gt 0 ] || skip_ "perf took none of the specs"
echo "$compared specs: the same attrs as perf stat"
