#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The msr PMU refuses any exclude bit: in a group, the event is
# <not supported>, said once, and the rest of its group still counts; in
# a weak group too.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_pmu msr

# :u, so that the kernel's own rights do not come first.
for spec in '{task-clock:u,msr/tsc/u}' '{msr/tsc/u,task-clock:u}:W'; do
	run_pstat -e "$spec" -- "$PROGS/touch_pages" 10
	expect_rc 0
	expect_eq "$(grep -c '^pstat: note: msr/tsc/u.*: <not supported>: .*cannot leave out user' err)" \
		1 "$spec: the note"
	grep -Eq '^ +<not supported> +msr/tsc/u' err ||
		{ show_err_; fail_ "$spec: msr/tsc/u not <not supported>"; }
	grep -Eq '^ +[0-9.]+ msec task-clock:u' err ||
		{ show_err_; fail_ "$spec: task-clock:u did not count"; }
done
