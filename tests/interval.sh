#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -I MS: a row per event and interval, unpadded rising timestamps, deltas
# that add up to the --summary's totals, 0 (not <not counted>) while the
# command sleeps, and --interval-count N stops printing after N.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

events=task-clock,page-faults

run_pstat -x, -I 100 --summary --no-csv-summary -e $events -- sleep 0.55
expect_rc 0
grep -q 'not counted' err && { show_err_; fail_ "-I: <not counted> rows"; }

# Interval rows: 8 fields, the timestamp first; the summary, without its
# 'summary' field (tests/output-csv-summary.sh): 7, none.
csv_rows | awk -F, 'NF == 8' >intervals
csv_rows | awk -F, 'NF == 7' >summary
expect_eq "$(csv_rows | wc -l)" \
	"$(($(wc -l <intervals) + $(wc -l <summary)))" "-I: rows of 7 or 8 fields"
expect_eq "$(cut -d, -f3 <summary | tr '\n' ' ')" "task-clock page-faults " \
	"--summary rows"
expect_eq "$(csv_rows | tail -n 2 | cut -d, -f3 | tr '\n' ' ')" \
	"task-clock page-faults " "--summary rows come last"

bad=$(cut -d, -f1 intervals | grep -Ev '^[0-9]+\.[0-9]{9}$' || true)
[ -z "$bad" ] || { show_err_; fail_ "-I: bad timestamps: $bad"; }
# Each interval has both events, under one timestamp, in order.
awk -F, 'NR % 2 == 1 && $4 != "task-clock" { exit 1 }
	NR % 2 == 0 && ($4 != "page-faults" || $1 != t) { exit 1 }
	{ t = $1 }' intervals ||
	{ show_err_; fail_ "-I: not a task-clock and a page-faults row per interval"; }
# Rising, as numbers.
cut -d, -f1 intervals | uniq >stamps
sort -n -u stamps | cmp -s - stamps ||
	{ show_err_; fail_ "-I: timestamps not rising"; }
n=$(wc -l <stamps)
# 0.1 .. 0.5, then the last, partial one when sleep exits.
if [ "$n" -lt 5 ] || [ "$n" -gt 7 ]; then
	show_err_
	fail_ "-I 100 on sleep 0.55: $n intervals"
fi

# The deltas add up to the totals of the same run: page faults, and the
# nanoseconds each counter ran.
sum_of() # EVENT FIELD: the sum of FIELD over EVENT's interval rows
{
	awk -F, -v ev="$1" -v k="$2" '$4 == ev { s += $k }
		END { printf "%d\n", s }' intervals
}
total_of() # EVENT FIELD
{
	awk -F, -v ev="$1" -v k="$2" '$3 == ev { print $k }' summary
}
expect_eq "$(sum_of page-faults 2)" "$(total_of page-faults 1)" \
	"-I: page-faults of the intervals vs the summary"
expect_eq "$(sum_of page-faults 5)" "$(total_of page-faults 4)" \
	"-I: page-faults run time of the intervals vs the summary"
expect_eq "$(sum_of task-clock 5)" "$(total_of task-clock 4)" \
	"-I: task-clock run time of the intervals vs the summary"

# While sleep sleeps, nothing happens: exact zeros.
grep -Eq '^[0-9.]+,0,,page-faults,0,' intervals ||
	{ show_err_; fail_ "-I: no interval with 0 page-faults while asleep"; }
grep -Eq '^[0-9.]+,0\.00,msec,task-clock,0,' intervals ||
	{ show_err_; fail_ "-I: no interval with 0.00 msec while asleep"; }

# Without --summary, no totals.
run_pstat -x, -I 100 -e $events -- sleep 0.15
expect_rc 0
expect_eq "$(csv_rows | awk -F, 'NF != 8' | wc -l)" 0 "-I without --summary"

# --interval-count 2: two intervals, then nothing more.
run_pstat -x, -I 100 --interval-count 2 -e $events -- sleep 0.55
expect_rc 0
expect_eq "$(csv_rows | wc -l)" 4 "--interval-count 2: rows"
expect_eq "$(csv_rows | cut -d, -f1 | uniq | wc -l)" 2 \
	"--interval-count 2: timestamps"

# Human: the column titles once, then timestamped rows.
run_pstat -I 100 -e $events -- sleep 0.25
expect_rc 0
expect_eq "$(grep -c '^# *time  *counts unit events$' err)" 1 "-I: titles"
grep -Eq '^ +[0-9]+\.[0-9]{9} +[0-9]+\.[0-9]{2} msec task-clock' err ||
	{ show_err_; fail_ "-I: no timestamped task-clock row"; }
grep -q 'Performance counter stats' err &&
	{ show_err_; fail_ "-I without --summary printed the totals"; }
exit 0
