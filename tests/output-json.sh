#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -j: every line is a JSON object with perf stat's keys, numbers as JSON
# numbers, <not supported> a string; "variance" with -r, "interval" with -I.
# --format=json: one document with its version, the run (exit status,
# signal), the values of each run with -r, and the intervals with -I.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse JSON"

cat >check_jsonl.py <<'EOF'
import json, sys

mode, path = sys.argv[1], sys.argv[2]
keys = ["counter-value", "unit", "event", "event-runtime", "pcnt-running",
        "metric-value", "metric-unit"]

def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)

def fail(msg):
    sys.exit("FAIL: %s: %s" % (mode, msg))

lines = [l for l in open(path) if l.strip() and not l.startswith("pstat:")]
if not lines:
    fail("no JSON lines")
events, stamps = [], []
for l in lines:
    try:
        o = json.loads(l)
    except ValueError as e:
        fail("not JSON (%s): %r" % (e, l))
    if not isinstance(o, dict):
        fail("not an object: %r" % l)
    for k in keys:
        if k not in o:
            fail("no %r in %r" % (k, l))
    for k in ("event-runtime", "pcnt-running", "metric-value"):
        if not num(o[k]):
            fail("%s is not a number in %r" % (k, l))
    for k in ("unit", "event", "metric-unit"):
        if not isinstance(o[k], str):
            fail("%s is not a string in %r" % (k, l))
    ev, v = o["event"], o["counter-value"]
    events.append(ev)
    if ev in ("task-clock", "page-faults") and not num(v):
        fail("counted %s is %r, not a number" % (ev, v))
    if ev == "cycles" and not num(v) and v != "<not supported>":
        fail("cycles is %r" % (v,))
    if mode == "repeat" and not num(o.get("variance")):
        fail("perf stat -j -r gives every line a variance: %r" % l)
    if mode == "interval":
        if not num(o.get("interval")):
            fail("no interval number in %r" % l)
        stamps.append(o["interval"])
    elif "interval" in o:
        fail("an interval without -I: %r" % l)
    if mode != "repeat" and "variance" in o:
        fail("a variance without -r: %r" % l)
if stamps != sorted(stamps):
    fail("intervals not rising: %r" % stamps)
want = ["task-clock", "page-faults"] + (["cycles"] if mode != "interval" else [])
if mode != "interval" and events != want:
    fail("events %r, expected %r" % (events, want))
EOF

cat >check_doc.py <<'EOF'
import json, sys

mode, path, version = sys.argv[1], sys.argv[2], sys.argv[3]
states = {"counted", "scaled", "not-counted", "not-supported"}

def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)

def fail(msg):
    sys.exit("FAIL: --format=json %s: %s" % (mode, msg))

try:
    d = json.load(open(path))
except ValueError as e:
    fail("not one JSON document: %s" % e)
if d.get("format") != "pstat" or d.get("format_version") != 1:
    fail("format %r, version %r" % (d.get("format"), d.get("format_version")))
if d.get("pstat_version") != version:
    fail("pstat_version %r, expected %r" % (d.get("pstat_version"), version))
for k in ("intervals", "events", "run"):
    if k not in d:
        fail("no %r" % k)

def check_event(e, repeat):
    for k in ("event", "value", "unit", "status", "enabled_ns", "running_ns",
              "running_pct", "metrics"):
        if k not in e:
            fail("no %r in %r" % (k, e))
    if e["status"] not in states:
        fail("status %r" % e["status"])
    counted = e["status"] in ("counted", "scaled")
    if counted != num(e["value"]) or (not counted and e["value"] is not None):
        fail("value %r with status %r" % (e["value"], e["status"]))
    for k in ("enabled_ns", "running_ns", "running_pct"):
        if not num(e[k]):
            fail("%s is %r" % (k, e[k]))
    for m in e["metrics"]:
        if not num(m.get("value")) or not isinstance(m.get("unit"), str):
            fail("metric %r" % m)
    if repeat and counted:
        runs = e.get("runs")
        if not isinstance(runs, list) or len(runs) != 3:
            fail("runs of %s: %r" % (e["event"], runs))
        for k in ("mean", "stddev", "min", "max", "variance_pct"):
            if not num(e.get(k)):
                fail("%s of %s: %r" % (k, e["event"], e.get(k)))
        if abs(e["mean"] - sum(runs) / 3) > 1e-9 * max(1, abs(e["mean"])):
            fail("mean %r of runs %r" % (e["mean"], runs))
        if not e["min"] == min(runs) <= e["mean"] <= max(runs) == e["max"]:
            fail("min/mean/max %r %r %r of %r" %
                 (e["min"], e["mean"], e["max"], runs))
    elif not repeat and "runs" in e:
        fail("per-run values without -r: %r" % e)

