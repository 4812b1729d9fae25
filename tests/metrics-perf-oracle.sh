#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -M's values are perf's: a fake Intel "cpu" PMU given the tracepoint
# PMU's type makes perf and pstat open real tracepoints under Skylake-X
# names (the config becomes a tracepoint id), in a private mount
# namespace with PERF_CPUID=GenuineIntel-6-55-4. IpBranch (perf 6.1's
# name; 6.12's tables, pstat's, call it tma_info_inst_mix_ipbranch) is
# INST_RETIRED.ANY / BR_INST_RETIRED.ALL_BRANCHES: events 0xc0 and 0xc4,
# tracepoints whose names this kernel decides; where they are system
# calls tests/progs/syscalls makes, the metric's value is known exactly,
# and perf must print it too; and so are the counts of the tables'
# event names given to -e. With perf 6.1's tables (PMU_EVENTS_61), -M
# IpBranch is perf's to the byte.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_root
require_perf_events
require_tracefs
command -v perf >/dev/null 2>&1 || skip_ "perf is not installed"
[ -n "${PMU_EVENTS:-}" ] ||
	skip_ "pstat was configured --without-pmu-events: no tables"
tables=$PMU_EVENTS
# shellcheck source=tests/fake-pmu.sh
. "$top_srcdir/tests/fake-pmu.sh"

# The tracepoint of id ID, as SYSTEM:NAME, or nothing.
tracepoint()
{
	grep -lx "$1" "$tracefs"/events/*/*/id 2>/dev/null | head -n 1 |
		awk -F/ '{ print $(NF - 2) ":" $(NF - 1) }'
}
insn=$(tracepoint 192)
branches=$(tracepoint 196)
# The calls tests/progs/syscalls makes, by their tracepoints.
call_of()
{
	case $1 in
	syscalls:sys_enter_unshare) echo unshare ;;
	syscalls:sys_enter_clone) echo clone ;;
	syscalls:sys_enter_getppid) echo getppid ;;
	syscalls:sys_enter_getuid) echo getuid ;;
	esac
}
insn_call=$(call_of "$insn")
branch_call=$(call_of "$branches")
[ -n "$insn_call" ] && [ -n "$branch_call" ] ||
	skip_ "tracepoints 192 and 196 are '$insn' and '$branches' on this kernel: not calls tests/progs/syscalls makes"

# The fake tree: the machine's PMUs, and a Skylake-X "cpu" of the
# tracepoint PMU's type.
fake_tree
fake_intel_pmu cpu
# Two instances of an uncore PMU, as a Skylake-X's CHAs are.
for n in 0 1; do
	mkdir -p "tree/uncore_cha_$n/format" &&
		echo "$tp_type" >"tree/uncore_cha_$n/type" &&
		echo 0 >"tree/uncore_cha_$n/cpumask" &&
		echo config:0-7 >"tree/uncore_cha_$n/format/event" &&
		echo config:8-15 >"tree/uncore_cha_$n/format/umask" ||
		framework_failure_ "cannot make the fake uncore_cha_$n"
done

export PERF_CPUID=GenuineIntel-6-55-4 PSTAT_PMU_EVENTS="$tables"
prog="$PROGS/syscalls $insn_call=1000 $branch_call=8"
ipbranch=tma_info_inst_mix_ipbranch
# shellcheck disable=SC2086 # prog's words
in_tree perf stat -x, -M IpBranch -- $prog 2>perf.csv >/dev/null ||
	{ cat perf.csv; fail_ "perf stat -M IpBranch failed"; }
# shellcheck disable=SC2086
in_tree "$PSTAT" -x, -M $ipbranch -- $prog 2>err >/dev/null ||
	{ show_err_; fail_ "pstat -M $ipbranch failed"; }

# The metric's value on the row that carries it (fields 6, 7).
metric() { awk -F, '$7 == "IpBranch" || $7 == "'$ipbranch'" { print $6 }' "$1"; }
count() { awk -F, -v e="$2" '$3 == e { print $1 }' "$1"; }
expect_eq "$(metric perf.csv)" 125.00 "perf's IpBranch (1000 / 8)"
expect_eq "$(metric err)" "$(metric perf.csv)" "pstat's IpBranch, beside perf's"
for e in INST_RETIRED.ANY BR_INST_RETIRED.ALL_BRANCHES; do
	expect_eq "$(count err $e)" "$(count perf.csv $e)" "$e"
done
# The row the metric is on: the same as perf's.
expect_eq "$(awk -F, -v m=$ipbranch '$7 == m { print $3 }' err)" \
	"$(awk -F, '$7 == "IpBranch" { print $3 }' perf.csv)" \
	"the row IpBranch is shown on"

# The human layout: perf's line, and pstat's.
# shellcheck disable=SC2086
in_tree "$PSTAT" -M $ipbranch -- $prog 2>err >/dev/null ||
	{ show_err_; fail_ "pstat -M $ipbranch (human) failed"; }
