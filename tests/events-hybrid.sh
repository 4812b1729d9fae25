#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A hybrid CPU, as a fake sysfs (PSTAT_SYSFS) shows it: cpu_core on CPU
# 0 and cpu_atom on CPU 1. A generic event is one per core PMU, named
# cpu_atom/cycles/ and cpu_core/cycles/ in every output; --list and
# --check show both PMUs. (The encodings themselves are held to perf's
# by events-perf-oracle-pmus.sh, and what each counts on by
# check_pmu_cores.)

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

sys=$tmpdir/sys
devs=$sys/bus/event_source/devices
for p in cpu_core:4:0 cpu_atom:10:1; do
	name=${p%%:*}
	rest=${p#*:}
	mkdir -p "$devs/$name/format" "$devs/$name/events" ||
		framework_failure_ "cannot make $devs/$name"
	echo "${rest%%:*}" >"$devs/$name/type"
	echo "${rest#*:}" >"$devs/$name/cpus"
	echo config:0-7 >"$devs/$name/format/event"
	echo event=0x3c >"$devs/$name/events/cpu-cycles"
done
mkdir -p "$devs/software" && echo 1 >"$devs/software/type"
PSTAT_SYSFS=$sys
export PSTAT_SYSFS

# Every output names each core PMU's event.
run_pstat -x, -e cycles,task-clock -- true
expect_rc 0
[ "$(csv_events)" = "cpu_atom/cycles/ cpu_core/cycles/ task-clock" ] ||
	{ show_err_; fail_ "-x: events $(csv_events)"; }
run_pstat -e cycles:u -- true
grep -q 'cpu_atom/cycles:u/' err && grep -q 'cpu_core/cycles:u/' err ||
	{ show_err_; fail_ "human output: no cpu_atom/cycles:u/ and cpu_core/cycles:u/"; }
run_pstat -j -e cycles -- true
grep -q '"event": "cpu_atom/cycles/"' err &&
	grep -q '"event": "cpu_core/cycles/"' err ||
	{ show_err_; fail_ "-j: no cpu_atom/cycles/ and cpu_core/cycles/"; }
run_pstat --format=csv -e cycles -- true
grep -q '^total,,,,cpu_atom/cycles/,' err &&
	grep -q '^total,,,,cpu_core/cycles/,' err ||
	{ show_err_; fail_ "--format=csv: no cpu_atom/cycles/ and cpu_core/cycles/"; }
run_pstat --format=json -e cycles -- true
grep -q '"cpu_atom/cycles/"' err && grep -q '"cpu_core/cycles/"' err ||
	{ show_err_; fail_ "--format=json: no cpu_atom/cycles/ and cpu_core/cycles/"; }

# perf 6.1's encoding: the PMU's type in config's upper 32 bits.
run_pstat --explain -e cycles
expect_rc 0
grep -A3 '^cpu_atom/cycles/' out | grep -q 'config  *0xa00000000$' &&
	grep -A3 '^cpu_core/cycles/' out | grep -q 'config  *0x400000000$' ||
	{ cat out; fail_ "--explain: not perf's extended types"; }

# --list and --check show both.
run_pstat --list cpu-cycles
grep -q 'cpu_atom/cpu-cycles/' out && grep -q 'cpu_core/cpu-cycles/' out ||
	{ cat out; fail_ "--list: not both core PMUs"; }
run_pstat --check
grep -q '^ok  *hardware_pmu .*cpu_atom on CPUs 1, cpu_core on CPUs 0' out ||
	{ cat out; fail_ "--check: not both core PMUs"; }
run_pstat --check --json
grep -q '"core_pmus": \["cpu_atom", "cpu_core"\]' out ||
	{ cat out; fail_ "--check --json: no core_pmus"; }
