#!/usr/bin/env bash
# gpu_compression_costs.sh NARWHAL SRC_DIR: the simulator charges --compression gpu as the
# platform says (README, "Reductions"; platforms/README.md). PageRank on one node with one GPU
# and no CPU device, where each result's copy out is the critical path:
# 1. encoding on the GPU: going from c to 2c seconds per byte (the GPU host's rle_per_byte)
#    adds exactly c x bytes_gpu_reduction_raw (within 0.1%), c = 0 is faster than c, and a GPU
#    without the property is charged its default (slower than c = 0);
# 2. decoding on the CPU: the node's rt_rle_per_byte d makes the run last at least d x the raw
#    bytes (the node's loop decodes every result before the task can end);
# and every run's ranks equal the serial reference (narwhal exits 3 otherwise).
set -u
nw=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "gpu_compression_costs: 0 passed, 1 failed: $*"; exit 1; }
gen=$src/platforms/gen-platform.sh
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
one=(--nodes 1 --cores 2 --gpus 1)
"$gen" "${one[@]}" >"$tmp/default.xml"
"$gen" "${one[@]}" --gpu-prop rle_per_byte=0 >"$tmp/e0.xml"
"$gen" "${one[@]}" --gpu-prop rle_per_byte=1e-7 >"$tmp/e1.xml"
"$gen" "${one[@]}" --gpu-prop rle_per_byte=2e-7 >"$tmp/e2.xml"
"$gen" "${one[@]}" --gpu-prop rle_per_byte=0 --cpu-prop rt_rle_per_byte=1e-8 >"$tmp/d1.xml"
pr=(run --backend sim --app pagerank --nodes 1 --devices gpu --n 65536 --block 4096
  --app-param iterations=2 --compression gpu --json)
declare -A o
for p in default e0 e1 e2 d1; do
  o[$p]=$("$nw" "${pr[@]}" --platform "$tmp/$p.xml") || fail "run on platform $p"
done
m0=$(field "${o[e0]}" makespan_s) m1=$(field "${o[e1]}" makespan_s) m2=$(field "${o[e2]}" makespan_s)
md=$(field "${o[default]}" makespan_s) mdec=$(field "${o[d1]}" makespan_s)
raw=$(field "${o[e2]}" bytes_gpu_reduction_raw) sent=$(field "${o[e2]}" bytes_gpu_reduction_sent)
echo "encoding: $m0 s (free), $md s (default), $m1 s (100 ns/byte), $m2 s (200 ns/byte);" \
  "$raw raw bytes, $sent sent; decoding at 10 ns/byte: $mdec s"
awk -v m0="$m0" -v m1="$m1" -v m2="$m2" -v b="$raw" -v s="$sent" 'BEGIN {
  want = b * 1e-7; got = m2 - m1
  exit !(b > 0 && s > 0 && s < b && m0 < m1 && got > want * 0.999 && got < want * 1.001) }' ||
  fail "200 ns/byte added $(awk -v a="$m2" -v b="$m1" 'BEGIN{print a-b}') s over 100 ns/byte, wanted $raw x 1e-7"
awk -v m0="$m0" -v md="$md" 'BEGIN { exit !(md > m0) }' ||
  fail "a GPU without rle_per_byte encoded for free"
awk -v m="$mdec" -v b="$raw" 'BEGIN { exit !(m >= b * 1e-8) }' ||
  fail "decoding at 10 ns/byte: $mdec s, below $raw x 1e-8"
echo "gpu_compression_costs: 3 passed, 0 failed"
