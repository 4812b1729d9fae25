#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -r and runs that do not end by themselves: --timeout stops every run,
# not the first only; a run cut short by Ctrl-C is left out of the means
# (or, when it is the only one, named as such).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse JSON"

# Each run is a sleep of this test's own ($$) that would outlast the
# guard: only --timeout, run after run, lets pstat make all three.
rc=0
timeout -s KILL 300 "$PSTAT" --format=json -r 3 --timeout 200 \
	-e task-clock -- sleep "1000.$$" >out 2>err || rc=$?
expect_rc 124
python3 - <<'EOF' || { show_err_; fail_ "-r 3 --timeout: runs stopped"; }
import json, sys
d = json.load(open("err"))
run, ev = d["run"], d["events"][0]
if run["runs"] != 3 or run["signal"] != 15 or len(ev["runs"]) != 3:
    sys.exit("runs %r, signal %r, task-clock runs %r" %
             (run["runs"], run["signal"], ev["runs"]))
EOF
if left=$(pgrep -x -f "sleep 1000\.$$"); then
	kill "$left"
	fail_ "-r 3 --timeout: a run was left running"
fi

runs_started_over() { [ "$(wc -l <runs)" -gt "$1" ]; }

# cut_short RUNS SCRIPT: pstat -r RUNS runs sh -c SCRIPT, which appends
# a line to ./runs when it starts; once it has RUNS_BEFORE + 1 lines,
# pstat gets SIGINT, as from Ctrl-C. timeout passes it on: a command
# started with & ignores SIGINT, and so would pstat and its command.
cut_short()
{
	: >runs
	timeout 300 "$PSTAT" "$3" -r "$1" -e task-clock -- sh -c "$2" \
		>out 2>err &
	pstat=$!
	started "$pstat"
	wait_until "run $(($4 + 1)) of pstat -r $1" runs_started_over "$4"
	kill -INT "$pstat"
	waited "$pstat"
}

# The first run is quick, the second sleeps and is cut short.
second_sleeps='echo x >>runs; [ "$(wc -l <runs)" -ge 2 ] && exec sleep 30; exit 0'
cut_short 5 "$second_sleeps" --format=json 1
expect_rc 130
python3 - <<'EOF' || { show_err_; fail_ "-r 5, run 2 cut short: --format=json"; }
import json, sys
d = json.load(open("err"))
run, ev = d["run"], d["events"][0]
if run["runs"] != 1 or run["interrupted"] is not True:
    sys.exit("runs %r, interrupted %r" % (run["runs"], run["interrupted"]))
if len(ev["runs"]) != 1 or ev["status"] != "counted":
    sys.exit("task-clock: %r" % ev)
EOF
cut_short 5 "$second_sleeps" -B 1
expect_rc 130
grep -q "Performance counter stats for 'sh -c .*' (1 run):" err ||
	{ show_err_; fail_ "-r 5, run 2 cut short: the title"; }
grep -q '^pstat: note: run 2 of 5 was cut short by SIGINT: it is left out of the means' err ||
	{ show_err_; fail_ "-r 5, run 2 cut short: the note"; }

# The only run is cut short: it is what there is, and says so.
cut_short 3 'echo x >>runs; exec sleep 30' -B 0
expect_rc 130
grep -q "Performance counter stats for 'sh -c .*' (1 run, cut short):" err ||
	{ show_err_; fail_ "-r 3, run 1 cut short: the title"; }
grep -Eq '^ +[0-9.]+ msec task-clock' err ||
	{ show_err_; fail_ "-r 3, run 1 cut short: no counts"; }
