#!/usr/bin/env bash
# grouped_platform.sh ROUTES_CHECKER NARWHAL SRC_DIR: gen-platform.sh --backbone grouped (nodes
# in about sqrt(N) groups: about 2 N^1.5 routes listed instead of N^2) against --backbone
# none, at 1, 2, 10 and 33 nodes with a GPU each (groups of unequal size included):
#  - every two hosts have routes of the same latency and bandwidth (test_platform_routes.c);
#  - the grouped file lists fewer routes at 33 nodes;
#  - a functional run on each is verified, with the same makespan to 1e-4 (SimGrid solves
#    bandwidth shares to 1e-5; seed 2, a run whose steals do not tie: ties broken by the
#    solver's last bits can move a run by a few percent, as between --backbone none and
#    shared).
set -u
routes=$1 nw=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "grouped_platform: $1"; echo "grouped_platform: 0 passed, 1 failed"; exit 1; }
makespan() { grep -o '"makespan_s":[^,}]*' "$1" | sed 's/.*://'; }
for n in 1 2 10 33; do
  "$src/platforms/gen-platform.sh" --nodes "$n" --gpus 1 --backbone none >"$tmp/none.xml" ||
    fail "gen-platform --backbone none failed at $n nodes"
  "$src/platforms/gen-platform.sh" --nodes "$n" --gpus 1 --backbone grouped >"$tmp/grouped.xml" ||
    fail "gen-platform --backbone grouped failed at $n nodes"
  "$routes" "$tmp/none.xml" "$tmp/grouped.xml" || fail "the routes differ at $n nodes"
  for p in none grouped; do
    "$nw" run --backend sim --platform "$tmp/$p.xml" --devices cpu+gpu --n 1024 --block 128 \
      --seed 2 --json >"$tmp/$p.json" || fail "the run on --backbone $p failed at $n nodes"
    grep -q '"verified":[[:space:]]*true' "$tmp/$p.json" || fail "not verified on $p, $n nodes"
  done
  a=$(makespan "$tmp/none.json") b=$(makespan "$tmp/grouped.json")
  echo "$n nodes: makespan none $a, grouped $b"
  awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= 1e-4 * a) }' ||
    fail "the makespans differ by more than 1e-4 at $n nodes"
done
r_none=$(grep -c '<zoneRoute' "$tmp/none.xml") r_grouped=$(grep -c '<zoneRoute' "$tmp/grouped.xml")
echo "33 nodes: $r_none routes listed with none, $r_grouped grouped"
[ "$r_grouped" -lt "$r_none" ] || fail "the grouped platform lists no fewer routes"
echo "grouped_platform: 1 passed, 0 failed"
