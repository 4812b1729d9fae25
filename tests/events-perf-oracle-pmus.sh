#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# perf stat is the oracle of the encodings of PMUs this machine lacks:
# fake core PMUs (Intel's "cpu" and its format terms, AMD's "cpu" with
# its 12-bit event split, a hybrid cpu_core + cpu_atom pair) go into a
# copy of /sys/bus/event_source/devices, bind-mounted over the real one
# in a private mount namespace; there perf and pstat read the same
# PMUs, and for each spec the attr that 'perf stat -vv' prints before
# its open fails must be what 'pstat --explain' shows.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_root
require_perf_events
command -v perf >/dev/null 2>&1 || skip_ "perf is not installed"
command -v unshare >/dev/null 2>&1 || skip_ "unshare (util-linux) is not installed"
unshare -m true 2>unshare.err ||
	skip_ "no private mount namespace here: $(head -n 1 unshare.err)"
perf stat -e task-clock true >/dev/null 2>perf.err ||
	skip_ "perf stat does not work here: $(head -n 1 perf.err)"
devices=/sys/bus/event_source/devices
[ -d "$devices" ] || skip_ "no $devices"
attrs_awk=$top_srcdir/tests/perf-attrs.awk
# Vendor event names are pstat's through libpfm4, when it is built in.
pfm=no
"$PSTAT" -V 2>&1 | grep -q '^libpfm4: built in' && pfm=yes

# pmu TREE NAME TYPE: an empty PMU of the type in tree TREE.
pmu()
{
	rm -rf "${1:?}/${2:?}"
	mkdir -p "$1/$2/format" "$1/$2/events" &&
		echo "$3" >"$1/$2/type" ||
		framework_failure_ "cannot make PMU $2 in $1"
}

# put TREE PMU FILE TEXT: one sysfs file of a fake PMU.
put()
{
	printf '%s\n' "$4" >"$1/$2/$3" ||
		framework_failure_ "cannot write $1/$2/$3"
}

# tree NAME: a copy of the machine's PMUs (its links resolve where the
# copy is mounted), without the core PMUs the test puts there.
tree()
{
	mkdir "$1" && cp -a "$devices/." "$1/" ||
		framework_failure_ "cannot copy $devices"
	rm -rf "$1/cpu" "$1/cpu_core" "$1/cpu_atom"
}

# Intel's format terms, as a Skylake-X kernel shows them.
intel_formats()
{
	put "$1" "$2" format/event config:0-7
	put "$1" "$2" format/umask config:8-15
	put "$1" "$2" format/edge config:18
	put "$1" "$2" format/pc config:19
	put "$1" "$2" format/any config:21
	put "$1" "$2" format/inv config:23
	put "$1" "$2" format/cmask config:24-31
	put "$1" "$2" format/in_tx config:32
	put "$1" "$2" format/in_tx_cp config:33
	put "$1" "$2" format/offcore_rsp config1:0-63
	put "$1" "$2" format/ldlat config1:0-15
}

intel_aliases()
{
	put "$1" "$2" events/cpu-cycles event=0x3c
	put "$1" "$2" events/instructions event=0xc0
	put "$1" "$2" events/branch-misses event=0xc5
	put "$1" "$2" events/mem-loads event=0xcd,umask=0x1,ldlat=3
	put "$1" "$2" events/mem-stores event=0xd0,umask=0x82
	put "$1" "$2" events/cycles-t event=0x3c,in_tx=1
	put "$1" "$2" events/cycles-ct event=0x3c,in_tx=1,in_tx_cp=1
	put "$1" "$2" events/tx-start event=0xc9,umask=0x1
	put "$1" "$2" events/topdown-recovery-bubbles \
		event=0x0d,umask=0x03,cmask=1
}

tree intel
pmu intel cpu 4
intel_formats intel cpu
intel_aliases intel cpu

# AMD's core PMU: a 12-bit event in config bits 0-7 and 32-35.
tree amd
pmu amd cpu 4
put amd cpu format/event config:0-7,32-35
put amd cpu format/umask config:8-15
put amd cpu format/edge config:18
put amd cpu format/inv config:23
put amd cpu format/cmask config:24-31
put amd cpu events/ret-instr event=0xc0
put amd cpu events/ls-dispatch event=0x429,umask=0x7

# A hybrid CPU: two core PMUs, each with its own type and CPUs.
tree hybrid
pmu hybrid cpu_core 4
put hybrid cpu_core cpus 0
intel_formats hybrid cpu_core
intel_aliases hybrid cpu_core
pmu hybrid cpu_atom 10
put hybrid cpu_atom cpus 1
put hybrid cpu_atom format/event config:0-7
put hybrid cpu_atom format/umask config:8-15
put hybrid cpu_atom format/inv config:23
put hybrid cpu_atom format/cmask config:24-31
put hybrid cpu_atom events/instructions event=0xc0
put hybrid cpu_atom events/topdown-bad-spec event=0x73,umask=0x6

