#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A static pstat is linked with the functions of src/pstat.order next to
# one another at the start of its text (configure, lld): every one of
# them that the program holds lies in the first half of the 64 KiB
# windows of the text (what the kernel maps at a fault), and more than
# half of them are there, so that an order gone stale is seen.
# Unordered, the C library's start-up alone spans nearly all of it.
# The variables of the list likewise start .data and .bss, within their
# first 8 KiB (32 KiB of .data.rel.ro, which holds pstat's tables):
# unordered, they lie over 390 KiB of .data and 58 KiB of .bss.
# And pstat's strings start .rodata, unmerged (-fno-merge-constants):
# merged, the C library's and libpfm4's pool strews them over 370 KiB.
# Last, that the list is not stale: every function and variable a run
# of 2 events touches is in it (valgrind's callgrind and lackey).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

case ${FUNCTION_ORDER:-} in
yes) ;;
'') framework_failure_ "FUNCTION_ORDER is not set (run me from make check)" ;;
*) skip_ "pstat is not linked in order: ${FUNCTION_ORDER#no: }" ;;
esac
for tool in nm readelf; do
	command -v $tool >/dev/null 2>&1 ||
		framework_failure_ "$tool not found (Debian package binutils)"
done

bin=${PSTAT_REAL:-$PSTAT}
order=$top_srcdir/src/pstat.order
[ -s "$order" ] || fail_ "$order: missing or empty"

nm -S --defined-only "$bin" >syms || fail_ "nm $bin failed"
# Each listed function the program holds (all the functions of that
# name: a static one may have namesakes).
awk -v list="$order" '
	BEGIN { while ((getline name < list) > 0) { want[name] = 1; n++ } }
	NF == 4 && $3 ~ /^[tTiW]$/ && ($4 in want) {
		found[$4] = 1
		print $1, $2, $4 > "placed"
	}
	END {
		for (f in found) k++
		print n, k + 0 > "counts"
	}' syms || fail_ "awk failed"

read -r listed held <counts
[ "$held" -gt 0 ] || fail_ "none of the $listed functions of $order is in $bin"
[ $((held * 2)) -gt "$listed" ] ||
	fail_ "$bin holds only $held of the $listed functions of $order: \
run scripts/order-functions"

# The text, and the 64 KiB windows the functions lie in: from the
# text's first, and no further than its first half.
readelf -SW "$bin" |
	awk '{ sub(/^ *\[ *[0-9]+\] */, "") } $1 == ".text" { print $3, $5 }' \
	>text || fail_ "readelf -S $bin failed"
read -r start size <text || fail_ "readelf -S $bin: no .text"
lo=$((0x$start / 65536)) hi=$(((0x$start + 0x$size - 1) / 65536))
first=$hi last=$lo
while read -r addr size _; do
	a=$((0x$addr / 65536)) z=$(((0x$addr + 0x$size - 1) / 65536))
	if [ "$a" -lt "$lo" ] || [ "$z" -gt "$hi" ]; then
		continue	# in .iplt, beside the text
	fi
	if [ "$a" -lt "$first" ]; then first=$a; fi
	if [ "$z" -gt "$last" ]; then last=$z; fi
done <placed
half=$(((hi - lo + 1) / 2))
if [ "$first" -ne "$lo" ] || [ $((last - first + 1)) -gt "$half" ]; then
	fail_ "the $held functions of $order lie in windows $((first - lo)) to \
$((last - lo)) of the text's $((hi - lo + 1)), not in its first $half: \
is $bin linked in order?"
fi

