#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A generic hardware event this PMU lacks (the kernel says ENOENT or
# EOPNOTSUPP to the oracle) is <not supported> in every format, with a
# note naming it, and the events next to it still count.

# shellcheck source=tests/hw/lib.sh
. "$(dirname "$0")/lib.sh"

require_kernel

names="cycles instructions cache-references cache-misses branches branch-misses bus-cycles stalled-cycles-frontend stalled-cycles-backend ref-cycles"
ev=
config=0
for name in $names; do
	st=0
	"$PROGS/hw_count" -p -u 0 "$config" >probe.out 2>&1 || st=$?
	if [ "$st" = 0 ]; then
		config=$((config + 1))
		continue
	fi
	[ "$st" = 3 ] ||
		framework_failure_ "hw_count -p -u 0 $config: status $st: $(cat probe.out)"
	ev=$name
	echo "$ev (config $config): $(cat probe.out)"
	break
done
[ -n "$ev" ] || skip_ "this PMU counts every generic hardware event"

evs="instructions:u,$ev,cycles:u"
o=$(oracle "$N1")
run_pstat -e "$evs" -- "$PROGS/insn_loop" "$N1"
expect_rc 0
expect_eq "$(human_value "$ev")" "<not supported>" "$ev"
expect_count "$(human_value instructions:u)" "$o" "instructions:u next to it"
expect_count_value "$(human_value cycles:u)" "cycles:u next to it"
grep '^pstat: note:' err | grep -F "$ev" | grep -q 'not supported' ||
	{ show_err_; fail_ "no note names $ev as <not supported>"; }
expect_not_in_err 'no hardware PMU' "a note that there is no PMU, with one"

run_pstat -x, -e "$evs" -- "$PROGS/insn_loop" "$N1"
expect_rc 0
expect_eq "$(csv_field "$ev" 1)" "<not supported>" "-x, $ev"
expect_count "$(csv_field instructions:u 1)" "$o" "-x, instructions:u"
run_pstat -j -e "$evs" -- "$PROGS/insn_loop" "$N1"
expect_rc 0
expect_eq "$(jsonl_value "$ev")" "<not supported>" "-j $ev"
expect_count "$(jsonl_value instructions:u)" "$o" "-j instructions:u"
run_pstat --format=json -e "$evs" -- "$PROGS/insn_loop" "$N1"
expect_rc 0
expect_eq "$(pjson_field "$ev" status)" not-supported "--format=json $ev"
expect_eq "$(pjson_field "$ev" value)" null "--format=json $ev's value"
expect_count "$(pjson_field instructions:u value)" "$o" \
	"--format=json instructions:u"
