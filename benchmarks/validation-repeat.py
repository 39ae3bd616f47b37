#!/usr/bin/env python3
"""validation-repeat.py A.csv [B.csv ...]: how far the real side of `narwhal validate`
repeats itself (docs/experiments/validation-repeat.md).

Each file is a validation.csv that `narwhal validate FILE --out DIR` wrote. For each pair of
files, over the configurations both measured, it prints the real times of the first as if they
were a prediction of the second's, |A - B| / B, summarised as `narwhal validate` summarises a
simulation's errors (median, nearest-rank p95, max), beside it each file's own simulated
errors, and how far the two runs' simulations are apart (each run calibrates afresh). Then,
over all the files: the range of the pairs' real medians and p95s and of the runs' own
simulated ones (over all of each run's configurations, as it printed them); the median of the
runs' real times, configuration by configuration, as a prediction of each run's (what a
simulator predicting the machine's typical time exactly would score); and the configurations
that every run simulated on the same side of the hardware (an error the draws do not explain).
Where a file has every round's time (validate's rounds_s), it first prints the same
comparison within that run: the best of its first half of rounds against the best of the next.
A simulator cannot be expected to predict one run of the protocol closer than another run
does: these figures are the floor of its own on that machine.

Bad input (a file that cannot be read, is not a validation.csv, or shares no configuration with
another): one line naming it, exit 2.
"""
import csv
import itertools
import math
import statistics
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
            real, error, sim = float(r["real_s"]), float(r["error"]), float(r["simulated_s"])
        except (KeyError, TypeError, ValueError):
            fail("%s: line %d: not a validation.csv row (configuration, real_s, simulated_s, "
                 "error)" % (path, i))
        if not (real > 0 and sim > 0 and math.isfinite(error)):
            fail("%s: line %d: real_s and simulated_s must be above 0, error a number" % (path, i))
        try:  # every round's seconds (validate's rounds_s; absent in older CSVs)
            rounds = [float(t) for t in (r.get("rounds_s") or "").split(";") if t]
        except ValueError:
            rounds = [-1.0]
        if not all(t > 0 for t in rounds):
            fail("%s: line %d: rounds_s is not seconds above 0 separated by ';'" % (path, i))
        runs[name] = (real, error, sim, rounds)
    if not runs:
        fail("%s: no configuration" % path)
    return runs


def quantile(v, p):
    """The nearest-rank p-quantile, as `narwhal validate` takes it (validate_stats.h)."""
    v = sorted(v)
    return v[max(0, math.ceil(p * len(v)) - 1)]


def mid_p95(v):
    """The median and p95 of v: a run's two figures that the ranges below compare."""
    return quantile(v, 0.5), quantile(v, 0.95)


def summary(v):
    return "median %.1f%%, p95 %.1f%%, max %.1f%%" % (
        100 * quantile(v, 0.5), 100 * quantile(v, 0.95), 100 * max(v))


def span(figs, i):
    """The range of figure i over figs, in percent: "3.2-6.1%", or one value."""
    lo, hi = min(f[i] for f in figs), max(f[i] for f in figs)
    return "%.1f%%" % (100 * lo) if round(1000 * lo) == round(1000 * hi) else \
        "%.1f-%.1f%%" % (100 * lo, 100 * hi)


def within(path, run):
    """Within one run that kept every round (rounds_s): the best of its first half of rounds as
    a prediction of the best of its second half, as between two runs."""
    halves = {}
    for k, (_, _, _, rounds) in run.items():
        h = len(rounds) // 2
        if h:
            halves[k] = (min(rounds[:h]), min(rounds[h:2 * h]), h)
    if not halves:
        return False
    d = [abs(a - b) / b for a, b, _ in halves.values()]
    sizes = sorted(set(h for _, _, h in halves.values()))
    print("%s, within: the best of the first %s rounds against the best of the next, over %d "
          "configurations: %s" % (path, "/".join(map(str, sizes)), len(d), summary(d)))
    return True


def main(argv):
    if not argv:
        fail("usage: validation-repeat.py A.csv [B.csv ...] (validate's CSVs)")
    runs = [(p, load(p)) for p in argv]
    for (pa, a), (pb, b) in itertools.combinations(runs, 2):
        if not set(a) & set(b):
            fail("%s and %s share no configuration" % (pa, pb))
    compared = [within(p, r) for p, r in runs]
    if len(runs) == 1:
        if not compared[0]:
            fail("%s: one file without two rounds of a configuration (rounds_s): nothing to "
                 "compare" % argv[0])
        return
    real_fig, sim_fig = [], []  # (median, p95) of each pair's real figures, each run's own
    for (pa, a), (pb, b) in itertools.combinations(runs, 2):
        both = sorted(set(a) & set(b))
        real = {k: abs(a[k][0] - b[k][0]) / b[k][0] for k in both}
        worst = max(both, key=lambda k: real[k])
        print("%s against %s: %d configurations in both" % (pa, pb, len(both)))
        print("  real against real: %s (the worst: %s, %.4f s against %.4f s)" % (
            summary(list(real.values())), worst, a[worst][0], b[worst][0]))
        print("  simulated against real, first: %s" % summary([abs(a[k][1]) for k in both]))
        print("  simulated against real, second: %s" % summary([abs(b[k][1]) for k in both]))
        # Each run calibrates afresh: how far its simulation moves is the calibration's draw.
        print("  simulated against simulated: %s" % summary(
            [abs(a[k][2] - b[k][2]) / b[k][2] for k in both]))
        real_fig.append(mid_p95(list(real.values())))
    for _, r in runs:
        sim_fig.append(mid_p95([abs(e) for _, e, _, _ in r.values()]))
    print("over %d runs, %d pairs: real against real: median %s, p95 %s; simulated against real: "
          "median %s, p95 %s" % (len(runs), len(real_fig), span(real_fig, 0), span(real_fig, 1),
                                 span(sim_fig, 0), span(sim_fig, 1)))
    # The runs' median real time of each configuration as the prediction of each run's: what a
    # simulator that predicted the machine's typical time exactly would score (in sample: the
    # median includes the run itself, so this floor is if anything low).
    common = set.intersection(*(set(r) for _, r in runs))
    if not common:
        print("no configuration is in all the runs")
        return
    typical = {k: statistics.median(r[k][0] for _, r in runs) for k in common}
    floor = []
    for _, r in runs:
        floor.append(mid_p95([abs(typical[k] - r[k][0]) / r[k][0] for k in common]))
    print("the runs' median real times against each run's, over the %d configurations all have: "
          "median %s, p95 %s" % (len(common), span(floor, 0), span(floor, 1)))
    # A configuration simulated on the same side of the hardware in every run has an error the
    # draws do not explain: the model's own, to look for.
    steady = [k for k in common if all(r[k][1] > 0 for _, r in runs) or
              all(r[k][1] < 0 for _, r in runs)]
    print("simulated on the same side of the hardware in all %d runs: %d configurations" % (
        len(runs), len(steady)))
    errors = {k: [r[k][1] for _, r in runs] for k in steady}
    for k in sorted(steady, key=lambda k: (-abs(statistics.median(errors[k])), k)):
        print("  %s: median %+.1f%% (%+.1f%% to %+.1f%%)" % (
            k, 100 * statistics.median(errors[k]), 100 * min(errors[k]), 100 * max(errors[k])))


if __name__ == "__main__":
    main(sys.argv[1:])
