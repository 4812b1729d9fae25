#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# perf stat's everyday options (issue 14): --all-user and --all-kernel
# (exact tracepoint counts, against perf where it runs), -q, -v and -vv
# (never in machine output), --json-output and --scale, -S.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs
require_tracepoints sched/sched_process_fork

# writer 100 forks 3: 100 writes in each of 3 children, 3 forks made in
# kernel mode. A syscall tracepoint carries the task's user registers,
# so it counts in both modes; sched_process_fork counts in the kernel.
ev=syscalls:sys_enter_write,sched:sched_process_fork
run_pstat --all-user -x, -e $ev -- "$PROGS/writer" 100 forks 3
expect_rc 0
expect_eq "$(csv_value syscalls:sys_enter_write)" 300 "--all-user: writes"
expect_eq "$(csv_value sched:sched_process_fork)" 0 "--all-user: forks"
run_pstat --all-kernel -x, -e $ev -- "$PROGS/writer" 100 forks 3
expect_rc 0
expect_eq "$(csv_value syscalls:sys_enter_write)" 300 "--all-kernel: writes"
expect_eq "$(csv_value sched:sched_process_fork)" 3 "--all-kernel: forks"
# Over the event's own modifiers, as perf: :u with --all-kernel counts
# the kernel.
run_pstat --all-kernel -x, -e sched:sched_process_fork:u -- \
	"$PROGS/writer" 1 forks 2
expect_rc 0
expect_eq "$(csv_value sched:sched_process_fork:u)" 2 "--all-kernel over :u"

# The attr: exclude_kernel, or exclude_user, and nothing else changed.
"$PSTAT" --all-user --explain -e task-clock:k >out 2>err ||
	{ show_err_; fail_ "--all-user --explain failed"; }
grep -q 'exclude_kernel  *1' out && ! grep -q exclude_user out ||
	{ cat out; fail_ "--all-user: not exclude_kernel alone"; }
"$PSTAT" --all-kernel --explain -e task-clock >out 2>err ||
	{ show_err_; fail_ "--all-kernel --explain failed"; }
grep -q 'exclude_user  *1' out && ! grep -q exclude_kernel out ||
	{ cat out; fail_ "--all-kernel: not exclude_user alone"; }

# perf, where it runs, gives the same counts.
if command -v perf >/dev/null 2>&1 &&
   perf stat -x, -e task-clock -- true >/dev/null 2>&1; then
	for mode in --all-user --all-kernel; do
		perf stat $mode -x, -e $ev -- "$PROGS/writer" 100 forks 3 \
			2>perf.csv >/dev/null ||
			fail_ "perf stat $mode failed"
		run_pstat $mode -x, -e $ev -- "$PROGS/writer" 100 forks 3
		expect_rc 0
		want=$(awk -F, '/^[0-9]/ { printf "%s:%s ", $3, $1 }' perf.csv)
		got=$(csv_rows | awk -F, '{ printf "%s:%s ", $3, $1 }')
		expect_eq "$got" "$want" "$mode against perf"
	done
fi

# -q: the results, no note (cycles is <not supported> without a PMU,
# and a killed command has a notice); the exit status still says.
run_pstat -q -e task-clock,cycles -- sh -c 'kill -9 $$'
expect_rc 137
grep -q '^pstat:' err && { show_err_; fail_ "-q: a pstat: line"; }
grep -q 'task-clock' err || { show_err_; fail_ "-q: no results"; }
run_pstat --quiet -x, -e task-clock -- true
expect_rc 0
expect_eq "$(grep -c . err)" 1 "--quiet -x,: lines"
# Errors are still said.
run_pstat -q -e nosuch -- true
expect_rc 125
grep -q '^pstat: ' err || { show_err_; fail_ "-q: the error is not said"; }

# -v: each event's open and its counts; the reason of <not supported>.
run_pstat -v -e task-clock,syscalls:sys_enter_write -- "$PROGS/writer" 7
expect_rc 0
grep -q '^pstat: task-clock: opened: type 1, config 0x1, on 1 target$' err ||
	{ show_err_; fail_ "-v: no open line for task-clock"; }
grep -q '^pstat: syscalls:sys_enter_write: 7 counted, [0-9]* ns enabled, [0-9]* ns running$' err ||
	{ show_err_; fail_ "-v: no count line for the writes"; }
grep -q 'perf_event_attr' err && { show_err_; fail_ "-v: attrs shown"; }
if ! have_hw_pmu; then
	run_pstat -v -e cycles -- true
	expect_rc 0
	grep -q '^pstat: cycles: <not supported>: perf_event_open gave E[A-Z]* (' err ||
		{ show_err_; fail_ "-v: no reason for <not supported>"; }
fi
# The fallback to :u, for a user whose kernel part the kernel refuses.
get_paranoid
if [ "$(id -u)" = 0 ] && [ "$paranoid" -ge 2 ]; then
	run_nobody "$PSTAT" -v -e task-clock,context-switches -- true
	expect_rc 0
	grep -q '^pstat: task-clock:u: fallback: the kernel refused its kernel part (EACCES, kernel.perf_event_paranoid=[0-9]*), so it counts user space only$' err ||
		{ show_err_; fail_ "-v: no fallback line"; }
	grep -q '^pstat: context-switches:u: <not counted>: it was counted as :u' err ||
		{ show_err_; fail_ "-v: no reason for <not counted>"; }
fi
# -vv: each perf_event_open, its attr and its result.
run_pstat -vv -e task-clock -- true
expect_rc 0
grep -q '^pstat: perf_event_attr:$' err &&
	grep -q '^pstat:   config  *0x1$' err &&
	grep -Eq '^pstat: perf_event_open: pid [0-9]+ cpu -1 group_fd -1 flags 0x8 = [0-9]+$' err ||
	{ show_err_; fail_ "-vv: no attr and open trace"; }
# Never into machine output on stderr; with -o, on stderr beside it.
run_pstat -vv -x, -e task-clock -- true
expect_rc 0
grep -q '^pstat:' err && { show_err_; fail_ "-vv -x,: pstat: lines"; }
run_pstat -vv -j -o res.json -e task-clock -- true
expect_rc 0
grep -q '^pstat: perf_event_open' err ||
	{ show_err_; fail_ "-vv -o: no trace on stderr"; }
grep -q pstat res.json && { cat res.json; fail_ "-vv -o: trace in the file"; }

# perf's long spellings.
run_pstat --json-output -e task-clock -- true
expect_rc 0
grep -q '"event" *: *"task-clock"' err ||
	{ show_err_; fail_ "--json-output: not -j"; }
run_pstat --no-scale --scale -x, -e task-clock -- true
expect_rc 0
expect_eq "$(csv_events ,)" task-clock "--scale"

# -S: a sync before the run; the run is the same.
run_pstat -S -x, -e syscalls:sys_enter_write -- "$PROGS/writer" 5
expect_rc 0
expect_eq "$(csv_value syscalls:sys_enter_write)" 5 "-S: writes"
exit 0
