#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Machine output (-x, -j, --format) never depends on the locale; the human
# layout follows it: "," decimals and "." digit groups in German.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

de=de_DE.UTF-8

have_de()
{
	locale -a 2>/dev/null | grep -Eqix 'de_DE\.utf-?8'
}

# Install the locale when it is missing and we can (Debian's locales).
if ! have_de; then
	if [ "$(id -u)" != 0 ] || [ ! -w /etc/locale.gen ] ||
	   ! command -v locale-gen >/dev/null 2>&1; then
		skip_ "$de is not installed and cannot be installed here"
	fi
	if ! sed -i 's/^# *de_DE.UTF-8/de_DE.UTF-8/' /etc/locale.gen ||
	   ! locale-gen --keep-existing >/dev/null 2>&1; then
		skip_ "locale-gen could not install $de"
	fi
	have_de || skip_ "locale-gen did not install $de"
fi

# run_in LOCALE ARGS...: pstat's results in ./out.LOCALE (kept for the
# schema hook, as the next format writes over it).
run_in()
{
	loc=$1
	shift
	rc=0
	LC_ALL=$loc "$PSTAT" -o "out.$loc" "$@" >out 2>err || rc=$?
	keep_json "out.$loc"
	expect_rc 0
}

# Numbers to N: runs differ in values, never in shape.
shape()
{
	sed -E 's/-?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?/N/g' "$1"
}

# same_shape WHAT: out.C and out.$de differ in numbers only.
same_shape()
{
	shape out.C >shape.C
	shape "out.$de" >"shape.$de"
	cmp -s shape.C "shape.$de" || {
		echo "--- LC_ALL=C:"; cat out.C
		echo "--- LC_ALL=$de:"; cat "out.$de"
		fail_ "$1: the output changed with the locale"
	}
}

ev=task-clock,page-faults
for fmt in '-x,' '-x;' -j --format=csv --format=json; do
	for loc in C "$de"; do
		run_in "$loc" "$fmt" -e $ev -- "$PROGS/touch_pages" 2000
	done
	same_shape "$fmt"
done

# The values themselves, with '.' decimals and no grouping.
run_in "$de" -x, -e $ev -- "$PROGS/touch_pages" 2000
grep -Eqx '[0-9]+\.[0-9]{2},msec,task-clock,[0-9]+,100\.00,[0-9]+\.[0-9]{3},CPUs utilized' \
	"out.$de" || { cat "out.$de"; fail_ "-x, in $de: task-clock"; }
grep -Eqx '[0-9]{4},,page-faults,[0-9]+,100\.00,[0-9]+\.[0-9]{3},K/sec' \
	"out.$de" || { cat "out.$de"; fail_ "-x, in $de: page-faults"; }
run_in "$de" -x, -I 100 -e $ev -- "$PROGS/touch_pages" 2000
bad=$(cut -d, -f1 "out.$de" | grep -Ev '^[0-9]+\.[0-9]{9}$' || true)
[ -z "$bad" ] || { cat "out.$de"; fail_ "-x, -I in $de: timestamps $bad"; }
run_in "$de" -x, -r 2 -e $ev -- "$PROGS/touch_pages" 2000
grep -Eq '^[0-9]+\.[0-9]{2},msec,task-clock,[0-9]+\.[0-9]{2}%,' "out.$de" ||
	{ cat "out.$de"; fail_ "-x, -r in $de: variance"; }

# Human output follows the locale: 5.0xx page faults, 1x,xx msec.
run_in "$de" -e $ev -- "$PROGS/touch_pages" 5000
grep -Eq '^ +[0-9]+,[0-9]{2} msec task-clock +# +[0-9]+,[0-9]{3} CPUs utilized' \
	"out.$de" || { cat "out.$de"; fail_ "$de: task-clock"; }
grep -Eq '^ +[0-9]\.[0-9]{3} +page-faults +# +[0-9]+,[0-9]{3} K/sec' \
	"out.$de" || { cat "out.$de"; fail_ "$de: page-faults"; }
grep -Eq '^ +[0-9]+,[0-9]{9} seconds time elapsed$' "out.$de" ||
	{ cat "out.$de"; fail_ "$de: time elapsed"; }
# msec grouped as perf's "%'.2f" (issue 31): a second and more of two
# CPUs' clocks (at least the --timeout, on each). -I's times keep '.'.
run_in "$de" -a -e task-clock --timeout 1100
grep -Eq '^ +[0-9]{1,3}(\.[0-9]{3})+,[0-9]{2} msec task-clock' "out.$de" ||
	{ cat "out.$de"; fail_ "$de: msec not grouped"; }
run_in "$de" -I 100 --interval-count 1 -e $ev -- "$PROGS/touch_pages" 2000
grep -Eq '^ +[0-9]+\.[0-9]{9} +[0-9]+,[0-9]{2} msec task-clock' "out.$de" ||
	{ cat "out.$de"; fail_ "$de: -I time not with a point"; }
# pstat compare's table follows it too; its -x rows do not.
# compare_in LOCALE ARGS...: pstat compare's results in ./out.LOCALE.
compare_in()
{
	loc=$1
	shift
	rc=0
	LC_ALL=$loc "$PSTAT" compare -o "out.$loc" "$@" >out 2>err || rc=$?
	expect_rc 0
}
compare_in "$de" -r 4 -e $ev -- "$PROGS/touch_pages" 2000 ::: \
	"$PROGS/touch_pages" 2000
grep -Eq '^ +[0-9]+,[0-9]{3} \+- +[0-9]+,[0-9]% +[0-9]+,[0-9]{3} \+- +[0-9]+,[0-9]% +[-+][0-9]+,[0-9]{3}% +\[[-+][0-9]+,[0-9]{3}%, [-+][0-9]+,[0-9]{3}%\] +[0-9]+,[0-9]{3} .*task-clock \(msec\)$' \
	"out.$de" || { cat "out.$de"; fail_ "$de: compare's task-clock row"; }
compare_in "$de" -r 4 -x, -e $ev -- "$PROGS/touch_pages" 2000 ::: \
	"$PROGS/touch_pages" 2000
grep -Eq '^task-clock,msec,B,A,4,[0-9]+\.[0-9]+,4,[0-9]+\.[0-9]+,' "out.$de" ||
	{ cat "out.$de"; fail_ "$de: compare -x, not in C"; }

# And the same in C, where grouping falls back to commas.
run_in C -e $ev -- "$PROGS/touch_pages" 5000
grep -Eq '^ +[0-9],[0-9]{3} +page-faults +# +[0-9]+\.[0-9]{3} K/sec' \
	out.C || { cat out.C; fail_ "C: page-faults"; }
grep -Eq '^ +[0-9]+\.[0-9]{2} msec task-clock' out.C ||
	{ cat out.C; fail_ "C: task-clock"; }
exit 0
