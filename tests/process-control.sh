#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Signals sent to pstat reach the command, which pstat reports and waits
# for; --timeout stops the command with 124. (-D delays counting:
# process-delay.sh.) The commands would outlast any test: only pstat
# passing the signal on, or its timeout, ends them, however slow the
# machine; a guard well beyond that ends a pstat that hangs (status 137).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

guard="timeout -s KILL 300"

# The pid of $1's child named $2, once it has exec'd, in $child.
child_named()
{
	child=$(pgrep -P "$1" -x "$2")
}

# signal NAME STATUS: pstat alone gets NAME while it runs sleep 1000.
signal()
{
	$guard "$PSTAT" -x, -e task-clock -- sleep 1000 >out 2>err &
	guarded=$!
	started "$guarded"
	wait_until "pstat started" child_named "$guarded" pstat
	pstat=$child
	# pstat passes signals on once its command runs: wait for that.
	wait_until "sleep under pstat" child_named "$pstat" sleep
	kill -"$1" "$pstat"
	waited "$guarded"
	if kill -0 "$child" 2>/dev/null; then
		kill "$child"
		fail_ "SIG$1: pstat's sleep $child was left running"
	fi
	expect_rc "$2"
	expect_number "$(csv_value task-clock)" "SIG$1: counts printed"
}
signal INT 130
signal TERM 143

# --timeout: 124 and the counts; the command, a sleep of its own that
# would outlast the guard, stopped. $$ makes that sleep this test's.
timeout_run()
{
	rc=0
	$guard "$PSTAT" --timeout 300 "$@" -e task-clock -- \
		sleep "1000.$$" >out 2>err || rc=$?
	expect_rc 124
	if mine=$(pgrep -x -f "sleep 1000\.$$"); then
		kill "$mine"
		fail_ "--timeout $*: its command was left running"
	fi
}
timeout_run -x,
expect_number "$(csv_value task-clock)" "--timeout: counts printed"
! grep -q '^pstat:' err || fail_ "--timeout: a message in the CSV stream"
timeout_run
grep -q '^pstat: .*--timeout' err || fail_ "--timeout: no message"

# max RSS is in the footer.
run_pstat -e task-clock -- "$PROGS/touch_pages" 2000
expect_rc 0
grep -Eq 'KiB max resident set size$' err || fail_ "no max RSS in the footer"
