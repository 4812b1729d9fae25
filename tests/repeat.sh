#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -r N: the mean of N runs and its spread; a run that fails is named, and
# the first failing run's status is pstat's. (Exact counts: repeat-exact.sh.)

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# The human layout: "(5 runs)" in the title, "( +- x.xx% )" after each
# counted value and the mean elapsed time with its spread.
run_pstat -r 5 -e task-clock,page-faults -- "$PROGS/touch_pages" 100
expect_rc 0
grep -q "^ Performance counter stats for '$PROGS/touch_pages 100' (5 runs):\$" \
	err || { show_err_; fail_ "-r 5: no '(5 runs)' in the title"; }
for ev in task-clock page-faults; do
	grep -Eq " $ev .*\\( \\+- +[0-9]+\\.[0-9]{2}% \\)\$" err ||
		{ show_err_; fail_ "-r 5: no '( +- x.xx% )' after $ev"; }
done
grep -Eq '^ +[0-9]+\.[0-9]+ \+- [0-9]+\.[0-9]+ seconds time elapsed  \( \+- +[0-9]+\.[0-9]{2}% \)$' \
	err || { show_err_; fail_ "-r 5: no mean elapsed time with its spread"; }

# Runs 2 and 4 of 5 fail: every run still runs, each failure is named,
# and pstat exits with the status of run 2.
cat >flaky <<'EOF'
#!/bin/sh
n=$(($(cat count 2>/dev/null || echo 0) + 1))
echo "$n" >count
case $n in
2) exit 7 ;;
4) exit 9 ;;
esac
exit 0
EOF
chmod +x flaky
run_pstat -r 5 -e task-clock -- ./flaky
expect_rc 7
expect_eq "$(cat count)" 5 "runs made"
grep -q "^pstat: .*run 2 of 5.*status 7" err ||
	{ show_err_; fail_ "-r 5: run 2's failure not reported"; }
grep -q "^pstat: .*run 4 of 5.*status 9" err ||
	{ show_err_; fail_ "-r 5: run 4's failure not reported"; }
grep -q "run [135] of 5" err &&
	{ show_err_; fail_ "-r 5: a run that succeeded reported as failed"; }
grep -q '(5 runs)' err || { show_err_; fail_ "-r 5: no counts printed"; }

# With -r 1 a failing command is the command's business: no note.
rm -f count
run_pstat -r 1 -e task-clock -- sh -c 'exit 4'
expect_rc 4
grep -q 'run 1 of' err && { show_err_; fail_ "-r 1: a run note"; }

# Each run closes what it opened: 20 runs under a limit of 40
# descriptors, which 3 left open by every run would pass (valgrind keeps
# 12 of the 40 for itself).
rc=0
(ulimit -n 40 && "$PSTAT" -r 20 -x, -e task-clock -- true) >out 2>err || rc=$?
expect_rc 0
expect_number "$(csv_value task-clock)" "-r 20 under ulimit -n 40: task-clock"
exit 0
