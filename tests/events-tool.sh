#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# perf's tool events, which pstat counts itself: duration_time,
# user_time and system_time, in nanoseconds as perf has them, in every
# output format; duration_time is the elapsed time, user_time and
# system_time the command's rusage, and -I's intervals add up to the
# total.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
tools=duration_time,user_time,system_time

# -x: perf's columns, unit ns, the value its own run time.
run_pstat -x, -e $tools -- "$PROGS/writer" 1000
expect_rc 0
[ "$(csv_events)" = "duration_time user_time system_time" ] ||
	{ show_err_; fail_ "-x: events $(csv_events)"; }
csv_rows | awk -F, '$2 != "ns" || $1 != $4 || $5 != "100.00" { bad = 1 }
	END { exit bad }' || { show_err_; fail_ "-x: not value,ns,...,value,100.00"; }

# perf's units, where perf is here.
if command -v perf >/dev/null 2>&1 &&
	perf stat -x, -e $tools true 2>perf.err; then
	theirs=$(awk -F, '{ print $2, $3 }' perf.err)
	ours=$(csv_rows | awk -F, '{ print $2, $3 }')
	[ "$theirs" = "$ours" ] ||
		fail_ "units and names: perf has '$theirs', pstat '$ours'"
fi

# Human output: ns, and no metric made of them.
run_pstat -e $tools -- true
expect_rc 0
for e in duration_time user_time system_time; do
	grep -q "^ *[0-9][0-9,]* ns   $e *\$" err ||
		{ show_err_; fail_ "human output: no '... ns   $e' alone"; }
done

# -j: unit ns.
run_pstat -j -e $tools -- true
expect_rc 0
[ "$(grep -c '"unit": "ns"' err)" = 3 ] ||
	{ show_err_; fail_ "-j: not three events in ns"; }

# pstat's own formats: duration_time is the elapsed time and user_time
# and system_time the command's, to the microsecond rusage has.
run_pstat --format=json -e $tools -- "$PROGS/writer" 20000
expect_rc 0
python3 - err <<'PY' || { show_err_; fail_ "--format=json: not the run's times"; }
import json, sys
doc = json.load(open(sys.argv[1]))
ev = {e["event"]: e for e in doc["events"]}
run = doc["run"]
assert all(ev[n]["unit"] == "ns" and ev[n]["status"] == "counted"
           for n in ("duration_time", "user_time", "system_time")), ev
assert abs(ev["duration_time"]["value"] - run["elapsed_s"] * 1e9) < 1000, (ev, run)
assert abs(ev["user_time"]["value"] - run["user_s"] * 1e9) < 1000, (ev, run)
assert abs(ev["system_time"]["value"] - run["sys_s"] * 1e9) < 1000, (ev, run)
assert ev["duration_time"]["value"] > 0
PY
run_pstat --format=csv -e duration_time -- true
expect_rc 0
grep -q '^total,,,,duration_time,[0-9]*,ns,counted,' err ||
	{ show_err_; fail_ "--format=csv: no duration_time in ns"; }

# Intervals: durations that add up to the summary's total.
run_pstat -I 100 --summary -x, -e duration_time -- sleep 0.3
expect_rc 0
awk -F, '$1 == "summary" { total = $2; next } { sum += $2; n++ }
	END { exit !(n >= 2 && sum == total && total > 0) }' err ||
	{ show_err_; fail_ "-I: the intervals do not add up to the total"; }

# --list and --explain say what they are.
run_pstat --list duration_time
grep -q '^Tool events:' out && grep -q 'duration_time .*ns' out ||
	{ cat out; fail_ "--list: no tool event duration_time"; }
run_pstat --explain -e user_time
grep -q 'a tool event' out || { cat out; fail_ "--explain: not a tool event"; }
