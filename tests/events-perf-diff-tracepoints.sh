#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# events-perf-diff.sh for the syscall tracepoints' specs, where tracefs has them.

perf_diff_set=tracepoints
# shellcheck source=tests/events-perf-diff.sh
. "${top_srcdir:?}/tests/events-perf-diff.sh"
