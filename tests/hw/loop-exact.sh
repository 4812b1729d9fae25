#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# instructions:u of a loop whose instructions are known: N more
# iterations retire exactly 2N more instructions (within the few that
# lib.sh's exact_slack allows from run to run), and every output format
# gives the same count.

# shellcheck source=tests/hw/lib.sh
. "$(dirname "$0")/lib.sh"

run_pstat -e instructions:u -- "$PROGS/insn_loop" "$N1"
expect_rc 0
v1=$(human_value instructions:u)
expect_count_value "$v1" "instructions:u of $N1 iterations"
run_pstat -e instructions:u -- "$PROGS/insn_loop" "$N2"
expect_rc 0
v2=$(human_value instructions:u)
expect_count_value "$v2" "instructions:u of $N2 iterations"
echo "instructions:u: $v1 for $N1 iterations, $v2 for $N2"
expect_count $((v2 - v1)) "$(loop_insns $((N2 - N1)))" \
	"the difference of $N2 and $N1 iterations"

# The rest is the program's start and exit, the same for both sizes,
# and what the oracle counts without pstat.
c=$((v1 - $(loop_insns "$N1")))
o=$(oracle "$N1") || framework_failure_ "hw_count: $o"
echo "instructions:u outside the loop: $c (the oracle: $((o - $(loop_insns "$N1"))))"
if [ "$c" -le 0 ] || [ "$c" -ge 1000000 ]; then
	fail_ "instructions:u outside the loop: $c, not a program's start and exit"
fi
expect_count "$v1" "$o" "instructions:u of $N1 iterations against the oracle"

# The same count in every format.
run_pstat -x, -e instructions:u -- "$PROGS/insn_loop" "$N1"
expect_rc 0
expect_count "$(csv_field instructions:u 1)" "$v1" "-x, value"
run_pstat -j -e instructions:u -- "$PROGS/insn_loop" "$N1"
expect_rc 0
expect_count "$(jsonl_value instructions:u)" "$v1" "-j counter-value"
run_pstat --format=json -e instructions:u -- "$PROGS/insn_loop" "$N1"
expect_rc 0
expect_count "$(pjson_field instructions:u value)" "$v1" "--format=json value"
expect_eq "$(pjson_field instructions:u status)" counted "--format=json status"