grep -Eq "^ +8 +BR_INST_RETIRED\.ALL_BRANCHES +# +125\.00 $ipbranch\$" err ||
	{ show_err_; fail_ "human -M $ipbranch: not perf's line"; }
# pstat's JSON: the metric with its value.
# shellcheck disable=SC2086
in_tree "$PSTAT" -j -M $ipbranch -- $prog 2>err >/dev/null ||
	{ show_err_; fail_ "pstat -j -M $ipbranch failed"; }
grep -q "\"metric-value\" *: *125\(\.0*\)\?, *\"metric-unit\" *: *\"$ipbranch\"" err ||
	{ show_err_; fail_ "-j -M $ipbranch: no metric-value 125"; }

# --for-each-cgroup: the metrics again in each cgroup, from its own
# counts: the program's cgroup gets perf's value, the other none.
root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
if [ -n "$root" ] && mkdir "$root/pstat-m-$$" "$root/pstat-n-$$"; then
	at_exit "rmdir '$root/pstat-m-$$' '$root/pstat-n-$$'"
	in_cg="echo \$\$ >'$root/pstat-m-$$/cgroup.procs' && exec $prog"
	in_tree perf stat -a -x, --for-each-cgroup "pstat-n-$$,pstat-m-$$" \
		-M IpBranch -- sh -c "$in_cg" 2>perf.csv >/dev/null ||
		{ cat perf.csv; fail_ "perf stat --for-each-cgroup -M failed"; }
	in_tree "$PSTAT" -a -x, --for-each-cgroup "pstat-n-$$,pstat-m-$$" \
		-M $ipbranch -- sh -c "$in_cg" 2>err >/dev/null ||
		{ show_err_; fail_ "pstat --for-each-cgroup -M failed"; }
	cg_metric() { awk -F, -v c="$2" '$4 == c && $8 != "" { print $7 }' "$1"; }
	expect_eq "$(cg_metric err "pstat-m-$$")" \
		"$(cg_metric perf.csv "pstat-m-$$")" \
		"--for-each-cgroup -M: the program's cgroup, beside perf"
	expect_eq "$(cg_metric err "pstat-m-$$")" 125.00 \
		"--for-each-cgroup -M: the program's cgroup"
	expect_eq "$(cg_metric err "pstat-n-$$")" nan \
		"--for-each-cgroup -M: a cgroup where nothing ran"
	# -G after -M names -M's events (perf 6.1 refuses it: "must
	# define events before cgroups"); before it, the -e's alone, as
	# in perf.
	in_tree "$PSTAT" -a -x, -M $ipbranch -G "pstat-m-$$" -- \
		sh -c "$in_cg" 2>err >/dev/null ||
		{ show_err_; fail_ "pstat -M -G failed"; }
	expect_eq "$(cg_metric err "pstat-m-$$")" 125.00 "-M then -G"
	expect_eq "$(awk -F, '{ print $3 "," $4 }' err | sort | tr '\n' ' ')" \
		"BR_INST_RETIRED.ALL_BRANCHES,pstat-m-$$ INST_RETIRED.ANY,pstat-m-$$ " \
		"-M then -G: the cgroup of -M's events"
	in_tree "$PSTAT" -a -x, -e task-clock -G "pstat-m-$$" -M $ipbranch \
		-- sh -c "$in_cg" 2>err >/dev/null ||
		{ show_err_; fail_ "pstat -e -G -M failed"; }
	expect_eq "$(awk -F, '{ print $3 "," $4 }' err | sort | tr '\n' ' ')" \
		"BR_INST_RETIRED.ALL_BRANCHES, INST_RETIRED.ANY, task-clock,pstat-m-$$ " \
		"-e, -G, then -M: -M's events in no cgroup"
else
	echo "no cgroup2 hierarchy to make cgroups in: --for-each-cgroup -M not compared"
fi

# A metric of an uncore PMU with several instances (perf's cha, here
# uncore_cha_0 and _1): its events cannot share one group; they are
# counted ungrouped, each summed over the instances, and --explain says
# why (perf groups them per instance).
in_tree "$PSTAT" -a -M numa_reads_addressed_to_local_dram --explain >out 2>err ||
	{ show_err_; fail_ "--explain -M numa_reads_addressed_to_local_dram failed"; }
grep -q "^    not a group: cha@UNC_CHA_TOR_INSERTS.IA_MISS.* is on several PMUs" out ||
	{ cat out; fail_ "-M of uncore_cha_N: not said ungrouped"; }
! grep -q "(group [0-9]*, member)" out ||
	{ cat out; fail_ "-M of uncore_cha_N: events in a group"; }

# --explain -M: whether each group fits the counters the model's
# counter.json gives (Skylake-X: 4 generic, 3 fixed). IpBranch's two
# take fixed counter 0 (INST_RETIRED.ANY) and a generic one; tma_cisc
# puts 5 events that need a generic counter in one group.
in_tree "$PSTAT" -M $ipbranch --explain >out 2>err ||
	{ show_err_; fail_ "--explain -M $ipbranch failed"; }
