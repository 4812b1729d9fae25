# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by every shell test: a private temp dir, helpers, and the rules
# of automake's harness (0 pass, 1 fail, 77 skip, 99 broken test).

set -u
export LC_ALL=C

# A test starts with every signal at its default, whatever its caller
# ignored ('nohup make check', say): exec(2) passes ignored signals on,
# and the signal tests would see the caller's, not their own.
if [ -z "${PSTAT_TEST_SIGDFL:-}" ] && env --default-signal true 2>/dev/null
then
	PSTAT_TEST_SIGDFL=1 exec env --default-signal /bin/sh "$0" "$@"
fi

skip_() { printf 'SKIP: %s\n' "$*"; exit 77; }
fail_() { printf 'FAIL: %s\n' "$*"; exit 1; }
framework_failure_() { printf 'ERROR: %s\n' "$*"; exit 99; }

# The Makefile exports these; a test run by hand must set them too.
[ -x "${PSTAT:-}" ] || framework_failure_ "PSTAT='${PSTAT:-}': not executable"
[ -d "${PROGS:-}" ] || framework_failure_ "PROGS='${PROGS:-}': not a directory"
[ -d "${top_srcdir:-}" ] || framework_failure_ "top_srcdir: not a directory"

# The JSON Schemas hook: every JSON document of pstat's that a test
# leaves is valid by its schema in schema/, or the test fails (if
# python3-jsonschema is missing, it is an ERROR that says so). It runs
# when the test ends (json_check_), on the files in the test's folder,
# and on copies of the documents that later runs wrote over: ./out and
# ./err after run_pstat, run_nobody, with_faults, expect_rc and waited,
# and the -o FILE of the first three (keep_json copies them). What is
# pstat's is told by content (tests/json-schema.py says how): a test's
# own documents, written by hand to be refused, are named with
# not_pstat_json; a test that writes over pstat's JSON in a file of
# another name calls keep_json FILE first, and one that reads it from a
# pipe or with $(...) writes it to a file, so that it is validated.
json_n_=0
json_not_=

# not_pstat_json FILE...: FILE is a test's own input, not pstat's output:
# the schema hook leaves it alone.
not_pstat_json()
{
	for f_; do
		case $f_ in
		/*) json_not_="$json_not_ --not $f_" ;;
		*) json_not_="$json_not_ --not $PWD/$f_" ;;
		esac
	done
}

# keep_json FILE...: a copy of each FILE that may be a JSON document
# (it starts with '{'), for json_check_, which validates each content
# once. Only the shell's read for the others: human output costs no
# process.
keep_json()
{
	for f_; do
		[ -f "$f_" ] || continue
		[ -s "$f_" ] || continue
		l_=
		IFS= read -r l_ <"$f_"
		case $l_ in
		'{'*) ;;
		*) continue ;;
		esac
		[ -d "$json_dir_" ] || mkdir "$json_dir_" ||
			framework_failure_ "cannot make $json_dir_"
		json_n_=$((json_n_ + 1))
		cp "$f_" "$json_dir_/$json_n_=${f_##*/}" ||
			framework_failure_ "cannot copy $f_ to $json_dir_"
	done
}

