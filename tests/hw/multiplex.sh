#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# More events than counters: the kernel multiplexes them, pstat shows
# the share of time each ran, scales each to within 1% of the exact
# count (the loop retires instructions at a steady rate), says so in
# --format's status, and --no-scale shows the counts as read.

# shellcheck source=tests/hw/lib.sh
. "$(dirname "$0")/lib.sh"

k=$(largest_group)
[ "$k" -lt 32 ] || skip_ "the PMU takes groups of 32: more than its counters?"
m=$((k + 4))
evs=$(repeat_list instructions:u "$m")
echo "$m events, at most $k at once"
n=$BIG
o=$(oracle "$n")
echo "exact: $o"

run_pstat -e "$evs" -- "$PROGS/insn_loop" "$n"
expect_rc 0
cat err
for i in $(seq 1 "$m"); do
	expect_match "$(human_line instructions:u "$i")" \
		'\([0-9]+\.[0-9][0-9]%\) *$' "the time share of event $i"
done

run_pstat --format=csv -e "$evs" -- "$PROGS/insn_loop" "$n"
expect_rc 0
# The columns by their names in the header.
col() { head -n 1 err | tr , '\n' | grep -nx "$1" | cut -d: -f1; }
cv=$(col value) cs=$(col status) ce=$(col event) cr=$(col record)
if [ -z "$cv" ] || [ -z "$cs" ] || [ -z "$ce" ] || [ -z "$cr" ]; then
	show_err_
	fail_ "--format=csv header: no value, status, event or record"
fi
awk -F, -v r="$cr" -v e="$ce" -v v="$cv" -v s="$cs" \
	'$r == "total" && $e == "instructions:u" { print $v, $s }' err >rows
expect_eq "$(wc -l <rows | tr -d ' ')" "$m" "total rows"
while read -r v s; do
	expect_eq "$s" scaled "status"
	expect_count_value "$v" "scaled value"
	expect_near "$v" "$o" 0.01 0 "scaled value"
done <rows

run_pstat --no-scale -x, -e "$evs" -- "$PROGS/insn_loop" "$n"
expect_rc 0
for i in $(seq 1 "$m"); do
	v=$(csv_field instructions:u 1 "$i")
	pct=$(csv_field instructions:u 5 "$i")
	expect_count_value "$v" "--no-scale value $i"
	[ "$v" -lt "$o" ] ||
		fail_ "--no-scale value $i: $v, not less than the exact $o"
	# What it read is what the loop retired while it ran.
	expect_near "$v" "$(awk -v o="$o" -v p="$pct" 'BEGIN { printf "%d", o * p / 100 }')" \
		0.02 0 "--no-scale value $i ran $pct% of the time"
done
