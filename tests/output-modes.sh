#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -x SEP keeps perf stat's columns in every mode: 7 fields, 8 with -r (the
# variance before the run time), 8 with -I (an unpadded timestamp first);
# SEP may be any string, '\t' is a tab. (A field holding SEP is quoted:
# output-quote-tracepoint.sh, output-quote-msr.sh.)

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# check_fields N SEP WHAT: every result row of ./err has N fields. SEP is
# an awk field separator; no field of these rows is quoted.
check_fields()
{
	[ -n "$(csv_rows)" ] || { show_err_; fail_ "$3: no result rows"; }
	csv_rows | awk -F"$2" -v n="$1" 'NF != n { bad = 1; print "bad row: " $0 }
		END { exit bad }' || { show_err_; fail_ "$3: not $1 fields"; }
}

# field N SEP EVENT-FIELD EVENT: field N of the row whose field
# EVENT-FIELD is EVENT.
field()
{
	csv_rows | awk -F"$2" -v n="$1" -v k="$3" -v ev="$4" \
		'$k == ev { print $n; exit }'
}

# Plain: value, unit, event, run time, % running, metric value, unit.
run_pstat -x, -e task-clock,page-faults,cycles -- true
expect_rc 0
check_fields 7 , "-x,"
expect_eq "$(field 2 , 3 task-clock)" msec "-x, task-clock unit"
expect_eq "$(field 7 , 3 task-clock)" "CPUs utilized" "-x, task-clock metric"
expect_number "$(field 4 , 3 page-faults)" "-x, page-faults run time"
expect_eq "$(field 5 , 3 page-faults)" 100.00 "-x, page-faults % running"
if ! have_hw_pmu; then
	expect_eq "$(field 1 , 3 cycles)" "<not supported>" "-x, cycles"
fi

# -r: the variance, with a percent sign, between the event and run time.
run_pstat -x, -r 3 -e task-clock,page-faults,cycles -- true
expect_rc 0
check_fields 8 , "-x, -r 3"
for ev in task-clock page-faults cycles; do
	v=$(field 4 , 3 $ev)
	printf '%s\n' "$v" | grep -Eq '^[0-9]+\.[0-9]{2}%$' ||
		{ show_err_; fail_ "-x, -r 3: $ev variance '$v'"; }
done
expect_number "$(field 5 , 3 page-faults)" "-x, -r 3 page-faults run time"
expect_eq "$(field 8 , 3 task-clock)" "CPUs utilized" "-x, -r 3 metric unit"

# -I: the interval's end first, seconds.nanoseconds, not padded.
run_pstat -x, -I 100 -e task-clock,page-faults -- sleep 0.25
expect_rc 0
check_fields 8 , "-x, -I 100"
bad=$(csv_rows | cut -d, -f1 | grep -Ev '^[0-9]+\.[0-9]{9}$' || true)
[ -z "$bad" ] || { show_err_; fail_ "-x, -I: bad timestamps: $bad"; }
expect_eq "$(field 3 , 4 task-clock)" msec "-x, -I task-clock unit"
expect_number "$(field 2 , 4 page-faults)" "-x, -I page-faults value"

# A separator of several characters, and '\t' for a tab.
run_pstat -x '::' -e task-clock,page-faults,cycles -- true
expect_rc 0
check_fields 7 '::' "-x ::"
expect_eq "$(csv_events '::')" "task-clock page-faults cycles" "-x :: events"
expect_eq "$(field 2 '::' 3 task-clock)" msec "-x :: task-clock unit"

run_pstat -x '\t' -e task-clock,page-faults,cycles -- true
expect_rc 0
grep -q '\\t' err && { show_err_; fail_ "-x '\\t' printed a backslash"; }
check_fields 7 '\t' "-x '\\t'"
expect_eq "$(csv_events '\t')" "task-clock page-faults cycles" \
	"-x '\\t' events"
exit 0
