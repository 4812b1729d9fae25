#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pstat top -b: workers writing 100, 200 and 400 times a second show
# those rates, sorted by --sort; a process started after top began is
# found by the scan; one that ends is shown once, marked 'ended', then
# gone; a low open-file limit leaves tasks uncounted with a note, the
# busiest counted, and top still runs. Rates are checked within 15% of
# what the workers make on their clock (they catch up after a late
# wake-up), never a time.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_root
require_tracefs
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse JSON"
command -v setpriv >/dev/null 2>&1 || skip_ "setpriv is needed to run workers as nobody"

ev=syscalls:sys_enter_write

# runs_ticker PID: PID has made its exec of ticker.
runs_ticker()
{
	[ "$(cat "/proc/$1/comm" 2>/dev/null)" = ticker ]
}

cat >check.py <<'PY'
import json, sys

def fail(msg):
    sys.exit("FAIL: %s" % msg)

def docs(path):
    out = []
    for n, line in enumerate(open(path), 1):
        try:
            d = json.loads(line)
        except ValueError as e:
            fail("line %d is not JSON (%s): %r" % (n, e, line))
        if d.get("format") != "pstat-top" or d.get("format_version") != 1:
            fail("line %d: no format pstat-top, format_version 1: %r" %
                 (n, line))
        if d["interval"] != n:
            fail("line %d is interval %r" % (n, d["interval"]))
        out.append(d)
    return out

def rate(row, ev):
    for e in row["events"]:
        if e["event"] == ev:
            return e["rate"], e["count"]
    fail("no %s in %r" % (ev, row))

def rates(path, ev, n, *pairs):
    """PID=RATE...: each within 15% in each of the n intervals, the
    rows in the order of the rates, the largest first."""
    ds, n = docs(path), int(n)
    if len(ds) != n:
        fail("%d intervals, not %d" % (len(ds), n))
    want = dict((int(p), float(r)) for p, r in (x.split("=") for x in pairs))
    for d in ds:
        rows = [r for r in d["rows"] if r["pid"] in want]
        if sorted(r["pid"] for r in rows) != sorted(want):
            fail("interval %d has rows %r, not %r" %
                 (d["interval"], [r["pid"] for r in rows], sorted(want)))
        for r in rows:
            got, count = rate(r, ev)
            if r["state"] != "live" or abs(got - want[r["pid"]]) > 0.15 * want[r["pid"]]:
                fail("interval %d: pid %d: %s %r/s (%r), not %r/s" %
                     (d["interval"], r["pid"], r["state"], got, count,
                      want[r["pid"]]))
        order = [r["pid"] for r in rows]
        if order != sorted(want, key=lambda p: -want[p]):
            fail("interval %d: rows in order %r, not by rate" %
                 (d["interval"], order))

def lifecycle(path, early, late):
    """early: live, then ended in one interval, then gone; late: in an
    interval at the latest two after the one top printed before it
    started (its first whole interval), counted."""
    ds = docs(path)
    states = [[r["state"] for r in d["rows"] if r["pid"] == int(early)]
              for d in ds]
    flat = ["".join(s[:1]) or "-" for s in states]
    if any(len(s) > 1 for s in states):
        fail("pid %s twice in an interval: %r" % (early, states))
    if "ended" not in flat:
        fail("pid %s never shown ended: %r" % (early, flat))
    i = flat.index("ended")
    if i == 0 or flat[i - 1] != "live" or any(f != "-" for f in flat[i + 1:]) \
       or i + 1 >= len(flat):
        fail("pid %s: %r, not live, ended once, then gone" % (early, flat))
    seen = [d["interval"] for d in ds
            if any(r["pid"] == int(late) and r["state"] == "live" and
                   rate(r, "syscalls:sys_enter_write")[1] > 0
                   for r in d["rows"])]
    if not seen or seen[0] > 3:
        fail("pid %s (started after interval 1) counted in intervals %r, "
             "not from interval 3 at the latest" % (late, seen))

def budget(path, busy, n):
    ds, n = docs(path), int(n)
    for d in ds:
        if d["not_counted"] < 1 or not d["notes"] or \
           "open-file limit" not in d["notes"][0]:
            fail("interval %d: no note of tasks left uncounted: %r" %
                 (d["interval"], d))
        if d["counted"] + d["not_counted"] != d["tasks"] or d["tasks"] != n:
            fail("interval %d: %d counted + %d not, of %d tasks, not %d" %
                 (d["interval"], d["counted"], d["not_counted"],
                  d["tasks"], n))
        if len(d["rows"]) != d["counted"]:
            fail("interval %d: %d rows, %d counted" %
                 (d["interval"], len(d["rows"]), d["counted"]))
        if int(busy) not in [r["pid"] for r in d["rows"]]:
            fail("interval %d: the busiest, %s, is not counted" %
                 (d["interval"], busy))

