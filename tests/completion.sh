#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The bash completion (completion/pstat), driven as bash drives it: the
# line split into COMP_WORDS at blanks, ':' and '=' (a run of those one
# word, as bash makes ':::'), COMP_CWORD, COMP_LINE
# and COMP_POINT set, the function called, COMPREPLY read. With the
# bash-completion package, as an installed pstat completes.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

command -v bash >/dev/null 2>&1 || skip_ "bash is needed: the completion is for it"
bc=/usr/share/bash-completion/bash_completion
[ -r "$bc" ] || skip_ "no $bc: install the Debian package bash-completion"

# The driver: comp LINE prints what completing the end of LINE offers,
# a reply a line, sorted.
cat >driver.bash <<'DRIVER'
. "$1"
. "$2"
comp()
{
	local line=$1 w ws
	local -a COMP_WORDS=()

	read -ra ws <<<"$line"
	[[ $line == *' ' ]] && ws+=("")
	for w in "${ws[@]}"; do
		while [[ $w =~ ^([^:=]*)([:=]+)(.*)$ ]]; do
			[ -n "${BASH_REMATCH[1]}" ] &&
				COMP_WORDS+=("${BASH_REMATCH[1]}")
			COMP_WORDS+=("${BASH_REMATCH[2]}")
			w=${BASH_REMATCH[3]}
		done
		[[ -n $w || ${#COMP_WORDS[@]} -eq 0 ||
		   ! ${COMP_WORDS[-1]} =~ ^[:=]+$ ]] && COMP_WORDS+=("$w")
	done
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	_pstat pstat "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}" | sort
}
shift 2
comp "$*"
DRIVER

# complete LINE: its replies in out.
complete()
{
	bash driver.bash "$bc" "$top_srcdir/completion/pstat" "$*" >out 2>err ||
		fail_ "completing '$*' failed: $(cat err)"
	[ ! -s err ] || fail_ "completing '$*' said: $(cat err)"
}

# offers LINE REPLY...: completing LINE offers each REPLY.
offers()
{
	line=$1
	shift
	complete "$line"
	for reply; do
		grep -qxF -e "$reply" out ||
			fail_ "completing '$line' does not offer '$reply': $(cat out)"
	done
}

# only LINE REPLY...: completing LINE offers these and nothing else.
only()
{
	line=$1
	shift
	complete "$line"
	printf '%s\n' "$@" | sort >want
	cmp -s out want ||
		fail_ "completing '$line' offers '$(cat out)', not '$(cat want)'"
}

# Every option of --help, long and short, as pstat shows it there;
# each long one taking an argument with its '='.
"$PSTAT" --help >help || fail_ "pstat --help failed"
grep -E '^(  |      )-' help | sed -e 's/^ *//' -e 's/  .*//' -e 's/, /\n/g' |
	sed -e 's/ .*//' -e 's/=.*/=/' | sort >options
[ "$(wc -l <options)" -gt 20 ] || framework_failure_ "few options in --help: $(cat options)"
complete "$PSTAT -"
cmp -s out options ||
	fail_ "'pstat -' does not offer --help's options: $(diff options out)"
only "$PSTAT --form" --format=
only "$PSTAT --no-m" --no-merge

# pstat compare: its own options (compare --help's), its word beside the
# commands, and each command after -- or ::: completed as a command.
"$PSTAT" compare --help >chelp || fail_ "pstat compare --help failed"
grep -E '^(  |      )-' chelp | sed -e 's/^ *//' -e 's/  .*//' -e 's/, /\n/g' |
	sed -e 's/ .*//' -e 's/=.*/=/' | sort >coptions
complete "$PSTAT compare -"
cmp -s out coptions ||
	fail_ "'pstat compare -' does not offer its --help's options: $(diff coptions out)"
offers "$PSTAT compare -" --fail-on= --warmup= --ignore-failure -i
grep -qx -e --per-thread out && fail_ "'pstat compare -' offers --per-thread"
offers "$PSTAT comp" compare
only "$PSTAT compare --fail" --fail-on=
only "$PSTAT compare -e task-cl" task-clock
offers "$PSTAT compare -r 5 -- bas" bash
offers "$PSTAT compare -- true ::: bas" bash
offers "$PSTAT compare true ::: bas" bash

# pstat top: its own options (top --help's), its word beside the
# commands, its --format, --sort's columns and --user's users; no
# command after it.
"$PSTAT" top --help >thelp || fail_ "pstat top --help failed"
grep -E '^(  |      )-' thelp | sed -e 's/^ *//' -e 's/  .*//' -e 's/, /\n/g' |
	sed -e 's/ .*//' -e 's/=.*/=/' | sort >toptions
complete "$PSTAT top -"
cmp -s out toptions ||
	fail_ "'pstat top -' does not offer its --help's options: $(diff toptions out)"
offers "$PSTAT top -" --sort= --batch -b --user= -u
grep -qx -e --repeat= out && fail_ "'pstat top -' offers --repeat="
offers "$PSTAT t" top
only "$PSTAT top --format=" json
only "$PSTAT top -b --sort=P" PID
only "$PSTAT top -b --sort C" COMM
only "$PSTAT top -u roo" root
only "$PSTAT top -e task-cl" task-clock
complete "$PSTAT top -b -- bas"
[ -z "$(tr -d '\n' <out)" ] ||
	fail_ "'pstat top -- bas' offers a command: $(cat out)"
for c in PID COMM; do
	"$PSTAT" top -b -n 1 -d 0.01 -e task-clock -p $$ --sort=$c >/dev/null ||
		fail_ "the completion offers --sort=$c, which pstat top refuses"
done

# --format's values, each one pstat takes.
only "$PSTAT --format=" csv json openmetrics
only "$PSTAT --format=j" json
only "$PSTAT --format j" json
only "$PSTAT --format o" openmetrics
only "$PSTAT compare --format=" csv json
for f in csv json openmetrics; do
	"$PSTAT" --format=$f --explain -e task-clock >/dev/null 2>&1 ||
		fail_ "the completion offers --format=$f, which pstat refuses"
done

# Events, from pstat --list: alone, after a comma, in a group, after
# letters clustered with -e, and as --event='s value.
only "$PSTAT -e task-cl" task-clock
only "$PSTAT -e cs,page-f" cs,page-faults
only "$PSTAT -e {cs,task-cl" '{cs,task-clock'
only "$PSTAT -de task-cl" task-clock
only "$PSTAT --event=task-cl" task-clock
only "$PSTAT --event task-cl" task-clock
offers "$PSTAT -e cycl" cycles
# -M: perf's metrics and groups for the CPU PERF_CPUID names, in a
# comma list, as pstat lists them.
if [ -n "${PMU_EVENTS:-}" ]; then
	export PERF_CPUID=GenuineIntel-6-55-4
	only "$PSTAT -M tma_info_inst_mix_ipb" tma_info_inst_mix_ipbranch
	only "$PSTAT --metrics=TopdownL1,tma_info_inst_mix_ipb" \
		TopdownL1,tma_info_inst_mix_ipbranch
	offers "$PSTAT -M Topdown" TopdownL1 TopdownL2
	unset PERF_CPUID
fi
# Tracepoints, where bash replaces only what follows the colon.
if "$PSTAT" --list 'syscalls:sys_enter_write' | grep -q sys_enter_write
then
	offers "$PSTAT -e syscalls:sys_enter_wri" sys_enter_write
	offers "$PSTAT -e cs,syscalls:sys_enter_wri" sys_enter_write
	offers "$PSTAT -e sysc" syscalls:sys_enter_write
fi
# A PMU's terms from sysfs and its events from --list, after pmu/.
for pmu in /sys/bus/event_source/devices/*; do
	[ -d "$pmu/format" ] || continue
	name=${pmu##*/}
	term=$(ls "$pmu/format" | head -n 1)
	[ -n "$term" ] || continue
	offers "$PSTAT -e $name/" "$name/$term="
	offers "$PSTAT -e cs,$name/" "cs,$name/$term="
	"$PSTAT" --list | grep -q "^  $name/[^/]*/\$" || continue
	event=$("$PSTAT" --list | sed -n "s|^  $name/\([^/]*\)/\$|\1|p" | head -n 1)
	offers "$PSTAT -e $name/" "$name/$event/"
