#!/usr/bin/env bash
# sanitize.sh: builds the test suite with AddressSanitizer + UndefinedBehaviorSanitizer into
# build-asan and runs it. Any report fails a test (-fno-sanitize-recover). The recipe test
# (label recipe) is left out: it builds its own copy of the tree, without the sanitizers.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh build-asan -DNW_SANITIZE=ON
ctest --test-dir build-asan --output-on-failure -LE recipe
