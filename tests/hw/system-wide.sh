#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -a -A: a row per online CPU, which together counted the command's loop
# and whatever else ran; -a alone: their sum.

# shellcheck source=tests/hw/lib.sh
. "$(dirname "$0")/lib.sh"

require_root
online=$(cat /sys/devices/system/cpu/online)
cpus=$(echo "$online" | tr , '\n' | awk -F- '{ n += (NF == 2 ? $2 - $1 + 1 : 1) }
	END { print n }')
o=$(oracle "$N1")

run_pstat -a -A -x, -e instructions:u,cycles -- "$PROGS/insn_loop" "$N1"
expect_rc 0
csv_rows
rows=$(csv_rows | awk -F, '$1 ~ /^CPU[0-9]+$/ && $4 == "instructions:u"' | wc -l)
expect_eq "$rows" "$cpus" "instructions:u rows for CPUs $online"
sum=$(csv_rows | awk -F, '$1 ~ /^CPU/ && $4 == "instructions:u" { s += $2 }
	END { printf "%d", s }')
[ "$sum" -ge "$o" ] ||
	fail_ "-a -A: $sum instructions:u on all CPUs, fewer than the command's $o"
echo "-a -A: $sum instructions:u, the command $o"
# The command and, on an idle machine, little else.
if_exact expect_near "$sum" "$o" 0.05 0 "instructions:u on the CPUs"
csv_rows | awk -F, '$1 ~ /^CPU/ && $4 == "cycles"' | while IFS=, read -r cpu v rest; do
	expect_count_value "$v" "cycles on $cpu"
done || exit 1

run_pstat -a -e instructions:u -- "$PROGS/insn_loop" "$N1"
expect_rc 0
v=$(human_value instructions:u)
expect_count_value "$v" "-a"
[ "$v" -ge "$o" ] || fail_ "-a: $v, fewer than the command's $o"
