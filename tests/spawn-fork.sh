#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The two ways pstat starts its command (src/spawn.c): a child cloned
# with CLONE_VM, sharing pstat's memory until its exec, by default; a
# forked child with PSTAT_FORK set (and under valgrind, or in a build
# with AddressSanitizer). strace shows which; then the tests of what
# the child does before its exec (exec errors and their statuses,
# $PATH, signals kept and given back, privileges dropped, exact counts)
# run again on the fork path, the suite having run them on the other.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# clone_flags: the flags of the clone(2) by which pstat started its
# command, from strace, or "fork" for a fork(2) (a clone without
# CLONE_VM), in ./flags.
clone_flags()
{
	# LeakSanitizer cannot work under ptrace: none in an ASan build.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace=clone,clone3,fork,vfork -o trace \
		"$PSTAT" -x, -e task-clock -- true >out 2>err ||
		{ show_err_; fail_ "pstat under strace failed"; }
	grep -Eo 'flags=[A-Z_|]+' trace >flags || echo fork >flags
}

if strace_sees_pstat "which path runs"; then
	asan=false
	! pstat_asan || asan=true
	unset PSTAT_FORK
	clone_flags
	if $asan; then
		! grep -q CLONE_VM flags ||
			fail_ "built with AddressSanitizer, pstat cloned with CLONE_VM: $(cat flags)"
	else
		grep -q CLONE_VM flags ||
			fail_ "pstat did not clone its command with CLONE_VM: $(cat flags)"
	fi
	PSTAT_FORK=1 clone_flags
	! grep -q CLONE_VM flags ||
		fail_ "PSTAT_FORK=1: pstat cloned with CLONE_VM: $(cat flags)"
fi

# The fork path: the tests of the child, with PSTAT_FORK exported.
PSTAT_FORK=1
export PSTAT_FORK
for t in exit-exec exit-status signals-inherit signals-forward \
	 perm-caps perm-caps-environ count-writes events-exact count-self; do
	rc=0
	sh "$top_srcdir/tests/$t.sh" >"$t.log" 2>&1 || rc=$?
	echo "PSTAT_FORK=1 tests/$t.sh: status $rc"
	case $rc in
	0 | 77) ;;
	*) cat "$t.log"; fail_ "tests/$t.sh fails on the fork path" ;;
	esac
done
