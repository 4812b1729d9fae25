#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pstat --check: one report of what this machine allows, as text and as
# JSON; exit 0 when one's own command can be counted, 1 when not. (As
# nobody: check-nobody.sh.)

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse JSON"

get_paranoid
level=$paranoid
cp "$PSTAT" ./pstat && cp "$PROGS/no_perf" . ||
	framework_failure_ "cannot copy pstat"
if [ -d /sys/bus/event_source/devices/cpu ] || have_hw_pmu; then
	hw=True
else
	hw=False
fi

# check_json WHAT PYTHON-CONDITION...: ./out parses, and each holds of d.
check_json()
{
	what=$1
	shift
	python3 - "$@" <<'PY' || { cat out; fail_ "$what: --check --json"; }
import json, sys
d = json.load(open("out"))
for cond in sys.argv[1:]:
    if not eval(cond, {"d": d}):
        sys.exit("fails: " + cond)
names = [c["name"] for c in d["checks"]]
for want in ("kernel", "perf_event_paranoid", "capabilities", "pmus",
             "hardware_pmu", "own_command", "system_wide", "tracefs",
             "fd_limit"):
    if want not in names:
        sys.exit("no check " + want)
for c in d["checks"]:
    if c["status"] not in ("ok", "limited", "missing", "info"):
        sys.exit("status " + c["status"])
PY
}

# As whoever runs the tests.
run_pstat --check
expect_rc 0
grep -q "^[a-z]* *perf_event_paranoid  *$level: " out ||
	{ cat out; fail_ "--check does not name the level $level"; }
grep -q "^[a-z]* *kernel  *Linux $(uname -r)" out ||
	{ cat out; fail_ "--check does not name the kernel"; }
if [ "$hw" = False ]; then
	grep -q "^missing *hardware_pmu *no hardware PMU" out ||
		{ cat out; fail_ "--check does not say there is no hardware PMU"; }
fi
[ ! -s err ] || { show_err_; fail_ "--check wrote to stderr"; }

run_pstat --check --json
expect_rc 0
check_json "--check --json" "d['perf_event_paranoid'] == $level" \
	"d['hardware_pmu'] == $hw" "d['own_command'] is True" \
	"d['exit_status'] == 0" "isinstance(d['pmus'], list)" \
	"'software' in d['pmus']"

# Arguments are a mistake: --check runs nothing.
run_pstat --check true
expect_rc 125
grep -q "^pstat: --check runs no command" err || fail_ "--check true"

# Where perf_event_open is blocked (seccomp), exit 1 and say so.
rc=0
./no_perf ./pstat --check >out 2>err || rc=$?
expect_rc 1
grep -q "^missing *own_command *no: .*blocked" out ||
	{ cat out; fail_ "seccomp: own_command"; }
rc=0
./no_perf ./pstat --check --json >out 2>err || rc=$?
expect_rc 1
check_json "seccomp" "d['own_command'] is False" "d['exit_status'] == 1"
exit 0
