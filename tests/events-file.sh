#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -e @FILE: the lines are joined, so a list and a group may go on over
# lines, as the man page says; an error still names its line and column.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

printf '%s\n' '# a group over two lines, then one of its own' \
	'{task-clock,   # the leader' '  page-faults}:u' '' '{' 'cs' '}' \
	'cpu-clock,' >events.txt
run_pstat --explain -e @events.txt
expect_rc 0
expect_eq "$(grep -E '^[^ ].* \(group [0-9]+(, leader|, member)?\)$' out)" \
"task-clock:u (group 0, leader)
page-faults:u (group 0, member)
cs (group 1)
cpu-clock (group 2)" "@events.txt: events and groups"

# expect_file_error FILE LINE REASON CARET-LINE: one message naming the
# line, then the line's events and a caret.
expect_file_error()
{
	expect_refused -e "@$1"
	grep -q "^pstat: $1:$2: $3" err ||
		{ show_err_; fail_ "@$1: no '$1:$2: $3'"; }
	expect_eq "$(sed -n 3p err)" "$4" "@$1: the caret"
}

printf '%s\n' '{task-clock,' '  page-fualts}' >typo.txt
expect_file_error typo.txt 2 "unknown event 'page-fualts'" "          ^"

printf '%s\n' 'page-faults' '{task-clock,' 'cs' >open.txt
expect_file_error open.txt 2 "unclosed '{'" "          ^"

printf '%s\n' '# nothing but a comment' >empty.txt
expect_refused -e @empty.txt
grep -q "^pstat: the event file 'empty.txt' names no events" err ||
	{ show_err_; fail_ "@empty.txt: no message"; }
