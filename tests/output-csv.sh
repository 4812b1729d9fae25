#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -x SEP gives perf stat's 7 columns per event, in the default order, with
# plain numbers and <not supported> for what the machine lacks.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

defaults='task-clock context-switches cpu-migrations page-faults'
defaults="$defaults cycles instructions branches branch-misses"

# check_fields SEP: every result row of ./err has exactly 7 fields.
check_fields()
{
	csv_rows | awk -F"$1" 'NF != 7 { bad = 1; print "bad row: " $0 }
		END { exit bad }' ||
		{ show_err_; fail_ "-x'$1': not 7 fields"; }
}

# Over 1,000 faults: a thousands separator would show.
run_pstat -x, -- "$PROGS/touch_pages" 2000
expect_rc 0
check_fields ,
[ ! -s out ] || fail_ "-x, wrote on stdout"
expect_eq "$(csv_events ,)" "$defaults" "-x, default events, in order"
expect_ge "$(csv_value page-faults)" 2000 "page-faults"
expect_number "$(csv_value task-clock)" "task-clock"
expect_eq "$(csv_rows | awk -F, '$3 == "task-clock" { print $2 }')" msec \
	"task-clock unit"
for ev in context-switches cpu-migrations; do
	expect_number "$(csv_value $ev)" "$ev"
done
# Each host gives one known answer: counted with a PMU, else unsupported.
for ev in cycles instructions branches branch-misses; do
	if have_hw_pmu; then
		expect_number "$(csv_value $ev)" "$ev"
	else
		expect_eq "$(csv_value $ev)" "<not supported>" "$ev"
	fi
done

run_pstat -x';' -- true
expect_rc 0
check_fields ';'
expect_eq "$(csv_events ';')" "$defaults" "-x';' default events, in order"
