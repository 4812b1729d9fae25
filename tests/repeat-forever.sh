#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs around the runs (issue 14): -r 0 until SIGINT, --table (perf's
# layout), --pre and --post (not counted, their failure said), and
# --interval-clear.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse JSON"

w=syscalls:sys_enter_write

# -r 0: runs 1 to 3 write 10 times; the fourth sleeps and is cut short
# by SIGINT (through timeout: a command started with & ignores SIGINT).
# The runs are counted in files, not lines: nothing but writer writes.
fourth_sleeps='touch runs.$$; set -- runs.*; [ $# -ge 4 ] && exec sleep 30'
fourth_sleeps="$fourth_sleeps; exec $PROGS/writer 10"
runs_started_over() { n_=$1; set -- runs.*; [ $# -gt "$n_" ]; }
rm -f runs.*
timeout 300 "$PSTAT" --format=json -r 0 -e $w -- sh -c "$fourth_sleeps" \
	>out 2>err &
pstat=$!
started "$pstat"
wait_until "run 4 of pstat -r 0" runs_started_over 3
kill -INT "$pstat"
waited "$pstat"
expect_rc 130
python3 - <<'EOF' || { show_err_; fail_ "-r 0 then SIGINT: --format=json"; }
import json, sys
d = json.load(open("err"))
run, ev = d["run"], d["events"][0]
if run["runs"] != 3 or run["interrupted"] is not True:
    sys.exit("runs %r, interrupted %r" % (run["runs"], run["interrupted"]))
if ev["runs"] != [10, 10, 10] or ev["mean"] != 10:
    sys.exit("writes %r, mean %r" % (ev["runs"], ev["mean"]))
EOF
# The human title, and the note of the run left out.
rm -f runs.*
timeout 300 "$PSTAT" -r 0 -e $w -- sh -c "$fourth_sleeps" >out 2>err &
pstat=$!
started "$pstat"
wait_until "run 4 of pstat -r 0" runs_started_over 3
kill -INT "$pstat"
waited "$pstat"
expect_rc 130
grep -q "^ Performance counter stats for 'sh -c .*' (3 runs):" err ||
	{ show_err_; fail_ "-r 0: no '(3 runs)' title"; }
grep -q '^pstat: note: run 4 was cut short by SIGINT' err ||
	{ show_err_; fail_ "-r 0: no note of run 4"; }
grep -Eq '^ +10 +syscalls:sys_enter_write' err ||
	{ show_err_; fail_ "-r 0: not 10 writes"; }

# -r 0 keeps each run's statistics, not its values (pstat 0.2.5 kept
# 9 bytes an event a run, and with 500 events grew 2 MiB in the 500
# runs between the two looks here): memory does not grow with the runs.
# Not under valgrind or AddressSanitizer, whose memory is not pstat's. SIGTERM: a command
# started with & ignores SIGINT, and timeout would be the pid to watch.
rss() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$1/status"; }
events=$(awk 'BEGIN { for (i = 0; i < 250; i++)
	printf "%stask-clock,page-faults", i ? "," : "" }')
rm -f runs.*
if ! pstat_valgrind && ! pstat_asan; then
	"$PSTAT" -r 0 -e "$events" -- sh -c 'touch runs.$$' >out 2>err &
	pstat=$!
	started "$pstat"
	wait_until "100 runs of pstat -r 0" runs_started_over 100
	before=$(rss "$pstat")
	wait_until "600 runs of pstat -r 0" runs_started_over 600
	after=$(rss "$pstat")
	kill -TERM "$pstat"
	waited "$pstat"
	expect_rc 143
	[ $((after - before)) -lt 512 ] ||
		fail_ "-r 0: resident memory grew from $before to $after KiB in 500 runs"
	grep -Eq '^ +[0-9.]+ +msec +task-clock' err ||
		{ show_err_; fail_ "-r 0, 500 events: no task-clock mean"; }
	rm -f runs.*
fi

# --table: perf's layout, a line a run, indented as the mean.
table_shape()
{
	awk '/# Table of individual measurements:/ { t = 1; ind = index($0, "#"); next }
	     /# Final result:/ { f = index($0, "#"); t = 0; next }
	     t && /^ +[0-9]+\.[0-9]+ \([+-][0-9]+\.[0-9]+\) #+$/ { n++ }
	     f && /seconds time elapsed/ {
		match($0, /^ */); m = RLENGTH + 1; f = 0 }
	     END { print n + 0, (ind == m && m > 1) ? "aligned" : "not aligned" }' "$1"
}
run_pstat -r 3 --table -e $w -- "$PROGS/writer" 5
expect_rc 0
expect_eq "$(table_shape err)" "3 aligned" "--table"
if command -v perf >/dev/null 2>&1 &&
   perf stat -e task-clock -- true >/dev/null 2>&1; then
	perf stat -r 3 --table -e $w -- "$PROGS/writer" 5 2>perf.txt ||
		fail_ "perf stat --table failed"
	expect_eq "$(table_shape perf.txt)" "3 aligned" "perf's --table"
fi
run_pstat -r 3 -e $w -- "$PROGS/writer" 5
grep -q 'Table of' err && { show_err_; fail_ "a table without --table"; }

# --pre and --post: each run's, in order, and not counted.
# Each says how many runs began before it (a file each: no write).
made='$(ls | grep -c "^ran\.")'
run_pstat -x, -r 3 --pre "echo pre $made >>log; $PROGS/writer 1000" \
	--post "echo post $made >>log; $PROGS/writer 1000" -e $w -- \
	sh -c "touch ran.\$\$; exec $PROGS/writer 10"
expect_rc 0
expect_eq "$(tr '\n' ' ' <log)" \
	"pre 0 post 1 pre 1 post 2 pre 2 post 3 " "--pre, --post: order"
expect_eq "$(csv_value $w)" 10 "--pre, --post: writes counted"
# A failing --pre before run 2: run 1's results, said, 125 (the
# results in a file of their own: on stderr, -x carries nothing else,
# as tests/late-failure.sh checks).
rm -f log
run_pstat -x, -o res.csv -r 3 \
	--pre 'echo x >>log; [ "$(wc -l <log)" -lt 2 ]' -e $w -- "$PROGS/writer" 10
expect_rc 125
expect_eq "$(awk -F, -v ev=$w '$3 == ev { print $1 }' res.csv)" 10 \
	"failed --pre: run 1's writes"
expect_eq "$(grep -c '^pstat: ' err)" 1 "failed --pre: pstat: lines"
grep -q "^pstat: --pre '.*' exited with status 1 before run 2, so no more runs were made\$" err ||
	{ show_err_; fail_ "failed --pre: the message"; }
# Before the first run: nothing was counted, no results.
run_pstat -r 2 --pre 'exit 3' -e $w -- touch ran
expect_rc 125
[ -e ran ] && fail_ "failed --pre: the command ran"
expect_eq "$(cat err)" \
	"pstat: --pre 'exit 3' exited with status 3 before run 1, so nothing was counted" \
	"failed first --pre"
# A failing --post after the last run: the results, and the message.
run_pstat -x, -o res.csv --post 'kill -TERM $$' -e $w -- "$PROGS/writer" 4
expect_rc 125
expect_eq "$(awk -F, -v ev=$w '$3 == ev { print $1 }' res.csv)" 4 \
	"failed --post: writes"
grep -q "^pstat: --post 'kill -TERM \$\$' was killed by SIGTERM after run 1" err ||
	{ show_err_; fail_ "failed --post: the message"; }

# --interval-clear: each interval on a cleared screen, under its titles.
run_pstat -I 100 --interval-count 3 --interval-clear -e $w -- sleep 1
expect_rc 0
clears=$(grep -c "$(printf '\033')\\[H$(printf '\033')\\[2J#  *time" err)
expect_eq "$clears" 3 "--interval-clear: cleared titles"
run_pstat -I 100 --interval-count 3 -e $w -- sleep 1
grep -q "$(printf '\033')" err && { show_err_; fail_ "a clear without --interval-clear"; }
exit 0
