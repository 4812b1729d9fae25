#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Groups on a real kernel: a member that is not here is <not supported>
# while the rest of its group counts. (Members the msr PMU refuses:
# events-groups-msr.sh; a breakpoint x86 refuses, which stops pstat
# before the command runs: events-groups-breakpoint.sh. Splitting a weak
# group the kernel refuses as a whole is in check_evlist: no kernel here
# does that on demand.)

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

if have_hw_pmu; then
	hw=yes
else
	hw=no
fi
# Where only user space may be counted (perf_event_paranoid), every group
# gets :u; the kernel's answers below do not change with it. (pstat
# falls back to :u by itself there, and names the event so.)
if "$PSTAT" -x, -e task-clock -- true 2>&1 | grep -q ',task-clock,'; then
	u=
else
	u=u
fi

# cycles: counted with a hardware PMU, <not supported> without one.
expect_cycles()
{
	v=$(csv_value "cycles${u:+:$u}")
	if [ "$hw" = yes ]; then
		expect_number "$v" "$1: cycles"
	else
		expect_eq "$v" "<not supported>" "$1: cycles without a PMU"
	fi
}

# check_group SPEC EVENTS: cycles, task-clock and page-faults, in order.
check_group()
{
	m=${u:+:$u}
	run_pstat -x, -e "$1$m" -- "$PROGS/touch_pages" 10
	expect_rc 0
	expect_eq "$(csv_events ,)" "$2" "$1$m: events"
	expect_cycles "$1$m"
	expect_number "$(csv_value "task-clock$m")" "$1$m: task-clock"
	expect_ge "$(csv_value "page-faults$m")" 10 "$1$m: page-faults"
	# -x output on stderr carries nothing else: no notes.
	expect_eq "$(grep -c '^pstat:' err)" 0 "$1$m: notes in -x output"
	if [ "$hw" = no ]; then
		run_pstat -e "$1$m" -- "$PROGS/touch_pages" 10
		expect_eq "$(grep -c '^pstat: note: no hardware PMU' err)" 1 \
			"$1: notes about the missing PMU"
	fi
}

m=${u:+:$u}
check_group '{task-clock,cycles,page-faults}' \
	"task-clock$m cycles$m page-faults$m"
# Without its leader, the next member leads the group.
check_group '{cycles,task-clock,page-faults}' \
	"cycles$m task-clock$m page-faults$m"

# A weak group the kernel takes whole stays whole: no note.
run_pstat -x, -e "{task-clock,page-faults}:W$u" -- "$PROGS/touch_pages" 10
expect_rc 0
# W is not in the names, as in perf: it says how the group opens.
expect_number "$(csv_value "task-clock${u:+:$u}")" "task-clock${u:+:$u}"
expect_ge "$(csv_value "page-faults${u:+:$u}")" 10 "page-faults${u:+:$u}"
run_pstat -e "{task-clock,page-faults}:W$u" -- "$PROGS/touch_pages" 10
! grep -q '^pstat: note: .*weak group' err ||
	{ show_err_; fail_ "a weak group the kernel took was split"; }