grep -q "^  group of [A-Z_.]* (2 of the cpu PMU's events): fits: 1 of 4 generic counters, 1 of 3 fixed\$" out ||
	{ cat out; fail_ "--explain -M $ipbranch: not said to fit"; }
in_tree "$PSTAT" -M tma_cisc --explain >out 2>err ||
	{ show_err_; fail_ "--explain -M tma_cisc failed"; }
grep -q "^  group of .*: does not fit 4 generic and 3 fixed counters (5 of its events at most at once)" out ||
	{ cat out; fail_ "--explain -M tma_cisc: not said not to fit"; }

# The tables' event names with -e, in any case and with modifiers, as
# perf takes them: the same counts, the same names.
events=INST_RETIRED.ANY,br_inst_retired.all_branches:u
# shellcheck disable=SC2086
in_tree perf stat -x, -e $events -- $prog 2>perf.csv >/dev/null ||
	{ cat perf.csv; fail_ "perf stat -e $events failed"; }
# shellcheck disable=SC2086
in_tree "$PSTAT" -x, -e $events -- $prog 2>err >/dev/null ||
	{ show_err_; fail_ "pstat -e $events failed"; }
expect_eq "$(cut -d, -f1,3 err | tr '\n' ' ')" \
	"$(cut -d, -f1,3 perf.csv | tr '\n' ' ')" "-e $events, beside perf"
expect_eq "$(count err INST_RETIRED.ANY)" 1000 "-e INST_RETIRED.ANY"

# perf 6.1's own tables (linux-source-6.1, made by make check): perf
# 6.1's name, and the same metric on the same row, as perf prints it.
if [ -d "${PMU_EVENTS_61:-}/arch/x86" ]; then
	# shellcheck disable=SC2086
	PSTAT_PMU_EVENTS=$PMU_EVENTS_61 in_tree "$PSTAT" -x, -M IpBranch \
		-- $prog 2>err >/dev/null ||
		{ show_err_; fail_ "pstat -M IpBranch (6.1's tables) failed"; }
	in_tree perf stat -x, -M IpBranch -- $prog 2>perf.csv >/dev/null ||
		{ cat perf.csv; fail_ "perf stat -M IpBranch failed"; }
	expect_eq "$(cut -d, -f1,3,6,7 err | tr '\n' ' ')" \
		"$(cut -d, -f1,3,6,7 perf.csv | tr '\n' ' ')" \
		"-M IpBranch with 6.1's tables, beside perf 6.1"
	expect_eq "$(metric err)" 125.00 "-M IpBranch with 6.1's tables"
else
	echo "perf 6.1's tables not made (no linux-source-6.1): -M IpBranch with them not compared"
fi

# perf 6.1's name with 6.12's tables: the one metric whose name ends in
# _ipbranch, perf's value; a note says so in human output, none in -x's.
# shellcheck disable=SC2086
in_tree "$PSTAT" -x, -M IpBranch -- $prog 2>err >/dev/null ||
	{ show_err_; fail_ "-M IpBranch with 6.12's tables failed"; }
expect_eq "$(metric err)" 125.00 "-M IpBranch with 6.12's tables"
expect_eq "$(awk -F, '$7 != "" { print $7 }' err)" $ipbranch \
	"-M IpBranch with 6.12's tables: the metric's name"
! grep -q '^pstat:' err || { show_err_; fail_ "-x, -M IpBranch: a note"; }
# shellcheck disable=SC2086
in_tree "$PSTAT" -M IpBranch -- $prog 2>err >/dev/null ||
	{ show_err_; fail_ "-M IpBranch (human) failed"; }
grep -q "^pstat: note: -M IpBranch: perf 6.1's name, counted as $ipbranch" err ||
	{ show_err_; fail_ "-M IpBranch: the new name not said"; }
# An old name that several metrics end in: refused, with them.
in_tree "$PSTAT" -x, -M CLKS -- true 2>err >/dev/null
expect_eq "$?" 125 "-M CLKS: status"
grep -q "^pstat: .*'CLKS'.*closest: tma_info_core_core_clks, " err ||
	{ show_err_; fail_ "-M CLKS: the candidates not said"; }

# An unknown metric: one line, the closest names, 125, nothing run.
in_tree "$PSTAT" -M tma_info_inst_mix_ipbrnch -- touch ran 2>err >/dev/null
rc=$?
expect_eq "$rc" 125 "-M tma_info_inst_mix_ipbrnch: status"
[ ! -e ran ] || fail_ "-M tma_info_inst_mix_ipbrnch: the command ran"
expect_eq "$(wc -l <err)" 1 "-M tma_info_inst_mix_ipbrnch: lines"
grep -q "^pstat: .*'tma_info_inst_mix_ipbrnch'.*$ipbranch" err ||
	{ show_err_; fail_ "-M tma_info_inst_mix_ipbrnch: the closest name not said"; }
exit 0
