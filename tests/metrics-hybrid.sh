#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# perf's tables on a hybrid CPU (Alder Lake, PERF_CPUID=GenuineIntel-6-97-2):
# a fake cpu_core and cpu_atom of the tracepoint PMU's type, in a
# private mount namespace. The tables name each event and metric once a
# core PMU; their formulas write cpu_atom@TOPDOWN_BE_BOUND.ALL@. pstat
# takes that name on its PMU, encoded as perf encodes it, and each
# metric reads its own PMU's events and metrics.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_root
require_perf_events
command -v perf >/dev/null 2>&1 || skip_ "perf is not installed"
[ -n "${PMU_EVENTS:-}" ] ||
	skip_ "pstat was configured --without-pmu-events: no tables"
# shellcheck source=tests/fake-pmu.sh
. "$top_srcdir/tests/fake-pmu.sh"

fake_tree
fake_intel_pmu cpu_core
fake_intel_pmu cpu_atom
echo 0 >tree/cpu_core/cpus
echo 1 >tree/cpu_atom/cpus
# The core's topdown events, as the kernel names them in sysfs.
for e in slots:0x4 topdown-retiring:0x80 topdown-bad-spec:0x81 \
	 topdown-fe-bound:0x82 topdown-be-bound:0x83; do
	echo "event=0x00,umask=${e#*:}" >"tree/cpu_core/events/${e%%:*}"
done

export PERF_CPUID=GenuineIntel-6-97-2 PSTAT_PMU_EVENTS="$PMU_EVENTS"

# A table's name on one core PMU: its encoding, perf's.
ev=cpu_atom/TOPDOWN_BE_BOUND.ALL/
in_tree perf stat -vv -x, -e "$ev" true >/dev/null 2>perf.out ||
	{ cat perf.out; fail_ "perf stat -e $ev failed"; }
in_tree "$PSTAT" --explain -e "$ev" >out 2>err ||
	{ show_err_; fail_ "pstat --explain -e $ev failed"; }
attr() { awk '$1 == "config" { print $2 }' "$1" | head -n 1; }
expect_eq "$(attr out)" "$(attr perf.out)" "$ev: its config, perf's"
expect_eq "$(attr out)" 0x74 "$ev: its config, the table's EventCode"

# TopdownL1: a metric each core PMU, each beside its own PMU's events;
# cpu_core's tma_bad_speculation names the core's tma_* metrics, not
# the atom's of the same names.
in_tree "$PSTAT" -M TopdownL1 --explain >out 2>err ||
	{ show_err_; fail_ "pstat -M TopdownL1 --explain failed"; }
awk '/^  tma_bad_speculation = max\(/ { getline; getline; print $3 }' out \
	>beside
expect_eq "$(sed 's|/.*||' beside)" cpu_core \
	"cpu_core's tma_bad_speculation: shown beside a cpu_core event"
awk '/^  tma_[a-z_]* = .*cpu_atom@/ { getline; getline; print $3 }' out |
	sed 's|/.*||' | sort -u >beside
expect_eq "$(cat beside)" cpu_atom "cpu_atom's metrics: beside its events"
# The group's W is not in the names, as in perf.
! grep -q ':W' out || { cat out; fail_ "names with :W"; }
exit 0
