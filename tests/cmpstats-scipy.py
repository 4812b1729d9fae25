# SPDX-License-Identifier: GPL-2.0-or-later
"""cmpstats.c against scipy and numpy, for tests/cmpstats-scipy.sh.

    python3 cmpstats-scipy.py DUMP

Makes random pairs of samples (a fixed seed), runs them through DUMP
(tests/progs/cmpstats_dump) and compares each number with its expected
value: scipy.stats.mannwhitneyu's U and p, numpy's median of the pairwise
differences, numpy's order statistics, and the interval's k from a Python
implementation of its own here (exact counts in integers by the other
recurrence, R's qwilcox rule; or the normal rule with scipy's quantile).
Prints each mismatch; exit status 1 when there is one.
"""

import functools
import math
import random
import subprocess
import sys

import numpy as np
import scipy
from scipy import stats

REL_P = 1e-9
CDF_FUZZ = 10 * sys.float_info.epsilon


@functools.lru_cache(maxsize=None)
def u_counts(n, m):
    """Arrangements of n x's and m y's by U: f(n, m, k) = f(n-1, m, k-m) +
    f(n, m-1, k), the recurrence of Mann and Whitney, in integers."""
    if n == 0 or m == 0:
        return (1,)
    fewer_x, fewer_y = u_counts(n - 1, m), u_counts(n, m - 1)
    return tuple((fewer_x[k - m] if k >= m else 0) +
                 (fewer_y[k] if k < len(fewer_y) else 0)
                 for k in range(n * m + 1))


