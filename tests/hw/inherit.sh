#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Children and threads are counted with the command (inherit), and not
# with -i: three children or threads looping N more times retire 6N
# more instructions, and nothing more with -i.

# shellcheck source=tests/hw/lib.sh
. "$(dirname "$0")/lib.sh"

# count OPTION... : instructions:u in v, pstat's options first.
count()
{
	run_pstat -x, -e instructions:u "$@"
	expect_rc 0
	v=$(csv_field instructions:u 1)
	expect_count_value "$v" "pstat $*"
	echo "pstat $*: $v"
}

for how in -f -t; do
	count -- "$PROGS/insn_loop" "$how" 3 "$N1"
	a=$v
	count -- "$PROGS/insn_loop" "$how" 3 "$N2"
	b=$v
	want=$(loop_insns $((N2 - N1)) 3)
	if [ "$how" = -f ]; then
		expect_count $((b - a)) "$want" "3 children, $N2 against $N1 iterations"
	else
		# A thread joined before or after it ends takes other paths.
		expect_near $((b - a)) "$want" 0.001 2000 \
			"3 threads, $N2 against $N1 iterations"
	fi
	count -i -- "$PROGS/insn_loop" "$how" 3 "$N1"
	a=$v
	count -i -- "$PROGS/insn_loop" "$how" 3 "$N2"
	b=$v
	[ "$a" -lt "$(loop_insns "$N1")" ] ||
		fail_ "-i $how 3: $a, the loops of its children or threads counted"
	if [ "$how" = -f ]; then
		expect_count $((b - a)) 0 "-i, 3 children, $N2 against $N1 iterations"
	else
		expect_near $((b - a)) 0 0 2000 \
			"-i, 3 threads, $N2 against $N1 iterations"
	fi
done
