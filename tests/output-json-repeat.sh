#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -j -r: a count is the whole number -x prints, the mean of the runs
# rounded, not the mean itself (issue 31). Runs of 1 and 2 writes (the
# number in ./n, one more before each run, uncounted) make a mean of 1.5:
# 2 in both formats.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse JSON"

ev=syscalls:sys_enter_write
pre='read n <n; echo $((n + 1)) >n'
cmd='read n <n; exec "$0" "$n"'
for fmt in "-x," -j; do
	echo 0 >n
	run_pstat "$fmt" -r 2 --pre "$pre" -e $ev -- sh -c "$cmd" \
		"$PROGS/writer"
	expect_rc 0
	expect_eq "$(cat n)" 2 "$fmt: runs"
	if [ "$fmt" = -x, ]; then
		expect_eq "$(csv_value $ev)" 2 "-x, -r 2: the mean, rounded"
	else
		got=$(grep -v '^pstat:' err | python3 -c 'import json, sys
for l in sys.stdin:
    if l.strip():
        print(repr(json.loads(l)["counter-value"]))')
		expect_eq "$got" 2 "-j -r 2: the mean, rounded"
	fi
done
exit 0
