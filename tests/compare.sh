#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pstat compare on exact counts: 1000 against 1010 write(2) calls is
# +1.000% with the interval [+1.000%, +1.000%] and "slower" in every
# format; --fail-on gates on it; equal commands are no change; the runs
# go A B B A; a saved comparison and two saved -r results give the same
# numbers as the live comparison; a failed run is left out and is a
# failure without -i; -M's metrics are rows computed from each run.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs
require_tracepoints syscalls/sys_enter_write syscalls/sys_enter_getppid \
	syscalls/sys_enter_getuid syscalls/sys_enter_unshare
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse JSON"

ev=syscalls:sys_enter_write
W=$PROGS/writer

# The -x row of EVENT: its field N.
xfield()
{
	awk -F, -v ev="$1" -v n="$2" '$1 == ev { print $n; exit }' out
}

# -x, to stdout: event,unit,side,vs,runs A,median A,runs B,median B,
# change %,interval low %,high %,p,verdict,least running %.
run_pstat compare -r 5 -x, -o /dev/stdout -e "$ev" -- "$W" 1000 ::: "$W" 1010
expect_rc 0
cat out
expect_eq "$(xfield "$ev" 3),$(xfield "$ev" 4)" B,A "the sides of the row"
expect_eq "$(xfield "$ev" 5),$(xfield "$ev" 6)" 5,1000 "A's runs and median"
expect_eq "$(xfield "$ev" 7),$(xfield "$ev" 8)" 5,1010 "B's runs and median"
expect_eq "$(xfield "$ev" 10),$(xfield "$ev" 11)" 1,1 "the interval, %"
expect_eq "$(xfield "$ev" 13)" slower "the verdict of +1% at a 1% threshold"
expect_eq "$(xfield wall-time 2)" msec "the wall-time row's unit"
expect_eq "$(xfield max-rss 2)" KiB "the max-rss row's unit"
# The change of the medians is 1010/1000 - 1 in doubles: 1.0000000000000009.
awk -v c="$(xfield "$ev" 9)" 'BEGIN { exit !(c > 0.9999999 && c < 1.0000001) }' ||
	fail_ "the change: $(xfield "$ev" 9), not 1%"

# The human table says the same, with the exact interval.
run_pstat compare -r 5 -e "$ev" -- "$W" 1000 ::: "$W" 1010
expect_rc 0
grep -E '1,000 \+- +0\.0% +1,010 \+- +0\.0% +\+1\.000% +\[\+1\.000%, \+1\.000%\] +[<0-9.]+ +slower +syscalls:sys_enter_write$' err ||
	{ show_err_; fail_ "no human row of +1.000% [+1.000%, +1.000%] slower"; }
grep -q '^   A: .*writer 1000  (5 runs)$' err || { show_err_; fail_ "no line for A"; }

# --fail-on gates: above 0.5% is met (exit 1), above 1.5% is not, and a
# fall below -0.5% is met only the other way round.
run_pstat compare -r 4 -q --fail-on "$ev>0.5%" -e "$ev" -- "$W" 1000 ::: "$W" 1010
expect_rc 1
run_pstat compare -r 4 -q --fail-on "$ev>1.5%" -e "$ev" -- "$W" 1000 ::: "$W" 1010
expect_rc 0
run_pstat compare -r 4 -q --fail-on "$ev<-0.5%" -e "$ev" -- "$W" 1010 ::: "$W" 1000
expect_rc 1
run_pstat compare -r 4 -q --fail-on "$ev<-0.5%" -e "$ev" -- "$W" 1000 ::: "$W" 1010
expect_rc 0
# A threshold of the event's own: +1% within 2% is no change.
run_pstat compare -r 4 -x, -o /dev/stdout --threshold "$ev=2%" -e "$ev" -- "$W" 1000 ::: "$W" 1010
expect_rc 0
expect_eq "$(xfield "$ev" 13)" "no change" "the verdict at --threshold $ev=2%"

# Equal commands: no change, exit 0, even under --fail-on.
run_pstat compare -r 4 -x, -o /dev/stdout --fail-on "$ev>0%" -e "$ev" -- "$W" 500 ::: "$W" 500
expect_rc 0
expect_eq "$(xfield "$ev" 9),$(xfield "$ev" 10),$(xfield "$ev" 11),$(xfield "$ev" 12),$(xfield "$ev" 13)" \
	"0,0,0,1,no change" "equal commands: change, interval, p, verdict"

