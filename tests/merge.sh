#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pstat --merge, no MPI needed: four pstat processes with their ranks set
# by hand count 100, 200, 300 and 400 writes exactly; the merge says sum
# 1000, mean 250, min 100 at rank 0, max 400 at rank 3, 4/4, in human,
# --format=csv and --format=json; a rank <not supported> is left out of
# the statistics; failed ranks; and the refusals: exit 125, nothing
# printed.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse JSON"
unset PSTAT_RANK PSTAT_LOCAL_RANK PSTAT_SIZE PSTAT_JOB_ID \
	OMPI_COMM_WORLD_RANK PMIX_RANK PMI_RANK MV2_COMM_WORLD_RANK \
	SLURM_PROCID SLURM_LOCALID SLURM_NTASKS SLURM_JOB_ID

ev=syscalls:sys_enter_write,task-clock
mkdir csv mixed
for r in 0 1 2 3; do
	# Half the files JSON: --merge tells them apart.
	fmt=csv
	[ "$r" -ge 2 ] && fmt=json
	PSTAT_RANK=$r PSTAT_SIZE=4 PSTAT_JOB_ID=j7 "$PSTAT" --format=csv \
		-o 'csv/rank.%r.csv' -e "$ev" -- \
		"$PROGS/writer" $(((r + 1) * 100)) 2>err &
	started $!
	PSTAT_RANK=$r PSTAT_SIZE=4 "$PSTAT" --format=$fmt \
		-o "mixed/rank.%r.$fmt" -e "$ev" -- \
		"$PROGS/writer" $(((r + 1) * 100)) 2>>err &
	started $!
done
for p in $running_; do
	waited "$p"
	expect_rc 0
done

check_json()
{
	python3 - "$@" <<'PY'
import json, sys
doc = json.load(open("out"))
assert doc["format"] == "pstat-merge" and doc["format_version"] == 2, doc
ev = {e["event"]: e for e in doc["events"]}
w = ev["syscalls:sys_enter_write"]
want = {"sum": 1000, "mean": 250, "min": 100, "min_rank": 0, "max": 400,
        "max_rank": 3, "ranks_counted": 4, "ranks": 4, "uncounted": [],
        "load_balance": 0.625}
for k, v in want.items():
    assert w[k] == v, (k, w[k], v)
assert abs(w["imbalance_pct"] - 60) < 1e-9, w
assert abs(w["stddev"] - 129.09944487358056) < 1e-6, w
assert w["min_running_pct"] == 100, w
run = doc["run"]
assert run["ranks"] == [0, 1, 2, 3] and run["size"] == 4, run
assert run["missing"] == [] and run["failed"] == [], run
assert run["exit_status"] == 0, run
assert run["wall_s"] > 0 and run["user_s"]["sum"] >= run["user_s"]["max"]
for a in sys.argv[1:]:
    k, v = a.split("=")
    assert str(run[k]) == v, (k, run[k], v)
PY
}

for set in csv mixed; do
	run_pstat --merge $set/rank.*
	expect_rc 0
	[ ! -s err ] || { show_err_; fail_ "$set: human: stderr"; }
	grep -Eq '^  syscalls:sys_enter_write +4/4 +1000 +250\.00 .* 100 \(0\) +400 \(3\) +60\.00% +0\.625 +100\.00%$' out ||
		{ cat out; fail_ "$set: human: the write line"; }
	grep -q '4 present (0-3) of 4; missing: none' out ||
		{ cat out; fail_ "$set: human: the ranks"; }
	# task-clock's sum, min and max with two decimals, as its mean.
	grep -Eq '^  task-clock +4/4 +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} \([0-3]\) +[0-9]+\.[0-9]{2} \([0-3]\) ' out ||
		{ cat out; fail_ "$set: human: task-clock's decimals"; }
	run_pstat --merge --format=csv $set/rank.*
	expect_rc 0
	python3 - <<'PY' || { cat out; fail_ "$set: --format=csv"; }
import csv
rows = list(csv.reader(open("out")))
head = rows[0]
assert all(len(r) == len(head) for r in rows), "ragged"
rec = [dict(zip(head, r)) for r in rows[1:]]
w = [r for r in rec if r["record"] == "event" and
     r["event"] == "syscalls:sys_enter_write"][0]
want = {"ranks_counted": "4", "ranks": "4", "sum": "1000", "min": "100",
        "min_rank": "0", "max": "400", "max_rank": "3",
        "uncounted_ranks": ""}
for k, v in want.items():
    assert w[k] == v, (k, w[k], v)
assert float(w["mean"]) == 250, w
run = {r["event"]: r["value"] for r in rec if r["record"] == "run"}
assert run["ranks_present"] == "0-3" and run["exit_status"] == "0", run
# KiB whole, seconds with 6 decimals.
for k in ("sum", "min", "max"):
    assert run["max_rss_kib_" + k].isdigit(), run
    assert len(run["user_s_" + k].split(".")[1]) == 6, run
assert run["format_version"] == "2", run
PY
	# Quotes only around a field that holds a comma or a quote.
	! grep -q '"' out || { cat out; fail_ "$set: --format=csv: quotes"; }
	run_pstat --merge --format=json $set/rank.*
	expect_rc 0
	check_json || { cat out; fail_ "$set: --format=json"; }
done
# -o, and the job id the files carry.
run_pstat --merge --format=json -o merged.json csv/rank.*
expect_rc 0
[ ! -s out ] || fail_ "-o: stdout is not empty"
cp merged.json out
check_json job_id=j7 || { cat out; fail_ "-o merged.json"; }

