#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -M chooses what perf 6.1 chooses, fed the same tables: for each model
# below, perf -vv and pstat --explain on a fake "cpu" PMU (a copied
# sysfs tree bind-mounted in a private mount namespace, PERF_CPUID
# naming the model) must agree, metric by metric, on
#   - the formulas read: the metric's and those it names, all the way
#     down (perf's "metric expr E for N" lines);
#   - the literals and their values (perf's "literal: #X = V");
#   - the groups, in order, each with its events in order, weak or not
#     (perf's {...}:W, pstat's {...}), tool events after (perf's
#     "Parsing metric events '...'"), which
#     also says which metrics share a group;
#   - each event's encoding: type, config, config1, config2 and the
#     exclude bits of its perf_event_attr (perf's -vv attr blocks).
# Nothing is counted: the fake PMU takes the tracepoint PMU's type, so
# most encodings fail to open, after perf has printed them.
#
# The metrics: TopdownL1 where the model has it, then a spread over the
# model's metrics sorted by name (every k-th, k = n / 40, then the ones
# after those), keeping those perf 6.1 takes on the fake tree (not those
# reading uncore PMUs the tree lacks), 36 of them; and all of those in
# one -M list, where perf shares groups across metrics, and that list
# with --metric-no-group and with --metric-no-merge. perf 6.1's
# tables come from linux-source-6.1 ($PMU_EVENTS_61 when the build made
# them). perf 6.1 has no TopdownL1 and 13 metrics for Zen 4 (amdzen3):
# all of those that it takes are compared. A metric whose events perf
# cannot parse (cstate_core/ and the like, PMUs of no VM) it does not
# refuse but counts its default events instead, a fault of perf that
# pstat does not copy: pstat must refuse it (status 125).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_root
require_perf_events
command -v perf >/dev/null 2>&1 || skip_ "perf is not installed"
case $(perf version 2>/dev/null) in
"perf version 6.1."*) ;;
*) skip_ "perf is not perf 6.1 but '$(perf version 2>&1 | head -n 1)'" ;;
esac
unshare -m true 2>unshare.err ||
	skip_ "no private mount namespace here: $(head -n 1 unshare.err)"
devices=/sys/bus/event_source/devices
tp_type=$(cat "$devices/tracepoint/type" 2>/dev/null) ||
	skip_ "no tracepoint PMU in $devices"
tables=${PMU_EVENTS_61:-}
if [ -z "$tables" ]; then
	tarball=/usr/src/linux-source-6.1.tar.xz
	[ -r "$tarball" ] ||
		skip_ "no $tarball (apt-get install linux-source-6.1) for perf 6.1's tables"
	"$top_srcdir"/scripts/pmu-events-tables "$tarball" pe61 \
		>pe61.log 2>&1 ||
		{ cat pe61.log; framework_failure_ "cannot make perf 6.1's tables"; }
	tables=$PWD/pe61
fi
[ -r "$tables/arch/x86/mapfile.csv" ] ||
	framework_failure_ "$tables: no arch/x86/mapfile.csv"
export PSTAT_PMU_EVENTS="$tables"

