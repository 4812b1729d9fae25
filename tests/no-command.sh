#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Without a command, counting the whole machine ends as asked with status
# 0, and a refused open ends pstat at once with status 125.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# As nobody where whole CPUs need privileges: the refusal, not a wait
# for a signal that nobody sends (timeout stands in for it: 124).
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$(id -u)" = 0 ] && [ "$paranoid" -gt 0 ] &&
   command -v setpriv >/dev/null 2>&1; then
	cp "$PSTAT" ./pstat || framework_failure_ "cannot copy pstat"
	for args in "-a -e task-clock" "-a -I 100 -e task-clock"; do
		rc=0
		# shellcheck disable=SC2086 # $args are words on purpose
		timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups \
			./pstat $args >out 2>err || rc=$?
		[ "$rc" != 124 ] ||
			fail_ "nobody: 'pstat $args' waited after its refusal"
		expect_rc 125
		grep -q '^pstat: task-clock: permission denied: .*whole CPUs' err ||
			{ show_err_; fail_ "nobody: 'pstat $args': no message"; }
	done
else
	echo "not root, no setpriv, or nobody may count whole CPUs here:" \
	     "refusals not tried"
fi
exit 0
