#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A failure once counting has begun (a failing --post, a later run's
# command gone, a failure after -I's intervals) is late, and every late
# failure goes the same way: the results of what was counted, whole (a
# stream of -x, -j or --format parses, its run record saying the runs
# made and the error), then the failure on stderr, but never into a
# stream of machine output, and its exit status (125; 127 for a command
# not found), not the command's.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse JSON"

ev=task-clock,page-faults
# --post fails after the second run: it finds the file the first made.
post='[ ! -e post.1 ] || exit 1; touch post.1'

# no_message: stderr, which carries the results, has no pstat: line.
no_message()
{
	! grep -q 'pstat:' err || { show_err_; fail_ "$1: a pstat: line in the results"; }
}

# --format=json: one document, the two runs made and the error; the
# command's status (3) is in the record, the exit status is 125.
rm -f post.1
run_pstat --format=json -r 3 --post "$post" -e "$ev" -- sh -c 'exit 3'
expect_rc 125
no_message "--format=json"
python3 - <<'PY' || { show_err_; fail_ "--format=json: the document"; }
import json
d = json.load(open("err"))
run = d["run"]
assert run["runs"] == 2 and run["exit_status"] == 3, run
assert run["error"].startswith("--post '") and "after run 2" in run["error"], run
assert [e["status"] for e in d["events"]] == ["counted", "counted"], d
PY

# --format=csv: the same, in the error row.
rm -f post.1
run_pstat --format=csv -r 3 --post "$post" -e "$ev" -- true
expect_rc 125
no_message "--format=csv"
python3 - <<'PY' || { show_err_; fail_ "--format=csv: the rows"; }
import csv
rows = list(csv.DictReader(open("err")))
run = {r["event"]: r["value"] for r in rows if r["record"] == "run"}
assert run["runs"] == "2" and "after run 2" in run["error"], run
assert sum(r["record"] == "total" for r in rows) == 2, rows
PY

# -x and -j: perf's rows alone.
for fmt in -x, -j; do
	rm -f post.1
	run_pstat "$fmt" -r 3 --post "$post" -e "$ev" -- true
	expect_rc 125
	no_message "$fmt"
	expect_eq "$(grep -c . err)" 2 "$fmt: the rows"
done
rm -f post.1
run_pstat -j -r 3 --post "$post" -e "$ev" -- true
python3 -c 'import json, sys
[json.loads(l) for l in open("err")]' || { show_err_; fail_ "-j: not JSON lines"; }

# With the results elsewhere (-o), the failure is said on stderr, once.
rm -f post.1
run_pstat --format=json -o res.json -r 3 --post "$post" -e "$ev" -- true
expect_rc 125
python3 -c 'import json; assert json.load(open("res.json"))["run"]["runs"] == 2' ||
	fail_ "-o res.json: the document"
expect_eq "$(grep -c . err)" 1 "-o: lines on stderr"
grep -q "^pstat: --post '.*' exited with status 1 after run 2, so no more runs were made\$" err ||
	{ show_err_; fail_ "-o: the message"; }

# Human results: the failure after them.
rm -f post.1
run_pstat -r 3 --post "$post" -e "$ev" -- true
expect_rc 125
expect_eq "$(grep -v '^$' err | tail -n 1 | cut -c1-14)" "pstat: --post " \
	"human: the failure last"
grep -q "Performance counter stats for 'true' (2 runs)" err ||
	{ show_err_; fail_ "human: the runs made"; }

# A later run whose command is gone: run 1's results, status 127.
cp "$PROGS/writer" ./w || framework_failure_ "no writer"
run_pstat --format=json -r 3 --post 'rm -f ./w' -e "$ev" -- ./w 5
expect_rc 127
no_message "a later exec failure"
python3 - <<'PY' || { show_err_; fail_ "a later exec failure: the document"; }
import json
run = json.load(open("err"))["run"]
assert run["runs"] == 1 and "cannot run './w'" in run["error"], run
PY

# -I: the intervals printed, then the rest of the document.
rm -f post.1
run_pstat --format=json -I 10 -r 3 --post "$post" -e "$ev" -- sleep 0.03
expect_rc 125
no_message "-I"
python3 - <<'PY' || { show_err_; fail_ "-I: the document"; }
import json
d = json.load(open("err"))
assert {i["run"] for i in d["intervals"]} == {1, 2}, d["intervals"]
assert d["run"]["runs"] == 2 and d["run"]["error"], d["run"]
PY
exit 0
