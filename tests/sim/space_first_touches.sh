#!/usr/bin/env bash
# space_first_touches.sh NARWHAL SRC_DIR: the pages of its copies of spaces a node's handlers
# write first (space_pages_fresh; core/data/touched.h), each a page fault where the copy was
# mapped fresh (counted, not priced: docs/experiments/space-first-touches.md).
# 1. matmul 1024/256 on one node (A, B, C of 1024 pages each) with bytes: the program's writes
#    of A and B count 2048; C written in place by the kernels adds none (the kernel's time holds
#    them); C committed from private views (--check-views on) adds its 1024.
# 2. Without bytes nothing is allocated to fault (0); on a node with a GPU copies are pinned
#    when made (0).
set -u
nw=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "space_first_touches: $passed passed, 1 failed: $*"; exit 1; }
gen=$src/platforms/gen-platform.sh
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
"$gen" --nodes 1 --cores 1 >"$tmp/plain.xml"
"$gen" --nodes 1 --cores 1 --gpus 1 --gpu-mem 200000000 >"$tmp/gpu.xml"
mm=(run --backend sim --app matmul --n 1024 --block 256 --json)

pages() { field "$1" space_pages_fresh; }
a=$("$nw" "${mm[@]}" --platform "$tmp/plain.xml" --data functional --check-views off) ||
  fail "in place"
b=$("$nw" "${mm[@]}" --platform "$tmp/plain.xml" --data functional --check-views on) ||
  fail "views"
echo "matmul 1024/256: $(pages "$a") pages written in place, $(pages "$b") through views"
[ "$(pages "$a")" = 2048 ] && [ "$(pages "$b")" = 3072 ] ||
  fail "expected 2048 and 3072 first-touched pages, counted $(pages "$a") and $(pages "$b")"
passed=1

p=$("$nw" "${mm[@]}" --platform "$tmp/plain.xml" --data phantom) || fail "phantom"
g=$("$nw" "${mm[@]}" --platform "$tmp/gpu.xml" --devices cpu+gpu) || fail "GPU"
[ "$(pages "$p")" = 0 ] && [ "$(pages "$g")" = 0 ] ||
  fail "without bytes $(pages "$p"), beside a GPU $(pages "$g") pages (expected 0 and 0)"
passed=2

echo "space_first_touches: $passed passed, 0 failed"
