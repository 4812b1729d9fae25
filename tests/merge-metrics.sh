#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pstat --merge computes -M's metrics again from the ranks' summed
# counts, with the formula and inputs each file gives (--format=csv and
# json alike): two ranks of a table made here, counting tracepoints
# exactly, 10 and 30 getppid, 4 and 4 getuid, make getppid / getuid 5
# (not the mean of 2.5 and 7.5); a metric whose input no rank counted
# names it; one whose formula names another metric or a literal of the
# machine, which the files do not give, is left out.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracepoints syscalls/sys_enter_getppid syscalls/sys_enter_getuid \
	syscalls/sys_enter_unshare
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse JSON"
unset PSTAT_RANK PSTAT_LOCAL_RANK PSTAT_SIZE PSTAT_JOB_ID \
	OMPI_COMM_WORLD_RANK PMIX_RANK PMI_RANK MV2_COMM_WORLD_RANK \
	SLURM_PROCID SLURM_LOCALID SLURM_NTASKS SLURM_JOB_ID

mkdir -p t/arch/x86/mrg ranks || framework_failure_ "cannot make t/"
printf '%s\n' 'Family-model,Version,Filename,EventType' \
	'Test-1-2-3,v1,mrg,core' >t/arch/x86/mapfile.csv
ppid=syscalls:sys_enter_getppid
uid=syscalls:sys_enter_getuid
cat >t/arch/x86/mrg/metrics.json <<EOF2
[
 {"MetricName": "m_ratio", "MetricExpr": "$ppid / $uid",
  "MetricGroup": "mrg"},
 {"MetricName": "m_neg", "MetricExpr": "$uid - $ppid",
  "MetricGroup": "mrg", "ScaleUnit": "100%"},
 {"MetricName": "m_div0", "MetricExpr": "$ppid / syscalls:sys_enter_unshare",
  "MetricGroup": "mrg"},
 {"MetricName": "m_unsup", "MetricExpr": "$ppid / software@config\\\\=99@",
  "MetricGroup": "mrg"},
 {"MetricName": "m_ref", "MetricExpr": "m_ratio * 2", "MetricGroup": "mrg"},
 {"MetricName": "m_lit", "MetricExpr": "$ppid * #num_cpus",
  "MetricGroup": "mrg"}
]
EOF2
PSTAT_PMU_EVENTS=$PWD/t PERF_CPUID=Test-1-2-3
export PSTAT_PMU_EVENTS PERF_CPUID
PSTAT_RANK=0 PSTAT_SIZE=2 "$PSTAT" --format=csv -o 'ranks/r.%r.csv' \
	-M mrg -- "$PROGS/syscalls" getppid=10 getuid=4 2>err ||
	{ show_err_; fail_ "rank 0"; }
PSTAT_RANK=1 PSTAT_SIZE=2 "$PSTAT" --format=json -o 'ranks/r.%r.json' \
	-M mrg -- "$PROGS/syscalls" getppid=30 getuid=4 2>err ||
	{ show_err_; fail_ "rank 1"; }

run_pstat --merge --format=json ranks/r.0.csv ranks/r.1.json
expect_rc 0
python3 - out >got <<'EOF2' || { show_err_; cat out; fail_ "not JSON"; }
import json, sys

doc = json.load(open(sys.argv[1]))
for e in doc["events"]:
    for m in e["metrics"]:
        print(m.get("name"), m["value"], m["status"], m.get("input"),
              e["event"] == (m.get("input") or e["event"]))
EOF2
# m_lit and m_ref are left out.
cat >want <<'EOF2'
m_div0 None nan None True
m_neg -3200 counted None True
m_ratio 5 counted None True
m_unsup None not-supported software/config=99/ True
EOF2
sort got >got.sorted
diff want got.sorted || fail_ "--merge --format=json: the metrics"

run_pstat --merge --format=csv ranks/r.1.json ranks/r.0.csv
expect_rc 0
expect_eq "$(awk -F, '$18 == "m_ratio" { print $17 }' out)" 5.000000 \
	"--merge --format=csv: m_ratio"
expect_eq "$(awk -F, '$18 == "%  m_neg" { print $17 }' out)" -3200.000000 \
	"--merge --format=csv: m_neg"
expect_eq "$(awk -F, '$18 == "m_unsup" { print $17 }' out)" nan \
	"--merge --format=csv: m_unsup"

run_pstat --merge ranks/r.0.csv ranks/r.1.json
expect_rc 0
grep -q '# 5\.000 m_ratio (of the sums)$' out ||
	{ cat out; fail_ "--merge: m_ratio is not 5.000"; }
# A scale pstat does not write: refused, the file and line named.
sed 's/,1,$/,abc,/' ranks/r.0.csv >bad.csv
run_pstat --merge bad.csv ranks/r.1.json
expect_rc 125
expect_eq "$(cat out)" "" "--merge bad.csv: output"
expect_eq "$(grep -c '^pstat: ' err)" 1 "--merge bad.csv: 'pstat: ' lines"
grep -q "^pstat: bad.csv: line [0-9]*: the scale 'abc' is not a positive number" err ||
	{ show_err_; fail_ "--merge bad.csv: not the message"; }
exit 0