done

# -C: the online CPUs, in a list too.
cpus=$(awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-");
	for (c = r[1]; c <= r[n]; c++) print c } }' /sys/devices/system/cpu/online)
set -- $cpus
only "$PSTAT -C " "$@"
offers "$PSTAT -a -C 0," "0,$1"
# -p: processes, such as one started here; -t: threads.
sleep 30 &
started $!
offers "$PSTAT -p " "$!"
offers "$PSTAT --pid=" "$!"
offers "$PSTAT -t " "$!"
# -o: files.
: >results.txt
only "$PSTAT -o res" results.txt

# Files (issue 31): --merge's operands, after options too, and -e @FILE.
only "$PSTAT --merge resu" results.txt
only "$PSTAT --merge results.txt resu" results.txt
only "$PSTAT --merge --format=csv resu" results.txt
only "$PSTAT -e @resu" @results.txt
only "$PSTAT -e cs --event=@resu" @results.txt
# --list: perf list's classes, as --help names them, pfm, metrics and
# metricgroups; each class offered lists a class (a section or two), not
# names holding it.
only "$PSTAT --list p" pfm pmu
only "$PSTAT --list --json tr" tracepoint
only "$PSTAT --list met" metricgroups metrics
complete "$PSTAT --list "
[ "$(wc -l <out)" -ge 8 ] || fail_ "'--list ' offers only: $(cat out)"
for word in $(cat out); do
	case $word in pfm|metrics|metricgroups) continue ;; esac
	"$PSTAT" --list "$word" >list.out 2>&1 || fail_ "--list $word failed"
	[ "$(grep -c '^[^ ]' list.out)" -le 2 ] ||
		fail_ "--list $word lists no class: $(grep '^[^ ]' list.out)"
