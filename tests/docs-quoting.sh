#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every example of the README, doc/*.md and the man page means in bash
# what it shows: no brace list or glob left for the shell to expand.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

command -v bash >/dev/null 2>&1 || skip_ "bash is needed: the examples are for it"
command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to find the examples"

python3 "$top_srcdir/tests/doc-examples.py" "$top_srcdir/README.md" \
	"$top_srcdir"/doc/*.md "$top_srcdir/man/pstat.1" >examples ||
	framework_failure_ "cannot list the examples"
[ "$(wc -l <examples)" -ge 10 ] || framework_failure_ "too few examples found"
# A file each glob of an example would match, were one unquoted.
touch syscalls:sys_enter_write1 syscalls:sys_enter_x

# The words bash makes of $1 (its pipes and redirections left out),
# with brace and pathname expansion as $2 sets them.
words()
{
	bash -c "$2"'; eval "set -- $1"; printf "%s\n" "$@"' _ \
		"$(printf '%s\n' "$1" | sed -e 's/ *|.*//' -e 's/ [0-9]*>[^ ]*//g')"
}

tab=$(printf '\t')
while IFS=$tab read -r status cmd; do
	[ "$(words "$cmd" 'set -B +f')" = "$(words "$cmd" 'set +B -f')" ] ||
		fail_ "bash expands part of this example: $cmd"
done <examples