# keep_json_output_ ARGS...: keep_json of the -o FILE in pstat's ARGS
# (a -o template with %r is left to json_check_'s look at the folder).
keep_json_output_()
{
	o_=
	while [ $# -gt 0 ]; do
		case $1 in
		--) break ;;
		-o|--output) o_=${2:-} ;;
		--output=*) o_=${1#--output=} ;;
		-o*) o_=${1#-o} ;;
		esac
		shift
	done
	case $o_ in
	''|/dev/*|*%*) ;;
	*) keep_json "$o_" ;;
	esac
}

# At exit: the test's JSON documents, validated in one python3 run, and
# only if one of its files starts a line with '{'. An invalid document
# fails a test that passed or skipped; the hook's own failure is an
# ERROR (99). Debian's python3, where python3-jsonschema is.
json_check_()
{
	grep -rqI -D skip '^{' "$tmpdir" "$json_dir_" 2>/dev/null || return 0
	json_rc_=0
	# shellcheck disable=SC2086 # --not PATH words, without blanks
	"${PSTAT_TEST_PYTHON:-/usr/bin/python3}" \
		"$top_srcdir/tests/json-schema.py" "$top_srcdir/schema" \
		$json_not_ "$tmpdir" "$json_dir_" || json_rc_=$?
	case $json_rc_ in
	0) ;;
	1)
		echo "FAIL: a JSON document of pstat's is not valid by its schema (above)"
		[ "$rc_" = 0 ] || [ "$rc_" = 77 ] && rc_=1
		;;
	*)
		echo "ERROR: the JSON Schemas hook failed (status $json_rc_)"
		rc_=99
		;;
	esac
}

# 755 so tests that drop privileges can still work in it.
tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/pstat-test.XXXXXX") ||
	framework_failure_ "mktemp -d failed"
json_dir_=$tmpdir.json
# At exit: the processes a test started and did not wait for are sent
# TERM, then the commands it added with at_exit run, the last first.
running_=
at_exit_=
trap 'rc_=$?
	for p_ in $running_; do kill "$p_" 2>/dev/null; done
	eval "$at_exit_"; json_check_; cd / && rm -rf "$tmpdir" "$json_dir_"
	exit "$rc_"' EXIT
# A signal must still run the EXIT trap, and dash only does so via exit.
trap 'exit 1' HUP INT TERM
chmod 755 "$tmpdir" || framework_failure_ "cannot chmod $tmpdir"
cd "$tmpdir" || framework_failure_ "cannot enter $tmpdir"

require_root()
{
	[ "$(id -u)" = 0 ] || skip_ "needs root"
}

require_perf_events()
{
	[ -e /proc/sys/kernel/perf_event_paranoid ] ||
		skip_ "no perf events in this kernel (no perf_event_paranoid)"
}

# at_exit COMMAND: run COMMAND when the test ends, passed or not.
at_exit()
{
	at_exit_="$*; $at_exit_"
}

# started PID: the test started PID with &, and waits for it with waited
# (or it is sent TERM at exit). Only a pid not yet waited for is killed:
# never one the kernel may have given to another process since.
started()
{
	running_="$running_ $1"
}

# waited PID: waits for PID, its status in rc.
waited()
{
	rc=0
	wait "$1" || rc=$?
	running_=$(for p_ in $running_; do [ "$p_" = "$1" ] || echo "$p_"; done)
	keep_json out err
}

# Succeeds when hardware counters can be counted here, as a probe that
# does not use pstat finds (probe_pmu opens instructions on itself).
have_hw_pmu()
{
	[ -d /sys/bus/event_source/devices/cpu ] && return 0
	"$PROGS/probe_pmu" hardware >/dev/null
}

require_hw_pmu()
{
	have_hw_pmu || skip_ "no hardware PMU visible (VM without a vPMU?)"
}

# probe_ WHAT PROBE ARGS...: runs $PROGS/PROBE, a program that tries a
# feature without pstat: 0 it works, 3 or 4 it is missing and the test
# skips with the reason the probe printed, anything else a broken test.
probe_()
{
	what=$1
	probe=$2
	shift 2
	probe_rc=0
	probe_out=$("$PROGS/$probe" "$@" 2>&1) || probe_rc=$?
	case $probe_rc in
	0) ;;
	3|4) skip_ "$what: $probe_out" ;;
	*) framework_failure_ "probe $probe $*: status $probe_rc: $probe_out" ;;
	esac
}

# For tests that assert a breakpoint's count: some hosts open data
# breakpoints that never fire (perf's read 0 there too).
require_breakpoints()
{
	probe_ "data breakpoints do not count here" probe_bp
}

# For tests that count msr/tsc/.
require_msr()
{
	probe_ "msr/tsc/ does not count here" probe_pmu msr
}

# require_pmu NAME: the PMU is in sysfs, for tests of what pstat makes of
# it (its events, terms and the kernel's refusals) without counting.
require_pmu()
{
	[ -d "/sys/bus/event_source/devices/$1" ] ||
		skip_ "no $1 PMU here (/sys/bus/event_source/devices/$1)"
}

# require_tracepoints SYSTEM/EVENT...: their ids can be read, in a
# tracefs mounted where pstat looks.
require_tracepoints()
{
	tracefs=/sys/kernel/tracing
	awk -v d="$tracefs" '$2 == d && $3 == "tracefs" { found = 1 }
		END { exit !found }' /proc/self/mounts ||
		skip_ "tracefs is not mounted at $tracefs" \
		      "(as root: mount -t tracefs nodev $tracefs; .ci/run does)"
	for tp; do
		[ -r "$tracefs/events/$tp/id" ] && continue
		[ -r "$tracefs/events" ] ||
			skip_ "$tracefs/events is not readable (not root?)"
		skip_ "no tracepoint ${tp%%/*}:${tp#*/} here ($tracefs/events/$tp/id)"
	done
}

