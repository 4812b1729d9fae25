#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# As nobody, a tracepoint whose id nobody may read is refused with the
# path and the fix.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_root
command -v setpriv >/dev/null 2>&1 || skip_ "no setpriv (util-linux)"
require_tracepoints sched/sched_switch
if setpriv --reuid=65534 --regid=65534 --clear-groups \
	test -r /sys/kernel/tracing/events/sched/sched_switch/id 2>/dev/null
then
	skip_ "nobody may read tracefs here: no refusal to see"
fi
set_paranoid 2

cp "$PSTAT" ./pstat || framework_failure_ "cannot copy pstat"

run_nobody ./pstat -e sched:sched_switch -- true
expect_rc 125
grep -q "^pstat: cannot read tracepoint 'sched:sched_switch': permission denied on /sys/kernel/tracing/events (.*run as root.*mount -o remount,mode=750,gid=GROUP /sys/kernel/tracing" err ||
	{ show_err_; fail_ "tracepoint: no tracefs message"; }
