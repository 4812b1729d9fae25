#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The statistics of pstat compare (src/cmpstats.c) on 200 random pairs of
# samples, with and without ties, tiny to 60 runs, some deterministic,
# against scipy's Mann-Whitney U and p, numpy's median of the pairwise
# differences and order statistics, and a Python implementation of the
# interval's rule (tests/cmpstats-scipy.py). scripts/bootstrap --tests
# installs python3-scipy, so that CI never skips this.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

dump=$PROGS/cmpstats_dump
[ -x "$dump" ] || framework_failure_ "$dump: not built"

# The first python3 with scipy and numpy: the one on PATH, or Debian's.
python=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import numpy, scipy.stats' >/dev/null 2>&1; then
		python=$p
		break
	fi
done
[ -n "$python" ] ||
	skip_ "no python3 with scipy and numpy here (Debian: python3-scipy)"

"$python" "$top_srcdir/tests/cmpstats-scipy.py" "$dump" >out 2>&1 ||
	{ cat out; fail_ "cmpstats.c and scipy disagree (above)"; }
cat out
exit 0
