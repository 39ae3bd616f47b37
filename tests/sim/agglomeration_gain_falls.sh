#!/usr/bin/env bash
# agglomeration_gain_falls.sh NARWHAL SRC_DIR [packed]: Molecular2D with and without agglomeration at two
# problem sizes, in one test (the agglomeration paper's Figs. 5-6: Lifflander, Evans, Arya,
# Kale): 16 x 16 cells, 10 steps, GPUs alone, on platforms/s1070-node.xml with copies of 1 us
# latency instead of 10 (so that cells reach the GPUs' FIFOs faster than launches of 10 us
# empty them; docs/experiments/agglomeration-fifo.md has both). Agglomerating up to 32 cells
# per launch beats one per launch at 2560 particles and at 51200, and the gain is larger at
# 2560: as cells grow, a launch's overhead weighs less beside its work. With `packed`, the same on
# platforms/s1070-node.xml as written (copies of 10 us) with --pack-copies on: the copies queued
# on a link go as one transfer, as the paper's agglomerated version packs a batch's particles,
# and the same ordering holds.
set -u
nw=$1 src=$2 mode=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
platform=$tmp/s1070-fast-copies.xml extra=()
[ "$mode" = packed ] && platform=$src/platforms/s1070-node.xml extra=(--pack-copies on)
"$src/platforms/gen-platform.sh" --nodes 1 --cores 4 --core-speed 9.6Gf --gpus 4 --gpu-speed 1035Gf \
  --gpu-mem 4294967296 --pcie-bw 3GBps --pcie-lat 1us --nic-bw 1GBps --nic-lat 10us \
  --backbone-bw 10GBps --backbone-lat 1us --gpu-prop launch_latency=1e-5 \
  --gpu-prop mem_bw=102e9 >"$tmp/s1070-fast-copies.xml"
field() { tr -d '\n' <"$2" | grep -oE "\"$1\":[[:space:]]*[^,}]*" | head -n1 | sed -E 's/.*:[[:space:]]*//'; }
for n in 2560 51200; do
  for a in 1 32; do
    "$nw" run --app molecular2d --platform "$platform" --n "$n" --block $((n / 256)) \
      --app-param steps=10 --devices gpu --gpu-streams 16 --agglomerate "$a" --data phantom \
      ${extra[@]+"${extra[@]}"} --json >"$tmp/$n-$a.json" || { echo "agglomeration_gain_falls: run $n/$a failed"; exit 1; }
    echo "$n particles, --agglomerate $a: $(field makespan_s "$tmp/$n-$a.json") s," \
      "$(field gpu_launches "$tmp/$n-$a.json") launches, mean $(field agglomeration_mean "$tmp/$n-$a.json")"
  done
done
awk -v s1="$(field makespan_s "$tmp/2560-1.json")" -v s32="$(field makespan_s "$tmp/2560-32.json")" \
  -v l1="$(field makespan_s "$tmp/51200-1.json")" -v l32="$(field makespan_s "$tmp/51200-32.json")" \
  'BEGIN { small = s1 / s32; large = l1 / l32
           printf "speed-up from agglomeration: %.3f at 2560 particles, %.3f at 51200\n", small, large
           exit !(small > large && large > 1) }' || { echo "agglomeration_gain_falls: 0 passed, 1 failed"; exit 1; }
echo "agglomeration_gain_falls: 1 passed, 0 failed"
