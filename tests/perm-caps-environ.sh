#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A pstat with file capabilities runs in the C library's secure mode,
# which takes LD_LIBRARY_PATH, TMPDIR and others out of its environment;
# the command, run with the user's rights, gets the user's environment
# all the same, exactly as it was given.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_pstat_caps

# What glibc's secure mode removes (its UNSECURE_ENVVARS, in part), a
# variable it keeps, one whose value holds a newline, and an empty one.
set -- LD_LIBRARY_PATH=/nonexistent TMPDIR=/x TZDIR=/tz LOCPATH=/lp \
	NLSPATH=/nls GCONV_PATH=/gc RES_OPTIONS=debug HOSTALIASES=/ha \
	LOCALDOMAIN=ld LD_PRELOAD= MALLOC_ARENA_MAX=1 \
	"TWO_LINES=a
b" EMPTY= PATH=/usr/bin:/bin
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"

# The environment as the command prints it, NUL-separated, and as env
# itself prints it run without pstat.
rc=0
$nobody env -i "$@" ./pstat-caps -x, -e task-clock -- \
	env -0 >out 2>err || rc=$?
expect_rc 0
$nobody env -i "$@" env -0 >want ||
	framework_failure_ "env -0 as nobody"
if ! cmp -s out want; then
	tr '\0' '\n' <out
	show_err_
	fail_ "the command's environment is not the caller's"
fi

# That secure mode took them from pstat: env with the same capability
# loses them (else the C library here has no such mode, and the test
# proves less).
cp "$(command -v env)" ./env-caps || framework_failure_ "cannot copy env"
setcap cap_perfmon+ep ./env-caps || framework_failure_ "setcap env-caps"
$nobody env -i "$@" ./env-caps -0 >stripped ||
	framework_failure_ "env-caps as nobody"
cmp -s stripped want &&
	echo "the C library here keeps the environment in secure mode"
exit 0
