#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGINT, SIGTERM and SIGHUP sent to pstat at random moments of many
# short runs: pstat exits 128+N, leaves no process behind (the reaper
# would name it), and whenever the command got the signal, its results
# are complete. A signal that comes before pstat watches for it ends
# pstat like any program, before any command starts, with no output.
# The moments come from a seed, printed; FAULT_SEED=N repeats a run.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

seed=${FAULT_SEED:-11}
runs=60
echo "seed $seed, $runs runs (FAULT_SEED=$seed repeats them)"

# A line a run: the signal and its number, when it is sent (at pstat's
# start, by the reaper; early, as the shell can; once the command
# started; later), and a delay: us at the start, ms else.
awk -v seed="$seed" -v runs="$runs" 'BEGIN {
	srand(seed)
	split("INT 2 TERM 15 HUP 1", sig)
	split("start early started later", when)
	for (i = 0; i < runs; i++) {
		s = int(rand() * 3) * 2 + 1
		w = when[int(rand() * 4) + 1]
		print sig[s], sig[s + 1], w,
		      int(rand() * (w == "start" ? 3000 : 30))
	}
}' >plan

# wait_file WHAT FILE: until FILE is not empty, looking every 10 ms
# (wait_until's 100 ms would make this test ten seconds long).
wait_file()
{
	tries=0
	until [ -s "$2" ]; do
		[ "$tries" -lt 12000 ] || fail_ "$1: no $2 after 2 minutes"
		sleep 0.01
		tries=$((tries + 1))
	done
}

# The -x row of each event, its value a number: the whole results.
results_complete()
{
	[ "$(wc -l <err)" = 2 ] &&
		[ "$(csv_events ,)" = "task-clock page-faults" ] &&
		is_number_ "$(csv_value task-clock)" &&
		is_number_ "$(csv_value page-faults)"
}

n=0
while read -r sig signo when delay; do
	n=$((n + 1))
	what="run $n: SIG$sig $when $delay"
	rm -f pstat.pid cmd.pid out err
	kill_at=
	[ "$when" != start ] || kill_at="-k $signo,$delay"
	# shellcheck disable=SC2016,SC2086 # $$ is the command's; -k two words
	"$PROGS/reaper" $kill_at pstat.pid "$PSTAT" -x, \
		-e task-clock,page-faults -- \
		sh -c 'echo $$ >cmd.pid && exec sleep 5' </dev/null >out 2>err &
	reaper=$!
	started "$reaper"
	wait_file "$what" pstat.pid
	pstat=$(cat pstat.pid)
	case $when in
	early) sleep "0.0$((delay / 3))" ;;
	started) wait_file "$what" cmd.pid ;;
	later)
		wait_file "$what" cmd.pid
		sleep "0.0$delay" ;;
	esac
	[ "$when" = start ] || kill -s "$sig" "$pstat"
	waited "$reaper"
	! grep -q '^reaper:' err || { show_err_; fail_ "$what: a process left"; }
	want=$((128 + signo))
	[ "$rc" = "$want" ] ||
		{ show_err_; fail_ "$what: status $rc, not $want"; }
	if [ -s cmd.pid ]; then
		# The command ran, so pstat passed the signal on.
		cmd=$(cat cmd.pid)
		! grep -q sleep "/proc/$cmd/cmdline" 2>/dev/null ||
			fail_ "$what: the command $cmd is still running"
	fi
	if [ -s err ] || [ -s cmd.pid ]; then
		results_complete ||
			{ show_err_; fail_ "$what: incomplete results"; }
	fi
	echo "$sig $when: $([ -s err ] && echo results || echo "none")" >>seen
done <plan
# The moments varied enough to see both ends of pstat's life.
sort seen | uniq -c
grep -q ': results$' seen || fail_ "no run got as far as its results"