def expected_rule(n, m, ties, level):
    """(k, has_interval, level_achieved) of the interval."""
    if n < 50 and m < 50 and not ties:
        counts = u_counts(n, m)
        total = math.comb(n + m, n)
        cdf = [sum(counts[:q + 1]) / total for q in range(n * m // 2 + 1)]
        q = next(q for q, c in enumerate(cdf)
                 if c >= (1 - level) / 2 - CDF_FUZZ)
        if q == 0:
            return 1, False, 1 - 2 * cdf[0]
        return q, True, 1 - 2 * cdf[q - 1]
    nm = n * m
    sigma = math.sqrt(nm * (n + m + 1) / 12)
    k = math.floor(nm / 2 - stats.norm.ppf((1 + level) / 2) * sigma)
    if k >= 1:
        return k, True, level
    return 1, False, max(0.0, 2 * stats.norm.cdf((nm / 2 - 1) / sigma) - 1)


def sample(rng, n, kind, shift):
    """n values of one kind: continuous, few distinct (ties), all equal,
    negative, or counts around 1e12."""
    if kind == "normal":
        return [rng.gauss(100 + shift, 5) for _ in range(n)]
    if kind == "ties":
        return [float(rng.randint(0, 6) + round(shift)) for _ in range(n)]
    if kind == "equal":
        return [1000.0 + round(shift)] * n
    if kind == "negative":
        return [-rng.expovariate(0.01) - shift for _ in range(n)]
    return [1e12 + rng.randint(-1000, 1000) + round(shift) for _ in range(n)]


def cases():
    """About 200 (level, x, y), the same every run."""
    rng = random.Random(27)
    kinds = ("normal", "ties", "equal", "negative", "large")
    out = []
    for i in range(200):
        kind = kinds[i % len(kinds)]
        n, m = rng.randint(1, 40), rng.randint(1, 40)
        if i % 7 == 0:
            n = rng.randint(1, 8)        # scipy's exact p, by the size
        if i % 11 == 0:
            n = m                       # pstat compare's usual case
        shift = rng.choice((0, 0, 1, 5, 20))
        level = rng.choice((0.95, 0.95, 0.95, 0.9, 0.99))
        out.append((level, sample(rng, n, kind, 0),
                    sample(rng, m, kind, shift)))
    # The normal rule without ties: 50 or more on a side.
    for n, m in ((50, 50), (60, 12), (3, 55)):
        out.append((0.95, sample(rng, n, "normal", 0),
                    sample(rng, m, "normal", 2)))
    return out


def fmt(values):
    return " ".join(repr(float(v)) for v in values)


def run_dump(dump, inputs):
    text = "".join("%r %d %d %s %s\n" % (level, len(x), len(y), fmt(x),
                                          fmt(y))
                   for level, x, y in inputs)
    out = subprocess.run([dump], input=text, capture_output=True,
                         text=True, check=True, env={"LC_ALL": "C"})
    return [line.split() for line in out.stdout.splitlines()]


def close(got, want, rel):
    return got == want or abs(got - want) <= rel * abs(want)


def mann_whitney(x, y, exact):
    """scipy's U and p. Under scipy 1.10, the method its default 'auto'
    chooses is the one named here, which later versions may choose
    otherwise: the method is named, and 1.10's choice checked."""
    named = stats.mannwhitneyu(x, y, method="exact" if exact
                               else "asymptotic")
    if scipy.__version__.startswith("1.10."):
        auto = stats.mannwhitneyu(x, y)
        assert (auto.statistic, auto.pvalue) == tuple(named), (x, y)
    return named


def expected(level, x, y):
    """Every number the dump prints, in its order, with its tolerance."""
    ties = len(set(x + y)) < len(x) + len(y)
    exact = (len(x) <= 8 or len(y) <= 8) and not ties
    mwu = mann_whitney(x, y, exact)
    d = np.sort(np.subtract.outer(np.array(y), np.array(x)).ravel())
    k, has, achieved = expected_rule(len(x), len(y), ties, level)
    xa = np.array(x)
    return [
        ("u", mwu.statistic, 0), ("p", mwu.pvalue, REL_P),
        ("exact", int(exact), 0),
        ("estimate", np.median(d), 0), ("lo", d[k - 1], 0),
        ("hi", d[len(d) - k], 0), ("has_interval", int(has), 0),
        ("level_achieved", achieved, 1e-12), ("k", k, 0),
        ("n", len(x), 0), ("median", np.median(xa), 0),
        ("mean", np.mean(xa), 1e-13), ("min", xa.min(), 0),
        # An ulp apart where the compiler fuses the interpolation (arm64).
        ("max", xa.max(), 0), ("q1", np.percentile(xa, 25), 1e-15),
        ("q3", np.percentile(xa, 75), 1e-15),
        ("mad", stats.median_abs_deviation(xa), 0),
    ]


def check_errors(dump):
    """What no statistic is made of: -EINVAL (22) each."""
    bad = [(0.95, [1.0, float("nan")], [2.0]), (0.95, [1.0], [float("inf")]),
           (0.95, [], [1.0]), (0.95, [1.0], []), (1.0, [1.0], [2.0]),
           (0.0, [1.0], [2.0])]
    failures = 0
    for (level, x, y), line in zip(bad, run_dump(dump, bad)):
        if line != ["error", "22"]:
            print("FAIL: %r %r %r: %s, want error 22" % (level, x, y,
                                                         " ".join(line)))
            failures += 1
    return failures


def main():
    dump = sys.argv[1]
    inputs = cases()
    lines = run_dump(dump, inputs)
    if len(lines) != len(inputs):
        print("FAIL: %d lines for %d cases" % (len(lines), len(inputs)))
        return 1
    failures = check_errors(dump)
    for i, ((level, x, y), line) in enumerate(zip(inputs, lines)):
        for (name, want, rel), got in zip(expected(level, x, y), line):
            if not close(float(got), float(want), rel):
                print("FAIL: case %d (n=%d m=%d level=%r) %s: %s, want %r"
                      % (i, len(x), len(y), level, name, got, float(want)))
                print("  x = %s\n  y = %s" % (fmt(x), fmt(y)))
                failures += 1
    print("%d cases, %d mismatches" % (len(inputs), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
