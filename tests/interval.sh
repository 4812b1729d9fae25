#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -I MS: a row per event and interval, unpadded rising timestamps, deltas
# that add up to the --summary's totals, 0 (not <not counted>) while the
# command sleeps, and --interval-count N stops printing after N. The
# command waits for the test, not for a time: nothing here depends on
# how many intervals fit in a sleep.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

events=task-clock,page-faults

# The command is cat, which blocks opening a fifo until the test opens
# it too: how many intervals it lasts is up to the test, not to a sleep
# and the machine's speed.
mkfifo fifo || framework_failure_ "mkfifo failed"

# start_pstat ARGS...: pstat ARGS -- cat fifo in the background.
start_pstat()
{
	"$PSTAT" "$@" -- cat fifo >out 2>err &
	pstat=$!
	# Should the test end early, pstat passes the TERM on to cat.
	started "$pstat"
}

# Lets cat go (a read-write open never waits), and waits for pstat.
release()
{
	: <>fifo
	waited "$pstat"
}

# The interval rows so far: those with 8 fields, a time first.
intervals_so_far()
{
	csv_rows | awk -F, 'NF == 8 && $4 == "task-clock"' | wc -l
}
have_intervals() { [ "$(intervals_so_far)" -ge "$1" ]; }

# cat sleeps in the open of the fifo, waiting for a writer: it does
# nothing until released.
cat_blocked()
{
	child=$(pgrep -P "$pstat" -x cat) && sleeping_in "$child" '*partner*'
}

start_pstat -x, -I 100 --summary --no-csv-summary -e $events
wait_until "cat under pstat blocked on the fifo" cat_blocked
# An interval that starts after this is spent asleep: the (m+1)th may
# have ended before it and be printed after, so the (m+3)th.
asleep=$(($(intervals_so_far) + 3))
wait_until "$asleep intervals" have_intervals "$asleep"
release
expect_rc 0
grep -q 'not counted' err && { show_err_; fail_ "-I: <not counted> rows"; }

# Interval rows: 8 fields, the timestamp first; the summary, without its
# 'summary' field (tests/output-csv-summary.sh): 7, none.
csv_rows | awk -F, 'NF == 8' >intervals
csv_rows | awk -F, 'NF == 7' >summary
expect_eq "$(csv_rows | wc -l)" \
	"$(($(wc -l <intervals) + $(wc -l <summary)))" "-I: rows of 7 or 8 fields"
expect_eq "$(cut -d, -f3 <summary | tr '\n' ' ')" "task-clock page-faults " \
	"--summary rows"
expect_eq "$(csv_rows | tail -n 2 | cut -d, -f3 | tr '\n' ' ')" \
	"task-clock page-faults " "--summary rows come last"

bad=$(cut -d, -f1 intervals | grep -Ev '^[0-9]+\.[0-9]{9}$' || true)
[ -z "$bad" ] || { show_err_; fail_ "-I: bad timestamps: $bad"; }
# Each interval has both events, under one timestamp, in order.
awk -F, 'NR % 2 == 1 && $4 != "task-clock" { exit 1 }
	NR % 2 == 0 && ($4 != "page-faults" || $1 != t) { exit 1 }
	{ t = $1 }' intervals ||
	{ show_err_; fail_ "-I: not a task-clock and a page-faults row per interval"; }
# Rising, as numbers, one per interval.
cut -d, -f1 intervals | uniq >stamps
sort -n -u stamps | cmp -s - stamps ||
	{ show_err_; fail_ "-I: timestamps not rising"; }
expect_ge "$(wc -l <stamps)" "$asleep" "-I: intervals"

# The deltas add up to the totals of the same run: page faults, and the
# nanoseconds each counter ran.
sum_of() # EVENT FIELD: the sum of FIELD over EVENT's interval rows
{
	awk -F, -v ev="$1" -v k="$2" '$4 == ev { s += $k }
		END { printf "%d\n", s }' intervals
}
total_of() # EVENT FIELD
{
	awk -F, -v ev="$1" -v k="$2" '$3 == ev { print $k }' summary
}
expect_eq "$(sum_of page-faults 2)" "$(total_of page-faults 1)" \
	"-I: page-faults of the intervals vs the summary"
expect_eq "$(sum_of page-faults 5)" "$(total_of page-faults 4)" \
	"-I: page-faults run time of the intervals vs the summary"
expect_eq "$(sum_of task-clock 5)" "$(total_of task-clock 4)" \
	"-I: task-clock run time of the intervals vs the summary"

# While cat sleeps, nothing happens: exact zeros.
sed -n "$((2 * asleep - 1)),$((2 * asleep))p" intervals >asleep
grep -Eq '^[0-9.]+,0,,page-faults,0,' asleep ||
	{ show_err_; fail_ "-I: interval $asleep, asleep: page-faults not 0"; }
grep -Eq '^[0-9.]+,0\.00,msec,task-clock,0,' asleep ||
	{ show_err_; fail_ "-I: interval $asleep, asleep: task-clock not 0.00 msec"; }

# Without --summary, no totals.
run_pstat -x, -I 100 -e $events -- sleep 0.15
expect_rc 0
expect_eq "$(csv_rows | awk -F, 'NF != 8' | wc -l)" 0 "-I without --summary"

# --interval-count 2: two intervals, then nothing more, though the
# interval timer fires again (its ticks go unread) and the command runs
# on.
timer_fired_unread()
{
	for fd in /proc/"$pstat"/fd/*; do
		[ "$(readlink "$fd" 2>/dev/null)" = 'anon_inode:[timerfd]' ] ||
			continue
		awk '$1 == "ticks:" && $2 > 0 { found = 1 }
			END { exit !found }' "/proc/$pstat/fdinfo/${fd##*/}" &&
			return 0
	done
	return 1
}
start_pstat -x, -I 100 --interval-count 2 -e $events
wait_until "2 intervals" have_intervals 2
wait_until "pstat's interval timer firing unread" timer_fired_unread
release
expect_rc 0
expect_eq "$(csv_rows | wc -l)" 4 "--interval-count 2: rows"
expect_eq "$(csv_rows | cut -d, -f1 | uniq | wc -l)" 2 \
	"--interval-count 2: timestamps"

# Human: the column titles once, then timestamped rows.
run_pstat -I 100 -e $events -- sleep 0.25
expect_rc 0
expect_eq "$(grep -c '^# *time  *counts unit events$' err)" 1 "-I: titles"
grep -Eq '^ +[0-9]+\.[0-9]{9} +[0-9]+\.[0-9]{2} msec task-clock' err ||
	{ show_err_; fail_ "-I: no timestamped task-clock row"; }
grep -q 'Performance counter stats' err &&
	{ show_err_; fail_ "-I without --summary printed the totals"; }
exit 0
