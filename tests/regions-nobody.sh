#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --regions needs no privileges of the program: a pstat holding
# CAP_PERFMON as a file capability, run by nobody, counts the regions of
# a command that runs as nobody with none of pstat's capabilities
# (task-clock: tracefs lets nobody read no tracepoint here).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_pstat_caps

# The test's folder, which nobody can enter, holds what nobody runs.
cp "$PROGS/regions" ./regions || framework_failure_ "cannot copy regions"
run_nobody ./pstat-caps --regions -j -e task-clock -- ./regions marks
expect_rc 0
for r in a b o i left; do
	grep "\"region\": \"$r\"" err | grep -q '"counter-value": [0-9.]*,' ||
		{ show_err_; fail_ "nobody: no count of region $r"; }
done
expect_eq "$(grep '"region": "a"' err | sed -n 's/.*"region-entries": \([0-9]*\).*/\1/p')" \
	3 "nobody: region a's entries"
# The command had none of pstat's capabilities.
run_nobody ./pstat-caps --regions -e task-clock -- grep '^CapEff:' \
	/proc/self/status
expect_rc 0
expect_eq "$(cat out)" "CapEff:	0000000000000000" "the command's capabilities"
exit 0
