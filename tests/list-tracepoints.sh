#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --list 'SYSTEM:*' keeps that system's tracepoints and nothing else.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracepoints sched/sched_switch

run_pstat --list 'sched:*'
expect_rc 0
grep -q '^  sched:sched_switch$' out ||
	fail_ "--list 'sched:*': no sched:sched_switch"
grep '^  ' out | grep -qv '^  sched:' &&
	fail_ "--list 'sched:*': rows from elsewhere"
exit 0
