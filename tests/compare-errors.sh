#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pstat compare refuses what it cannot do with one line and status 125,
# before it runs anything; a command that cannot be run is 126 or 127;
# --help is compare's own.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

# refused TEXT ARGS...: pstat compare ARGS is refused saying TEXT, and
# ./ran is not made (the commands given touch it).
refused()
{
	text=$1
	shift
	rm -f ran
	run_pstat compare "$@"
	expect_refusal "$text"
}

refused "needs two commands separated by ':::'"
refused "command 2 is empty" -- touch ran ::: ::: touch ran
refused "--threshold takes a percentage" --threshold 1 -- touch ran ::: touch ran
refused "--threshold takes a percentage" --threshold=-1% -- touch ran ::: touch ran
refused "--threshold takes a percentage" --threshold =1% -- touch ran ::: touch ran
refused "--fail-on takes EVENT>PCT% or EVENT<PCT%" --fail-on task-clock -- touch ran ::: touch ran
refused "--fail-on takes EVENT>PCT% or EVENT<PCT%" --fail-on '>1%' -- touch ran ::: touch ran
refused "--fail-on takes EVENT>PCT% or EVENT<PCT%" --fail-on 'a>nan%' -- touch ran ::: touch ran
refused "-r needs a number of runs of each command" -r 0 -- touch ran ::: touch ran
refused "--warmup needs a number of runs" --warmup x -- touch ran ::: touch ran
refused "unknown option -p; see 'pstat compare --help'" -p 1 -- touch ran ::: touch ran
refused "unknown option -I" -I 100 -- touch ran ::: touch ran
refused "choose one" -x, -j -- touch ran ::: touch ran
refused "unknown event 'nosuchevent'" -e nosuchevent -- touch ran ::: touch ran
refused "runs nothing" -e task-clock a.json b.json
refused "'--fail-on' after the files: options go first" a.json b.json --fail-on 'x>1%'

# Saved results that are not: each file named, and what to do.
printf 'not json\n' >bad.json
refused "bad.json: not valid JSON" bad.json bad.json
refused "cannot read 'none.json'" none.json none.json
printf '{"format": "pstat", "format_version": 1, "events": [], "run": {"runs": 1}}\n' >one.json
refused "one side alone" one.json
printf '{"format": "other"}\n' >other.json
refused "not results of pstat -r N --format=json" other.json other.json
refused "separate them with ':::'" "$PROGS/writer" "$PROGS/writer"
not_pstat_json one.json other.json

# A saved comparison's names reach a terminal without their control
# characters, which could move its cursor or retitle it.
printf '%s\n' '{"format": "pstat-compare", "format_version": 1, "runs": 4, "warmup": 0,' \
	' "commands": [{"label": "A", "command": ["a\u001b[31m"], "runs": 4},' \
	'  {"label": "B", "command": ["b"], "runs": 4}], "order": [],' \
	' "rows": [{"event": "e\u001b]0;x\u0007", "unit": "", "kind": "event",' \
	'  "samples": {"A": [1, 1, 1, 1], "B": [2, 2, 2, 2]}, "stats": {}}]}' >esc.json
not_pstat_json esc.json
run_pstat compare esc.json
expect_rc 0
grep -q 'e?]0;x? *$' err || { show_err_; fail_ "no row of the name with ?s"; }
grep -q "$(printf '\033')" err && fail_ "an escape character reached the terminal"
grep -q '   A: a?\[31m  (4 runs)' err || { show_err_; fail_ "no command A with ?"; }

# Names that are no row: said before anything is printed, 125.
require_perf_events
run_pstat compare -r 4 -e task-clock --fail-on 'nosuch>1%' -- true ::: true
expect_refusal "--fail-on 'nosuch': no such row" "task-clock, wall-time, max-rss"
run_pstat compare -r 4 -e task-clock --threshold 'nosuch=1%' -- true ::: true
expect_refusal "--threshold 'nosuch': no such row"
# Too few runs for an interval: --fail-on cannot decide, and says how many.
run_pstat compare -r 3 -e task-clock --fail-on 'task-clock>1%' -- true ::: true
expect_refusal "no 95% interval" "4 runs or more"

# A command that is not there: 127; one that cannot run: 126.
run_pstat compare -r 2 -e task-clock -- true ::: ./no-such-command
expect_rc 127
grep -q "^pstat: cannot run './no-such-command'" err || { show_err_; fail_ "no message of the missing command"; }
printf 'not a program\n' >noexec
chmod 644 noexec
run_pstat compare -r 2 -e task-clock -- ./noexec ::: true
expect_rc 126

# --help: compare's options, not pstat's.
run_pstat compare --help
expect_rc 0
grep -q '^Usage: pstat compare' out || fail_ "compare --help: no usage of compare"
grep -q -- '--fail-on=EVENT>PCT%' out || fail_ "compare --help: no --fail-on"
grep -q -- '--per-thread' out && fail_ "compare --help lists --per-thread"
grep -q -- '--interval-print' out && fail_ "compare --help lists -I"
exit 0
