#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A strict checker of OpenMetrics 1.0 text expositions, for
tests/openmetrics.sh: the ABNF of the specification (lines, names,
labels, escapes, numbers, # EOF) and the rules around it that a text
parser can see (families whole and once each, their descriptors before
their samples and once each, a UNIT that ends the name, the samples'
names those of their family's type, no label set twice, counters
neither negative nor NaN, UTF-8 throughout).

    openmetrics-check.py [--stream] FILE

FILE is one exposition, ending in '# EOF'; with --stream, one or more
one after another (pstat -I on a stream). Says each problem as
FILE:LINE: WHAT and exits 1; exits 0 for a good file. Python's
standard library only."""

import re
import sys

NAME = r'[a-zA-Z_:][a-zA-Z0-9_:]*'
LABEL_NAME = r'[a-zA-Z_][a-zA-Z0-9_]*'
# escaped-string: anything but LF, '"' and '\', or \\ \" \n.
ESCAPED = r'(?:[^\n"\\]|\\\\|\\"|\\n)*'
# number: realnumber, or +-inf/infinity, nan, case-insensitive.
REAL = (r'[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?')
NUMBER = r'(?:' + REAL + r'|[+-]?(?i:inf|infinity)|(?i:nan))'
LABEL = LABEL_NAME + r'="' + ESCAPED + r'"'
LABELS = r'\{(?:' + LABEL + r'(?:,' + LABEL + r')*)?\}'
SAMPLE = re.compile(r'(' + NAME + r')(' + LABELS + r')? (' + NUMBER +
                    r')(?: (' + REAL + r'))?$')
TYPE = re.compile(r'# TYPE (' + NAME + r') (counter|gauge|stateset|info|'
                  r'histogram|gaugehistogram|summary|unknown)$')
HELP = re.compile(r'# HELP (' + NAME + r') (' + ESCAPED + r')$')
UNIT = re.compile(r'# UNIT (' + NAME + r') ([a-zA-Z0-9_:]*)$')
ONE_LABEL = re.compile(r'(' + LABEL_NAME + r')="(' + ESCAPED + r')"')

# The sample names each type's family may have, after its own name.
SUFFIXES = {
    'counter': ('_total', '_created'),
    'gauge': ('',),
    'unknown': ('',),
    'stateset': ('',),
    'info': ('_info',),
    'summary': ('', '_count', '_sum', '_created'),
    'histogram': ('_bucket', '_count', '_sum', '_created'),
    'gaugehistogram': ('_bucket', '_gcount', '_gsum'),
}


class Exposition:
    def __init__(self, where):
        self.where = where
        self.problems = []
        self.families = {}      # name: {'type', 'unit', 'help', 'samples'}
        self.done = set()       # families ended by another's start
        self.current = None

    def problem(self, line, what):
        self.problems.append('%s:%d: %s' % (self.where, line, what))

    def family(self, name, line):
        """The family name names, started here where it is new."""
        if name == self.current:
            return self.families[name]
        if name in self.families:
            self.problem(line, "family '%s' again, after others: "
                         "families are not interleaved" % name)
        if self.current:
            self.done.add(self.current)
        self.current = name
        return self.families.setdefault(
            name, {'type': None, 'unit': None, 'help': None,
                   'samples': 0, 'seen': set()})

    def descriptor(self, line, what, name, value):
        fam = self.family(name, line)
        if fam['samples']:
            self.problem(line, "# %s of '%s' after its samples" % (what, name))
        if fam[what.lower()] is not None:
            self.problem(line, "a second # %s for '%s'" % (what, name))
        fam[what.lower()] = value
        if what == 'UNIT' and value and not name.endswith('_' + value):
            self.problem(line, "'%s' does not end in its unit, _%s"
                         % (name, value))

    def owner(self, name):
        """The family a sample named name belongs to, and its type."""
        cur = self.families.get(self.current) if self.current else None
        if cur is not None:
            typ = cur['type'] or 'unknown'
            for suffix in SUFFIXES[typ]:
                if name == self.current + suffix:
                    return self.current
        return None

    def sample(self, line, m):
        name, labels, value = m.group(1), m.group(2) or '', m.group(3)
        fam_name = self.owner(name)
        for other, fam in self.families.items():
            typ = fam['type'] or 'unknown'
            if fam_name is None and other != self.current and any(
                    name == other + suffix for suffix in SUFFIXES[typ]):
                self.problem(line, "a sample of family '%s' after others: "
                             "families are not interleaved" % other)
        if fam_name is None:
            # A sample of no family yet: an unknown family of its own.
            fam_name = name
            fam = self.family(name, line)
            if fam['type'] not in (None, 'unknown', 'gauge', 'stateset'):
                self.problem(line, "'%s' is no sample name of a %s"
                             % (name, fam['type']))
        fam = self.families[fam_name]
        fam['samples'] += 1
        names = []
        pairs = []
        for lm in ONE_LABEL.finditer(labels):
            names.append(lm.group(1))
            pairs.append((lm.group(1), lm.group(2)))
        if len(set(names)) != len(names):
            self.problem(line, 'a label name twice: %s' % labels)
        key = (name, tuple(sorted(pairs)))
        if key in fam['seen']:
            self.problem(line, 'the same name and labels again: %s%s'
                         % (name, labels))
        fam['seen'].add(key)
        typ = fam['type'] or 'unknown'
        if typ == 'counter' and name.endswith('_total'):
            v = float(value)
            if v != v or v < 0:
                self.problem(line, "a counter's value is NaN or negative: %s"
                             % value)


def check(path, stream):
    with open(path, 'rb') as f:
        data = f.read()
    problems = []
    try:
        text = data.decode('utf-8')
    except UnicodeDecodeError as e:
        return ['%s: not UTF-8: %s' % (path, e)]
    if not text.endswith('# EOF\n'):
        problems.append("%s: does not end in '# EOF' and a newline" % path)
    lines = text.split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    expo = Exposition(path)
    expositions = 0
    ended = False
    for i, line in enumerate(lines, 1):
        if ended and not stream:
            problems.append('%s:%d: after # EOF' % (path, i))
            break
        ended = False
        if line == '# EOF':
            problems += expo.problems
            expositions += 1
            expo = Exposition(path)
            ended = True
            continue
        if line.startswith('#'):
            for what, rx in (('TYPE', TYPE), ('HELP', HELP), ('UNIT', UNIT)):
                m = rx.match(line)
                if m:
                    expo.descriptor(i, what, m.group(1), m.group(2))
                    break
            else:
                expo.problem(i, 'not a # TYPE, # HELP, # UNIT or # EOF line '
                             '(OpenMetrics has no other comments): %r'
                             % line)
            continue
        m = SAMPLE.match(line)
        if not m:
            expo.problem(i, 'not a sample as the ABNF has it: %r' % line)
            continue
        expo.sample(i, m)
    problems += expo.problems
    if not stream and expositions != 1:
        problems.append('%s: %d expositions, not one' % (path, expositions))
    if stream and expositions < 1:
        problems.append('%s: no exposition' % path)
    return problems


def main(argv):
    stream = len(argv) > 1 and argv[1] == '--stream'
    args = argv[2:] if stream else argv[1:]
    if len(args) != 1:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    problems = check(args[0], stream)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
