#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -M from perf's tables on a CPU they know (scripts/qemu-pmu boots
# -cpu neoverse-n1 for it): ipc is INST_RETIRED / CPU_CYCLES, the
# tables' names of the core PMU's events (armv8_pmuv3_0 here, "cpu" in
# the tables), and under QEMU's icount both count alike: 1.00.
# A metric group is shown with its inputs.

# shellcheck source=tests/hw/lib.sh
. "$(dirname "$0")/lib.sh"

require_kernel
"$PSTAT" --list metrics ipc 2>err >out ||
	skip_ "no tables of this CPU's model: $(head -n 1 err)"
grep -q '^  ipc ' out || skip_ "this CPU's model has no ipc metric"

run_pstat -x, -M ipc -- "$PROGS/insn_loop" "$N1"
expect_rc 0
i=$(csv_field INST_RETIRED 1)
c=$(csv_field CPU_CYCLES 1)
expect_count_value "$i" INST_RETIRED
expect_count_value "$c" CPU_CYCLES
[ "$c" -gt 0 ] || fail_ "CPU_CYCLES: 0"
ipc=$(csv_rows | awk -F, '$7 ~ /ipc$/ { print $6 }')
want=$(awk -v i="$i" -v c="$c" 'BEGIN { printf "%.2f", i / c }')
expect_eq "$ipc" "$want" "-M ipc: INST_RETIRED / CPU_CYCLES"
if_exact expect_eq "$ipc" 1.00 "-M ipc under icount"

# The tables' names with -e, as perf takes them.
run_pstat -x, -e INST_RETIRED:u,cpu_cycles:u -- "$PROGS/insn_loop" "$N1"
expect_rc 0
i=$(csv_field INST_RETIRED:u 1)
expect_count "$i" "$(oracle "$N1")" INST_RETIRED:u
expect_count_value "$(csv_field cpu_cycles:u 1)" cpu_cycles:u

# A metric group (perf's tables have no TopdownL1 for this core, 6.1's
# nor 6.12's: their sbsa TopdownL1 is for the cores with STALL_SLOT):
# each of its metrics on a row, and each of their inputs, counted or not.
run_pstat -x, -M Cycle_Accounting -- "$PROGS/insn_loop" "$N1"
expect_rc 0
for m in frontend_stalled_cycles backend_stalled_cycles; do
	csv_rows | awk -F, -v m="$m" '
		{ n = split($7, w, " ") } n && w[n] == m { f = 1 }
		END { exit !f }' ||
		fail_ "-M Cycle_Accounting: no row carries $m"
done
for e in cpu_cycles stall_frontend stall_backend; do
	csv_rows | awk -F, -v e="$e" 'tolower($3) == e { f = 1 }
		END { exit !f }' ||
		fail_ "-M Cycle_Accounting: its input $e is not shown"
done
run_pstat -M TopdownL1 -- true
expect_rc 125
grep -q "^pstat: .*'TopdownL1'.*neoverse-n1" err ||
	fail_ "-M TopdownL1: not said that this core's tables lack it"
