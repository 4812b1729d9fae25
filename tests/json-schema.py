# SPDX-License-Identifier: GPL-2.0-or-later
"""Validates the JSON documents pstat wrote against their schemas.

Usage: json-schema.py SCHEMA_DIR [--not PATH]... FILE|DIR...

tests/init.sh runs this once when a test ends, on the test's folder and
the copies of ./out, ./err and -o FILE that keep_json kept; a content
met twice is validated once. What is pstat's is told by its content:
- a file that is one JSON object with "format" (and "format_version"),
  "pstat_check" or "version" and a list: that format's schema,
  SCHEMA_DIR/NAME-VERSION.schema.json (--format=json, --merge's report,
  compare's, --check --json, --list --json);
- else each line that starts with '{' and is a JSON object: a line of
  -j (pstat compare's when it has "side" and "vs", else pstat's).
A document with a "format" that has no schema fails: a new format brings
its schema. A line or file that is not JSON is not pstat's (a test's
command writes what it likes; a pstat that is killed stops mid-line).
--not PATH: a test's own input, written by hand to be refused, not
pstat's output (tests/init.sh's not_pstat_json).

Exit status: 0 all valid, 1 an invalid document (each error on
stdout, with the file, the line, where in the document and where in the
schema), 2 jsonschema cannot be imported.
"""

import json
import os
import stat
import sys
import time

try:
    import jsonschema
except ImportError as e:
    print("json-schema hook: %s cannot import jsonschema (%s): install "
          "the Debian package python3-jsonschema (scripts/bootstrap "
          "installs it with the test packages)" % (sys.executable, e))
    sys.exit(2)

MAX_ERRORS = 5
MAX_BYTES = 64 << 20


def pointer(path):
    return "/" + "/".join(str(p) for p in path)


class Checker:
    def __init__(self, schema_dir):
        self.dir = schema_dir
        self.schemas = {}
        self.store = {}
        for name in sorted(os.listdir(schema_dir)):
            if name.endswith(".schema.json"):
                with open(os.path.join(schema_dir, name)) as f:
                    s = json.load(f)
                self.schemas[name] = s
                self.store[s["$id"]] = s
        self.validators = {}
        self.valid = 0
        self.failed = 0

    def validator(self, name):
        v = self.validators.get(name)
        if v is None:
            s = self.schemas[name]
            resolver = jsonschema.RefResolver.from_schema(s,
                                                          store=self.store)
            v = jsonschema.Draft202012Validator(s, resolver=resolver)
            self.validators[name] = v
        return v

    def fail(self, where, text):
        print("%s: %s" % (where, text))
        self.failed += 1

    def check(self, where, doc, name):
        if name not in self.schemas:
            self.fail(where, "no schema %s in %s: a new JSON format (or "
                      "version) brings its schema" % (name, self.dir))
            return
        errors = sorted(self.validator(name).iter_errors(doc),
                        key=lambda e: list(e.path))
        if not errors:
            self.valid += 1
            return
        for e in errors[:MAX_ERRORS]:
            if e.context:
                e = jsonschema.exceptions.best_match(e.context)
            msg = e.message
            if len(msg) > 300:
                msg = msg[:300] + "..."
            print("%s: not valid by schema/%s: at %s: %s (schema: %s)"
                  % (where, name, pointer(e.absolute_path), msg,
                     pointer(e.absolute_schema_path)))
        if len(errors) > MAX_ERRORS:
            print("%s: %d errors more" % (where, len(errors) - MAX_ERRORS))
        self.failed += 1

    @staticmethod
    def doc_schema(doc):
        """The schema of a whole document, or None if it is not one."""
        if "format" in doc:
            return "%s-%s.schema.json" % (doc["format"],
                                          doc.get("format_version"))
        if "pstat_check" in doc:
            return "pstat-check-%s.schema.json" % doc["pstat_check"]
        if "version" in doc and any(k in doc for k in
                                    ("events", "metrics", "metricgroups")):
            return "pstat-list-%s.schema.json" % doc["version"]
        return None

    def check_file(self, path, label, seen):
        """Validates path's documents, unless seen has its content."""
        try:
            if os.path.getsize(path) > MAX_BYTES:
                return
            with open(path, "rb") as f:
                data = f.read()
            if not (data.startswith(b"{") or b"\n{" in data):
                return
            if data in seen:
                return
            seen.add(data)
            text = data.decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return
        if text.lstrip().startswith("{"):
            try:
                doc = json.loads(text)
            except ValueError:
                doc = None
            if isinstance(doc, dict):
                name = self.doc_schema(doc)
                if name:
                    self.check(label, doc, name)
                    return
        for n, line in enumerate(text.split("\n"), 1):
            if not line.startswith("{"):
                continue
            try:
                doc = json.loads(line)
            except ValueError:
                continue
            if not isinstance(doc, dict):
                continue
            name = self.doc_schema(doc)
            if not name:
                name = ("pstat-compare-jsonl-1.schema.json"
                        if "side" in doc and "vs" in doc
                        else "pstat-jsonl-1.schema.json")
            self.check("%s:%d" % (label, n), doc, name)


def walk(paths):
    """(folder, file) of each regular file of paths, in order; folder is
    None for a file named; no link, no FIFO."""
    for p in paths:
        try:
            st = os.lstat(p)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            yield None, p
        elif stat.S_ISDIR(st.st_mode):
            for top, dirs, names in os.walk(p):
                dirs.sort()
                for n in sorted(names):
                    f = os.path.join(top, n)
                    try:
                        if stat.S_ISREG(os.lstat(f).st_mode):
                            yield p, f
                    except OSError:
                        pass


def label(top, path):
    """A file by its path in the folder named (the test's: ./out); a
    copy that json_keep_ kept by what it is a copy of."""
    base = os.path.basename(path)
    n, sep, name = base.partition("=")
    if sep and n.isdigit() and os.path.dirname(path).endswith(".json"):
        return "./%s of the %s run of pstat (by run_pstat, run_nobody " \
               "or with_faults)" % (name, ordinal(int(n)))
    if top:
        return "./" + os.path.relpath(path, top)
    return path


def ordinal(n):
    if 10 <= n % 100 <= 20:
        return "%dth" % n
    return "%d%s" % (n, {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th"))


def main(argv):
    if len(argv) < 2:
        sys.exit("usage: json-schema.py SCHEMA_DIR [--not PATH]... FILE|DIR...")
    checker = Checker(argv[1])
    skip, files = set(), []
    args = iter(argv[2:])
    for a in args:
        if a == "--not":
            skip.add(os.path.realpath(next(args)))
        else:
            files.append(a)
    seen = set()
    for top, path in walk(files):
        if os.path.realpath(path) in skip:
            continue
        checker.check_file(path, label(top, path), seen)
    # The CPU time of this process, start-up included: the hook's cost.
    print("json-schema: %d documents valid, %d not (%.2f s of CPU)"
          % (checker.valid, checker.failed, time.process_time()))
    return 1 if checker.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
