# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by every hardware test (tests/hw/*.sh, run by tests/hw/run): a
# private temp dir, helpers, and automake's statuses (0 pass, 1 fail,
# 77 skip, 99 broken test). POSIX sh as busybox runs it, and nothing but
# pstat, its workloads (PROGS) and a hardware PMU: no python, no perf.
#
# PSTAT_HW_EXACT=1 says counts are exact (QEMU with -icount shift=0
# -smp 1, where one instruction is one cycle): the tests then assert
# equalities that real hardware only approaches, and use tolerances
# without it. Within one run they are exact: cycles:u is instructions:u,
# r8:u is instructions:u. From run to run, the same command's user
# space retires the same instructions but now and then 2 more (about
# one run in 60 to 300 here: a static program of three instructions
# never varied in 300 runs, the C library's start and exit did once),
# so counts of two runs are equal within exact_slack instructions.

set -u
export LC_ALL=C

skip_() { printf 'SKIP: %s\n' "$*"; exit 77; }
fail_() { printf 'FAIL: %s\n' "$*"; exit 1; }
framework_failure_() { printf 'ERROR: %s\n' "$*"; exit 99; }

[ -x "${PSTAT:-}" ] || framework_failure_ "PSTAT='${PSTAT:-}': not executable"
[ -x "${PROGS:-}/insn_loop" ] ||
	framework_failure_ "PROGS='${PROGS:-}': no insn_loop there (make check-hw builds it)"

tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/pstat-hw.XXXXXX") ||
	framework_failure_ "mktemp -d failed"
running_=
at_exit_=
trap 'for p_ in $running_; do kill "$p_" 2>/dev/null; done
	eval "$at_exit_"; cd / && rm -rf "$tmpdir"' EXIT
trap 'exit 1' HUP INT TERM
# 755 so that the tests that run as another user can work in it.
chmod 755 "$tmpdir" || framework_failure_ "cannot chmod $tmpdir"
cd "$tmpdir" || framework_failure_ "cannot enter $tmpdir"

exact=${PSTAT_HW_EXACT:-0}

# Two loop sizes with as many digits, so that the workload parses them
# in as many instructions: only the loop differs.
# shellcheck disable=SC2034 # for the tests that source this
N1=1000000 N2=3000000
# A loop long enough for the kernel to multiplex and -I to tick many
# times: 0.2 s of QEMU's virtual time, 0.5 s or so on a real CPU.
# shellcheck disable=SC2034 # for the tests that source this
if [ "$exact" = 1 ]; then BIG=100000000; else BIG=1000000000; fi

# if_exact COMMAND...: runs COMMAND where counts are exact.
if_exact() { [ "$exact" != 1 ] || "$@"; }

# at_exit COMMAND: run COMMAND when the test ends, passed or not.
at_exit() { at_exit_="$*; $at_exit_"; }
started() { running_="$running_ $1"; }
waited()
{
	rc=0
	wait "$1" || rc=$?
	running_=$(for p_ in $running_; do [ "$p_" = "$1" ] || echo "$p_"; done)
}

# Every test needs a PMU that counts instructions in user space, probed
# without pstat, and the known loop.
"$PROGS/hw_count" -p -u 0 1 >probe.out 2>&1 ||
	skip_ "no hardware PMU: instructions:u does not open here ($(cat probe.out))"
per_iter=$("$PROGS/insn_loop" -c 2>&1) ||
	skip_ "$per_iter"

require_root()
{
	[ "$(id -u)" = 0 ] || skip_ "needs root"
}

# For tests of events without :u, which count the kernel too: as an
# ordinary user pstat would count them as :u (perm-user tests that).
require_kernel()
{
	"$PROGS/hw_count" -p 0 1 >probe.out 2>&1 ||
		skip_ "instructions (the kernel too) does not open: run as root, or with kernel.perf_event_paranoid at most 1 ($(cat probe.out))"
}

# Runs pstat with stdout in ./out and stderr in ./err; never aborts.
run_pstat()
{
	rc=0
	"$PSTAT" "$@" >out 2>err || rc=$?
}

# Puts pstat's stderr in the test's log, where a failure is diagnosed.
show_err_()
{
	[ -f err ] || return 0
	echo "--- pstat stderr:"
	cat err
	echo "---"
}

expect_rc()
{
	[ "$rc" = "$1" ] || { show_err_; fail_ "exit status $rc, expected $1"; }
}

expect_eq()
{
	[ "$1" = "$2" ] || { show_err_; fail_ "$3: got '$1', expected '$2'"; }
}

# expect_match TEXT PATTERN WHAT: TEXT matches the extended regex.
expect_match()
{
	printf '%s\n' "$1" | grep -Eq -- "$2" ||
		{ show_err_; fail_ "$3: got '$1', expected to match /$2/"; }
}

# expect_in_err PATTERN WHAT: some line of ./err matches (grep -E).
expect_in_err()
{
	grep -Eq -- "$1" err || { show_err_; fail_ "$2: no /$1/ in stderr"; }
}

