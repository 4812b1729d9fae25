#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A stream that carries -x, -j or --format output carries nothing else:
# not the notes of a run (the default events without a hardware PMU, a
# failing run of -r, a signal, --timeout), which go to stderr only when
# the results go elsewhere; and a failure leaves its one message, not the
# start of a document.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to parse JSON"

# parses FORMAT FILE: the whole file is FORMAT and nothing else.
cat >parses.py <<'EOF'
import csv, json, sys

fmt, path = sys.argv[1], sys.argv[2]
text = open(path).read()

def fail(msg):
    sys.exit("FAIL: %s in %s: %s\n--- %s:\n%s---" % (fmt, path, msg, path,
                                                    text))

if not text.endswith("\n"):
    fail("no final newline")
lines = text.splitlines()
if fmt.startswith("-x"):
    sep = fmt[2:]
    widths = {len(l.split(sep)) for l in lines}
    if not lines or "" in lines or len(widths) != 1 or widths.pop() < 7:
        fail("not rows of one width, 7 fields or more")
elif fmt == "-j":
    for l in lines:
        try:
            if not isinstance(json.loads(l), dict):
                fail("not an object: %r" % l)
        except ValueError:
            fail("not JSON: %r" % l)
elif fmt == "--format=csv":
    rows = list(csv.reader(lines))
    if rows[0][0] != "record" or {len(r) for r in rows} != {len(rows[0])}:
        fail("rows unlike the header")
elif fmt == "--format=json":
    try:
        d = json.loads(text)
    except ValueError as e:
        fail("not one JSON document: %s" % e)
    if d.get("format") != "pstat":
        fail("not pstat's document")
EOF

expect_parses()
{
	python3 parses.py "$1" "$2" || { show_err_; fail_ "$1: $3"; }
}

for fmt in -x, '-x;' -j --format=csv --format=json; do
	# The default events, twice, one run failing: notes in human output.
	run_pstat "$fmt" -r 2 -- sh -c 'exit 3'
	expect_rc 3
	expect_parses "$fmt" err "-r 2 with a failing command"

	run_pstat "$fmt" -e page-faults -- "$PROGS/raise_signal" 15
	expect_rc 143
	expect_parses "$fmt" err "a command killed by SIGTERM"

	run_pstat "$fmt" -e task-clock --timeout 100 -- sleep 10
	expect_rc 124
	expect_parses "$fmt" err "--timeout"

	# -o FILE: the file is the format's alone, the notes go to stderr.
	run_pstat "$fmt" -o res -r 2 -- sh -c 'exit 3'
	expect_rc 3
	expect_parses "$fmt" res "-o FILE"
	grep -q "^pstat: note: run 1 of 2: 'sh' exited with status 3" err ||
		{ show_err_; fail_ "$fmt -o FILE: no note on stderr"; }
	grep -q "^pstat: note: run 1 of 2" res &&
		fail_ "$fmt -o FILE: a note in the file"

	# -o naming stderr's own file shares it: no notes then either.
	run_pstat "$fmt" -o /dev/stderr -e task-clock -- "$PROGS/raise_signal" 15
	expect_rc 143
	expect_parses "$fmt" err "-o /dev/stderr"

	# A command that cannot run: its message alone, no document begun.
	run_pstat "$fmt" -e task-clock -- ./no-such-command
	expect_rc 127
	expect_eq "$(cat err)" \
		"pstat: cannot run './no-such-command': No such file or directory" \
		"$fmt: a failure"
done

# Human output is for people: the notes stay with it.
run_pstat -r 2 -e task-clock -- sh -c 'exit 3'
expect_rc 3
expect_eq "$(grep -c "^pstat: note: run [12] of 2: 'sh' exited with status 3" err)" \
	2 "human output: the notes of the failing runs"
