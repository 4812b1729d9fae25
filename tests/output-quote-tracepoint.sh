#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -x SEP: an event name holding the separator is quoted, RFC 4180 style:
# a tracepoint's colon under -x:.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs

run_pstat -x: -e syscalls:sys_enter_write -- "$PROGS/writer" 10
expect_rc 0
csv_rows | grep -Eqx '10::"syscalls:sys_enter_write":[0-9]+:100\.00::' ||
	{ show_err_; fail_ "-x: did not quote the tracepoint's name"; }
