#!/usr/bin/env bash
# run.sh BUILD_DIR SRC_DIR: the python tests (tests/python/CMakeLists.txt): installs the
# package into BUILD_DIR/venv when python/ changed, then runs pytest from that venv on this
# folder's tests, from a scratch folder (nothing is written into the source tree).
set -euo pipefail
build=$1 src=$2
"$src/python/install-venv.sh" "$build"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
NARWHAL_TEST_BUILD=$build NARWHAL_TEST_SOURCE=$src \
  "$build/venv/bin/python" -m pytest -p no:cacheprovider -q -rs "$src/tests/python"
