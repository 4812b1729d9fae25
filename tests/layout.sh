#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# No include cycle between the modules of src/ (scripts/check-layout),
# and the checker itself finds the cycles it is shown.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to run scripts/check-layout"
check="$top_srcdir/scripts/check-layout"

# tree DIR FILE:INCLUDES... makes DIR with FILE including each of
# INCLUDES (comma-separated; empty for none).
tree()
{
	dir=$1
	shift
	mkdir "$dir" || framework_failure_ "mkdir $dir"
	for spec in "$@"; do
		printf '%s\n' "${spec#*:}" | tr ',' '\n' | while read -r h; do
			[ -n "$h" ] && printf '#include "%s"\n' "$h"
		done >"$dir/${spec%%:*}"
	done
}

# expect_layout DIR RC [LINE]: check-layout DIR exits RC, printing LINE.
expect_layout()
{
	rc=0
	python3 "$check" "$1" >out 2>&1 || rc=$?
	[ "$rc" = "$2" ] || fail_ "check-layout $1: exit $rc, not $2: $(cat out)"
	[ -z "${3:-}" ] || grep -qxF -e "$3" out ||
		fail_ "check-layout $1 did not print '$3': $(cat out)"
}

# Down only, config.h (not in the tree) ignored: no cycle.
tree down main.c:a.h,b.h,config.h a.c:a.h,b.h a.h: b.c:b.h b.h:
expect_layout down 0 "check-layout: 3 modules, no include cycle"

# Two modules, through a header.
tree two a.c:a.h,b.h a.h: b.c:b.h b.h:a.h
expect_layout two 1 "check-layout: include cycle: a -> b -> a"
grep -qxF '  b.h includes "a.h"' out || fail_ "no include named: $(cat out)"

# Three, each step in another kind of file.
tree three x.c:y.h x.h: y.c: y.h:z.h z.c:x.h z.h:
expect_layout three 1 "check-layout: include cycle: x -> y -> z -> x"

# One knot of three modules, shown by its shortest cycle and named whole.
tree knot a.c:b.h a.h: b.c:a.h,c.h b.h: c.c:b.h c.h:
expect_layout knot 1 "check-layout: include cycle: a -> b -> a"
grep -qxF '  and, tied in the same knot: a b c' out ||
	fail_ "the knot is not named whole: $(cat out)"

# output_csv.c and output_impl.h are module output's: within it, no
# cycle; through another module, one.
tree parts out.c:out_impl.h out.h: out_impl.h:out.h out_csv.c:out_impl.h \
	b.c:b.h b.h:
expect_layout parts 0 "check-layout: 2 modules, no include cycle"
tree parts2 out.c:out_impl.h out.h: out_impl.h:out.h out_csv.c:b.h \
	b.c:out_impl.h b.h:
expect_layout parts2 1 "check-layout: include cycle: b -> out -> b"

# Then pstat's own tree.
python3 "$check" "$top_srcdir/src" >out 2>&1 || fail_ "$(cat out)"
