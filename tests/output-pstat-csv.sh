#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --format=csv: a header, then as many fields as it has on every line in
# every mode, a status per value, and run rows describing the run.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse CSV"

cat >check_csv.py <<'EOF'
import csv, re, sys

mode, path, version = sys.argv[1], sys.argv[2], sys.argv[3]
# The documented columns, in this order; others may come between them.
columns = ["record", "interval", "event", "value", "unit", "status",
           "enabled_ns", "running_ns", "running_pct", "metric_value",
           "metric_unit", "variance_pct", "run", "metric_status",
           "metric_input", "metric_name", "metric_formula", "metric_inputs",
           "metric_running_pct", "metric_threshold", "metric_input_events",
           "metric_scale"]
states = {"counted", "scaled", "not-counted", "not-supported"}
metric_states = {"counted", "nan", "inf", "-inf", "not-counted",
                 "not-supported"}
number = re.compile(r"^-?[0-9]+(\.[0-9]+)?$")

def fail(msg):
    sys.exit("FAIL: --format=csv %s: %s" % (mode, msg))

with open(path, newline="") as f:
    rows = list(csv.reader(f))
header = rows[0] if rows else []
if header[:2] != columns[:2] or len(set(header)) != len(header) or \
        [c for c in header if c in columns] != columns:
    fail("header %r" % header)
for r in rows:
    if len(r) != len(header):
        fail("%d fields, not %d: %r" % (len(r), len(header), r))
rows = [dict(zip(header, r)) for r in rows[1:]]
# Columns of modes not used here (per-CPU counting) stay empty.
others = [c for c in header if c not in columns]
for r in rows:
    if r["record"] != "run" and any(r[c] for c in others):
        fail("a row fills %r: %r" % (others, r))

totals, intervals, run = [], [], {}
for r in rows:
    kind = r["record"]
    if kind == "run":
        if r["event"] in run:
            fail("run row %r twice" % r["event"])
        run[r["event"]] = r["value"]
        if any(r[k] for k in header if k not in ("record", "event", "value")):
            fail("run row with more than a key and a value: %r" % r)
        continue
    if run:
        fail("a %s row after the run rows: %r" % (kind, r))
    if kind not in ("total", "interval", "metric"):
        fail("record %r" % kind)
    if kind == "metric":
        continue
    if r["status"] not in states:
        fail("status %r" % r["status"])
    counted = r["status"] in ("counted", "scaled")
    if counted != bool(number.match(r["value"])):
        fail("value %r with status %r" % (r["value"], r["status"]))
    for k in ("enabled_ns", "running_ns", "running_pct"):
        if not number.match(r[k]):
            fail("%s %r" % (k, r[k]))
    if r["metric_value"] and not number.match(r["metric_value"]):
        fail("metric_value %r" % r["metric_value"])
    # A metric has a status; a row without one has none.
    if bool(r["metric_unit"]) != (r["metric_status"] in metric_states):
        fail("metric_status %r" % r["metric_status"])
    if kind == "interval":
        if not re.match(r"^[0-9]+\.[0-9]{9}$", r["interval"]):
            fail("interval %r" % r["interval"])
        # Its run, 1 for the first (tests/interval-repeat.sh has -r).
        if r["run"] != "1":
            fail("interval of run %r" % r["run"])
        intervals.append(r)
    else:
        if r["interval"] or r["run"]:
            fail("a total with an interval or a run: %r" % r)
        totals.append(r)
    if mode == "repeat" and kind == "total" and counted:
        if not number.match(r["variance_pct"]):
            fail("variance_pct %r" % r["variance_pct"])
    elif r["variance_pct"]:
        fail("variance_pct without -r: %r" % r)

keys = ["command", "exit_status", "elapsed_s", "user_s", "sys_s",
        "max_rss_kib", "runs", "interrupted", "pstat_version",
        "format_version"]
if mode == "signal":
    keys[1] = "signal"
if list(run) != keys:
    fail("run rows %r, expected %r" % (list(run), keys))
for k in ("elapsed_s", "user_s", "sys_s", "max_rss_kib", "runs"):
    if not number.match(run[k]):
        fail("run %s %r" % (k, run[k]))
