#!/usr/bin/env bash
# seed_round_trip.sh NARWHAL SRC_DIR: seeds are 64-bit integers end to end: the
# largest one given on the command line comes back exactly from --dry-run, from that output
# fed back as a run file, and in a run's --json; a small one stays a JSON number.
set -u
nw=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "seed_round_trip: 0 passed, 1 failed: $*"; exit 1; }
big=18446744073709551615
"$nw" run --seed $big --dry-run >"$tmp/a.json" || fail "dry-run"
grep -q "\"seed\":[[:space:]]*\"$big\"" "$tmp/a.json" || fail "dry-run wrote $(grep seed "$tmp/a.json")"
"$nw" run --config "$tmp/a.json" --dry-run >"$tmp/b.json" || fail "the dry-run fed back"
cmp -s "$tmp/a.json" "$tmp/b.json" || fail "the dry-run fed back differs"
out=$("$nw" run --platform "$src/platforms/small.xml" --n 64 --block 16 --seed $big --json) ||
  fail "a run with the largest seed"
printf '%s' "$out" | grep -q "\"seed\":[[:space:]]*\"$big\"" || fail "the run reported another seed"
"$nw" run --seed 42 --dry-run | grep -qE '"seed":[[:space:]]*42,' || fail "seed 42 not a number"
echo "seed_round_trip: 1 passed, 0 failed"
