#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Counting starts at the command's exec: nothing pstat does before or
# after is counted. pstat's count of the command is the count of an
# oracle that forks, holds the child and lets it exec otherwise
# (hw_count), exactly where counts are exact.

# shellcheck source=tests/hw/lib.sh
. "$(dirname "$0")/lib.sh"

for n in "$N1" "$N2"; do
	run_pstat -x, -e instructions:u -- "$PROGS/insn_loop" "$n"
	expect_rc 0
	v=$(csv_field instructions:u 1)
	o=$(oracle "$n") || framework_failure_ "hw_count: $o"
	echo "insn_loop $n: pstat $v, the oracle $o"
	expect_count "$v" "$o" "instructions:u of insn_loop $n against the oracle"
done

