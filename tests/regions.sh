#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --regions: a program's named regions (include/pstat.h) counted exactly
# in every format: repeated, nested, left open, ended unopened; threads
# marking at once; perf's enable/disable on the same channel agreeing
# with perf stat -D -1 --control; a program written against likwid's
# marker API on pstat's shim; what --regions refuses.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs

ev=syscalls:sys_enter_write
prog=$PROGS/regions

# The -x, value of EVENT in region NAME (its rows begin region:NAME).
region_value()
{
	csv_rows | awk -F, -v r="region:$1" -v ev="$2" \
		'$1 == r && $4 == ev { print $2; exit }'
}

# marks: 5 outside; a 3 x 100; b 7; o 5 + (i 10) + 3; never ended
# unopened; left 4, open at the end: 334 in all.
run_pstat --regions -x, -e "$ev" -- "$prog" marks
expect_rc 0
expect_eq "$(csv_value "$ev")" 334 "-x: the whole run"
expect_eq "$(region_value a "$ev")" 300 "-x: a, 3 entries of 100"
expect_eq "$(region_value b "$ev")" 7 "-x: b"
expect_eq "$(region_value o "$ev")" 18 "-x: o, with i nested"
expect_eq "$(region_value i "$ev")" 10 "-x: i, nested in o"
expect_eq "$(region_value left "$ev")" 4 "-x: left, open at the end"
expect_eq "$(region_value never "$ev")" "<not counted>" "-x: never entered"
expect_eq "$(csv_rows | cut -d, -f1 | grep '^region:' | tr '\n' ' ')" \
	"region:a region:b region:o region:i region:never region:left " \
	"-x: the regions, in the order first named"

# -j: a region key and its entries on each of its rows.
run_pstat --regions -j -e "$ev" -- "$prog" marks
expect_rc 0
got=$(grep '"region"' err | jq -r '[.region, ."region-entries",
	."counter-value"] | map(tostring) | join(" ")' | tr '\n' ',')
expect_eq "$got" "a 3 300,b 1 7,o 1 18,i 1 10,never 0 <not counted>,left 1 4," \
	"-j: region, entries, value"
expect_eq "$(grep -v '"region"' err | grep -c '"counter-value": 334')" 1 \
	"-j: the whole run"

# --format=json: regions after the events, with their facts.
run_pstat --regions --format=json -e "$ev" -- "$prog" marks
expect_rc 0
got=$(jq -r '.regions[] | [.name, .entries, .open, .unmatched_ends,
	(.events[0].value // "null"), .events[0].status] | map(tostring) | join(" ")' err |
	tr '\n' ',')
expect_eq "$got" "a 3 false 0 300 counted,b 1 false 0 7 counted,o 1 false 0 18 counted,i 1 false 0 10 counted,never 0 false 1 null not-counted,left 1 true 0 4 counted," \
	"--format=json: regions"
expect_eq "$(jq '.events[0].value' err)" 334 "--format=json: the whole run"
expect_eq "$(jq '[.regions[] | select(.time_s > 0)] | length' err)" 5 \
	"--format=json: time inside each region entered"

# --format=csv: the region column; region_info records.
run_pstat --regions --format=csv -e "$ev" -- "$prog" marks
expect_rc 0
head -n 1 err | grep -q ',region$' ||
	{ show_err_; fail_ "--format=csv: no region column"; }
got=$(awk -F, '$1 == "region" && $5 == ev { print $26 "=" $6 }' ev="$ev" \
	err | tr '\n' ' ')
expect_eq "$got" "a=300 b=7 o=18 i=10 never= left=4 " "--format=csv: regions"
expect_eq "$(awk -F, '$1 == "region_info" && $5 == "entries" && $26 == "a" {
	print $6 }' err)" 3 "--format=csv: a's entries"
expect_eq "$(awk -F, '$1 == "region_info" && $5 == "open" && $26 == "left" {
	print $6 }' err)" true "--format=csv: left open"
expect_eq "$(awk -F, '$1 == "total" && $5 == ev { print $6 "," $26 }' \
	ev="$ev" err)" "334," "--format=csv: the whole run, no region"
expect_eq "$(awk -F, '{ print NF }' err | sort -u)" 26 \
	"--format=csv: 26 columns on every record"

# Human: a block per region, its entries and its state.
run_pstat --regions -e "$ev" -- "$prog" marks
expect_rc 0
grep -q "^ Region 'a' (3 entries, [0-9.]* msec inside):" err ||
	{ show_err_; fail_ "human: no block of region a"; }
