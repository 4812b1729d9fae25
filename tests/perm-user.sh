#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# As an ordinary user (nobody, through setpriv) at perf_event_paranoid 2:
# the own command is counted in user space, as :u, with one note and no
# false zeros; a set-user-ID command is said to stop counting; what is
# still refused exits 125 with one message that names the event, the
# level and the fixes (system-wide, another user's process, the kernel
# part, tracefs, a seccomp filter).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_root
command -v setpriv >/dev/null 2>&1 || skip_ "no setpriv (util-linux)"

# Level 2 exactly, and the old level back at the end.
paranoid=/proc/sys/kernel/perf_event_paranoid
old_paranoid=$(cat "$paranoid")
if [ "$old_paranoid" != 2 ]; then
	trap 'echo "$old_paranoid" >"$paranoid"; cd / && rm -rf "$tmpdir"' EXIT
	echo 2 >"$paranoid" || skip_ "cannot set $paranoid to 2"
fi

# nobody may not enter the build tree: run copies from the 755 temp dir.
cp "$PSTAT" ./pstat && cp "$PROGS/touch_pages" "$PROGS/no_perf" . ||
	framework_failure_ "cannot copy pstat and the test programs"

# Runs its arguments as nobody, output in ./out and ./err, status in rc.
run_nobody()
{
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@" \
		>out 2>err || rc=$?
}

# expect_refused EVENT TEXT...: 125, one message, naming EVENT and TEXTs.
expect_refused()
{
	expect_rc 125
	[ ! -e ran ] || { show_err_; fail_ "$1: the command ran"; }
	expect_eq "$(grep -c '^pstat: ' err)" 1 "$1: 'pstat: ' lines"
	for want in "$@"; do
		grep '^pstat: ' err | grep -qF -- "$want" ||
			{ show_err_; fail_ "$1: no '$want' in the message"; }
	done
}

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

# Still refused: an event that cannot leave the kernel out, and :k.
if [ -d /sys/bus/event_source/devices/msr ]; then
	rm -f ran
	run_nobody ./pstat -e msr/tsc/ -- touch ran
	expect_refused msr/tsc/ "permission denied" \
		"kernel.perf_event_paranoid" "it is 2 here" \
		"cannot leave the kernel out" "CAP_PERFMON (Linux 5.8+" \
		"setcap cap_perfmon+ep" "sysctl kernel.perf_event_paranoid=1"
fi
rm -f ran
run_nobody ./pstat -e task-clock:k -- touch ran
expect_refused task-clock:k "kernel.perf_event_paranoid" "it is 2 here" \
	"with :u instead" "CAP_PERFMON"

# A tracepoint whose id nobody may read: the path and the fix.
if setpriv --reuid=65534 --regid=65534 --clear-groups \
	test -r /sys/kernel/tracing/events/sched/sched_switch/id 2>/dev/null
then
	echo "nobody may read tracefs here: its refusal not tried"
elif [ -d /sys/kernel/tracing/events/sched ]; then
	run_nobody ./pstat -e sched:sched_switch -- true
	expect_rc 125
	grep -q "^pstat: cannot read tracepoint 'sched:sched_switch': permission denied on /sys/kernel/tracing/events (.*run as root.*mount -o remount,mode=750,gid=GROUP /sys/kernel/tracing" err ||
		{ show_err_; fail_ "tracepoint: no tracefs message"; }
fi

# Tracepoints under :u: the syscall ones carry the user's registers and
# still count exactly; the others would read 0 and are <not counted>.
# The ids come from a copy of tracefs that nobody may read.
events=/sys/kernel/tracing/events
if [ -r "$events/syscalls/sys_enter_write/id" ] &&
   [ -r "$events/sched/sched_switch/id" ]; then
	for tp in syscalls/sys_enter_write sched/sched_switch; do
		mkdir -p "fake/$tp" && cp "$events/$tp/id" "fake/$tp/id" ||
			framework_failure_ "cannot copy $tp/id"
	done
	chmod -R a+rX fake
	cp "$PROGS/writer" . || framework_failure_ "cannot copy writer"
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
	grep -q '^pstat: note: .*sched:sched_switch:u: <not counted>' err ||
		{ show_err_; fail_ "tracepoints: no note"; }
else
	echo "no syscalls or sched tracepoints: :u tracepoints not tried"
fi

# A set-user-ID command: the kernel stops counting it at its exec.
cp touch_pages suid_pages && chmod 4755 suid_pages ||
	framework_failure_ "cannot make a set-user-ID copy"
if ! findmnt -n -o OPTIONS -T . 2>/dev/null | grep -qw nosuid; then
	run_nobody ./pstat -e page-faults -- ./suid_pages 100
	expect_rc 0
	grep -q "^pstat: note: '\./suid_pages' is set-user-ID root: the kernel stops counting" err ||
		{ show_err_; fail_ "set-user-ID: no note"; }
	run_nobody ./pstat -x, -e page-faults -- ./suid_pages 100
	v=$(csv_value page-faults:u)
	expect_number "$v" "set-user-ID page-faults:u"
	[ "$v" -lt 100 ] ||
		fail_ "set-user-ID: $v page faults: the kernel counted it all?"
	run_nobody ./pstat -e page-faults -- ./touch_pages 100
	! grep -q 'set-user-ID' err || fail_ "a plain command got the note"
fi

# perf_event_open blocked for everything, as by a container's seccomp.
rm -f ran
run_nobody ./no_perf ./pstat -e task-clock -- touch ran
expect_refused task-clock "operation not permitted" \
	"EPERM for every event" "seccomp filter" "--cap-add PERFMON"

# System-wide and another user's process, where pstat has them.
if ./pstat --help | grep -q -- '--all-cpus'; then
	rm -f ran
	run_nobody ./pstat -a -e cpu-clock -- touch ran
	expect_refused cpu-clock "whole CPUs (-a, -C)" \
		"kernel.perf_event_paranoid at most 0, and it is 2 here" \
		"CAP_PERFMON (Linux 5.8+" "setcap cap_perfmon+ep" \
		"sysctl kernel.perf_event_paranoid=0"
else
	echo "SKIP: this pstat has no --all-cpus: -a refusal not tried"
fi
if ./pstat --help | grep -q -- '--pid'; then
	rm -f ran
	run_nobody ./pstat -p 1 -e task-clock -- touch ran
	expect_refused task-clock "cannot attach to process 1" \
		"belongs to uid 0" "CAP_SYS_PTRACE" "CAP_PERFMON"
else
	echo "SKIP: this pstat has no --pid: attaching to pid 1 not tried"
fi
exit 0
