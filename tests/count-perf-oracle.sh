#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# perf stat is the oracle: both tools count about the same page faults.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
command -v perf >/dev/null 2>&1 || skip_ "perf is not installed"

perf stat -x, -e page-faults -- "$PROGS/touch_pages" 500 2>perf.err ||
	skip_ "perf stat does not work here: $(head -n 1 perf.err)"
theirs=$(awk -F, '$3 == "page-faults" { print $1; exit }' perf.err)
is_number_ "$theirs" || skip_ "perf stat counted no page faults: '$theirs'"

run_pstat -x, -e page-faults -- "$PROGS/touch_pages" 500
expect_rc 0
ours=$(csv_value page-faults)
expect_ge "$ours" 500 "pstat page-faults for touch_pages 500"
expect_ge "$theirs" 500 "perf stat page-faults for touch_pages 500"

# The same workload; only start-up noise (a few dozen faults) may differ.
awk -v a="$ours" -v b="$theirs" 'BEGIN { d = a - b; if (d < 0) d = -d;
	exit !(d <= 0.2 * b) }' ||
	fail_ "page-faults: pstat $ours, perf stat $theirs: more than 20% apart"