# make_tree DIR VENDOR: the machine's PMUs, and a fake "cpu" with
# Intel's or AMD's format, of the tracepoint PMU's type; for Icelake
# and later (intel-l1, intel-l2) of PERF_TYPE_RAW's, 4, with the slots
# and topdown-* events of their sysfs: perf 6.1 moves slots to the
# front of a group with topdown events only where the PMU of type 4
# has a slots event.
make_tree()
{
	vendor=$2
	mkdir "$1" && cp -a "$devices/." "$1/" ||
		framework_failure_ "cannot copy $devices"
	type=$tp_type
	case $2 in
	intel-l*) type=4 ;;
	esac
	rm -rf "$1/cpu" && mkdir -p "$1/cpu/format" "$1/cpu/events" &&
		echo "$type" >"$1/cpu/type" ||
		framework_failure_ "cannot make the fake cpu PMU"
	case $2 in
	intel-l*)
		for t in slots:0x4 topdown-retiring:0x80 topdown-bad-spec:0x81 \
			 topdown-fe-bound:0x82 topdown-be-bound:0x83; do
			echo "event=0x00,umask=${t#*:}" >"$1/cpu/events/${t%:*}"
		done ;;
	esac
	case $2 in
	intel-l2)
		for t in topdown-heavy-ops:0x84 topdown-br-mispredict:0x85 \
			 topdown-fetch-lat:0x86 topdown-mem-bound:0x87; do
			echo "event=0x00,umask=${t#*:}" >"$1/cpu/events/${t%:*}"
		done ;;
	esac
	case $2 in
	amd)
		set -- "$1" event:config:0-7,32-35 umask:config:8-15 \
			edge:config:18 inv:config:23 cmask:config:24-31 ;;
	*)
		set -- "$1" event:config:0-7 umask:config:8-15 \
			edge:config:18 pc:config:19 any:config:21 \
			inv:config:23 cmask:config:24-31 in_tx:config:32 \
			in_tx_cp:config:33 offcore_rsp:config1:0-63 \
			ldlat:config1:0-15 frontend:config1:0-23 ;;
	esac
	dir=$1
	shift
	for t; do
		echo "${t#*:}" >"$dir/cpu/format/${t%%:*}"
	done
	[ "$vendor" = amd ] || return 0
	# Zen's L3 and data fabric PMUs, which some of its metrics read
	# (their types are no PMU's here: their opens fail).
	for t in amd_l3:event:config:0-7 amd_l3:umask:config:8-15 \
		 amd_df:event:config:0-7,32-35,59-60 amd_df:umask:config:8-15; do
		pmu=${t%%:*}
		t=${t#*:}
		mkdir -p "$dir/$pmu/format" &&
			echo "${t#*:}" >"$dir/$pmu/format/${t%%:*}" ||
			framework_failure_ "cannot make the fake $pmu PMU"
	done
	echo 1000 >"$dir/amd_l3/type" && echo 1001 >"$dir/amd_df/type" ||
		framework_failure_ "cannot make the fake amd_l3 and amd_df"
}

# in_tree DIR CMD...: CMD with the fake tree DIR mounted over the real one.
in_tree()
{
	tree=$PWD/$1
	shift
	unshare -m sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' \
		sh "$tree" "$devices" "$@"
}

# perf's -vv, as the lines compared: "group {...}:W" for each group
# parsed (metric-id= gone, the name it encodes put back), "formula N = E"
# and "literal #X = V", each of these two once.
perf_view()
{
	sed -n "s/^Parsing metric events '\\(.*\\)'\$/group \\1/p" "$1" |
		sed 's#[^ ,{}/]*/[^/]*metric-id=\([^/]*\)/[a-zA-Z]*#\1#g
		     s/!0/,/g; s/!1/-/g; s/!2/=/g; s/!3/@/g
		     s/}:W/}/'
	{
		sed -n 's/^metric expr \(.*\) for \([^ ]*\)$/formula \2 = \1/p' "$1"
		sed -n 's/^literal: \(#[^ ]*\) = \(.*\)$/literal \1 \2/p' "$1" |
			awk '{ printf "literal %s = %g\n", $2, $3 }'
	} | sort -u
}

# The same from pstat --explain.
pstat_view()
{
	sed -n 's/^  group [0-9]*: /group /p' "$1"
	{
		sed -n 's/^  \([^ ]*\) = /formula \1 = /p
			s/^    metric \([^ ]*\) = /formula \1 = /p' "$1"
		sed -n 's/^    literal /literal /p' "$1" |
			awk '{ printf "literal %s = %g\n", $2, $4 }'
	} | sort -u
}

