#!/usr/bin/env python3
"""validation-resimulate.py RUN.csv CALIBRATIONS_DIR [--narwhal PATH] [--file HELD_OUT.json]:
a recorded held-out run's real rounds against this build's simulator
(docs/experiments/own-fit-whole-price.md).

RUN.csv is the validation.csv of a `narwhal validate HELD_OUT.json --out DIR` run;
CALIBRATIONS_DIR holds what that run simulated with: each calibration's model (NAME.json) and
its anchored platform (anchored/NAME.xml), as DIR held them (the recorded runs' are in
experiments/validation/runs/calibrations/START/). Each configuration of the CSV is simulated again
as `narwhal validate` simulates it (the same options, one node's runs without bytes unless the
configuration says otherwise), and the script prints, per configuration, the recorded and the
new error against the recorded best real round, then for both the summary `narwhal validate`
prints: median, nearest-rank p95 and max |error|, how many are within max(12%, the
configuration's own spread), and of the pairs of a group that the hardware told apart (their
real times differ by more than both configurations' spreads, max - min of the rounds), how many
the simulation orders alike. A change to the simulator is so measured against hardware rounds
already run, without running them again; the real side is the run's, so this is not a new
validation.

Bad input (a file that cannot be read, a CSV row or configuration it cannot use, a simulation
that fails): one line naming it, exit 2.
"""
import csv
import json
import math
import os
import statistics
import subprocess
import sys


def fail(msg):
    print("validation-resimulate: " + msg, file=sys.stderr)
    sys.exit(2)


def args():
    a = sys.argv[1:]
    opts = {"--narwhal": "build/narwhal", "--file": "experiments/validation/held-out.json"}
    pos = []
    while a:
        x = a.pop(0)
        if x in opts:
            if not a:
                fail("%s needs a value" % x)
            opts[x] = a.pop(0)
        elif x.startswith("-"):
            fail("unknown option %s (usage: RUN.csv CALIBRATIONS_DIR [--narwhal PATH] "
                 "[--file HELD_OUT.json])" % x)
        else:
            pos.append(x)
    if len(pos) != 2:
        fail("usage: RUN.csv CALIBRATIONS_DIR [--narwhal PATH] [--file HELD_OUT.json]")
    return pos[0], pos[1], opts["--narwhal"], opts["--file"]


def load_run(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        fail("%s: cannot be read (%s)" % (path, e))
    out = []
    for i, r in enumerate(rows, start=2):
        try:
            rounds = [float(x) for x in r["rounds_s"].split(";") if x]
            row = (r["configuration"], float(r["real_s"]), float(r["simulated_s"]), rounds)
        except (KeyError, TypeError, ValueError, AttributeError):
            fail("%s: line %d: not a validation.csv row (configuration, real_s, simulated_s, "
                 "rounds_s)" % (path, i))
        if not (row[1] > 0 and row[2] > 0 and rounds):
            fail("%s: line %d: real_s and simulated_s must be above 0, rounds_s a list" % (path, i))
        out.append(row)
    if not out:
        fail("%s: no configurations" % path)
    return out


def load_file(path):
    try:
        with open(path) as f:
            j = json.load(f)
        cals = {c["name"]: int(c["ranks"]) for c in j["calibrations"]}
        confs = {c["name"]: c for c in j["configurations"]}
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail("%s: not a held-out file (%s)" % (path, e))
    return cals, confs


def simulate(narwhal, caldir, conf, ranks):
    cal = conf["calibration"]
    xml = os.path.join(caldir, "anchored", cal + ".xml")
    model = os.path.join(caldir, cal + ".json")
    for p in (xml, model):
        if not os.path.isfile(p):
            fail("%s: missing (calibration '%s' of configuration '%s')" % (p, cal, conf["name"]))
    cmd = [narwhal, "run", "--backend", "sim", "--platform", xml, "--perfmodel", model,
           "--nodes", str(ranks)] + list(conf["args"]) + ["--json"]
    if ranks == 1 and "--data" not in conf["args"]:
        cmd += ["--data", "phantom"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
        s = json.loads(p.stdout)["makespan_s"] if p.returncode == 0 else None
    except (OSError, ValueError, KeyError) as e:
        fail("configuration '%s': %s (%s)" % (conf["name"], " ".join(cmd), e))
    if not (isinstance(s, (int, float)) and s > 0):
        fail("configuration '%s' does not run in simulation: %s" %
             (conf["name"], (p.stderr.strip().splitlines() or ["(no message)"])[-1]))
    return s


def summary(label, rows, sims, confs):
    err = [abs(s / r[1] - 1) for r, s in zip(rows, sims)]
    within = sum(e <= max(0.12, (max(r[3]) - min(r[3])) / r[1]) for e, r in zip(err, rows))
    p95 = sorted(err)[math.ceil(0.95 * len(err)) - 1]
    decided = agree = 0
    groups = {}
    for k, r in enumerate(rows):
        g = confs[r[0]].get("group")
        if g:
            groups.setdefault(g, []).append(k)
    for ks in groups.values():
        for a in range(len(ks)):
            for b in range(a + 1, len(ks)):
                i, j = rows[ks[a]], rows[ks[b]]
                d = i[1] - j[1]
                if abs(d) > max(i[3]) - min(i[3]) and abs(d) > max(j[3]) - min(j[3]):
                    decided += 1
                    agree += (sims[ks[a]] - sims[ks[b]] > 0) == (d > 0)
    print("%s: |error| median %.1f%%, p95 %.1f%%, max %.1f%%; within max(12%%, own spread): "
          "%d of %d; pairs the hardware tells apart: %d, ordered alike %d" %
          (label, 100 * statistics.median(err), 100 * p95, 100 * max(err), within, len(err),
           decided, agree))


def main():
    run, caldir, narwhal, held_out = args()
    rows = load_run(run)
    cals, confs = load_file(held_out)
    new = []
    print("%-44s %10s %9s %9s" % ("configuration", "real_s", "recorded", "now"))
    for r in rows:
        conf = confs.get(r[0])
        if conf is None or conf.get("calibration") not in cals:
            fail("%s: configuration '%s' is not in %s" % (run, r[0], held_out))
        s = simulate(narwhal, caldir, conf, cals[conf["calibration"]])
        new.append(s)
        print("%-44s %10.6f %+8.1f%% %+8.1f%%" % (r[0][:44], r[1], 100 * (r[2] / r[1] - 1),
                                                  100 * (s / r[1] - 1)), flush=True)
    summary("recorded", rows, [r[2] for r in rows], confs)
    summary("now", rows, new, confs)


if __name__ == "__main__":
    main()
