#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pstat's own failures exit 125 with a 'pstat: ' line, before the command
# runs (each command here would create ./ran).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# check_usage_error WHAT PSTAT-ARGS...
check_usage_error()
{
	what=$1
	shift
	rm -f ran
	run_pstat "$@" -- touch ran
	expect_rc 125
	grep -q '^pstat: ' err ||
		{ show_err_; fail_ "$what: no 'pstat: ' line"; }
	[ ! -e ran ] || fail_ "$what: the command ran"
}

check_usage_error "unknown event" -e nosuchevent
check_usage_error "unknown event in a list" -e task-clock,nosuchevent
check_usage_error "unclosed group" -e '{task-clock,page-faults'
check_usage_error "bad modifier" -e task-clock:q
check_usage_error "bad option" --bogus
