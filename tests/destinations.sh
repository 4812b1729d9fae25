#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Where the results go: stderr, -o FILE (only the results), --append,
# --log-fd N; a write that fails or a destination that cannot be opened
# is pstat's failure, 125, with a message.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# expect_failure WHAT PATTERN: rc 125 and a pstat: line matching PATTERN.
expect_failure()
{
	expect_rc 125
	grep -q "^pstat: .*$2" err ||
		{ show_err_; fail_ "$1: no 'pstat: ...$2' message"; }
}

# -o FILE: the results, and nothing else, go to FILE. cycles makes a
# note here (no PMU) and the command writes to both its streams.
# The arithmetic keeps the command's words out of its output.
# shellcheck disable=SC2016
run_pstat -o res -e task-clock,cycles -- sh -c 'echo o$((1+1)); echo e$((1+2)) >&2'
expect_rc 0
grep -q 'Performance counter stats for' res || fail_ "-o: no results in the file"
grep -q 'seconds time elapsed' res || fail_ "-o: no footer in the file"
grep -q -e '^pstat:' -e '^o2$' -e '^e3$' res &&
	{ cat res; fail_ "-o: the file holds more than the results"; }
grep -q -e 'task-clock' -e 'time elapsed' out err &&
	{ show_err_; fail_ "-o: results on stdout or stderr as well"; }
expect_eq "$(cat out)" o2 "-o: the command's stdout"
grep -q '^e3$' err || { show_err_; fail_ "-o: the command's stderr"; }
if have_hw_pmu; then
	! grep -q '^pstat: note: no hardware PMU' err ||
		{ show_err_; fail_ "-o: a no-PMU note with a PMU"; }
else
	grep -q '^pstat: note: ' err || { show_err_; fail_ "-o: the note"; }
fi

# A killed command: the message is on stderr, the counts in the file.
run_pstat -o res -x, -e task-clock -- sh -c 'kill -9 $$'
expect_rc 137
grep -q '^pstat: .*signal 9' err || { show_err_; fail_ "-o: no signal message"; }
grep -q '^pstat:' res && { cat res; fail_ "-o: a message in the file"; }
grep -q ',task-clock,' res || { cat res; fail_ "-o: no counts when killed"; }

# -o truncates; --append adds a second block.
echo old >res
run_pstat -o res -x, -e task-clock -- true
expect_rc 0
expect_eq "$(wc -l <res)" 1 "-o truncates"
run_pstat -o res --append -x, -e task-clock -- true
expect_rc 0
expect_eq "$(grep -c ',task-clock,' res)" 2 "--append: two result rows"
run_pstat --output=res --append -e task-clock -- true
expect_rc 0
expect_eq "$(grep -c 'Performance counter stats' res)" 1 "--append: human"
expect_eq "$(grep -c 'task-clock' res)" 3 "--append: three blocks"

# --log-fd N: the results on descriptor N, appended to what it holds.
echo first >log
rc=0
"$PSTAT" --log-fd 3 -x, -e task-clock -- true 3>>log >out 2>err || rc=$?
expect_rc 0
expect_eq "$(head -n 1 log)" first "--log-fd: what the descriptor held"
grep -q ',task-clock,' log || { cat log; fail_ "--log-fd 3: no results"; }
[ -s err ] && { show_err_; fail_ "--log-fd 3: something on stderr"; }

# Failures: a closed descriptor, a directory that does not exist (before
# the command runs), --append without -o. (A full disk:
# destinations-full.sh.)
rc=0
"$PSTAT" --log-fd 9 -e task-clock -- true >out 2>err 9>&- || rc=$?
expect_failure "--log-fd 9, closed" "descriptor 9"
# stderr itself closed: pstat cannot say why, but its status does.
rc=0
"$PSTAT" -x, -e task-clock -- true >out 2>&- || rc=$?
expect_rc 125

expect_refused -o no/such/dir/res -e task-clock
expect_failure "-o into a missing directory" "no/such/dir/res"
expect_refused -o . -e task-clock
expect_failure "-o into a directory" "'\\.'"

expect_refused --append -e task-clock
expect_failure "--append without -o" "--append"
expect_refused -o res --log-fd 2 -e task-clock
expect_failure "-o with --log-fd" "--log-fd"
exit 0
