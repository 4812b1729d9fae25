#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --help and --version print on stdout and exit 0; help lists every option.

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