# The specs, "TREE KIND SPEC" a line: every kind of event. Vendor names
# come from perf's tables for the CPU id PERF_CPUID names.
cat >specs <<'EOF'
intel generic cycles
intel generic instructions
intel generic ref-cycles
intel generic branch-misses
intel cache L1-dcache-loads
intel cache LLC-load-misses
intel cache dTLB-store-misses
intel raw r1a8
intel raw r53003c
intel terms cpu/event=0x3c/
intel terms cpu/event=0xd1,umask=0x20/
intel terms cpu/event=0x3c,umask=0x1,edge,inv,cmask=3/
intel terms cpu/event=0xa3,umask=0x4,cmask=4/
intel terms cpu/event=0xb7,umask=0x1,offcore_rsp=0x10001/
intel terms cpu/event=0xcd,umask=0x1,ldlat=3/
intel terms cpu/event=0x3c,in_tx,in_tx_cp/
intel terms cpu/event=0x3c,any,pc/
intel terms cpu/config=0x1234,config1=0x5,config2=0x6/
intel terms cpu/event=0x3c,name=mine/
intel alias cpu/mem-loads/
intel alias cpu/mem-loads,ldlat=7/
intel alias cpu/cycles-ct/
intel alias cpu/topdown-recovery-bubbles/
intel alias cpu/instructions/
intel alias mem-loads
intel alias tx-start
intel alias cycles-t
intel alias MEM-STORES
intel alias cpu/MEM-LOADS/
intel modifiers cycles:u
intel modifiers instructions:k
intel modifiers r1a8:uk
intel modifiers cycles:I
intel modifiers cycles:D
intel modifiers cycles:ppp
intel modifiers cpu/event=0x3c/u
intel modifiers cpu/mem-loads/pp
intel modifiers mem-stores:u
intel modifiers L1-dcache-loads:k
intel groups {task-clock,cycles,instructions}
intel groups {task-clock,cpu/event=0x3c/,cpu/mem-loads/}:u
intel groups {cpu-clock,r1a8,L1-dcache-load-misses}:k
intel vendor inst_retired.any_p
intel vendor mem_load_retired.l3_miss
intel vendor cycle_activity.stalls_total
intel vendor machine_clears.count
intel vendor inst_retired.any_p:u
amd generic cycles
amd generic instructions
amd cache L1-dcache-load-misses
amd raw r1000000c0
amd terms cpu/event=0xc0/
amd terms cpu/event=0x1c0,umask=0x1/
amd terms cpu/event=0x4c0,umask=0xff,edge,inv,cmask=0x3/
amd terms cpu/event=0xfff/
amd alias cpu/ret-instr/
amd alias cpu/ls-dispatch/
amd alias ls-dispatch
amd modifiers cpu/event=0x1c0/k
amd modifiers cycles:u
amd groups {task-clock,cpu/event=0x1c0/,cycles}
hybrid generic cycles
hybrid generic instructions
hybrid generic branch-misses
hybrid cache L1-dcache-loads
hybrid raw r1a8
hybrid terms cpu_core/event=0x3c,umask=0x1/
hybrid terms cpu_atom/event=0xc0,inv,cmask=1/
hybrid alias cpu_atom/instructions/
hybrid alias mem-loads
hybrid alias topdown-bad-spec
hybrid alias cpu_core/cycles/
hybrid modifiers cycles:u
hybrid modifiers r1a8:k
hybrid modifiers cpu_atom/cycles/u
hybrid groups {task-clock,cycles}
EOF

# What runs in the namespace: for each spec of the tree, perf's and
# pstat's attrs into out.TREE/N.perf and N.pstat.
cat >inner.sh <<'EOF'
set -u
tree=$1
mount --bind "$tree" /sys/bus/event_source/devices || exit 1
n=0
grep "^$tree " specs | while read -r t kind spec; do
	n=$((n + 1))
	PERF_CPUID=GenuineIntel-6-55-4 perf stat -vv -e "$spec" true \
		>/dev/null 2>"out.$tree/$n.perf"
	# libpfm4 reads the CPU's model from /proc/cpuinfo, not sysfs: the
	# model PERF_CPUID names (6-55-4: Skylake-X) is forced.
	pfm_model=
	[ "$kind" != vendor ] || pfm_model=skx
	env -u PSTAT_SYSFS ${pfm_model:+LIBPFM_FORCE_PMU=$pfm_model} \
		"$PSTAT" --explain -e "$spec" >"out.$tree/$n.pstat" 2>&1
	echo "$kind $spec" >"out.$tree/$n.spec"
done
EOF

for t in intel amd hybrid; do
	mkdir "out.$t"
	unshare -m sh inner.sh "$t" 2>inner.err ||
		skip_ "cannot bind-mount a copy over $devices: $(head -n 1 inner.err)"
done

# ORACLE_KEEP=DIR keeps both tools' outputs there, to look at.
[ -n "${ORACLE_KEEP:-}" ] && cp -r out.* "$ORACLE_KEEP/"
compared=0
failed=
for spec_file in out.*/*.spec; do
	base=${spec_file%.spec}
	read -r kind spec <"$spec_file"
	tree=${base%%/*}
	tree=${tree#out.}
	if grep -q 'event syntax error' "$base.perf"; then
		echo "perf $(perf --version) does not take '$spec' ($tree): left out"
		continue
	fi
	if [ "$kind" = vendor ] && [ "$pfm" = no ]; then
		echo "'$spec' ($tree): pstat is built without libpfm4 (pstat -V): left out"
		continue
	fi
	awk -v mode=perf -f "$attrs_awk" "$base.perf" >theirs
	[ -s theirs ] || fail_ "'$spec' ($tree): no attr in perf's output"
	grep -q '(group' "$base.pstat" ||
		{ cat "$base.pstat"; fail_ "'$spec' ($tree): pstat --explain failed"; }
	awk -v mode=pstat -f "$attrs_awk" "$base.pstat" >ours
	# perf stops at a group whose leader fails: what it tried, in order.
	head -n "$(wc -l <theirs)" ours >ours.head
	if ! cmp -s theirs ours.head; then
		echo "--- '$spec' ($tree, $kind): perf stat, then pstat --explain"
		cat theirs
		echo "+++"
		cat ours
		failed="$failed '$spec' ($tree)"
	fi
	compared=$((compared + 1))
done

[ -z "$failed" ] || fail_ "attrs differ from perf's for:$failed"
[ "$compared" -gt 0 ] || skip_ "perf took none of the specs"
echo "$compared specs on fake Intel, AMD and hybrid PMUs: the same attrs as perf stat"
