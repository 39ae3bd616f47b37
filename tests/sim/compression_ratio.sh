#!/usr/bin/env bash
# compression_ratio.sh NARWHAL SRC_DIR: the claim of docs/experiments/pagerank-compression.md
# about the paper's Fig. 18, at a smaller size (250 subtasks of 1024 pages, one iteration):
# PageRank's partial results compress better on 14 nodes than on 8 (fewer subtasks per node,
# sparser partials), and by more than 3x on 8.
set -u
nw=$1 src=$2
fail() { echo "compression_ratio: 0 passed, 1 failed: $*"; exit 1; }
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
ratio() {
  local o
  o=$("$nw" run --app pagerank --backend sim --platform "$src/platforms/paper-cluster.xml" \
    --nodes "$1" --n 256000 --block 1024 --app-param iterations=1 --compression network \
    --json) || fail "run on $1 nodes"
  awk -v r="$(field "$o" bytes_reduction_raw)" -v s="$(field "$o" bytes_reduction_sent)" \
    'BEGIN { printf "%.3f", (s > 0 ? r / s : 0) }'
}
r8=$(ratio 8) r14=$(ratio 14)
echo "compression ratio: $r8 on 8 nodes, $r14 on 14"
awk -v a="$r8" -v b="$r14" 'BEGIN { exit !(a > 3 && b > a) }' || fail "wanted 3 < ratio(8) < ratio(14)"
echo "compression_ratio: 1 passed, 0 failed"