if run["pstat_version"] != version or run["format_version"] != "1":
    fail("versions %r %r" % (run["pstat_version"], run["format_version"]))

def events(rs):
    return [r["event"] for r in rs]

if mode == "exit3":
    if run["command"] != 'sh -c exit 3 a,"b' or run["exit_status"] != "3":
        fail("command %r, exit_status %r" %
             (run["command"], run["exit_status"]))
    if run["runs"] != "1" or intervals:
        fail("runs %r, intervals %r" % (run["runs"], intervals))
    if events(totals) != ["task-clock", "page-faults", "cycles"]:
        fail("events %r" % events(totals))
    if totals[0]["unit"] != "msec" or totals[1]["unit"] != "":
        fail("units %r %r" % (totals[0]["unit"], totals[1]["unit"]))
    if not totals[1]["value"].isdigit():
        fail("page-faults %r, not an integer" % totals[1]["value"])
elif mode == "signal":
    if run["signal"] != "SIGKILL":
        fail("signal %r" % run["signal"])
elif mode == "repeat":
    if run["runs"] != "3":
        fail("runs %r" % run["runs"])
elif mode == "interval":
    if len(intervals) < 4 or len(intervals) % 2:
        fail("%d interval rows" % len(intervals))
    times = [r["interval"] for r in intervals[::2]]
    if times != [r["interval"] for r in intervals[1::2]]:
        fail("the events of an interval have different times")
    if [float(t) for t in times] != sorted(set(float(t) for t in times)):
        fail("times %r" % times)
    pf = sum(int(r["value"]) for r in intervals
             if r["event"] == "page-faults")
    if str(pf) != totals[1]["value"]:
        fail("interval page-faults add up to %d, the total is %r" %
             (pf, totals[1]["value"]))
    if times[-1] != run["elapsed_s"]:
        fail("last interval at %r, elapsed_s %r" % (times[-1],
                                                     run["elapsed_s"]))
EOF

version=$("$PSTAT" -V | sed -n '1s/^pstat //p')

# check_csv MODE: ./doc.csv as MODE expects.
check_csv()
{
	python3 check_csv.py "$1" doc.csv "$version" ||
		{ show_err_; echo "--- doc.csv:"; cat doc.csv; fail_ "$1"; }
}

# The command's words joined with spaces; a comma and a quote in them
# make the field quoted, RFC 4180 style.
run_pstat --format=csv -o doc.csv -e task-clock,page-faults,cycles \
	-- sh -c 'exit 3' 'a,"b'
expect_rc 3
grep -Eqx 'run,,(,*)command,"sh -c exit 3 a,""b",,,,,,,,,,,,,,,,,,,,' doc.csv ||
	{ cat doc.csv; fail_ "the command's field is not quoted"; }
check_csv exit3

run_pstat --format=csv -o doc.csv -e task-clock,page-faults \
	-- sh -c 'kill -9 $$'
expect_rc 137
check_csv signal

run_pstat --format=csv -o doc.csv -r 3 -e task-clock,page-faults,cycles \
	-- true
expect_rc 0
check_csv repeat

run_pstat --format=csv -o doc.csv -I 100 -e task-clock,page-faults \
	-- sleep 0.25
expect_rc 0
check_csv interval

# Without -o the header is still the first line of the results.
run_pstat --format=csv -e task-clock -- true
expect_rc 0
csv_rows | head -n 1 | grep -q '^record,interval,' ||
	{ show_err_; fail_ "--format=csv: the header is not first"; }

# The README's sample: pstat's header, and as many fields on each row.
run_pstat --format=csv -e page-faults -- true
expect_rc 0
awk '/^    \$ pstat --format=csv -e page-faults -- true$/ { on = 1; next }
     on && /^    \.\.\.$/ { exit } on { print substr($0, 5) }' \
	"$top_srcdir/README.md" >sample
[ -s sample ] || framework_failure_ "no --format=csv sample in README.md"
expect_eq "$(head -n 1 sample)" "$(csv_rows | head -n 1)" \
	"README.md: the --format=csv sample's header"
expect_eq "$(awk -F, '{ print NF }' sample | sort -u)" \
	"$(csv_rows | awk -F, 'NR == 1 { print NF }')" \
	"README.md: the --format=csv sample's fields"
exit 0
