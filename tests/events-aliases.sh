#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A PMU's event alias without its PMU, and in any case, as perf takes
# them: tsc and TSC count msr/tsc/, and so does msr/TSC/; the rows are
# named as typed, as perf names them.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_msr

run_pstat -x, -e tsc,TSC,msr/TSC/ -- "$PROGS/writer" 10
expect_rc 0
[ "$(csv_events)" = "tsc TSC msr/TSC/" ] ||
	{ show_err_; fail_ "events $(csv_events), want tsc TSC msr/TSC/"; }
for e in tsc TSC msr/TSC/; do
	v=$(csv_value "$e")
	expect_number "$v" "$e"
	expect_ge "$v" 1 "$e"
done

# The attr of msr/tsc/ whatever the spelling.
"$PSTAT" --explain -e msr/tsc/ | sed 1d >want ||
	fail_ "pstat --explain -e msr/tsc/ failed"
for e in tsc TSC msr/TSC/; do
	run_pstat --explain -e "$e"
	expect_rc 0
	sed 1d out | cmp -s want - ||
		{ cat out; fail_ "--explain -e $e is not msr/tsc/'s attr"; }
done

# perf names them the same.
if command -v perf >/dev/null 2>&1 &&
	perf stat -x, -e tsc,TSC,msr/TSC/ true 2>perf.err; then
	got=$(awk -F, '{ s = s (NR > 1 ? " " : "") $3 } END { print s }' perf.err)
	[ "$got" = "tsc TSC msr/TSC/" ] ||
		fail_ "perf names them '$got': a change in perf to look at"
fi