# The syscall tracepoints, which count exactly.
require_tracefs()
{
	require_tracepoints syscalls/sys_enter_write
}

# pstat_asan: whether $PSTAT is built with AddressSanitizer.
pstat_asan()
{
	nm "$PSTAT" 2>/dev/null | grep -q '__asan_init'
}

# pstat_valgrind: whether $PSTAT is the wrapper running it under
# valgrind (make check-valgrind), whose own system calls strace sees.
pstat_valgrind()
{
	[ "$PSTAT" != "${PSTAT%valgrind-pstat}" ]
}

# strace_sees_pstat WHAT: whether strace can watch pstat's own system
# calls; if not, says why WHAT is not checked, and the test goes on.
strace_sees_pstat()
{
	if ! command -v strace >/dev/null 2>&1; then
		echo "strace not found: $1 not checked"
		return 1
	fi
	if pstat_valgrind; then
		echo "pstat runs under valgrind, which strace cannot see through: $1 not checked"
		return 1
	fi
}

# require_pstat_caps: ./pstat-caps, a copy of pstat with cap_perfmon in
# its file capabilities, for nobody (setpriv) to run: root, setpriv and
# setcap (put on PATH from sbin) are needed, and a file system that
# keeps the capability and honours it (not nosuid).
require_pstat_caps()
{
	require_root
	command -v setpriv >/dev/null 2>&1 || skip_ "no setpriv (util-linux)"
	PATH=$PATH:/usr/sbin:/sbin
	command -v setcap >/dev/null 2>&1 || skip_ "no setcap (libcap2-bin)"
	cp "$PSTAT" ./pstat-caps || framework_failure_ "cannot copy pstat"
	setcap cap_perfmon+ep ./pstat-caps 2>/dev/null ||
		skip_ "cannot set file capabilities here (no xattrs?)"
	if findmnt -n -o OPTIONS -T . 2>/dev/null | grep -qw nosuid; then
		skip_ "the temp dir is on a nosuid mount: file capabilities do nothing"
	fi
}

