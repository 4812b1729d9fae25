#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Exact counts from the kernel for tracepoint globs, and the same specs
# read from an event file. (A breakpoint on a known global and the msr
# PMU: events-breakpoint.sh and events-msr.sh.)

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracepoints syscalls/sys_enter_write syscalls/sys_enter_wait4

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