grep -q "^ Region 'left' (1 entry, [0-9.]* msec inside, open at the end):" err ||
	{ show_err_; fail_ "human: left not said open"; }
expect_eq "$(awk '/Region .a./ { f = 1; next } f && /'"$ev"'/ {
	print $1; exit }' err)" 300 "human: a's count"
grep -q "^pstat: note: --regions: 1 region ('left') was still open" err ||
	{ show_err_; fail_ "no note of the region left open"; }
grep -q "^pstat: note: --regions: 'end' of 1 region ('never')" err ||
	{ show_err_; fail_ "no note of the end without a begin"; }

# -M's metrics per region, from the region's counts: getppid / getuid
# of 16 / 13 over the run, 6 / 3 = 2 in region m (a table of its own).
mkdir -p t/arch/x86/rg || framework_failure_ "cannot make t/"
printf '%s\n' 'Family-model,Version,Filename,EventType' \
	'Test-1-2-3,v1,rg,core' >t/arch/x86/mapfile.csv
cat >t/arch/x86/rg/metrics.json <<'JSON'
[
 {"MetricName": "m_ratio", "MetricGroup": "rg",
  "MetricExpr": "syscalls:sys_enter_getppid / syscalls:sys_enter_getuid"}
]
JSON
PSTAT_PMU_EVENTS=$PWD/t PERF_CPUID=Test-1-2-3 run_pstat --regions -x, -M rg \
	-- "$prog" metric
expect_rc 0
metric_of() { csv_rows | awk -F, -v l="$1" '$1 == l && $NF == "m_ratio" {
	print $(NF - 1); exit }'; }
expect_eq "$(metric_of region:m)" 2.00 "-M: m_ratio in region m"
expect_eq "$(csv_rows | awk -F, '$3 == "syscalls:sys_enter_getuid" { print $6 }')" \
	1.23 "-M: m_ratio over the run"
PSTAT_PMU_EVENTS=$PWD/t PERF_CPUID=Test-1-2-3 run_pstat --regions \
	--format=json -M rg -- "$prog" metric
expect_rc 0
expect_eq "$(jq -c '[.regions[0].events[].metrics[] | .name, .value]' err)" \
	'["m_ratio",2]' "--format=json: m_ratio in region m"

# --metric-only: a region's line says its region, under the run's titles.
PSTAT_PMU_EVENTS=$PWD/t PERF_CPUID=Test-1-2-3 run_pstat --regions -x, \
	--metric-only -M rg -- "$prog" metric
expect_rc 0
expect_eq "$(csv_rows | tr '\n' ' ')" "m_ratio 1.23 region:m,2.00 " \
	"--metric-only -x,: the titles, the run's line, the region's"
PSTAT_PMU_EVENTS=$PWD/t PERF_CPUID=Test-1-2-3 run_pstat --regions -j \
	--metric-only -M rg -- "$prog" metric
expect_rc 0
expect_eq "$(jq -c 'select(.region) | [.region, ."region-entries", .m_ratio]' err)" \
	'["m",1,2]' "--metric-only -j: the region's line"

# Four threads, each entering 't' 50 times around 2 writes: the marks
# of threads take turns, and every write inside counts once.
run_pstat --regions -x, -e "$ev" -- "$prog" threads
expect_rc 0
expect_eq "$(region_value t "$ev")" 400 "threads: t"
expect_eq "$(csv_value "$ev")" 400 "threads: the whole run"

# Names pstat.h does not send whole: an empty one marks nothing (pstat
# answers no line without a name: a mark would wait for ever), one with
# a newline ends there. --timeout ends a wait that never ends.
run_pstat --regions --timeout 20000 -x, -e "$ev" -- "$prog" odd
expect_rc 0
expect_eq "$(region_value x "$ev")" 2 "odd names: region x"
expect_eq "$(csv_rows | grep -c '^region:')" 1 "odd names: one region"

# Without pstat, the marks do nothing, and cost nothing that counts.
"$prog" marks > /dev/null || fail_ "regions marks without pstat failed"
run_pstat -x, -e "$ev" -- "$prog" marks
expect_rc 0
expect_eq "$(csv_value "$ev")" 334 "no --regions: the run"
expect_eq "$(csv_rows | grep -c '^region:')" 0 "no --regions: no regions"

