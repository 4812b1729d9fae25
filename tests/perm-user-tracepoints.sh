#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# As nobody at perf_event_paranoid 2, tracepoints under :u: the syscall
# ones carry the user's registers and still count exactly; the others
# would read 0 and are <not counted>, with a note.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_root
command -v setpriv >/dev/null 2>&1 || skip_ "no setpriv (util-linux)"
require_tracepoints syscalls/sys_enter_write sched/sched_switch
set_paranoid 2

# The ids come from a copy of tracefs, which nobody may not read.
events=/sys/kernel/tracing/events
for tp in syscalls/sys_enter_write sched/sched_switch; do
	mkdir -p "fake/$tp" && cp "$events/$tp/id" "fake/$tp/id" ||
		framework_failure_ "cannot copy $tp/id"
done
chmod -R a+rX fake
cp "$PSTAT" ./pstat && cp "$PROGS/writer" . ||
	framework_failure_ "cannot copy pstat and writer"

run_nobody env PSTAT_TRACEFS="$tmpdir/fake" ./pstat -x, \
	-e syscalls:sys_enter_write,sched:sched_switch -- ./writer 100
expect_rc 0
expect_eq "$(csv_value syscalls:sys_enter_write:u)" 100 \
	"syscalls:sys_enter_write:u"
expect_eq "$(csv_value sched:sched_switch:u)" "<not counted>" \
	"sched:sched_switch:u"
! grep -q '^pstat:' err || { show_err_; fail_ "tracepoints: a note in -x"; }
run_nobody env PSTAT_TRACEFS="$tmpdir/fake" ./pstat \
	-e syscalls:sys_enter_write,sched:sched_switch -- ./writer 100
expect_rc 0
grep -q '^pstat: note: .*sched:sched_switch:u: <not counted>' err ||
	{ show_err_; fail_ "tracepoints: no note"; }
