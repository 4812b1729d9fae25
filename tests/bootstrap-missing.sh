#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/bootstrap --missing, which make check runs before any test: on
# a machine without the tests' packages it names them and the command
# that installs them, and exits 1; with them, it says nothing and exits
# 0. It installs and builds nothing either way; a wrong option is
# refused. Run on a copy of the script, as nobody when the test is root.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

mkdir -p tree/scripts bin || framework_failure_ "mkdir failed"
cp "$top_srcdir/scripts/bootstrap" tree/scripts/ ||
	framework_failure_ "cannot copy scripts/bootstrap"
as=
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	as="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi

# make check got here, so nothing is missing.
rc=0
$as tree/scripts/bootstrap --missing >out 2>err || rc=$?
[ "$rc" = 0 ] || { cat err; fail_ "--missing with all there: status $rc"; }
[ ! -s out ] && [ ! -s err ] ||
	{ cat out err; fail_ "--missing with all there said something"; }

# A machine whose PATH has none of the tests' commands (dirname is what
# bootstrap itself runs): perf, jq, promtool and mpirun are missing.
ln -s "$(command -v dirname)" bin/dirname ||
	framework_failure_ "cannot link dirname"
rc=0
$as env PATH="$tmpdir/bin" "$(command -v bash)" tree/scripts/bootstrap \
	--missing >out 2>err || rc=$?
[ "$rc" = 1 ] || { cat err; fail_ "--missing without them: status $rc"; }
[ ! -s out ] || { cat out; fail_ "--missing wrote to stdout"; }
[ "$(wc -l <err)" = 1 ] || { cat err; fail_ "not one line"; }
for pkg in linux-perf jq prometheus openmpi-bin mpich strace; do
	grep -Eq "^missing for make check: (.* )?$pkg( .*)?;" err ||
		{ cat err; fail_ "--missing does not name $pkg"; }
done
grep -q 'run scripts/bootstrap --tests to install them$' err ||
	{ cat err; fail_ "--missing does not say how to install them"; }
[ ! -e tree/configure ] && [ ! -e tree/Makefile ] ||
	fail_ "--missing built something"

rc=0
$as tree/scripts/bootstrap --bogus >out 2>err || rc=$?
[ "$rc" = 2 ] || fail_ "--bogus: status $rc"
grep -qx "bootstrap: unknown option '--bogus'; see scripts/bootstrap --help" \
	err || { cat err; fail_ "--bogus: message"; }
exit 0
