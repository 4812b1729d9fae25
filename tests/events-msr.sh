#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The msr PMU's time stamp counter ticks whatever the machine, where the
# msr PMU is there and may be counted (it takes no modifiers, so it
# needs the right to count the kernel too: probe_pmu says).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_msr

run_pstat -x, -e msr/tsc/ -- "$PROGS/writer" 10
expect_rc 0
v=$(csv_value msr/tsc/)
expect_number "$v" "msr/tsc/"
expect_ge "$v" 1 "msr/tsc/"
