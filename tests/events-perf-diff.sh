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

# The fields compared; a field neither tool prints is 0. Left out on
# purpose: exclude_guest and exclude_host (perf sets exclude_guest on
# every event, pstat does not: the msr PMU refuses any exclude bit),
# and what depends on the tool rather than the event (disabled,
# enable_on_exec, inherit, read_format, sample_type, size).
cat >attrs.awk <<'EOF'
function norm(v,   h) {
	v = tolower(v)
	if (v ~ /^0x/) {
		h = substr(v, 3)
		sub(/^0+/, "", h)
		return h == "" ? "0" : h
	}
	return sprintf("%x", v + 0)
}
function flush(   i, s) {
	if (!have)
		return
	s = ""
	for (i = 1; i <= nf; i++)
		s = s (i > 1 ? " " : "") f[i] "=" \
		    ((f[i] in val) ? val[f[i]] : "0")
	out[n] = s
	have = 0
}
# bp_addr and bp_len share their place with config1 and config2.
function key(name) {
	if (name == "bp_addr")
		return "config1"
	if (name == "bp_len")
		return "config2"
	return name
}
BEGIN {
	nf = split("type config config1 config2 bp_type exclude_user " \
		   "exclude_kernel exclude_hv exclude_idle pinned exclusive " \
		   "precise_ip", f, " ")
}
# perf prints an attr block per attempt. After a failed one, a line
# saying what it switches off means the next block is the same event
# again: the last attempt stands.
mode == "perf" && /^perf_event_attr:/ {
	if (!retry) {
		flush()
		n++
	}
	retry = failed = 0
	inblock = have = 1
	split("", val)
	next
}
mode == "perf" && /^-----/ { inblock = 0; next }
mode == "perf" && /sys_perf_event_open failed/ { failed = 1; next }
mode == "perf" && failed && /switching off|decreasing precise_ip|[Rr]etry/ {
	retry = 1
	next
}
mode == "perf" && !inblock { failed = 0; next }
# pstat --explain: a header line per event, then its fields.
mode == "pstat" && /^[^ ]/ {
	flush()
	n++
	split("", val)
	have = inblock = 1
	next
}
mode == "pstat" && /^$/ { inblock = 0; next }
# "  name value", or perf's "  { bp_addr, config1 }  value".
inblock && /^  [^ (]/ {
	if ($1 == "{")
		val[key($3)] = norm($5)
	else
		val[key($1)] = norm($2)
}
END {
	flush()
	for (i = 1; i <= n; i++)
		print out[i]
}
EOF

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
	awk -v mode=perf -f attrs.awk perf.err >theirs
	"$PSTAT" --explain -e "$spec" >explain 2>err ||
		{ show_err_; fail_ "pstat --explain -e '$spec' failed"; }
	awk -v mode=pstat -f attrs.awk explain >ours
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
