#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --per-thread and --per-process with a command: a row for each task it
# made, ended ones too, with their exact writes (perf record -s and
# perf report -T agree); records lost to a small ring buffer are said,
# and the totals stay exact; what the mode refuses; and a run without
# it maps no ring buffer.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs

ev=syscalls:sys_enter_write
tasks=$PROGS/tasks

# The values of the rows of ./err (-x,), in their order; their labels.
values() { csv_rows | awk -F, '{ print $2 }' | tr '\n' ' '; }
labels() { csv_rows | awk -F, '{ print $1 }'; }
sorted() { csv_rows | awk -F, 'NR > 1 { print $2 }' | sort -n | tr '\n' ' '; }
total() { csv_rows | awk -F, '{ s += $2 } END { print s }'; }

# Each row is comm-tid, of the command's name, and no tid twice.
check_labels()
{
	bad=$(labels | grep -cv '^tasks-[0-9][0-9]*$')
	expect_eq "$bad" 0 "$1: labels that are not tasks-TID"
	expect_eq "$(labels | sort | uniq -d | wc -l)" 0 "$1: a label twice"
}

# Three threads writing 100, 200 and 300 times; the command's own 50.
run_pstat --per-thread -x, -e "$ev" -- "$tasks" threads
expect_rc 0
expect_eq "$(csv_rows | wc -l)" 4 "--per-thread threads: rows"
expect_eq "$(csv_rows | head -n 1 | cut -d, -f2)" 50 \
	"--per-thread threads: the command's own row"
expect_eq "$(sorted)" "100 200 300 " "--per-thread threads: the threads"
expect_eq "$(total)" 650 "--per-thread threads: the total"
check_labels "--per-thread threads"
first=$(labels | head -n 1)
expect_eq "${first#tasks-}" "$(labels | sed 's/.*-//' | sort -n | head -n 1)" \
	"--per-thread threads: the command (the lowest tid) first"

# Three children, the first ended before the others began; the third
# writes 100 and its thread 200: a row each, summed per process.
run_pstat --per-thread -x, -e "$ev" -- "$tasks" forks
expect_rc 0
expect_eq "$(values)" "50 100 200 100 200 " "--per-thread forks"
check_labels "--per-thread forks"
run_pstat --per-process -x, -e "$ev" -- "$tasks" forks
expect_rc 0
expect_eq "$(values)" "50 100 200 300 " "--per-process forks"
check_labels "--per-process forks"

# Human output: the same rows, comm-tid first, as -p --per-thread has;
# then the spread over the threads: min, max, mean and max / mean - 1.
run_pstat --per-thread -e "$ev" -- "$tasks" threads
expect_rc 0
expect_eq "$(grep -c "^ *tasks-[0-9]* *[0-9,]* *$ev" err)" 4 \
	"--per-thread human: a row per task"
grep -q '^ *min  *max  *mean  *imbalance  (over the threads)$' err ||
	{ show_err_; fail_ "--per-thread human: no spread's titles"; }
expect_eq "$(grep "$ev (4 threads)$" err | awk '{ print $1, $2, $3, $4 }')" \
	"50 300 162.50 84.62%" "--per-thread human: the spread"

# pstat's own formats: spread records (keys), and what the records told.
run_pstat --per-process --format=csv -e "$ev" -- "$tasks" forks
expect_rc 0
expect_eq "$(grep "^spread,,[a-z]*,4,$ev," err | cut -d, -f3,6 | tr '\n' ' ')" \
	"min,50.000000 max,300.000000 mean,162.500000 imbalance,0.846154 " \
	"--per-process --format=csv: the spread"
grep -qx 'tasks,,,,per,process,*' err ||
	{ show_err_; fail_ "--format=csv: no tasks record 'per'"; }
grep -qx 'tasks,,,,lost_records,0,*' err ||
	{ show_err_; fail_ "--format=csv: no tasks record 'lost_records'"; }
expect_eq "$(awk -F, '{ print NF }' err | sort -u)" 26 \
	"--format=csv: fields of every record"
run_pstat --per-thread --format=json -e "$ev" -- "$tasks" threads
expect_rc 0
python3 - err <<'PY' || { show_err_; fail_ "--format=json: spread or tasks"; }
import json, sys
d = json.load(open(sys.argv[1]))
s = d["spread"][0]
assert (s["min"], s["max"], s["mean"], s["n"], s["over"]) == \
	(50, 300, 162.5, 4, "threads"), s
assert abs(s["imbalance"] - 300 / 162.5 + 1) < 1e-9, s
assert d["tasks"] == {"per": "thread", "lost_records": 0,
		      "buffer_filled": False, "unended": 0}, d["tasks"]
assert sorted(e["value"] for e in d["events"]) == [50, 100, 200, 300]
PY

# More exits than a one-page buffer holds, pstat stopped meanwhile: the
# loss is said, the rows of the tasks whose records came are exact, and
# the totals too (the rest is in the command's row).
PSTAT_RING_PAGES=1 run_pstat --per-thread -x, -o rows -e "$ev" -- \
	"$tasks" exits 300 stop
expect_rc 0
grep -q -e "^pstat: note: .* of the command.s tasks did not fit" \
	-e "^pstat: note: pstat.s ring buffer filled up" err ||
	{ show_err_; fail_ "lost records: no note"; }
