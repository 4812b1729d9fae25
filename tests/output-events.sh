#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Event lists, groups, modifiers and repeated -e all count, and rows come
# in the order the events were given.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# check_events 'EVENT...' PSTAT-ARGS...: those rows, in that order, counted.
check_events()
{
	want=$1
	shift
	run_pstat -x, "$@" -- "$PROGS/touch_pages" 10
	expect_rc 0
	expect_eq "$(csv_events ,)" "$want" "pstat $*"
	for ev in $want; do
		expect_number "$(csv_value "$ev")" "pstat $*: $ev"
	done
}

check_events 'page-faults task-clock' -e page-faults,task-clock
check_events 'task-clock page-faults' -e '{task-clock,page-faults}'
check_events 'page-faults task-clock' -e page-faults -e task-clock
check_events 'task-clock:u' -e task-clock:u
check_events 'page-faults:u page-faults:k' -e page-faults:u,page-faults:k
check_events 'context-switches task-clock page-faults cpu-migrations' \
	-e context-switches -e '{task-clock,page-faults}' -e cpu-migrations
