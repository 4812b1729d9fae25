#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What the run record says is true: real-time signals by their names,
# the whole command line however long, and no user or sys time nor max
# RSS where there is no command to have them.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse JSON"

rt3=$(python3 -c 'import signal; print(signal.SIGRTMIN + 3)')
run_pstat -e task-clock -- "$PROGS/raise_signal" "$rt3"
expect_rc $((128 + rt3))
grep -q "^pstat: '.*/raise_signal' was killed by signal $rt3 (SIGRTMIN+3: " err ||
	{ show_err_; fail_ "human: SIGRTMIN+3 not named"; }
run_pstat --format=csv -e task-clock -- "$PROGS/raise_signal" "$rt3"
expect_rc $((128 + rt3))
grep -q '^run,,,,signal,SIGRTMIN+3,' err ||
	{ show_err_; fail_ "--format=csv: SIGRTMIN+3 not named"; }

# A command line of 20,000 bytes, with a comma to quote.
long=$(python3 -c 'print("a," + "x" * 20000)')
run_pstat --format=csv -e task-clock -- sh -c 'exit 0' "$long"
expect_rc 0
python3 - "$long" <<'EOF' || { show_err_; fail_ "--format=csv: the command row"; }
import csv, sys
rows = [r for r in csv.reader(open("err")) if r[:5] == ["run", "", "", "", "command"]]
want = "sh -c exit 0 " + sys.argv[1]
if len(rows) != 1 or rows[0][5] != want:
    sys.exit("command row %r..." % (rows[0][5][:60] if rows else None))
EOF

# Without a command: no user or sys time, no max RSS.
sleep 30 &
sleeper=$!
run_pstat --format=json -e task-clock -p "$sleeper" --timeout 100
expect_rc 0
python3 - <<'EOF' || { show_err_; fail_ "--format=json -p: run facts"; }
import json, sys
run = json.load(open("err"))["run"]
for k in ("user_s", "sys_s", "max_rss_kib", "exit_status", "signal"):
    if run[k] is not None:
        sys.exit("%s is %r, not null" % (k, run[k]))
EOF
run_pstat --format=csv -e task-clock -p "$sleeper" --timeout 100
expect_rc 0
for k in user_s sys_s max_rss_kib; do
	grep -q "^run,,,,$k,," err ||
		{ show_err_; fail_ "--format=csv -p: $k is not empty"; }
done
kill "$sleeper"
