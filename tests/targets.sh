#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -p counts every thread of a running process exactly, -t one thread, and
# pstat returns by itself when the process ends; -a and -C count per CPU.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs

ev=syscalls:sys_enter_write

# attach OPTION FDS: start waiter (3 threads x 200 writes), attach with
# OPTION's target, wait for pstat's FDS counters, release the threads,
# and let pstat notice the end alone.
attach()
{
	rm -f tids
	"$PROGS/waiter" 200 3 tids &
	pid=$!
	started "$pid"
	wait_until "waiter's thread list" test -s tids
	case $1 in
	-p) target=$pid ;;
	-t) target=$(head -n 1 tids) ;;
	esac
	# The timeout only ends a pstat that hangs.
	timeout 300 "$PSTAT" -x, -e "$ev" "$1" "$target" >out 2>err &
	pstat=$!
	started "$pstat"
	# Release the threads only once pstat holds a counter on each and
	# has enabled them: it waits in poll then.
	wait_until "pstat's $2 counters" counting "$pstat" "$2"
	kill -USR1 "$pid"
	waited "$pid"
	waited "$pstat"
	[ "$rc" != 124 ] || fail_ "$1: pstat did not return when the target ended"
	expect_rc 0
}

# The perf_event descriptors process $1 holds.
perf_fds()
{
	n=0
	for fd in /proc/"$1"/fd/*; do
		case $(readlink "$fd" 2>/dev/null) in
		*perf_event*) n=$((n + 1)) ;;
		esac
	done
	echo "$n"
}

# counting PID N: pstat, timeout PID's child, holds N counters and waits
# in poll, which it enters only once they are enabled.
counting()
{
	p=$(pgrep -P "$1" -x pstat) &&
		[ "$(perf_fds "$p")" -ge "$2" ] && sleeping_in "$p" '*poll*'
}

# Its main thread and 3 workers; then one worker.
attach -p 4
expect_eq "$(csv_value "$ev")" 600 "-p: writes of 3 threads"
attach -t 1
expect_eq "$(csv_value "$ev")" 200 "-t: writes of one thread"

# A process that does not exist is an error before anything runs.
run_pstat -p 999999999 -e task-clock
expect_rc 125
grep -q '^pstat: no such process' err || fail_ "-p: no 'no such process'"

# -a counts at least the command's own writes, on every CPU.
run_pstat -a -x, -e "$ev" -- "$PROGS/writer" 300
expect_rc 0
expect_ge "$(csv_value "$ev")" 300 "-a: writes"

# -A -C 0: exactly one CPU0 row.
run_pstat -A -C 0 -x, -e task-clock -- true
expect_rc 0
expect_eq "$(csv_rows | grep -c '^CPU0,')" 1 "-A -C 0: CPU0 rows"
expect_eq "$(csv_rows | wc -l | tr -d ' ')" 1 "-A -C 0: rows"

# --per-core and --per-socket: an id and a CPU count before the value.
ncpu=$(getconf _NPROCESSORS_ONLN)
run_pstat -a --per-socket -x, -e task-clock -- true
expect_rc 0
csv_rows | grep -Eq '^S[0-9]+,[0-9]+,[0-9.]+,msec,task-clock,' ||
	fail_ "--per-socket: no S<n>,<cpus>,value row"
expect_eq "$(csv_rows | awk -F, '{ n += $2 } END { print n }')" "$ncpu" \
	"--per-socket: CPUs add up to the online CPUs"
run_pstat -a --per-core -x, -e task-clock -- true
expect_rc 0
csv_rows | grep -Eq '^S[0-9]+-D[0-9]+-C[0-9]+,[0-9]+,' ||
	fail_ "--per-core: no S-D-C rows"

# -i: the children do the writes, so the command itself counts none.
run_pstat -i -x, -e "$ev" -- "$PROGS/writer" 100 forks 2
expect_rc 0
expect_eq "$(csv_value "$ev")" 0 "-i: writes of the parent alone"

# An offline or absent CPU is refused.
run_pstat -C 4096 -e task-clock -- true
expect_rc 125

# Too few descriptors even at the hard limit: 125, the number, ulimit -n.
(
	ulimit -n 20 && ulimit -Hn 20 &&
		"$PSTAT" -e task-clock,cs,faults,minor-faults,major-faults,migrations \
			-- true >out 2>err
) && fail_ "6 counters under ulimit -n 20 did not fail"
grep -Eq '^pstat: .*need [0-9]+ file descriptors.*ulimit -n' err ||
	{ show_err_; fail_ "fd limit: no message naming the need and ulimit -n"; }

# -a --per-thread: a comm-tid row for threads of the whole system.
run_pstat -a --per-thread -x, -e task-clock -- true
expect_rc 0
[ "$(csv_rows | grep -Ec '^[^,]+-[0-9]+,')" -gt 1 ] ||
	fail_ "-a --per-thread: fewer than two comm-tid rows"
