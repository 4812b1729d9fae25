#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The command lines the README and the man page show as examples.

An example is a line of a README code block that starts with "$ ", or
a ".Dl $ " line of the man page, its \\- and \\(dq read as - and ".
Prints one a line, after a tab the exit status it should have: 125
when the README shows pstat's error under it, else 0.
Usage: doc-examples.py README.md man/pstat.1
"""
import sys


def readme(path):
    lines = open(path).read().splitlines()
    for i, line in enumerate(lines):
        if line.startswith("    $ "):
            after = lines[i + 1] if i + 1 < len(lines) else ""
            status = 125 if after.startswith("    pstat: ") else 0
            yield line[6:], status


def man(path):
    for line in open(path):
        if line.startswith(".Dl $ "):
            yield (line[6:].rstrip("\n").replace("\\-", "-")
                   .replace("\\(dq", '"')), 0


for cmd, status in list(readme(sys.argv[1])) + list(man(sys.argv[2])):
    print("%d\t%s" % (status, cmd))
