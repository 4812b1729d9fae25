#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# MetricThreshold, from a table made here whose formulas read
# tracepoints that count exactly: as perf 6.12 shows it, the value green
# (threshold 0) or red (not 0) in the human layout on a terminal, and
# nowhere else; "good" or "bad" in --format; --metric-no-threshold and
# NO_COLOR turn the colours off. A threshold naming a metric not asked
# for evaluates it; one naming what the run did not count has none.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracepoints syscalls/sys_enter_getppid syscalls/sys_enter_getuid
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse JSON"

mkdir -p t/arch/x86/thr || framework_failure_ "cannot make t/"
printf '%s\n' 'Family-model,Version,Filename,EventType' \
	'Test-1-2-3,v1,thr,core' >t/arch/x86/mapfile.csv
ppid=syscalls:sys_enter_getppid
uid=syscalls:sys_enter_getuid
# m_hi is 2.5, m_lo 0.4; m_ref's threshold reads m_other (10 - 4 = 6),
# which -M does not ask for; m_none's reads an event nothing counts.
cat >t/arch/x86/thr/metrics.json <<EOF2
[
 {"MetricName": "m_hi", "MetricExpr": "$ppid / $uid",
  "MetricGroup": "thr", "MetricThreshold": "m_hi > 2"},
 {"MetricName": "m_lo", "MetricExpr": "$uid / $ppid",
  "MetricGroup": "thr", "MetricThreshold": "m_lo > 2"},
 {"MetricName": "m_ref", "MetricExpr": "$uid + $ppid",
  "MetricGroup": "thr", "MetricThreshold": "m_other > 5 & m_ref > 1"},
 {"MetricName": "m_other", "MetricExpr": "$ppid - $uid"},
 {"MetricName": "m_none", "MetricExpr": "$ppid",
  "MetricGroup": "thr", "MetricThreshold": "syscalls:sys_enter_unshare > 1"}
]
EOF2
PSTAT_PMU_EVENTS=$PWD/t PERF_CPUID=Test-1-2-3
export PSTAT_PMU_EVENTS PERF_CPUID
prog="$PROGS/syscalls getppid=10 getuid=4"

cat >pjson.py <<'EOF2'
import json, sys

doc = json.load(open(sys.argv[1]))
for e in doc["events"]:
    for m in e["metrics"]:
        print(m["name"], m["threshold"])
EOF2
# shellcheck disable=SC2086 # prog's words
run_pstat --format=json -o doc.json -M thr -- $prog
expect_rc 0
python3 pjson.py doc.json | sort >got ||
	{ cat doc.json; fail_ "--format=json is not JSON"; }
printf '%s\n' "m_hi bad" "m_lo good" "m_none None" "m_ref bad" >want
diff want got || fail_ "--format=json thresholds"
# shellcheck disable=SC2086
run_pstat --format=json -o doc.json --metric-no-threshold -M thr -- $prog
expect_rc 0
python3 pjson.py doc.json | sort >got || fail_ "--format=json"
printf '%s\n' "m_hi None" "m_lo None" "m_none None" "m_ref None" >want
diff want got || fail_ "--format=json --metric-no-threshold"
# The CSV column.
# shellcheck disable=SC2086
run_pstat --format=csv -o doc.csv -M m_hi,m_lo -- $prog
expect_rc 0
expect_eq "$(python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1], newline="")):
    if r["metric_name"]:
        print(r["metric_name"], r["metric_threshold"])' doc.csv | sort |
	tr '\n' ' ')" "m_hi bad m_lo good " "--format=csv thresholds"

# No colour off a terminal, nor in -x and -j.
esc=$(printf '\033')
for f in "" -x, -j; do
	# shellcheck disable=SC2086
	run_pstat $f -M thr -- $prog
	expect_rc 0
	! grep -q "$esc" err || { show_err_; fail_ "'$f': colours in a file"; }
done

# On a terminal: script(1) gives pstat one.
command -v script >/dev/null 2>&1 || skip_ "no script(1) to give pstat a terminal"
on_tty()
{
	script -qec "$*" /dev/null >tty.out 2>&1 </dev/null ||
		{ cat tty.out; fail_ "script -c '$*' failed"; }
}
on_tty "$PSTAT -M thr -- $prog"
red=$(printf '\033[31m')
green=$(printf '\033[32m')
reset=$(printf '\033[m')
grep -qF "# $red    2.50$reset m_hi" tty.out ||
	{ cat -v tty.out; fail_ "m_hi (2.50 > 2) is not red"; }
grep -qF "# $green    0.40$reset m_lo" tty.out ||
	{ cat -v tty.out; fail_ "m_lo (0.40, not > 2) is not green"; }
grep -qF "# $red   14.00$reset m_ref" tty.out ||
	{ cat -v tty.out; fail_ "m_ref (m_other 6 > 5) is not red"; }
grep -q "# *10.00 m_none" tty.out ||
	{ cat -v tty.out; fail_ "m_none has a colour (its threshold has no value)"; }
on_tty "$PSTAT --metric-no-threshold -M thr -- $prog"
! grep -q "$esc\[3" tty.out ||
	{ cat -v tty.out; fail_ "--metric-no-threshold: colours"; }
on_tty "env NO_COLOR=1 $PSTAT -M thr -- $prog"
! grep -q "$esc\[3" tty.out || { cat -v tty.out; fail_ "NO_COLOR=1: colours"; }
exit 0
