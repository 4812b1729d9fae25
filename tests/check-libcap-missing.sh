#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A dynamic pstat loads libcap.so.2 only where it needs it (--check,
# diagnoses, a privileged pstat's opens). Where it cannot be loaded,
# --check says so, naming the library and the package, instead of
# "Cannot allocate memory"; counting, which needs no libcap, works.
# And the binary declares what it loads, in the ELF note packaging
# tools read (.note.dlopen).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

command -v readelf >/dev/null 2>&1 ||
	framework_failure_ "readelf not found (Debian package binutils)"
bin=${PSTAT_REAL:-$PSTAT}
readelf -d "$bin" >dyn 2>&1 || framework_failure_ "readelf -d $bin failed"
grep -q 'NEEDED.*libc\.so' dyn ||
	skip_ "pstat is linked statically: libcap is linked in, never loaded"
grep -q 'NEEDED.*libcap\.so' dyn &&
	fail_ "a dynamic pstat links libcap.so.2, which it should load when needed"

readelf -p .note.dlopen "$bin" >note 2>&1 ||
	fail_ "no .note.dlopen in $bin: $(cat note)"
grep -q '"soname":\["libcap\.so\.2"\]' note ||
	{ cat note; fail_ ".note.dlopen does not name libcap.so.2"; }

# An empty libcap.so.2 first in the search: the loader refuses it.
mkdir lib && : >lib/libcap.so.2 || framework_failure_ "mkdir lib"
rc=0
LD_LIBRARY_PATH=$PWD/lib "$PSTAT" --check >out 2>err || rc=$?
[ "$rc" -le 1 ] || { cat out err; fail_ "--check: exit $rc, not 0 or 1"; }
grep -q 'libcap.so.2 could not be loaded' out ||
	{ cat out err; fail_ "--check does not say libcap.so.2 is missing"; }
grep -q 'libcap2' out ||
	{ cat out; fail_ "--check does not name the package libcap2"; }
! grep -q 'Cannot allocate memory' out err ||
	{ cat out err; fail_ "--check blames memory"; }

require_perf_events
LD_LIBRARY_PATH=$PWD/lib "$PSTAT" -x, -e task-clock -- true >out 2>err ||
	{ cat err; fail_ "counting failed without libcap"; }
grep -q 'task-clock' err || { cat err; fail_ "no task-clock row"; }
exit 0
