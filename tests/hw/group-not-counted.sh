#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A group that never fits on the counters (the largest group the PMU
# takes, with one counter pinned to another event) is <not counted>, a
# note names it, and the events outside it still count.

# shellcheck source=tests/hw/lib.sh
. "$(dirname "$0")/lib.sh"

k=$(largest_group)
echo "the largest group of instructions:u that opens: $k"
[ "$k" -lt 32 ] || skip_ "the PMU takes groups of 32: more than its counters?"
[ "$k" -ge 2 ] || skip_ "the PMU takes no group of two instructions:u"
group=$(repeat_list instructions:u "$k")
# Long enough for the kernel to rotate the flexible events many times.
n=$BIG
run_pstat -e "instructions:uD,{$group},instructions:u" -- \
	"$PROGS/insn_loop" "$n"
expect_rc 0
o=$(oracle "$n")
expect_count "$(human_value instructions:uD)" "$o" "the pinned event"
for i in $(seq 1 "$k"); do
	expect_eq "$(human_line instructions:u "$i" | awk '{ print $1, $2, $3 }')" \
		"<not counted> instructions:u" "member $i of the group"
done
last=$(human_line instructions:u $((k + 1)) | awk '{ gsub(/,/, "", $1); print $1 }')
expect_count_value "$last" "instructions:u outside the group"
expect_near "$last" "$o" 0.05 2000 "instructions:u outside the group, scaled"
grep '^pstat: note:' err | grep -F "{$group}" | grep -q 'not counted' ||
	{ show_err_; fail_ "no note names the group {$group} as not counted"; }
