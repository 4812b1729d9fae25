#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The human layout of every aggregation against perf stat's, byte for
# byte up to the counts (issue 31): the -I titles (time, CPU, core,
# die, socket, node, comm-pid, cpus), the aggregate column (CPU%-7d,
# S%d-D%d-C%-8d, ..., a thread's comm right-aligned in 16), where the
# values end, and one blank line at the end without a command. Counts
# differ from run to run, so each is replaced by where it ends; the
# metric's padding that perf leaves at the end of a line is not
# compared (DIFFERENCES FROM PERF STAT).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
command -v perf >/dev/null 2>&1 || skip_ "perf is not installed"
perf stat -a -e task-clock --timeout 10 true >/dev/null 2>&1 ||
	skip_ "perf stat -a cannot count here"

# The shape of a result file: titles as they are, each row as its
# aggregate (timestamps as 9s) and the column where its value ends;
# then how many blank lines end it.
shape()
{
	awk '
	/^#/ { print; next }
	/ msec task-clock/ {
		i = index($0, " msec task-clock")
		pre = substr($0, 1, i - 1)
		sub(/ *(<not counted>|[0-9][0-9.,]*)$/, "", pre)
		gsub(/[0-9]+\.[0-9]+/, "9.9", pre)
		print pre "|" i
		next
	}
	{ blank = /^$/ ? blank + 1 : 0 }
	END { print "blank lines at the end:", blank }' "$1"
}

# same ARGS...: perf stat and pstat given ARGS have the same shape.
same()
{
	perf stat "$@" 2>perf.txt >/dev/null ||
		{ cat perf.txt; framework_failure_ "perf stat $* failed"; }
	run_pstat "$@"
	expect_rc 0
	shape perf.txt >want
	shape err >got
	cmp -s want got || {
		show_err_
		diff want got
		fail_ "pstat $*: not perf's layout"
	}
}

for aggr in "" -A --per-core --per-die --per-socket --per-node; do
	# shellcheck disable=SC2086
	same -a $aggr -e task-clock --timeout 50
	# shellcheck disable=SC2086
	same -a $aggr -e task-clock -I 50 --interval-count 1
done
sleep 60 &
pid=$!
started $pid
# The sleep counts nothing: perf prints '<not counted>', pstat 0.00.
same -p $pid --per-thread -e task-clock --timeout 50
same -p $pid --per-thread -e task-clock -I 50 --interval-count 1
exit 0
