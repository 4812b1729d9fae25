#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A group member the kernel refuses stops pstat before the command runs,
# weak group or not: x86 refuses a breakpoint not aligned to its length.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
case $(uname -m) in
x86_64|i?86) ;;
*) skip_ "only x86 refuses breakpoints not aligned to their length" ;;
esac
require_pmu breakpoint

expect_refused_saying 'must be aligned' -e '{task-clock,mem:0x1001/8:w}:u'
expect_refused_saying 'must be aligned' -e '{task-clock,mem:0x1001/8:w}:uW'
