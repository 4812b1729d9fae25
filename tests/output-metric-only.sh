#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --metric-only: one set of columns for the whole run, titles once, an
# empty field (null in -j) where a metric has no value, rates always in
# /sec; with -A and --per-*, a line per aggregate, its label first; no
# key twice in a -j object; every -x line as many fields as the header.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
command -v python3 >/dev/null 2>&1 ||
	skip_ "python3 is needed to parse CSV and JSON"

# check_mo.py csv SEP PREFIX FILE: every line has the header's fields,
# titles unique, values numbers or empty after PREFIX fields; prints
# the number of lines under the header.
# check_mo.py json FILE: objects without a key twice, all with the
# first one's keys, metrics numbers or null; prints the number of
# objects and the first one's keys, joined by '|'.
cat >check_mo.py <<'EOF'
import csv, json, re, sys

mode = sys.argv[1]
number = re.compile(r"^[0-9]+\.[0-9]+$")
labels = {"interval", "cpu", "core", "die", "socket", "node", "thread",
          "aggregate-number"}

def fail(msg):
    sys.exit("FAIL: %s: %s" % (mode, msg))

lines = [l.rstrip("\n") for l in open(sys.argv[-1])
         if l.strip() and not l.startswith("pstat:")]
if not lines:
    fail("no lines")

if mode == "csv":
    sep, prefix = sys.argv[2], int(sys.argv[3])
    rows = list(csv.reader(lines, delimiter=sep))
    head = rows[0]
    if len(set(head)) != len(head):
        fail("a title twice: %r" % head)
    for r in rows[1:]:
        if len(r) != len(head):
            fail("%d fields under %d titles: %r" % (len(r), len(head), r))
        for v in r[prefix:]:
            if v and not number.match(v):
                fail("value %r in %r" % (v, r))
    print(len(rows) - 1)
else:
    def unique(pairs):
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            fail("a key twice: %r" % keys)
        return dict(pairs)

    objs = [json.loads(l, object_pairs_hook=unique) for l in lines]
    for o in objs:
        if list(o) != list(objs[0]):
            fail("keys %r, then %r" % (list(objs[0]), list(o)))
        for k, v in o.items():
            if k in labels:
                continue
            if v is not None and (isinstance(v, bool) or
                                  not isinstance(v, (int, float))):
                fail("%r: %r" % (k, v))
    print(len(objs), "|".join(objs[0]))
EOF

csv_check() { csv_rows >rows && python3 check_mo.py csv "$@" rows; }
json_check() { csv_rows >rows && python3 check_mo.py json rows; }
title_line() { csv_rows | head -n 1; }

# Rates keep one unit, whatever their size.
no_scaled_rates()
{
	grep -Eq '[KMG]/sec' err && { show_err_; fail_ "$1: a scaled rate"; }
	return 0
}

# Human lines of a table are as long as its titles: fixed widths.
same_widths()
{
	awk -v what="$1" '
		/^pstat:/ || /Performance counter stats/ { next }
		/^ *$/ { if (n) exit; next }
		/seconds/ { exit }
		{ if (!n++) w = length($0)
		  else if (length($0) != w) { print what ": " $0; bad = 1 } }
		END { exit bad || n < 2 }' err ||
		{ show_err_; fail_ "$1: not one width per column"; }
}

ev=task-clock,page-faults

# The totals: titles, then a line of values under them.
run_pstat --metric-only -e $ev -- true
expect_rc 0
grep -Eq '^ +CPUs utilized +page-faults /sec$' err ||
	{ show_err_; fail_ "--metric-only: titles"; }
grep -Eq '^ +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3}$' err ||
	{ show_err_; fail_ "--metric-only: values"; }
grep -q -e 'msec task-clock' -e ' page-faults  ' err &&
	{ show_err_; fail_ "--metric-only: an event row"; }
same_widths "--metric-only"
no_scaled_rates "--metric-only"

run_pstat --metric-only -x, -e $ev -- true
expect_rc 0
expect_eq "$(title_line)" "CPUs utilized,page-faults /sec" \
	"--metric-only -x,: titles"
expect_eq "$(csv_check , 0)" 1 "--metric-only -x,: lines"

# Intervals: the same columns on every line, whatever each interval
# counted; an unsupported event's metric keeps its column.
ev3=task-clock,page-faults,cycles
run_pstat --metric-only -x, -I 100 -e $ev3 -- sleep 0.25
expect_rc 0
expect_eq "$(title_line)" "time,CPUs utilized,page-faults /sec,GHz" \
	"--metric-only -x, -I: titles"
expect_ge "$(csv_check , 1)" 1 "--metric-only -x, -I: lines"
no_scaled_rates "--metric-only -x, -I"
if ! have_hw_pmu; then
	csv_rows | sed 1d | grep -v ',$' &&
		{ show_err_; fail_ "--metric-only -x, -I: a GHz value"; }
