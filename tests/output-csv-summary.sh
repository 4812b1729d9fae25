#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -x -I --summary: the totals' rows start with perf's 'summary' where the
# intervals have their time, so every row has as many fields;
# --no-csv-summary leaves that field out. -j's totals have no interval
# key, and no other in its place, as in perf.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

events=task-clock,page-faults

# expect_fields N WHAT: every row of ./err has N fields.
expect_fields()
{
	bad=$(csv_rows | awk -F, -v n="$1" 'NF != n' | head -n 3)
	[ -z "$bad" ] || { show_err_; fail_ "$2: rows not of $1 fields: $bad"; }
}

# The first fields of the rows, one a line: summary or a time.
check_first_fields()
{
	csv_rows | cut -d, -f1 | grep -Ev '^[0-9]+\.[0-9]{9}$' | sort -u >firsts
	expect_eq "$(cat firsts)" summary "$1: first fields besides times"
	expect_eq "$(csv_rows | tail -n 2 | cut -d, -f1,4 | tr '\n' ' ')" \
		"summary,task-clock summary,page-faults " "$1: summary rows"
	expect_ge "$(csv_rows | grep -c '^[0-9]')" 2 "$1: interval rows"
}

# A command ends it: one interval at least, the partial one.
run_pstat -x, -I 100 --summary -e $events -- true
expect_rc 0
expect_fields 8 "-x -I --summary"
check_first_fields "-x -I --summary"

# The separator perf's own check uses.
run_pstat -x' ' -I 100 --summary -e $events -- true
expect_rc 0
csv_rows | tail -n 2 | while read -r first rest; do
	[ "$first" = summary ] ||
		{ show_err_; fail_ "-x' ': '$first $rest': not summary first"; }
done || exit 1

# --no-csv-summary: the totals as without -I, in 7 fields.
run_pstat -x, -I 100 --summary --no-csv-summary -e $events -- true
expect_rc 0
! grep -q summary err || { show_err_; fail_ "--no-csv-summary: 'summary'"; }
expect_eq "$(csv_rows | tail -n 2 | awk -F, 'NF == 7 { print $3 }' |
	tr '\n' ' ')" "task-clock page-faults " "--no-csv-summary: totals"
expect_eq "$(csv_rows | awk -F, 'NF != 7' | grep -Evc '^[0-9]+\.[0-9]{9},')" \
	0 "--no-csv-summary: interval rows"

# Accepted, and without effect, where there is no summary row.
run_pstat -x, --no-csv-summary -e page-faults -- true
expect_rc 0
expect_fields 7 "-x --no-csv-summary"
run_pstat --no-csv-summary -e page-faults -- true
expect_rc 0
grep -q 'Performance counter stats' err ||
	{ show_err_; fail_ "--no-csv-summary: no human output"; }

# --metric-only: a line per interval, then one for the totals, each with
# as many fields as the titles.
run_pstat -x, -I 100 --summary --metric-only -e $events -- true
expect_rc 0
n=$(csv_rows | head -n 1 | awk -F, '{ print NF }')
expect_eq "$(csv_rows | head -n 1 | cut -d, -f1)" time "--metric-only: titles"
expect_fields "$n" "--metric-only"
expect_eq "$(csv_rows | tail -n 1 | cut -d, -f1)" summary \
	"--metric-only: the totals' line"
run_pstat -x, -I 100 --summary --metric-only --no-csv-summary \
	-e $events -- true
expect_rc 0
expect_eq "$(csv_rows | tail -n 1 | awk -F, '{ print NF }')" "$((n - 1))" \
	"--metric-only --no-csv-summary: fields of the totals' line"

# -j: the totals are the lines without "interval", and have no "summary".
run_pstat -j -I 100 --summary -e $events -- true
expect_rc 0
expect_eq "$(csv_rows | tail -n 2 | grep -c '"interval"')" 0 "-j: totals"
expect_ge "$(csv_rows | grep -c '^{"interval": ')" 2 "-j: interval lines"
! grep -q summary err || { show_err_; fail_ "-j: a 'summary' key"; }

# The whole machine, with no command, where pstat may count it: -A's
# rows carry the CPU after 'summary' as after the time.
if [ "$(id -u)" = 0 ] ||
   [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ]; then
	run_pstat -x, -A -I 100 --interval-count 1 --summary -e task-clock
	expect_rc 0
	expect_fields 9 "-A -I --summary"
	expect_eq "$(csv_rows | grep -c '^summary,CPU[0-9]*,')" \
		"$(getconf _NPROCESSORS_ONLN)" "-A --summary: rows"
fi
exit 0
