#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pstat --check as nobody at perf_event_paranoid 2: its own command in
# user space only, not system-wide, and the fix that gives more.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_root
command -v setpriv >/dev/null 2>&1 || skip_ "no setpriv (util-linux)"
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse JSON"
set_paranoid 2

# nobody may not enter the build tree: run a copy from the 755 temp dir.
cp "$PSTAT" ./pstat || framework_failure_ "cannot copy pstat"

run_nobody ./pstat --check --json
expect_rc 0
python3 - <<'PY' || { cat out; fail_ "nobody: --check --json"; }
import json, sys
d = json.load(open("out"))
for cond in ("d['own_command'] is True", "d['kernel_counting'] is False",
             "d['system_wide'] is False",
             "d['capabilities']['perfmon'] is False",
             "d['perf_event_paranoid'] == 2"):
    if not eval(cond, {"d": d}):
        sys.exit("fails: " + cond)
PY

run_nobody ./pstat --check
expect_rc 0
grep -q "^limited *own_command *user space only" out ||
	{ cat out; fail_ "nobody: own_command not limited"; }
grep -q "fix: .*setcap cap_perfmon+ep" out ||
	{ cat out; fail_ "nobody: no setcap fix"; }