fi

run_pstat --metric-only -x';' -I 100 --summary -e $ev -- sleep 0.15
expect_rc 0
csv_check ';' 1 >/dev/null || { show_err_; fail_ "-x';' -I --summary"; }
csv_rows | tail -n 1 | grep -Eq '^summary;[0-9.]+;[0-9.]*$' ||
	{ show_err_; fail_ "-I --summary: no summary line"; }

run_pstat --metric-only -I 100 -e $ev3 -- sleep 0.25
expect_rc 0
grep -Eq '^# +time +CPUs utilized +page-faults /sec +GHz$' err ||
	{ show_err_; fail_ "--metric-only -I: titles"; }
same_widths "--metric-only -I"
no_scaled_rates "--metric-only -I"

# -j: null where there is no value, no key twice.
run_pstat --metric-only -j -I 100 -e $ev3 -- sleep 0.25
expect_rc 0
out=$(json_check) || { show_err_; fail_ "--metric-only -j -I: $out"; }
expect_eq "${out#* }" "interval|CPUs utilized|page-faults /sec|GHz" \
	"--metric-only -j -I: keys"
if ! have_hw_pmu; then
	grep -q '"GHz": [0-9]' err &&
		{ show_err_; fail_ "--metric-only -j: a GHz value"; }
fi

run_pstat --metric-only -j -e task-clock,cpu-clock,page-faults,page-faults \
	-- true
expect_rc 0
out=$(json_check) || { show_err_; fail_ "--metric-only -j twins: $out"; }
expect_eq "$out" "1 CPUs utilized (task-clock)|CPUs utilized (cpu-clock)|\
page-faults /sec|page-faults /sec #2" "--metric-only -j: twin titles"

# Per CPU, core and thread: one line per aggregate, its label first.
"$PSTAT" -a -e task-clock -- true >/dev/null 2>&1 ||
	skip_ "cannot count system-wide here (perf_event_paranoid, not root)"
ncpu=$(getconf _NPROCESSORS_ONLN)

run_pstat --metric-only -x, -a -A -e $ev -- true
expect_rc 0
expect_eq "$(title_line)" "cpu,CPUs utilized,page-faults /sec" \
	"-A -x,: titles"
expect_eq "$(csv_check , 1)" "$ncpu" "-A -x,: a line per CPU"
expect_eq "$(csv_rows | sed 1d | grep -Ec '^CPU[0-9]+,')" "$ncpu" \
	"-A -x,: CPU labels"

run_pstat --metric-only -x, -a -A -I 100 -e $ev -- sleep 0.25
expect_rc 0
expect_eq "$(title_line)" "time,cpu,CPUs utilized,page-faults /sec" \
	"-A -x, -I: titles"
n=$(csv_check , 2) || { show_err_; fail_ "-A -x, -I: $n"; }
if [ "$n" -lt "$ncpu" ] || [ $((n % ncpu)) != 0 ]; then
	show_err_
	fail_ "-A -x, -I: $n lines for $ncpu CPUs"
fi

run_pstat --metric-only -a -A -e $ev -- true
expect_rc 0
grep -Eq '^ cpu +CPUs utilized +page-faults /sec$' err ||
	{ show_err_; fail_ "-A: titles"; }
expect_eq "$(grep -Ec '^ CPU[0-9]+ +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3}$' \
	err)" "$ncpu" "-A: a line per CPU"
same_widths "-A"

run_pstat --metric-only -x, -a --per-core -e $ev -- true
expect_rc 0
expect_eq "$(title_line)" "core,cpus,CPUs utilized,page-faults /sec" \
	"--per-core -x,: titles"
csv_check , 2 >/dev/null || { show_err_; fail_ "--per-core -x,"; }
expect_eq "$(csv_rows | sed 1d | awk -F, '{ n += $2 } END { print n }')" \
	"$ncpu" "--per-core -x,: CPUs add up to the online CPUs"

run_pstat --metric-only -x, -a --per-thread -e $ev -- true
expect_rc 0
expect_eq "$(title_line)" "comm-pid,CPUs utilized,page-faults /sec" \
	"--per-thread -x,: titles"
csv_check , 1 >/dev/null || { show_err_; fail_ "--per-thread -x,"; }

run_pstat --metric-only -j -a -A -e $ev -- true
expect_rc 0
out=$(json_check) || { show_err_; fail_ "-A -j: $out"; }
expect_eq "$out" "$ncpu cpu|CPUs utilized|page-faults /sec" "-A -j"

run_pstat --metric-only -j -a --per-core -I 100 -e $ev -- sleep 0.25
expect_rc 0
out=$(json_check) || { show_err_; fail_ "--per-core -j -I: $out"; }
expect_eq "${out#* }" \
	"interval|core|aggregate-number|CPUs utilized|page-faults /sec" \
	"--per-core -j -I: keys"

exit 0
