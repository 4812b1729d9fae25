#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Groups on a real kernel: a member that is not here is <not supported>
# while the rest of its group counts; a member the kernel refuses stops
# pstat before the command runs, weak group or not. (Splitting a weak
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

# cycles: counted with a hardware PMU, <not supported> without one.
expect_cycles()
{
	v=$(csv_value cycles)
	if [ "$hw" = yes ]; then
		expect_number "$v" "$1: cycles"
	else
		expect_eq "$v" "<not supported>" "$1: cycles without a PMU"
	fi
}

# check_group SPEC: cycles, task-clock and page-faults in some order.
check_group()
{
	run_pstat -x, -e "$1" -- "$PROGS/touch_pages" 10
	expect_rc 0
	expect_eq "$(csv_events ,)" "$2" "$1: events"
	expect_cycles "$1"
	expect_number "$(csv_value task-clock)" "$1: task-clock"
	expect_ge "$(csv_value page-faults)" 10 "$1: page-faults"
	if [ "$hw" = no ]; then
		expect_eq "$(grep -c '^pstat: note: no hardware PMU' err)" 1 \
			"$1: notes about the missing PMU"
	fi
}

check_group '{task-clock,cycles,page-faults}' "task-clock cycles page-faults"
# Without its leader, the next member leads the group.
check_group '{cycles,task-clock,page-faults}' "cycles task-clock page-faults"

# A weak group the kernel takes whole stays whole: no note.
run_pstat -x, -e '{task-clock,page-faults}:W' -- "$PROGS/touch_pages" 10
expect_rc 0
expect_number "$(csv_value task-clock:W)" "task-clock:W"
expect_ge "$(csv_value page-faults:W)" 10 "page-faults:W"
! grep -q '^pstat: note: .*weak group' err ||
	{ show_err_; fail_ "a weak group the kernel took was split"; }

# check_refused SPEC MESSAGE: 125, one message, the command not run.
check_refused()
{
	rm -f ran
	run_pstat -e "$1" -- touch ran
	expect_rc 125
	[ ! -e ran ] || fail_ "'$1': the command ran"
	expect_eq "$(grep -c '^pstat: ' err)" 1 "'$1': 'pstat: ' lines"
	grep -q "^pstat: .*$2" err ||
		{ show_err_; fail_ "'$1': no '$2' in the message"; }
}

# The msr PMU refuses any exclude bit: in a group, and alone once a
# weak group is split.
if [ -d /sys/bus/event_source/devices/msr ]; then
	check_refused '{task-clock,msr/tsc/u}' 'cannot leave out user'
	check_refused '{task-clock,msr/tsc/u}:W' 'cannot leave out user'
else
	echo "no msr PMU: its refusals not tried"
fi

# x86 refuses a breakpoint not aligned to its length.
case $(uname -m) in
x86_64|i?86)
	if [ -d /sys/bus/event_source/devices/breakpoint ]; then
		check_refused '{task-clock,mem:0x1001/8:w}' 'must be aligned'
		check_refused '{task-clock,mem:0x1001/8:w}:W' 'must be aligned'
	fi
	;;
esac
