#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A signal that stops pstat gives 128+N whenever it lands: before the
# command is let go (a process-group signal ends the held child too),
# during --pre or --post, and with -r whatever the command it was passed
# on to does with it. The signals are sent at moments the test controls:
# by the hooks and commands themselves, or while pstat is held up
# writing to a pipe the test keeps full. Guards only detect a hang.

# The hooks and commands expand $PPID, pstat's pid, themselves.
# shellcheck disable=SC2016
# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# SIGINT during --pre, sent by the hook to pstat: nothing was counted,
# no results, no message, and the command never ran.
run_pstat -x, -r 3 --pre 'kill -INT $PPID' -e task-clock -- touch ran
expect_rc 130
[ -e ran ] && fail_ "--pre stopped by SIGINT: the command ran"
[ -s err ] && { show_err_; fail_ "--pre stopped by SIGINT: said something"; }

# SIGTERM during --post after run 1 of 3: run 1's counts, 143.
run_pstat -x, -r 3 --post 'kill -TERM $PPID' -e task-clock -- true
expect_rc 143
expect_number "$(csv_value task-clock)" "--post stopped by SIGTERM: run 1"
grep '^pstat: ' err && { show_err_; fail_ "--post stopped by SIGTERM: said"; }

# With -r, a signal passed on stops the runs: 128+N, even when the
# command takes it and exits 0. Run 3 of -r 0 signals pstat (the
# command's parent) and ignores what pstat passes on.
: >runs
run_pstat -x, -r 0 -e task-clock -- sh -c 'trap "" TERM
	echo x >>runs; [ "$(wc -l <runs)" -lt 3 ] || kill -TERM $PPID; exit 0'
expect_rc 143
expect_eq "$(wc -l <runs)" 3 "-r 0 stopped by SIGTERM: runs"
expect_number "$(csv_value task-clock)" "-r 0 stopped by SIGTERM: counts"
# The same in the last run of -r 2.
: >runs
run_pstat -x, -r 2 -e task-clock -- sh -c 'trap "" INT
	echo x >>runs; [ "$(wc -l <runs)" -lt 2 ] || kill -INT $PPID; exit 0'
expect_rc 130
expect_number "$(csv_value task-clock)" "-r 2 stopped by SIGINT: counts"
# The run record says what the status says.
: >runs
run_pstat --format=csv -r 2 -e task-clock -- sh -c 'trap "" INT
	echo x >>runs; [ "$(wc -l <runs)" -lt 2 ] || kill -INT $PPID; exit 0'
expect_rc 130
grep -q '^run,,,,signal,SIGINT,' err ||
	{ show_err_; fail_ "-r 2 stopped by SIGINT: the run record"; }

# A process-group SIGTERM while the child is held before its exec. pstat
# writes -vv's lines to a stderr that is a pipe the test filled: it is
# held up there, in the middle of opening the counters, with the child
# forked. The signal ends the held child and is pending for pstat; then
# the pipe is drained. Not "Broken pipe" or "no such process", 125: the
# user's signal, 143, and the child gone.
mkfifo pipe || framework_failure_ "mkfifo failed"
exec 3<>pipe
# Full: written without blocking until the pipe takes no more.
dd if=/dev/zero of=pipe bs=4096 count=1024 oflag=nonblock 2>/dev/null
# timeout, a group of its own, is the guard; setsid puts pstat in a
# group of its own and its held child with it.
timeout 120 setsid "$PSTAT" -vv -o out -x, -e task-clock -- true 2>&3 &
guarded=$!
started "$guarded"
# shellcheck disable=SC2317 # wait_until's
held()
{
	pstat=$(pgrep -P "$guarded" -x pstat) || return 1
	child=$(pgrep -P "$pstat" -x pstat) || return 1
	sleeping_in "$pstat" '*'
}
wait_until "pstat held up writing to stderr, its child forked" held
kill -TERM "-$pstat"
cat <&3 >/dev/null 2>&1 &
drain=$!
started "$drain"
waited "$guarded"
pstat_rc=$rc
kill "$drain"
waited "$drain"
rc=$pstat_rc
expect_rc 143
# Reaped by pstat: not even a zombie left to an init that may not reap.
if [ -e "/proc/$child" ]; then
	kill -KILL "$child" 2>/dev/null
	fail_ "process-group SIGTERM at start-up: the child was left"
fi
exit 0
