#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every Skylake-X metric of perf 6.1's tables whose inputs land on
# system calls tests/progs/syscalls makes prints perf's value, and the
# value its formula gives from the calls' exact counts. On the fake cpu
# PMU of the tracepoint PMU's type (tests/fake-pmu.sh) an event's config
# is a tracepoint id, which this kernel's build decides: the test maps
# each event of the tables to its tracepoint at run time and picks the
# metrics whose events all land on sys_enter_/sys_exit_ of those calls
# (IpBranch, IpCall, IpMispredict, ... here), formulas of events and
# other metrics alone, no literal. Each tracepoint's count is taken by
# perf -e syscalls:... for the same program; the metric's value is the
# formula evaluated with them, as perf prints it (%.2f).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_root
require_perf_events
require_tracefs
command -v perf >/dev/null 2>&1 || skip_ "perf is not installed"
command -v python3 >/dev/null 2>&1 || skip_ "python3 is not installed"
[ -d "${PMU_EVENTS_61:-}/arch/x86/skylakex" ] ||
	skip_ "no perf 6.1 tables (make check copies them from linux-source-6.1, which scripts/bootstrap --tests installs)"
# shellcheck source=tests/fake-pmu.sh
. "$top_srcdir/tests/fake-pmu.sh"
fake_tree
fake_intel_pmu cpu
export PERF_CPUID=GenuineIntel-6-55-4 PSTAT_PMU_EVENTS="$PMU_EVENTS_61"

cat >values.py <<'PY'
import glob, json, os, re, subprocess, sys

tables, tracefs, pstat, prog, tree_cmd = sys.argv[1:6]
in_tree = tree_cmd.split()
# The calls the program makes, each a count of its own (forks few).
COUNTS = {"unshare": 1000, "clone": 8, "vfork": 6, "getppid": 101,
          "getuid": 103, "getcpu": 107, "gettid": 109, "time": 113,
          "getrusage": 127, "sysinfo": 131, "sched_yield": 137,
          "getitimer": 139, "getgroups": 149, "setregid": 151,
          "setresgid": 157, "umask": 163, "msync": 167, "mincore": 173}
# perf's fixed terms for these names (jevents.py), whatever the JSON.
FIXED = {"inst_retired.any": 0xc0, "inst_retired.any_p": 0xc0,
         "cpu_clk_unhalted.ref": 0x300, "cpu_clk_unhalted.thread": 0x3c,
         "cpu_clk_unhalted.core": 0x3c,
         "cpu_clk_unhalted.thread_any": 0x3c | 1 << 21}

def config(e):
    v = int(e.get("EventCode", "0").split(",")[0], 16)
    v |= int(e.get("UMask", "0"), 16) << 8
    v |= (e.get("EdgeDetect", "0") != "0") << 18
    v |= (e.get("AnyThread", "0") != "0") << 21
    v |= (e.get("Invert", "0") != "0") << 23
    v |= int(e.get("CounterMask", "0"), 0) << 24
    return v

tp = {}
for f in glob.glob(tracefs + "/events/syscalls/*/id"):
    with open(f) as fh:
        tp[int(fh.read())] = f.split("/")[-2]
events, metrics = {}, {}
for f in glob.glob(tables + "/arch/x86/skylakex/*.json"):
    with open(f) as fh:
        for e in json.load(fh):
            if "EventName" in e and not e.get("Unit"):
                n = e["EventName"].lower()
                events[n] = FIXED.get(n, config(e))
            if "MetricName" in e and "MetricExpr" in e:
                metrics[e["MetricName"].lower()] = e

def call_of(name):
    """The tracepoint an event lands on, if the program makes its call."""
    t = tp.get(events[name])
    if t and t.split("_", 2)[2] in COUNTS:
        return t
    return None

def ids(expr):
    return set(re.findall(r"[A-Za-z_][A-Za-z0-9_.]*", expr)) - {
        "if", "else", "min", "max", "d_ratio"}

def inputs(name, depth=0):
    """The tracepoints of a metric's events, or None: not all callable."""
    expr = metrics[name]["MetricExpr"]
    if "#" in expr or depth > 10:
        return None
    got = set()
    for i in ids(expr):
        low = i.lower()
        if low in events:
            if not call_of(low):
                return None
            got.add(call_of(low))
        elif low in metrics:
            r = inputs(low, depth + 1)
            if r is None:
                return None
            got |= r
        else:
            return None
    return got

def value(name, counts):
    """The formula's value: events by their tracepoints' counts."""
    expr = metrics[name]["MetricExpr"]
    env = {"min": min, "max": max,
           "d_ratio": lambda a, b: a / b if b else 0}
    for i in sorted(ids(expr), key=len, reverse=True):
        low = i.lower()
        v = (counts[call_of(low)] if low in events else value(low, counts))
        key = "v%d" % len(env)
        env[key] = float(v)
        expr = re.sub(r"(?<![A-Za-z0-9_.])" + re.escape(i) +
                      r"(?![A-Za-z0-9_.])", key, expr)
    return eval(expr, {"__builtins__": {}}, env)

def csv_metric(text, name):
    for line in text.splitlines():
        f = line.split(",")
        if len(f) > 6 and f[6].split(" ")[-1].lower() == name:
            return f[5]
    return None

picked = sorted(m for m in metrics if inputs(m))
print("metrics whose inputs land on the program's calls:",
      " ".join(metrics[m]["MetricName"] for m in picked))
if len(picked) < 3:
    print("SKIP: fewer than 3 such metrics on this kernel's tracepoint ids")
    sys.exit(77)
calls = sorted({t.split("_", 2)[2] for m in picked for t in inputs(m)})
argv = [prog] + ["%s=%d" % (c, COUNTS[c]) for c in calls]
tps = sorted({t for m in picked for t in inputs(m)})
out = subprocess.run(["perf", "stat", "-x,", "-e",
                      ",".join("syscalls:" + t for t in tps), "--"] + argv,
                     capture_output=True, text=True)
counts = {}
for line in out.stderr.splitlines():
    f = line.split(",")
    if len(f) > 2 and f[2].startswith("syscalls:"):
        counts[f[2].split(":")[1]] = int(f[0])
if set(counts) != set(tps):
    print("FAIL: perf did not count", tps, out.stderr)
    sys.exit(1)
bad = 0
for m in picked:
    name = metrics[m]["MetricName"]
    want = "%.2f" % value(m, counts)
    got = {}
    for tool in (["perf", "stat"], [pstat]):
        r = subprocess.run(in_tree + tool + ["-x,", "-M", name, "--"] + argv,
                           capture_output=True, text=True)
        got[tool[0]] = csv_metric(r.stderr, m)
    line = "%s: perf %s, pstat %s, the formula %s" % (
        name, got["perf"], got[pstat], want)
    print(line)
    if not (got["perf"] == got[pstat] == want):
        print("FAIL: " + line)
        bad += 1
sys.exit(1 if bad else 0)
PY

# The wrapper in_tree is, as words for the script.
cat >in-tree <<EOF2
#!/bin/sh
exec unshare -m sh -c 'mount --bind "\$1" "\$2" && shift 2 && exec "\$@"' sh "$PWD/tree" "$devices" "\$@"
EOF2
chmod +x in-tree
python3 values.py "$PMU_EVENTS_61" "$tracefs" "$PSTAT" "$PROGS/syscalls" \
	"$PWD/in-tree"
rc=$?
[ "$rc" = 77 ] && skip_ "fewer than 3 metrics land on calls the program makes here"
[ "$rc" = 0 ] || fail_ "metric values differ (above)"
exit 0
