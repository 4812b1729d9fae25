#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# With -i the command's children are not counted, but the command itself is.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs

ev=syscalls:sys_enter_write

# The parent of the forks only waits: its children did all 900 writes.
run_pstat -i -x, -e "$ev" -- "$PROGS/writer" 300 forks 3
expect_rc 0
expect_eq "$(csv_value "$ev")" 0 "-i, writer 300 forks 3: $ev"

# So that a broken -i that counts nothing cannot pass the check above.
run_pstat --no-inherit -x, -e "$ev" -- "$PROGS/writer" 300
expect_rc 0
expect_eq "$(csv_value "$ev")" 300 "--no-inherit, writer 300: $ev"