names = []
for e in d["events"]:
    check_event(e, mode == "repeat")
    names.append(e["event"])
run = d["run"]
for k in ("command", "exit_status", "signal", "elapsed_s", "user_s", "sys_s",
          "max_rss_kib", "runs"):
    if k not in run:
        fail("no run.%s" % k)
for k in ("elapsed_s", "user_s", "sys_s", "max_rss_kib", "runs"):
    if not num(run[k]):
        fail("run.%s is %r" % (k, run[k]))

if mode == "exit3":
    if run["command"] != ["sh", "-c", "exit 3"]:
        fail("run.command %r" % run["command"])
    if run["exit_status"] != 3 or run["signal"] is not None:
        fail("exit_status %r, signal %r" % (run["exit_status"], run["signal"]))
    if run["runs"] != 1 or d["intervals"] != []:
        fail("runs %r, intervals %r" % (run["runs"], d["intervals"]))
    if names != ["task-clock", "page-faults", "cycles"]:
        fail("events %r" % names)
elif mode == "signal":
    if run["exit_status"] is not None or run["signal"] != 9:
        fail("exit_status %r, signal %r" % (run["exit_status"], run["signal"]))
elif mode == "repeat":
    if run["runs"] != 3 or run["exit_status"] != 0:
        fail("runs %r, exit_status %r" % (run["runs"], run["exit_status"]))
    pf = [e for e in d["events"] if e["event"] == "page-faults"][0]
    if not all(isinstance(v, int) for v in pf["runs"]):
        fail("page-faults runs %r are not integers" % pf["runs"])
elif mode == "interval":
    iv = d["intervals"]
    if not isinstance(iv, list) or len(iv) < 2:
        fail("intervals %r" % iv)
    times = [i.get("time") for i in iv]
    if not all(num(t) for t in times) or times != sorted(set(times)):
        fail("times %r" % times)
    total = 0
    for i in iv:
        if [e["event"] for e in i["events"]] != ["task-clock", "page-faults"]:
            fail("interval events %r" % i["events"])
        for e in i["events"]:
            check_event(e, False)
        total += i["events"][1]["value"]
    if total != d["events"][1]["value"]:
        fail("interval page-faults add up to %r, the total is %r" %
             (total, d["events"][1]["value"]))
    if abs(times[-1] - run["elapsed_s"]) > 1e-6:
        fail("last interval at %r, elapsed %r" % (times[-1], run["elapsed_s"]))
EOF

# check_jsonl MODE: every line of ./err.
check_jsonl()
{
	python3 check_jsonl.py "$1" err || { show_err_; fail_ "-j ($1)"; }
}

run_pstat -j -e task-clock,page-faults,cycles -- true
expect_rc 0
check_jsonl plain

run_pstat -j -r 3 -e task-clock,page-faults,cycles -- true
expect_rc 0
check_jsonl repeat

run_pstat -j -I 100 -e task-clock,page-faults -- sleep 0.25
expect_rc 0
check_jsonl interval

version=$("$PSTAT" -V | sed -n '1s/^pstat //p')

# check_doc MODE: ./doc.json is one document as MODE expects.
check_doc()
{
	python3 check_doc.py "$1" doc.json "$version" ||
		{ show_err_; echo "--- doc.json:"; cat doc.json; fail_ "$1"; }
}

run_pstat --format=json -o doc.json -e task-clock,page-faults,cycles \
	-- sh -c 'exit 3'
expect_rc 3
check_doc exit3

run_pstat --format=json -o doc.json -e task-clock,page-faults \
	-- sh -c 'kill -9 $$'
expect_rc 137
check_doc signal

run_pstat --format=json -o doc.json -r 3 -e task-clock,page-faults,cycles \
	-- true
expect_rc 0
check_doc repeat

run_pstat --format=json -o doc.json -I 100 -e task-clock,page-faults \
	-- sleep 0.25
expect_rc 0
check_doc interval
exit 0
