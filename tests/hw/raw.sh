#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The PMU's own code for retired instructions, raw (r8 on arm64, rc0 on
# x86) and by its PMU's name and format (armv8_pmuv3/event=0x8/,
# cpu/event=0xc0/), counts what instructions counts.

# shellcheck source=tests/hw/lib.sh
. "$(dirname "$0")/lib.sh"

require_kernel

devices=/sys/bus/event_source/devices
case $(uname -m) in
aarch64)
	# The CPU PMUs (their events/inst_retired): one, or big.LITTLE.
	pmus=$(cd "$devices" && for p in *; do
		[ -e "$p/events/inst_retired" ] && echo "$p"; done)
	[ "$(echo "$pmus" | grep -c .)" = 1 ] ||
		skip_ "not one CPU PMU with inst_retired: '$pmus'"
	raw=r8
	pmu_ev="$pmus/event=0x8/"
	;;
x86_64)
	[ -e "$devices/cpu/format/event" ] ||
		skip_ "no $devices/cpu PMU (a hybrid CPU?)"
	# INST_RETIRED.ANY_P on Intel, retired instructions on AMD.
	raw=rc0
	pmu_ev="cpu/event=0xc0/"
	;;
*)
	skip_ "no raw code for instructions known on $(uname -m)"
	;;
esac

# Not in a group: the counters start together at the exec, each on
# its own.
run_pstat -x, -e "instructions,$raw,$pmu_ev" -- "$PROGS/insn_loop" "$N1"
expect_rc 0
csv_rows
i=$(csv_field instructions 1)
expect_count_value "$i" instructions
for ev in "$raw" "$pmu_ev"; do
	v=$(csv_field "$ev" 1)
	expect_count_value "$v" "$ev"
	if [ "$exact" = 1 ]; then
		expect_eq "$v" "$i" "$ev against instructions"
	else
		expect_near "$v" "$i" 0.01 5000 "$ev against instructions"
	fi
done

# User space only, in one group.
run_pstat -x, -e "{instructions:u,$raw:u,${pmu_ev}u}" -- "$PROGS/insn_loop" "$N1"
expect_rc 0
csv_rows
o=$(oracle "$N1")
for ev in instructions:u "$raw:u" "${pmu_ev}u"; do
	expect_count "$(csv_field "$ev" 1)" "$o" "$ev"
done
