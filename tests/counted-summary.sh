#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --summary's totals are the sum of the intervals they summarise, event
# by event, however counting ends: a command that ends, one that runs on
# after --interval-count's last interval (perf's summary stops there
# too), and without a command, at --interval-count or --timeout. Counts
# are integers here, so the sums are exact.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs

ev=syscalls:sys_enter_write,context-switches,duration_time

# check_sums WHAT: each event's summary row against its intervals' sum.
check_sums()
{
	expect_rc 0
	csv_rows | awk -F, '
		$1 == "summary" { total[$4] = $2; next }
		{ sum[$4] += $2; n[$4]++ }
		END {
			for (e in total)
				if (!n[e] || sum[e] != total[e])
					printf "%s: %d intervals sum %s, summary %s\n",
					       e, n[e], sum[e], total[e]
			for (e in sum)
				if (!(e in total))
					printf "%s: no summary\n", e
		}' >sums
	[ ! -s sums ] || { show_err_; cat sums; fail_ "$1: summary != intervals"; }
	[ "$(csv_rows | grep -c '^summary,')" = 3 ] ||
		{ show_err_; fail_ "$1: not a summary row per event"; }
}

run_pstat -x, -I 100 --summary -e "$ev" -- "$PROGS/writer" 100
check_sums "a command that ends"

# Its writes come after the only interval shown.
run_pstat -x, -I 100 --interval-count 1 --summary -e "$ev" -- \
	sh -c 'sleep 0.5; exec "$0" 100' "$PROGS/writer"
check_sums "a command running on after --interval-count"

"$PSTAT" -a -e context-switches -- true 2>probe >/dev/null ||
	skip_ "cannot count system-wide here: $(head -n 1 probe)"
run_pstat -x, -a -I 100 --interval-count 3 --summary -e "$ev"
check_sums "-a, --interval-count 3"
run_pstat -x, -a -I 100 --timeout 250 --summary -e "$ev"
check_sums "-a, --timeout"
