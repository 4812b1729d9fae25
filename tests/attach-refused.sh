#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Without a command (-p), a refused counter or a descriptor limit too
# small for the counters ends pstat at once: the refusal, status 125, and
# no wait for a signal or a target's end that nobody brings. A pstat
# that waited is ended by timeout (124), well beyond any slow machine.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# Another user's process: refused to nobody whatever the paranoia level
# (the kernel wants ptrace access to a process it counts).
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	cp "$PSTAT" ./pstat || framework_failure_ "cannot copy pstat"
	run_nobody timeout 120 ./pstat -e task-clock -p 1
	[ "$rc" != 124 ] || { show_err_; fail_ "nobody -p 1: pstat waited"; }
	expect_rc 125
	grep -q '^pstat: task-clock: permission denied: .*process 1' err ||
		{ show_err_; fail_ "nobody -p 1: no refusal"; }
else
	echo "not root or no setpriv: -p 1 as nobody not tried"
fi

# A process of the test's own, which lives until the test ends it.
sleep 1000 &
sleeper=$!
started "$sleeper"

# Five counters need 5 + 16 descriptors; a hard limit of 18 is too few.
rc=0
(
	# shellcheck disable=SC3045 # dash, bash and busybox have -n
	ulimit -n 18 || exit 99
	exec timeout 120 "$PSTAT" \
		-e task-clock,page-faults,minor-faults,major-faults,cpu-clock \
		-p "$sleeper"
) >out 2>err || rc=$?
[ "$rc" != 99 ] || framework_failure_ "ulimit -n 18"
[ "$rc" != 124 ] || { show_err_; fail_ "ulimit -n 18 -p: pstat waited"; }
expect_rc 125
grep -q "^pstat: 5 counters need 21 file descriptors, but the limit is 18" err ||
	{ show_err_; fail_ "ulimit -n 18 -p: no message"; }
kill -0 "$sleeper" 2>/dev/null || fail_ "the target process did not survive"
exit 0
