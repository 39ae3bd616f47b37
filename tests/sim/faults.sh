#!/usr/bin/env bash
# faults.sh CASE NARWHAL PLATFORM: one check of the simulator's fault injection (issue 15,
# item 5; core/node/faults.h, backends/simgrid/sim_faults.h). Each compares runs made here.
#   lost_node     --fail 2@T mid-run: exit 1, one line naming node 2 and T, nothing lost
#                 silently; --fail after the run's end: exit 0, verified, no node lost
#   lost_driver   --fail 0@T: exit 1, one line saying the driver's node was lost
#   reproducible  a run with lost and late messages twice with the same seed: the same
#                 makespan; another seed: another makespan
set -u
case=$1 nw=$2 platform=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
common=(run --backend sim --platform "$platform" --nodes 4 --n 512 --block 64 --data functional)
fail() { echo "faults $case: 0 passed, 1 failed: $*"; exit 1; }
key() { tr -d '\n' <"$1" | grep -oE "\"$2\":[[:space:]]*[^,}]*" | head -n1 | sed -E "s/\"$2\":[[:space:]]*//; s/[[:space:]]+$//"; }

# one_line_failure PATTERN ARGS...: the run exits 1 with exactly one stderr line matching.
one_line_failure() {
  local want=$1
  shift
  timeout 120 "$nw" "${common[@]}" "$@" >"$tmp/out" 2>"$tmp/err"
  local st=$?
  echo "narwhal ${common[*]} $* -> status $st"
  cat "$tmp/err"
  [ "$st" -eq 1 ] || fail "status $st, wanted 1"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "stderr has $(wc -l <"$tmp/err") lines, wanted 1"
  grep -qE -- "$want" "$tmp/err" || fail "stderr does not match '$want'"
}

case $case in
lost_node)
  "$nw" "${common[@]}" --json >"$tmp/ref.json" || fail "the run without faults failed"
  end=$(key "$tmp/ref.json" makespan_s)
  mid=$(awk -v e="$end" 'BEGIN { printf "%.6f", e / 2 }')
  one_line_failure "^narwhal: node 2 was lost at $mid s \(noticed at [0-9.e-]+ s\): the run is lost" \
    --fail "2@$mid"
  late=$(awk -v e="$end" 'BEGIN { printf "%.6f", e * 2 + 1 }')
  "$nw" "${common[@]}" --fail "2@$late" --json >"$tmp/late.json" || fail "a failure after the end failed the run"
  [ "$(key "$tmp/late.json" verified)" = true ] || fail "not verified with a failure after the end"
  [ "$(key "$tmp/late.json" nodes_lost)" = 0 ] || fail "a node counted lost after the run's end"
  ;;
lost_driver)
  one_line_failure "^narwhal: node 0, the driver's, was lost at 0.001 s: the run cannot go on" \
    --fail 0@0.001
  ;;
reproducible)
  plan=(--fault drop:0.2,rto:0.002,delay:0.0005:0.3)
  "$nw" "${common[@]}" "${plan[@]}" --seed 7 --json >"$tmp/a.json" || fail "run a failed"
  "$nw" "${common[@]}" "${plan[@]}" --seed 7 --json >"$tmp/b.json" || fail "run b failed"
  "$nw" "${common[@]}" "${plan[@]}" --seed 8 --json >"$tmp/c.json" || fail "run c failed"
  a=$(key "$tmp/a.json" makespan_s) b=$(key "$tmp/b.json" makespan_s) c=$(key "$tmp/c.json" makespan_s)
  echo "seed 7: $a and $b; seed 8: $c"
  for f in a b c; do
    [ "$(key "$tmp/$f.json" verified)" = true ] || fail "run $f not verified"
    [ "$(key "$tmp/$f.json" retransmissions)" -gt 0 ] || fail "run $f lost no message"
    [ "$(key "$tmp/$f.json" delayed)" -gt 0 ] || fail "run $f delayed no message"
  done
  [ "$a" = "$b" ] || fail "the same seed gave makespans $a and $b"
  [ "$a" != "$c" ] || fail "seeds 7 and 8 drew the same faults (makespan $a)"
  ;;
*) echo "faults: unknown case $case"; exit 2 ;;
esac
echo "faults $case: 1 passed, 0 failed"
