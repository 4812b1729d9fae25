#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -I with -r: each run prints its own intervals, counted from that run's
# start, and every format tells the runs apart (-x: the time goes back,
# as perf's fields have no place for a run; -j and pstat's own: a "run"
# key or column; human: a "# run N of M" line). Exactly 100 writes a run: each run's intervals add up to 100,
# however many intervals it lasts, and the --summary is their mean.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse JSON"

ev=syscalls:sys_enter_write
# Two bursts with a pause between: often more than one interval a run.
cmd="$PROGS/writer 50 && sleep 0.03 && $PROGS/writer 50"

# The per-run sums of "run value" lines on stdin: "1:100 2:100 3:100".
sums()
{
	awk '{ s[$1] += $2; if (!($1 in seen)) { seen[$1] = 1; o[++n] = $1 } }
	     END { for (i = 1; i <= n; i++)
		       printf "%s%s:%s", (i > 1 ? " " : ""), o[i], s[o[i]]
		   print "" }'
}

# -x: perf's fields in perf's order on every row, intervals and summary
# alike (time, value, unit, event, variance, run time, % running, metric
# value, metric unit), so that what reads perf's -x -I reads it: no run
# field; a run starts where the time goes back.
run_pstat -x, -r 3 -I 10 --summary -e "$ev" -- sh -c "$cmd"
expect_rc 0
expect_eq "$(csv_rows | awk -F, '$1 != "summary" {
		if ($1 + 0 < t) r++; t = $1 + 0; print r + 1, $2 }' | sums)" \
	"1:100 2:100 3:100" "-x, -r 3 -I: each run's intervals"
expect_eq "$(csv_rows | awk -F, '{ print NF, $4, ($5 ~ /^[0-9.]+%$/) }' |
	     sort -u)" "9 $ev 1" "-x, -r 3 -I --summary: one layout, perf's"
expect_eq "$(csv_rows | awk -F, '$1 == "summary" { print $2 "/" $5 }')" \
	"100/0.00%" "-x, -r 3 -I --summary: the mean of the runs"

# Without -r, perf's fields: no run field.
run_pstat -x, -I 10 -e "$ev" -- sh -c "$cmd"
expect_rc 0
expect_eq "$(csv_rows | awk -F, '{ print NF }' | sort -u)" 8 \
	"-x, -I: interval fields"
expect_eq "$(csv_rows | awk -F, '{ s += $2 } END { print s }')" 100 \
	"-x, -I: the intervals' sum"

# Human: a line names each run; its intervals follow it.
run_pstat -r 3 -I 10 -e "$ev" -- sh -c "$cmd"
expect_rc 0
expect_eq "$(awk '/^# run / { print $3 " of " $5 }' err | tr '\n' ' ')" \
	"1 of 3 2 of 3 3 of 3 " "-r 3 -I: the run lines"
expect_eq "$(awk '/^# run / { r = $3; next } /^#/ { next }
		  $3 == ev { print r, $2 }' ev="$ev" err | sums)" \
	"1:100 2:100 3:100" "-r 3 -I: each run's intervals"

# -j: a "run" key on each interval line with -r, none without.
run_pstat -j -r 3 -I 10 -e "$ev" -- sh -c "$cmd"
expect_rc 0
expect_eq "$(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    if line.strip():
        d = json.loads(line)
        print(d["run"], d["counter-value"])' err | sums)" \
	"1:100 2:100 3:100" "-j -r 3 -I: each run's intervals"
# and -r's "variance" on every line, intervals too, as in perf.
expect_eq "$(python3 -c '
import json, sys
print(sorted({"variance" in json.loads(l) for l in open(sys.argv[1])
              if l.strip()}))' err)" "[True]" "-j -r 3 -I: variance keys"
run_pstat -j -I 10 -e "$ev" -- sh -c "$cmd"
expect_rc 0
expect_eq "$(python3 -c '
import json, sys
print(sum("run" in json.loads(l) for l in open(sys.argv[1]) if l.strip()))
' err)" 0 "-j -I: no run key"

# pstat's CSV: the run column on intervals, empty on totals.
run_pstat --format=csv -r 3 -I 10 -e "$ev" -- sh -c "$cmd"
expect_rc 0
expect_eq "$(python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    if r["record"] == "interval":
        print(r["run"], r["value"])
    elif r["record"] == "total":
        assert r["run"] == "" and r["value"] == "100", r
    elif r["record"] == "run" and r["event"] == "runs":
        assert r["value"] == "3", r' err | sums)" \
	"1:100 2:100 3:100" "--format=csv -r 3 -I: each run's intervals"

# pstat's JSON: "run" in each interval, the totals the runs' mean.
run_pstat --format=json -r 3 -I 10 -e "$ev" -- sh -c "$cmd"
expect_rc 0
expect_eq "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for i in d["intervals"]:
    print(i["run"], i["events"][0]["value"])
e = d["events"][0]
assert e["runs"] == [100, 100, 100] and e["mean"] == 100, e
' err | sums)" "1:100 2:100 3:100" "--format=json -r 3 -I: each run's intervals"

# -x --metric-only: no run column either, as on event rows.
run_pstat -x, --metric-only -r 2 -I 10 -e task-clock -- sh -c "$cmd"
expect_rc 0
expect_eq "$(csv_rows | head -n 1)" "time,CPUs utilized" \
	"-x, --metric-only -r 2 -I: titles"
expect_eq "$(csv_rows | awk -F, '{ print NF }' | sort -u)" 2 \
	"-x, --metric-only -r 2 -I: fields"
