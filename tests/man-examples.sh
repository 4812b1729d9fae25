#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The pipelines of the man page's EXAMPLES run as shown, with this pstat,
# and print something: each machine format (-x, -j, --format=csv,
# --format=json) is read there with awk or jq, and with python3.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
for tool in bash awk jq python3; do
	command -v $tool >/dev/null 2>&1 ||
		skip_ "$tool is needed: the examples pipe into it (Debian: $tool)"
done

# The examples run 'pstat': this one.
mkdir bin && ln -s "$PSTAT" bin/pstat || framework_failure_ "cannot link pstat"
PATH=$tmpdir/bin:$PATH

awk '/^\.Sh / { s = $2 } s == "EXAMPLES"' "$top_srcdir/man/pstat.1" \
	>examples.man
python3 "$top_srcdir/tests/doc-examples.py" /dev/null examples.man |
	cut -f2- | grep '|' >pipelines ||
	fail_ "no pipeline in the man page's EXAMPLES"

# Each format with awk or jq, and with python3.
for format in '-x,' '-j' '--format=csv' '--format=json'; do
	grep -e "^pstat $format " pipelines | grep -qE '\| (awk|jq) ' ||
		fail_ "EXAMPLES: no pipeline of 'pstat $format' into awk or jq"
	grep -e "^pstat $format " pipelines | grep -q '| python3 ' ||
		fail_ "EXAMPLES: no pipeline of 'pstat $format' into python3"
done

while IFS= read -r cmd; do
	rc=0
	bash -c "set -o pipefail; $cmd" >out 2>err || rc=$?
	[ "$rc" = 0 ] || fail_ "exit status $rc: $cmd: $(cat err)"
	[ ! -s err ] || fail_ "it said '$(cat err)': $cmd"
	[ -s out ] || fail_ "no output: $cmd"
done <pipelines
exit 0
