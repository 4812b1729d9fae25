#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# {cycles,instructions}: one group, read at once with PERF_FORMAT_GROUP,
# so both counted over the same time; in -x, -j and --format=json.
# (The kernel's share differs from run to run: compare within a run.)

# shellcheck source=tests/hw/lib.sh
. "$(dirname "$0")/lib.sh"

require_kernel

run_pstat --explain -e '{cycles,instructions}'
expect_rc 0
expect_eq "$(grep -c '(group 0, ' out)" 2 "events of group 0 in --explain"
grep -q '^instructions (group 0, member)' out ||
	{ cat out; fail_ "instructions is not a member of cycles' group"; }
expect_eq "$(grep -c 'read_format .*GROUP' out)" 2 \
	"events read with PERF_FORMAT_GROUP"

run_pstat -x, -e '{cycles,instructions}' -- "$PROGS/insn_loop" "$N1"
expect_rc 0
c=$(csv_field cycles 1)
i=$(csv_field instructions 1)
expect_count_value "$c" cycles
expect_count_value "$i" instructions
# Times come once per group read: the members' are the leader's.
expect_eq "$(csv_field instructions 4)" "$(csv_field cycles 4)" \
	"run time of the group's members"
expect_eq "$(csv_field cycles 5)" 100.00 "cycles' running percentage"
if_exact expect_eq "$c" "$i" "cycles against instructions"

run_pstat -j -e '{cycles,instructions}' -- "$PROGS/insn_loop" "$N1"
expect_rc 0
expect_count_value "$(jsonl_value cycles)" "-j cycles"
expect_count_value "$(jsonl_value instructions)" "-j instructions"
if_exact expect_eq "$(jsonl_value instructions)" \
	"$(jsonl_value cycles)" "-j cycles against instructions"

run_pstat --format=json -e '{cycles,instructions}' -- "$PROGS/insn_loop" "$N1"
expect_rc 0
for ev in cycles instructions; do
	expect_eq "$(pjson_field $ev status)" counted "$ev status"
	expect_eq "$(pjson_field $ev running_ns)" \
		"$(pjson_field $ev enabled_ns)" "$ev running_ns"
done
expect_eq "$(pjson_field instructions enabled_ns)" \
	"$(pjson_field cycles enabled_ns)" "the members' enabled_ns"
if_exact expect_eq "$(pjson_field cycles value)" \
	"$(pjson_field instructions value)" "--format=json cycles against instructions"
