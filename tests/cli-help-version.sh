#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --help and --version print on stdout and exit 0; help lists every
# option; the version is the one configure.ac, NEWS and debian/ give.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

run_pstat --help
expect_rc 0
for opt in --event --field-separator --no-inherit --help --version; do
	grep -q -e "$opt" out || fail_ "--help does not mention $opt"
done
mv out help.out
run_pstat -h
expect_rc 0
cmp -s out help.out || fail_ "-h and --help print different text"

run_pstat --version
expect_rc 0
grep -q '^pstat ' out ||
	fail_ "--version printed '$(cat out)', not 'pstat VERSION'"
mv out version.out
run_pstat -V
expect_rc 0
cmp -s out version.out || fail_ "-V and --version print different text"

# The version is configure.ac's; NEWS and the Debian changelog say it.
want=$(sed -n 's/^AC_INIT(\[pstat\], \[\([^]]*\)\].*/\1/p' \
	"$top_srcdir/configure.ac")
[ -n "$want" ] || framework_failure_ "no version in configure.ac's AC_INIT"
grep -qx "pstat $want" version.out ||
	fail_ "--version printed '$(cat version.out)', not configure.ac's $want"
grep -qx "Version $want" "$top_srcdir/NEWS" ||
	fail_ "NEWS has no 'Version $want' section"
head -n 1 "$top_srcdir/debian/changelog" | grep -q "^pstat ($want) " ||
	fail_ "debian/changelog's first entry is not $want: $(head -n 1 "$top_srcdir/debian/changelog")"
