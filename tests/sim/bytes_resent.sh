#!/usr/bin/env bash
# bytes_resent.sh NARWHAL PLATFORM: the re-sent bytes counter (core/device/resend.h; paper
# section 5.7.3) on three nodes of one CPU work-group each, adder's six subtasks of 1024
# elements (subtask s reads block s of a and of b: 2 x 8 KiB) with every input on node 0, node
# 1 computing 100000x slower and node 0 slowed too (simulated, so deterministic):
#   - steal: node 1 runs subtask 2 and has fetched subtask 3's blocks (its prefetch) when node 2,
#     done, steals subtask 3 and fetches the same 16384 bytes from node 0: exactly 16384;
#   - copy: with multi-assign, node 2 copies node 1's straggling subtask 2, whose 16384 bytes
#     node 1 fetched: exactly 16384 (node 0, taking node 1's prefetched subtask 3, owns its
#     data and fetches nothing);
#   - without pipelining or multi-assign, steals take only queued subtasks, for which nothing
#     was fetched: 0, though subtasks are stolen.
# Each run is also functional and verified against the reference.
set -u
nw=$1 platform=$2
fail=0
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
check() { # WANT_RESENT MIN_STEALS MIN_COPIES OPTION...
  local want=$1 steals=$2 copies=$3 o
  shift 3
  o=$("$nw" run --app adder --backend sim --platform "$platform" --nodes 3 --n 6144 --block 1024 \
    --placement node0 --devices cpu --work-groups on --data functional --verify --json "$@") ||
    { echo "FAIL: $*: the run failed"; fail=1; return; }
  local r s c v
  r=$(field "$o" bytes_resent) s=$(field "$o" steals_succeeded) c=$(field "$o" multi_assigned)
  v=$(printf '%s' "$o" | grep -oE '"verified":[[:space:]]*[a-z]+' | grep -oE '[a-z]+$')
  if [ "$r" = "$want" ] && [ "$s" -ge "$steals" ] && [ "$c" -ge "$copies" ] && [ "$v" = true ]; then
    echo "ok: $*: bytes_resent $r, steals $s, copies $c, verified"
  else
    echo "FAIL: $*: bytes_resent '$r' (wanted $want), steals '$s' (>= $steals), copies '$c' (>= $copies), verified '$v'"
    fail=1
  fi
}
check 16384 1 0 --slow 1:100000,0:20000 --multi-assign off
check 16384 1 1 --slow 1:100000,0:2000 --multi-assign on
check 0 1 0 --slow 1:100000,0:20000 --multi-assign off --pipeline off
[ $fail -eq 0 ] && echo "bytes_resent: 1 passed, 0 failed" || echo "bytes_resent: 0 passed, 1 failed"
exit $fail
