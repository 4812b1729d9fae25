#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -D MS: what the command does before the delay ends is not counted, what
# it does after is. The test sees both ends for itself in pstat's delay
# timer (/proc/PID/fdinfo), so no sleep has to be long enough: the
# command makes 100 writes, then waits for the test, which lets it make
# 50 more once the delay is over.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs

ev=syscalls:sys_enter_write

mkfifo go || framework_failure_ "mkfifo failed"
# Should the test end early: the TERM ends sh, this its cat.
at_exit ': <>go'
cat >workload <<EOS
"$PROGS/writer" 100 && : >first && cat go && exec "$PROGS/writer" 50
EOS

# The fdinfo of pstat's one timer, the delay's, in ./timer.
timer_info()
{
	for fd in /proc/"$pstat"/fd/*; do
		[ "$(readlink "$fd" 2>/dev/null)" = 'anon_inode:[timerfd]' ] ||
			continue
		cat "/proc/$pstat/fdinfo/${fd##*/}" >timer 2>/dev/null &&
			return 0
	done
	return 1
}

# The delay is still running.
delay_running()
{
	timer_info && ! grep -q '^it_value: (0, 0)$' timer
}

# pstat has read its expired timer, so enabled the counters (the next
# thing it does), and waits again in poll.
delay_over()
{
	timer_info && grep -q '^it_value: (0, 0)$' timer &&
		grep -q '^ticks: 0$' timer && sleeping_in "$pstat" '*poll*'
}

# Should the first 100 writes take longer than the delay, which the test
# sees, it tries again with a longer one: a machine, however slow, gets
# one long enough.
for delay in 300 3000 30000 ''; do
	[ -n "$delay" ] ||
		fail_ "100 writes never fit in a 30 s delay: hung?"
	rm -f first
	"$PSTAT" -x, -D "$delay" -e "$ev" -- sh ./workload >out 2>err &
	pstat=$!
	started "$pstat"
	wait_until "the command's first writes" test -e first
	counted_first=yes
	delay_running && counted_first=no
	if [ "$counted_first" = no ]; then
		wait_until "the end of the delay" delay_over
	fi
	: <>go
	waited "$pstat"
	expect_rc 0
	[ "$counted_first" = no ] && break
	echo "-D $delay: the delay ended before the first writes did; again"
done
expect_eq "$(csv_value "$ev")" 50 "-D $delay: writes after the delay"
