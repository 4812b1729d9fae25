#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What the user gives is read within bounds: a CPU list costs what it
# names, not its ranges times its repeats; -C refuses a trailing comma
# and a newline; an event file is at most 1 MiB, and a FIFO with no
# writer is refused at once, while pipes with a writer are read.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# -C: the list is refused whole, with what is wrong, before anything runs.
expect_refused_saying "bad CPU list '0,': it ends where a CPU must follow" \
	-C 0, -e task-clock
expect_refused_saying "bad CPU list: a newline in it, after '0'" \
	-C "0
1" -e task-clock
expect_refused_saying "CPU number too large in '70000' at '70000'" \
	-C 70000 -e task-clock

# 32 KiB naming every CPU 4096 times: pstat parses it in a 256 MiB
# address space (it used to take 1 GiB) and finds an offline CPU
# there. Address-space limits and sanitizers do not mix: not with ASan.
if pstat_asan; then
	echo "an ASan build: the long -C list not tried"
else
	list=0-65535
	i=0
	while [ $i -lt 12 ]; do
		list=$list,$list
		i=$((i + 1))
	done
	rm -f ran
	rc=0
	(
		# shellcheck disable=SC3045 # dash, bash and busybox have -v
		ulimit -v 262144 || exit 99
		exec "$PSTAT" -C "$list" -e task-clock -- touch ran
	) >out 2>err || rc=$?
	[ "$rc" != 99 ] || framework_failure_ "ulimit -v"
	expect_rc 125
	grep -q '^pstat: CPU [0-9]* is not online' err ||
		{ show_err_; fail_ "-C with 4096 repeats: not parsed"; }
fi

# Event files: no end to /dev/zero, but pstat's 1 MiB.
run_pstat -e @/dev/zero -- true
expect_rc 125
grep -q "^pstat: the event file '/dev/zero' is larger than 1 MiB" err ||
	{ show_err_; fail_ "@/dev/zero"; }

# A FIFO with no writer: refused, not waited for (the guard's SIGKILL
# would end a pstat that waits: 137).
mkfifo fifo || framework_failure_ "mkfifo"
rc=0
timeout -s KILL 120 "$PSTAT" -e @fifo -- true >out 2>err || rc=$?
expect_rc 125
grep -q "^pstat: the event file 'fifo' is a FIFO with no writer" err ||
	{ show_err_; fail_ "@FIFO without a writer"; }

# A pipe with a writer is read to its end, as -e @<(echo ...) is.
rc=0
echo task-clock | "$PSTAT" -x, -e @/dev/stdin -- true >out 2>err || rc=$?
expect_rc 0
expect_number "$(csv_value task-clock)" "@/dev/stdin: task-clock"

# And a FIFO whose writer waits for pstat to open it: its wchan says
# when, where the kernel shows what a sleeping process waits in.
# shellcheck disable=SC2317 # called through wait_until
asleep()
{
	[ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = S ]
}
# shellcheck disable=SC2317
opening()
{
	case $(cat "/proc/$1/wchan" 2>/dev/null) in
	*partner*|*fifo*) return 0 ;;
	esac
	return 1
}
sleep 1000 &
sleeper=$!
started "$sleeper"
wait_until "sleep asleep" asleep "$sleeper"
case $(cat "/proc/$sleeper/wchan" 2>/dev/null) in
''|0)
	echo "no wchan here: a FIFO with a writer not tried" ;;
*)
	sh -c 'echo page-faults >fifo' &
	writer=$!
	started "$writer"
	wait_until "the FIFO's writer" opening "$writer"
	run_pstat -x, -e @fifo -- true
	expect_rc 0
	expect_number "$(csv_value page-faults)" "@FIFO: page-faults"
	waited "$writer" ;;
esac
exit 0
