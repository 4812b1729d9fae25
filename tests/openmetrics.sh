#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --format=openmetrics: every exposition pstat writes is one that
# Debian's promtool (the Prometheus text parser and its lint) and a
# strict checker of the OpenMetrics ABNF (tests/openmetrics-check.py)
# both take: totals, -I on a stream, -o FILE replaced whole at each
# interval, -r, every aggregation (-A, --per-core, --per-die,
# --per-socket, --per-node, --per-thread, --per-process, -G), --merge, a
# not-counted and a not-supported event, label values that need
# escapes. Exact counts where the kernel gives them: writer N makes N
# write(2) calls.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_tracefs
command -v promtool >/dev/null 2>&1 ||
	skip_ "no promtool (Debian's prometheus package), which checks the expositions"
command -v python3 >/dev/null 2>&1 ||
	skip_ "no python3, which runs tests/openmetrics-check.py"

ev=syscalls:sys_enter_write
check=$top_srcdir/tests/openmetrics-check.py

# promtool FILE: promtool check metrics takes each exposition of FILE.
# It reads the Prometheus text format (0.0.4), for which '# EOF' and
# '# UNIT' are comments, and an OpenMetrics counter family 'x' with
# samples 'x_total' is an untyped 'x_total' of its own: its lint then
# says 'x_total no help text'. That line, for a family the exposition
# types as a counter, is all it may say; a parse error (status 1)
# never passes.
promtool_()
{
	awk -v p=part. '{ print > (p n) } /^# EOF$/ { close(p n); n++ }' "$1"
	for part in part.*; do
		lint_rc=0
		promtool check metrics <"$part" >lint 2>&1 || lint_rc=$?
		[ "$lint_rc" = 0 ] || [ "$lint_rc" = 3 ] ||
			{ cat lint; fail_ "$1: promtool check metrics: status $lint_rc"; }
		while IFS= read -r line; do
			family=${line%_total no help text}
			[ "$family" != "$line" ] &&
				grep -qxF "# TYPE $family counter" "$part" ||
				{ cat lint; fail_ "$1: promtool check metrics: $line"; }
		done <lint
		rm -f "$part"
	done
}

# valid FILE [--stream]: both checkers take FILE.
valid()
{
	if [ "${2:-}" = --stream ]; then
		python3 "$check" --stream "$1" || { cat "$1"; fail_ "$1: not OpenMetrics"; }
	else
		python3 "$check" "$1" || { cat "$1"; fail_ "$1: not OpenMetrics"; }
	fi
	promtool_ "$1"
}

# sample FILE NAME: the value of the sample NAME (name and labels),
# taken as it is (awk -v would read its backslashes as escapes).
sample()
{
	NAME_=$2 awk 'BEGIN { s = ENVIRON["NAME_"] }
		substr($0, 1, length(s) + 1) == s " " {
		print substr($0, length(s) + 2) }' "$1"
}

expect_sample()
{
	expect_eq "$(sample "$1" "$2")" "$3" "$1: $2"
}

# Totals to stderr: exact counts, a not-supported event with no sample
# but its gauges, the run's facts, # EOF last; nothing else there.
run_pstat --format=openmetrics -e "$ev,cycles,page-faults" -- \
	"$PROGS/writer" 1000
expect_rc 0
cp err totals.om
valid totals.om
expect_sample totals.om "pstat_event_total{event=\"$ev\",unit=\"\"}" 1000
expect_sample totals.om "pstat_event_counted{event=\"$ev\",unit=\"\"}" 1
expect_sample totals.om "pstat_event_running_ratio{event=\"$ev\",unit=\"\"}" 1
expect_eq "$(grep -c '^pstat_event_total{event="cycles"' totals.om)" 0 \
	"no count of a not-supported event"
expect_sample totals.om 'pstat_event_supported{event="cycles",unit=""}' 0
expect_sample totals.om 'pstat_event_counted{event="cycles",unit=""}' 0
expect_sample totals.om 'pstat_exit_status' 0
expect_sample totals.om 'pstat_runs' 1
expect_sample totals.om 'pstat_interrupted' 0
expect_eq "$(tail -n 1 totals.om)" "# EOF" "the last line"
expect_eq "$(grep -c '^# TYPE pstat_event counter$' totals.om)" 1 \
	"one counter family"
