#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/pstat-plot reads every format pstat writes as pstat wrote it
# (--table prints what it would draw, no gnuplot needed): with -r 2 -I,
# a line per run, labelled, of the values (exactly 100 writes a run),
# in -x, -x';', -j, --format=csv and --format=json alike; the title
# gives the interval -I asked and the runs; aggregates and cgroups name
# their lines; what it cannot draw is refused, in one line, status 1.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed: pstat-plot is written in it"
plot=$top_srcdir/scripts/pstat-plot

ev=syscalls:sys_enter_write
# Two bursts with a pause between: often more than one interval a run.
cmd="$PROGS/writer 50 && sleep 0.03 && $PROGS/writer 50"

# The sum of each line's values: "LABEL=SUM|..." in the table's order.
sums()
{
	awk -F'\t' '/^#/ { next }
		    { if (!($2 in s)) o[++n] = $2; s[$2] += $4 }
		    END { for (i = 1; i <= n; i++)
			      printf "%s%s=%s", (i > 1 ? "|" : ""), o[i], s[o[i]]
			  print "" }' "$@"
}

# table [-x SEP] FILE: pstat-plot --table, which must succeed silently.
table()
{
	python3 "$plot" --table "$@" >table 2>plot.err ||
		fail_ "pstat-plot --table $*: $(cat plot.err)"
	[ ! -s plot.err ] || fail_ "pstat-plot --table $* said: $(cat plot.err)"
}

for fmt in "-x," "-x;" -j --format=csv --format=json; do
	run_pstat "$fmt" -r 2 -I 10 -e "$ev" -- sh -c "$cmd"
	expect_rc 0
	cp err out.txt
	case $fmt in
	"-x;") table -x';' out.txt ;;
	*) table out.txt ;;
	esac
	expect_eq "$(sums table)" "$ev, run 1=100|$ev, run 2=100" \
		"pstat-plot of $fmt -r 2 -I: a line per run"
	grep -q '^# pstat: .*every [0-9.]* ms, 2 runs$' table ||
		fail_ "pstat-plot of $fmt -r 2 -I: the title: $(head -n 1 table)"
done

# The interval -I asked, whatever the runs: 100 ms, not the 34 ms of
# the times of both runs sorted together; each run's last interval is
# cut short by the command's end.
cat >runs.csv <<'EOF'
0.100107001,5,,page-faults,0.00%,100107001,100.00,,
0.200213002,6,,page-faults,0.00%,100106001,100.00,,
0.251031003,1,,page-faults,0.00%,50818001,100.00,,
0.100098004,7,,page-faults,0.00%,100098004,100.00,,
0.200201005,8,,page-faults,0.00%,100103001,100.00,,
0.273309006,2,,page-faults,0.00%,73108001,100.00,,
summary,15,,page-faults,6.25%,300000000,100.00,,
EOF
table runs.csv
expect_eq "$(head -n 1 table)" "# pstat: every 100 ms, 2 runs" \
	"pstat-plot: the title of -x -r 2 -I 100"
expect_eq "$(sums table)" "page-faults, run 1=12|page-faults, run 2=17" \
	"pstat-plot: -x -r 2 -I 100's runs"

# -A's CPU and -G's cgroup (the field after the event; empty for an
# event counted in every cgroup) name the lines.
cat >names.csv <<'EOF'
0.100100100,CPU0,5,,page-faults,web,100100100,100.00,,
0.100100100,CPU0,9,,page-faults,,100100100,100.00,,
0.100100100,CPU1,3,,page-faults,web,100100100,100.00,,
0.100100100,CPU1,4,,page-faults,,100100100,100.00,,
EOF
table names.csv
expect_eq "$(sums table)" \
	"page-faults (CPU0) in web=5|page-faults (CPU0)=9|page-faults (CPU1) in web=3|page-faults (CPU1)=4" \
	"pstat-plot: aggregates and cgroups"

# What it cannot draw: one line, status 1.
refused()
{
	what=$1
	shift
	rc=0
	python3 "$plot" --table "$@" >table 2>plot.err || rc=$?
	[ "$rc" = 1 ] && [ ! -s table ] && [ "$(wc -l <plot.err)" = 1 ] &&
		grep -q "^pstat-plot: .*$what" plot.err ||
		fail_ "pstat-plot --table $*: status $rc, said: $(cat plot.err)"
}
run_pstat -I 10 -e "$ev" -- sh -c "$cmd"
cp err human.txt
refused "human output" human.txt
run_pstat -x, --metric-only -I 10 -e task-clock -- sh -c "$cmd"
cp err mo.csv
refused "metric-only" mo.csv
run_pstat -j --metric-only -I 10 -e task-clock -- sh -c "$cmd"
cp err mo.json
refused "metric-only" mo.json
exit 0
