#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Exact counts from the kernel for the event forms beyond the named ones:
# tracepoint globs, a breakpoint on a known global, the msr PMU, and the
# same specs read from an event file.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

ran=0

# "value name" for every row of ./err, in order.
value_names()
{
	csv_rows | awk -F, '{ print $1, $3 }'
}

# Tracepoint globs expand sorted, and count every call of the command and
# of its children: 250 writes in each of 2 children, and the parent's
# wait(2) for each child and the last one that finds none.
spec='syscalls:sys_enter_writ*,syscalls:sys_enter_wait4'
# In an --enable-asan build, LeakSanitizer's check at exit waits for a
# helper of its own: not the workload's wait(2), so not counted here.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS
if [ -r /sys/kernel/tracing/events/syscalls/sys_enter_write/id ] &&
   [ -r /sys/kernel/tracing/events/syscalls/sys_enter_wait4/id ]; then
	run_pstat -x, -e "$spec" -- "$PROGS/writer" 250 forks 2
	expect_rc 0
	want="syscalls:sys_enter_write syscalls:sys_enter_writev"
	expect_eq "$(csv_events ,)" "$want syscalls:sys_enter_wait4" \
		"events of $spec"
	expect_eq "$(csv_value syscalls:sys_enter_write)" 500 "writes"
	expect_eq "$(csv_value syscalls:sys_enter_writev)" 0 "writevs"
	expect_eq "$(csv_value syscalls:sys_enter_wait4)" 3 "wait4s"
	value_names >inline

	# The same from a file: comments, blanks, a spec a line.
	cat >events <<'EOF'
# syscalls of writer, exactly

syscalls:sys_enter_writ*	# the glob, sorted
  syscalls:sys_enter_wait4,
EOF
	run_pstat -x, -e @events -- "$PROGS/writer" 250 forks 2
	expect_rc 0
	value_names >from_file
	cmp -s inline from_file || {
		show_err_
		fail_ "-e @events: rows differ from -e '$spec'"
	}
	ran=$((ran + 1))
else
	echo "no readable syscall tracepoints: globs not counted"
fi

# A data breakpoint counts each store to the global: bp_global is built
# without PIE, so nm gives the address it runs at. User space only (:u):
# exec's loader zeroes the rest of the page after .data, and so the
# start of .bss, in the kernel, where the counter already counts.
if [ ! -d /sys/bus/event_source/devices/breakpoint ]; then
	echo "no breakpoint PMU: breakpoints not counted"
elif ! command -v nm >/dev/null 2>&1; then
	echo "no nm: breakpoints not counted"
else
	addr=$(nm "$PROGS/bp_global" | awk '$3 == "counter" { print $1 }')
	[ -n "$addr" ] ||
		framework_failure_ "no 'counter' in nm $PROGS/bp_global"
	w="mem:0x$addr/8:w:u"
	rw="mem:0x$addr/8:rw:u"
	run_pstat -x, -e "$w,$rw" -- "$PROGS/bp_global" 200
	expect_rc 0
	expect_eq "$(csv_value "$w")" 200 "$w on bp_global 200"
	# It is never read, so reads and writes are the writes.
	expect_eq "$(csv_value "$rw")" 200 "$rw on bp_global 200"
	ran=$((ran + 1))
fi

# The msr PMU's time stamp counter ticks whatever the machine. It takes
# no modifiers, so it needs the right to count the kernel too.
if [ ! -d /sys/bus/event_source/devices/msr ]; then
	echo "no msr PMU: msr/tsc/ not counted"
elif ! "$PSTAT" -x, -e task-clock -- true 2>&1 | grep -q ',task-clock,'; then
	echo "cannot count the kernel here: msr/tsc/ not counted"
else
	run_pstat -x, -e msr/tsc/ -- "$PROGS/writer" 10
	expect_rc 0
	v=$(csv_value msr/tsc/)
	expect_number "$v" "msr/tsc/"
	expect_ge "$v" 1 "msr/tsc/"
	ran=$((ran + 1))
fi

[ "$ran" -gt 0 ] || skip_ "no tracepoints, breakpoints or msr PMU here"
