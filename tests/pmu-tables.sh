#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# perf's metric tables as make copied them from the Linux source
# (scripts/pmu-events-tables): --list metrics names exactly the metrics
# of a model's JSON, counted here with python3 apart from pstat
# (Skylake-X, AMD's Zen 4, an arm64 Neoverse V1 of ArchStdEvents); perf
# 6.1 agrees where its own tables do; --list metricgroups likewise;
# --json is JSON; a CPUID no model matches is one line and 125; and a
# set-user-ID pstat takes neither PERF_CPUID nor PSTAT_PMU_EVENTS.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

[ -n "${PMU_EVENTS:-}" ] ||
	skip_ "pstat is configured --without-pmu-events: it has no tables"
[ -r "$PMU_EVENTS/arch/x86/mapfile.csv" ] ||
	framework_failure_ "$PMU_EVENTS/arch/x86/mapfile.csv: make did not copy the tables"
command -v python3 >/dev/null 2>&1 ||
	skip_ "python3 is needed to read the tables apart from pstat"
PSTAT_PMU_EVENTS=$PMU_EVENTS
export PSTAT_PMU_EVENTS

# What a model's JSON says, read as perf's jevents.py reads it: an
# entry is a metric when it has a MetricName and a MetricExpr, its own
# or its ArchStdEvent's (a .json file beside mapfile.csv); its groups
# are MetricGroup's words. 'names' or 'groups' of ARCH/MODEL, sorted
# as sort(1) sorts in the C locale.
cat >tables.py <<'EOF'
import json, os, sys
what, arch, model = sys.argv[1], sys.argv[2], sys.argv[3]
top = os.path.join(os.environ["PMU_EVENTS"], "arch", arch)
std = {}
for f in sorted(os.listdir(top)):
    if f.endswith(".json"):
        for e in json.load(open(os.path.join(top, f))):
            for k in ("EventName", "MetricName"):
                if k in e:
                    std[e[k].lower()] = e
out = set() if what == "groups" else []
d = os.path.join(top, model)
for f in sorted(os.listdir(d)):
    if not f.endswith(".json") or f == "metricgroups.json":
        continue
    for e in json.load(open(os.path.join(d, f))):
        s = std.get(e.get("ArchStdEvent", "").lower(), {})
        name = e.get("MetricName") or s.get("MetricName")
        if not name or not (e.get("MetricExpr") or s.get("MetricExpr")):
            continue
        if what == "names":
            out.append(name)
        else:
            groups = e.get("MetricGroup") or s.get("MetricGroup") or ""
            out.update(g for g in groups.split(";") if g)
print("\n".join(sorted(out)))
EOF

# listed WHAT CPUID: the names pstat --list WHAT prints for CPUID, sorted,
# into WHAT.pstat; and its first line into first.line.
listed()
{
	PERF_CPUID=$2 run_pstat --list "$1"
	expect_rc 0
	[ ! -s err ] || { show_err_; fail_ "--list $1 for $2 said something"; }
	head -n 1 out >first.line
	awk '/^  / { print $1 }' out | sort >"$1.pstat"
}

