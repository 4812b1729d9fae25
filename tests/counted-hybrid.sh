#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A number is shown only where it was counted: a core PMU of a hybrid
# machine has no row for a CPU it does not count on, with -A,
# --per-core or -C, and -C says why it left one out. The fake sysfs
# (PSTAT_SYSFS) puts cpu_core on CPU 0 and cpu_atom on CPU 1, both of
# the software PMU's type, so that their event 0 (cpu-clock) counts
# for real.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
online=$(cat /sys/devices/system/cpu/online 2>/dev/null) ||
	skip_ "cannot read /sys/devices/system/cpu/online"
case $online in
0-[1-9]*) ;;
*) skip_ "CPUs 0 and 1 are not both online ($online)" ;;
esac

sys=$tmpdir/sys
devs=$sys/bus/event_source/devices
for p in cpu_core:0 cpu_atom:1; do
	name=${p%%:*}
	mkdir -p "$devs/$name/format" ||
		framework_failure_ "cannot make $devs/$name"
	echo 1 >"$devs/$name/type"
	echo "${p#*:}" >"$devs/$name/cpus"
	echo config:0-7 >"$devs/$name/format/event"
done
mkdir -p "$devs/software" && echo 1 >"$devs/software/type"
cpus=$sys/devices/system/cpu
mkdir -p "$cpus" && echo 0-1 >"$cpus/online" ||
	framework_failure_ "cannot make $cpus"
for c in 0 1; do
	mkdir -p "$cpus/cpu$c/topology" &&
		echo 0 >"$cpus/cpu$c/topology/physical_package_id" &&
		echo 0 >"$cpus/cpu$c/topology/die_id" &&
		echo "$c" >"$cpus/cpu$c/topology/core_id" ||
		framework_failure_ "cannot make $cpus/cpu$c"
done
PSTAT_SYSFS=$sys
export PSTAT_SYSFS
ev=cpu_core/event=0/,cpu_atom/event=0/
"$PSTAT" -x, -C 0 -e "$ev" -- true >/dev/null 2>probe ||
	skip_ "cannot count CPU 0: $(head -n 1 probe)"

# rows AGGR-OPTIONS: the aggregate and event of each -x row.
rows()
{
	run_pstat -x, "$@" -e "$ev" -- true
	expect_rc 0
	awk -F, '{ print $1 "/" ($3 == "msec" ? $4 : $5) }' err | tr '\n' ' '
}

expect_eq "$(rows -C 0-1 -A)" \
	"CPU0/cpu_core/event=0/ CPU1/cpu_atom/event=0/ " "-A: rows"
expect_eq "$(rows -C 0-1 --per-core)" \
	"S0-D0-C0/cpu_core/event=0/ S0-D0-C1/cpu_atom/event=0/ " \
	"--per-core: rows"
run_pstat -x, -o out.csv -C 1 -e "$ev" -- true
expect_rc 0
expect_eq "$(cut -d, -f3 out.csv | tr '\n' ' ')" "cpu_atom/event=0/ " \
	"-C 1: events"
grep -q '^pstat: note: cpu_core/event=0/: its PMU counts on none of the CPUs counted' err ||
	{ show_err_; fail_ "-C 1: no note of cpu_core/event=0/ left out"; }
run_pstat -C 1 -e "$ev" -- true
grep -q '^ .*cpu_core' err && { show_err_; fail_ "-C 1: a cpu_core row"; }

# Every format leaves them out; --metric-only has no value there.
run_pstat --format=csv -C 0-1 -A -e "$ev" -- true
expect_eq "$(awk -F, '$1 == "total" { print $3 "/" $5 }' err | tr '\n' ' ')" \
	"CPU0/cpu_core/event=0/ CPU1/cpu_atom/event=0/ " "--format=csv: rows"
run_pstat -j -C 0-1 -A -e "$ev" -- true
[ "$(grep -c '"counter-value"' err)" = 2 ] ||
	{ show_err_; fail_ "-j: not 2 rows"; }
run_pstat -x, --metric-only -C 0-1 -A -e "$ev" -- true
expect_rc 0
expect_eq "$(awk -F, 'NR > 1 { print $1 "/" ($2 != "") "/" ($3 != "") }' err |
	tr '\n' ' ')" "CPU0/1/0 CPU1/0/1 " "--metric-only: which cells have values"