# Three commands: each against the first, in balanced order.
run_pstat compare -r 4 -v -e "$ev" -- "$W" 100 ::: "$W" 110 ::: "$W" 90
expect_rc 0
order=$(sed -n "s/^pstat: run [0-9]* of 12: \([ABC]\) .*/\1/p" err | tr -d '\n')
expect_eq "$order" ABCCBAABCCBA "-v's order of three commands"
grep -Eq '\+10\.000% +\[\+10\.000%, \+10\.000%\] .* slower +syscalls' err ||
	{ show_err_; fail_ "no +10% for B"; }
grep -Eq '\-10\.000% +\[-10\.000%, -10\.000%\] .* faster +syscalls' err ||
	{ show_err_; fail_ "no -10% for C"; }

# The saved comparison: every sample, the order A B B A A B ...,
# warm-up runs first and left out.
run_pstat compare -r 4 --warmup 1 --format=json -o c.json -e "$ev" -- "$W" 1000 ::: "$W" 1010
expect_rc 0
python3 - c.json <<'EOF' || { show_err_; fail_ "the saved comparison"; }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "pstat-compare" and d["format_version"] == 1, d
order = "".join(r["side"] for r in d["order"])
assert order == "ABBAABBAAB", order
assert [r["warmup"] for r in d["order"]] == [True] * 2 + [False] * 8
assert [r["kept"] for r in d["order"]] == [False] * 2 + [True] * 8
row = [r for r in d["rows"] if r["event"] == "syscalls:sys_enter_write"][0]
assert row["samples"] == {"A": [1000] * 4, "B": [1010] * 4}, row["samples"]
ch = row["changes"][0]
assert (ch["side"], ch["vs"], ch["verdict"]) == ("B", "A", "slower"), ch
assert ch["ci_lo_pct"] == 1 and ch["ci_hi_pct"] == 1 and ch["shift"] == 10, ch
assert [c["runs"] for c in d["commands"]] == [4, 4]
EOF
# Read back, it is the same document, byte for byte.
run_pstat compare --format=json c.json
expect_rc 0
cmp err c.json || { diff c.json err; fail_ "the saved comparison read back differs"; }
# And --fail-on works on it as on the live one.
run_pstat compare -q --fail-on "$ev>0.5%" c.json
expect_rc 1

# Two saved -r results: the same samples, the same numbers.
run_pstat -r 4 --format=json -o a.json -e "$ev" -- "$W" 1000
expect_rc 0
run_pstat -r 4 --format=json -o b.json -e "$ev" -- "$W" 1010
expect_rc 0
run_pstat compare -x, -o /dev/stdout a.json b.json
expect_rc 0
expect_eq "$(xfield "$ev" 5),$(xfield "$ev" 6),$(xfield "$ev" 7),$(xfield "$ev" 8),$(xfield "$ev" 10),$(xfield "$ev" 11),$(xfield "$ev" 13)" \
	"4,1000,4,1010,1,1,slower" "a.json against b.json"
expect_eq "$(xfield wall-time 5)" 4 "the wall-time runs of a.json"

# A run that fails is left out and said; without -i the exit status is 1.
run_pstat compare -r 4 -x, -o /dev/stdout -e "$ev" -- "$W" 10 ::: sh -c "$W 10 && exit 3"
expect_rc 1
grep -q "^pstat: note: B's run 1 ('sh') exited with status 3: it is left out" err ||
	{ show_err_; fail_ "no note of B's failed run"; }
grep -q '^pstat: 4 runs failed and were left out' err ||
	{ show_err_; fail_ "no notice of the failed runs"; }
expect_eq "$(xfield "$ev" 7),$(xfield "$ev" 13)" "0,no data" "B's runs, verdict"
run_pstat compare -r 4 -i -q -e "$ev" -- "$W" 10 ::: sh -c "$W 10 && exit 3"
expect_rc 0

# -j: a line per row, numbers as JSON numbers.
run_pstat compare -r 4 -j -o /dev/stdout -e "$ev" -- "$W" 1000 ::: "$W" 1010
expect_rc 0
python3 - out <<'EOF' || { cat out; fail_ "-j lines"; }
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
r = [r for r in rows if r["event"] == "syscalls:sys_enter_write"][0]
assert r["a"]["median"] == 1000 and r["b"]["median"] == 1010, r
assert r["ci_lo_pct"] == 1 and r["verdict"] == "slower", r
assert {r["event"] for r in rows} >= {"wall-time", "max-rss"}
EOF

# --format=csv: the same samples, under one header.
run_pstat compare -r 4 --format=csv -o c.csv -e "$ev" -- "$W" 1000 ::: "$W" 1010
expect_rc 0
python3 - c.csv <<'EOF' || { cat c.csv; fail_ "--format=csv"; }
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
s = [r["value"] for r in rows if r["record"] == "sample" and r["event"] == "syscalls:sys_enter_write"]
assert s == ["1000"] * 4 + ["1010"] * 4, s
ch = [r for r in rows if r["record"] == "change" and r["event"] == "syscalls:sys_enter_write"][0]
assert (ch["ci_lo_pct"], ch["ci_hi_pct"], ch["verdict"]) == ("1", "1", "slower"), ch
assert "".join(r["side"] for r in rows if r["record"] == "run") == "ABBAABBA"
EOF