mv rows err
expect_eq "$(total)" 350 "lost records: the total"
expect_eq "$(csv_rows | awk -F, 'NR > 1 && $2 != 1' | wc -l)" 0 \
	"lost records: a thread's row that is not its one write"
[ "$(csv_rows | head -n 1 | cut -d, -f2)" -gt 50 ] ||
	{ show_err_; fail_ "lost records: the command's row lacks their counts"; }

PSTAT_RING_PAGES=1 run_pstat --per-thread --format=csv -o rows -e "$ev" -- \
	"$tasks" exits 300 stop
expect_rc 0
grep -q -e '^tasks,,,,lost_records,[1-9]' -e '^tasks,,,,buffer_filled,true' \
	rows || { cat rows; fail_ "lost records: --format=csv says nothing"; }
expect_eq "$(awk -F, '$1 == "total" { s += $6 } END { print s }' rows)" 350 \
	"lost records: --format=csv's total"

# A child still running when the command ends: its counts so far are in
# the command's row, and a note says so (the child's 10 writes and one to
# say so, the command's pid on stdout and its 50).
run_pstat --per-thread -x, -o rows -e "$ev" -- "$tasks" daemon
daemon=$(cat out)
[ -n "$daemon" ] && kill "$daemon"
expect_rc 0
grep -q "^pstat: note: 1 task of the command had not ended" err ||
	{ show_err_; fail_ "a child left running: no note"; }
mv rows err
expect_eq "$(values)" "62 " "a child left running: the command's row"

# Only what asks for it maps a ring buffer: -vv shows each open.
run_pstat -vv -e "$ev" -- true
expect_rc 0
grep -q -e inherit_stat -e 'config  *0x9$' err &&
	{ show_err_; fail_ "without --per-thread: a dummy or inherit_stat"; }
run_pstat -vv --per-thread -e "$ev" -- true
grep -q 'inherit_stat  *1' err ||
	{ show_err_; fail_ "--per-thread: no inherit_stat"; }

# A user: under perf_event_paranoid 2 the ring buffer's dummies leave
# the kernel out, as the counters do (:u). Past what the kernel lets a
# user lock (no RLIMIT_MEMLOCK, a 4 MiB buffer): one line that says so.
if [ "$(id -u)" = 0 ] && [ "$(cat /proc/sys/kernel/perf_event_mlock_kb)" -lt 4096 ]
then
	# Copies in the test's folder, which nobody may enter: the tree
	# may lie where nobody may not.
	cp "$PSTAT" ./pstat-nobody && cp "$tasks" ./tasks-nobody ||
		framework_failure_ "cannot copy pstat and tasks"
	run_nobody ./pstat-nobody --per-process -x, -e task-clock -- \
		./tasks-nobody forks
	expect_rc 0
	expect_eq "$(csv_rows | wc -l)" 4 "--per-process as nobody: rows"
	PSTAT_RING_PAGES=1024 run_nobody sh -c 'ulimit -l 0 &&
		exec "$0" --per-thread -e task-clock -- true' ./pstat-nobody
	expect_rc 125
	expect_eq "$(grep -c '^pstat: ' err)" 1 "a buffer too large: lines"
	grep -q '^pstat: cannot map the ring buffer .*PSTAT_RING_PAGES' err ||
		{ show_err_; fail_ "a buffer too large: the message"; }
fi

# What it refuses, before running anything.
expect_refused_saying "drop -I and -r" --per-thread -I 100 -e "$ev"
expect_refused_saying "drop -I and -r" --per-process -r 2 -e "$ev"
expect_refused_saying "drop -i" --per-thread -i -e "$ev"
expect_refused_saying "drop -p, -t, -a and -C" --per-process -a -e "$ev"
expect_refused_saying "choose one of" --per-process --per-core -e "$ev"

# perf as the oracle: perf record -s samples every write with its task
# (a tracepoint's period is 1), so perf script's writes per task (-F tid)
# or process (-F pid) are exact. perf report -T's table, from the same
# PERF_RECORD_READs, may lack a thread: perf's counters are all
# inherited, so the kernel may swap the command's context with a
# thread's, whose record then never comes; every row it has must agree.
command -v perf >/dev/null || skip_ "perf is not installed"
all() { csv_rows | awk -F, '{ print $2 }' | sort -n | tr '\n' ' '; }
oracle()
{
	perf record -q -s -e "$ev" -c 1000000 -o perf.data -- "$tasks" "$1" \
		>/dev/null 2>perf.err ||
		skip_ "perf record cannot record here: $(head -n 1 perf.err)"
	perf script -i perf.data -F "$2" 2>/dev/null | sort | uniq -c |
		awk '{ print $1 }' | sort -n | tr '\n' ' ' >script
	perf report -T -i perf.data --stdio 2>/dev/null |
		awk '/PID +TID/ { on = 1; next }
		     on && NF == 3 && $1 != $2 { print $3 }' >table
	[ -s script ] || skip_ "perf script gives no samples here"
}
oracle threads tid
run_pstat --per-thread -x, -e "$ev" -- "$tasks" threads
expect_eq "$(all)" "$(cat script)" "--per-thread against perf script"
while read -r n; do
	all | grep -qw "$n" || fail_ "perf report -T has a thread of $n, pstat none"
done <table
oracle forks pid
run_pstat --per-process -x, -e "$ev" -- "$tasks" forks
expect_eq "$(all)" "$(cat script)" "--per-process against perf script"
exit 0
