#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pstat compare of a loop of N iterations against one of 1.01 N: the
# medians differ by exactly the loop's 0.01 N iterations of
# instructions:u (within exact_slack where counts are exact), so the
# change is that over A's median (just under 1%: A's count holds the
# program's start and exit too), its interval of zero width where
# counts are exact, and the verdict at --threshold 0.5% "slower"; the
# same loop on both sides is no change.

# shellcheck source=tests/hw/lib.sh
. "$(dirname "$0")/lib.sh"

NB=$((N1 + N1 / 100))
# -x rows: event,unit,side,vs,runs A,median A,runs B,median B,change %,
# interval low %,high %,p,verdict,least running %.
run_pstat compare -r 5 -x, -o rows.csv --threshold 0.5% -e instructions:u \
	-- "$PROGS/insn_loop" "$N1" ::: "$PROGS/insn_loop" "$NB"
expect_rc 0
cat rows.csv
row=$(grep '^instructions:u,' rows.csv) || { show_err_; fail_ "no instructions:u row"; }
field() { printf '%s\n' "$row" | cut -d, -f"$1"; }
expect_eq "$(field 5),$(field 7)" 5,5 "the runs of each side"
a=$(field 6) b=$(field 8)
expect_count "$((b - a))" "$(loop_insns $((NB - N1)))" \
	"the medians' difference: $((NB - N1)) iterations"
expect_count "$a" "$(oracle "$N1")" "A's median against the oracle"
# The change is the difference over A's median, in %.
want=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.6f", (b / a - 1) * 100 }')
expect_near "$(field 9)" "$want" 0.000001 0 "the change, %"
expect_near "$(field 9)" 1 0.05 0 "the change, % (about 1)"
if [ "$exact" = 1 ]; then
	# Zero width, but for the odd run's 2 more instructions.
	expect_near "$(field 10)" "$(field 11)" 0 0.001 "the interval's width"
fi
expect_eq "$(field 13)" slower "the verdict at --threshold 0.5%"

# The same loop on both sides: no change, and --fail-on is not met.
run_pstat compare -r 5 -x, -o same.csv --fail-on 'instructions:u>0.5%' \
	-e instructions:u -- "$PROGS/insn_loop" "$N1" ::: "$PROGS/insn_loop" "$N1"
expect_rc 0
row=$(grep '^instructions:u,' same.csv) || { show_err_; fail_ "no instructions:u row"; }
expect_near "$(field 8)" "$(field 6)" 0 "$exact_slack" "the medians of one loop"
if [ "$exact" = 1 ]; then
	expect_eq "$(field 13)" "no change" "the verdict of one loop"
fi
exit 0
