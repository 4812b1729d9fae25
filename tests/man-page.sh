#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# man/pstat.1 is lint-clean mdoc (groff -mdoc -ww -z says nothing), names
# each option of --help as an item of its option list and no option
# --help lacks (pstat top's in its section), and refers to the pages it
# should.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

man=$top_srcdir/man/pstat.1
[ -r "$man" ] || framework_failure_ "no $man"

if command -v groff >/dev/null 2>&1; then
	groff -mdoc -ww -z "$man" >lint 2>&1 || fail_ "groff failed: $(cat lint)"
	[ ! -s lint ] || fail_ "groff -mdoc -ww -z $man: $(cat lint)"
else
	echo "no groff (Debian: groff-base): the lint part is not run"
fi

# --help's options, each name alone: -e, --event, --per-core, ...
"$PSTAT" --help >help || fail_ "pstat --help failed"
grep -E '^(  |      )-' help | sed -e 's/^ *//' -e 's/  .*//' -e 's/, /\n/g' |
	sed -e 's/ .*//' -e 's/=.*//' | sort -u >help.opts
[ "$(wc -l <help.opts)" -gt 20 ] ||
	framework_failure_ "few options read from --help: $(cat help.opts)"

# The man page's: the .It items of DESCRIPTION's list, each Fl a name.
awk '/^\.Sh / { s = $2 } s == "DESCRIPTION" && /^\.It Fl /' "$man" |
	grep -o 'Fl [^ ]*' | sed -e 's/^Fl /-/' -e 's/Ns.*//' | sort -u >man.opts

missing=$(comm -23 help.opts man.opts)
[ -z "$missing" ] ||
	fail_ "in --help, not an item of the man page's DESCRIPTION: $missing"
extra=$(comm -13 help.opts man.opts)
[ -z "$extra" ] ||
	fail_ "an item of the man page's DESCRIPTION, not in --help: $extra"

# pstat top's --help and the items of the TOP section, alike.
"$PSTAT" top --help >help || fail_ "pstat top --help failed"
grep -E '^(  |      )-' help | sed -e 's/^ *//' -e 's/  .*//' -e 's/, /\n/g' |
	sed -e 's/ .*//' -e 's/=.*//' | sort -u >top.opts
[ "$(wc -l <top.opts)" -gt 10 ] ||
	framework_failure_ "few options read from top --help: $(cat top.opts)"
awk '/^\.Sh / { s = $2 } s == "TOP" && /^\.It Fl /' "$man" |
	grep -o 'Fl [^ ]*' | sed -e 's/^Fl /-/' -e 's/Ns.*//' | sort -u >man.opts
[ "$(comm -3 top.opts man.opts)" = "" ] ||
	fail_ "pstat top --help and the man page's TOP differ: $(comm -3 top.opts man.opts)"

# SEE ALSO: perf stat, the system call, capabilities and libpfm.
awk '/^\.Sh / { s = $2 } s == "SEE" && /^\.Xr /' "$man" >see
for page in 'perf-stat 1' 'perf_event_open 2' 'capabilities 7' 'libpfm 3'; do
	grep -q "^\.Xr $page" see || fail_ "SEE ALSO does not name $page"
done
exit 0
