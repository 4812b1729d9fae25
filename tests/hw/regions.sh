#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --regions with instructions:u: a region around a loop of N iterations
# counts the loop's instructions exactly (within exact_slack where
# counts are exact): the regions of loops of N1 and N2 iterations differ
# by the loop's N2 - N1 iterations, and what lies outside the region
# (the program's start, its marks, its exit) is the same in both runs.

# shellcheck source=tests/hw/lib.sh
. "$(dirname "$0")/lib.sh"

[ -x "$PROGS/regions" ] ||
	framework_failure_ "no $PROGS/regions (make check-hw builds it)"

# region_count N: instructions:u of region 'loop' (r) and of the whole
# run (t) of a loop of N iterations.
region_count()
{
	run_pstat --regions -x, -e instructions:u -- "$PROGS/regions" loop "$1"
	expect_rc 0
	r=$(csv_rows | awk -F, '$1 == "region:loop" && $4 == "instructions:u" {
		print $2; exit }')
	t=$(csv_field instructions:u 1)
	expect_count_value "$r" "region 'loop' of $1 iterations"
	expect_count_value "$t" "the whole run of $1 iterations"
}

region_count "$N1"
r1=$r t1=$t
region_count "$N2"
r2=$r t2=$t
echo "# loop $N1: region $r1 of $t1; loop $N2: region $r2 of $t2"
expect_count "$((r2 - r1))" "$(loop_insns $((N2 - N1)))" \
	"the regions' difference: $((N2 - N1)) iterations"
expect_count "$((t2 - r2))" "$((t1 - r1))" "what lies outside the region"
# The region holds the loop and little else: its marks' return paths.
expect_near "$r1" "$(loop_insns "$N1")" 0 2000 "region of $N1 iterations"
[ "$r1" -lt "$t1" ] || fail_ "the region ($r1) is not less than the run ($t1)"
exit 0