done
for word in pfm metrics metricgroups; do
	complete "$PSTAT --list $word "
	[ -z "$(cat out)" ] || fail_ "'--list $word ' offers: $(cat out)"
done
# A long option without an argument takes no word with it.
offers "$PSTAT --quiet tru" true
# --for-each-cgroup: the cgroups -G offers, one made here if we can.
root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; exit }
	    $3 == "cgroup2" && !v2 { v2 = $2 }
	    END { if (v2 != "") print v2 }' /proc/mounts | head -n 1)
cg=pstat-completion-$$
if [ -n "$root" ] && mkdir "$root/$cg" 2>/dev/null; then
	at_exit "rmdir '$root/$cg'"
	offers "$PSTAT -a -G pstat-completion" "$cg"
fi
complete "$PSTAT -a -G "
mv out g.out
complete "$PSTAT -a --for-each-cgroup "
cmp -s g.out out ||
	fail_ "--for-each-cgroup offers '$(cat out)', -G '$(cat g.out)'"
# --pfm-events: libpfm4's names (with and without the model), never
# pstat's own.
complete "$PSTAT --pfm-events task-cl"
[ -z "$(cat out)" ] || fail_ "--pfm-events offers pstat's names: $(cat out)"
ev=$("$PSTAT" --list pfm 2>/dev/null | awk '/^  [^ ]/ { print $1; exit }')
if [ -n "$ev" ]; then
	name=${ev#*::}
	offers "$PSTAT --pfm-events ${name%?}" "$name"
	offers "$PSTAT --pfm-events cs,${name%?}" "cs,$name"
fi

# The command: after --, or the first word that is not an option or
# an option's argument, is a command; its words, its own completion's.
offers "$PSTAT -- tru" true
offers "$PSTAT tru" true
offers "$PSTAT -r 3 -e task-clock tru" true
offers "$PSTAT -x, -I 100 tru" true
: >workload.in
offers "$PSTAT -e cs -- cat workl" workload.in
offers "$PSTAT -e syscalls:sys_enter_write cat workl" workload.in
# Options after the command are the command's: none of pstat's.
complete "$PSTAT -- ls --ev"
grep -qx -e '--event=' out && fail_ "pstat's options offered to the command: $(cat out)"
exit 0
