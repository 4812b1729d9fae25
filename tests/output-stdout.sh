#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The report goes to stderr and the command's stdout is left untouched.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

run_pstat -- printf 'a\nb\n'
expect_rc 0
printf 'a\nb\n' >expected
cmp -s out expected || { od -c out; fail_ "the command's stdout was changed"; }
grep -q 'Performance counter stats for' err ||
	{ show_err_; fail_ "no report on stderr"; }
