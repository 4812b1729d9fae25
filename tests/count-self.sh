#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Nothing pstat does is counted: counting starts at the command's exec, and
# true(1) opens no counters, waits for nothing and writes nothing.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs

evs=syscalls:sys_enter_perf_event_open
evs=$evs,syscalls:sys_enter_wait4,syscalls:sys_enter_write

# The long options, so that they are tested somewhere.
run_pstat --field-separator , --event "$evs" -- true
expect_rc 0
for ev in $(echo "$evs" | tr , ' '); do
	expect_eq "$(csv_value "$ev")" 0 "$ev for true"
done
