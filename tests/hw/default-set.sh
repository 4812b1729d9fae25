#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Without -e, perf stat's default set: the software events and cycles
# and instructions counted, IPC shown; the hardware events this PMU
# lacks are <not supported> with a note that says so, and no note
# that there is no hardware PMU.

# shellcheck source=tests/hw/lib.sh
. "$(dirname "$0")/lib.sh"

require_kernel

run_pstat -- "$PROGS/insn_loop" "$N1"
expect_rc 0
for ev in task-clock context-switches cpu-migrations page-faults \
	  cycles instructions branches branch-misses; do
	v=$(human_value "$ev")
	[ -n "$v" ] || { show_err_; fail_ "no $ev row"; }
	echo "$ev: $v"
done
for ev in cycles instructions; do
	expect_count_value "$(human_value "$ev")" "$ev"
done
human_line instructions | grep -q 'insn per cycle' ||
	{ show_err_; fail_ "no insn per cycle on the instructions line"; }
expect_not_in_err 'no hardware PMU' "a note that there is no PMU, with one"
for ev in branches branch-misses; do
	[ "$(human_value "$ev")" = "<not supported>" ] || continue
	grep '^pstat: note:' err | grep -F "$ev" | grep -q 'not supported' ||
		{ show_err_; fail_ "$ev is <not supported>, and no note says so"; }
done
i=$(human_value instructions)
[ "$i" -ge "$(loop_insns "$N1")" ] ||
	fail_ "instructions: $i, fewer than the loop's $(loop_insns "$N1")"
if [ "$exact" = 1 ]; then
	expect_eq "$(human_value cycles)" "$i" "cycles against instructions"
fi
