#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -G and --for-each-cgroup: a workload moved into a cgroup of its own
# makes exactly N write(2) calls, and -a counts exactly those for that
# cgroup while the rest of the machine writes on; perf's positional
# pairing of -G with the events before it; the cgroup column of -x, -j
# and the human layout as perf prints it; --metric-only's titles name
# the cgroup; perf stat agrees.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_root
require_perf_events
require_tracefs

# The hierarchy perf_event counts in, as pstat finds it.
root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; exit }' \
	/proc/self/mounts)
[ -n "$root" ] || root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
[ -n "$root" ] || skip_ "no cgroup hierarchy with perf_event is mounted"
cg=pstat-test-$$
cg2=pstat-test2-$$
mkdir "$root/$cg" "$root/$cg2" || skip_ "cannot make a cgroup in $root"
at_exit "rmdir '$root/$cg' '$root/$cg2'"

ev=syscalls:sys_enter_write
# The workload joins the cgroup (that write is made outside it), then
# writes 1000 times there.
in_cg="echo \$\$ >'$root/$cg/cgroup.procs' && exec '$PROGS/writer' 1000"

run_pstat -a -x, -e "$ev" -G "$cg" -- sh -c "$in_cg"
expect_rc 0
expect_eq "$(csv_rows)" "$(csv_rows | awk -F, -v c="$cg" \
	'$1 == 1000 && $3 == "syscalls:sys_enter_write" && $4 == c')" \
	"-x: value 1000, the event, the cgroup"
[ "$(csv_rows | wc -l)" = 1 ] || { show_err_; fail_ "-x: one row"; }

# Positional: the first event in the cgroup, the second everywhere.
run_pstat -a -x, -e "$ev" -G "$cg" -e "$ev" -- sh -c "$in_cg"
expect_rc 0
expect_eq "$(csv_rows | awk -F, 'NR == 1 { print $1 "," $4 }')" "1000,$cg" \
	"-G names the event before it"
expect_eq "$(csv_rows | awk -F, 'NR == 2 { print $4 }')" "" \
	"the event after -G counts everywhere"
expect_ge "$(csv_rows | awk -F, 'NR == 2 { print $1 }')" 1000 \
	"the whole machine's writes"

# An empty name skips an event; one name alone is for every event.
run_pstat -a -x, -e "$ev,$ev" -G ",$cg" -- sh -c "$in_cg"
expect_rc 0
expect_eq "$(csv_rows | awk -F, '{ print $4 }' | tr '\n' ' ')" " $cg " \
	"-G ,NAME"
run_pstat -a -x, -e "$ev" -e "$ev" -G "$cg" -- sh -c "$in_cg"
expect_rc 0
expect_eq "$(csv_rows | awk -F, '{ print $1 "," $4 }' | tr '\n' ' ')" \
	"1000,$cg 1000,$cg " "-e A -e B -G NAME: both"

# --for-each-cgroup: every event again for each cgroup, in its order;
# a cgroup where nothing ran counts 0 (perf: <not counted>).
run_pstat -a -x, -e "$ev" --for-each-cgroup "$cg2,$cg" -- sh -c "$in_cg"
expect_rc 0
expect_eq "$(csv_rows | awk -F, '{ print $1 "," $4 }' | tr '\n' ' ')" \
	"0,$cg2 1000,$cg " "--for-each-cgroup"

# -j: perf's key after "event"; human: the name after the event's.
run_pstat -a -j -e "$ev" -G "$cg" -- sh -c "$in_cg"
expect_rc 0
grep -q "^{\"counter-value\": 1000, \"unit\": \"\", \"event\": \"$ev\", \"cgroup\": \"$cg\", " err ||
	{ show_err_; fail_ "-j: the cgroup key"; }
# An event counted in every cgroup: "", as in perf and the man page.
run_pstat -a -j -e "$ev" -G "$cg" -e "$ev" -- sh -c "$in_cg"
expect_rc 0
grep -q "\"event\": \"$ev\", \"cgroup\": \"\", " err ||
	{ show_err_; fail_ "-j: the cgroup key of none"; }
run_pstat -a -e "$ev" -G "$cg" -- sh -c "$in_cg"
expect_rc 0
grep -Eq "^ +1,000 +$ev +$cg\$" err || { show_err_; fail_ "human: the cgroup"; }

