#!/usr/bin/env bash
# placement-figs.sh [BUILD_DIR]: the Unicorn paper's Figs. 13 and 21 in simulation (Beri et
# al., TPDS, sections 5.5.3 and 5.7.3; docs/experiments/initial-placement.md and
# transfer-frequency.md), on
# platforms/paper-cluster.xml (or the cluster PAPER_PLATFORM names: experiments/paper/rows.sh)
# as the main job runs (CPU work-groups and two GPUs per node,
# phantom data), conv2d (65536^2, 2048^2 tiles, 31x31 filter on 3 byte channels, the paper's
# 24-bit image) and matmul (65536,
# 2048 blocks).
#
# Fig. 13: simulated seconds per initial placement (node0 = the paper's centralized, rows,
# columns, blocks; matmul also rows-columns) on 2, 4, 8 and 14 nodes, the mean over SEEDS
# (default "1 2 3") and the spread (max - min) / mean over them, and the GB the busiest
# sender sent in answer to fetches (mean over seeds); the paper's text says only that
# centralized behaves poorly.
#
# Fig. 21: per node, the space bytes sent in answer to fetches (unique: bytes it had not sent
# before; total) and the transfer frequency (total / unique per node, averaged), with the
# bytes received beside (unique and total), on 2, 4, 8, 10, 12 and 14 nodes, seed 1, blocks
# placement, beside the paper's table; and matmul's first matrix's transfer frequency per
# byte (the table's last column), from each run's --trace (first_matrix below). Then, from the
# same matmul runs, section 5.7.3's share of the bytes moved between nodes that re-sent data to
# a subtask's new destination after stealing or multi-assign (bytes_resent over
# bytes_received: docs/reference/json.md). Last, matmul on 8-14 nodes again with
# --master-serves copies (a space's master answers from what it fetched as well), the one way a
# node sends more unique bytes than it owns, as the paper's table has it. About 25 seconds.
#
# With PAPER_ROWS / PAPER_CSV_DIR set (scripts/reproduce-paper.sh does) it also writes both
# tables as CSV and puts Fig. 21's table and Fig. 13's statements beside the paper's
# (experiments/paper/rows.sh); the printed tables are the same either way.
set -eu
build=${1:-build}
nw=$build/narwhal
src=$(cd "$(dirname "$0")/.." && pwd)
seeds=${SEEDS:-1 2 3}
field() { printf '%s' "$1" | grep -oE "\"$2\":[[:space:]]*[0-9.eE+-]+" | head -1 | grep -oE '[0-9.eE+-]+$'; }
. "$src/experiments/paper/rows.sh"
# The largest per_node bytes_served: every "bytes_served" after the first (the total).
busiest() { printf '%s' "$1" | grep -oE '"bytes_served":[[:space:]]*[0-9.eE+-]+' | tail -n +2 |
  grep -oE '[0-9.eE+-]+$' | sort -g | tail -1; }
