#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# :u and :k split what instructions counts between user space and the
# kernel; :P, the most precise level, steps down to one the PMU takes
# and counts as instructions does.

# shellcheck source=tests/hw/lib.sh
. "$(dirname "$0")/lib.sh"

require_root
run_pstat -x, -e '{instructions:u,instructions:k,instructions}' -- \
	"$PROGS/insn_loop" "$N1"
expect_rc 0
csv_rows
u=$(csv_field instructions:u 1)
k=$(csv_field instructions:k 1)
all=$(csv_field instructions 1)
for v in "$u" "$k" "$all"; do
	expect_count_value "$v" "the group's values"
done
expect_count "$u" "$(oracle "$N1")" "instructions:u"
[ "$k" -gt 0 ] || fail_ "instructions:k: 0 (the exec and exit are the kernel's)"
# Counters of one group start and stop together, one after another.
expect_near $((u + k)) "$all" 0.001 1000 "instructions:u + instructions:k"

run_pstat --explain -e instructions:P
expect_rc 0
grep -q 'precise_ip' out || { cat out; fail_ "--explain: no precise_ip for :P"; }
run_pstat -x, -e instructions:P,instructions -- "$PROGS/insn_loop" "$N1"
expect_rc 0
p=$(csv_field instructions:P 1)
i=$(csv_field instructions 1)
expect_count_value "$p" "instructions:P"
if [ "$exact" = 1 ]; then
	expect_eq "$p" "$i" "instructions:P against instructions"
else
	expect_near "$p" "$i" 0.01 5000 "instructions:P against instructions"
fi
