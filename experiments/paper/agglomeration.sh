#!/usr/bin/env bash
# agglomeration.sh [BUILD_DIR]: the agglomeration paper's results that the simulator reproduces
# (Lifflander, Evans, Arya, Kale, "Dynamic Scheduling for Work Agglomeration on Heterogeneous
# Clusters"; docs/experiments/agglomeration-fifo.md and packed-copies.md), on
# platforms/s1070-node.xml as written,
# phantom data, each with copies one by one and packed (--pack-copies on):
#  - LU 10240 in 256 blocks on CPUs and GPUs (8 lanes): agglomerating up to 32 subtasks per
#    launch against 1 (the paper: 7.5% faster at 10240, section V-B);
#  - Molecular2D (Figs. 5-6), 16 x 16 cells, 10 steps, GPUs alone with 16 lanes, 2560 to 102400
#    particles: the speed-up of 32 against 1, which the paper shows falling as cells fill.
# Prints both tables; with PAPER_ROWS / PAPER_CSV_DIR set (scripts/reproduce-paper.sh does) also
# writes them as CSV and the comparison rows (experiments/paper/rows.sh). About 2 seconds.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
nw=$build/narwhal
[ -x "$nw" ] || { echo "agglomeration.sh: $nw is not built" >&2; exit 2; }
. experiments/paper/rows.sh
field() { printf '%s' "$1" | grep -oE "\"$2\":[[:space:]]*[0-9.eE+-]+" | head -1 | grep -oE '[0-9.eE+-]+$'; }
plat=platforms/s1070-node.xml

# LU: the time agglomeration saves, per copy mode.
echo "LU 10240, blocks of 256, CPUs + GPUs, 8 lanes (simulated s)"
printf '%-12s %10s %10s %8s %12s\n' copies A=1 A=32 saved_% mean_launch
table_csv agglomeration-lu pack_copies makespan_a1_s makespan_a32_s saved_pct agglomeration_mean
for pack in off on; do
  declare -A m=()
  for a in 1 32; do
    o=$("$nw" run --app lu --platform "$plat" --n 10240 --block 256 --devices cpu+gpu \
      --gpu-streams 8 --agglomerate "$a" --pack-copies "$pack" --data phantom --json)
    m[$a]=$(field "$o" makespan_s)
  done
  mean=$(field "$o" agglomeration_mean)
  saved=$(awk -v a="${m[1]}" -v b="${m[32]}" 'BEGIN { printf "%.4f", 100 * (a - b) / a }')
  printf '%-12s %10.4f %10.4f %8.2f %12.2f\n' "$pack" "${m[1]}" "${m[32]}" "$saved" "$mean"
  table_row agglomeration-lu "$pack" "${m[1]}" "${m[32]}" "$saved" "$mean"
  paper_row Lifflander "text" \
    "LU 10240, 256 blocks, S1070 model, copies $([ $pack = on ] && echo packed || echo "one by one"): time saved by agglomerating up to 32, %" \
    "section V-B" 7.5 7.5 "" "$saved"
done

# Molecular2D: the speed-up of agglomerating, per problem size and copy mode.
echo
echo "Molecular2D, 16 x 16 cells, 10 steps, GPUs, 16 lanes (simulated s)"
printf '%-12s %9s %10s %10s %8s %12s\n' copies particles A=1 A=32 speed-up mean_launch
table_csv agglomeration-molecular2d pack_copies particles makespan_a1_s makespan_a32_s speedup \
  agglomeration_mean
for pack in off on; do
  gains=""
  for n in 2560 12800 51200 102400; do
    declare -A m=()
    for a in 1 32; do
      o=$("$nw" run --app molecular2d --platform "$plat" --n "$n" --block $((n / 256)) \
        --app-param steps=10 --devices gpu --gpu-streams 16 --agglomerate "$a" \
        --pack-copies "$pack" --data phantom --json)
      m[$a]=$(field "$o" makespan_s)
    done
    mean=$(field "$o" agglomeration_mean)
    sp=$(awk -v a="${m[1]}" -v b="${m[32]}" 'BEGIN { printf "%.4f", a / b }')
    printf '%-12s %9s %10.4f %10.4f %8.2f %12.2f\n' "$pack" "$n" "${m[1]}" "${m[32]}" "$sp" "$mean"
    table_row agglomeration-molecular2d "$pack" "$n" "${m[1]}" "${m[32]}" "$sp" "$mean"
    gains="$gains $n:$sp"
  done
  # The paper's figures are images; their shape, the gain falling as cells fill, is the claim.
  paper_row Lifflander "Figs. 5-6" \
    "Molecular2D, S1070 model, copies $([ $pack = on ] && echo packed || echo "one by one"): speed-up of agglomerating up to 32, 2560 to 102400 particles" \
    "section V-A" "" "" "falls as the particles grow" \
    "$(awk -v g="$gains" 'BEGIN { k = split(g, a, " "); for (i = 1; i <= k; i++) { split(a[i], p, ":"); printf "%s%.2fx at %s", (i > 1 ? ", " : ""), p[2], p[1] } }')" \
    "$(awk -v g="$gains" 'BEGIN { k = split(g, a, " "); for (i = 1; i <= k; i++) { split(a[i], p, ":"); if (i > 1 && p[2] >= last) bad = 1; last = p[2] }
      print bad ? "differs (does not fall at every step)" : "agrees (falls)" }')"
done