run() { # APP NODES PLACEMENT SEED [OPTION...]
  local params=() app=$1 nodes=$2 placement=$3 seed=$4
  shift 4
  [ "$app" = conv2d ] && params=(--app-param radius=15 --app-param channels=3 --app-param channel_bytes=1)
  "$nw" run --app "$app" --backend sim --platform "$paper_platform" --nodes "$nodes" \
    --n 65536 --block 2048 --data phantom --devices cpu+gpu --work-groups on --placement "$placement" \
    --seed "$seed" "${params[@]}" "$@" --json
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "Fig. 13: makespan_s by initial placement (mean over seeds $seeds; spread = (max - min) / mean)"
printf '%-7s %5s  %-13s %10s %8s %12s\n' app nodes placement makespan_s spread busiest_GB
table_csv placement-fig13 app nodes placement makespan_s_mean spread_pct busiest_sent_GB
declare -A mean14=() # APP:PLACEMENT -> mean makespan on 14 nodes
for app in conv2d matmul; do
  schemes="node0 rows columns blocks"
  [ "$app" = matmul ] && schemes="$schemes rows-columns"
  for nodes in 2 4 8 14; do
    for p in $schemes; do
      rows=()
      for s in $seeds; do
        o=$(run "$app" "$nodes" "$p" "$s")
        rows+=("$(field "$o" makespan_s) $(busiest "$o")")
      done
      line=$(printf '%s\n' "${rows[@]}" | awk -v a="$app" -v k="$nodes" -v p="$p" '
        { sum += $1; b += $2; if (NR == 1 || $1 < lo) lo = $1; if (NR == 1 || $1 > hi) hi = $1 }
        END { m = sum / NR; printf "%-7s %5s  %-13s %10.3f %7.1f%% %12.2f\n", a, k, p, m,
          100 * (hi - lo) / m, b / NR / 1e9 }')
      echo "$line"
      read -r _ _ _ mean spread busy <<<"$line"
      table_row placement-fig13 "$app" "$nodes" "$p" "$mean" "${spread%\%}" "$busy"
      [ "$nodes" != 14 ] || mean14[$app:$p]=$mean
    done
  done
done

# Fig. 13 (section 5.5.3): the paper's text says only that the centralized scheme (node0) behaves
# poorly, its NIC the bottleneck, and that the others hold; on 14 nodes, is node0 the slowest,
# and how far apart are the random schemes?
for app in conv2d matmul; do
  schemes="rows columns blocks"
  [ "$app" = matmul ] && schemes="$schemes rows-columns"
  read -r lo hi lo_p < <(for p in $schemes; do echo "${mean14[$app:$p]} $p"; done | sort -g |
    awk 'NR == 1 { lo = $1; p = $2 } { hi = $1 } END { print lo, hi, p }')
  paper_row Unicorn "Fig. 13" "$app, 14 nodes: centralized (node0) against the fastest random placement" \
    "section 5.5.3" "" "" "only the centralized scheme behaves poorly" \
    "$(awk -v c="${mean14[$app:node0]}" -v f="$lo" -v p="$lo_p" 'BEGIN { printf "node0 %.2fx the time of %s", c / f, p }')" \
    "$(awk -v c="${mean14[$app:node0]}" -v h="$hi" 'BEGIN { print (c > h ? "agrees (node0 the slowest)" : "differs") }')"
  paper_row Unicorn "Fig. 13" "$app, 14 nodes: slowest over fastest random placement ($schemes), %" \
    "section 5.5.3" "" "" "performance holds across the other schemes" \
    "$(awk -v l="$lo" -v h="$hi" 'BEGIN { printf "%.1f", 100 * (h / l - 1) }')" "no threshold stated"
done

echo
echo "Fig. 21: per node, GB (1e9 bytes) of space data sent and received in answer to fetches"
echo "(blocks placement, seed 1); freq = total / unique sent per node, averaged (the paper's)"
printf '%-7s %5s %11s %10s %6s %13s %12s %8s   %s\n' app nodes sent_unique sent_total freq \
  recv_unique recv_total recv_freq "paper: unique total freq (matmul: first matrix freq)"
paper() { # APP NODES: the paper's Fig. 21 row (its text gives the table); matmul's last column
  # is its first matrix's transfer frequency per byte
  case "$1:$2" in
  conv2d:2) echo "3.05 3.05 1.00" ;; conv2d:4) echo "2.26 2.27 1.00" ;;
  conv2d:8) echo "1.31 1.32 1.01" ;; conv2d:10) echo "1.07 1.07 1.01" ;;
  conv2d:12) echo "0.91 0.92 1.01" ;; conv2d:14) echo "0.87 0.88 1.01" ;;
  matmul:2) echo "8.50 8.50 1.00 1.00" ;; matmul:4) echo "7.38 15.88 2.15 1.18" ;;
  matmul:8) echo "5.63 18.19 3.23 1.86" ;; matmul:10) echo "4.50 18.20 4.04 2.17" ;;
  matmul:12) echo "4.00 18.83 4.71 2.78" ;; matmul:14) echo "3.18 18.36 5.78 2.88" ;;
  esac
}
table_csv placement-fig21 app nodes sent_unique_per_node sent_total_per_node transfer_frequency \
  received_unique_per_node received_total_per_node transfer_frequency_received \
  first_matrix_frequency
