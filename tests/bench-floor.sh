#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/bench's floors do what they stand for: the fork and clone
# floors run the command and pass its status on, the interval floor
# prints pstat -x, -I's lines; and scripts/bench itself compiles.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

cc=${CC:-cc}
src=$top_srcdir/scripts/bench-floor.c
"$cc" -O2 -o floor "$src" 2>cc.err || framework_failure_ "$cc: $(cat cc.err)"
# scripts/bench links the clone floor statically where it can.
"$cc" -O2 -static -o floor-s "$src" 2>/dev/null || cp floor floor-s

for f in "./floor" "./floor-s clone"; do
	rc=0
	$f 2 /bin/true 2>err || rc=$?
	expect_eq "$rc" 0 "$f 2 /bin/true: status"
	expect_eq "$(wc -l <err | tr -d ' ')" 2 "$f 2 /bin/true: counts"
	rc=0
	$f 2 /bin/sh -c 'exit 3' 2>/dev/null || rc=$?
	expect_eq "$rc" 3 "$f 2 sh -c 'exit 3': status"
done
rc=0
./floor-s clone 2 "$tmpdir/no-such-command" 2>/dev/null || rc=$?
expect_eq "$rc" 127 "floor clone with a missing command: status"

# The interval floor: each interval one line per counter, in turn
# task-clock and page-faults, with pstat's columns and units.
rc=0
./floor interval 4 10 sleep 0.1 2>err || rc=$?
expect_eq "$rc" 0 "floor interval: status"
# (mawk has no {9}: the fraction's length is checked apart.)
bad=$(awk -F, 'NF != 8 || $1 !~ /^[0-9]+\.[0-9]+$/ ||
	length($1) - index($1, ".") != 9 ||
	$5 !~ /^[0-9]+$/ || $6 !~ /^[0-9]+\.[0-9][0-9]$/ ||
	(NR % 2 == 1 && ($2 !~ /^[0-9]+\.[0-9][0-9]$/ || $3 != "msec" ||
			 $4 != "task-clock")) ||
	(NR % 2 == 0 && ($2 !~ /^[0-9]+$/ || $3 != "" ||
			 $4 != "page-faults"))' err)
expect_eq "$bad" "" "floor interval: lines unlike pstat's"
lines=$(wc -l <err | tr -d ' ')
[ "$lines" -ge 4 ] && [ $((lines % 4)) -eq 0 ] ||
	fail_ "floor interval 4: $lines lines, not whole intervals"
# Every interval's page faults add up to the command's, which are some.
faults=$(awk -F, '$4 == "page-faults" { s += $2 } END { print s + 0 }' err)
[ "$faults" -gt 0 ] || fail_ "floor interval: no page faults counted"
# pstat's lines have the same first six columns.
run_pstat -I 10 -x, -e task-clock,page-faults -- sleep 0.05
expect_rc 0
pstat_units=$(awk -F, 'NF == 8 { print $3 "," $4 }' err | sort -u)
floor_units=$(./floor interval 2 10 sleep 0.05 2>&1 >/dev/null |
	awk -F, '{ print $3 "," $4 }' | sort -u)
expect_eq "$floor_units" "$pstat_units" "units and events beside pstat's"
rc=0
./floor interval 2 10 /bin/sh -c 'exit 3' 2>/dev/null || rc=$?
expect_eq "$rc" 3 "floor interval, sh -c 'exit 3': status"

if command -v python3 >/dev/null; then
	python3 -c 'import sys; compile(open(sys.argv[1]).read(), "bench",
		"exec")' "$top_srcdir/scripts/bench" ||
		fail_ "scripts/bench does not compile"
fi
