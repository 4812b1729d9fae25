#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -r 5: the mean of five runs and its spread, which is 0 where counts
# are exact, and each run's value in --format=json.

# shellcheck source=tests/hw/lib.sh
. "$(dirname "$0")/lib.sh"

run_pstat -r 5 -x, -e instructions:u,cycles:u -- "$PROGS/insn_loop" "$N1"
expect_rc 0
csv_rows
o=$(oracle "$N1")
expect_count "$(csv_field instructions:u 1)" "$o" "the mean of instructions:u"
for ev in instructions:u cycles:u; do
	spread=$(csv_field "$ev" 4)
	expect_match "$spread" '^[0-9]+\.[0-9][0-9]%$' "$ev's spread"
	if [ "$exact" = 1 ]; then
		expect_eq "$spread" 0.00% "$ev's spread"
	else
		expect_near "${spread%\%}" 0 0 1 "$ev's spread, %"
	fi
done

run_pstat -r 5 -e instructions:u -- "$PROGS/insn_loop" "$N1"
expect_rc 0
grep -q 'for .* (5 runs)' err || { show_err_; fail_ "no (5 runs) in the title"; }
if_exact expect_in_err 'instructions:u +\( \+- +0\.00% \)' \
	"the human spread"

run_pstat -r 5 --format=json -e instructions:u -- "$PROGS/insn_loop" "$N1"
expect_rc 0
runs=$(tr '{' '\n' <err | grep -F '"event": "instructions:u"' |
	sed -n 's/.*"runs": *\[\([^]]*\)\].*/\1/p' | tr -d ' ')
echo "runs: $runs"
expect_eq "$(echo "$runs" | tr , '\n' | grep -c .)" 5 "values in runs"
for v in $(echo "$runs" | tr , ' '); do
	expect_count "$v" "$o" "a run's instructions:u"
done
if_exact expect_eq "$(pjson_field instructions:u stddev)" 0 "stddev"
