#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# As nobody at perf_event_paranoid 2, an event that cannot leave the
# kernel out (msr/tsc/) is refused: 125, one message with the level and
# the fixes.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_root
command -v setpriv >/dev/null 2>&1 || skip_ "no setpriv (util-linux)"
require_pmu msr
set_paranoid 2

cp "$PSTAT" ./pstat || framework_failure_ "cannot copy pstat"

run_nobody ./pstat -e msr/tsc/ -- touch ran
expect_refusal msr/tsc/ "permission denied" \
	"kernel.perf_event_paranoid" "it is 2 here" \
	"cannot leave the kernel out" "CAP_PERFMON (Linux 5.8+" \
	"setcap cap_perfmon+ep" "sysctl kernel.perf_event_paranoid=1"
