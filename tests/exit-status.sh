#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pstat exits with the command's own status, and still prints the counts.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# check_status EXPECTED COMMAND...
check_status()
{
	want=$1
	shift
	run_pstat -x, -e task-clock -- "$@"
	expect_rc "$want"
	expect_number "$(csv_value task-clock)" "task-clock for '$*'"
}

check_status 0 true
check_status 1 false
check_status 7 sh -c 'exit 7'

# A command that exits 126 or 127 itself was executed: pstat passes the
# status on and says nothing of an exec that failed (it asks the
# exec-error pipe only for these statuses, and learns it was empty).
for want in 126 127; do
	check_status "$want" sh -c "exit $want"
	if grep -q '^pstat:' err; then
		show_err_
		fail_ "exit $want: a message"
	fi
done
