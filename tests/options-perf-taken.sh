#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Options perf stat 6.1 takes are taken, with perf's meaning (issue 31):
# -D 0 is no delay, -D delays every run of -r, -r repeats counting
# without a command (-a, -p), --pre and --post as well, --summary and
# --interval-clear without -I do nothing; --interval-count without -I
# is refused, as perf does.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# -D 0: counting from the exec, as without -D.
run_pstat -x, -D 0 -e page-faults -- true
expect_rc 0
expect_number "$(csv_value page-faults)" "-D 0"

# -D with -r: every run waits. A delay of a day outlives each run's
# command, so no run counted: one run counted would make a mean.
run_pstat -x, -r 2 -D 86400000 -e page-faults -- true
expect_rc 0
expect_eq "$(csv_value page-faults)" "<not counted>" "-D with -r"
run_pstat -r 2 -D 0 -e page-faults -- true
expect_rc 0
grep -q "^ Performance counter stats for 'true' (2 runs):" err ||
	{ show_err_; fail_ "-D 0 -r 2: not 2 runs"; }

# -r without a command: each run counts until --timeout.
run_pstat -r 2 -a --timeout 50 -e task-clock
expect_rc 0
grep -q "^ Performance counter stats for 'system wide' (2 runs):" err ||
	{ show_err_; fail_ "-r 2 -a: not 2 runs"; }
sleep 60 &
pid=$!
started $pid
run_pstat -r 2 -p $pid --timeout 50 -e task-clock
expect_rc 0
grep -q "^ Performance counter stats for process id '$pid' (2 runs):" err ||
	{ show_err_; fail_ "-r 2 -p: not 2 runs"; }

# --pre and --post around each run without a command, too.
run_pstat -r 2 -a --timeout 50 --pre 'echo pre >>steps' \
	--post 'echo post >>steps' -e task-clock
expect_rc 0
expect_eq "$(cat steps)" "pre
post
pre
post" "--pre and --post with -r 2 -a"

# --summary and --interval-clear without -I: the output of neither.
run_pstat -x, -e page-faults -- true
expect_rc 0
want=$(csv_rows | awk -F, "{ print NF, \$2, \$3 }")
for opt in --summary --interval-clear; do
	run_pstat -x, $opt -e page-faults -- true
	expect_rc 0
	expect_eq "$(csv_rows | awk -F, "{ print NF, \$2, \$3 }")" "$want" "$opt without -I"
done
run_pstat --interval-clear -e page-faults -- true
expect_rc 0
grep -q "$(printf '\033')" err && { show_err_; fail_ "a clear without -I"; }

# perf refuses this one too.
expect_refused_saying "--interval-count goes with -I MS" --interval-count 2
exit 0
