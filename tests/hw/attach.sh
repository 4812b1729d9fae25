#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -p: attached to a process that waits, then loops N times and exits:
# pstat counts its loop, N more iterations exactly 2N more instructions.

# shellcheck source=tests/hw/lib.sh
. "$(dirname "$0")/lib.sh"

# attached N: instructions:u of insn_loop -w N counted with -p, in v.
attached()
{
	rm -f ready err out
	"$PROGS/insn_loop" -w "$1" >ready &
	pid=$!
	started "$pid"
	wait_until "insn_loop waiting for SIGUSR1" grep -q ready ready
	"$PSTAT" -x, -p "$pid" -e instructions:u >out 2>err &
	spid=$!
	started "$spid"
	# pstat waits in poll once its counters are open and enabled.
	wait_until "pstat -p attached" sleeping_in "$spid" '*poll*'
	kill -USR1 "$pid"
	waited "$pid"
	expect_rc 0
	waited "$spid"
	expect_rc 0
	v=$(csv_field instructions:u 1)
	expect_count_value "$v" "-p, $1 iterations"
	echo "-p, $1 iterations: $v"
	[ "$v" -ge "$(loop_insns "$1")" ] ||
		fail_ "-p, $1 iterations: $v, fewer than the loop's"
}

attached "$N1"
a=$v
attached "$N2"
b=$v
expect_count $((b - a)) "$(loop_insns $((N2 - N1)))" \
	"-p, $N2 against $N1 iterations"
# Only the loop and the way out of the process: no exec, no start.
expect_near $((a - $(loop_insns "$N1"))) 0 0 100000 \
	"-p: instructions:u outside the loop"
