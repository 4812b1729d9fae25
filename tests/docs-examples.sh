#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every example of the README, doc/*.md and the man page, pasted into
# bash, is one pstat takes: its options and events parse (checked with
# --explain, which opens nothing), or it fails as the document shows.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

command -v bash >/dev/null 2>&1 || skip_ "bash is needed: the examples are for it"
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to find the examples"
# The examples name syscall tracepoints and msr/tsc/.
require_tracefs
[ -d /sys/bus/event_source/devices/msr ] ||
	skip_ "no msr PMU here, which an example counts"

python3 "$top_srcdir/tests/doc-examples.py" "$top_srcdir/README.md" \
	"$top_srcdir"/doc/*.md "$top_srcdir/man/pstat.1" >examples ||
	framework_failure_ "cannot list the examples"

# Vendor names are libpfm4's: the examples' are Skylake-X's, whatever
# this CPU; a pstat built without libpfm4 refuses them, saying so.
LIBPFM_FORCE_PMU=skx
export LIBPFM_FORCE_PMU
"$PSTAT" -V | grep -q '^libpfm4: built in' && pfm=yes || pfm=no
# So are the metric tables' examples, from the tables make copied; a
# pstat configured without them has none to list.
PERF_CPUID=GenuineIntel-6-55-4
PSTAT_PMU_EVENTS=${PMU_EVENTS:-}
export PERF_CPUID PSTAT_PMU_EVENTS

tab=$(printf '\t')
while IFS=$tab read -r status cmd; do
	case $cmd in
	pstat\ * | LIBPFM_FORCE_PMU=*) ;;
	*" pstat "*) cmd="pstat ${cmd#* pstat }" ;;	# under a launcher
	*) continue ;;	# not pstat's: scripts/bench, say
	esac
	# As bash would run it, pstat being ours, with --explain added
	# (and an event, for --explain wants one).
	args=$(printf '%s\n' "$cmd" | sed -e 's/ *|.*//' -e 's/ [0-9]*>[^ ]*//g' \
		-e 's/^LIBPFM_FORCE_PMU=skx //' -e 's/^pstat //')
	# pstat compare runs its commands: where each is here (ls, not
	# ./new/prog), the example runs for real, its output dropped.
	case $args in
	compare\ *" ::: "*)
		rc=0
		bash -c 'eval "set -- $1"
			for w; do case $w in --) f=1 ;; :::) f=1 ;;
			*) [ -z "${f:-}" ] || { command -v "$w" >/dev/null || exit 3; f=; } ;;
			esac; done
			exec "$PSTAT" "$@" >/dev/null' _ "$args" 2>err || rc=$?
		[ "$rc" = 3 ] && continue
		[ "$rc" = "$status" ] ||
			{ show_err_; fail_ "exit status $rc, not $status: $cmd"; }
		continue ;;
	compare\ *) continue ;;	# it reads saved results
	# pstat top counts for real: one short interval of it, printed.
	top\ *)
		rc=0
		bash -c 'eval "set -- $1"; exec "$PSTAT" "$@" -b -n 1 -d 0.01' \
			_ "$args" >/dev/null 2>err || rc=$?
		[ "$rc" = "$status" ] ||
			{ show_err_; fail_ "exit status $rc, not $status: $cmd"; }
		continue ;;
	esac
	case " $args " in
	*" --merge "*) continue ;;	# it reads the files of a job
	*" --list metric"*) [ -n "$PSTAT_PMU_EVENTS" ] || continue ;;
	# A model's events need its core PMU, which this machine may lack.
	*" -M "* | *" --topdown"*)
		[ -n "$PSTAT_PMU_EVENTS" ] &&
			[ -d /sys/bus/event_source/devices/cpu ] || continue ;;
	*" -e "*) ;;
	*) args="-e task-clock $args" ;;
	esac
	rc=0
	bash -c 'eval "set -- $1"; exec "$PSTAT" --explain "$@"' _ "$args" \
		>out 2>err || rc=$?
	[ "$pfm" = no ] && [ "$rc" = 125 ] &&
		grep -q -e 'built without libpfm4' -e 'libpfm4, which' err &&
		continue
	[ "$rc" = "$status" ] ||
		{ show_err_; fail_ "exit status $rc, not $status: $cmd"; }
done <examples
