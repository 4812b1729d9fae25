#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pstat's own failures exit 125 with a 'pstat: ' line, before the command
# runs (each command here would create ./ran).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# Each is refused before the command runs.
expect_refused -e nosuchevent
expect_refused -e task-clock,nosuchevent
expect_refused -e '{task-clock,page-faults'
expect_refused -e task-clock:q
expect_refused --bogus
