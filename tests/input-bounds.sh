#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What the user gives is read within bounds: a CPU list costs what it
# names, not its ranges times its repeats; -C refuses a trailing comma
# and a newline.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# -C: the list is refused whole, with what is wrong, before anything runs.
expect_refused_saying "bad CPU list '0,': it ends where a CPU must follow" \
	-C 0, -e task-clock
expect_refused_saying "bad CPU list: a newline in it, after '0'" \
	-C "0
1" -e task-clock
expect_refused_saying "CPU number too large in '70000' at '70000'" \
	-C 70000 -e task-clock

# 32 KiB naming every CPU 4096 times: pstat parses it in a 256 MiB
# address space (it used to take 1 GiB) and finds an offline CPU
# there. Address-space limits and sanitizers do not mix: not with ASan.
if nm "$PSTAT" 2>/dev/null | grep -q __asan_init; then
	echo "an ASan build: the long -C list not tried"
else
	list=0-65535
	i=0
	while [ $i -lt 12 ]; do
		list=$list,$list
		i=$((i + 1))
	done
	rm -f ran
	rc=0
	(
		# shellcheck disable=SC3045 # dash, bash and busybox have -v
		ulimit -v 262144 || exit 99
		exec "$PSTAT" -C "$list" -e task-clock -- touch ran
	) >out 2>err || rc=$?
	[ "$rc" != 99 ] || framework_failure_ "ulimit -v"
	expect_rc 125
	grep -q '^pstat: CPU [0-9]* is not online' err ||
		{ show_err_; fail_ "-C with 4096 repeats: not parsed"; }
fi

exit 0
