#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Commands that cannot run: 127 when not found, 126 when found but not
# executable, like env(1); pstat names the file.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# check_exec_error EXPECTED FILE
check_exec_error()
{
	run_pstat -e task-clock -- "$2"
	expect_rc "$1"
	grep -q "^pstat: .*${2##*/}" err ||
		{ show_err_; fail_ "$2: no 'pstat: ' line naming it"; }
}

check_exec_error 127 pstat-no-such-command

# A script that would leave a mark if it ran.
printf '#!/bin/sh\ntouch ran\n' >not-executable
chmod 644 not-executable
check_exec_error 126 ./not-executable
[ ! -e ran ] || fail_ "the non-executable file ran"

mkdir a-directory
check_exec_error 126 ./a-directory
