#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -r N with stderr on a terminal (a pty): a progress line, run i of N,
# erased before the results. None with one run, with machine-readable
# output, or when stderr is not a terminal.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed for a pty"

# on_pty ARGS...: pstat ARGS with stderr on a pty, what it wrote there
# in out (as bytes, \r and escapes kept), its status in rc. With STOP_AT
# set, a SIGINT once that text has come.
on_pty()
{
	rc=0
	python3 - "$PSTAT" "$@" >out <<'PY' || rc=$?
import os, select, subprocess, sys
master, slave = os.openpty()
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=slave)
# The slave stays open here until pstat has exited and its last bytes
# came: the kernel passes a pty's data on from a work queue, and the
# hang-up of the slave's last close could overtake what pstat wrote
# last (seen with both CPUs busy).
data = b""
stop = os.environ.get("STOP_AT", "").encode()
while True:
    ready, _, _ = select.select([master], [], [], 0.2)
    if ready:
        data += os.read(master, 4096)
        if stop and stop in data:
            p.send_signal(2)
            stop = b""
    elif p.poll() is not None:
        break
os.close(slave)
# The terminal's own: each newline came as CR LF.
sys.stdout.buffer.write(data.replace(b"\r\n", b"\n"))
sys.exit(p.wait())
PY
}

on_pty -r 3 -e task-clock -- true
[ "$rc" = 0 ] || fail_ "-r 3 on a pty: exit status $rc: $(cat out)"
for i in 1 2 3; do
	grep -q "pstat: run $i of 3, " out ||
		fail_ "-r 3 on a pty: no 'run $i of 3': $(cat -v out)"
done
grep -q 'run 2 of 3, .* so far, about .* left' out ||
	fail_ "-r 3 on a pty: no estimate on run 2: $(cat -v out)"
# The last line is erased before the results, which follow it.
python3 -c 'import sys
d = open("out", "rb").read()
line, results = d.rfind(b"run 3 of 3"), d.find(b"Performance counter stats")
sys.exit(not 0 <= line < d.find(b"\r\033[K", line) < results)' ||
	fail_ "-r 3 on a pty: the line is not erased before the results: $(cat -v out)"

# Within a run, the time so far goes on (issue 31): a run of 1.5 s sees
# the line of each second at least once more.
on_pty -r 2 -e task-clock -- sleep 1.5
[ "$rc" = 0 ] || fail_ "-r 2 on a pty: exit status $rc: $(cat out)"
n=$(grep -o 'run 1 of 2, [0-9.]* s so far' out | sort -u | wc -l)
[ "$n" -ge 2 ] || fail_ "-r 2: the line of run 1 never ticked: $(cat -v out)"
# -r 0: no count of runs to come, so no estimate.
STOP_AT='run 3,' on_pty -r 0 -e task-clock -- true
grep -q 'pstat: run 3, [0-9.]* s so far' out ||
	fail_ "-r 0 on a pty: no 'run 3, ... so far': $(cat -v out)"
grep -Eq 'run [0-9]+ of [0-9]|about .* left' out &&
	fail_ "-r 0 on a pty: a count of runs or an estimate: $(cat -v out)"

# One run, a machine format, or stderr not a terminal: no line.
on_pty -r 1 -e task-clock -- true
grep -q 'run 1 of' out && fail_ "-r 1 on a pty: a progress line: $(cat -v out)"
for format in -x, -j --format=csv --format=json; do
	on_pty -r 3 $format -e task-clock -- true
	[ "$rc" = 0 ] || fail_ "-r 3 $format on a pty: exit status $rc: $(cat out)"
	grep -q 'run [0-9]* of 3' out &&
		fail_ "-r 3 $format: a progress line in machine output: $(cat -v out)"
done
# -I: its intervals would come under the line; its run lines say it.
on_pty -r 3 -I 10 -e task-clock -- true
[ "$rc" = 0 ] || fail_ "-r 3 -I 10 on a pty: exit status $rc: $(cat out)"
grep -q 'pstat: run [0-9]* of 3' out &&
	fail_ "-r 3 -I 10 on a pty: a progress line: $(cat -v out)"
grep -q '^# run 3 of 3' out ||
	fail_ "-r 3 -I 10 on a pty: no run line: $(cat -v out)"
"$PSTAT" -r 3 -e task-clock -- true 2>err || fail_ "-r 3 failed: $(cat err)"
grep -q 'run [0-9]* of 3' err && fail_ "-r 3, stderr a file: a progress line: $(cat -v err)"
# Results elsewhere (-o), stderr a terminal: the line, and a clean file.
on_pty -r 3 -o results -e task-clock -- true
grep -q 'pstat: run 3 of 3' out || fail_ "-r 3 -o FILE on a pty: no line: $(cat -v out)"
grep -q "$(printf '\r')" results && fail_ "-r 3 -o FILE: the line in the file: $(cat -v results)"
exit 0
