#!/usr/bin/env bash
# faster_with_more_nodes.sh NARWHAL PLATFORM: the same phantom matmul on 1 and on 4 nodes of
# the test platform; 4 nodes must finish in less simulated time, and move bytes between
# nodes where 1 node moves none.
set -u
nw=$1 platform=$2
val() { printf '%s' "$1" | tr -d '\n' | grep -oE "\"$2\":[[:space:]]*[^,}]*" | head -n1 | sed -E "s/\"$2\":[[:space:]]*//"; }
one=$("$nw" run --backend sim --platform "$platform" --nodes 1 --n 2048 --block 256 --data phantom --json) || exit 1
four=$("$nw" run --backend sim --platform "$platform" --nodes 4 --n 2048 --block 256 --data phantom --json) || exit 1
t1=$(val "$one" makespan_s) t4=$(val "$four" makespan_s)
b1=$(val "$one" bytes_network) b4=$(val "$four" bytes_network)
echo "1 node: ${t1}s, ${b1} bytes; 4 nodes: ${t4}s, ${b4} bytes"
awk -v a="$t1" -v b="$t4" -v x="$b1" -v y="$b4" 'BEGIN { ok = (b < a && x == 0 && y > 0);
  print ok ? "faster_with_more_nodes: 1 passed, 0 failed" : "faster_with_more_nodes: 0 passed, 1 failed";
  exit !ok }'
