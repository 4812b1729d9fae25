#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# CAP_PERFMON for an ordinary user, from file capabilities (a copy of
# pstat with cap_perfmon+ep, as 'make install-caps' makes it) or from
# the ambient set: the kernel and whole CPUs count, and the command gets
# no capability at all. -o and @FILE keep the user's own rights.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_pstat_caps
command -v getcap >/dev/null 2>&1 || skip_ "no getcap (libcap2-bin)"
cp "$PSTAT" ./pstat || framework_failure_ "cannot copy pstat"

nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
ambient="--inh-caps +perfmon --ambient-caps +perfmon"

run_as()
{
	rc=0
	# shellcheck disable=SC2086 # the setpriv options are words
	$nobody "$@" >out 2>err || rc=$?
}

# The command's /proc/self/status (in ./out) shows no capability.
expect_no_caps()
{
	for set in CapInh CapPrm CapEff CapAmb; do
		grep -q "^$set:[[:space:]]*0000000000000000\$" out ||
			{ cat out; show_err_; fail_ "$1: the command has $set"; }
	done
}

# A copy with file capabilities counts the kernel: no :u, no note.
run_as ./pstat-caps -x, -e task-clock,page-faults -- cat /proc/self/status
expect_rc 0
expect_eq "$(csv_events)" "task-clock page-faults" "file caps: events"
expect_ge "$(csv_value page-faults)" 1 "file caps: page-faults"
! grep -q 'perf_event_paranoid' err || { show_err_; fail_ "file caps: a note"; }
expect_no_caps "file caps"

# CAP_PERFMON in the ambient set does the same, and does not reach the
# command either.
# shellcheck disable=SC2086
run_as $ambient ./pstat -x, -e task-clock -- cat /proc/self/status
expect_rc 0
expect_eq "$(csv_events)" "task-clock" "ambient: events"
expect_no_caps "ambient"

run_as ./pstat-caps -x, -a -e cpu-clock -- cat /proc/self/status
expect_rc 0
expect_number "$(csv_value cpu-clock)" "file caps -a: cpu-clock"
expect_no_caps "file caps -a"
# shellcheck disable=SC2086
run_as $ambient ./pstat -x, -a -e cpu-clock -- cat /proc/self/status
expect_rc 0
expect_number "$(csv_value cpu-clock)" "ambient -a: cpu-clock"
expect_no_caps "ambient -a"

# Files the user names are opened with the user's rights, even by a
# pstat that could override them.
cp "$PSTAT" ./pstat-dac && setcap cap_perfmon,cap_dac_override+ep ./pstat-dac ||
	framework_failure_ "cannot make the cap_dac_override copy"
mkdir private mine && chmod 700 private && chown 65534 mine &&
	echo task-clock >private/events ||
	framework_failure_ "cannot make the directories"
run_as ./pstat-dac -o private/out -e task-clock -- true
expect_rc 125
grep -q "^pstat: cannot write to 'private/out': Permission denied" err ||
	{ show_err_; fail_ "-o: written with pstat's privileges"; }
[ ! -e private/out ] || fail_ "-o: private/out was created"
run_as ./pstat-dac -e @private/events -- true
expect_rc 125
grep -q "^pstat: cannot read the event file 'private/events': Permission denied" err ||
	{ show_err_; fail_ "@FILE: read with pstat's privileges"; }
run_as ./pstat-dac -o mine/out -e task-clock -- true
expect_rc 0
expect_eq "$(stat -c %u mine/out)" 65534 "-o: owner of the file"
grep -q 'task-clock' mine/out || fail_ "-o: no results in mine/out"

# make install-caps gives the installed pstat cap_perfmon+ep.
builddir=$(dirname "$(dirname "$PSTAT")")
[ -f "$builddir/Makefile" ] ||
	framework_failure_ "no Makefile in $builddir: run the tests with make check"
${MAKE:-make} -s -C "$builddir" install-caps DESTDIR="$tmpdir/inst" \
	>make.log 2>&1 || { cat make.log; fail_ "make install-caps"; }
installed=$(find "$tmpdir/inst" -type f -name pstat -perm -u+x)
getcap "$installed" | grep -q 'cap_perfmon=ep' ||
	{ getcap "$installed"; fail_ "install-caps: no cap_perfmon+ep"; }
# A static pstat with capabilities keeps the C library's and libcap's
# flaws until it is built again: install-caps says so, a dynamic one not.
if readelf -d "$installed" 2>/dev/null | grep -q NEEDED; then
	! grep -q 'linked statically' make.log ||
		{ cat make.log; fail_ "install-caps: a dynamic pstat called static"; }
else
	grep -q 'warning: this pstat is linked statically' make.log ||
		{ cat make.log; fail_ "install-caps: no warning for a static pstat"; }
fi
exit 0