expect_not_in_err()
{
	! grep -Eq -- "$1" err || { show_err_; fail_ "$2: /$1/ in stderr"; }
}

is_count_() { printf '%s\n' "$1" | grep -Eq '^[0-9]+$'; }

expect_count_value()
{
	is_count_ "$1" || { show_err_; fail_ "$2: got '$1', not a count"; }
}

# expect_near VALUE EXPECTED REL ABS WHAT: |VALUE - EXPECTED| is at
# most ABS or REL times EXPECTED, whichever is larger.
expect_near()
{
	if ! printf '%s\n' "$1" | grep -Eq '^-?[0-9]+(\.[0-9]+)?$' ||
	   ! awk -v v="$1" -v e="$2" -v r="$3" -v a="$4" 'BEGIN {
		d = v - e; if (d < 0) d = -d
		t = r * (e < 0 ? -e : e); if (t < a) t = a
		exit !(d <= t) }'; then
		show_err_
		fail_ "$5: got '$1', expected $2 within $3 (relative) or $4"
	fi
}

# expect_count VALUE EXPECTED WHAT: counts of two runs (or their
# difference) agree: within exact_slack instructions where counts are
# exact, else within 0.1% or 2000 instructions (interrupts, skid).
exact_slack=8
expect_count()
{
	expect_count_value "${1#-}" "$3"
	if [ "$exact" = 1 ]; then
		expect_near "$1" "$2" 0 "$exact_slack" "$3 (exact)"
	else
		expect_near "$1" "$2" 0.001 2000 "$3"
	fi
}

# The row of EVENT in human output (./err): its value with the digit
# groups taken out, or <not counted> / <not supported>. With -A the
# CPU comes first: human_value EVENT CPU.
human_value()
{
	human_line "$1" 1 "${2:-}" | awk '
		$1 ~ /^</ { print $1 " " $2; exit }
		{ gsub(/,/, "", $1); print $1; exit }'
}

# human_line EVENT [NTH [CPU]]: the NTH (1) row of EVENT in human
# output, without the CPU of -A: value, unit (msec) or not, event.
human_line()
{
	awk -v ev="$1" -v n="${2:-1}" -v cpu="${3:-}" '
		cpu != "" { if ($1 != cpu) next; sub(/^[^ ]+/, "") }
		($1 ~ /^</ && $3 == ev) || $2 == ev || ($2 == "msec" && $3 == ev) {
			if (++i == n) { print; exit }
		}' err
}

# The -x, rows that are results, from ./err or, after -o FILE, from
# csv_file=FILE.
csv_file=err
csv_rows()
{
	grep -v -e '^pstat:' -e '^[[:space:]]*$' "$csv_file"
}

# csv_field EVENT N [NTH]: field N of the NTH (1) -x, row of EVENT
# (its third field).
csv_field()
{
	csv_rows | awk -F, -v ev="$1" -v f="$2" -v n="${3:-1}" '
		$3 == ev { if (++i == n) { print $f; exit } }'
}

# The value of EVENT on its -j line (./err): counter-value, as printed.
jsonl_value()
{
	grep -F "\"event\": \"$1\"" err | head -n 1 |
		sed -En 's/.*"counter-value": *("[^"]*"|[^,}]*).*/\1/p' |
		tr -d '"'
}

# pjson_field EVENT KEY [NTH]: KEY of the NTH (1) object of EVENT in
# --format=json output (./err), as printed (strings without quotes).
# Each object is cut out at its '{', whatever the line layout.
pjson_field()
{
	tr '{' '\n' <err | grep -F "\"event\": \"$1\"" |
		sed -n "${3:-1}p" |
		sed -En "s/.*\"$2\": *(\"[^\"]*\"|[^,}]*).*/\1/p" | tr -d '"'
}

# The exact count of instructions:u of insn_loop ARGS, by the oracle
# (hw_count: fork, enable on exec, no pstat).
oracle()
{
	"$PROGS/hw_count" -u 0 1 "$PROGS/insn_loop" "$@"
}

# loop_insns N [K]: what K copies of the loop of N iterations retire.
loop_insns()
{
	echo $((per_iter * $1 * ${2:-1}))
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
# where /proc/PID/wchan says which.
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

# repeat_list EVENT K: EVENT K times, comma-separated.
repeat_list()
{
	i_=1
	l_=$1
	while [ "$i_" -lt "$2" ]; do
		l_="$l_,$1"
		i_=$((i_ + 1))
	done
	echo "$l_"
}

# The largest group of instructions:u that pstat opens here, up to 32
# (a group the PMU can never hold is refused at the open).
largest_group()
{
	k_=1
	while [ "$k_" -lt 32 ]; do
		"$PSTAT" -x, -e "{$(repeat_list instructions:u $((k_ + 1)))}" \
			-- true >/dev/null 2>&1 || break
		k_=$((k_ + 1))
	done
	echo "$k_"
}
