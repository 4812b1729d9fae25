#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A data breakpoint counts each store to a global exactly, :w and :rw,
# where the host's breakpoints fire at all (probe_bp says).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_breakpoints
command -v nm >/dev/null 2>&1 || skip_ "no nm (binutils): no address to watch"

# bp_global is built without PIE, so nm gives the address it runs at.
# User space only (:u): exec's loader zeroes the rest of the page after
# .data, and so the start of .bss, in the kernel, where the counter
# already counts.
addr=$(nm "$PROGS/bp_global" | awk '$3 == "counter" { print $1 }')
[ -n "$addr" ] || framework_failure_ "no 'counter' in nm $PROGS/bp_global"
w="mem:0x$addr/8:w:u"
rw="mem:0x$addr/8:rw:u"
run_pstat -x, -e "$w,$rw" -- "$PROGS/bp_global" 200
expect_rc 0
expect_eq "$(csv_value "$w")" 200 "$w on bp_global 200"
# It is never read, so reads and writes are the writes.
expect_eq "$(csv_value "$rw")" 200 "$rw on bp_global 200"
