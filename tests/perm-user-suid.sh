#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# As nobody, a set-user-ID command: the kernel stops counting it at its
# exec, and pstat says so (and not of a plain command).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_root
command -v setpriv >/dev/null 2>&1 || skip_ "no setpriv (util-linux)"
if findmnt -n -o OPTIONS -T . 2>/dev/null | grep -qw nosuid; then
	skip_ "the temp dir is on a nosuid mount: no set-user-ID exec here"
fi
set_paranoid 2

cp "$PSTAT" ./pstat && cp "$PROGS/touch_pages" . ||
	framework_failure_ "cannot copy pstat and touch_pages"
cp touch_pages suid_pages && chmod 4755 suid_pages ||
	framework_failure_ "cannot make a set-user-ID copy"

run_nobody ./pstat -e page-faults -- ./suid_pages 100
expect_rc 0
grep -q "^pstat: note: '\./suid_pages' is set-user-ID root: the kernel stops counting" err ||
	{ show_err_; fail_ "set-user-ID: no note"; }
run_nobody ./pstat -x, -e page-faults -- ./suid_pages 100
expect_rc 0
v=$(csv_value page-faults:u)
expect_number "$v" "set-user-ID page-faults:u"
[ "$v" -lt 100 ] ||
	fail_ "set-user-ID: $v page faults: the kernel counted it all?"
run_nobody ./pstat -e page-faults -- ./touch_pages 100
expect_rc 0
! grep -q 'set-user-ID' err || fail_ "a plain command got the note"
