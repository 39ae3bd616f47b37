#!/usr/bin/env python3
"""validation-repeat.py A.csv B.csv [C.csv ...]: how far the real side of `narwhal validate`
repeats itself (docs/experiments/validation-repeat.md).

Each file is a validation.csv that `narwhal validate FILE --out DIR` wrote. For each pair of
files, over the configurations both measured, it prints the real times of the first as if they
were a prediction of the second's, |A - B| / B, summarised as `narwhal validate` summarises a
simulation's errors (median, nearest-rank p95, max), and beside it each file's own simulated
errors. A simulator cannot be expected to predict one run of the protocol closer than another
run of the same protocol does: the first line is the floor of its figures on that machine.

Bad input (a file that cannot be read, is not a validation.csv, or shares no configuration with
another): one line naming it, exit 2.
"""
import csv
import itertools
import math
import sys


def fail(msg):
    print("validation-repeat: " + msg, file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        fail("%s: cannot be read (%s)" % (path, e))
    runs = {}
    for i, r in enumerate(rows, start=2):
        try:
            name = r["configuration"]
            real, error = float(r["real_s"]), float(r["error"])
        except (KeyError, TypeError, ValueError):
            fail("%s: line %d: not a validation.csv row (configuration, real_s, error)" % (path, i))
        if not (real > 0 and math.isfinite(error)):
            fail("%s: line %d: real_s must be above 0 and error a number" % (path, i))
        runs[name] = (real, error)
    if not runs:
        fail("%s: no configuration" % path)
    return runs


def quantile(v, p):
    """The nearest-rank p-quantile, as `narwhal validate` takes it (validate_stats.h)."""
    v = sorted(v)
    return v[max(0, math.ceil(p * len(v)) - 1)]


def summary(v):
    return "median %.1f%%, p95 %.1f%%, max %.1f%%" % (
        100 * quantile(v, 0.5), 100 * quantile(v, 0.95), 100 * max(v))


def main(argv):
    if len(argv) < 2:
        fail("usage: validation-repeat.py A.csv B.csv [C.csv ...] (validate's CSVs)")
    runs = [(p, load(p)) for p in argv]
    for (pa, a), (pb, b) in itertools.combinations(runs, 2):
        both = sorted(set(a) & set(b))
        if not both:
            fail("%s and %s share no configuration" % (pa, pb))
        real = {k: abs(a[k][0] - b[k][0]) / b[k][0] for k in both}
        worst = max(both, key=lambda k: real[k])
        print("%s against %s: %d configurations in both" % (pa, pb, len(both)))
        print("  real against real: %s (the worst: %s, %.4f s against %.4f s)" % (
            summary(list(real.values())), worst, a[worst][0], b[worst][0]))
        print("  simulated against real, first: %s" % summary([abs(a[k][1]) for k in both]))
        print("  simulated against real, second: %s" % summary([abs(b[k][1]) for k in both]))


if __name__ == "__main__":
    main(sys.argv[1:])
