#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Without a command, -a or not, pstat counts the whole machine as perf
# stat does; counting ends as asked (the last interval, --timeout,
# SIGINT, SIGTERM) with status 0, and a refused open ends pstat at once
# with status 125.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# The counts of the whole machine need root or a low paranoia level.
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
[ "$(id -u)" = 0 ] || [ "$paranoid" -le 0 ] ||
	skip_ "counting whole CPUs needs root or perf_event_paranoid <= 0"

# The perf_event descriptors of the pstat that process $1 (timeout) runs.
perf_fds()
{
	n=0
	for fd in /proc/"$(pgrep -P "$1")"/fd/*; do
		case $(readlink "$fd" 2>/dev/null) in
		*perf_event*) n=$((n + 1)) ;;
		esac
	done
	echo "$n"
}

# run_bounded ARGS...: run_pstat with timeout's 124 for a pstat that
# would not end by itself.
run_bounded()
{
	rc=0
	timeout 60 "$PSTAT" "$@" >out 2>err || rc=$?
	[ "$rc" != 124 ] || { show_err_; fail_ "'pstat $*' did not end"; }
}

# No command, no target: whole CPUs, ended by the last interval. Exactly
# two intervals, each a row of 8 fields for task-clock.
run_bounded -x, -I 100 --interval-count 2 -e task-clock
expect_rc 0
expect_eq "$(csv_rows | wc -l | tr -d ' ')" 2 "-I --interval-count 2: rows"
expect_eq "$(csv_rows | awk -F, 'NF == 8 && $4 == "task-clock"' |
	cut -d, -f1 | sort -u | wc -l | tr -d ' ')" 2 \
	"-I --interval-count 2: task-clock rows of two intervals"

# ...and they are the whole machine's: a row for each online CPU with -A,
# and perf's title.
cpus=$(getconf _NPROCESSORS_ONLN)
run_bounded -x, -A -I 100 --interval-count 1 -e task-clock
expect_rc 0
expect_eq "$(csv_rows | grep -c '^[0-9.]*,CPU[0-9]*,')" "$cpus" \
	"-A: CPU rows of one interval"
run_bounded -I 100 --interval-count 1 --summary -e task-clock
expect_rc 0
grep -q "Performance counter stats for 'system wide':" err ||
	{ show_err_; fail_ "no 'system wide' title"; }

# --timeout ends it with 0, not 124: there is no command to stop.
run_bounded -x, --timeout 100 -e task-clock
expect_rc 0
expect_number "$(csv_value task-clock)" "--timeout: task-clock"

# SIGINT and SIGTERM end it with the totals and 0, once it counts.
for sig in INT TERM; do
	timeout 60 "$PSTAT" -x, -e task-clock >out 2>err &
	bounded=$!
	i=0
	while [ "$(perf_fds "$bounded")" -lt "$cpus" ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	kill -"$sig" "$(pgrep -P "$bounded")"
	rc=0
	wait "$bounded" || rc=$?
	[ "$rc" != 124 ] || { show_err_; fail_ "SIG$sig did not end it"; }
	expect_rc 0
	expect_number "$(csv_value task-clock)" "SIG$sig: task-clock"
done

# As nobody where whole CPUs need privileges: the refusal, not a wait
# for a signal that nobody sends (timeout stands in for it: 124).
if [ "$(id -u)" = 0 ] && [ "$paranoid" -gt 0 ] &&
   command -v setpriv >/dev/null 2>&1; then
	cp "$PSTAT" ./pstat || framework_failure_ "cannot copy pstat"
	for args in "-a -e task-clock" "-a -I 100 -e task-clock" \
		    "-e task-clock"; do
		rc=0
		# shellcheck disable=SC2086 # $args are words on purpose
		timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups \
			./pstat $args >out 2>err || rc=$?
		[ "$rc" != 124 ] ||
			fail_ "nobody: 'pstat $args' waited after its refusal"
		expect_rc 125
		grep -q '^pstat: task-clock: permission denied: .*whole CPUs' err ||
			{ show_err_; fail_ "nobody: 'pstat $args': no message"; }
	done
else
	echo "not root, no setpriv, or nobody may count whole CPUs here:" \
	     "refusals not tried"
fi
exit 0
