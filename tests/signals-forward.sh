#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every signal whose default ends a process, SIGUSR1 and SIGALRM as much
# as SIGTERM, goes from pstat to the command, which it ends: pstat exits
# 128+N with the counts and leaves nothing behind. A command that
# ignores SIGINT is killed (SIGKILL) a grace period after pstat's second
# SIGINT. The commands would outlast any test; a guard well beyond the
# grace ends a pstat that hangs (its SIGTERM: never the status wanted).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# shellcheck disable=SC2317 # child_named and not_pending: wait_until's
# The pid of $1's child named $2, once it has exec'd, in $child.
child_named()
{
	child=$(pgrep -P "$1" -x "$2")
}

# sig_number NAME: N of SIGNAME, the number kill -l gives the name.
sig_number()
{
	n=1
	while [ "$(kill -l "$n")" != "$1" ]; do
		[ "$n" -lt 64 ] || framework_failure_ "no signal $1"
		n=$((n + 1))
	done
	echo "$n"
}

# not_pending PID SIGNAME: PID has taken SIGNAME (blocked, pstat reads
# it from a signalfd): it is no longer pending.
# shellcheck disable=SC2317
not_pending()
{
	bit=$((1 << ($(sig_number "$2") - 1)))
	for f in ShdPnd SigPnd; do
		hex=$(awk -v f="$f:" '$1 == f { print $2 }' "/proc/$1/status")
		[ -n "$hex" ] || return 1
		[ $((0x$hex & bit)) = 0 ] || return 1
	done
}

# start COMMAND...: pstat counts COMMAND under the guard; $pstat is
# pstat's pid once it runs, $guarded the guard's.
start()
{
	timeout 120 "$PSTAT" -x, -e task-clock -- "$@" >out 2>err &
	guarded=$!
	started "$guarded"
	wait_until "pstat started" child_named "$guarded" pstat
	pstat=$child
}

# finish WHAT STATUS: the guard ends with STATUS, pstat printed the
# counts, and the command (pid $child) is gone.
finish()
{
	waited "$guarded"
	if kill -0 "$child" 2>/dev/null; then
		kill -KILL "$child"
		fail_ "$1: pstat's command $child was left running"
	fi
	expect_rc "$2"
	expect_number "$(csv_value task-clock)" "$1: counts printed"
}

for sig in USR1 USR2 ALRM PROF HUP; do
	start sleep 1000
	# Signals go on once the command runs: wait for its exec.
	wait_until "sleep under pstat" child_named "$pstat" sleep
	kill -"$sig" "$pstat"
	finish "SIG$sig" $((128 + $(sig_number "$sig")))
done

# SIGINT ignored: the second one is followed by SIGKILL. The command
# makes ./ready once its trap is set; the second SIGINT is sent only
# once pstat took the first (two pending would be one).
start sh -c "trap '' INT; : >ready; exec sleep 1000"
wait_until "the command's trap" test -e ready
wait_until "sleep under pstat" child_named "$pstat" sleep
kill -INT "$pstat"
wait_until "pstat took the first SIGINT" not_pending "$pstat" INT
kill -0 "$child" 2>/dev/null || fail_ "one SIGINT ended a command that ignores it"
kill -INT "$pstat"
finish "two SIGINTs" 137
exit 0
