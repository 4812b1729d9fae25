#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --metric-only with -M, from a table made here whose formulas read
# tracepoints that count exactly: a column per metric, titled by its
# unit and name as perf titles it, in the human layout, -x and -j, with
# and without -I; perf's own ratios keep their columns beside; a metric
# with no number keeps its cell (nan, <not supported: NAME>), null in
# JSON; thresholds colour the cells on a terminal.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracepoints syscalls/sys_enter_getppid syscalls/sys_enter_getuid \
	syscalls/sys_enter_unshare
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse JSON"

mkdir -p t/arch/x86/only || framework_failure_ "cannot make t/"
printf '%s\n' 'Family-model,Version,Filename,EventType' \
	'Test-1-2-3,v1,only,core' >t/arch/x86/mapfile.csv
ppid=syscalls:sys_enter_getppid
uid=syscalls:sys_enter_getuid
cat >t/arch/x86/only/metrics.json <<EOF2
[
 {"MetricName": "m_ratio", "MetricExpr": "$ppid / $uid",
  "MetricGroup": "only", "MetricThreshold": "m_ratio > 2"},
 {"MetricName": "m_neg", "MetricExpr": "$uid - $ppid",
  "MetricGroup": "only", "ScaleUnit": "100%"},
 {"MetricName": "m_div0", "MetricExpr": "$ppid / syscalls:sys_enter_unshare",
  "MetricGroup": "only"},
 {"MetricName": "m_unsup", "MetricExpr": "$ppid / software@config\\\\=99@",
  "MetricGroup": "only"}
]
EOF2
PSTAT_PMU_EVENTS=$PWD/t PERF_CPUID=Test-1-2-3
export PSTAT_PMU_EVENTS PERF_CPUID
prog="$PROGS/syscalls getppid=10 getuid=4"
unsup="<not supported: software@config=99@>"

# -x: the titles, then the values, in the same order. The fields are
# sorted by title: the order of the columns is the grouping's.
pairs()
{
	csv_rows | python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
if len(rows) != 2 or len(rows[0]) != len(rows[1]):
    sys.exit("not a line of titles and a line of values: %r" % rows)
for t, v in sorted(zip(rows[0], rows[1])):
    print("%s=%s" % (t, v))' | tr '\n' ';'
}
# shellcheck disable=SC2086 # prog's words
run_pstat -x, --metric-only -M only -- $prog
expect_rc 0
want="%  m_neg=-600.00;m_div0=nan;m_ratio=2.50;m_unsup=$unsup;"
expect_eq "$(pairs)" "$want" "-x --metric-only -M only"

# With -I: a line of titles with "time" first, then each interval. The
# command ends well within the first one.
# shellcheck disable=SC2086
run_pstat -x, -I 10000 --metric-only -M only -- $prog
expect_rc 0
expect_eq "$(pairs | sed 's/time=[0-9.]*;//')" "$want" \
	"-x -I --metric-only -M only"
csv_rows | head -n 1 | grep -q '^time,' ||
	{ show_err_; fail_ "-x -I --metric-only: 'time' is not the first title"; }

# perf's own ratios keep their columns: task-clock's CPUs utilized.
# shellcheck disable=SC2086
run_pstat -x, --metric-only -e task-clock -M m_ratio -- $prog
expect_rc 0
pairs | grep -q '^CPUs utilized=[0-9.]*;.*m_ratio=2.50;' ||
	{ show_err_; fail_ "-e task-clock -M m_ratio --metric-only: $(pairs)"; }

# -j: one object, a key per metric, null where it has no number.
cat >jsonl.py <<'EOF2'
import json, sys

for line in open(sys.argv[1]):
    if line.startswith("pstat:") or not line.strip():
        continue
    o = json.loads(line)
    o.pop("interval", None)
    print(";".join("%s=%s" % kv for kv in sorted(o.items())))
EOF2
for i in "" "-I 10000"; do
	# shellcheck disable=SC2086
	run_pstat -j $i --metric-only -M only -- $prog
	expect_rc 0
	expect_eq "$(python3 jsonl.py err)" \
		"%  m_neg=-600;m_div0=None;m_ratio=2.5;m_unsup=None" \
		"-j $i --metric-only -M only"
done

# The human layout: the titles over the values, right-aligned, as perf.
# The columns are in perf 6.1's order of the metrics, where the metrics
# of the last word come first: m_unsup, named first, comes last.
for i in "" "-I 10000"; do
	# shellcheck disable=SC2086
	run_pstat $i --metric-only -M m_unsup,m_ratio,m_neg,m_div0 -- $prog
	expect_rc 0
	titles=$(grep -E '(^ |time).*m_ratio' err)
	values=$(grep -A1 -E '(^ |time).*m_ratio' err | tail -n 1)
	# A cell wider than its column (a name) pushes those after it.
	case $values in
	*" $unsup") ;;
	*) show_err_; fail_ "human $i --metric-only: m_unsup is not '$unsup'" ;;
	esac
	values=${values%" $unsup"}
	for m in m_ratio:2.50 '%  m_neg:-600.00' m_div0:nan; do
		t=${m%%:*} v=${m#*:}
		# The value ends where its title ends.
		end=$(printf '%s\n' "$titles" | awk -v t="$t" \
			'{ print index($0, t) + length(t) }')
		got=$(printf '%s\n' "$values" | awk -v e="$end" -v v="$v" \
			'{ print substr($0, e - length(v), length(v)) }')
		expect_eq "$got" "$v" "human $i --metric-only: $t"
	done
done

# On a terminal, m_ratio's cell is red, its threshold not 0.
command -v script >/dev/null 2>&1 || skip_ "no script(1) to give pstat a terminal"
script -qec "$PSTAT --metric-only -M m_ratio -- $prog" /dev/null \
	>tty.out 2>&1 </dev/null || { cat tty.out; fail_ "script failed"; }
grep -qF "$(printf '\033[31m')    2.50$(printf '\033[m')" tty.out ||
	{ cat -v tty.out; fail_ "--metric-only: m_ratio (2.50 > 2) is not red"; }
exit 0