# Each model: its metrics and their groups, exactly.
for model in GenuineIntel-6-55-4:x86/skylakex \
	     AuthenticAMD-25-11-0:x86/amdzen4 \
	     0x00000000410fd400:arm64/arm/neoverse-v1; do
	cpuid=${model%%:*}
	arch=${model#*:}
	arch=${arch%%/*}
	dir=${model#*:"$arch"/}
	python3 tables.py names "$arch" "$dir" >metrics.json.txt ||
		framework_failure_ "tables.py names $arch $dir"
	python3 tables.py groups "$arch" "$dir" >metricgroups.json.txt ||
		framework_failure_ "tables.py groups $arch $dir"
	n=$(wc -l <metrics.json.txt)
	[ "$n" -gt 0 ] || framework_failure_ "no metric in $arch/$dir's JSON"
	listed metrics "$cpuid"
	expect_eq "$(cat first.line)" "Metrics of $dir (cpuid $cpuid):" \
		"--list metrics for $cpuid: its first line"
	cmp -s metrics.pstat metrics.json.txt || {
		diff metrics.json.txt metrics.pstat
		fail_ "$cpuid: --list metrics names $(wc -l <metrics.pstat), not the $n metrics of $arch/$dir"
	}
	listed metricgroups "$cpuid"
	expect_eq "$(cat first.line)" "Metric groups of $dir (cpuid $cpuid):" \
		"--list metricgroups for $cpuid: its first line"
	cmp -s metricgroups.pstat metricgroups.json.txt || {
		diff metricgroups.json.txt metricgroups.pstat
		fail_ "$cpuid: --list metricgroups lists other groups than $arch/$dir's"
	}
	# Each metric of a group, and only those, by the group's name.
	PERF_CPUID=$cpuid run_pstat --list metrics "$(sed -n 1p metricgroups.pstat)"
	expect_rc 0
	[ "$(grep -c '^  ' out)" -ge 1 ] ||
		fail_ "$cpuid: --list metrics GROUP lists none of the group's"
done
# The model has more metrics than a few: its JSON was read whole.
[ "$(wc -l <metrics.json.txt)" -ge 20 ] ||
	fail_ "only $(wc -l <metrics.json.txt) metrics in neoverse-v1's JSON"

# perf 6.1 (installed here) as the oracle, on Skylake-X. Its tables are
# older: 6.12 renamed most of 6.1's metrics (CPI is tma_info_thread_cpi)
# and added groups. The rule: every metric and every group perf 6.1
# lists that 6.12's JSON also has (the same name) pstat lists, and the
# four of TopdownL1 are among them; 6.1's 'No_group' (the metrics in no
# group) is no group of the JSON.
if command -v perf >/dev/null 2>&1 &&
   PERF_CPUID=GenuineIntel-6-55-4 perf list --details metric >perf.out 2>&1
then
	python3 tables.py names x86 skylakex >sk.names &&
		python3 tables.py groups x86 skylakex >sk.groups ||
		framework_failure_ "tables.py x86 skylakex"
	listed metrics GenuineIntel-6-55-4
	awk '/^  [^ ]/ { print $1 }' perf.out | sort >perf.names
	comm -12 perf.names sk.names >both
	for name in tma_retiring tma_frontend_bound tma_backend_bound \
		    tma_bad_speculation; do
		grep -qx "$name" both ||
			fail_ "$name: not in both perf 6.1's and 6.12's tables"
	done
	missing=$(comm -23 both metrics.pstat)
	[ -z "$missing" ] ||
		fail_ "perf 6.1 and 6.12's JSON have, pstat does not list: $missing"
	PERF_CPUID=GenuineIntel-6-55-4 perf list metricgroup 2>/dev/null |
		grep -v -e '^$' -e ':$' | sort >perf.groups
	listed metricgroups GenuineIntel-6-55-4
	comm -12 perf.groups sk.groups >both
	grep -qx TopdownL1 both || fail_ "TopdownL1: not a group of both"
	missing=$(comm -23 both metricgroups.pstat)
	[ -z "$missing" ] ||
		fail_ "perf 6.1 and 6.12's JSON have, pstat does not list the groups: $missing"
fi

# --json: one document, the same metrics, each group's metrics in it.
PERF_CPUID=GenuineIntel-6-55-4 run_pstat --list --json metrics
expect_rc 0
python3 - out metrics.pstat <<'EOF' || fail_ "--list --json metrics: $(cat err)"
import json, sys
doc = json.load(open(sys.argv[1]))
names = sorted(m["name"] for m in doc["metrics"])
assert doc["version"] == 1 and doc["model"] == "skylakex", doc
assert doc["cpuid"] == "GenuineIntel-6-55-4", doc["cpuid"]
assert names == open(sys.argv[2]).read().split(), "names differ"
assert all(m["expression"] and m["pmu"] for m in doc["metrics"])
ipc = [m for m in doc["metrics"] if m["name"] == "tma_info_thread_ipc"][0]
# Another metric's name in an expression, as the JSON has it.
assert ipc["expression"] == "INST_RETIRED.ANY / tma_info_thread_clks", ipc
EOF
cp out metrics.json
PERF_CPUID=GenuineIntel-6-55-4 run_pstat --list --json metricgroups
expect_rc 0
python3 - out metrics.json <<'EOF' || fail_ "--list --json metricgroups"
import json, sys
groups = json.load(open(sys.argv[1]))["metricgroups"]
metrics = json.load(open(sys.argv[2]))["metrics"]
assert len(groups) > 10, len(groups)
for g in groups:
    want = sorted({m["name"] for m in metrics if g["name"] in m.get("groups", [])})
    assert sorted(g["metrics"]) == want, g["name"]
top = [g for g in groups if g["name"] == "TopdownL1"][0]
assert top["description"] == "Metrics for top-down breakdown at level 1", top
EOF

# No model for the CPUID: one line, which CPUID, where, and how to
# choose one; 125; nothing on stdout.
PERF_CPUID=Bogus-1-2-3 run_pstat --list metrics
expect_refusal "'Bogus-1-2-3'" "$PMU_EVENTS/arch/x86/mapfile.csv" \
	"PERF_CPUID="
expect_eq "$(wc -l <err)" 1 "--list metrics for Bogus-1-2-3: lines"
[ ! -s out ] || fail_ "--list metrics for Bogus-1-2-3 printed: $(cat out)"
PERF_CPUID=Bogus-1-2-3 run_pstat --list --json metricgroups
expect_refusal "'Bogus-1-2-3'"

# -M with no name, and a typo: one line each, 125, the closest name.
for spec in '' ,; do
	PSTAT_PMU_EVENTS=$PMU_EVENTS PERF_CPUID=GenuineIntel-6-55-4 \
		expect_refused_saying "-M '$spec' names no metric" -M "$spec"
done
PSTAT_PMU_EVENTS=$PMU_EVENTS PERF_CPUID=GenuineIntel-6-55-4 \
	expect_refused_saying "closest: tma_info_inst_mix_ipbranch" \
	-M tma_info_inst_mix_ipbrnch
# A name no metric is close to: the nearest names still, said to be far.
PSTAT_PMU_EVENTS=$PMU_EVENTS PERF_CPUID=GenuineIntel-6-55-4 \
	expect_refused_saying "'NoSuchMetric' in the skylakex tables (none is close; the nearest: [A-Za-z_]" \
	-M NoSuchMetric
# Without a core PMU (this VM, say) -M says so, in one line, before any
# counter is opened; --topdown on AMD's tables is their PipelineL1.
if [ ! -d /sys/bus/event_source/devices/cpu ] &&
   ! ls /sys/bus/event_source/devices/*/cpus >/dev/null 2>&1; then
	PSTAT_PMU_EVENTS=$PMU_EVENTS PERF_CPUID=AuthenticAMD-25-11-0 \
		expect_refused_saying "is the core PMU's, which this machine does not have" \
		--topdown
	names=$(python3 - "$PMU_EVENTS" <<'EOF2'
import json, os, sys
d = os.path.join(sys.argv[1], "arch/x86/amdzen4")
for f in os.listdir(d):
    for m in json.load(open(os.path.join(d, f))):
        if "PipelineL1" in m.get("MetricGroup", "").split(";"):
            print(m["MetricName"])
EOF2
)
	first=$(sed -n "s/^pstat: -M \([^:]*\): .*/\1/p" err)
	printf '%s\n' "$names" | grep -qx "$first" ||
		fail_ "--topdown on amdzen4: '$first' is not a PipelineL1 metric"
fi

# A set-user-ID root pstat run by nobody takes its tables and its CPUID
# from neither variable (secure_getenv): a model made here, of a metric
# named secret_metric, is not listed, though the same pstat lists it
# for root.
mkdir -p fake/arch/x86/secret && cp "$PMU_EVENTS/arch/x86/mapfile.csv" \
	fake/arch/x86/ || framework_failure_ "cannot make fake/"
echo 'Bogus-9-9-9,v1,secret,core' >>fake/arch/x86/mapfile.csv
echo '[{"MetricName": "secret_metric", "MetricExpr": "1"}]' \
	>fake/arch/x86/secret/m.json
PSTAT_PMU_EVENTS=$tmpdir/fake PERF_CPUID=Bogus-9-9-9 run_pstat \
	--list metrics
expect_rc 0
grep -q '^  secret_metric$' out || fail_ "the fake model is not listed"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
   ! findmnt -n -o OPTIONS -T . 2>/dev/null | grep -qw nosuid &&
   cp "$PSTAT" ./pstat && chown 0:0 ./pstat && chmod 4755 ./pstat &&
   run_nobody ./pstat --check --json && grep -q '"elevated": true' out; then
	run_nobody env PSTAT_PMU_EVENTS="$tmpdir/fake" PERF_CPUID=Bogus-9-9-9 \
		./pstat --list metrics
	! grep -q secret_metric out ||
		fail_ "a set-user-ID pstat read PSTAT_PMU_EVENTS's tables"
	! grep -q -e "$tmpdir" -e Bogus-9-9-9 out err ||
		fail_ "a set-user-ID pstat took PSTAT_PMU_EVENTS or PERF_CPUID: $(cat err)"
fi
exit 0
