#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -x SEP: an event name holding the separator is quoted, RFC 4180 style,
# and a double quote in it doubled: msr/tsc/ under -x/, and a name= with
# a quote.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_msr

run_pstat -x/ -e msr/tsc/ -- true
expect_rc 0
csv_rows | grep -Eqx '[0-9]+//"msr/tsc/"/[0-9]+/100\.00//' ||
	{ show_err_; fail_ "-x/ did not quote msr/tsc/"; }
run_pstat -x, -e 'msr/tsc,name=a"b/' -- true
expect_rc 0
csv_rows | grep -Eqx '[0-9]+,,"a""b",[0-9]+,100\.00,,' ||
	{ show_err_; fail_ "-x, did not quote a name with a quote"; }
