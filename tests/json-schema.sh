#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The JSON Schemas in schema/ hold pstat to its formats, and the hook in
# tests/init.sh that validates every JSON document a test leaves can
# fail: a document of each format as pstat writes it is valid, and one
# key gone, one value of the wrong type and one key too many are each
# refused, naming the file and the schema; a "format" with no schema is
# refused; a test that passed fails on an invalid document (even one the
# next run wrote over), and without python3-jsonschema it is an ERROR
# that names the package. make install puts the repository's schemas in
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
not_pstat_json bad/*
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
not_pstat_json bad/nosuch.json
validate bad/nosuch.json
[ "$rc" = 1 ] || { cat verdict; fail_ "a format without a schema: status $rc"; }
grep -q 'no schema pstat-nosuch-1.schema.json' verdict ||
	{ cat verdict; fail_ "a format without a schema: not said"; }

# The hook at a test's end: a test that passed or skipped fails on an
# invalid document, one that a later run wrote over or a file it left;
# not on a file named as the test's own input.
cat >fake-pstat <<'EOF'
#!/bin/sh
[ -z "${FAKE_DOC:-}" ] || cat "$FAKE_DOC"
EOF
chmod +x fake-pstat
cat >inner.sh <<'EOF'
. "$top_srcdir/tests/init.sh"
case $how in
run) FAKE_DOC=$doc run_pstat --format=json -- true
     FAKE_DOC= run_pstat -- true ;;
file) cp "$doc" left.json ;;
mine) cp "$doc" mine.json
      not_pstat_json mine.json ;;
esac
exit "$status"
EOF
# inner HOW DOC [STATUS]: rc of a test that leaves DOC so and ends in
# STATUS (0), its log in ./inner.log.
inner()
{
	rc=0
	PSTAT=$PWD/fake-pstat how=$1 doc=$PWD/$2 status=${3:-0} \
		/bin/sh inner.sh >inner.log 2>&1 || rc=$?
}
inner run good/pstat.json
[ "$rc" = 0 ] || { cat inner.log; fail_ "the hook fails a valid document"; }
grep -q '^json-schema: 1 documents valid, 0 not ' inner.log ||
	{ cat inner.log; fail_ "the hook did not validate ./out"; }
inner run bad/pstat.json.type
[ "$rc" = 1 ] || { cat inner.log; fail_ "the hook: an invalid document: status $rc, not 1"; }
grep -q '^\./out of the 1st run of pstat.*: not valid by schema/pstat-1\.schema\.json' inner.log ||
	{ cat inner.log; fail_ "the hook does not name ./out of the first run"; }
grep -q '^FAIL: a JSON document of pstat' inner.log ||
	{ cat inner.log; fail_ "the hook does not say FAIL"; }
inner file bad/merge.json.missing 77
[ "$rc" = 1 ] || { cat inner.log; fail_ "the hook: a skip leaving an invalid file: status $rc, not 1"; }
grep -q '^\./left\.json: not valid by schema/pstat-merge-2\.schema\.json' inner.log ||
	{ cat inner.log; fail_ "the hook does not name ./left.json"; }
inner mine bad/pstat.json.type
[ "$rc" = 0 ] || { cat inner.log; fail_ "not_pstat_json: status $rc"; }

# Without python3-jsonschema (python3 -S has no Debian packages): an
# ERROR that says what to install, never a pass.
printf '#!/bin/sh\nexec %s -S "$@"\n' "$py" >nojsonschema
chmod +x nojsonschema
rc=0
PSTAT_TEST_PYTHON=$PWD/nojsonschema PSTAT=$PWD/fake-pstat how=run \
	doc=$PWD/good/pstat.json status=0 /bin/sh inner.sh >inner.log 2>&1 ||
	rc=$?
[ "$rc" = 99 ] || { cat inner.log; fail_ "no jsonschema: status $rc, not 99"; }
grep -q 'install the Debian package python3-jsonschema' inner.log ||
	{ cat inner.log; fail_ "no jsonschema: the package is not named"; }

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