# perf -vv and pstat --explain for -M $3 (and option $5) on model $2
# in tree $1, into perf.$4 and pstat.$4; the same views, or 1 when perf
# refuses the list.
compare_metrics()
{
	# shellcheck disable=SC2086 # $5: an option or none
	PERF_CPUID=$2 in_tree "$1" perf stat -vv -x, ${5:-} -M "$3" true \
		>"perf.$4" 2>&1 </dev/null
	# perf 6.1 counts its default events when a metric's events do not
	# parse (an uncore PMU the tree lacks) and says so only in -v;
	# pstat refuses (man page, DIFFERENCES FROM PERF STAT).
	if grep -q "event syntax error" "perf.$4"; then
		PERF_CPUID=$2 in_tree "$1" "$PSTAT" -M "$3" true \
			>/dev/null 2>err </dev/null
		expect_eq "$?" 125 "$2: -M $3 (events that do not parse)"
		grep -q "^pstat: -M $3: " err ||
			{ show_err_; fail_ "$2: -M $3: pstat does not say why"; }
		refused=$((refused + 1))
		return 1
	fi
	grep -q "^Parsing metric events" "perf.$4" &&
		! grep -q "Cannot find metric" "perf.$4" || return 1
	# shellcheck disable=SC2086
	PERF_CPUID=$2 in_tree "$1" "$PSTAT" --explain ${5:-} -M "$3" \
		>"pstat.$4" 2>&1 </dev/null ||
		{ cat "pstat.$4"; fail_ "$2: pstat --explain ${5:-}-M $3 failed, perf took it"; }
	perf_view "perf.$4" >perf.view
	pstat_view "pstat.$4" >pstat.view
	diff -u perf.view pstat.view >view.diff ||
		{ cat view.diff; fail_ "$2: ${5:-}-M $3: pstat's formulas, literals or groups are not perf 6.1's"; }
	# Where perf's open fails (as on PERF_TYPE_RAW here), it stops after
	# the first group's leader: its first attr is that leader's.
	awk -v mode=perf -f "$top_srcdir/tests/perf-attrs.awk" "perf.$4" |
		head -n 1 >perf.first
	sed '1,/^$/d' "pstat.$4" |
		awk -v mode=pstat -f "$top_srcdir/tests/perf-attrs.awk" |
		head -n 1 >pstat.first
	cmp -s perf.first pstat.first ||
		fail_ "$2: ${5:-}-M $3: perf opens first $(cat perf.first), pstat $(cat pstat.first)"
	grep '^group ' perf.view >>groups.all
	pstat_attrs "pstat.$4" >>pstat.attrs.all
	return 0
}

# The events of "group ..." lines, in order, one a line: split at the
# commas outside pmu@terms@; where a "led by X" line follows, X first.
group_events()
{
	sed -n 's/^group //p; s/^    led by \([^:]*\):.*/led by \1/p' "$@" |
		awk '/^led by / { print; next } {
		name = ""
		at = 0
		for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1)
			if (c == "@")
				at = !at
			if (!at && (c == "," || c == "{")) {
				if (name != "")
					print name
				name = ""
				continue
			}
			name = name c
		}
		if (name != "")
			print name
		print "end"
	}' | sed 's/}\(:W\)\{0,1\}$//' | awk '
		function flush(   i) {
			if (lead != "")
				print lead
			for (i = 1; i <= n; i++)
				if (ev[i] != lead)
					print ev[i]
			n = 0
			lead = ""
		}
		$0 == "end" { done = 1; next }
		/^led by / { lead = substr($0, 8); flush(); done = 0; next }
		done { flush(); done = 0 }
		{ ev[++n] = $0 }
		END { flush() }'
}

# One line per event of pstat --explain's blocks, in the order of its
# groups: "NAME fields".
pstat_attrs()
{
	sed '1,/^$/d' "$1" >blocks
	sed -n 's/^  group [0-9]*: /group /p; /^    led by /p' "$1" |
		group_events >names
	awk -v mode=pstat -f "$top_srcdir/tests/perf-attrs.awk" blocks \
		>fields
	[ "$(wc -l <names)" -eq "$(wc -l <fields)" ] ||
		fail_ "$1: $(wc -l <fields) events explained, $(wc -l <names) in its groups"
	paste -d ' ' names fields
}

