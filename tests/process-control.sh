#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Signals sent to pstat reach the command, which pstat reports and waits
# for; --timeout stops the command with 124; -D delays counting.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# signal NAME STATUS: pstat alone gets NAME while it runs sleep 5.
signal()
{
	"$PSTAT" -x, -e task-clock -- sleep 5 >out 2>err &
	pstat=$!
	# pstat passes signals on once its command runs: wait for that.
	i=0
	until pgrep -P "$pstat" -x sleep >/dev/null || [ $i -ge 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	sleep 0.1
	start=$(date +%s)
	kill -"$1" "$pstat"
	rc=0
	wait "$pstat" || rc=$?
	[ $(( $(date +%s) - start )) -le 2 ] || fail_ "SIG$1: pstat took too long"
	expect_rc "$2"
	expect_number "$(csv_value task-clock)" "SIG$1: counts printed"
	pgrep -f '^sleep 5$' >/dev/null && fail_ "SIG$1: a sleep 5 was left"
	return 0
}
signal INT 130
signal TERM 143

# --timeout: about the time given, 124, and the counts.
start=$(date +%s)
run_pstat --timeout 300 -x, -e task-clock -- sleep 5
expect_rc 124
[ $(( $(date +%s) - start )) -le 2 ] || fail_ "--timeout took too long"
expect_number "$(csv_value task-clock)" "--timeout: counts printed"
! grep -q '^pstat:' err || fail_ "--timeout: a message in the CSV stream"
run_pstat --timeout 300 -e task-clock -- sleep 5
expect_rc 124
grep -q '^pstat: .*--timeout' err || fail_ "--timeout: no message"

# -D: writes before the delay are not counted, those after are.
if [ -r /sys/kernel/tracing/events/syscalls ]; then
	ev=syscalls:sys_enter_write
	run_pstat -x, -D 300 -e "$ev" -- \
		sh -c "'$PROGS/writer' 100; sleep 0.6; '$PROGS/writer' 50"
	expect_rc 0
	expect_eq "$(csv_value "$ev")" 50 "-D 300: writes after the delay"
fi

# max RSS is in the footer.
run_pstat -e task-clock -- "$PROGS/touch_pages" 2000
expect_rc 0
grep -Eq 'KiB max resident set size$' err || fail_ "no max RSS in the footer"
