#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --control never harms what it is pointed at, nor waits on it: fifo:
# takes FIFOs alone (acks written over a plain file, or a device read
# without end, are no channel), fd: no endless device, and an ack nobody reads is dropped, not
# waited for, even on the blocking descriptors of perf's own harness
# form (exec 3<>ctl 4<>ack).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# Not a FIFO: refused before the command runs, and left as it was.
mkfifo ctl ack go || framework_failure_ "mkfifo"
printf 'data\n' >plain
for spec in fifo:ctl,plain fifo:plain fifo:/dev/zero fifo:ctl,/dev/null; do
	expect_refused_saying "is not a FIFO" --control "$spec" -e task-clock
	expect_eq "$(cat plain)" data "plain after --control $spec"
done

# fd:'s CTL read without end (a device) is refused, not read at full
# speed while the command runs; /dev/null, at its end at once, is no
# harm. A descriptor number is digits alone (strtol would take a tab).
expect_refused_saying "is a device or a directory" --control fd:5 \
	-e task-clock 5</dev/zero
expect_refused_saying "is a device or a directory" --control fd:5 \
	-e task-clock 5<.
run_pstat -x, --control fd:5 -e task-clock -- true 5</dev/null
expect_rc 0
nl='
'
for spec in "fd:$(printf '\t')5" "fd:$(printf '\v')5" "fd:+5" "fd:5,${nl}5"; do
	expect_refused_saying "fd: takes descriptor numbers" --control "$spec" \
		-e task-clock 5</dev/null
	# One line, whatever the spec holds.
	expect_eq "$(wc -l <err)" 1 "the message of --control '$spec'"
done

# Blocking descriptors nobody reads acks from: a pipe holds 16384 acks
# (64 KiB), and 40000 pings ask for more. pstat reads them all, drops
# the acks that do not fit, and ends when its command does.
exec 3<>ctl 4<>ack
timeout -k 5 120 "$PSTAT" -x, --control fd:3,4 -e task-clock -- \
	cat go >out 2>err &
pid=$!
started "$pid"
timeout 120 sh -c 'yes ping | head -n 40000 >&3' ||
	fail_ "pstat stopped reading --control: waiting on an ack nobody reads?"
timeout 120 sh -c ': >go' || fail_ "the command did not wait on go"
waited "$pid"
expect_rc 0
expect_number "$(csv_value task-clock)" "task-clock after 40000 pings"
# What reached the ack channel is whole acks.
acks=$(timeout 10 dd bs=65536 count=1 iflag=nonblock <&4 2>/dev/null |
	tr -d '\n' | sed 's/ack//g')
expect_eq "$acks" "" "the ack channel holds something else"
