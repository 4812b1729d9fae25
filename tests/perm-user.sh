#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# As an ordinary user (nobody, through setpriv) at perf_event_paranoid 2:
# the own command is counted in user space, as :u, with one note and no
# false zeros; what is still refused exits 125 with one message that
# names the event, the level and the fixes (system-wide, another user's
# process, the kernel part, a seccomp filter). Where the machine must
# have more: perm-user-msr.sh, perm-user-tracefs.sh,
# perm-user-tracepoints.sh, perm-user-suid.sh.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_root
command -v setpriv >/dev/null 2>&1 || skip_ "no setpriv (util-linux)"

set_paranoid 2

# nobody may not enter the build tree: run copies from the 755 temp dir.
cp "$PSTAT" ./pstat && cp "$PROGS/touch_pages" "$PROGS/no_perf" . ||
	framework_failure_ "cannot copy pstat and the test programs"

# The own command: :u, one note, and <not counted> where :u reads a
# false 0 (COUNTING_NOTES 1.4); page-faults:u still counts user faults.
run_nobody ./pstat -x, -e task-clock,context-switches,cpu-migrations,page-faults \
	-- ./touch_pages 100
expect_rc 0
expect_eq "$(csv_events)" \
	"task-clock:u context-switches:u cpu-migrations:u page-faults:u" \
	"own command: events"
expect_number "$(csv_value task-clock:u)" "task-clock:u"
expect_eq "$(csv_value context-switches:u)" "<not counted>" \
	"context-switches:u"
expect_eq "$(csv_value cpu-migrations:u)" "<not counted>" "cpu-migrations:u"
expect_ge "$(csv_value page-faults:u)" 100 "page-faults:u"
# CSV on stderr carries nothing else; the note comes with human output.
expect_eq "$(grep -c '^pstat: ' err)" 0 "own command: 'pstat: ' lines in -x"
run_nobody ./pstat -e task-clock,context-switches,cpu-migrations,page-faults \
	-- ./touch_pages 100
expect_eq "$(grep -c '^pstat: ' err)" 1 "own command: 'pstat: ' lines"
grep '^pstat: note: ' err | grep 'perf_event_paranoid=2' |
	grep ':u' | grep 'context-switches:u, cpu-migrations:u: <not counted>' |
	grep -q 'CAP_PERFMON' ||
	{ show_err_; fail_ "own command: no note on the :u fallback"; }

# The default events: one :u note for the whole run, however many events.
run_nobody ./pstat -- ./touch_pages 10
expect_rc 0
grep -Eq '^ +[0-9.]+ msec task-clock:u' err ||
	{ show_err_; fail_ "default task-clock:u"; }
expect_eq "$(grep -c '^pstat: note: .*perf_event_paranoid=2' err)" 1 \
	"default events: notes on the :u fallback"

# Still refused: :k.
rm -f ran
run_nobody ./pstat -e task-clock:k -- touch ran
expect_refusal task-clock:k "kernel.perf_event_paranoid" "it is 2 here" \
	"with :u instead" "CAP_PERFMON"

# perf_event_open blocked for everything, as by a container's seccomp.
rm -f ran
run_nobody ./no_perf ./pstat -e task-clock -- touch ran
expect_refusal task-clock "operation not permitted" \
	"EPERM for every event" "seccomp filter" "--cap-add PERFMON"

# System-wide and another user's process.
rm -f ran
run_nobody ./pstat -a -e cpu-clock -- touch ran
expect_refusal cpu-clock "whole CPUs (-a, -C)" \
	"kernel.perf_event_paranoid at most 0, and it is 2 here" \
	"CAP_PERFMON (Linux 5.8+" "setcap cap_perfmon+ep" \
	"sysctl kernel.perf_event_paranoid=0"
rm -f ran
run_nobody ./pstat -p 1 -e task-clock -- touch ran
expect_refusal task-clock "cannot attach to process 1" \
	"belongs to uid 0" "CAP_SYS_PTRACE" "CAP_PERFMON"
exit 0
