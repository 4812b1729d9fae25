#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# perf's own output checks, installed with perf, pass with pstat in perf's
# place: a 'perf' on PATH that runs pstat for 'perf stat'. They run with
# the default event set, unfiltered, on whatever PMU the machine has.
# Each 'perf stat' they made is then run again and must have printed
# result rows, so that no check passes on empty or failed output.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

perf_tests=${PERF_SHELL_TESTS:-/usr/lib/perf-core/tests/shell}
checks="stat+csv_output.sh stat+csv_summary.sh stat+json_output.sh"
for check in $checks lib/perf_json_output_lint.py; do
	[ -r "$perf_tests/$check" ] ||
		skip_ "perf's $check is not installed in $perf_tests"
done
command -v bash >/dev/null 2>&1 || skip_ "perf's checks need bash"

# They find lib/ next to themselves: a copy, which they cannot disturb.
mkdir checks bin || framework_failure_ "mkdir failed"
for check in $checks lib; do
	cp -R "$perf_tests/$check" checks/ ||
		framework_failure_ "cannot copy $check"
done

# The stand-in: 'perf stat ARGS' is 'pstat ARGS'; each call is logged,
# quoted for the shell, to be run again below. Anything else is a
# check this test does not know how to run: say so and fail it.
cat >bin/perf <<'EOF' || framework_failure_ "cannot write bin/perf"
#!/bin/sh
if [ "${1-}" != stat ]; then
	echo "perf-output-checks: 'perf $*' is not 'perf stat'" >&2
	echo "perf $*" >>"$PERF_STANDIN_DIR/unexpected"
	exit 1
fi
shift
for arg; do
	printf " '%s'" "$(printf '%s' "$arg" | sed "s/'/'\\\\''/g")"
done >>"$PERF_STANDIN_DIR/calls"
echo >>"$PERF_STANDIN_DIR/calls"
exec "$PSTAT" "$@"
EOF
chmod +x bin/perf || framework_failure_ "chmod failed"
PERF_STANDIN_DIR=$tmpdir
export PERF_STANDIN_DIR PSTAT

run_check()
{
	rc=0
	PATH="$tmpdir/bin:$PATH" bash "checks/$1" >"$1.log" 2>&1 || rc=$?
	if [ "$rc" != 0 ]; then
		echo "--- perf's $1, with pstat as perf stat:"
		cat "$1.log"
		echo "---"
		fail_ "perf's $1 failed (status $rc)"
	fi
	[ ! -e unexpected ] || fail_ "perf's $1 ran $(cat unexpected)"
	cat "$1.log"
}

run_check stat+csv_output.sh
run_check stat+csv_summary.sh
if command -v python3 >/dev/null 2>&1 || command -v python >/dev/null 2>&1
then
	run_check stat+json_output.sh
	json=yes
else
	json=no
fi

# Every call again: status 0, and the rows its checker looked at.
[ -s calls ] || fail_ "perf's checks never ran 'perf stat'"
while IFS= read -r call; do
	eval "set -- $call"
	rc=0
	"$PSTAT" "$@" </dev/null >out 2>&1 || rc=$?
	[ "$rc" = 0 ] || { cat out; fail_ "'perf stat$call': status $rc"; }
	case " $call " in
	*" '-j' "*) rows=$(grep -c '^{.*"event"' out) ;;
	*" '--no-csv-summary' "*) rows=$(grep -c '^["0-9<]' out) ;;
	*" '--summary' "*) rows=$(grep -c '^summary' out) ;;
	*) rows=$(grep -c -e '^["0-9<]' -e '^CPU' -e '^S[0-9]' -e '^N[0-9]' \
		-e '-[0-9][0-9]*,' out) ;;
	esac
	[ "$rows" -gt 0 ] || { cat out; fail_ "'perf stat$call': no rows"; }
done <calls
echo "$(wc -l <calls | tr -d ' ') 'perf stat' calls, each with rows"

[ "$json" = yes ] ||
	skip_ "no python3: perf's stat+json_output.sh not run (the CSV checks passed)"
exit 0
