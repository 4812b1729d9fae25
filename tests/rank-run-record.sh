#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The run record of --format=csv|json says the rank, local rank, size,
# host, job id, the variable that gave the rank and the start time, only
# when a rank was found; the format version stays.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse JSON"
unset PSTAT_RANK PSTAT_LOCAL_RANK PSTAT_SIZE PSTAT_JOB_ID \
	OMPI_COMM_WORLD_RANK PMIX_RANK PMI_RANK MV2_COMM_WORLD_RANK \
	SLURM_PROCID SLURM_LOCALID SLURM_NTASKS SLURM_JOB_ID PBS_JOBID \
	LSB_JOBID FLUX_JOB_ID

host=$(hostname)
host=${host%%.*}
OMPI_COMM_WORLD_RANK=2 OMPI_COMM_WORLD_LOCAL_RANK=0 OMPI_COMM_WORLD_SIZE=4 \
	SLURM_PROCID=0 SLURM_JOB_ID=31 \
	run_pstat --format=csv -e task-clock -o r.csv -- true
expect_rc 0
OMPI_COMM_WORLD_RANK=2 OMPI_COMM_WORLD_SIZE=4 \
	run_pstat --format=json -e task-clock -o r.json -- true
expect_rc 0
run_pstat --format=csv -e task-clock -o none.csv -- true
run_pstat --format=json -e task-clock -o none.json -- true
python3 - "$host" <<'EOF' || fail_ "the run record's rank"
import csv, json, re, sys
host = sys.argv[1]
run = {r[4]: r[5] for r in csv.reader(open("r.csv")) if r[0] == "run"}
want = {"rank": "2", "local_rank": "0", "size": "4", "host": host,
        "job_id": "31", "rank_variable": "OMPI_COMM_WORLD_RANK",
        "format_version": "1"}
for k, v in want.items():
    if run.get(k) != v:
        sys.exit("csv %s: %r, not %r" % (k, run.get(k), v))
iso = r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$"
if not re.match(iso, run["start_time"]):
    sys.exit("csv start_time %r" % run["start_time"])
doc = json.load(open("r.json"))
run = doc["run"]
want = {"rank": 2, "local_rank": None, "size": 4, "host": host,
        "job_id": None, "rank_variable": "OMPI_COMM_WORLD_RANK"}
for k, v in want.items():
    if k not in run or run[k] != v:
        sys.exit("json %s: %r, not %r" % (k, run.get(k), v))
if doc["format_version"] != 1 or not re.match(iso, run["start_time"]):
    sys.exit("json: format_version or start_time")
keys = ("rank", "local_rank", "size", "host", "job_id", "rank_variable",
        "start_time")
rows = [r[4] for r in csv.reader(open("none.csv")) if r[0] == "run"]
if any(k in rows for k in keys) or \
   any(k in json.load(open("none.json"))["run"] for k in keys):
    sys.exit("a rank recorded where none was found")
