#!/usr/bin/env bash
# sanitize.sh: builds the test suite with AddressSanitizer + UndefinedBehaviorSanitizer into
# build-asan and runs it. Any report fails a test (-fno-sanitize-recover). The recipe test
# (label recipe) is left out: it builds its own copy of the tree, without the sanitizers; so
# are the cluster tests (label cluster: emulated hosts and a local Slurm, whose programs the
# suite runs under the sanitizers elsewhere; they took 3.5 of CI's minutes under ASan).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh build-asan -DNW_SANITIZE=ON
ctest --test-dir build-asan --output-on-failure -LE "recipe|cluster"
