#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -e cycles,instructions, the headline: both counted, and the IPC metric
# on the instructions line is their ratio. Under QEMU's icount one
# instruction is one cycle, so both are equal and IPC is 1.00.

# shellcheck source=tests/hw/lib.sh
. "$(dirname "$0")/lib.sh"

require_kernel

for mod in "" :u; do
	run_pstat -e "cycles$mod,instructions$mod" -- "$PROGS/insn_loop" "$N1"
	expect_rc 0
	c=$(human_value "cycles$mod")
	i=$(human_value "instructions$mod")
	expect_count_value "$c" "cycles$mod"
	expect_count_value "$i" "instructions$mod"
	[ "$c" -gt 0 ] || fail_ "cycles$mod: 0"
	line=$(human_line "instructions$mod")
	echo "$line"
	ipc=$(printf '%s\n' "$line" |
		sed -n 's/.*# *\([0-9.]*\) *insn per cycle.*/\1/p')
	want=$(awk -v i="$i" -v c="$c" 'BEGIN { printf "%.2f", i / c }')
	expect_eq "$ipc" "$want" "insn per cycle of instructions$mod"
	if [ "$exact" = 1 ]; then
		expect_eq "$c" "$i" "cycles$mod against instructions$mod"
		expect_eq "$ipc" 1.00 "insn per cycle"
	fi
done
expect_count "$i" "$(oracle "$N1")" "instructions:u"
