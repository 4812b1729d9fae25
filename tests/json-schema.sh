#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The JSON Schemas in schema/ hold pstat to its formats, and
# tests/json-schema.py, which validates documents against them, can
# fail: a document of each format as pstat writes it is valid, and one
# key gone, one value of the wrong type and one key too many are each
# refused, naming the file and the schema; a "format" with no schema is
# refused. make install puts the repository's schemas in
# $(datadir)/pstat/schema.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
py=/usr/bin/python3
hook=$top_srcdir/tests/json-schema.py
schemas=$top_srcdir/schema
"$py" -c 'import jsonschema' 2>/dev/null ||
	framework_failure_ "$py cannot import jsonschema: install the Debian package python3-jsonschema"

# Each schema is a draft 2020-12 schema, its $id its file's name.
"$py" - "$schemas"/*.schema.json <<'EOF' || fail_ "the schemas themselves"
import json, os, sys, jsonschema
for path in sys.argv[1:]:
    s = json.load(open(path))
    jsonschema.Draft202012Validator.check_schema(s)
    name = os.path.basename(path)[:-len(".schema.json")]
    assert s["$id"] == "urn:pstat:schema:" + name, (path, s["$id"])
EOF

# One document of each format, as pstat writes it.
mkdir good bad ranks || framework_failure_ "mkdir"
ev=task-clock
run_pstat --format=json -o good/pstat.json -e $ev -- true
expect_rc 0
run_pstat -j -o good/lines.jsonl -e $ev,page-faults -- true
expect_rc 0
for r in 0 1; do
	PSTAT_RANK=$r PSTAT_SIZE=2 "$PSTAT" --format=json -o "ranks/r.%r.json" \
		-e $ev -- true || fail_ "rank $r"
done
run_pstat --merge --format=json -o good/merge.json ranks/r.0.json ranks/r.1.json
expect_rc 0
run_pstat compare -r 2 -q --format=json -o good/compare.json -e $ev -- true ::: true
expect_rc 0
run_pstat compare -r 2 -q -j -o good/compare.jsonl -e $ev -- true ::: true
expect_rc 0
run_pstat --list --json $ev
expect_rc 0
cp out good/list.json
run_pstat --check --json
cp out good/check.json

# validate FILE...: rc and ./verdict of the hook on FILE...
validate()
{
	rc=0
	"$py" "$hook" "$schemas" "$@" >verdict 2>&1 || rc=$?
}

for f in good/*; do
	validate "$f"
	[ "$rc" = 0 ] || { cat verdict; fail_ "$f: not valid as pstat wrote it"; }
	grep -q '^json-schema: [1-9][0-9]* documents valid, 0 not ' verdict ||
		{ cat verdict; fail_ "$f: not validated"; }
done

# break FILE: bad/NAME.missing, .type and .extra, the document (or the
# first line of -j) with the first required key of its deepest object
# gone, a string where a number was (or a number where a string was),
# and a key no schema names, each the one change.
break_doc()
{
	"$py" - "$1" "bad/${1##*/}" <<'EOF' || framework_failure_ "break $1"
import json, sys
src, dst = sys.argv[1], sys.argv[2]
text = open(src).read()
lines = src.endswith("jsonl")
doc = json.loads(text.splitlines()[0] if lines else text)

def deepest(o, path=()):
    """The path of the object nested deepest, the first one found."""
    best = path
    items = o.items() if isinstance(o, dict) else enumerate(o)
    for k, v in items:
        if isinstance(v, (dict, list)) and v:
            p = deepest(v, path + (k,))
            if len(p) > len(best) and isinstance(at(doc, p), dict):
                best = p
    return best

def at(o, path):
    for k in path:
        o = o[k]
    return o

def save(suffix, d):
    with open(dst + suffix, "w") as f:
        f.write(json.dumps(d) + "\n")

obj = at(doc, deepest(doc))
key = next(iter(obj))
d = json.loads(json.dumps(doc))
del at(d, deepest(doc))[key]
save(".missing", d)
d = json.loads(json.dumps(doc))
k, v = next((k, v) for k, v in obj.items()
            if isinstance(v, (str, int, float)) and not isinstance(v, bool))
at(d, deepest(doc))[k] = 1 if isinstance(v, str) else str(v)
save(".type", d)
d = json.loads(json.dumps(doc))
d["no_such_key"] = 1
save(".extra", d)
EOF
}

for f in good/*; do
	break_doc "$f"
done
for f in bad/*; do
	validate "$f"
	[ "$rc" = 1 ] || { cat verdict; fail_ "$f: status $rc, not 1 (invalid)"; }
	grep -q "^$f\(:1\)\?: not valid by schema/pstat-[a-z-]*[0-9]\.schema\.json: at /.* (schema: /" verdict ||
		{ cat verdict; fail_ "$f: not the file, the schema and the paths"; }
	case $f in
	*.extra)
		grep -q "'no_such_key' was unexpected" verdict ||
			{ cat verdict; fail_ "$f: the extra key is not named"; }
	esac
done

# A format without a schema is refused too.
printf '{"format": "pstat-nosuch", "format_version": 1}\n' >bad/nosuch.json
validate bad/nosuch.json
[ "$rc" = 1 ] || { cat verdict; fail_ "a format without a schema: status $rc"; }
grep -q 'no schema pstat-nosuch-1.schema.json' verdict ||
	{ cat verdict; fail_ "a format without a schema: not said"; }

# make install: the repository's schemas, each of them, where the man
# page says.
builddir=$(dirname "$(dirname "$PSTAT")")
[ -f "$builddir/Makefile" ] ||
	framework_failure_ "no Makefile in $builddir: run the tests with make check"
${MAKE:-make} -s -C "$builddir" install-dist_schemaDATA \
	DESTDIR="$tmpdir/inst" >make.log 2>&1 ||
	{ cat make.log; fail_ "make install-dist_schemaDATA"; }
# $(datadir)/pstat/schema, the only folder made.
dir=$(find "$tmpdir/inst" -type d -path '*/pstat/schema')
case $dir in
"$tmpdir/inst"/*/pstat/schema) ;;
*) find inst; fail_ "installed schemas: not in one DATADIR/pstat/schema" ;;
esac
(cd "$schemas" && ls) >repo.list
(cd "$dir" && ls) >inst.list
cmp repo.list inst.list ||
	{ diff repo.list inst.list; fail_ "installed schemas: not the repository's"; }
for f in "$schemas"/*; do
	cmp "$f" "$dir/${f##*/}" || fail_ "installed ${f##*/} differs"
done
exit 0
