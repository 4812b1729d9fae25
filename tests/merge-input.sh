#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --merge trusts no file: a rank's file costs what its bytes are, not
# what its numbers say (size 2147483647 merges in a 256 MiB address
# space, the missing ranks as ranges), and each number is one pstat
# writes or the file is refused with 125, one line naming the file and
# the field, and nothing printed: ranks below the size, one size for
# the job, counts that are decimal numbers from 0 to 1e30 (no nan, inf,
# hex, sign or overflow), percentages to 100, exit statuses 0-255,
# signals 1-64; JSON that is JSON, each key once. No perf events
# needed: the files are written here.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

# csv_file NAME RANK SIZE [SED]: a rank's --format=csv file, changed by
# the sed script SED.
csv_file()
{
	cat >"$1" <<EOF
record,interval,aggregate,aggregate_cpus,event,value,unit,status,enabled_ns,running_ns,running_pct,metric_value,metric_unit,variance_pct
total,,,,task-clock,0.681427,msec,counted,681427,681427,100.00,0.171619,CPUs utilized,
total,,,,syscalls:sys_enter_write,100,,counted,681427,681427,100.00,,,
run,,,,command,true,,,,,,,,
run,,,,exit_status,0,,,,,,,,
run,,,,elapsed_s,0.003970575,,,,,,,,
run,,,,user_s,0.001274,,,,,,,,
run,,,,sys_s,0.000000,,,,,,,,
run,,,,max_rss_kib,1076,,,,,,,,
run,,,,rank,$2,,,,,,,,
run,,,,size,$3,,,,,,,,
run,,,,format_version,1,,,,,,,,
EOF
	[ $# -lt 4 ] || sed -i "$4" "$1" || framework_failure_ "sed $4"
}

# json_file NAME RANK SIZE [SED]: the same in --format=json (an input
# made by hand, of the keys --merge reads: not_pstat_json).
json_file()
{
	cat >"$1" <<EOF
{"format": "pstat", "format_version": 1, "pstat_version": "0.2.5",
 "intervals": [],
 "events": [
   {"event": "task-clock", "value": 0.681427, "unit": "msec", "status": "counted", "running_pct": 100},
   {"event": "syscalls:sys_enter_write", "value": 100, "unit": "", "status": "counted", "running_pct": 100}
  ],
 "run": {"command": ["true"], "exit_status": 0, "signal": null, "elapsed_s": 0.003970575, "user_s": 0.001274, "sys_s": 0, "max_rss_kib": 1076, "rank": $2, "size": $3, "job_id": null}}
EOF
	[ $# -lt 4 ] || sed -i "$4" "$1" || framework_failure_ "sed $4"
	not_pstat_json "$1"
}

# refused TEXT FILE...: --merge FILE... stops with 125, one 'pstat: '
# line holding TEXT, and nothing on stdout.
refused()
{
	text=$1
	shift
	run_pstat --merge "$@"
	if [ "$rc" != 125 ] || [ -s out ] ||
	   [ "$(grep -c '^pstat: ' err)" != 1 ] ||
	   [ "$(wc -l <err)" != 1 ] || ! grep -qF -- "$text" err; then
		show_err_
		cat out
		fail_ "--merge $*: status $rc, want 125, one line with '$text', no output"
	fi
}

# A size of 2147483647 with one rank present: the 2147483646 ranks
# missing cost one range, not 16 GiB. Address-space limits and ASan or
# valgrind do not mix: without the limit there.
csv_file big.csv 5 2147483647
rc=0
(
	# shellcheck disable=SC3045 # dash, bash and busybox have -v
	pstat_asan || pstat_valgrind || ulimit -v 262144 || exit 99
	exec "$PSTAT" --merge --format=json big.csv
) >out 2>err || rc=$?
[ "$rc" != 99 ] || framework_failure_ "ulimit -v"
expect_rc 0
grep -q '"size": 2147483647, "missing": \[\[0, 4\], \[6, 2147483646\]\]' out ||
	{ show_err_; cat out; fail_ "size 2147483647: the missing ranks"; }
json_file big.json 1000000000 1000000001
run_pstat --merge big.json
expect_rc 0
grep -q '1 present (1000000000) of 1000000001; missing: 0-999999999$' out ||
	{ show_err_; cat out; fail_ "size 1000000001: human"; }
run_pstat --merge --format=csv big.json big.csv
expect_rc 125
run_pstat --merge --format=csv big.json
grep -q '^run,ranks_missing,0-999999999,' out ||
	{ show_err_; cat out; fail_ "size 1000000001: CSV"; }

# Ranks and sizes.
csv_file r4.csv 4 4
refused 'r4.csv is rank 4, not below the job'"'"'s size 4' r4.csv
csv_file a.csv 0 4
csv_file b.csv 1 8
refused 'a.csv says size 4 and b.csv 8: merge the files of one job' \
	a.csv b.csv
csv_file nosize.csv 6 ''
refused 'nosize.csv is rank 6, not below the job'"'"'s size 4 (a.csv says so)' \
	a.csv nosize.csv
csv_file s0.csv 0 0
refused "s0.csv: line 11: size '0' is not a size (1 to 2147483647)" s0.csv
csv_file neg.csv -1 4
refused "neg.csv: line 10: rank '-1' is not a rank" neg.csv
json_file huge.json 10000000000000 4
refused "huge.json: run.rank '10000000000000' is not a rank" huge.json
json_file half.json 1.5 4
refused "half.json: run.rank '1.5' is not a rank" half.json
json_file str.json '"1"' 4
refused 'str.json: run.rank is not a number' str.json
# strtod took these, and a cast of the NaN to long was undefined.
json_file nan.json -nan 4
refused 'nan.json: not valid JSON' nan.json
json_file hex.json 0 -0x4p0
refused 'hex.json: not valid JSON' hex.json

# Counts: what pstat writes, nothing strtod takes beyond it.
for v in nan inf -inf 0x10 -5 -0 1e999 1e31 ' 5' 5x; do
	csv_file v.csv 0 1 "s/^\(total,,,,syscalls:sys_enter_write,\)100,/\1$v,/"
	refused "v.csv: line 3: value '$v' is not a decimal number from 0 to 1e30" \
		v.csv
done
for v in -5 -0 1e999 1e31; do
	json_file v.json 0 1 "s/\"value\": 100,/\"value\": $v,/"
	refused "v.json: events[1].value '$v' is not a decimal number from 0 to 1e30" \
		v.json
done
for v in -nan -inf -0x10 -Infinity; do
	json_file v.json 0 1 "s/\"value\": 100,/\"value\": $v,/"
	refused 'v.json: not valid JSON' v.json
done
csv_file p.csv 0 1 's/,100.00,0.171619,/,100.5,0.171619,/'
refused "p.csv: line 2: running_pct '100.5' is not a percentage (0 to 100)" \
	p.csv
csv_file t.csv 0 1 's/^run,,,,user_s,0.001274,/run,,,,user_s,inf,/'
refused "t.csv: line 7: user_s 'inf' is not a decimal number" t.csv
# The largest a count may be, on every rank: sums stay finite.
csv_file m0.csv 0 2 's/,100,,counted,/,1e30,,counted,/'
csv_file m1.csv 1 2 's/,100,,counted,/,1e30,,counted,/'
run_pstat --merge --format=json m0.csv m1.csv
expect_rc 0
grep -q '"sum": 2e+30, "mean": 1e+30, "stddev": 0,' out ||
	{ show_err_; cat out; fail_ "1e30 on two ranks"; }
run_pstat --merge m0.csv m1.csv
expect_rc 0
grep -q '^  syscalls:sys_enter_write  *2/2  *2e+30  *1e+30  *0\.00  *1e+30 (0)  *1e+30 (0) ' out ||
	{ show_err_; cat out; fail_ "1e30 on two ranks: human"; }

# Exit statuses 0 to 255, signals 1 to 64, as the command's own were.
csv_file e.csv 0 1 's/^run,,,,exit_status,0,/run,,,,exit_status,255,/'
run_pstat --merge e.csv
expect_rc 255
for v in 256 -1 1.0e0x; do
	csv_file e.csv 0 1 "s/^run,,,,exit_status,0,/run,,,,exit_status,$v,/"
	refused "e.csv: line 5: exit_status '$v' is not an exit status (0 to 255)" \
		e.csv
done
json_file e.json 0 1 's/"exit_status": 0, "signal": null/"exit_status": null, "signal": 64/'
run_pstat --merge e.json
expect_rc 192
for v in 65 0 2147483647 -9; do
	json_file e.json 0 1 "s/\"exit_status\": 0, \"signal\": null/\"exit_status\": null, \"signal\": $v/"
	refused "e.json: run.signal '$v' is not a signal number (1 to 64)" e.json
done
json_file e.json 0 1 's/"exit_status": 0,/"exit_status": 256,/'
refused "e.json: run.exit_status '256' is not an exit status (0 to 255)" e.json
csv_file e.csv 0 1 's/^run,,,,exit_status,0,/run,,,,signal,SIGFOO,/'
refused "e.csv: line 5: signal 'SIGFOO' is not a signal's name as pstat writes it" \
	e.csv

# JSON is json-c's to read, in its strict mode; what that still takes
# beyond JSON is refused as pstat's own reader refused it: NaN and
# Infinity, "1.", leading zeros, a control character raw in a string (a
# tab: json-c 0.16 takes it), a key in single quotes; and comments,
# trailing commas, single-quoted strings. Each number is read from its
# text, so "-0" is no rank, and an integer past 64 bits is refused
# whatever json-c makes of it (0.16: 2^64 - 1; 0.17 on: an error).
for v in NaN Infinity 1. -.5 1.e5 00 -00 01.5; do
	json_file v.json 0 1 "s/\"value\": 100,/\"value\": $v,/"
	refused "v.json: not valid JSON (at byte 252: '$v' is not a number as JSON writes it)" \
		v.json
done
# Here the words are json-c's, or (json-c 0.16 takes these) pstat's.
for s in 's/"value": 100,/"value": 01,/' \
	's/"value": 100,/"value": 100000000000000000000,/' \
	's/"value": 100,/"value": -9223372036854775809,/' \
	's/"unit": "msec"/"unit": "ms\tec"/' \
	"s/\"unit\": \"msec\"/\"unit\": 'msec'/" \
	's/"intervals": \[\],/"intervals": [], \/\/ no comment\n/' \
	's/"intervals": \[\],/"intervals": [], \/* none *\//' \
	's/"intervals": \[\]/"intervals": [1,]/' \
	's/"running_pct": 100}$/"running_pct": 100,}/'; do
	json_file v.json 0 1 "$s"
	refused 'v.json: not valid JSON (at byte ' v.json
done
json_file v.json 0 1 "s/\"unit\": \"msec\"/'unit': \"msec\"/"
refused 'v.json: not valid JSON (at byte 144: a key in single quotes)' v.json
json_file z.json -0 1
refused "z.json: run.rank '-0' is not a rank (0 to 2147483646)" z.json
# What pstat does not read it does not judge, but as JSON.
json_file z.json 0 1 's/"intervals": \[\]/"intervals": [-0, 1e-0]/'
run_pstat --merge z.json
expect_rc 0
# The largest integer json-c holds is taken as the number it is.
json_file v.json 0 1 's/"value": 100,/"value": 18446744073709551615,/'
run_pstat --merge --format=json v.json
expect_rc 0
grep -q '"sum": 1.8446744073709552e+19,' out ||
	{ show_err_; cat out; fail_ "18446744073709551615"; }
# A key twice: json-c keeps the last, pstat's own reader kept the first;
# which one the file meant is not for --merge to guess. Each of these
# would be taken, whichever it kept.
for s in 's/"rank": 0,/"rank": 0, "rank": 1,/' \
	's/"rank": 0,/"rank": 1, "rank": 0,/' \
	's/"value": 100,/"value": 100, "value": 200,/' \
	's/"event": "task-clock",/"event": "task-clock", "event": "x",/' \
	's/"intervals": \[\]/"intervals": [{"a": [1, {"b": 2}], "a": 3}]/'; do
	json_file d.json 0 2 "$s"
	refused 'd.json: not valid JSON for --merge: a key twice in one object' \
		d.json
done
# Strings: escapes decoded, and what a string holds (quotes, colons,
# numbers, brackets) is no part of the document around it.
json_file e.json 3 4 's|"event": "task-clock"|"event": "t\\u00e9\\"\\\\\\/x"|'
sed -i 's/"command": \["true"\]/"command": ["a:b", "\\"5, -0\\"", "x\\\\"], "q:1": {"r": [-0, "]"]}/' \
	e.json || framework_failure_ "sed e.json"
run_pstat --merge --format=csv e.json
expect_rc 0
if ! grep -q '^event,"té""\\/x",0.681427,msec,1,1,' out ||
   ! grep -q '^event,syscalls:sys_enter_write,100,,1,1,' out ||
   ! grep -qF 'run,command,"a:b ""5, -0"" x\",' out ||
   ! grep -q '^run,ranks_present,3,' out; then
	show_err_
	cat out
	fail_ "strings and escapes"
fi
# json-c's depth is pstat's own reader's: 32 levels, the document's
# one of them.
deep=$(printf '%31s' '' | tr ' ' '[')$(printf '%31s' '' | tr ' ' ']')
json_file deep.json 0 1 "s/\"intervals\": \[\]/\"intervals\": $deep/"
run_pstat --merge deep.json
expect_rc 0
json_file deep.json 0 1 "s/\"intervals\": \[\]/\"intervals\": [$deep]/"
refused 'deep.json: not valid JSON (at byte ' deep.json

# Many empty objects cost json-c some 500 bytes each: a file with more
# objects and arrays than pstat writes for its size is refused before
# json-c reads it (5000 empty objects in 15 KB). pstat's own files,
# with their intervals, are taken above and in tests/merge.sh.
crowd=$(awk 'BEGIN { for (i = 0; i < 5000; i++) printf "%s{}", i ? "," : "" }')
json_file crowd.json 0 1 "s/\"intervals\": \[\]/\"intervals\": [$crowd], \"x\": 1/"
refused 'crowd.json: not a file of pstat --format=json: more objects' crowd.json
exit 0
