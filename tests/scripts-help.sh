#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every script in scripts/ answers --help with all of its usage (the
# comment or docstring at its top, where the usage is written once) on
# standard output, and exit status 0, doing nothing else (issue 31).
# scripts/bootstrap is the lead's build machinery, left out here.
#
# The scripts run from a copy, as nobody when the test is root: one that
# took --help for something else (a benchmark, a package install) would
# then fail here without harming the machine.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

command -v python3 >/dev/null || skip_ "no python3 (scripts/ has Python)"
mkdir -p tree/tests/fuzz || framework_failure_ "mkdir failed"
cp -R "$top_srcdir/scripts" tree/ &&
	cp "$top_srcdir/tests/fuzz/fuzz.mk" tree/tests/fuzz/ ||
	framework_failure_ "cannot copy scripts/"
as=
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	as="setpriv --reuid=65534 --regid=65534 --clear-groups"
	chmod -R a+rX tree
fi

# The usage as the file writes it: a Python docstring, or the comment
# from line 3 (after the #! and SPDX lines) to the first other line.
usage_of()
{
	if head -n 1 "$1" | grep -q python; then
		python3 -c 'import ast, sys
print(ast.get_docstring(ast.parse(open(sys.argv[1]).read()), clean=False))' "$1"
	else
		sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$1"
	fi
}

n=0
for s in tree/scripts/*; do
	name=${s##*/}
	[ -f "$s" ] && [ -x "$s" ] && [ "$name" != bootstrap ] || continue
	n=$((n + 1))
	usage_of "$s" >want || framework_failure_ "no usage in $name"
	[ "$(grep -c . want)" -ge 2 ] ||
		fail_ "$name: no usage comment at its top"
	rc=0
	$as timeout 60 "$s" --help >out 2>err || rc=$?
	[ "$rc" = 0 ] || { cat err; fail_ "$name --help: exit status $rc"; }
	[ ! -s err ] || { cat err; fail_ "$name --help: wrote to stderr"; }
	# Each line as it is, but for case: argparse's "usage: ".
	grep . want | while IFS= read -r line; do
		grep -Fxqi -- "$line" out || {
			cat out
			fail_ "$name --help: no line '$line'"
		}
	done || exit 1
done
[ "$n" -ge 8 ] || fail_ "only $n scripts found in scripts/"
exit 0
