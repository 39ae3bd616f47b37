#!/usr/bin/env bash
# paper-nic-sweep.sh [BUILD_DIR]: which NIC bandwidth each of the Unicorn paper's four Fig. 4
# benchmarks asks for (Beri, Bansal, Kumar, "The Unicorn Runtime: Efficient Distributed Shared
# Memory Programming for Hybrid CPU-GPU Clusters", IEEE TPDS, section 5.2: on 14 nodes conv2d
# 11.83x, matmul 7.34x at 7.88 TFlop/s, 2D FFT 5.36x, LU 4.8x). Runs each on 1 and 14 nodes of
# platforms/paper-cluster-fitted.xml with only the NIC bandwidth (and, with PCIE set, the PCIe
# bandwidth) changed, as benchmarks/app-scaling.sh runs them, and prints the 14-node speed-ups.
# If one model of the cluster fitted all four, one row would match all four; where each
# benchmark's own row lies says what the model lacks (docs/experiments/paper-cluster-fitted.md,
# "One NIC for all four"). About 7 seconds on one core.
#
# NICS (environment): the bandwidths, default "726MBps 1000MBps 1200MBps 1400MBps 2GBps 4GBps"
# (726 MB/s is the fitted platform's, 4 GB/s the data sheet's 32 Gb/s InfiniBand).
# PCIE (environment): the PCIe bandwidth of every GPU, default the platform's (6GBps).
set -eu
build=${1:-build}
nw=$build/narwhal
src=$(cd "$(dirname "$0")/.." && pwd)
base=$src/platforms/paper-cluster-fitted.xml
nics=${NICS:-726MBps 1000MBps 1200MBps 1400MBps 2GBps 4GBps}
pcie=${PCIE:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# makespan PLATFORM APP NODES N BLOCK [OPTION...]: the simulated seconds of one run.
makespan() {
  "$nw" run --app "$2" --backend sim --platform "$1" --nodes "$3" --n "$4" --block "$5" \
    --data phantom --devices cpu+gpu --work-groups on "${@:6}" --json |
    grep -oE '"makespan_s":[[:space:]]*[0-9.eE+-]+' | grep -oE '[0-9.eE+-]+$'
}

printf '%-9s %-7s %16s %16s %16s %16s %12s\n' nic pcie "conv2d (11.83)" "matmul (7.34)" \
  "fft2d (5.36)" "lu (4.8)" "matmul GF/s"
for nic in $nics; do
  p=$tmp/paper-cluster-fitted.xml
  sed -E "s/(-nic\" bandwidth=\")[0-9.]+[MG]Bps/\1$nic/" "$base" >"$p"
  [ -z "$pcie" ] || sed -i -E "s/(-pcie[01]\" bandwidth=\")[0-9.]+[MG]Bps/\1$pcie/" "$p"
  line=$(printf '%-9s %-7s' "$nic" "${pcie:-6GBps}")
  gf=
  for app in "conv2d 65536 2048 --app-param radius=15 --app-param channels=3 --app-param channel_bytes=1" \
    "matmul 65536 2048" "fft2d 61440 512" "lu 65536 2048"; do
    read -r name n block rest <<<"$app"
    # shellcheck disable=SC2086 # rest: the app's own options, split on purpose
    t1=$(makespan "$p" "$name" 1 "$n" "$block" $rest)
    # shellcheck disable=SC2086
    t14=$(makespan "$p" "$name" 14 "$n" "$block" $rest)
    line="$line $(awk -v a="$t1" -v b="$t14" 'BEGIN { printf "%16s", sprintf("%.1f/%.1f=%.2f", a, b, a / b) }')"
    [ "$name" != matmul ] || gf=$(awk -v b="$t14" 'BEGIN { printf "%.0f", 2 * 65536 ^ 3 / b / 1e9 }')
  done
  printf '%s %12s\n' "$line" "$gf"
done
echo "(each cell: one node's seconds / 14 nodes' seconds = the speed-up; the paper's in the header)"