# require_fault_shim: $fault_shim is the fault tests' LD_PRELOAD shim
# (tests/progs/fault_shim.c, whose comment says what it does), and
# pstat takes it: not when built with AddressSanitizer, whose runtime
# must be loaded first and has its own malloc. A static pstat takes no
# shim: then $PSTAT is its twin linked dynamically, the same objects.
require_fault_shim()
{
	fault_shim=$PROGS/fault_shim.so
	[ -r "$fault_shim" ] ||
		framework_failure_ "no $fault_shim: 'make check' builds it"
	if [ -x "$PROGS/pstat-dynamic" ]; then
		PSTAT=$PROGS/pstat-dynamic
	fi
	! pstat_asan ||
		skip_ "pstat is built with AddressSanitizer: no LD_PRELOAD shim"
	rm -f shim-report
	LD_PRELOAD=$fault_shim FAULT_REPORT=$PWD/shim-report \
		"$PSTAT" --version >/dev/null 2>&1 ||
		framework_failure_ "pstat --version fails with $fault_shim"
	# Else the shim would touch the command pstat runs, not pstat.
	[ -s shim-report ] ||
		framework_failure_ "$PSTAT does not load $fault_shim (static?)"
}

# with_faults VAR=VALUE... -- ARGS...: run_pstat ARGS with the shim and
# the faults VAR=VALUE asks for (FAULT_ALLOC=K, ...), what it did in
# ./report. Under the reaper: a process pstat leaves behind is killed,
# named in ./err ("reaper: orphan PID COMM"), and rc is 3.
with_faults()
{
	fault_env_=
	while [ "$1" != -- ]; do
		fault_env_="$fault_env_ $1"
		shift
	done
	shift
	rc=0
	: >report
	# shellcheck disable=SC2086 # VAR=VALUE words without blanks
	"$PROGS/reaper" pstat.pid env $fault_env_ LD_PRELOAD="$fault_shim" \
		FAULT_REPORT="$PWD/report" "$PSTAT" "$@" >out 2>err || rc=$?
	keep_json out err
	keep_json_output_ "$@"
}

# fault_report NAME: what the shim counted of NAME in the last run.
fault_report()
{
	awk -v n="$1" '$1 == n { print $2 }' report
}

# wait_until WHAT COMMAND...: runs COMMAND until it succeeds. The bound
# only ends a hang: however slow the machine, WHAT is waited for.
wait_until()
{
	what=$1
	shift
	tries_=0
	until "$@"; do
		[ "$tries_" -lt 1200 ] || fail_ "$what: not after 2 minutes: hung?"
		sleep 0.1
		tries_=$((tries_ + 1))
	done
}

# sleeping_in PID GLOB: PID sleeps, in a kernel function matching GLOB
# where /proc/PID/wchan says which (*poll*: pstat waits for what comes).
sleeping_in()
{
	[ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = S ] ||
		return 1
	wchan=$(cat "/proc/$1/wchan" 2>/dev/null)
	# shellcheck disable=SC2254 # GLOB is a pattern on purpose
	case $wchan in
	''|0|$2) return 0 ;;
	esac
	return 1
}

# paranoid_lock_ -s|-x: the tests that set kernel.perf_event_paranoid,
# of this suite or of any other running on the machine, hold this lock
# alone, and those that read it share it, until they end. Without flock,
# or as a user who cannot make the file, readers go without.
paranoid_lock_()
{
	lock=/tmp/pstat-tests-paranoid.lock
	command -v flock >/dev/null 2>&1 || return 0
	touch "$lock" 2>/dev/null
	if [ -r "$lock" ]; then
		# A failed exec would end the shell: -r said it will not fail.
		exec 9<"$lock"
		flock "$1" 9 && return 0
	fi
	[ "$1" = -s ] && return 0
	framework_failure_ "cannot lock $lock"
}

# set_paranoid LEVEL: kernel.perf_event_paranoid is LEVEL until the test
# ends, then what it was (as root).
set_paranoid()
{
	paranoid_lock_ -x
	paranoid_old_=$(cat /proc/sys/kernel/perf_event_paranoid)
	paranoid=$1
	[ "$paranoid_old_" = "$1" ] && return 0
	# shellcheck disable=SC2016 # expanded at exit
	at_exit 'echo "$paranoid_old_" >/proc/sys/kernel/perf_event_paranoid'
	echo "$1" >/proc/sys/kernel/perf_event_paranoid ||
		skip_ "cannot set perf_event_paranoid to $1"
}

