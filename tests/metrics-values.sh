#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -M's values in every format, from a table made here whose formulas read
# tracepoints that count exactly: a metric whose input is <not
# supported> (software/config=99/, which no kernel has) or <not
# counted> (-D past the command's end) names it instead of a number;
# NaN (a division by zero), inf, -inf and negative values survive -x,
# -j and --format, JSON staying JSON; --format gives each metric's
# status, formula, inputs and least running percentage.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracepoints syscalls/sys_enter_getppid syscalls/sys_enter_getuid \
	syscalls/sys_enter_unshare
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse JSON"

# A model of its own, picked by PERF_CPUID.
mkdir -p t/arch/x86/vals || framework_failure_ "cannot make t/"
printf '%s\n' 'Family-model,Version,Filename,EventType' \
	'Test-1-2-3,v1,vals,core' >t/arch/x86/mapfile.csv
ppid=syscalls:sys_enter_getppid
uid=syscalls:sys_enter_getuid
cat >t/arch/x86/vals/metrics.json <<EOF2
[
 {"MetricName": "m_ratio", "MetricExpr": "$ppid / $uid",
  "MetricGroup": "vals"},
 {"MetricName": "m_div0", "MetricExpr": "$ppid / syscalls:sys_enter_unshare",
  "MetricGroup": "vals"},
 {"MetricName": "m_neg", "MetricExpr": "$uid - $ppid",
  "MetricGroup": "vals", "ScaleUnit": "100%"},
 {"MetricName": "m_inf", "MetricExpr": "$ppid * 1e308 * 1e308",
  "MetricGroup": "vals"},
 {"MetricName": "m_ninf", "MetricExpr": "0 - $ppid * 1e308 * 1e308",
  "MetricGroup": "vals"},
 {"MetricName": "m_unsup", "MetricExpr": "$ppid / software@config\\\\=99@",
  "MetricGroup": "unsup"}
]
EOF2
PSTAT_PMU_EVENTS=$PWD/t PERF_CPUID=Test-1-2-3
export PSTAT_PMU_EVENTS PERF_CPUID
prog="$PROGS/syscalls getppid=10 getuid=4"

# -x: the metric value field (6) of the row whose unit (7) is NAME.
xval() { csv_rows | awk -F, -v m="$1" '$7 == m { print $6 }'; }
# shellcheck disable=SC2086 # prog's words
run_pstat -x, -M vals,unsup -- $prog
expect_rc 0
expect_eq "$(xval m_ratio)" 2.50 "-x m_ratio (10 / 4)"
expect_eq "$(xval m_div0)" nan "-x m_div0 (10 / 0)"
expect_eq "$(xval '%  m_neg')" -600.00 "-x m_neg (4 - 10, in %)"
expect_eq "$(xval m_inf)" inf "-x m_inf"
expect_eq "$(xval m_ninf)" -inf "-x m_ninf"
expect_eq "$(xval m_unsup)" "<not supported: software@config=99@>" \
	"-x m_unsup"
# Not the locale's numbers: -x is for scripts.
# shellcheck disable=SC2086
LC_ALL=de_DE.UTF-8 run_pstat -x, -M vals -- $prog
expect_eq "$(xval '%  m_neg')" -600.00 "-x m_neg, LC_ALL=de_DE.UTF-8"

# The human layout: where perf puts the number.
# shellcheck disable=SC2086
run_pstat -M vals,unsup -- $prog
expect_rc 0
human() { grep "# .* $1\$" err | sed 's/.*# *//'; }
expect_eq "$(human m_ratio)" "2.50 m_ratio" "human m_ratio"
expect_eq "$(human m_div0)" "nan m_div0" "human m_div0"
expect_eq "$(human m_inf)" "inf m_inf" "human m_inf"
expect_eq "$(human m_ninf)" "-inf m_ninf" "human m_ninf"
expect_eq "$(human m_neg)" "-600.00 %  m_neg" "human m_neg"
expect_eq "$(human m_unsup)" "<not supported: software@config=99@> m_unsup" \
	"human m_unsup"

# -j: valid JSON a line; a value that is no number is null, and says why.
cat >jsonl.py <<'EOF2'
import json, sys

