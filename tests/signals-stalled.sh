#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Whatever pstat waits on outside itself, SIGINT and SIGTERM end it (a
# second one at the latest) with 128+N: an -o FIFO that has no reader
# yet, and a reader that stops reading (-o FIFO, stderr, --log-fd), of
# -I's intervals, of the results or of pstat's own messages. The readers here never read: each
# pipe is full before pstat writes to it. A guard that kills pstat after
# a minute only tells a hang (137) from the status wanted.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# guard ARGS...: pstat ARGS under the guard, in the background; $guarded
# is the guard's pid, $pstat pstat's once it runs. timeout lets SIGINT
# be had: a command started with & ignores it.
guard()
{
	timeout -s KILL 60 "$PSTAT" "$@" &
	guarded=$!
	started "$guarded"
	wait_until "pstat started" pstat_runs
}

# shellcheck disable=SC2317 # wait_until's
pstat_runs() { pstat=$(pgrep -P "$guarded" -x pstat); }
# shellcheck disable=SC2317
runs_sleep() { pgrep -P "$pstat" -x sleep >/dev/null; }

# shellcheck disable=SC2317
# Whether pstat ended, or has no command and waits: on its output.
ended_or_held()
{
	state=$(awk '{ print $3 }' "/proc/$pstat/stat" 2>/dev/null) || return 0
	[ "$state" = Z ] && return 0
	! pgrep -P "$pstat" >/dev/null && sleeping_in "$pstat" '*'
}

# shellcheck disable=SC2317
# Whether pstat, its command gone, waits to write into a pipe: in
# write(2), or in poll(2) for room (its streams never block: dest.h).
held_on_pipe()
{
	! pgrep -P "$pstat" >/dev/null &&
		{ sleeping_in "$pstat" '*pipe_write*' ||
		  sleeping_in "$pstat" '*poll*'; }
}

# stop SIG STATUS: SIG to pstat, and a second once it is held up on its
# output with no command (the first may have gone to the command):
# pstat ends with STATUS.
stop()
{
	kill -"$1" "$pstat"
	wait_until "pstat ended or held up with no command" ended_or_held
	kill -"$1" "$pstat" 2>/dev/null
	waited "$guarded"
	expect_rc "$2"
}

# fifo NAME: a FIFO, which the test then holds open to read and write.
fifo() { mkfifo "$1" || framework_failure_ "mkfifo $1 failed"; }

# full FIFO: the FIFO filled, written without blocking until it takes
# no more.
full()
{
	dd if=/dev/zero of="$1" bs=4096 count=1024 oflag=nonblock 2>/dev/null
}

# -o FIFO with no reader: pstat waits in open(2), and Ctrl-C ends it.
fifo noreader
guard -o noreader -e task-clock -- touch ran 2>err
wait_until "pstat waiting for a reader" sleeping_in "$pstat" wait_for_partner
kill -INT "$pstat"
waited "$guarded"
expect_rc 130
[ -e ran ] && fail_ "-o FIFO with no reader, SIGINT: the command ran"

# -o FIFO whose reader stops reading, -I: SIGTERM.
fifo fifo
exec 4<>fifo
full fifo
guard -I 100 -x, -o fifo -e task-clock -- sleep 1000 2>err
wait_until "the command under pstat" runs_sleep
stop TERM 143
grep -q "^pstat: .*fifo.*SIGTERM" err ||
	{ show_err_; fail_ "-o FIFO stalled: not said on stderr"; }

# --log-fd into a pipe that stops taking, -I: SIGINT.
fifo logfd
exec 5<>logfd
full logfd
guard -I 100 -x, --log-fd 5 -e task-clock -- sleep 1000 2>err
wait_until "the command under pstat" runs_sleep
stop INT 130

# stderr into a pipe that stops taking, the results of a command that
# ended: SIGINT. Nothing more is written there.
fifo stderr
exec 6<>stderr
full stderr
guard -e task-clock -- true 2>&6
wait_until "pstat held up on the results" held_on_pipe
stop INT 130

# The same pipe, and pstat's own message, not the results (they go to
# -o): the notice of how the command ended. SIGTERM.
guard -o out -e task-clock -- sh -c 'kill -TERM $$' 2>&6
# Not before the command ended: a signal before then would be the
# user's, and nothing counted to show.
wait_until "pstat held up on its message" held_on_pipe
stop TERM 143
[ -s out ] || fail_ "stderr stalled on a message: no results in -o's file"
exit 0
