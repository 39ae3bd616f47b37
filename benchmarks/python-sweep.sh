#!/usr/bin/env bash
# python-sweep.sh [BUILD_DIR]: how much narwhal.sweep gains from running its points in parallel
# processes (docs/guide/python.md), beside what `narwhal sweep -j` gains on the same machine at
# the same time (the baseline: what the cores allow). One sweep of 8 points of the same cost
# (the paper cluster's model, matmul 32768 in phantom 256-blocks on 4 nodes, seeds 1-8: about
# 0.6 s of simulation each on the project's machine), with 1 and 2 jobs, interleaved (Python 1,
# 2, CLI 1, 2, ...) so that all see the same machine, best of REPS (default 3) each; prints the
# times and each one's ratio. On 2 cores the ceiling is 2; what the package loses beside the
# CLI is its process per point and the parent's own work.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
python/install-venv.sh "$build"
REPS=${REPS:-3} NARWHAL=$build/narwhal "$build/venv/bin/python" - <<'PY'
import json
import os
import subprocess
import tempfile
import time

import narwhal

base = {"platform": "platforms/paper-cluster.xml", "n": 32768, "block": 256,
        "data": "phantom", "nodes": 4}
vary = {"seed": list(range(1, 9))}
best = {}
rows = {}
with tempfile.TemporaryDirectory() as tmp:
    definition = os.path.join(tmp, "sweep.json")
    with open(definition, "w", encoding="utf-8") as f:
        json.dump({"base": base, "vary": vary}, f)
    for rep in range(int(os.environ["REPS"])):
        for jobs in (1, 2):
            start = time.perf_counter()
            rows.setdefault(jobs, narwhal.sweep(base, vary, jobs=jobs))
            best[("python", jobs)] = min(best.get(("python", jobs), 1e9),
                                         time.perf_counter() - start)
        for jobs in (1, 2):
            start = time.perf_counter()
            subprocess.run([os.environ["NARWHAL"], "sweep", definition, "--plot", "off", "-j",
                            str(jobs)], check=True, stdout=subprocess.DEVNULL)
            best[("cli", jobs)] = min(best.get(("cli", jobs), 1e9), time.perf_counter() - start)
assert rows[1].equals(rows[2]), "jobs=2 gave other rows than jobs=1"
print(f"8 points on {os.cpu_count()} cores, best of {os.environ['REPS']}:")
for who, name in (("python", "narwhal.sweep"), ("cli", "narwhal sweep")):
    one, two = best[(who, 1)], best[(who, 2)]
    print(f"  {name:14s} 1 job {one:6.2f} s, 2 jobs {two:6.2f} s, ratio {one / two:.2f}x")
PY
