#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Threads counted once each: a -p or -t list naming one twice counts it
# once; -a --per-thread counts the command in a row of its own but not
# pstat, and people are shown only the threads that counted something.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs

ev=syscalls:sys_enter_write

# pstat, the child of timeout(1) $1, sleeps in poll(2): its counters
# are open and enabled.
polling()
{
	p=$(pgrep -P "$1" -x pstat) && sleeping_in "$p" '*poll*'
}

# attach OPTION TARGETS...: waiter's one worker makes 200 writes once
# pstat, attached with OPTION to the list of TARGETS (pid or tid of the
# worker, by name), holds its counters.
attach()
{
	rm -f tids
	"$PROGS/waiter" 200 1 tids &
	pid=$!
	started "$pid"
	wait_until "waiter's thread list" test -s tids
	tid=$(head -n 1 tids)
	opt=$1
	shift
	list=$(for t; do eval "printf '%s,' \$$t"; done)
	timeout 60 "$PSTAT" -x, -e "$ev" "$opt" "${list%,}" >out 2>err &
	pstat=$!
	started "$pstat"
	wait_until "pstat waiting for its targets" polling "$pstat"
	kill -USR1 "$pid"
	waited "$pid"
	waited "$pstat"
	expect_rc 0
}

attach -p pid pid
expect_eq "$(csv_value "$ev")" 200 "-p PID,PID: the writes, once"
attach -t tid tid
expect_eq "$(csv_value "$ev")" 200 "-t TID,TID: the writes, once"

# -a --per-thread: the command's row, exactly; none of pstat's.
"$PSTAT" -a --per-thread -x, -e "$ev" -- "$PROGS/writer" 300 >out 2>err &
pstat=$!
rc=0
wait "$pstat" || rc=$?
expect_rc 0
csv_rows | grep -Eq '^writer-[0-9]+,300,,syscalls:sys_enter_write,' ||
	{ show_err_; fail_ "-a --per-thread: no writer row with its 300 writes"; }
! csv_rows | grep -q -- "-$pstat," ||
	{ show_err_; fail_ "-a --per-thread: pstat counted itself"; }
[ "$(csv_rows | grep -Ec '^[^,]+-[0-9]+,0,')" -gt 0 ] ||
	fail_ "-a --per-thread -x: the threads that counted 0 are gone"

# People see only the threads that counted.
run_pstat -a --per-thread -e "$ev" -- "$PROGS/writer" 300
expect_rc 0
# comm right-aligned in 16, as perf.
grep -Eq '^ {10}writer-[0-9]+ +300 +syscalls:sys_enter_write' err ||
	{ show_err_; fail_ "-a --per-thread: no writer line"; }
grep -E ' +0 +syscalls:sys_enter_write' err &&
	{ show_err_; fail_ "-a --per-thread: a thread that counted 0 is shown"; }
exit 0