got = {}
for line in open(sys.argv[1]):
    if line.startswith("pstat:") or not line.strip():
        continue
    o = json.loads(line)
    if o.get("metric-unit"):
        got[o["metric-unit"].split()[-1]] = (
            o["metric-value"], o.get("metric-status"), o.get("metric-input"))
for k in sorted(got):
    print(k, *got[k])
EOF2
# shellcheck disable=SC2086
run_pstat -j -M vals,unsup -- $prog
expect_rc 0
python3 jsonl.py err >got || { show_err_; fail_ "-j is not JSON lines"; }
cat >want <<'EOF2'
m_div0 None nan None
m_inf None inf None
m_neg -600 None None
m_ninf None -inf None
m_ratio 2.5 None None
m_unsup None not-supported software@config=99@
EOF2
diff want got || fail_ "-j metrics"

# <not counted>: -D past the command's end, nothing counted.
# shellcheck disable=SC2086
run_pstat -x, -D 100000 -M m_ratio -- $prog
expect_rc 0
expect_eq "$(xval m_ratio)" "<not counted: $ppid>" "-x -D: m_ratio"
# shellcheck disable=SC2086
run_pstat -j -D 100000 -M m_ratio -- $prog
python3 jsonl.py err >got || { show_err_; fail_ "-j -D is not JSON lines"; }
expect_eq "$(cat got)" "m_ratio None not-counted $ppid" "-j -D: m_ratio"

# --format=json: each metric's value, status, input, formula, inputs
# and least running percentage.
cat >pjson.py <<'EOF2'
import json, sys

doc = json.load(open(sys.argv[1]))
for e in doc["events"]:
    for m in e["metrics"]:
        print(m["name"], m["value"], m["status"], m["input"],
              m["formula"], "|".join(m["inputs"]), m["running_pct"],
              m["inputs_cut"])
EOF2
# shellcheck disable=SC2086
run_pstat --format=json -o doc.json -M vals,unsup -- $prog
expect_rc 0
python3 pjson.py doc.json | sort >got ||
	{ cat doc.json; fail_ "--format=json is not JSON"; }
cat >want <<EOF2
m_div0 None nan None $ppid / syscalls:sys_enter_unshare $ppid|syscalls:sys_enter_unshare 100 False
m_inf None inf None $ppid * 1e308 * 1e308 $ppid 100 False
m_neg -600 counted None $uid - $ppid $uid|$ppid 100 False
m_ninf None -inf None 0 - $ppid * 1e308 * 1e308 $ppid 100 False
m_ratio 2.5 counted None $ppid / $uid $ppid|$uid 100 False
m_unsup None not-supported software@config=99@ $ppid / software@config\\=99@ $ppid|software@config=99@ 100 False
EOF2
diff want got || fail_ "--format=json metrics"

# --format=csv: the same, by the header's names.
cat >pcsv.py <<'EOF2'
import csv, sys

rows = list(csv.DictReader(open(sys.argv[1], newline="")))
for r in rows:
    if r["metric_name"]:
        print(r["metric_name"], r["metric_value"], r["metric_status"],
              r["metric_input"], r["metric_formula"],
              r["metric_inputs"].replace(" ", "|"), r["metric_running_pct"])
EOF2
# shellcheck disable=SC2086
run_pstat --format=csv -o doc.csv -M vals,unsup -- $prog
expect_rc 0
python3 pcsv.py doc.csv | sort >got || { cat doc.csv; fail_ "--format=csv"; }
cat >want <<EOF2
m_div0 nan nan  $ppid / syscalls:sys_enter_unshare $ppid|syscalls:sys_enter_unshare 100.00
m_inf inf inf  $ppid * 1e308 * 1e308 $ppid 100.00
m_neg -600.000000 counted  $uid - $ppid $uid|$ppid 100.00
m_ninf -inf -inf  0 - $ppid * 1e308 * 1e308 $ppid 100.00
m_ratio 2.500000 counted  $ppid / $uid $ppid|$uid 100.00
m_unsup nan not-supported software@config=99@ $ppid / software@config\\=99@ $ppid|software@config=99@ 100.00
EOF2
diff want got || fail_ "--format=csv metrics"
exit 0