# -M's metrics are rows of their own, computed from each run's counts:
# getppid / getuid of 10 / 4 against 20 / 4 is +100%, "higher"; a
# division by zero is no number.
mkdir -p t/arch/x86/cmp || framework_failure_ "cannot make t/"
printf '%s\n' 'Family-model,Version,Filename,EventType' \
	'Test-1-2-3,v1,cmp,core' >t/arch/x86/mapfile.csv
cat >t/arch/x86/cmp/metrics.json <<'EOF2'
[
 {"MetricName": "m_ratio", "MetricExpr": "syscalls:sys_enter_getppid / syscalls:sys_enter_getuid",
  "MetricGroup": "cmp"},
 {"MetricName": "m_div0", "MetricExpr": "syscalls:sys_enter_getppid / syscalls:sys_enter_unshare",
  "MetricGroup": "cmp"}
]
EOF2
PSTAT_PMU_EVENTS=$PWD/t PERF_CPUID=Test-1-2-3 run_pstat compare -r 4 -x, -o /dev/stdout \
	-M cmp -- "$PROGS/syscalls" getppid=10 getuid=4 ::: "$PROGS/syscalls" getppid=20 getuid=4
expect_rc 0
cat out
expect_eq "$(xfield m_ratio 6),$(xfield m_ratio 8),$(xfield m_ratio 9),$(xfield m_ratio 10),$(xfield m_ratio 11),$(xfield m_ratio 13)" \
	"2.5,5,100,100,100,higher" "the metric m_ratio of each side, its change and verdict"
expect_eq "$(xfield m_div0 5),$(xfield m_div0 13)" "0,no data" "m_div0: no number"
expect_eq "$(xfield syscalls:sys_enter_getppid 6),$(xfield syscalls:sys_enter_getppid 8)" \
	"10,20" "the metric's input events are rows too"
PSTAT_PMU_EVENTS=$PWD/t PERF_CPUID=Test-1-2-3 run_pstat compare -r 4 \
	-M cmp -- "$PROGS/syscalls" getppid=10 getuid=4 ::: "$PROGS/syscalls" getppid=20 getuid=4
expect_rc 0
grep -Eq '^ +nan +nan .* no data +m_div0$' err || { show_err_; fail_ "no nan row of m_div0"; }
# --pre that fails stops the runs: said, 125.
run_pstat compare -r 4 -e "$ev" --pre 'exit 3' -- "$W" 1 ::: "$W" 2
expect_rc 125
grep -q "^pstat: --pre 'exit 3' exited with status 3 before run 1" err ||
	{ show_err_; fail_ "no message of the failed --pre"; }
# --pre and --post run around every run, warm-up runs too.
run_pstat compare -r 4 --warmup 1 -q -e "$ev" --pre 'echo pre >>steps' \
	--post 'echo post >>steps' -- "$W" 1 ::: "$W" 2
expect_rc 0
expect_eq "$(grep -c pre steps),$(grep -c post steps)" 10,10 "--pre and --post runs"

# A signal to pstat stops the runs: those made are compared, 128+N.
"$PSTAT" compare -r 1000 -v -e "$ev" -- sh -c 'sleep 0.05' ::: sh -c 'sleep 0.05' \
	>out 2>err &
pid=$!
started "$pid"
wait_until "runs made" grep -q '^pstat: run 9 of' err
kill -TERM "$pid"
waited "$pid"
expect_eq "$rc" 143 "the exit status after SIGTERM"
grep -q 'interrupted: the runs made before it are compared' err ||
	{ show_err_; fail_ "no comparison of the runs made"; }

# On a terminal: a progress line, and a box plot of each side under each
# row where the terminal is 100 columns wide.
if command -v script >/dev/null 2>&1; then
	script -qec "stty cols 120; '$PSTAT' compare -r 4 -e $ev -- '$W' 10 ::: '$W' 20" \
		/dev/null >tty.out 2>&1 </dev/null || { cat tty.out; fail_ "compare on a terminal"; }
	grep -q 'run 1 of 8' tty.out || { cat tty.out; fail_ "no progress line"; }
	grep -Eq '^ +A :\|.*: *.$' tty.out || { cat tty.out; fail_ "no box plot of A"; }
	grep -Eq '^ +B :.*\|: *.$' tty.out || { cat tty.out; fail_ "no box plot of B"; }
fi
exit 0
