#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The command lines the README, doc/*.md and the man page show as examples.

An example is a line of a Markdown code block (indented by four spaces
or more, in a list item too) that starts with "$ ", or a ".Dl $ " line
of the man page, its \\- and \\(dq read as - and ".
Prints one a line, after a tab the exit status it should have: 125
when the document shows pstat's error under it, else 0.
Usage: doc-examples.py FILE.md... man/pstat.1
"""
import sys


def markdown(path):
    lines = open(path).read().splitlines()
    for i, line in enumerate(lines):
        text = line.lstrip(" ")
        if len(line) - len(text) >= 4 and text.startswith("$ "):
            after = lines[i + 1].lstrip(" ") if i + 1 < len(lines) else ""
            status = 125 if after.startswith("pstat: ") else 0
            yield text[2:], status


def man(path):
    for line in open(path):
        if line.startswith(".Dl $ "):
            yield (line[6:].rstrip("\n").replace("\\-", "-")
                   .replace("\\(dq", '"')), 0


for path in sys.argv[1:]:
    for cmd, status in markdown(path) if path.endswith(".md") else man(path):
        print("%d\t%s" % (status, cmd))
