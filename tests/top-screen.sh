#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pstat top's screen, driven in tmux on an 80x24 terminal: the table of
# three workers (400 writes a second first), '>' sorting it by PID, a
# resize, and the terminal as it was (stty's settings, the table gone
# with curses' screen) after q and after SIGTERM; without a terminal,
# one 'pstat: ' line and 125.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs

run_pstat top -n 1 -d 0.01 -e task-clock </dev/null
grep -q 'built without ncurses' err &&
	skip_ "pstat is built without ncurses: no screen to test"
expect_rc 125
expect_eq "$(grep -c '^pstat: .*needs a terminal.*add -b' err)" 1 \
	"pstat top without a terminal"
[ ! -s out ] || fail_ "pstat top without a terminal wrote: $(cat out)"
command -v tmux >/dev/null 2>&1 || skip_ "tmux is needed to drive the screen"

ev=syscalls:sys_enter_write
# A server of this test's own, whatever else runs tmux here.
sock=pstat-test-$$
at_exit "tmux -L $sock kill-server 2>/dev/null"
tm() { tmux -L "$sock" "$@"; }
pane() { tm capture-pane -p -t top >pane; }
# shown TEXT: the pane shows a line holding TEXT (grep -E).
shown() { pane && grep -Eq -- "$1" pane; }
# row N: the Nth row of the table, its PID.
row() { awk '$2 == "ticker" { if (++n == '"$1"') print $1 }' pane; }

"$PROGS/ticker" 100 >/dev/null & p1=$!; started $p1
"$PROGS/ticker" 200 >/dev/null & p2=$!; started $p2
"$PROGS/ticker" 400 >/dev/null & p3=$!; started $p3
tm -f /dev/null new-session -d -s top -x 80 -y 24 sh ||
	framework_failure_ "tmux cannot start a session"
tm set-option -g window-size manual 2>/dev/null

# run LINE: type LINE into the pane's shell, with the terminal's
# settings before and after, and pstat's status.
run()
{
	tm send-keys -t top "clear; stty -g >st1; $1; echo rc=\$?; stty -g >st2; cmp -s st1 st2 && echo same-stty; echo end-of-run" Enter
}

run "'$PSTAT' top -d 0.5 -e $ev -p $p1,$p2,$p3"
wait_until "the table" shown "^ *$p1 ticker "
wait_until "three rows" test "$(row 3)" != ""
expect_eq "$(row 1) $(row 2) $(row 3)" "$p3 $p2 $p1" "sorted by $ev"
grep -q "q quit  h help  < > sort: $ev" pane ||
	{ cat pane; fail_ "no line of the keys"; }
tm send-keys -t top '>'
wait_until "sorted by PID" shown "sort: PID "
expect_eq "$(row 1) $(row 2) $(row 3)" \
	"$(printf '%s\n' "$p1" "$p2" "$p3" | sort -n | tr '\n' ' ' | sed 's/ $//')" \
	"'>': sorted by PID"
tm send-keys -t top 'h'
wait_until "the help" shown "^  q +quit"
tm send-keys -t top 'h'
wait_until "the table again" shown "^ *$p1 ticker "
tm resize-window -t top -x 100 -y 30
wait_until "the table on 30 lines" \
	eval 'pane && [ "$(wc -l <pane)" = 30 ] && tail -n 1 pane | grep -q "q quit"'
tm send-keys -t top 'q'
wait_until "the shell after q" shown "^end-of-run$"
grep -q '^rc=0$' pane || { cat pane; fail_ "the exit status after q"; }
grep -q '^same-stty$' pane || { cat pane; fail_ "the terminal's settings after q"; }
grep -q "ticker" pane && { cat pane; fail_ "the table stays after q"; }

run "sh -c 'echo \$\$ >pid; exec \"\$0\" top -d 0.5 -e $ev -p $p1' '$PSTAT'"
wait_until "the table" shown "^ *$p1 ticker "
kill -TERM "$(cat pid)"
wait_until "the shell after SIGTERM" shown "^end-of-run$"
grep -q '^rc=143$' pane ||
	{ cat pane; fail_ "the exit status after SIGTERM: not 128 + 15"; }
grep -q '^same-stty$' pane ||
	{ cat pane; fail_ "the terminal's settings after SIGTERM"; }
grep -q "ticker" pane && { cat pane; fail_ "the table stays after SIGTERM"; }
exit 0
