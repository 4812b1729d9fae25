#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# libpfm4 is loaded and started only when an event needs it: a command
# line of perf's own names never pays for it (its debug output stays
# silent, and a dynamic pstat has it not in its memory map).
# With file capabilities, pstat ignores the caller's LIBPFM_* variables
# (libpfm4 reads them with plain getenv), and the command still gets them.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
run_pstat -V
grep -q '^libpfm4: built in' out || skip_ "pstat is built without libpfm4"

LIBPFM_VERBOSE=1 LIBPFM_DEBUG=1
export LIBPFM_VERBOSE LIBPFM_DEBUG

# Started for a vendor name: libpfm4 says so on stderr (the control).
LIBPFM_FORCE_PMU=skl run_pstat --explain -e inst_retired.any_p
expect_rc 0
grep -q '^pfmlib' err ||
	{ show_err_; fail_ "libpfm4's debug output is not on stderr"; }

# Not started for names pstat knows itself, in any form and format.
for events in task-clock 'task-clock:u,{page-faults,cs}' r00c0:u; do
	for format in -B -x, -j; do
		run_pstat "$format" -e "$events" -- true
		expect_rc 0
		if grep -q 'pfmlib' err; then
			show_err_
			fail_ "$format -e $events started libpfm4"
		fi
	done
done

# Nor, in a dynamic pstat, is it even loaded (its 40,000 relocations
# and 2 MiB of tables): the command reads pstat's memory map, its
# parent's. A static pstat has it linked, with nothing to relocate.
run_pstat -e task-clock -- sh -c 'cat /proc/$PPID/maps'
expect_rc 0
grep -q 'libpfm' out && fail_ "libpfm is mapped for -e task-clock"
if grep -q 'libc\.so' out; then
	LIBPFM_FORCE_PMU=skl run_pstat -e inst_retired.any_p,task-clock -- \
		sh -c 'cat /proc/$PPID/maps'
	expect_rc 0
	grep -q 'libpfm\.so' out ||
		fail_ "libpfm is not mapped for inst_retired.any_p"
fi

# With file capabilities, LIBPFM_* from the caller steer nothing.
require_pstat_caps
chmod 755 . || framework_failure_ "chmod the temp dir"
run_nobody env -u LIBPFM_VERBOSE -u LIBPFM_DEBUG ./pstat-caps -V
expect_rc 0
mv out plain.out
run_nobody env LIBPFM_FORCE_PMU=skl ./pstat-caps -V
expect_rc 0
grep -q pfmlib err && { show_err_; fail_ "LIBPFM_VERBOSE steered libpfm4 under file capabilities"; }
cmp -s out plain.out ||
	fail_ "LIBPFM_FORCE_PMU steered libpfm4 under file capabilities: $(cat out)"
# The control: the same pstat without capabilities takes them.
cp "$PSTAT" ./pstat-plain || framework_failure_ "cannot copy pstat"
run_nobody env LIBPFM_FORCE_PMU=skl ./pstat-plain -V
grep -qx 'libpfm4: built in, detects skl (Intel Skylake)' out &&
	grep -q pfmlib err ||
	{ show_err_; fail_ "LIBPFM_* do not steer a pstat without capabilities: $(cat out)"; }
# The command gets them all the same.
run_nobody env LIBPFM_FORCE_PMU=skl ./pstat-caps -e task-clock -- \
	sh -c 'echo "$LIBPFM_FORCE_PMU"'
expect_rc 0
expect_eq "$(cat out)" skl "the command's LIBPFM_FORCE_PMU"
exit 0
