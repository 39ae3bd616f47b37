#!/usr/bin/env bash
# placement_local.sh NARWHAL SRC_DIR: `--placement local` (each node its own contiguous share of
# the inputs) with the roofline split following the data (--locality on), in the simulator,
# on 4 Delta nodes (platforms/delta-node.xml), phantom data, so deterministic:
# - C-means, 200,000 points per node, 3 iterations: no point crosses the network; the bytes
#   fetched are exactly the centres (10 x 100 floats) that nodes 1 to 3 read each iteration,
#   and placing the points sent node 0's three other shares (3 x 80 MB) and no more than 1 MB
#   else (the protocol's messages, the reductions); with the points spread at random the split
#   still follows them (the same bytes fetched), while the rates' split (no --locality) has
#   the nodes fetch more than 100 MB of them;
# - GMM, whose parameters (on node 0) every subtask reads and outweigh a subtask's points: the
#   split follows the points all the same (each node runs its quarter), the parameters fetched
#   once an iteration by nodes 1 to 3;
# - gemv and C-means give the reference's result with --placement local (functional, 4 nodes
#   of platforms/small.xml);
# - an app that cannot place its inputs so (matmul), and a value that is no placement, are
#   refused with one line naming --placement, exit 2.
set -u
nw=$1 src=$2
delta=$src/platforms/delta-node.xml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "placement_local: 0 passed, 1 failed: $*"; exit 1; }
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
cmeans() { # PLACEMENT [OPTION...]
  local p=$1
  shift
  "$nw" run --app cmeans --backend sim --platform "$delta" --nodes 4 --n 800000 --block 5000 \
    --app-param iterations=3 --data phantom --devices cpu+gpu --sched roofline \
    --roofline-resident on --placement "$p" "$@" --json || fail "cmeans --placement $p $*"
}
o=$(cmeans local --locality on)
got=$(field "$o" bytes_received) net=$(field "$o" bytes_network)
want=$((3 * 3 * 10 * 100 * 4)) placed=$((3 * 200000 * 100 * 4))
echo "local, locality on: $got bytes fetched (want $want), $net bytes sent (placement $placed)"
[ "$got" = "$want" ] || fail "bytes fetched $got, not $want"
if [ "$net" -lt "$placed" ] || [ "$net" -gt $((placed + 1000000)) ]; then fail "bytes sent $net"; fi
o=$(cmeans spread --locality on)
got=$(field "$o" bytes_received)
echo "spread, locality on: $got bytes fetched"
[ "$got" = "$want" ] || fail "spread, locality on: bytes fetched $got, not $want"
o=$(cmeans spread)
got=$(field "$o" bytes_received)
echo "spread, locality off: $got bytes fetched"
[ "$got" -gt 100000000 ] || fail "spread points fetched only $got bytes"

# GMM: every subtask reads the parameters (100 clusters x (1 + 60 + 60 x 61 / 2) doubles, 1.5 MB,
# more than a subtask's 240 KB of points), which only node 0 holds: the split must still follow
# the points, the parameters being fetched once an iteration by nodes 1 to 3.
o=$("$nw" run --app gmm --backend sim --platform "$delta" --nodes 4 --n 40000 --block 1000 \
  --app-param iterations=2 --app-param clusters=100 --app-param dims=60 --data phantom \
  --devices cpu+gpu --sched roofline --roofline-resident on --placement local --locality on \
  --json) || fail "gmm --placement local --locality on"
got=$(field "$o" bytes_received) want=$((3 * 2 * 100 * (1 + 60 + 60 * 61 / 2) * 8))
per_node=$(python3 -c 'import json, sys
d = json.load(sys.stdin)
print(" ".join(str(sum(x["subtasks"] for x in d["devices"] if x["node"] == k)) for k in range(4)))' <<<"$o")
echo "gmm, local, locality on: $got bytes fetched (want $want), subtasks per node $per_node"
[ "$got" = "$want" ] || fail "gmm: bytes fetched $got, not $want"
[ "$per_node" = "20 20 20 20" ] || fail "gmm: subtasks per node $per_node, not 20 each"

for app in gemv cmeans; do
  params=(--app-param iterations=2)
  [ $app = gemv ] && params=(--app-param cols=96)
  o=$("$nw" run --app $app --backend sim --platform "$src/platforms/small.xml" --nodes 4 \
    --n 4096 --block 256 \
    --data functional --devices cpu+gpu --sched roofline --locality on --placement local \
    "${params[@]}" --json) || fail "$app functional"
  grep -q '"verified":[[:space:]]*true' <<<"$o" || fail "$app: not the reference's result"
  echo "$app, functional, --placement local: the reference's result"
done

refused() { # WANT OPTION...: exit 2, nothing on stdout, one line on stderr holding WANT
  local want=$1 out err rc
  shift
  out=$("$nw" run --backend sim --platform "$delta" --nodes 2 --n 256 --block 64 "$@" 2>"$tmp/err")
  rc=$? err=$(cat "$tmp/err")
  echo "$* -> exit $rc: $err"
  if [ $rc != 2 ] || [ -n "$out" ] || [ "$(printf '%s\n' "$err" | wc -l)" != 1 ]; then
    fail "$*: exit $rc"
  fi
  [[ $err == *"$want"* ]] || fail "$*: '$err' does not say '$want'"
}
refused "--placement local: matmul cannot place its inputs that way (it takes spread, blocks, node0, rows, columns, rows-columns)" \
  --app matmul --placement local
refused "--placement" --app cmeans --placement even
echo "placement_local: 9 passed, 0 failed"