# perf's protocol on PERF_CTL_FD and PERF_ACK_FD (the same channel):
# enable, 10, disable, 20, enable, 30, disable. perf stat -D -1
# --control counts the same program the same: 10 + 30 and the two
# disable lines' own writes.
run_pstat -D -1 --regions -x, -e "$ev" -- "$prog" perf
expect_rc 0
expect_eq "$(csv_value "$ev")" 42 "perf's protocol: pstat"
if command -v perf > /dev/null 2>&1; then
	mkfifo ctl ack || framework_failure_ "mkfifo"
	# Descriptors below 10: shells keep those above for themselves.
	sh -c 'exec 7<>ctl 8<>ack
		PERF_CTL_FD=7 PERF_ACK_FD=8 exec perf stat -x, -D -1 \
			--control fd:7,8 -e "$1" -- "$2" perf' sh "$ev" "$prog" \
		> out 2> perf.err || { cat perf.err; fail_ "perf stat failed"; }
	got=$(grep ",$ev," perf.err | cut -d, -f1)
	expect_eq "$got" 42 "perf's protocol: perf stat agrees"
else
	fail_ "perf is missing: install linux-perf (scripts/bootstrap --tests)"
fi

# A program written against likwid-marker.h, on pstat's shim, found as
# likwid's library is: solve 3 x 100, setup 7, 5 outside.
likwid=$PROGS/likwid_regions
[ -x "$likwid" ] ||
	fail_ "$likwid was not built: likwid-marker.h is missing; install Debian's likwid (scripts/bootstrap --tests) and configure again"
shim=$(cd "$PROGS/../.." && pwd)/lib
LD_LIBRARY_PATH=$shim run_pstat --regions -x, -e "$ev" -- "$likwid"
expect_rc 0
expect_eq "$(csv_value "$ev")" 312 "likwid: the whole run"
expect_eq "$(region_value solve "$ev")" 300 "likwid: solve"
expect_eq "$(region_value setup "$ev")" 7 "likwid: setup"
LD_LIBRARY_PATH=$shim "$likwid" > /dev/null ||
	fail_ "the likwid program without pstat failed"

# --merge: the regions of two ranks' files, CSV and JSON, summed.
PSTAT_RANK=0 PSTAT_SIZE=2 run_pstat --regions --format=csv -o r0.csv \
	-e "$ev" -- "$prog" marks
expect_rc 0
PSTAT_RANK=1 PSTAT_SIZE=2 run_pstat --regions --format=json -o r1.json \
	-e "$ev" -- "$prog" marks
expect_rc 0
run_pstat --merge --format=csv r0.csv r1.json
expect_rc 0
merged() { awk -F, -v n="$1" '$1 == "event" && $2 == n { print $3 }' out; }
expect_eq "$(merged "$ev")" 668 "--merge: the whole runs"
expect_eq "$(merged "$ev (region a)")" 600 "--merge: region a"
expect_eq "$(merged "entries (region a)")" 6 "--merge: region a's entries"
expect_eq "$(merged "$ev (region i)")" 20 "--merge: region i"
expect_eq "$(merged "$ev (region left)")" 8 "--merge: region left"

# The header is C++ as well: a program built with g++, warnings as
# errors, counts its region.
command -v g++ > /dev/null 2>&1 ||
	fail_ "no g++: install it (scripts/bootstrap --tests) to test pstat.h as C++"
cat > marks.cc <<'CC'
#include <pstat.h>
#include <unistd.h>

int main()
{
	PSTAT_REGION_BEGIN("cxx");
	for (int i = 0; i < 9; i++)
		if (write(STDOUT_FILENO, "", 0) < 0)
			return 1;
	PSTAT_REGION_END("cxx");
	return 0;
}
CC
g++ -Wall -Wextra -Werror -I"$top_srcdir/include" -o marks marks.cc ||
	fail_ "pstat.h does not build as C++"
run_pstat --regions -x, -e "$ev" -- ./marks
expect_rc 0
expect_eq "$(region_value cxx "$ev")" 9 "C++: cxx"

# pstat killed while the command marks: the command's marks stop (the
# acks' pipe ends), and it goes on to its end, never killed by SIGPIPE.
"$PSTAT" --regions -e task-clock -- "$prog" linger > linger.out 2>&1 &
pid=$!
running_="$running_ $pid"
wait_until "the command to start" grep -qs started linger.out
kill -9 "$pid"
wait "$pid" 2>/dev/null
wait_until "the command to end" grep -qs done linger.out

# What --regions refuses.
run_pstat --regions -a -e "$ev"
expect_refusal "--regions" "give the command after --"
expect_refused_saying "drop -r" --regions -r 2 -e "$ev"
expect_refused_saying "drop --per-thread" --regions --per-thread -e "$ev"
expect_refused_saying "add --summary" --regions -I 100 -e "$ev"
exit 0