# Strings of every run: an event's name, the human output's header.
readelf -p .rodata "$bin" >strings || fail_ "readelf -p .rodata $bin failed"
for s in 'task-clock' ' Performance counter stats for '; do
	at=$(awk -v s="$s" '{ t = $0; sub(/^ *\[ *[0-9a-f]+\]  /, "", t) }
		t == s { sub(/^ *\[ */, ""); sub(/\].*/, ""); print; exit }' strings)
	[ -n "$at" ] || fail_ "'$s' is not a string of $bin's .rodata"
	[ $((0x$at)) -lt 65536 ] || fail_ "'$s' lies $((0x$at)) bytes into \
.rodata, not within its first 65536: are pstat's strings merged with \
libpfm4's (-fno-merge-constants)?"
done

awk -v list="$order" '
	BEGIN { while ((getline name < list) > 0) want[name] = 1 }
	NF == 4 && $3 ~ /^[bBdD]$/ && ($4 in want) { print $1, $4 }' syms \
	>vars || fail_ "awk failed"
readelf -SW "$bin" | awk '{ sub(/^ *\[ *[0-9]+\] */, "") }
	$1 == ".data" || $1 == ".data.rel.ro" || $1 == ".bss" { print $1, $3, $5 }' \
	>data || fail_ "readelf -S $bin failed"
while read -r sec start size; do
	limit=8192
	[ "$sec" != .data.rel.ro ] || limit=32768
	n=0
	while read -r addr name; do
		at=$((0x$addr - 0x$start))
		[ "$at" -ge 0 ] && [ "$at" -lt $((0x$size)) ] || continue
		n=$((n + 1))
		[ "$at" -lt "$limit" ] || fail_ "$name lies $at bytes into \
$sec, not within its first $limit: is $bin linked in order?"
	done <vars
	[ "$n" -gt 0 ] || fail_ "none of the variables of $order is in $sec"
done <data

# And the list is not stale: every function and variable a run of 2
# events touches is in it, as scripts/order-functions sees them
# (valgrind's callgrind and lackey, on the fork path; not fork(2)'s
# variables, which it leaves out). One left out lies in the cold text
# or data: a page fault or more of its own at every start (one
# function's left three).
command -v valgrind >/dev/null 2>&1 ||
	framework_failure_ "valgrind not found (Debian package valgrind)"
PSTAT_FORK=1 valgrind -q --tool=callgrind --callgrind-out-file=cg \
	"$bin" -e task-clock,page-faults /bin/true >/dev/null 2>&1 ||
	fail_ "pstat -e task-clock,page-faults /bin/true failed under callgrind"
PSTAT_FORK=1 valgrind --tool=lackey --trace-mem=yes --log-file=lk \
	"$bin" -e task-clock,page-faults /bin/true >/dev/null 2>&1 ||
	fail_ "pstat -e task-clock,page-faults /bin/true failed under lackey"
sed -n -E 's/^c?fn=\([0-9]+\) ([A-Za-z_][A-Za-z0-9_.]*).*/\1/p' cg >ran
# Each address lackey saw loaded or stored, to the variable that holds
# it: nm's variables by address, a binary search each.
nm -S -n --defined-only "$bin" | awk -v list="$order" '
	function hex(s,    i, v) {
		v = 0
		s = tolower(s)
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	BEGIN { while ((getline w < list) > 0) want[w] = 1 }
	FILENAME == "-" {
		if (NF == 4 && $3 ~ /^[bBdD]$/) {
			n++; lo[n] = hex($1); hi[n] = lo[n] + hex($2); var[n] = $4
		}
		next
	}
	FILENAME == "ran" { if (!($1 in want)) missing[$1] = "function"; next }
	/^ [LSM] / {
		split($2, f, ",")
		a = hex(f[1])
		l = 1; h = n
		while (l < h) {
			m = int((l + h + 1) / 2)
			if (lo[m] <= a) l = m; else h = m - 1
		}
		if (n && lo[l] <= a && a < hi[l] && !(var[l] in want) &&
		    var[l] !~ /fork/)
			missing[var[l]] = "variable"
	}
	END { for (x in missing) print missing[x], x }' - ran lk >missing ||
	fail_ "awk failed"
if [ -s missing ]; then
	sort missing
	fail_ "$(wc -l <missing) names a run touches are not in $order: \
run scripts/order-functions"
fi
exit 0