# --format=json: the cgroup's name, or null.
run_pstat -a --format=json -e "$ev" -G "$cg" -e "$ev" -- sh -c "$in_cg"
expect_rc 0
grep -q "{\"event\": \"$ev\", \"cgroup\": \"$cg\", \"value\": 1000, " err &&
	grep -q "{\"event\": \"$ev\", \"cgroup\": null, " err ||
	{ show_err_; fail_ "--format=json: the cgroup key"; }

# --format=csv: the cgroup column, last, read by its header's name;
# empty for an event counted in every cgroup.
run_pstat -a --format=csv -e "$ev" -G "$cg" -e "$ev" -- sh -c "$in_cg"
expect_rc 0
cat >cols.py <<'PY'
import csv, sys
ev, cg = sys.argv[1], sys.argv[2]
for r in csv.DictReader(sys.stdin):
    if r["record"] == "total" and r["event"] == ev:
        print(r["value"] + ":" + r["cgroup"])
PY
python3 cols.py "$ev" "$cg" <err >got ||
	{ show_err_; fail_ "--format=csv: unreadable"; }
grep -qx "1000:$cg" got && grep -q '^[0-9]*:$' got ||
	{ cat got; show_err_; fail_ "--format=csv: the cgroup column"; }

# --metric-only: each column's title names its cgroup, in -x and -j.
run_pstat -a -x, --metric-only -e task-clock,"$ev" \
	--for-each-cgroup "$cg2,$cg" -- sh -c "$in_cg"
expect_rc 0
expect_eq "$(csv_rows | head -n 1)" \
	"CPUs utilized (task-clock in cgroup $cg2),$ev /sec (cgroup $cg2),CPUs utilized (task-clock in cgroup $cg),$ev /sec (cgroup $cg)" \
	"--metric-only --for-each-cgroup: the titles"
run_pstat -a -j --metric-only -e task-clock -G "$cg" -e task-clock \
	-- sh -c "$in_cg"
expect_rc 0
expect_eq "$(python3 -c 'import json, sys
print("|".join(json.loads(open(sys.argv[1]).readline())))' err)" \
	"CPUs utilized (task-clock in cgroup $cg)|CPUs utilized (task-clock)" \
	"--metric-only -G -j: the keys"

# Refused, with one line and 125: nothing runs.
refused()
{
	what=$1
	shift
	run_pstat "$@"
	expect_rc 125
	[ "$(wc -l <err)" = 1 ] && grep -q '^pstat: ' err ||
		{ show_err_; fail_ "$what: not one pstat: line"; }
}
refused "no such cgroup" -a -e "$ev" -G "no-such-cgroup-$$" -- true
grep -q "no cgroup 'no-such-cgroup-$$' in $root" err ||
	{ show_err_; fail_ "no such cgroup: the message"; }
refused "-G without -a" -e "$ev" -G "$cg" -- true
refused "-G before -e" -a -G "$cg" -e "$ev" -- true
refused "more names than events" -a -e "$ev" -G "$cg,$cg" -- true
refused "-G and --for-each-cgroup" -a -e "$ev" -G "$cg" \
	--for-each-cgroup "$cg" -- true
refused "a group in two cgroups" -a -e "{$ev,$ev}" -G "$cg,$cg2" -- true
refused "--for-each-cgroup with an empty name" -a -e "$ev" \
	--for-each-cgroup "$cg," -- true

# perf stat, where it runs, counts the same and prints the same columns.
command -v perf >/dev/null 2>&1 || exit 0
perf stat -a -x, -e "$ev" -G "$cg" -- true 2>perf.log || exit 0
perf stat -a -x, -o perf.out -e "$ev" -G "$cg" -e "$ev" -- sh -c "$in_cg" ||
	fail_ "perf stat -G failed"
run_pstat -a -x, -e "$ev" -G "$cg" -e "$ev" -- sh -c "$in_cg"
expect_eq "$(csv_rows | awk -F, '{ print NF }' | tr '\n' ' ')" \
	"$(grep -v -e '^#' -e '^$' perf.out | awk -F, '{ print NF }' | tr '\n' ' ')" \
	"fields of a row, against perf"
expect_eq "$(grep -v -e '^#' -e '^$' perf.out | awk -F, 'NR == 1 { print $1 "," $3 "," $4 }')" \
	"1000,$ev,$cg" "perf stat's count"