# get_paranoid: $paranoid is the level, which no test changes until this
# one ends (for tests that assert what it allows).
get_paranoid()
{
	paranoid_lock_ -s
	# shellcheck disable=SC2034 # for the test that calls this
	paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
}

# run_nobody COMMAND...: as nobody, output in ./out and ./err, status in rc.
run_nobody()
{
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@" \
		>out 2>err || rc=$?
	keep_json out err
	keep_json_output_ "$@"
}

# Runs pstat with stdout in ./out and stderr in ./err; never aborts.
run_pstat()
{
	rc=0
	"$PSTAT" "$@" >out 2>err || rc=$?
	keep_json out err
	keep_json_output_ "$@"
}

# The rows of ./err that are results: not blank, not pstat's own notes.
csv_rows()
{
	grep -v -e '^pstat:' -e '^[[:space:]]*$' err
}

# The event column of the rows, space-separated, for -x SEP (default ,).
csv_events()
{
	csv_rows | awk -F"${1:-,}" '{ s = s (NR > 1 ? " " : "") $3 }
		END { print s }'
}

# The value column of the -x, row for EVENT (the third field), first match.
csv_value()
{
	csv_rows | awk -F, -v ev="$1" '$3 == ev { print $1; exit }'
}

expect_eq()
{
	[ "$1" = "$2" ] || { show_err_; fail_ "$3: got '$1', expected '$2'"; }
}

# Numbers may be decimals (task-clock), so awk compares them.
expect_ge()
{
	if ! is_number_ "$1" ||
	   ! awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; then
		show_err_
		fail_ "$3: got '$1', expected >= $2"
	fi
}

# A plain number, as -x prints it: no thousands separators, no units.
is_number_()
{
	printf '%s\n' "$1" | grep -Eq '^[0-9]+(\.[0-9]+)?$'
}

expect_number()
{
	is_number_ "$1" || { show_err_; fail_ "$2: got '$1', not a number"; }
}

# expect_refused ARGS...: "pstat ARGS -- touch ran" is refused before it
# runs anything: status 125 and exactly one "pstat: " line (in ./err).
expect_refused()
{
	rm -f ran
	run_pstat "$@" -- touch ran
	n=$(grep -c '^pstat: ' err)
	if [ "$rc" != 125 ] || [ "$n" != 1 ] || [ -e ran ]; then
		show_err_
		fail_ "'$*': status $rc, $n 'pstat: ' lines, ran: \
$([ -e ran ] && echo yes || echo no); want 125, one line, not run"
	fi
}

# expect_refused_saying TEXT ARGS...: expect_refused ARGS, and the
# pstat: line says TEXT (a grep pattern).
expect_refused_saying()
{
	text=$1
	shift
	expect_refused "$@"
	grep -q "^pstat: .*$text" err ||
		{ show_err_; fail_ "'$*': no '$text' in the message"; }
}

# expect_refusal WHAT TEXT...: the command just run (run_nobody, say)
# was refused: status 125, ./ran not made, one 'pstat: ' line, which
# holds WHAT and each TEXT.
expect_refusal()
{
	expect_rc 125
	[ ! -e ran ] || { show_err_; fail_ "$1: the command ran"; }
	expect_eq "$(grep -c '^pstat: ' err)" 1 "$1: 'pstat: ' lines"
	for want in "$@"; do
		grep '^pstat: ' err | grep -qF -- "$want" ||
			{ show_err_; fail_ "$1: no '$want' in the message"; }
	done
}

expect_rc()
{
	keep_json out err
	[ "$rc" = "$1" ] || { show_err_; fail_ "exit status $rc, expected $1"; }
}

# Puts pstat's stderr in the test's log, where a failure is diagnosed.
show_err_()
{
	[ -f err ] || return 0
	echo "--- pstat stderr:"
	cat err
	echo "---"
}
