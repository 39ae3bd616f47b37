#!/usr/bin/env bash
# install-venv.sh [BUILD_DIR]: the narwhal Python package (python/) installed into
# BUILD_DIR/venv (default build/venv), a virtual environment of Debian's python3 that sees its
# system packages (pandas, matplotlib, pytest, ...: scripts/bootstrap.sh installs them), so the
# install needs no network: pip builds the package from this folder with Debian's setuptools.
# The package records BUILD_DIR, where it finds libnarwhal_tool.so (docs/guide/python.md).
# Safe to run again, and quick: the venv is made once, and the package is installed again only
# when a file of python/ (or the version) is newer than the last install. scripts/bootstrap.sh
# and the python tests (tests/python) call it.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:-build}" && pwd)
venv=$build/venv
stamp=$venv/.narwhal-installed
# Debian's interpreter, whose dist-packages hold the packages apt installed (a python3 earlier
# on PATH, pyenv's say, would not see them).
py=${NARWHAL_PYTHON:-/usr/bin/python3}
[ -x "$py" ] || py=$(command -v python3)
if [ ! -x "$venv/bin/python" ]; then
  echo "install-venv: making $venv"
  "$py" -m venv --system-site-packages "$venv"
fi
changed=$(find python lib/version.h -newer "$stamp" -type f -not -path 'python/build/*' \
  -not -path '*.egg-info/*' -not -path '*/__pycache__/*' -print -quit 2>/dev/null || echo new)
if [ -f "$stamp" ] && [ -z "$changed" ]; then
  exit 0
fi
echo "install-venv: installing the narwhal package into $venv"
NARWHAL_BUILD_DIR=$build "$venv/bin/pip" install --quiet --no-index --no-build-isolation \
  --disable-pip-version-check ./python
touch "$stamp"