# matmul's first matrix (A, the one each node needs only the rows of its range of C from): its
# transfer frequency per byte, A's sends over A's unique sends, from the run's trace, whose
# transfers name their space (A is space 1, B space 2: apps/matmul/matmul.c creates them in that
# order). The counters give the unique sends of both matrices together; B's are all of B when
# the trace shows every byte of B sent to each of the other nodes once (B's sends = (nodes - 1)
# x its size; no node receives a byte twice, transfer_frequency_received = 1), so A's are the
# rest. Prints "frequency A_sends A_unique", or nothing when B's sends are not that.
first_matrix() { # JSON TRACE NODES
  local b=$((65536 * 65536 * 4))
  grep -oE '"space":[0-9]+,"from":-?[0-9]+,"bytes":[0-9]+' "$2" |
    awk -F'[:,]' -v k="$3" -v b="$b" -v su="$(field "$1" bytes_served_unique)" \
      -v rf="$(field "$1" transfer_frequency_received)" '{ t[$2] += $6 }
      END { if (t[2] != (k - 1) * b || rf != 1 || su <= b) exit
        printf "%.4f %.0f %.0f\n", t[1] / (su - b), t[1], su - b }'
}
declare -A resent=() # NODES -> "bytes_resent bytes_received" of matmul's run
declare -A copies=() # NODES -> matmul with --master-serves copies: "unique total freq makespan owned_makespan"
for app in conv2d matmul; do
  for nodes in 2 4 8 10 12 14; do
    trace=()
    [ "$app" = matmul ] && trace=(--trace "$tmp/trace.json")
    o=$(run "$app" "$nodes" blocks 1 "${trace[@]}")
    su=$(field "$o" bytes_served_unique) st=$(field "$o" bytes_served)
    freq=$(field "$o" transfer_frequency)
    [ "$app" != matmul ] || resent[$nodes]="$(field "$o" bytes_resent) $(field "$o" bytes_received)"
    fa=""
    if [ "$app" = matmul ]; then
      read -r fa _ <<<"$(first_matrix "$o" "$tmp/trace.json" "$nodes")"
      [ -n "$fa" ] || { echo "placement-figs.sh: matmul on $nodes nodes: B not sent to every other node once; A's unique sends unknown" >&2; exit 1; }
    fi
    table_row placement-fig21 "$app" "$nodes" "$(awk -v b="$su" -v k="$nodes" 'BEGIN { printf "%.0f", b / k }')" \
      "$(awk -v b="$st" -v k="$nodes" 'BEGIN { printf "%.0f", b / k }')" "$freq" \
      "$(awk -v b="$(field "$o" bytes_received_unique)" -v k="$nodes" 'BEGIN { printf "%.0f", b / k }')" \
      "$(awk -v b="$(field "$o" bytes_received)" -v k="$nodes" 'BEGIN { printf "%.0f", b / k }')" \
      "$(field "$o" transfer_frequency_received)" "$fa"
    # Beside the paper's table (section 5.7.3); conv2d runs the paper's byte channels.
    scale=1 note="" unote="" tnote=""
    # matmul: what a node can send as unique bytes is what it owns, 1/N of A and of B (random
    # blocks); the trace above shows B sent once to every other node.
    # On 2 nodes each needs from the other that one's half of B and a quarter of A.
    if [ "$app" = matmul ] && [ "$nodes" = 2 ]; then
      unote="each node needs the other's half of B and a quarter of A, 12.88 GB; the paper's 8.50 is half of one input"
      tnote="nothing sent twice: as the unique row"
    elif [ "$app" = matmul ]; then
      unote="a node owns 1/N of A and B, $(awk -v k="$nodes" \
        'BEGIN { printf "%.2f", 2 * 65536 * 65536 * 4 / k / 1e9 }') GB, its most unique sends; B went to every other node once (trace)"
      # The one way a node sends more unique bytes than it owns: a space's master passing on
      # what it fetched (paper section 3's temporary owners; --master-serves copies). It
      # comes near the paper's unique bytes, but the run slows down 1.7-2.9 times.
      if [ "$nodes" -ge 8 ]; then
        oc=$(run matmul "$nodes" blocks 1 --master-serves copies)
        copies[$nodes]=$(awk -v b="$(field "$oc" bytes_served_unique)" -v t="$(field "$oc" bytes_served)" \
          -v f="$(field "$oc" transfer_frequency)" -v m="$(field "$oc" makespan_s)" \
          -v m0="$(field "$o" makespan_s)" -v k="$nodes" \
          'BEGIN { printf "%.2f %.2f %.2f %.1f %.1f", b / k / 1e9, t / k / 1e9, f, m, m0 }')
        read -r cu _ _ cm cm0 <<<"${copies[$nodes]}"
        unote="$unote; with masters passing on their fetched copies (--master-serves copies) $cu GB, but the run takes $cm s against $cm0, against the paper's own scaling (Fig. 4)"
      fi
    fi
    read -r pu pt pf pa <<<"$(paper "$app" "$nodes")"
    what="$app, $nodes nodes, blocks placement, seed 1:"
    paper_row Unicorn "Fig. 21" "$what unique GB sent per node" "Fig. 21" \
      "$pu" "$pu" "" "$(awk -v b="$su" -v k="$nodes" -v s=$scale 'BEGIN { printf "%.4g", b / k / s / 1e9 }')" "${note:-$unote}"
    paper_row Unicorn "Fig. 21" "$what total GB sent per node" "Fig. 21" \
      "$pt" "$pt" "" "$(awk -v b="$st" -v k="$nodes" -v s=$scale 'BEGIN { printf "%.4g", b / k / s / 1e9 }')" "${note:-$tnote}"
    paper_row Unicorn "Fig. 21" "$what transfer frequency (total / unique)" \
      "Fig. 21" "$pf" "$pf" "" "$freq" "$([ "$app" = matmul ] && echo "total / unique of the two rows above")"
    [ "$app" != matmul ] || paper_row Unicorn "Fig. 21" \
      "$what first matrix (A) transfer frequency per byte (A's sends / A's unique sends, from the trace)" \
      "Fig. 21" "$pa" "$pa" "" "$fa" \
      "$([ "$nodes" -lt 8 ] || echo "a panel of A goes to the nodes whose range of C holds its rows and to stealers (trace); the paper's 1.86-2.88 is not explained")"
    awk -v a="$app" -v k="$nodes" -v su="$(field "$o" bytes_served_unique)" \
      -v st="$(field "$o" bytes_served)" -v f="$(field "$o" transfer_frequency)" \
      -v ru="$(field "$o" bytes_received_unique)" -v rt="$(field "$o" bytes_received)" \
      -v rf="$(field "$o" transfer_frequency_received)" -v p="$(paper "$app" "$nodes")" -v fa="$fa" 'BEGIN {
      printf "%-7s %5s %11.2f %10.2f %6.2f %13.2f %12.2f %8.2f   %s", a, k, su / k / 1e9,
        st / k / 1e9, f, ru / k / 1e9, rt / k / 1e9, rf, p
      if (a == "conv2d") printf "; %.2f %.2f", su / k / 4e9, st / k / 4e9
      if (fa != "") printf "; first matrix freq %.2f", fa
      printf "\n" }'
  done