grep -q '^# UNIT pstat_elapsed_seconds seconds$' totals.om ||
	fail_ "no # UNIT of pstat_elapsed_seconds"
grep -vq '^pstat\|^#' totals.om && fail_ "stderr holds more than the exposition"
expect_eq "$(wc -c <out)" 0 "the command's stdout"

# A clock and its metrics: msec, and perf's rates always per second.
run_pstat --format=openmetrics -e task-clock,"$ev" -- "$PROGS/writer" 10
expect_rc 0
cp err clock.om
valid clock.om
expect_number "$(sample clock.om 'pstat_event_total{event="task-clock",unit="msec"}')" \
	"task-clock in msec"
grep -q "^pstat_metric{event=\"$ev\",metric=\"/sec\",unit=\"/sec\"} " clock.om ||
	{ cat clock.om; fail_ "no rate of $ev per second"; }

# Not counted: -D outlives the command. Known to be there, no count.
run_pstat --format=openmetrics -D 86400000 -e page-faults -- true
expect_rc 0
cp err notcounted.om
valid notcounted.om
expect_eq "$(grep -c '^pstat_event_total' notcounted.om)" 0 \
	"no count of a not-counted event"
expect_sample notcounted.om 'pstat_event_supported{event="page-faults",unit=""}' 1
expect_sample notcounted.om 'pstat_event_counted{event="page-faults",unit=""}' 0

# Label values that need escapes: backslash, double quote, newline in
# the command; bytes that are not UTF-8 become U+FFFD. The same event
# twice is told apart.
nl='
'
run_pstat --format=openmetrics -e "$ev,$ev" -- sh -c 'exit 3' \
	"a\"b\\c${nl}d" "$(printf 'x\377y')"
expect_rc 3
cp err escapes.om
valid escapes.om
grep -qF 'pstat_run_info{command="sh -c exit 3 a\"b\\c\nd x'"$(printf '\357\277\275')"'y",' escapes.om ||
	{ cat escapes.om; fail_ "the command's label, escaped"; }
expect_sample escapes.om 'pstat_exit_status' 3
expect_sample escapes.om "pstat_event_total{event=\"$ev\",occurrence=\"2\",unit=\"\"}" 0
# A thread named with a quote and a backslash (its comm: the file's name).
prog='w"r\i'
cp "$PROGS/writer" "./$prog"
run_pstat --format=openmetrics --per-thread -e "$ev" -- "./$prog" 7
expect_rc 0
cp err thread.om
valid thread.om
want='pstat_event_total{event="syscalls:sys_enter_write",unit="",thread="w\"r\\i-'
expect_eq "$(grep -cF "$want" thread.om)" 1 "--per-thread: the escaped label"
expect_eq "$(grep -F "$want" thread.om | sed 's/.* //')" 7 "--per-thread: the count"

# -r: each run's count under its run label, their mean and spread.
run_pstat --format=openmetrics -r 2 -e "$ev" -- "$PROGS/writer" 100
expect_rc 0
cp err repeat.om
valid repeat.om
expect_sample repeat.om "pstat_event_total{event=\"$ev\",unit=\"\",run=\"1\"}" 100
expect_sample repeat.om "pstat_event_total{event=\"$ev\",unit=\"\",run=\"2\"}" 100
expect_sample repeat.om "pstat_event_mean{event=\"$ev\",unit=\"\"}" 100
expect_sample repeat.om "pstat_event_stddev{event=\"$ev\",unit=\"\"}" 0
expect_sample repeat.om 'pstat_runs' 2

# -I on a stream: an exposition per interval, then the totals'; each
# counter runs on from the run's start, never back, to the total.
run_pstat --format=openmetrics -I 100 -e "$ev" -- \
	sh -c "'$PROGS/writer' 500; sleep 0.3; '$PROGS/writer' 500"
