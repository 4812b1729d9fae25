#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A write of the results that fails (-o /dev/full: a full disk) is
# pstat's failure, 125, with a message naming the file.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
[ -c /dev/full ] && [ -w /dev/full ] || skip_ "no writable /dev/full here"

for fmt in '' '-x,'; do
	# shellcheck disable=SC2086 # $fmt is empty or one word on purpose
	run_pstat -o /dev/full $fmt -e task-clock -- true
	expect_rc 125
	grep -q "^pstat: .*/dev/full" err ||
		{ show_err_; fail_ "-o /dev/full $fmt: no 'pstat: .../dev/full' message"; }
done
