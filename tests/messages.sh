#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pstat's words where they used to be wrong or missing: a reader that
# stops reading --list, --check, --help, --explain or --version is a
# quiet success; -p without /proc says /proc, not "no such process";
# one counter is "1 counter".

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

command -v python3 >/dev/null 2>&1 ||
	skip_ "python3 is needed to hand pstat a pipe nobody reads"

# closed ARGS...: pstat ARGS writes to a pipe whose reader is gone: its
# status in rc, its stderr in ./err.
closed()
{
	rc=$(python3 -c '
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
with open("err", "wb") as err:
    print(subprocess.run(sys.argv[1:], stdout=w, stderr=err).returncode)
' "$PSTAT" "$@") || framework_failure_ "python3"
}

for args in "--list" "--list --json" "--check" "--check --json" "--help" \
	    "--version" "--explain -e task-clock,page-faults"; do
	# shellcheck disable=SC2086 # $args are words on purpose
	closed $args
	# --check's own verdict may be 1 where counting is refused.
	case $args:$rc in
	--check*:1) ;;
	*) expect_rc 0 ;;
	esac
	[ ! -s err ] || { show_err_; fail_ "'$args' to a closed pipe: a message"; }
done
# A reader that goes away midway is the same.
rc=0
"$PSTAT" --list 2>err | head -n 1 >/dev/null || rc=$?
[ ! -s err ] || { show_err_; fail_ "'--list | head -n 1': a message"; }
# But a full disk is still an error, said.
if [ -w /dev/full ]; then
	rc=0
	"$PSTAT" --list >/dev/full 2>err || rc=$?
	expect_rc 125
	grep -q '^pstat: cannot print the list of events: No space left on device' err ||
		{ show_err_; fail_ "--list >/dev/full: no message"; }
fi

require_perf_events

# A process of the test's own to attach to.
sleep 1000 &
sleeper=$!
started "$sleeper"

# One counter: "1 counter needs 17 file descriptors".
rc=0
(
	# shellcheck disable=SC3045 # dash, bash and busybox have -n
	ulimit -n 16 || exit 99
	exec timeout 120 "$PSTAT" -e task-clock -p "$sleeper"
) >out 2>err || rc=$?
[ "$rc" != 99 ] || framework_failure_ "ulimit -n 16"
expect_rc 125
grep -q "^pstat: 1 counter needs 17 file descriptors, but the limit is 16" err ||
	{ show_err_; fail_ "one counter: the message"; }

# Without /proc (a tmpfs over it, in a mount namespace of its own), -p
# and -t on a live process say so. ASan needs /proc, even to read its
# options: not with an ASan build.
if pstat_asan; then
	echo "an ASan build: -p without /proc not tried"
elif [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
   unshare -m true 2>/dev/null; then
	for opt in -p -t; do
		rc=0
		unshare -m sh -c 'mount -t tmpfs none /proc && exec "$@"' sh \
			timeout 120 "$PSTAT" -e task-clock "$opt" "$sleeper" \
			>out 2>err || rc=$?
		expect_rc 125
		grep -q "^pstat: .* $sleeper ($opt) runs, but /proc/$sleeper.* is not there: pstat finds threads in /proc" err ||
			{ show_err_; fail_ "$opt without /proc: the message"; }
	done
else
	echo "not root, or no mount namespace: -p without /proc not tried"
fi
exit 0