expect_rc 0
cp err stream.om
valid stream.om --stream
expect_eq "$(grep -c '^# EOF$' stream.om)" \
	"$(($(grep -c '^pstat_time_seconds ' stream.om) + 1))" \
	"an exposition per interval, and the totals'"
sample stream.om "pstat_event_total{event=\"$ev\",unit=\"\"}" >counts
awk 'NR > 1 && $1 < last { bad = 1 } { last = $1 } END { exit bad }' counts ||
	{ cat counts; fail_ "-I: a counter went back"; }
expect_eq "$(tail -n 1 counts)" 1000 "-I: the totals' count"

# -o FILE with -I: replaced whole at each interval, never written in
# place. The command reads it while pstat runs, and holds the first
# exposition it saw open until a later one has replaced it: what it
# holds must not have changed. No FILE.tmp is left.
run_pstat --format=openmetrics -I 100 -o live.om -e "$ev" -- sh -c "
	wait_for() {
		i=0
		until eval \"\$1\"; do
			i=\$((i + 1)); [ \$i -lt 1200 ] || exit 9; sleep 0.1
		done
	}
	'$PROGS/writer' 10
	wait_for '[ -s live.om ]'
	exec 4<live.om 5</proc/self/fd/4
	cat <&4 >snap.om
	'$PROGS/writer' 5
	wait_for '! cmp -s live.om snap.om'
	cat <&5 >held.om"
expect_rc 0
valid snap.om
valid live.om
grep -q '^pstat_time_seconds ' snap.om || fail_ "-o: the interval's exposition"
cmp -s snap.om held.om ||
	{ diff snap.om held.om; fail_ "-o: the file was written in place"; }
expect_sample live.om "pstat_event_total{event=\"$ev\",unit=\"\"}" 15
expect_sample live.om 'pstat_exit_status' 0
[ ! -e live.om.tmp ] || fail_ "-o: live.om.tmp left behind"
[ -z "$(cat err)" ] || { show_err_; fail_ "-o: something on stderr"; }

# Through a pipe (-o /dev/stdout), or a symbolic link: written in place.
{ rc=0; "$PSTAT" --format=openmetrics -o /dev/stdout -e task-clock,"$ev" \
	-- "$PROGS/writer" 10 2>err || rc=$?; echo "$rc" >rc; } | cat >piped.om
rc=$(cat rc)
expect_rc 0
valid piped.om
: >target.om
ln -s target.om link.om
run_pstat --format=openmetrics -o link.om -e "$ev" -- "$PROGS/writer" 2
expect_rc 0
[ -L link.om ] || fail_ "-o: a symbolic link was replaced"
expect_sample target.om "pstat_event_total{event=\"$ev\",unit=\"\"}" 2
# A command that fails to start: pstat says so, and no file is made.
run_pstat --format=openmetrics -o gone.om -e "$ev" -- ./no-such-command
expect_rc 127
[ ! -e gone.om ] && [ ! -e gone.om.tmp ] ||
	fail_ "a command not found left gone.om or gone.om.tmp"

# Refused before anything runs: --append; no directory.
expect_refused_saying "--append does not go with --format=openmetrics" \
	--format=openmetrics -o x.om --append
expect_refused_saying "its directory does not exist" \
	--format=openmetrics -o no/such/dir.om
# FILE.tmp is never opened through a symbolic link (one another user
# may have left in a shared directory, naming a file of yours).
echo mine >victim
ln -s victim trap.om.tmp
expect_refused_saying "cannot write to 'trap.om.tmp'" \
	--format=openmetrics -o trap.om
expect_eq "$(cat victim)" mine "the file FILE.tmp's link names"

# --merge of two ranks' files (rank 1 of 3 missing): each rank's count
# labelled, the job's facts.
for r in 0 2; do
	PSTAT_RANK=$r PSTAT_SIZE=3 PSTAT_JOB_ID=j7 "$PSTAT" --format=csv \
		-o "rank.%r.csv" -e "$ev,cycles" -- "$PROGS/writer" $((r + 5)) \
		2>err || { show_err_; fail_ "rank $r"; }
