#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A bad event spec stops pstat before the command runs: exit 125, one
# 'pstat: ' line with the reason, then the spec and a caret under the
# column at fault. PMU and tracepoint errors use a fake sysfs and tracefs.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

pmu=sys/bus/event_source/devices/msr
mkdir -p "$pmu/format" "$pmu/events" events/syscalls/sys_enter_write ||
	framework_failure_ "cannot make a fake sysfs and tracefs"
echo 9 >"$pmu/type"
echo config:0-63 >"$pmu/format/event"
echo config:8-15 >"$pmu/format/umask"
echo event=0x00 >"$pmu/events/tsc"
echo 123 >events/syscalls/sys_enter_write/id
PSTAT_SYSFS=$tmpdir/sys
PSTAT_TRACEFS=$tmpdir/events
export PSTAT_SYSFS PSTAT_TRACEFS

# The column of the caret under "       -e SPEC" in ./err, or nothing.
caret_column()
{
	awk -v spec="       -e $1" '
		found { if ($0 ~ /^ *\^$/) print index($0, "^") - 11; exit }
		$0 == spec { found = 1 }' err
}

# check_error SPEC COLUMN REASON [HINT]
check_error()
{
	expect_refused -e "$1"
	grep '^pstat: ' err | grep -qF "$3" ||
		{ show_err_; fail_ "'$1': no '$3' in the message"; }
	[ $# -lt 4 ] || grep '^pstat: ' err | grep -qF "$4" ||
		{ show_err_; fail_ "'$1': no hint '$4'"; }
	grep -qxF "       -e $1" err ||
		{ show_err_; fail_ "'$1': the spec is not shown"; }
	expect_eq "$(caret_column "$1")" "$2" "'$1': caret column"
}

check_error cylces 0 "unknown event 'cylces'" "did you mean 'cycles'?"
check_error task-clock,cylces 11 "unknown event 'cylces'" \
	"did you mean 'cycles'?"
check_error L1-icache-stores 0 "that cache has no such operation"
check_error task-clock:pppp 14 "precise_ip goes up to 3"
check_error task-clock:uz 12 "unknown modifier 'z'"
check_error '{task-clock,page-faults' 0 "unclosed '{'"
check_error 'task-clock,{cs},page-faults}' 27 "expected ','"
check_error r0x 0 "unknown event 'r0x'"
check_error mem:0x1000:rr 12 "bad breakpoint access 'rr'"
check_error nopmu/event=1/ 0 "no PMU named 'nopmu'"
check_error msr/nosuch/ 4 "no term or event 'nosuch'"
check_error task-clock,msr/umask=0x100/ 21 "does not fit term 'umask'"
check_error msr/tsc 3 "missing the closing '/'"
check_error 'syscalls:nomatch*' 0 "no match for tracepoint 'syscalls:nomatch*'"
check_error task-clock,syscalls:nosuch 11 \
	"unknown tracepoint 'syscalls:nosuch'"

# An event file that cannot be read.
expect_refused -e @/nonexistent
grep -q "^pstat: .*'/nonexistent'" err ||
	{ show_err_; fail_ "@/nonexistent: the file is not named"; }

# A bad line in an event file: the file and line first, then as above.
printf '%s\n' '# two lines of events' 'task-clock,page-faults' \
	'cs,cylces	# a typo' >events.txt
expect_refused -e @events.txt
grep -q "^pstat: events.txt:3: unknown event 'cylces'" err ||
	{ show_err_; fail_ "@events.txt: no 'events.txt:3:' message"; }
expect_eq "$(caret_column cs,cylces)" 3 "@events.txt: caret column"

printf '%s\n' 'task-clock' 'nosuchevent' >second.txt
run_pstat -e @second.txt -- true
expect_rc 125
grep -q "^pstat: second.txt:2: unknown event 'nosuchevent'" err ||
	{ show_err_; fail_ "@second.txt: no 'second.txt:2:' message"; }
