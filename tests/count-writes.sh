#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Tracepoints count exactly: every write(2) of the command, of its threads
# and of its children (inherit is the default).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs

ev=syscalls:sys_enter_write

# check_writes EXPECTED WRITER-ARGS...
check_writes()
{
	want=$1
	shift
	run_pstat -x, -e "$ev" -- "$PROGS/writer" "$@"
	expect_rc 0
	expect_eq "$(csv_value "$ev")" "$want" "writer $*: $ev"
}

check_writes 1000 1000
check_writes 1000 250 threads 4
check_writes 900 300 forks 3
