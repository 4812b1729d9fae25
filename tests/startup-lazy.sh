#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pstat loads at start-up only what the command line needs. A locale
# only for the human layout, and only when the locale's numbers are not
# C's: under C, POSIX, C.UTF-8 or no locale at all, and for every
# machine format, it opens no locale file (the archive, locale.alias,
# the gconv cache). libcap, unless linked in (a static pstat), only
# where capabilities are printed or a privileged pstat opens a file:
# not to count. strace shows the opens. And the clock, read a few times
# in one run, by system call: the vDSO's first read costs two page
# faults, many system calls' time (-r and -I, reading it often, use it);
# the wall clock only for pstat's own formats. And no system call that
# tells pstat nothing: the signals blocked once, each read of a run
# answered with data, no getresuid(2) or getresgid(2) (the ids pstat
# was started with are in its auxiliary vector).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
command -v strace >/dev/null 2>&1 || skip_ "strace not found"
! pstat_valgrind ||
	skip_ "pstat runs under valgrind, whose own opens strace would see"
# LeakSanitizer cannot work under ptrace: none in an ASan build.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS

# opens LANG ARGS...: pstat's opens of locale files, with LANG set to
# LANG ("" unset) and no LC_ALL or LC_NUMERIC, in ./opens.
opens()
{
	lang=$1
	shift
	rc=0
	if [ -n "$lang" ]; then
		env -u LC_ALL -u LC_NUMERIC -u LOCPATH LANG="$lang" \
			strace -qq -e trace=open,openat -o trace \
			"$PSTAT" "$@" -e task-clock -- true >out 2>err || rc=$?
	else
		env -u LC_ALL -u LC_NUMERIC -u LOCPATH -u LANG \
			strace -qq -e trace=open,openat -o trace \
			"$PSTAT" "$@" -e task-clock -- true >out 2>err || rc=$?
	fi
	expect_rc 0
	grep -E 'locale|gconv' trace >opens || :
}

for lang in C.UTF-8 C.utf8 C POSIX ""; do
	opens "$lang"
	[ ! -s opens ] ||
		{ cat opens; fail_ "LANG=${lang:-(unset)}: a locale file opened"; }
	grep -q 'task-clock' err || { show_err_; fail_ "LANG=$lang: no results"; }
done

# A locale that is not C's (installed or not, the C library looks),
# for the human layout only.
opens xx_YY.UTF-8
[ -s opens ] || fail_ "LANG=xx_YY.UTF-8: no locale file looked for"
for fmt in -x, -j --format=csv --format=json; do
	opens xx_YY.UTF-8 "$fmt"
	[ ! -s opens ] || { cat opens; fail_ "$fmt: a locale file opened"; }
done

# libcap: not to count, but for --check; a static pstat has it linked.
opens "" -x,
dynamic=false
grep -q 'libc\.so' trace && dynamic=true
grep -E 'libcap' trace && fail_ "libcap loaded to count a command"
strace -qq -e trace=open,openat -o trace "$PSTAT" --check >out 2>err || :
if $dynamic; then
	grep -q 'libcap' trace || { cat out; fail_ "--check: libcap not loaded"; }
fi
grep -q 'capabilities' out || { cat out; fail_ "--check: no capabilities line"; }

# clock_gettime(2) by system call in one run, where strace sees it (the
# vDSO's reads it does not).
strace -f -qq -e trace=clock_gettime -o trace "$PSTAT" -x, -e task-clock \
	-- true >out 2>err || { show_err_; fail_ "pstat -x, failed"; }
n=$(grep -c clock_gettime trace) || :
[ "$n" -ge 2 ] || { cat trace; fail_ "one run: $n clock_gettime calls"; }
if grep -q CLOCK_REALTIME trace; then
	cat trace
	fail_ "-x,: the wall clock read, which no column shows"
fi
# --format=csv's run record has the start: the wall clock, once.
strace -f -qq -e trace=clock_gettime -o trace "$PSTAT" --format=csv \
	-e task-clock -- true >out 2>err ||
	{ show_err_; fail_ "pstat --format=csv failed"; }
n=$(grep -c CLOCK_REALTIME trace) || :
[ "$n" = 1 ] || { cat trace; fail_ "--format=csv: $n wall clock reads"; }

# pstat's own system calls (not its child's): the signals it passes on
# blocked once; after that, pstat's first act in main, no read that
# finds nothing, neither the signalfd's second (EAGAIN: one read takes
# every pending signal) nor the empty exec-error pipe's of a command
# that exited 0 (before main, a sanitizer's run-time reads files of
# its own to their ends). Its ids, from the auxiliary vector.
strace -qq -e trace=read,rt_sigprocmask,getresuid,getresgid \
	-o trace "$PSTAT" -x, -e task-clock -- true >out 2>err ||
	{ show_err_; fail_ "pstat failed"; }
if grep -E '^getres[ug]id' trace; then
	fail_ "the ids asked of the kernel, which the auxiliary vector has"
fi
n=$(grep -c '^rt_sigprocmask(SIG_BLOCK' trace) || :
[ "$n" = 1 ] || { cat trace; fail_ "the signals blocked $n times"; }
if awk '/^rt_sigprocmask\(SIG_BLOCK/ { main = 1 }
	main && /^read\(.*\) += (0|-1)/ { print; found = 1 }
	END { exit !found }' trace; then
	cat trace
	fail_ "a read that found nothing"
fi
