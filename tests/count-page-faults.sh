#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Page faults are counted: touching P fresh pages takes at least P faults.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

run_pstat -x, -e page-faults -- "$PROGS/touch_pages" 2000
expect_rc 0
expect_ge "$(csv_value page-faults)" 2000 "page-faults for touch_pages 2000"
