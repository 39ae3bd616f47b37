#!/usr/bin/env bash
# sanitize.sh: builds the test suite with AddressSanitizer + UndefinedBehaviorSanitizer into
# build-asan and runs it. Any report fails a test (-fno-sanitize-recover). The recipe test
# (label recipe) is left out: it builds its own copy of the tree, without the sanitizers; so
# are the cluster tests (label cluster: emulated hosts and a local Slurm, whose programs the
# suite runs under the sanitizers elsewhere; they took 3.5 of CI's minutes under ASan), and so
# are the Python package's (label python: an interpreter built without AddressSanitizer cannot
# load the instrumented libnarwhal_tool.so; the C code they call is the tool's, tested here).
# Two tests at a time: most are one single-threaded simulation, and one by one the suite took
# 2799 s of .ci/run's 3285 s on the project's 2-core machine; tests that time something or
# start several ranks are RUN_SERIAL, which ctest runs alone even so.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh build-asan -DNW_SANITIZE=ON
ctest --test-dir build-asan --output-on-failure -j2 -LE "recipe|cluster|python"
