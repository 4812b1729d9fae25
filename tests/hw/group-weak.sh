#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A group larger than the PMU can hold: refused at the open with one
# message, or, weak (:W), split by pstat with a note, its events then
# multiplexed and scaled to the exact count.

# shellcheck source=tests/hw/lib.sh
. "$(dirname "$0")/lib.sh"

k=$(largest_group)
[ "$k" -lt 32 ] || skip_ "the PMU takes groups of 32: more than its counters?"
group=$(repeat_list instructions:u $((k + 1)))
run_pstat -e "{$group}" -- touch ran
expect_rc 125
[ ! -e ran ] || fail_ "the command ran"
expect_eq "$(grep -c '^pstat: ' err)" 1 "'pstat: ' lines"
expect_in_err ':W' "the message suggests a weak group"

n=$BIG
# The results in a file, so that the notes come on stderr.
run_pstat -x, -o res.csv -e "{$group}:W" -- "$PROGS/insn_loop" "$n"
expect_rc 0
expect_in_err '^pstat: note: .*weak group' "the note on the split group"
csv_file=res.csv
o=$(oracle "$n")
echo "exact: $o"
csv_rows
for i in $(seq 1 $((k + 1))); do
	v=$(csv_field instructions:u 1 "$i")
	expect_count_value "$v" "member $i"
	expect_near "$v" "$o" 0.01 0 "member $i, scaled"
done
