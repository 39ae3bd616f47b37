#!/usr/bin/env bash
# placement_figs.sh NARWHAL SRC_DIR fig13|fig21: the claims about the paper's Figs. 13 and 21
# of docs/experiments/initial-placement.md and transfer-frequency.md, at the paper's sizes on
# 8 (fig21: 2-14) nodes of the paper-cluster model (CPU work-groups and GPUs, phantom data,
# seed 1; simulated numbers, so deterministic).
#   fig13: centralized inputs (node0) are slower than random blocks, conv2d by more than 2x
#   and matmul by more than 1.2x; matmul's rows, columns and rows-columns within 3% of blocks;
#   conv2d's blocks faster than its rows and columns.
#   fig21: conv2d's transfer frequency below 1.05 on 8 and 14 nodes; matmul's 1 on 2 nodes and
#   growing from 2 to 4 to 8; no node receives a byte twice in these one-task runs.
set -u
nw=$1 src=$2 what=$3
fail() { echo "placement_figs $what: 0 passed, 1 failed: $*"; exit 1; }
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
run() { # APP NODES PLACEMENT KEY
  local params=() o
  [ "$1" = conv2d ] && params=(--app-param radius=15 --app-param channels=3)
  o=$("$nw" run --app "$1" --backend sim --platform "$src/platforms/paper-cluster.xml" \
    --nodes "$2" --n 65536 --block 2048 --data phantom --devices cpu+gpu --work-groups on \
    --placement "$3" "${params[@]}" --json) || fail "$1 on $2 nodes, --placement $3"
  field "$o" "$4"
}
# holds EXPR NAME=VALUE...: an awk condition over the named values, printed either way.
holds() {
  local expr=$1
  shift
  echo "$* : wanted $expr"
  awk "${@/#/-v}" "BEGIN { exit !($expr) }" </dev/null || fail "$expr with $*"
}
case $what in
fig13)
  c0=$(run conv2d 8 node0 makespan_s) cb=$(run conv2d 8 blocks makespan_s)
  cr=$(run conv2d 8 rows makespan_s) cc=$(run conv2d 8 columns makespan_s)
  holds "c0 > 2 * cb && cb < cr && cb < cc" c0="$c0" cb="$cb" cr="$cr" cc="$cc"
  m0=$(run matmul 8 node0 makespan_s) mb=$(run matmul 8 blocks makespan_s)
  mr=$(run matmul 8 rows makespan_s) mc=$(run matmul 8 columns makespan_s)
  mx=$(run matmul 8 rows-columns makespan_s)
  holds "m0 > 1.2 * mb && mr < 1.03 * mb && mc < 1.03 * mb && mx < 1.03 * mb" \
    m0="$m0" mb="$mb" mr="$mr" mc="$mc" mx="$mx"
  ;;
fig21)
  c8=$(run conv2d 8 blocks transfer_frequency) c14=$(run conv2d 14 blocks transfer_frequency)
  r8=$(run conv2d 8 blocks transfer_frequency_received)
  holds "c8 < 1.05 && c14 < 1.05 && r8 == 1" c8="$c8" c14="$c14" r8="$r8"
  m2=$(run matmul 2 blocks transfer_frequency) m4=$(run matmul 4 blocks transfer_frequency)
  m8=$(run matmul 8 blocks transfer_frequency)
  r8=$(run matmul 8 blocks transfer_frequency_received)
  holds "m2 == 1 && m2 < m4 && m4 < m8 && r8 == 1" m2="$m2" m4="$m4" m8="$m8" r8="$r8"
  ;;
*) fail "unknown check '$what' (fig13 or fig21)" ;;
esac
echo "placement_figs $what: 1 passed, 0 failed"
