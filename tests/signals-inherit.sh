#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The command gets the signal dispositions and mask pstat's caller gave
# pstat, as exec(2) would have passed them on: a signal ignored under
# nohup or env --ignore-signal stays ignored, a blocked one blocked, and
# SIGPIPE, which pstat ignores for itself, is the caller's again.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# mask SIGNAME: the bit of that signal in /proc/PID/status's masks, as
# a number (1 << (N - 1)), N the number kill -l gives the name.
mask()
{
	n=1
	while [ "$(kill -l "$n")" != "$1" ]; do
		[ "$n" -lt 64 ] || framework_failure_ "no signal $1"
		n=$((n + 1))
	done
	echo $((1 << (n - 1)))
}

# has FIELD SIGNAME: the command's FIELD (SigIgn, SigBlk) in ./out holds
# that signal.
has()
{
	hex=$(awk -v f="$1:" '$1 == f { print $2 }' out)
	[ -n "$hex" ] || { cat out; show_err_; fail_ "no $1 in the command's status"; }
	[ $((0x$hex & $(mask "$2"))) != 0 ]
}

# status_of PREFIX...: PREFIX runs pstat, whose command shows its own
# /proc/self/status in ./out.
status_of()
{
	rc=0
	"$@" "$PSTAT" -x, -e task-clock -- cat /proc/self/status >out 2>err ||
		rc=$?
	expect_rc 0
}

# The caller ignores nothing: neither does the command (not even
# SIGPIPE, which pstat ignores).
status_of env
! has SigIgn PIPE || fail_ "SIGPIPE ignored in the command"
! has SigIgn HUP || fail_ "SIGHUP ignored in the command"
! has SigBlk INT || fail_ "SIGINT blocked in the command"

# nohup: SIGHUP stays ignored.
status_of nohup
has SigIgn HUP || fail_ "nohup: SIGHUP is not ignored in the command"

# A shell's trap '' does the same as nohup, for any signal.
rc=0
sh -c "trap '' HUP PIPE USR1; exec \"\$0\" -x, -e task-clock -- \
	cat /proc/self/status" "$PSTAT" >out 2>err || rc=$?
expect_rc 0
for sig in HUP PIPE USR1; do
	has SigIgn "$sig" || fail_ "trap '': SIG$sig is not ignored in the command"
done

# env's --ignore-signal and --block-signal (coreutils 8.31 and later).
if env --ignore-signal=HUP true 2>/dev/null; then
	status_of env --ignore-signal=HUP --ignore-signal=PIPE \
		--block-signal=USR2
	has SigIgn HUP || fail_ "env: SIGHUP is not ignored in the command"
	has SigIgn PIPE || fail_ "env: SIGPIPE is not ignored in the command"
	has SigBlk USR2 || fail_ "env: SIGUSR2 is not blocked in the command"
	! has SigBlk INT || fail_ "env: SIGINT blocked in the command"
else
	echo "env has no --ignore-signal: its part not tried"
fi
# SIGCHLD ignored by the caller: the command inherits that, and pstat
# still learns how it ended.
if env --ignore-signal=CHLD true 2>/dev/null; then
	status_of env --ignore-signal=CHLD
	has SigIgn CHLD || fail_ "env: SIGCHLD is not ignored in the command"
	rc=0
	env --ignore-signal=CHLD "$PSTAT" -e task-clock -- sh -c 'exit 3' \
		>out 2>err || rc=$?
	expect_rc 3
fi

# pstat ignores what its caller ignores, as its command does: a SIGHUP
# under nohup neither reaches the command nor ends pstat; its SIGTERM
# then does. (pstat would pass SIGHUP on first: the lower number.)
# shellcheck disable=SC2317 # called through wait_until
child_named()
{
	child=$(pgrep -P "$1" -x "$2")
}
timeout 120 nohup "$PSTAT" -x, -e task-clock -- sleep 1000 >out 2>err &
guarded=$!
started "$guarded"
wait_until "pstat started" child_named "$guarded" pstat
pstat=$child
wait_until "sleep under pstat" child_named "$pstat" sleep
kill -HUP "$pstat"
kill -TERM "$pstat"
waited "$guarded"
expect_rc 143
exit 0
