#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -r and runs that do not end by themselves: --timeout stops every run,
# not the first only; a run cut short by Ctrl-C is left out of the means
# (or, when it is the only one, named as such).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse JSON"

# Each run says when it gets SIGTERM, and would sleep long without it.
: >terms
run_pstat -x, -r 3 --timeout 200 -e task-clock -- \
	sh -c 'trap "echo term >>terms; kill \$!; exit 3" TERM; sleep 30 & wait'
expect_rc 124
expect_eq "$(wc -l <terms | tr -d ' ')" 3 "-r 3 --timeout: runs stopped"

# cut_short RUNS SCRIPT: pstat -r RUNS runs sh -c SCRIPT, which appends
# a line to ./runs when it starts; once it has RUNS_BEFORE + 1 lines,
# pstat gets SIGINT, as from Ctrl-C.
cut_short()
{
	: >runs
	"$PSTAT" "$3" -r "$1" -e task-clock -- sh -c "$2" >out 2>err &
	pstat=$!
	i=0
	# Bounded only to end a hang: each run starts within milliseconds.
	while [ "$(wc -l <runs)" -le "$4" ] && [ $i -lt 400 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	kill -INT "$pstat"
	rc=0
	wait "$pstat" || rc=$?
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
