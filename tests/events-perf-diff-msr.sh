#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# events-perf-diff.sh for the msr PMU's specs, where there is one.

perf_diff_set=msr
# shellcheck source=tests/events-perf-diff.sh
. "${top_srcdir:?}/tests/events-perf-diff.sh"
