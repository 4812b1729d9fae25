#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Many counters at exit: pstat prints every row, flushes and checks its
# output (a write error is 125), frees what it holds, leaves the last
# run's counters for exit(2) to close (a close(2) each would cost 0.1 of
# the fork floor with 200 events), the same in every build, under a
# memory checker too; exits with the command's status and leaves no
# child, whether it clones or forks its command. Under memcheck nothing
# is left allocated.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

n=300
events=$(awk -v n=$n 'BEGIN { for (i = 0; i < n; i += 2)
	printf "%stask-clock,page-faults", i ? "," : "" }')

for fork in "" 1; do
	export PSTAT_FORK="$fork"
	what="PSTAT_FORK='$fork', $n events"

	run_pstat -e "$events" -- sh -c 'echo $$ >pid; exit 3'
	expect_rc 3
	rows=$(grep -c -e ' task-clock' -e ' page-faults' err)
	expect_eq "$rows" $n "$what: rows printed"
	grep -q 'seconds time elapsed' err ||
		{ show_err_; fail_ "$what: no time elapsed"; }
	! kill -0 "$(cat pid)" 2>/dev/null ||
		fail_ "$what: the command outlived pstat"

	run_pstat -x, -e "$events" -- true
	expect_rc 0
	expect_eq "$(csv_rows | wc -l)" $n "$what: -x, rows"

	# The output is checked before exit, not left to it.
	rc=0
	"$PSTAT" -e "$events" -o /dev/full -- true >out 2>err || rc=$?
	expect_rc 125
	expect_eq "$(grep -c '^pstat: ' err)" 1 "$what: -o /dev/full: messages"
done
unset PSTAT_FORK

# The counters of the last run are closed by exit(2), not one by one;
# those of the runs before it as each run ends. The same with
# AddressSanitizer: no build exits another way.
if strace_sees_pstat "the closes at exit"; then
	closes()
	{
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
			strace -qq -e trace=close -o trace "$PSTAT" -x, "$@" \
			-e "$events" -- true >out 2>err ||
			{ show_err_; fail_ "pstat $* under strace failed"; }
		grep -c '^close(' trace
	}
	one=$(closes -r 1)
	two=$(closes -r 2)
	[ "$one" -lt $n ] ||
		fail_ "$one closes at exit with $n counters: exit(2) closes them"
	expect_ge "$two" $((one + n)) "-r 2: closes of the first run's counters"
fi

# Under memcheck, everything is freed however many the counters.
# memcheck replaces no malloc in a static pstat: its twin linked
# dynamically, the same objects (tests/init.sh, require_fault_shim).
vg_pstat()
{
	if [ -x "$PROGS/pstat-dynamic" ]; then
		echo "$PROGS/pstat-dynamic"
	else
		echo "$PSTAT"
	fi
}
if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind not found: the frees under it are not checked"
elif pstat_valgrind; then
	echo "pstat already runs under valgrind: its leak check is the test"
elif pstat_asan; then
	echo "built with AddressSanitizer, whose leak check is the test"
elif ! valgrind -q --error-exitcode=99 "$(vg_pstat)" --version \
	>/dev/null 2>&1; then
	# Debian 12's valgrind 3.19 cannot read clang 14's DWARF 5.
	echo "valgrind cannot run $(vg_pstat) (its debug information?):" \
		"the frees under it are not checked"
else
	rc=0
	vg_pstat=$(vg_pstat)
	valgrind --leak-check=full --error-exitcode=99 --log-file=vg \
		"$vg_pstat" -x, -e "$events" -- true >out 2>err || rc=$?
	expect_rc 0
	grep -q 'in use at exit: 0 bytes in 0 blocks' vg ||
		{ cat vg; fail_ "memcheck: blocks in use at exit"; }
fi