done
rc=0
"$PSTAT" --merge --format=openmetrics rank.0.csv rank.2.csv >merged.om 2>err ||
	rc=$?
expect_rc 0
valid merged.om
expect_sample merged.om "pstat_event_total{event=\"$ev\",unit=\"\",rank=\"0\"}" 5
expect_sample merged.om "pstat_event_total{event=\"$ev\",unit=\"\",rank=\"2\"}" 7
expect_sample merged.om 'pstat_event_supported{event="cycles",unit="",rank="2"}' 0
expect_sample merged.om "pstat_event_ranks_counted{event=\"$ev\",unit=\"\"}" 2
expect_sample merged.om 'pstat_exit_status{rank="2"}' 0
expect_sample merged.om 'pstat_ranks' 3
expect_sample merged.om 'pstat_ranks_missing' 1
grep -q '^pstat_run_info{.*,job_id="j7"} 1$' merged.om ||
	{ cat merged.om; fail_ "--merge: the job's id"; }

# Every aggregation this machine has, on all CPUs.
for agg in -A --per-core --per-die --per-socket --per-node; do
	run_pstat --format=openmetrics -a "$agg" -e task-clock,page-faults \
		-- true
	expect_rc 0
	cp err "agg$agg.om"
	valid "agg$agg.om"
	case $agg in
	-A) label=cpu ;;
	*) label=${agg#--per-} ;;
	esac
	grep -Eq "^pstat_event_total\{event=\"page-faults\",unit=\"\",$label=\"[^\"]+\"\} [0-9]+\$" "agg$agg.om" ||
		{ cat "agg$agg.om"; fail_ "$agg: no $label label"; }
done
run_pstat --format=openmetrics --per-process -e "$ev" -- \
	sh -c "'$PROGS/writer' 3 & '$PROGS/writer' 4; wait"
expect_rc 0
cp err process.om
valid process.om
expect_eq "$(grep "^pstat_event_total{event=\"$ev\",unit=\"\",process=\"writer-[0-9]*\"} " process.om |
	awk '{ s += $2 } END { print s }')" 7 "--per-process: the writers' counts"

# -G: a cgroup named with a quote and a backslash (cgroup.sh's probe).
root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; exit }' \
	/proc/self/mounts)
[ -n "$root" ] || root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
cg="pstat-test-$$-\"q\\b"
if [ -n "$root" ] && mkdir "$root/$cg" 2>/dev/null; then
	at_exit "rmdir '$root/$cg'"
	run_pstat --format=openmetrics -a -e "$ev" -G "$cg" -- \
		sh -c "echo \$\$ >'$root/$cg/cgroup.procs' && exec '$PROGS/writer' 1000"
	expect_rc 0
	cp err cgroup.om
	valid cgroup.om
	expect_sample cgroup.om "pstat_event_total{event=\"$ev\",unit=\"\",cgroup=\"pstat-test-$$-\\\"q\\\\b\"}" 1000
else
	echo "no cgroup to make here: -G left out"
fi
# --regions: each region's rows in the run's families, labelled region,
# then each region's entries, time inside and state.
rc=0
"$PSTAT" --regions --format=openmetrics -o regions.om -e "$ev" -- \
	"$PROGS/regions" marks 2>err || rc=$?
expect_rc 0
valid regions.om
for want in 'pstat_event_total{event="syscalls:sys_enter_write",unit=""} 334' \
	'pstat_event_total{event="syscalls:sys_enter_write",unit="",region="a"} 300' \
	'pstat_event_total{event="syscalls:sys_enter_write",unit="",region="i"} 10' \
	'pstat_event_counted{event="syscalls:sys_enter_write",unit="",region="never"} 0' \
	'pstat_region_entries{region="a"} 3' 'pstat_region_open{region="left"} 1' \
	'pstat_region_unmatched_ends{region="never"} 1'; do
	grep -qxF "$want" regions.om || { cat regions.om; fail_ "--regions: no '$want'"; }
done
exit 0
