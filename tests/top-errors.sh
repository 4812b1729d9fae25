#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pstat top: bad input is one 'pstat: ' line and status 125, nothing on
# stdout; a process pstat may not count is a row marked 'denied' with
# the reason in words (--check's), and the others still count.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# refused TEXT ARGS...: 'pstat top ARGS' fails with one line saying TEXT.
refused()
{
	text=$1
	shift
	run_pstat top "$@"
	n=$(grep -c '^pstat: ' err)
	if [ "$rc" != 125 ] || [ "$n" != 1 ] || [ -s out ] ||
	   ! grep -q "^pstat: .*$text" err; then
		show_err_
		fail_ "'pstat top $*': status $rc, $n 'pstat: ' lines, want 125 and one saying '$text'"
	fi
}

refused "no column 'bogus'; the columns are %CPU, PID, COMM" \
	-b -n 1 --sort bogus
refused "no column 'TID'" -b -n 1 --sort TID
refused "no column '%CPU'" -b -n 1 -e page-faults --sort %CPU
refused "-d needs seconds" -b -n 1 -d 0
refused "-d needs seconds" -b -n 1 -d -1
refused "-d needs seconds" -b -n 1 -d 1x
refused "-d needs seconds" -b -n 1 -d nan
refused "-n needs a number of intervals from 1 up" -b -n 0 -d 0.1
refused "print the tables: add -b" -n 1 -j
refused "print the tables: add -b" -n 1 -x,
refused "print the tables: add -b" -n 1 -o file
refused "runs no command; drop 'true'" -b -n 1 true
refused "--format is json, not 'csv'" -b -n 1 --format=csv
refused "choose one" -b -n 1 -x, -j
refused "-p and -u each choose" -b -n 1 -p 1 -u 0
refused "bad -p list '1,x'" -b -n 1 -p 1,x
refused "no user 'no-such-user'" -b -n 1 -u no-such-user
refused "unknown option -I" -b -n 1 -I 100
refused "unknown event 'no-such-event'" -b -n 1 -e no-such-event

# Another user's process, as nobody: denied, in words; its own counted.
[ "$(id -u)" = 0 ] || { echo "not root: the rest needs setpriv to nobody"; exit 0; }
command -v setpriv >/dev/null 2>&1 || skip_ "setpriv is needed to run pstat as nobody"
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse JSON"
sleep 60 & root_sleep=$!; started $root_sleep
# A copy in the test's folder: the tree may lie where nobody cannot
# enter (CI's clone does).
cp "$PSTAT" ./pstat-nobody || framework_failure_ "cannot copy pstat"
run_nobody sh -c 'sleep 60 & s=$!; "$0" top -b -n 1 -d 0.2 -e task-clock \
	--format=json -p "$1,$s"; r=$?; kill $s; exit $r' "$PWD/pstat-nobody" \
	"$root_sleep"
expect_rc 0
python3 - "$root_sleep" <<'PY' || { cat out err; fail_ "top as nobody"; }
import json, sys
d = json.loads(open("out").read())
rows = dict((r["pid"], r) for r in d["rows"])
mine = [r for p, r in rows.items() if p != int(sys.argv[1])]
theirs = rows.get(int(sys.argv[1]))
if not theirs or theirs["state"] != "denied" or \
   "cannot attach to process %s, which belongs to uid 0" % sys.argv[1] \
   not in theirs["reason"] or "events" in theirs:
    sys.exit("FAIL: root's process not denied in words: %r" % theirs)
if len(mine) != 1 or mine[0]["state"] != "live" or \
   mine[0]["events"][0]["count"] is None:
    sys.exit("FAIL: nobody's own process not counted: %r" % mine)
PY
[ ! -s err ] || { show_err_; fail_ "top as nobody wrote on stderr"; }
exit 0
