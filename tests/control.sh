#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --control fifo: and fd:, and -D -1: a harness enables and disables
# counting through a fifo, each command acknowledged with "ack", and the
# counts are exactly the write(2) calls of the enabled windows. The
# workload (tests/progs/phases) makes N writes a phase and waits on
# fifos between phases, with no write of its own; perf stat, where it
# runs, counts the same windows the same.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs

ev=syscalls:sys_enter_write
mkfifo ctl ack ready go || framework_failure_ "mkfifo"
# Read and write: neither end waits for the other, and no end of file.
exec 3<>ctl 4<>ack

# Each step: "ready" waits for the phase to end, "go" starts the next,
# anything else is a command that must be acknowledged ("%" for a
# space, as in "enable%NAME"). Bounded, so a
# pstat that died fails the test instead of hanging it.
drive()
{
	for step; do
		case $step in
		ready) timeout 120 cat ready >/dev/null ||
			fail_ "the workload did not finish its phase" ;;
		go) timeout 120 sh -c ': >go' ||
			fail_ "the workload did not wait for its next phase" ;;
		*) step=$(printf '%s' "$step" | tr % ' ')
		   printf '%s\n' "$step" >&3
		   got=$(timeout 120 head -n 1 <&4) ||
			fail_ "no ack for '$step'"
		   expect_eq "$got" ack "the answer to '$step'" ;;
		esac
	done
}

# control TOOL STEPS -- ARGS...: TOOL (pstat or perf stat) with ARGS in
# the background, its output in ./err, driven by STEPS; rc its status.
control()
{
	tool=$1
	shift
	steps=
	while [ "$1" != -- ]; do
		steps="$steps $1"
		shift
	done
	shift
	if [ "$tool" = perf ]; then
		perf stat -o err "$@" >out 2>perf.log &
	else
		"$PSTAT" "$@" >out 2>err &
	fi
	pid=$!
	started "$pid"
	# shellcheck disable=SC2086 # steps are words
	drive $steps
	waited "$pid"
}

# -D -1: nothing until "enable"; phase 2's 5 writes alone.
control pstat ready enable go ready disable ping go ready -- \
	-x, -D -1 --control fifo:ctl,ack -e "$ev" -- "$PROGS/phases" . 3 5 7
expect_rc 0
expect_eq "$(csv_value "$ev")" 5 "-D -1, enabled for phase 2 of 3 5 7"

# Counting from the exec: phase 2 left out.
control pstat ready disable go ready enable go ready -- \
	-x, --control fifo:ctl,ack -e "$ev" -- "$PROGS/phases" . 3 5 7
expect_rc 0
expect_eq "$(csv_value "$ev")" 10 "disabled for phase 2 of 3 5 7"

# fd: the caller's descriptors.
control pstat ready enable go ready disable go ready -- \
	-x, -D -1 --control fd:3,4 -e "$ev" -- "$PROGS/phases" . 3 5 7
expect_rc 0
expect_eq "$(csv_value "$ev")" 5 "--control fd:3,4"

# "enable NAME": that event alone.
control pstat ready "enable%$ev" go ready "disable%$ev" go ready -- \
	-x, -D -1 --control fifo:ctl,ack -e "$ev" -e syscalls:sys_enter_read \
	-- "$PROGS/phases" . 3 5 7
expect_rc 0
expect_eq "$(csv_value "$ev")" 5 "enable $ev"
expect_eq "$(csv_value syscalls:sys_enter_read)" "<not counted>" \
	"never enabled, as another was by name"

# "enable NAME" of no event: said on stderr, answered "ack" all the
# same, and nothing changes.
control pstat ready enable%nosuchevent go ready -- \
	-x, -o out.csv -D -1 --control fifo:ctl,ack -e "$ev" -- \
	"$PROGS/phases" . 3 5
expect_rc 0
grep -q "^pstat: .*--control: 'enable nosuchevent': no event is named" err ||
	{ show_err_; fail_ "enable of no event: not said on stderr"; }
grep -q "^<not counted>,,$ev," out.csv ||
	{ cat out.csv; fail_ "enable of no event: $ev was enabled"; }

# -I: a row where each command cut an interval, and the rest at the end:
# the first window, the pause between, the second window.
control pstat ready enable go ready disable go ready enable go ready -- \
	-x, -I 86400000 -D -1 --control fifo:ctl,ack -e "$ev" -- \
	"$PROGS/phases" . 3 5 7 11
expect_rc 0
expect_eq "$(csv_rows | awk -F, '{ print $2 }' | tr '\n' ' ')" \
	"5 <not counted> 11 " "-I rows at disable, at enable, at the end"

# The pause is <not counted> in every format: pstat's with no run time.
control pstat ready enable go ready disable go ready enable go ready -- \
	--format=csv -I 86400000 -D -1 --control fifo:ctl,ack -e "$ev" -- \
	"$PROGS/phases" . 3 5 7 11
expect_rc 0
got=$(awk -F, '$1 == "interval" { print $6 "/" $8 "/" ($10 > 0) }' err |
	tr '\n' ' ')
expect_eq "$got" "5/counted/1 /not-counted/0 11/counted/1 " \
	"--format=csv: value/status/ran of the windows"
control pstat ready enable go ready disable go ready enable go ready -- \
	-j -I 86400000 -D -1 --control fifo:ctl,ack -e "$ev" -- \
	"$PROGS/phases" . 3 5 7 11
expect_rc 0
got=$(sed -n 's/.*"counter-value" *: *\("[^"]*"\|[0-9.]*\).*/\1/p' err |
	tr '\n' ' ')
expect_eq "$got" '5 "<not counted>" 11 ' "-j: counter-value of the windows"

# Never enabled: <not counted>, as -D beyond the command.
control pstat ready go ready -- \
	-x, -D -1 --control fifo:ctl -e "$ev" -- "$PROGS/phases" . 3 5
expect_rc 0
expect_eq "$(csv_value "$ev")" "<not counted>" "-D -1 never enabled"

# Bad specs: one line, 125, nothing run.
for spec in foo fd: fd:x fd:3, fd:-1 fifo: fifo:ctl, fifo:/nonexistent/ctl \
	    fd:57; do
	run_pstat -x, --control "$spec" -e "$ev" -- "$PROGS/phases" . 1
	expect_rc 125
	[ "$(wc -l <err)" = 1 ] && grep -q "^pstat: .*--control" err ||
		{ show_err_; fail_ "--control $spec: not one line naming --control"; }
done
run_pstat -D -1 -e "$ev" -- true
expect_rc 125
grep -q '^pstat: -D -1 .*--control' err || { show_err_; fail_ "-D -1 alone"; }

# perf stat, where it runs, counts the same windows.
command -v perf >/dev/null 2>&1 || exit 0
perf stat -x, -e "$ev" -- true 2>perf.log || exit 0
control perf ready enable go ready disable go ready -- \
	-x, -D -1 --control fifo:ctl,ack -e "$ev" -- "$PROGS/phases" . 3 5 7
expect_rc 0
expect_eq "$(csv_value "$ev")" 5 "perf stat -D -1, phase 2 of 3 5 7"
