#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Out of memory at any allocation: for every k up to the allocations of
# a clean run, pstat with its k-th allocation failing (the fault shim)
# either stops with 125 and exactly one 'pstat:' line and no results,
# or prints the complete results and the command's status, or (a late
# failure, in a later run of -r) prints the results of the runs made,
# shaped as a clean run's, and exits 125, the failure said after human
# results and never into machine output (tests/late-failure.sh). Its fork
# child never allocates before its exec. -x, -r, -I, --metric-only,
# --format=json and human output. Nothing is allocated in the interval
# loop: not one allocation more however many intervals a run has.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_fault_shim

events='task-clock,page-faults,{cs,cpu-clock}'

# shape FORMAT: what the results in ./err look like, whatever the
# numbers: a line per row with its number of fields and its event.
shape()
{
	case $1 in
	csv)
		# Timestamps left out: how many intervals fit is the
		# machine's business.
		csv_rows | awk -F, '{ print NF, ($4 ~ /^[a-z]/ ? $4 : $3) }' |
			sort | uniq ;;
	metric-only)
		csv_rows | awk -F, '{ print NF, ($1 ~ /^[a-z]/ ? $0 : "") }' |
			sort | uniq ;;
	json)
		python3 -c '
import json, sys
d = json.load(open("err"))
print(sorted(d))
for e in d["events"]:
    print(sorted(e), e["event"])' 2>&1 ;;
	human)
		sed 's/<not [a-z]*>/N/' err |
			awk '/seconds time elapsed/ { print "elapsed" }
			     /^ +[0-9N]/ && NF > 2 {
				print ($2 == "msec" ? $3 : $2) }' ;;
	esac
}

# check FORMAT ARGS...: pstat ARGS -- $cmd, failing each allocation.
cmd=true
check()
{
	format=$1
	shift
	# shellcheck disable=SC2086 # $cmd is words
	with_faults -- "$@" -- $cmd
	expect_rc 0
	shape "$format" >clean
	n=$(fault_report allocations)
	if [ "$(wc -l <clean)" -lt 2 ] || [ "${n:-0}" -eq 0 ]; then
		show_err_
		framework_failure_ "'$*': a clean run printed no results"
	fi
	k=1
	while [ "$k" -le "$n" ]; do
		# shellcheck disable=SC2086 # $cmd is words
		with_faults FAULT_ALLOC="$k" -- "$@" -- $cmd
		expect_outcome "$format" "'$*', allocation $k of $n"
		# Every allocation of a typical run; past 300, a hundred.
		if [ "$k" -lt 300 ]; then
			k=$((k + 1))
		else
			k=$((k + n / 100 + 1))
		fi
	done
}

# late_failure FORMAT WHAT: status 125 after results shaped as a clean
# run's; one 'pstat:' line after human results, none in machine output.
late_failure()
{
	lines=0
	[ "$1" = human ] && lines=1
	shape "$1" >got
	if [ "$(grep -c '^pstat: ' err)" != "$lines" ] || ! cmp -s clean got
	then
		show_err_
		fail_ "$2: status 125 without exactly one 'pstat:' line, nor a late failure's results"
	fi
}

expect_outcome()
{
	[ ! -s out ] || fail_ "$2: pstat wrote to standard output"
	# One awk for what a run says (the machine may be busy): the
	# fault shim's word about the child, else whether stderr is one
	# 'pstat:' line, not blaming a counter (the kernel refused none).
	said=$(awk '/^fault_shim:/ { c++ } { n++ } /^pstat: / { p++ }
		/cannot open counter/ { b++ }
		END { r = "other"; if (n == 1 && p == 1) r = b ? "blame" : "one"
		      print c ? "child" : r }' err)
	case $rc,$said in
	*,child)
		show_err_
		fail_ "$2: the fork child allocated" ;;
	125,one) ;;
	125,blame)
		show_err_
		fail_ "$2: a counter blamed" ;;
	125,*)
		late_failure "$1" "$2" ;;
	0,other)
		shape "$1" >got
		cmp -s clean got || {
			show_err_
			diff clean got
			fail_ "$2: status 0, results unlike a clean run's"
		} ;;
	*)
		show_err_
		fail_ "$2: status $rc" ;;
	esac
}

check csv -x, -e "$events"
check csv -x, -r 2 -e "$events"
check json --format=json -e "$events"
check human -e "$events"

# Intervals as the command runs, whose memory is taken before it starts:
# one taken at the first interval once failed, and its interval was
# left out of the output without a word until the end.
allocations()
{
	time=$1
	shift
	with_faults -- -x, -I 10 "$@" -e "$events" -- sleep "$time"
	expect_rc 0
	fault_report allocations
}
cmd="sleep 0.05"
check csv -x, -I 10 -e "$events"
check metric-only -x, -I 10 --metric-only -e "$events"
for mode in "" --metric-only; do
	# shellcheck disable=SC2086 # $mode is a word or none
	few=$(allocations 0.01 $mode) many=$(allocations 0.2 $mode)
	expect_eq "$many" "$few" "-I 10 $mode: allocations over 20 intervals"
done

# -r 0 keeps each run's values while memory lasts (what --table, pstat's
# JSON and a ratio over the runs of its numerator need). When the room
# for them cannot grow, the runs stop there and those made are printed,
# whole, with 125: nothing counted is thrown away. The room grows at the
# 65th run; each allocation between the 64th run's end and the 65th's.
runs_allocs()
{
	with_faults -- -x, -r "$1" -e "$events" -- true
	expect_rc 0
	fault_report allocations
}
before=$(runs_allocs 64)
shape csv >clean
after=$(runs_allocs 65)
k=$((before + 1))
while [ "$k" -le "$after" ]; do
	with_faults FAULT_ALLOC=$k -- -x, -r 0 -e "$events" -- true
	expect_rc 125
	shape csv >got
	diff clean got >/dev/null ||
		{ diff clean got; fail_ "-r 0, allocation $k failing: not the runs made"; }
	k=$((k + 1))
done
