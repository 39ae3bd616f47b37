#!/usr/bin/env bash
# bootstrap.sh [BUILD_DIR] [CMAKE_ARGS...]: installs the Debian packages Narwhal needs (only
# those missing; as root, or through sudo), then configures and builds into BUILD_DIR
# (default: build). Safe to run again: it installs nothing twice and rebuilds incrementally.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true

packages=(build-essential cmake pkg-config libsimgrid-dev libopenmpi-dev openmpi-bin
  libopenblas-dev liblapacke-dev libfftw3-dev libcjson-dev gnuplot-nox libstarpu-dev
  slurmctld slurmd slurm-client munge)
# JSON in the shell scripts that read validation files and sweeps (benchmarks/calibration-ab.sh,
# tests/fuzz/fuzz.sh).
packages+=(jq)
# The Python package (python/, docs/guide/python.md), installed offline into BUILD_DIR/venv
# against these, and the notebooks' runner (nbclient, nbformat, ipykernel).
packages+=(python3-venv python3-pip python3-setuptools python3-wheel python3-pandas
  python3-matplotlib python3-pytest python3-nbclient python3-nbformat python3-ipykernel)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "bootstrap: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
  fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# CUDA lives outside Debian's packages, at /usr/local/cuda on the project's machines.
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build "$build" -j"$(nproc)"
# The narwhal Python package into $build/venv (again only when python/ changed).
python/install-venv.sh "$build"
