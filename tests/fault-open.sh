#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A counter refused half-way through a group (out of descriptors, kernel
# memory, the system's file table): pstat stops with 125 and one message
# naming the event, the command never runs, and its held child does not
# outlive pstat (the reaper would name it). Through the fault shim, and
# for real under ulimit -n with descriptors the shell holds.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_fault_shim

events='task-clock,{page-faults,cs,cpu-clock}'

# refused WHAT TEXT...: the run was refused before the command ran, in
# one 'pstat:' line holding each TEXT, and nothing was left behind.
refused()
{
	what=$1
	shift
	! grep -q '^reaper:' err || { show_err_; fail_ "$what: a process left"; }
	expect_rc 125
	[ ! -e ran ] || fail_ "$what: the command ran"
	expect_eq "$(wc -l <err)" 1 "$what: lines on stderr"
	for want in "$@"; do
		grep '^pstat: ' err | grep -qF -- "$want" ||
			{ show_err_; fail_ "$what: no '$want' in the message"; }
	done
}

# The third open is cs, the second member of the group.
rm -f ran
with_faults FAULT_OPEN=3:24 -- -e "$events" -- touch ran
refused "EMFILE on cs" "cs: " "too many open files"

with_faults FAULT_OPEN=3:12 -- -e "$events" -- touch ran
refused "ENOMEM on cs" "cs: " "Cannot allocate memory"

# The group's leader; and with -x, still the message alone.
with_faults FAULT_OPEN=2:23 -- -x, -e "$events" -- touch ran
refused "ENFILE on page-faults" "page-faults: " "Too many open files in system"

# -r 2: the first run's counters open, the second run's cs does not: a
# late failure (tests/late-failure.sh). The first run's results, whole,
# and the message alone on stderr; with the results on stderr, no
# message among them.
with_faults FAULT_OPEN=7:12 -- -x, -o res.csv -r 2 -e "$events" -- touch ran
! grep -q '^reaper:' err || { show_err_; fail_ "-r 2: a process left"; }
expect_rc 125
expect_eq "$(grep -c . err)" 1 "-r 2: lines on stderr"
expect_eq "$(grep -c '^pstat: .*cs: .*Cannot allocate memory' err)" 1 \
	"-r 2: the message"
expect_eq "$(cut -d, -f3 res.csv | tr '\n' ' ')" \
	"task-clock page-faults cs cpu-clock " "-r 2: the first run's results"
with_faults FAULT_OPEN=7:12 -- -x, -r 2 -e "$events" -- touch ran
expect_rc 125
expect_eq "$(grep -c '^pstat:' err)" 0 "-r 2: a message in the -x stream"

# For real: a limit of 30 descriptors passes pstat's own count (6
# events and 16 of its own), but the shell holds more, so an open fails
# with EMFILE. Holding 3 to 16, ..., 3 to 28, the failure comes at each
# event in turn, a group's members among them, or before any ("ran out
# of file descriptors": pstat's pipes and signalfd take 5 at once
# before the clone, 3 after it, so the group comes third), or not at
# all. (bash: dash redirects descriptors 0-9 only; the reaper needs one
# to start.)
command -v bash >/dev/null || skip_ "no bash, to hold descriptors past 9"
: >named
for last in $(seq 16 28); do
	rm -f ran
	rc=0
	bash -c 'ulimit -n 30 || exit 99
		for fd in $(seq 3 "$0"); do eval "exec $fd</dev/null"; done
		exec "$@"' "$last" "$PROGS/reaper" pstat.pid "$PSTAT" \
		-e 'task-clock,faults,{page-faults,cs,cpu-clock},migrations' \
		-- touch ran >out 2>err || rc=$?
	[ "$rc" != 99 ] || skip_ "cannot set ulimit -n 30"
	what="ulimit -n 30, descriptors 3-$last held"
	if [ "$rc" = 0 ] && [ -e ran ] && [ ! -s out ] &&
	   grep -q 'Performance counter stats' err; then
		continue
	fi
	refused "$what" "pstat: "
	if ! grep -q "^pstat: ran out of file descriptors before counting: the limit is 30 (ulimit -n), .*: raise it with 'ulimit -n [0-9]*'" err; then
		grep -Eq '^pstat: (task-clock|page-faults|cs|cpu-clock|faults|migrations): too many open files' err ||
			{ show_err_; fail_ "$what: no event named"; }
		sed -n 's/^pstat: \([a-z-]*\): .*/\1/p' err >>named
	fi
done
# The opens failed half-way through the group, at each of its members.
for ev in page-faults cs cpu-clock; do
	grep -qx -- "$ev" named ||
		fail_ "ulimit -n 30: never refused at $ev: $(tr '\n' ' ' <named)"
done
