#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# An ordinary user at kernel.perf_event_paranoid=2 counts hardware
# events in user space: pstat falls back to :u, says so once, and the
# counts are those of :u. Where the kernel refuses ordinary users
# everything (Debian's level 3), pstat says so, once.

# shellcheck source=tests/hw/lib.sh
. "$(dirname "$0")/lib.sh"

require_root
[ -w /proc/sys/kernel/perf_event_paranoid ] ||
	skip_ "cannot set kernel.perf_event_paranoid"

# Tests of other suites that set the level wait for this one (init.sh).
lock=/tmp/pstat-tests-paranoid.lock
if command -v flock >/dev/null 2>&1 && touch "$lock" 2>/dev/null; then
	exec 9<"$lock"
	flock -x 9 || framework_failure_ "cannot lock $lock"
fi
# shellcheck disable=SC2034 # read at exit
old=$(cat /proc/sys/kernel/perf_event_paranoid)
# shellcheck disable=SC2016 # expanded at exit
at_exit 'echo "$old" >/proc/sys/kernel/perf_event_paranoid'
echo 2 >/proc/sys/kernel/perf_event_paranoid ||
	skip_ "cannot set kernel.perf_event_paranoid to 2"

uid=65534
# Where the user could make ./ran, were the command run.
chmod 777 . || framework_failure_ "cannot chmod $tmpdir"
if ! "$PROGS/run_as" "$uid" "$uid" "$PSTAT" -V >probe.out 2>&1 ||
   ! "$PROGS/run_as" "$uid" "$uid" "$PROGS/insn_loop" -c >>probe.out 2>&1
then
	skip_ "uid $uid cannot run $PSTAT and $PROGS (in a private home?): $(cat probe.out)"
fi
o=$(oracle "$N1")
rc=0
"$PROGS/run_as" "$uid" "$uid" "$PSTAT" -e instructions,cycles -- \
	"$PROGS/insn_loop" "$N1" >out 2>err || rc=$?
expect_rc 0
expect_count "$(human_value instructions:u)" "$o" "instructions, counted as :u"
expect_count_value "$(human_value cycles:u)" "cycles, counted as :u"
expect_eq "$(grep -c 'perf_event_paranoid=2 lets you count user space only' err)" \
	1 "the note on :u"

rc=0
"$PROGS/run_as" "$uid" "$uid" "$PSTAT" -x, -e instructions -- \
	"$PROGS/insn_loop" "$N1" >out 2>err || rc=$?
expect_rc 0
expect_count "$(csv_field instructions:u 1)" "$o" "-x, instructions as :u"

# Level 3, where the kernel has it: nothing opens, for pstat either.
echo 3 >/proc/sys/kernel/perf_event_paranoid || exit 0
if "$PROGS/run_as" "$uid" "$uid" "$PROGS/hw_count" -p -u 0 1 >probe.out 2>&1; then
	echo "level 3 is 2 in this kernel: $(cat probe.out)"
	exit 0
fi
rm -f ran
rc=0
"$PROGS/run_as" "$uid" "$uid" "$PSTAT" -e instructions -- touch ran \
	>out 2>err || rc=$?
expect_rc 125
[ ! -e ran ] || fail_ "level 3: the command ran"
expect_eq "$(grep -c '^pstat: ' err)" 1 "level 3: 'pstat: ' lines"
expect_in_err 'paranoid' "level 3: the message names the setting"