# Rank 2 could not count task-clock: left out, and said so.
mkdir ns
cp csv/rank.* ns/
sed 's/^total,,,,task-clock,[^,]*,msec,counted,/total,,,,task-clock,,msec,not-supported,/' \
	csv/rank.2.csv >ns/rank.2.csv
run_pstat --merge --format=json ns/rank.*
expect_rc 0
python3 - <<'PY' || { cat out; fail_ "a rank <not supported>"; }
import json
ev = {e["event"]: e for e in json.load(open("out"))["events"]}
t = ev["task-clock"]
assert t["ranks_counted"] == 3 and t["ranks"] == 4, t
assert t["uncounted"] == [{"rank": 2, "status": "not-supported"}], t
assert ev["syscalls:sys_enter_write"]["sum"] == 1000
PY
run_pstat --merge ns/rank.*
grep -Eq '^  task-clock +3/4 ' out && grep -q 'left out: rank 2 <not supported>' out ||
	{ cat out; fail_ "human: 3/4 and the rank left out"; }

# Rank 2 could not count the writes: their rate divides by the
# task-clock of the ranks that counted them, not of all four.
mkdir nw
cp csv/rank.* nw/
sed 's/^total,,,,syscalls:sys_enter_write,[^,]*,,counted,/total,,,,syscalls:sys_enter_write,,,not-supported,/' \
	csv/rank.2.csv >nw/rank.2.csv
run_pstat --merge --format=json nw/rank.*
expect_rc 0
python3 - nw/rank.0.csv nw/rank.1.csv nw/rank.3.csv <<'PY' ||
import csv, json, sys
clock = 0.0
for path in sys.argv[1:]:
    for row in csv.reader(open(path)):
        if row[:1] == ["total"] and row[4] == "task-clock":
            clock += float(row[5])
ev = {e["event"]: e for e in json.load(open("out"))["events"]}
w = ev["syscalls:sys_enter_write"]
assert w["sum"] == 700 and w["ranks_counted"] == 3, w
scale = {"/sec": 1, "K/sec": 1e3, "M/sec": 1e6, "G/sec": 1e9}
rate = [m["value"] * scale[m["unit"]] for m in w["metrics"]
        if m["unit"] in scale]
want = 700 / (clock / 1e3)
assert len(rate) == 1 and abs(rate[0] / want - 1) < 1e-3, (rate, want, w)
PY
	{ cat out; fail_ "a rate over the ranks that counted the event"; }

# Ranks that failed: listed, and the lowest-ranked one's status.
mkdir fail
for r in 0 1 2 3; do
	PSTAT_RANK=$r PSTAT_SIZE=5 "$PSTAT" --format=csv -o "fail/r.%r.csv" \
		-e task-clock -- sh -c "exit $((r > 1 ? r + 1 : 0))" 2>err
done
run_pstat --merge fail/r.*
expect_rc 3
grep -q 'rank 2 (fail/r.2.csv) exited with status 3' out &&
	grep -q 'rank 3 (fail/r.3.csv) exited with status 4' out &&
	grep -q 'of 5; missing: 4' out || { cat out; fail_ "failed ranks"; }
run_pstat --merge --format=json fail/r.*
expect_rc 3
python3 - <<'PY' || { cat out; fail_ "failed ranks in JSON"; }
import json
run = json.load(open("out"))["run"]
assert run["failed"] == [{"rank": 2, "exit_status": 3, "signal": None},
                         {"rank": 3, "exit_status": 4, "signal": None}], run
assert run["missing"] == [[4, 4]] and run["exit_status"] == 3, run
PY

# Refusals: 125, one line, nothing on stdout.
merge_refused()
{
	text=$1
	shift
	run_pstat --merge "$@"
	if [ "$rc" != 125 ] || [ -s out ] ||
	   [ "$(grep -c '^pstat: ' err)" != 1 ] ||
	   ! grep -q "^pstat: .*$text" err; then
		show_err_
		fail_ "--merge $*: status $rc, want 125, one line with '$text', no output"
	fi
}
: >empty.csv
merge_refused 'empty.csv is empty: was pstat killed? an MPI launcher kills the other ranks when one dies' \
	csv/rank.0.csv empty.csv
grep -v '^run,' csv/rank.1.csv >norun.csv
merge_refused 'norun.csv has no run record: was pstat killed?' \
	csv/rank.0.csv norun.csv
head -c 100 mixed/rank.2.json >cut.json
merge_refused 'cut.json: not valid JSON' csv/rank.0.csv cut.json
cp csv/rank.1.csv dup.csv
merge_refused 'are both rank 1' csv/rank.*.csv dup.csv
sed 's/"format_version": 1/"format_version": 2/' mixed/rank.2.json >v2.json
not_pstat_json v2.json
merge_refused 'format_version 2 and .* 1' csv/rank.0.csv v2.json
"$PSTAT" --format=csv -o norank.csv -e task-clock -- true 2>err
merge_refused 'norank.csv has no rank' csv/rank.0.csv norank.csv
echo 'hello' >text.txt
merge_refused 'text.txt: not a file of pstat' text.txt
merge_refused "cannot read 'nothere.csv'" nothere.csv
run_pstat --merge
expect_rc 125
grep -q -- '--merge needs the files' err || { show_err_; fail_ "no files"; }
exit 0
