#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -n, -d/-dd/-ddd, -B/--no-big-num, --no-scale, and the values and
# combinations pstat refuses (125, one pstat: line, no run); --metric-only
# is output-metric-only.sh's.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

defaults='task-clock context-switches cpu-migrations page-faults'
defaults="$defaults cycles instructions branches branch-misses"

# -n: the times only.
run_pstat -n -- true
expect_rc 0
for what in 'time elapsed' user sys; do
	grep -Eq "^ +[0-9]+\\.[0-9]{9} seconds $what\$" err ||
		{ show_err_; fail_ "-n: no '$what' line"; }
done
grep -q "Performance counter stats for 'true':" err ||
	{ show_err_; fail_ "-n: no title"; }
grep -Eq -e 'msec|task-clock|page-faults|#' err &&
	{ show_err_; fail_ "-n printed an event row"; }
run_pstat --null -x, -- true
expect_rc 0
expect_eq "$(csv_rows)" "" "-n -x,: rows"

# -d, -dd, -ddd: perf's detailed sets, each adding to the one before.
d1='L1-dcache-loads L1-dcache-load-misses LLC-loads LLC-load-misses'
d2='L1-icache-loads L1-icache-load-misses dTLB-loads dTLB-load-misses'
d2="$d2 iTLB-loads iTLB-load-misses"
d3='L1-dcache-prefetches L1-dcache-prefetch-misses'
run_pstat -x, -d -- true
expect_rc 0
expect_eq "$(csv_events ,)" "$defaults $d1" "-d events"
# Without a PMU, unsupported; with one, a count or, for a cache event
# the PMU lacks, unsupported: never <not counted> alone on one run.
for ev in $d1; do
	v=$(csv_value "$ev")
	if have_hw_pmu && [ "$v" != "<not supported>" ]; then
		expect_number "$v" "-d: $ev"
	else
		expect_eq "$v" "<not supported>" "-d: $ev"
	fi
done
run_pstat -x, -dd -- true
expect_rc 0
expect_eq "$(csv_events ,)" "$defaults $d1 $d2" "-dd events"
run_pstat -x, --detailed -d -d -- true
expect_rc 0
expect_eq "$(csv_events ,)" "$defaults $d1 $d2 $d3" "-ddd events"
run_pstat -x, -d -e task-clock -- true
expect_rc 0
expect_eq "$(csv_events ,)" "task-clock $d1" "-d with -e"

# Digit groups: on by default and with -B, off with --no-big-num; never
# in -x.
pf_line() { grep ' page-faults' err; }
run_pstat -e page-faults -- "$PROGS/touch_pages" 2000
expect_rc 0
pf_line | grep -Eq '^ +[0-9],[0-9]{3} +page-faults' ||
	{ show_err_; fail_ "no digit groups by default"; }
run_pstat --no-big-num -e page-faults -- "$PROGS/touch_pages" 2000
expect_rc 0
pf_line | grep -Eq '^ +[0-9]{4} +page-faults' ||
	{ show_err_; fail_ "--no-big-num: digit groups"; }
run_pstat --no-big-num -B -e page-faults -- "$PROGS/touch_pages" 2000
expect_rc 0
pf_line | grep -Eq '^ +[0-9],[0-9]{3} +page-faults' ||
	{ show_err_; fail_ "-B after --no-big-num: no digit groups"; }
run_pstat --big-num -x, -e page-faults -- "$PROGS/touch_pages" 2000
expect_rc 0
expect_ge "$(csv_value page-faults)" 2000 "-B -x,: page-faults"

ev=task-clock,page-faults

# --no-scale: nothing is multiplexed here, so the same columns.
run_pstat --no-scale -x, -e $ev -- true
expect_rc 0
expect_eq "$(csv_events ,)" "task-clock page-faults" "--no-scale"
csv_rows | awk -F, 'NF != 7 { exit 1 }' ||
	{ show_err_; fail_ "--no-scale: not 7 fields"; }

# Refused before anything runs, with nothing else said or printed.
refused()
{
	expect_refused "$@"
	if [ "$(wc -l <err)" != 1 ] || [ -s out ]; then
		show_err_
		fail_ "'$*': more than the one pstat: line"
	fi
}
refused -r abc
refused -r -1
refused --repeat=
refused -I 5
refused -I 9
refused -I 1s
refused --interval-count 0
refused --interval-count 2
refused --format=xml
refused --format=
refused -x ''
refused -x, -j
refused -x, --format=csv
refused -j --format=json
refused --log-fd abc
refused --log-fd -1
refused -n -e task-clock
refused -n -d
refused -o res --log-fd 2
refused --table
refused -r 1 --table
refused -I 100 --interval-clear -j
refused --all-user --all-kernel
refused -q -v
refused -r -1
exit 0