globals()[sys.argv[1]](*sys.argv[2:])
PY

# Three workers; rates by --sort of the event, in JSON lines.
"$PROGS/ticker" 100 >/dev/null & p1=$!; started $p1
"$PROGS/ticker" 200 >/dev/null & p2=$!; started $p2
"$PROGS/ticker" 400 >/dev/null & p3=$!; started $p3
run_pstat top -b -n 3 -d 1 --format=json -e "$ev" -p "$p1,$p2,$p3" \
	--sort "$ev"
expect_rc 0
[ ! -s err ] || { show_err_; fail_ "top -b --format=json wrote on stderr"; }
python3 check.py rates out "$ev" 3 "$p1=100" "$p2=200" "$p3=400" ||
	{ cat out; fail_ "top --format=json --sort $ev"; }

# -x: a line a row, sorted by PID; -j is the same JSON lines.
run_pstat top -b -n 1 -d 0.5 -x ';' -e "$ev" -p "$p3,$p1,$p2" --sort pid
expect_rc 0
expect_eq "$(cut -d';' -f2 out | tr '\n' ' ')" \
	"$(printf '%s\n' "$p1" "$p2" "$p3" | sort -n | tr '\n' ' ')" \
	"top -x ';' --sort pid: the pids in order"
expect_eq "$(cut -d';' -f4,5,8 out | sort -u)" "ticker;live;$ev" \
	"top -x: comm, state, the event"
run_pstat top -b -n 1 -d 0.5 -j -e "$ev" -p "$p3"
expect_rc 0
python3 check.py rates out "$ev" 1 "$p3=400" || fail_ "top -j"
kill "$p1" "$p2" "$p3"
waited "$p1"; waited "$p2"; waited "$p3"

# -u: a worker that ends after interval 1, and one started after it.
setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$PROGS/ticker" 100 >/dev/null &
p_early=$!; started $p_early
wait_until "the worker runs as nobody" runs_ticker "$p_early"
rm -f out
"$PSTAT" top -b -n 4 -d 1 --format=json -e "$ev" -u nobody >out 2>err &
top=$!; started $top
wait_until "top's first interval" grep -q '"interval":1,' out
kill "$p_early"; waited "$p_early"
setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$PROGS/ticker" 100 5 >/dev/null &
p_late=$!; started $p_late
waited "$top"
expect_rc 0
python3 check.py lifecycle out "$p_early" "$p_late" ||
	{ cat out err; fail_ "top -u: processes that start and end"; }
kill "$p_late"; waited "$p_late"

# A low open-file limit: 21 tasks of 2 counters each do not fit in 40
# descriptors; the busiest is counted, and the note says the rest.
sh -c 'while :; do :; done' & busy=$!; started $busy
wait_until "the busy loop has used CPU time" \
	awk '{ exit !($14 + $15 > 10) }' "/proc/$busy/stat"
pids=$busy
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	sleep 60 & p=$!; started $p
	pids=$pids,$p
done
rc=0
(ulimit -n 40 && exec "$PSTAT" top -b -n 2 -d 0.2 --format=json \
	-e task-clock,context-switches -p "$pids") >out 2>err || rc=$?
expect_rc 0
python3 check.py budget out "$busy" 21 || { cat out err; fail_ "ulimit -n 40"; }
rc=0
(ulimit -n 40 && exec "$PSTAT" top -b -n 2 -d 0.2 -x, \
	-e task-clock,context-switches -p "$pids") >out 2>err || rc=$?
expect_rc 0
expect_eq "$(grep -c 'open-file limit' err)" 1 "top -x with the fd budget: the note, once, on stderr"
grep -q 'open-file limit' out && fail_ "top -x: the note in the -x lines"
rc=0
(ulimit -n 40 && exec "$PSTAT" top -b -n 1 -d 0.2 \
	-e task-clock,context-switches -p "$pids") >out 2>err || rc=$?
expect_rc 0
grep -q '^note: .* of 21 tasks are not counted: .*open-file limit' out ||
	{ cat out; fail_ "top -b: no note of the fd budget in the table"; }
exit 0
