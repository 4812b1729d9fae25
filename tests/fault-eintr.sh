#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A signal may interrupt any system call: with every read, ioctl, poll,
# wait4 and perf_event_open of pstat failing with EINTR once (the fault
# shim), pstat makes each again. Tracepoint counts stay exact, alone,
# with -r and with -I, and -I prints no interval its timer did not end.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs
require_fault_shim

ev=syscalls:sys_enter_write
events="$ev,task-clock,{page-faults,cs}"

# expect_rows WHAT: the -x rows of the four events, the writes exact.
expect_rows()
{
	expect_rc 0
	! grep -q '^fault_shim:' err || { show_err_; fail_ "$1: $(cat err)"; }
	expect_eq "$(csv_events ,)" "$ev task-clock page-faults cs" "$1: events"
	expect_eq "$(csv_value "$ev")" 1000 "$1: $ev"
	for e in task-clock page-faults cs; do
		expect_number "$(csv_value "$e")" "$1: $e"
	done
}

# Each kind of call was interrupted at least once: the shim did its work.
expect_interrupted()
{
	for call in read ioctl poll wait4 perf_event_open; do
		n=$(fault_report "eintr_$call")
		[ "${n:-0}" -gt 0 ] ||
			{ cat report; fail_ "$1: no $call was interrupted"; }
	done
}

with_faults FAULT_EINTR=1 -- -x, -e "$events" -- "$PROGS/writer" 1000
expect_rows "one run"
expect_interrupted "one run"

with_faults FAULT_EINTR=1 -- -x, -r 2 -e "$events" -- "$PROGS/writer" 1000
expect_rows "-r 2"
expect_interrupted "-r 2"

# -I: the command waits on a fifo until two intervals are out, then
# writes. An interrupted read of the timer once left it ready, and
# pstat printed an interval at each turn of its loop. The event is in
# a group, whose ids pstat asks for with ioctl (a group of one has none
# to ask for).
mkfifo fifo || framework_failure_ "mkfifo failed"
# shellcheck disable=SC2016 # the inner shell expands $0
env LD_PRELOAD="$fault_shim" FAULT_EINTR=1 FAULT_REPORT="$PWD/report" \
	"$PSTAT" -x, -I 50 -e "{$ev,task-clock}" -- \
	sh -c 'cat fifo >/dev/null && exec "$0" 1000' "$PROGS/writer" \
	>out 2>err &
pstat=$!
started "$pstat"
intervals() { csv_rows | grep -c ",$ev,"; }
two_intervals() { [ "$(intervals)" -ge 2 ]; }
wait_until "two intervals" two_intervals
: <>fifo
waited "$pstat"
expect_rc 0
sum=$(csv_rows | awk -F, -v ev="$ev" '$4 == ev { s += $2 } END { print s }')
expect_eq "$sum" 1000 "-I: $ev over the intervals"
# Timers of 50 ms end at most one interval each 50 ms; the last is
# partial.
last=$(csv_rows | awk -F, 'END { print $1 }')
n=$(intervals)
awk -v n="$n" -v t="$last" 'BEGIN { exit !(n <= t / 0.05 + 1) }' || {
	show_err_
	fail_ "-I 50: $n intervals in $last s"
}
expect_interrupted "-I"
