#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A command killed by signal N makes pstat exit 128+N, say which signal, and
# still print the counts.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

run_pstat -e page-faults -- "$PROGS/raise_signal" 15
expect_rc 143
grep -Eiq 'signal|sigterm|terminated' err ||
	{ show_err_; fail_ "SIGTERM: no line naming the signal"; }
if ! grep -q 'Performance counter stats for' err ||
   ! grep -Eq '^ +[0-9]+ +page-faults' err; then
	show_err_
	fail_ "SIGTERM: no counts printed"
fi

run_pstat -x, -e page-faults -- "$PROGS/raise_signal" 9
expect_rc 137
# The status says it: the CSV stream carries nothing but CSV.
! grep -q '^pstat:' err || { show_err_; fail_ "SIGKILL: a message in -x"; }
expect_number "$(csv_value page-faults)" "SIGKILL: page-faults"
