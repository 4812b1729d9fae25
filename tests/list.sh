#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --list shows every kind, says what this machine supports, filters by
# substring, and --list --json is one JSON document. (A PMU's aliases and
# a glob over tracepoints: list-msr.sh, list-tracepoints.sh.)

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

run_pstat --list
expect_rc 0
for title in 'Hardware events:' 'Hardware cache events:' \
	     'Software events:' 'Other forms:'; do
	grep -qx "$title" out || fail_ "--list: no '$title' section"
done
grep -Eq '^  task-clock +\[supported\]$' out ||
	fail_ "--list: task-clock not marked supported"
grep -Eq '^  cpu-cycles OR cycles ' out || fail_ "--list: cycles alias"
grep -Eq '^  L1-dcache-load-misses ' out || fail_ "--list: cache events"
grep -q 'mem:ADDR' out || fail_ "--list: no mem: form"
if have_hw_pmu; then
	grep -Eq '^  instructions +\[supported\]$' out ||
		fail_ "--list: instructions not marked supported"
else
	grep -Eq '^  instructions +\[not supported here\]$' out ||
		fail_ "--list: instructions not marked unsupported"
fi

# A substring keeps matching names only, and drops empty sections.
run_pstat --list clock
expect_rc 0
expect_eq "$(grep -c '^  ' out | tr -d ' ')" \
	"$(grep '^  ' out | grep -c clock)" "--list clock: every row matches"
grep -q 'Hardware events:' out && fail_ "--list clock: empty section shown"

# perf list's class words list their class, not the names holding them
# (issue 31): 'sw' is no substring of swiotlb:*, 'pmu' lists PMU events.
sections()
{
	grep -v '^  ' out | grep -v '^$' | tr '\n' '/'
}
for class in hw:'Hardware events:' hardware:'Hardware events:' \
	     cache:'Hardware cache events:' hwcache:'Hardware cache events:' \
	     sw:'Software events:/Tool events:' \
	     software:'Software events:/Tool events:'; do
	run_pstat --list "${class%%:*}"
	expect_rc 0
	expect_eq "$(sections)" "${class#*:}/" "--list ${class%%:*}: sections"
done
grep -Eq '^  duration_time ' out || fail_ "--list software: no tool events"
run_pstat --list pmu
expect_rc 0
[ -z "$(sections)" ] || expect_eq "$(sections)" "PMU events:/" \
	"--list pmu: sections"
if [ -r /sys/kernel/tracing/events/sched/sched_switch/id ]; then
	run_pstat --list tracepoint
	expect_rc 0
	expect_eq "$(sections)" "Tracepoints:/" "--list tracepoint: sections"
	grep -qx '  sched:sched_switch' out ||
		fail_ "--list tracepoint: no sched:sched_switch"
fi

run_pstat --list --json
expect_rc 0
python3 - out <<'PY' || fail_ "--list --json does not parse or lacks fields"
import json, sys
doc = json.load(open(sys.argv[1]))
events = doc["events"]
assert doc["version"] == 1
names = {e["name"]: e for e in events}
assert names["task-clock"]["supported"] is True
assert names["cpu-cycles"]["aliases"] == ["cycles"]
assert all(e["kind"] in ("hardware", "cache", "software", "tool", "pmu",
                         "tracepoint", "form") for e in events)
assert names["duration_time"]["kind"] == "tool"
PY

run_pstat --list a b
expect_rc 125
