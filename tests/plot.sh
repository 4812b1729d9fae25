#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/pstat-plot draws real pstat output: -I in --format=csv and -x,
# and -r, each a PNG (its signature, and more than an empty frame's
# bytes) or an SVG; -x -r -I a line per run; input it cannot read is
# refused in one line. tests/plot-formats.sh checks what it reads.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed: pstat-plot is written in it"
command -v gnuplot >/dev/null 2>&1 || skip_ "gnuplot is needed (Debian: gnuplot-nox)"
plot=$top_srcdir/scripts/pstat-plot

# is_png FILE: PNG's signature, and a picture of some size.
is_png()
{
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
		fail_ "$1 is not a PNG: $(head -c 16 "$1" | od -c | head -n 2)"
	[ "$(wc -c <"$1")" -gt 10000 ] ||
		fail_ "$1 is a PNG of only $(wc -c <"$1") bytes"
}

# draw INPUT OUT: pstat-plot INPUT -o OUT succeeds, saying nothing.
draw()
{
	python3 "$plot" "$1" -o "$2" >plot.out 2>&1 ||
		fail_ "pstat-plot $1 -o $2 failed: $(cat plot.out)"
	[ ! -s plot.out ] || fail_ "pstat-plot $1 said: $(cat plot.out)"
}

# A command that runs a few intervals of 20 ms, with something to count;
# named short, for the title shows no more than 60 characters of it.
cp "$PROGS/writer" . || framework_failure_ "no $PROGS/writer"
work="./writer 200"

"$PSTAT" --format=csv -I 20 -e task-clock,page-faults,context-switches \
	-- sh -c "$work; sleep 0.1; $work" 2>interval.csv >/dev/null ||
	fail_ "pstat -I failed: $(cat interval.csv)"
[ "$(grep -c '^interval,' interval.csv)" -gt 3 ] ||
	framework_failure_ "few intervals to draw: $(cat interval.csv)"
draw interval.csv interval.png
is_png interval.png
draw interval.csv interval.svg
grep -q '<svg' interval.svg || fail_ "interval.svg is not SVG: $(head -c 200 interval.svg)"
# The title says the interval (as the times show it, late on a busy
# machine) and the command, which --format=csv has.
grep -Eq 'every [0-9.]+ ms' interval.svg || fail_ "no interval in the SVG's title"
grep -q 'writer 200' interval.svg || fail_ "no command in the SVG's title"

"$PSTAT" -x, -I 20 -e task-clock,page-faults -- sh -c "$work; sleep 0.1" \
	2>interval-x.csv >/dev/null || fail_ "pstat -x, -I failed: $(cat interval-x.csv)"
draw interval-x.csv interval-x.png
is_png interval-x.png
"$PSTAT" -x';' -I 20 -e task-clock -- sh -c "$work; sleep 0.1" \
	2>interval-semi.csv >/dev/null || fail_ "pstat -x';' -I failed"
python3 "$plot" -x';' interval-semi.csv -o semi.png >plot.out 2>&1 ||
	fail_ "pstat-plot -x';' failed: $(cat plot.out)"
is_png semi.png

"$PSTAT" --format=csv -r 3 -e task-clock,page-faults -- $work \
	2>repeat.csv >/dev/null || fail_ "pstat -r failed: $(cat repeat.csv)"
draw repeat.csv repeat.png
is_png repeat.png
"$PSTAT" -x, -r 3 -e task-clock,page-faults -- $work \
	2>repeat-x.csv >/dev/null || fail_ "pstat -x, -r failed"
draw repeat-x.csv repeat-x.svg
grep -q 'page-faults' repeat-x.svg || fail_ "no page-faults bar in repeat-x.svg"

# -x -r 2 -I 100: a line per run, labelled, and the interval asked.
cat >runs.csv <<'EOF'
0.100107001,5,,page-faults,0.00%,100107001,100.00,,
0.200213002,6,,page-faults,0.00%,100106001,100.00,,
0.251031003,1,,page-faults,0.00%,50818001,100.00,,
0.100098004,7,,page-faults,0.00%,100098004,100.00,,
0.200201005,8,,page-faults,0.00%,100103001,100.00,,
0.273309006,2,,page-faults,0.00%,73108001,100.00,,
EOF
draw runs.csv runs.svg
grep -q 'every 100 ms, 2 runs' runs.svg &&
	grep -q 'page-faults, run 1' runs.svg &&
	grep -q 'page-faults, run 2' runs.svg ||
	fail_ "runs.svg: not a line per run under 'every 100 ms'"

# What is not pstat's output, or no file: one line, status 1.
printf 'hello\n' >junk
rc=0
python3 "$plot" junk -o junk.png >plot.out 2>&1 || rc=$?
[ "$rc" = 1 ] || fail_ "pstat-plot on junk: status $rc, not 1: $(cat plot.out)"
[ "$(wc -l <plot.out)" = 1 ] && grep -q '^pstat-plot: ' plot.out ||
	fail_ "pstat-plot on junk said: $(cat plot.out)"
rc=0
python3 "$plot" missing.csv -o x.png >plot.out 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q '^pstat-plot: cannot read missing.csv' plot.out ||
	fail_ "pstat-plot on a missing file: status $rc: $(cat plot.out)"
rc=0
python3 "$plot" interval.csv -o x.jpg >plot.out 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q '\.png or \.svg' plot.out ||
	fail_ "pstat-plot -o x.jpg: status $rc: $(cat plot.out)"
exit 0