# The encodings of every event of the groups compared: perf's, all
# events with -e, each alone (a failed open is then no group's), beside
# pstat's in every list it explained.
compare_encodings()
{
	group_events groups.all |
		grep -vx 'duration_time\|user_time\|system_time' |
		sort -u >events
	[ -s events ] || fail_ "$2: no events in the groups"
	# After each event the dummy event, which opens: perf retries a
	# failed open without saying so, and the last block before a dummy's
	# is the event's.
	list=$(sed 's#^\([^@]*\)@\(.*\)@$#\1/\2/#; s/$/,dummy/' events |
	       paste -sd, -)
	PERF_CPUID=$2 in_tree "$1" perf stat -vv -x, -e "$list" true \
		>perf.events 2>&1 </dev/null
	awk -v mode=perf -f "$top_srcdir/tests/perf-attrs.awk" perf.events |
		awk '/^type=1 config=9 / { if (last != "") print last; last = ""
					   next }
		     { last = $0 }' >perf.fields
	[ "$(wc -l <perf.fields)" -eq "$(wc -l <events)" ] ||
		{ cat perf.events; fail_ "$2: perf printed $(wc -l <perf.fields) attrs for $(wc -l <events) events"; }
	paste -d ' ' events perf.fields | sort >perf.attrs
	sort -u pstat.attrs.all >pstat.attrs
	twice=$(cut -d ' ' -f 1 pstat.attrs | uniq -d | paste -sd ' ' -)
	[ -z "$twice" ] ||
		fail_ "$2: pstat encodes these otherwise in other lists: $twice"
	comm -23 perf.attrs pstat.attrs >enc.perf
	if [ -s enc.perf ]; then
		echo "perf 6.1:"
		cat enc.perf
		echo "pstat:"
		cut -d ' ' -f 1 enc.perf | join - pstat.attrs
		fail_ "$2: encodings differ from perf 6.1's"
	fi
}

# check_model NAME CPUID VENDOR: TopdownL1, the spread, all of them.
check_model()
{
	make_tree "tree.$1" "$3"
	: >groups.all
	: >pstat.attrs.all
	PERF_CPUID=$2 perf list --raw-dump metrics 2>/dev/null | tr ' ' '\n' |
		grep -v '^$' | sort >metrics.all
	n=$(wc -l <metrics.all)
	[ "$n" -gt 0 ] || fail_ "$1: perf 6.1 lists no metrics for $2"
	td=0
	if PERF_CPUID=$2 perf list --raw-dump metricgroups 2>/dev/null |
		tr ' ' '\n' | grep -qx TopdownL1; then
		compare_metrics "tree.$1" "$2" TopdownL1 td ||
			fail_ "$1: perf 6.1 refuses -M TopdownL1"
		td=1
	fi
	k=$((n / 40))
	[ "$k" -ge 1 ] || k=1
	awk -v k="$k" '{ print (NR - 1) % k, NR, $0 }' metrics.all |
		sort -n -k1,1 -k2,2 | cut -d ' ' -f 3 >metrics.order
	: >metrics.taken
	refused=0
	want=36
	[ "$n" -ge "$want" ] || want=$n
	while read -r m && [ "$(wc -l <metrics.taken)" -lt "$want" ]; do
		compare_metrics "tree.$1" "$2" "$m" one && echo "$m" >>metrics.taken
	done <metrics.order
	taken=$(wc -l <metrics.taken)
	if [ "$n" -ge 40 ]; then
		[ "$taken" -ge 30 ] ||
			fail_ "$1: perf 6.1 took only $taken of the metrics tried"
	fi
	[ "$taken" -gt 0 ] || fail_ "$1: perf 6.1 took none of its metrics"
	all=$(paste -sd, metrics.taken)
	compare_metrics "tree.$1" "$2" "$all" all ||
		fail_ "$1: perf 6.1 refuses -M with all of $all"
	# Without groups, and a group each.
	for o in --metric-no-group --metric-no-merge; do
		compare_metrics "tree.$1" "$2" "$all" all "$o " ||
			fail_ "$1: perf 6.1 refuses $o -M $all"
	done
	compare_encodings "tree.$1" "$2"
	echo "$1: TopdownL1 $td, $taken metrics alike, alone, together, without groups and unmerged;" \
	     "$(wc -l <perf.attrs) events encoded alike" \
	     "($(grep -vc ' config1=0 ' perf.attrs) with config1);" \
	     "$(grep -c '^group ' groups.all) groups;" \
	     "$refused refused (perf counts its defaults)"
}

check_model skylakex GenuineIntel-6-55-4 intel
check_model icelakex GenuineIntel-6-6A-6 intel-l1
check_model sapphirerapids GenuineIntel-6-8F-8 intel-l2
check_model amdzen3 AuthenticAMD-25-11-0 amd
exit 0
