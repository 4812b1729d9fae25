#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every shell test in tests/ runs in make check: a test that is not in
# Makefile.am's SHELL_TESTS never runs (tests/rank-run-record.sh was
# written and never ran). Not tests: init.sh and fake-pmu.sh, which the
# tests source, and function-order.sh, which 'make check-order' runs at
# release.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

am=$top_srcdir/Makefile.am
[ -r "$am" ] || framework_failure_ "$am: not readable"
awk '/^SHELL_TESTS = /,/[^\\]$/' "$am" |
	grep -o 'tests/[A-Za-z0-9_.-]*\.sh' | sort >registered
[ -s registered ] || fail_ "no SHELL_TESTS in $am"
(cd "$top_srcdir" && ls tests/*.sh) |
	grep -v -x -e tests/init.sh -e tests/fake-pmu.sh \
		-e tests/function-order.sh | sort >present
comm -23 present registered >missing
[ ! -s missing ] ||
	fail_ "not in Makefile.am's SHELL_TESTS: $(tr '\n' ' ' <missing)"
exit 0
