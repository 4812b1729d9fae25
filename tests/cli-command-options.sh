#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Options after the command are the command's: pstat stops at the first
# operand, with or without --.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# ls -l's long format: a mode string per line, and / holds directories.
for sep in '' --; do
	# shellcheck disable=SC2086 # $sep is empty or one word on purpose
	run_pstat $sep ls -l /
	expect_rc 0
	grep -Eq '^d[-rwxsStT]{9}' out ||
		{ cat out; fail_ "pstat $sep ls -l /: ls did not get -l"; }
done