done

echo
echo "matmul with --master-serves copies (a space's master also answers from what it fetched):"
printf '%5s %11s %10s %6s %11s %17s\n' nodes sent_unique sent_total freq makespan_s makespan_s_owned
for nodes in 8 10 12 14; do
  read -r cu ct cf cm cm0 <<<"${copies[$nodes]}"
  printf '%5s %11s %10s %6s %11s %17s\n' "$nodes" "$cu" "$ct" "$cf" "$cm" "$cm0"
done

# Section 5.7.3: "only 3.88% additional transfer due to re-sending of data to the new
# destination after stealing or multi-assignment" (matmul, Fig. 21's set-up; the paper names no
# node count: its largest, 14, here). Re-sent: bytes a node fetched for a subtask that another
# node had fetched for it before a steal took it (a prefetched one) or a copy ran it.
echo
echo "Section 5.7.3: matmul, bytes re-sent to a subtask's new destination after stealing or"
echo "multi-assign, % of the bytes received (blocks placement, seed 1; the paper: 3.88%)"
printf '%5s %12s %14s %9s\n' nodes resent_GB received_GB resent_pct
table_csv placement-resent nodes bytes_resent bytes_received resent_pct
for nodes in 2 4 8 10 12 14; do
  read -r rs rv <<<"${resent[$nodes]}"
  pct=$(awk -v a="$rs" -v b="$rv" 'BEGIN { printf "%.2f", (b > 0 ? 100 * a / b : 0) }')
  awk -v k="$nodes" -v a="$rs" -v b="$rv" -v p="$pct" 'BEGIN { printf "%5s %12.3f %14.2f %8s%%\n", k, a / 1e9, b / 1e9, p }'
  table_row placement-resent "$nodes" "$rs" "$rv" "$pct"
done
read -r rs rv <<<"${resent[14]}"
range=$(for k in "${!resent[@]}"; do echo "${resent[$k]}"; done |
  awk '{ p = 100 * $1 / $2; if (NR == 1 || p < lo) lo = p; if (NR == 1 || p > hi) hi = p }
    END { printf "%.2f-%.2f%%", lo, hi }')
paper_row Unicorn "Fig. 21" "matmul 65536/2048, 14 nodes, blocks placement, seed 1: bytes re-sent to a subtask's new destination after stealing or multi-assign, % of bytes moved between nodes" \
  "section 5.7.3" 3.88 3.88 "" "$(awk -v a="$rs" -v b="$rv" 'BEGIN { printf "%.2f", 100 * a / b }')" \
  "bytes_resent / bytes_received: a fetch for a subtask of bytes another node had fetched for it before it was stolen (prefetched) or copied; $range on 2-14 nodes"
