#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -I: each interval's count is what the loop retired in it, so the
# intervals add up to the total of --summary, which is the exact count.

# shellcheck source=tests/hw/lib.sh
. "$(dirname "$0")/lib.sh"

n=$BIG
run_pstat -I 10 --summary -x, -e instructions:u -- "$PROGS/insn_loop" "$n"
expect_rc 0
csv_rows
intervals=$(csv_rows | awk -F, '$1 != "summary" && $4 == "instructions:u"' | wc -l)
[ "$intervals" -ge 2 ] || { show_err_; fail_ "$intervals intervals, expected several"; }
sum=$(csv_rows | awk -F, '$1 != "summary" && $4 == "instructions:u" { s += $2 }
	END { printf "%d", s }')
total=$(csv_rows | awk -F, '$1 == "summary" && $4 == "instructions:u" { print $2 }')
expect_count_value "$total" "the summary"
expect_eq "$sum" "$total" "the sum of $intervals intervals against the summary"
expect_count "$total" "$(oracle "$n")" "the summary against the oracle"
