#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --list shows a sysfs PMU's aliases: the msr PMU's tsc.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
[ -r /sys/bus/event_source/devices/msr/events/tsc ] ||
	skip_ "no msr PMU with a tsc alias here (/sys/bus/event_source/devices/msr/events/tsc)"

run_pstat --list
expect_rc 0
grep -qx '  msr/tsc/' out || fail_ "--list: no msr/tsc/ alias"
