#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every link of the README and doc/*.md finds its file and, after a #,
# a heading of it; every "(README, Section)" of the other files names
# one of the README's headings, and every doc/NAME.md they name exists.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

command -v python3 >/dev/null 2>&1 || skip_ "python3 is needed to read the links"

cat >links.py <<'PY' || framework_failure_ "cannot write links.py"
import glob, os, re, sys

top = sys.argv[1]
bad = []


def slug(heading):
    """The anchor GitHub gives a Markdown heading."""
    s = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return s.replace(" ", "-")


def headings(path):
    return [line.lstrip("#").strip() for line in open(path)
            if re.match(r"#{1,6} ", line)]


docs = [os.path.join(top, "README.md")] + sorted(
    glob.glob(os.path.join(top, "doc", "*.md")))
links = 0
for doc in docs:
    for n, line in enumerate(open(doc), 1):
        if line.startswith("    "):
            continue            # a code block
        for target in re.findall(r"\]\(([^()\s]+)\)", line):
            if re.match(r"[a-z]+:", target):
                continue        # http:, mailto:
            links += 1
            path, _, anchor = target.partition("#")
            path = os.path.normpath(os.path.join(os.path.dirname(doc),
                                                 path)) if path else doc
            where = "%s:%d: %s" % (os.path.relpath(doc, top), n, target)
            if not os.path.exists(path):
                bad.append(where + ": no such file")
            elif anchor and anchor not in [slug(h) for h in headings(path)]:
                bad.append(where + ": no such heading")
if links < 10:
    bad.append("only %d links found" % links)

readme = [h.lower() for h in headings(os.path.join(top, "README.md"))]
others = ["NEWS", "Makefile.am", "configure.ac", ".ci/run", "man/pstat.1"]
others += glob.glob(os.path.join(top, "debian", "*"))
others += glob.glob(os.path.join(top, "scripts", "*"))
others += glob.glob(os.path.join(top, "src", "*.[ch]"))
for name in others:
    path = os.path.join(top, name)
    if not os.path.isfile(path):
        continue
    try:
        text = open(path).read()
    except UnicodeDecodeError:
        continue
    # Comments and man page lines joined into one text.
    text = re.sub(r"\n[ \t]*(#|\*|//|dnl|\.\\\")?[ \t]*", " ", text)
    rel = os.path.relpath(path, top)
    for section in re.findall(r"\(README(?:\.md)?[,:] ([^();]+?)[;)]", text):
        if section.lower() not in readme:
            bad.append("%s: (README, %s): no such heading" % (rel, section))
    for doc in re.findall(r"\bdoc/[\w-]+\.md\b", text):
        if not os.path.exists(os.path.join(top, doc)):
            bad.append("%s: %s: no such file" % (rel, doc))

for line in bad:
    print(line)
sys.exit(1 if bad else 0)
PY

python3 links.py "$top_srcdir" >out 2>&1 || { cat out; fail_ "links that lead nowhere"; }
