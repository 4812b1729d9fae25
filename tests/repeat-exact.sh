#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -r N with exact counts: exactly 100 writes a run give a mean of 100 and
# no spread at all.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs

ev=syscalls:sys_enter_write
run_pstat -x, -r 5 -e "$ev" -- "$PROGS/writer" 100
expect_rc 0
expect_eq "$(csv_rows | wc -l)" 1 "-x, -r 5: rows"
expect_eq "$(csv_value "$ev")" 100 "-x, -r 5: mean of $ev"
expect_eq "$(csv_rows | cut -d, -f4)" 0.00% "-x, -r 5: variance"
expect_eq "$(csv_rows | awk -F, '{ print NF }')" 8 "-x, -r 5: fields"
