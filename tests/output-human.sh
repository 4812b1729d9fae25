#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Human output has perf stat's layout: the default events, the task-clock
# metric and the time footer.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

run_pstat -- true
expect_rc 0

expect_line()
{
	grep -Eq "$1" err || { show_err_; fail_ "no line matching: $1"; }
}

expect_line "^ Performance counter stats for 'true':\$"
expect_line '^ +[0-9]+\.[0-9]+ msec task-clock +# +[0-9]+\.[0-9]+ CPUs utilized'
for ev in context-switches cpu-migrations page-faults; do
	expect_line "^ +[0-9]+ +$ev( |\$)"
done
for ev in cycles instructions branches branch-misses; do
	expect_line " $ev( |\$)"
done
# Each host gives one known answer: counted with a PMU, else unsupported.
if have_hw_pmu; then
	expect_line '^ +[0-9,]+ +cycles( |$)'
else
	expect_line '^ +<not supported> +cycles( |$)'
fi
expect_line '^ +[0-9]+\.[0-9]+ seconds time elapsed$'
expect_line '^ +[0-9]+\.[0-9]+ seconds user$'
expect_line '^ +[0-9]+\.[0-9]+ seconds sys$'
