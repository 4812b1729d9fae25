#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -D: counters never enabled are <not counted>, never a counted 0, in
# every format; elapsed time covers the counting window only, and the
# clocks of -I and --timeout start when counting starts. Bounds only:
# a loaded machine makes every wait longer, never shorter.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# The delay, a day, outlives the command: nothing was counted.
run_pstat -x, -D 86400000 -e task-clock,page-faults -- true
expect_rc 0
expect_eq "$(csv_rows)" "<not counted>,msec,task-clock,0,0.00,,
<not counted>,,page-faults,0,0.00,," "-x, -D beyond the command"
run_pstat -j -D 86400000 -e page-faults -- true
expect_rc 0
grep -q '^{"counter-value": "<not counted>", "unit": "", "event": "page-faults", "event-runtime": 0, "pcnt-running": 0,' err ||
	{ show_err_; fail_ "-j -D beyond the command"; }
run_pstat --format=csv -D 86400000 -e page-faults -- true
expect_rc 0
grep -q '^total,,,,page-faults,,,not-counted,' err ||
	{ show_err_; fail_ "--format=csv -D beyond the command"; }
run_pstat -D 86400000 -e page-faults -- true
expect_rc 0
grep -Eq '^ +<not counted> +page-faults$' err ||
	{ show_err_; fail_ "human -D beyond the command"; }

now() { date +%s.%N; }

# run_field NAME: a run fact of --format=csv in ./err.
run_field()
{
	awk -F, -v k="$1" '$1 == "run" && $5 == k { print $6 }' err
}

# expect_le A B WHAT: A <= B, as numbers.
expect_le()
{
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }' ||
		{ show_err_; fail_ "$3: $1 is more than $2"; }
}

# Elapsed is the window: it starts 300 ms or more after the command.
t0=$(now)
run_pstat --format=csv -D 300 -e task-clock -- sleep 0.6
t1=$(now)
expect_rc 0
wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
expect_le "$(run_field elapsed_s)" "$(awk -v w="$wall" 'BEGIN { print w - 0.3 }')" \
	"-D 300: elapsed against pstat's whole time less the delay"

# --timeout counts from the end of the delay: 300 + 300 ms at least.
t0=$(now)
run_pstat --format=csv -D 300 --timeout 300 -e task-clock -- sleep 10
t1=$(now)
expect_rc 124
expect_le 0.6 "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
	"-D 300 --timeout 300: pstat's whole time"
expect_le 0.3 "$(run_field elapsed_s)" "-D 300 --timeout 300: elapsed"

# -I: the intervals start with counting, so every one counted, and
# their times are since counting started.
t0=$(now)
run_pstat --format=csv -D 300 -I 100 -e task-clock -- sleep 0.6
t1=$(now)
expect_rc 0
rows=$(awk -F, '$1 == "interval"' err)
[ -n "$rows" ] || { show_err_; fail_ "-D 300 -I 100: no interval"; }
printf '%s\n' "$rows" | awk -F, '$8 != "counted" { exit 1 }' ||
	{ show_err_; fail_ "-D 300 -I 100: an interval that did not count"; }
last=$(printf '%s\n' "$rows" | tail -n 1 | cut -d, -f2)
expect_le "$last" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a - 0.3 }')" \
	"-D 300 -I 100: the last interval's time"
