#!/usr/bin/env bash
# starpu.sh [BUILD_DIR]: the StarPU paper's evaluation that the simulator can check (Augonnet,
# Thibault, Namyst, Wacrenier, "StarPU: a Unified Platform for Task Scheduling on Heterogeneous
# Multicore Architectures", INRIA RR-7240, section 8), on models of its two machines
# (platforms/starpu-homogeneous.xml: 2 x X5550 and 3 Quadro FX5800; starpu-heterogeneous.xml:
# an E5410, an FX5800 and an FX4600 without asynchronous copies), phantom data, each GPU with a
# CPU core of its own as StarPU gives it. Its claims and the runs that check them:
#   1-2 (Fig. 14) greedy gives the faster units more tasks, and more so as the granularity
#       grows: matmul 16384, greedy (prio), blocks 512 to 2048, the GPUs' share of the tasks;
#   3   (Fig. 15) the FX5800 gets more tasks than the FX4600: matmul 8192/1024, greedy;
#   4   (Fig. 16) priorities give ~15% on Cholesky under heft-tmdp-pr: dmdas with and without
#       StarPU's critical-path priorities, Cholesky 4096/512, the machine's three GPUs;
#   5   (Fig. 17) heft-tm beats greedy, especially on small problems: tiled LU (1024 blocks),
#       dm without prefetching against prio, 8192 and 16384;
#   6   (Fig. 17) prefetching (heft-tm-pr) gains ~20%: dm with the pipeline's prefetch against
#       without, LU 16384/1024;
#   7   (Fig. 17) the data penalty (heft-tmdp-pr) gains another ~15%: dmda against dm;
#   8   (Fig. 18) the data penalty roughly halves the transfers: their bytes to the GPUs;
#   9   (Fig. 19) the best granularity moves with the problem size: LU 4096, 8192 and 24576 in
#       blocks of 512, 1024 and 2048 under dmda.
#   10  (Table 3, section 8.5.2) the 1 GB LU (16384) under heft-tmdp-pr (dmda) with blocks of 512
#       and 1024: time and GFlop/s; Fig. 19's 1 GB curve below 500 GFlop/s (blocks 512-2048).
# Not checked: Table 2's overheads (a real runtime's microseconds: benchmarks/taskbench.sh
# compares Narwhal's with StarPU's own on this machine), Table 3's hybrid granularity (the LU
# here keeps one tile size for a run) and Fig. 14's FFT filter.
# Prints the tables; with PAPER_ROWS / PAPER_CSV_DIR set (scripts/reproduce-paper.sh) also writes
# them as CSV and the comparison rows (experiments/paper/rows.sh). About 10 seconds.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
nw=$build/narwhal
[ -x "$nw" ] || { echo "starpu.sh: $nw is not built" >&2; exit 2; }
. experiments/paper/rows.sh
field() { printf '%s' "$1" | grep -oE "\"$2\":[[:space:]]*[0-9.eE+-]+" | head -1 | grep -oE '[0-9.eE+-]+$'; }
# subtasks per device kind from a run's JSON: "cpu gpu" totals, then each device's count
shares() {
  printf '%s' "$1" | tr -d '\n\t ' | sed 's/.*"devices"://' | grep -oE '"kind":"(cpu|gpu)"[^}]*"subtasks":[0-9]+' |
    sed -E 's/"kind":"(cpu|gpu)".*"subtasks":([0-9]+)/\1 \2/'
}
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", 100 * (a - b) / a }'; } # b's gain over a
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
homo=platforms/starpu-homogeneous.xml hetero=platforms/starpu-heterogeneous.xml
reserved=3 # cores that drive the GPUs (StarPU's CUDA workers)
on_homo=(--platform "$homo" --devices cpu+gpu --reserved-cores "$reserved" --data phantom)

# ---- Figs. 14-15: who gets the tasks under greedy --------------------------------------------
echo "Fig. 14: matmul 16384, greedy (prio), the GPUs' share of the tasks"
printf '%6s %10s %10s %12s %12s\n' block gpu_share makespan_s per_gpu per_cpu_core
table_csv starpu-fig14 block gpu_share makespan_s tasks_per_gpu tasks_per_cpu_core
first="" last="" faster=1
for b in 512 1024 2048; do
  o=$("$nw" run --app matmul --n 16384 --block "$b" "${on_homo[@]}" --sched prio --json)
  read -r cpu gpu ncpu ngpu <<<"$(shares "$o" | awk '{ t[$1] += $2; n[$1]++ } END { print t["cpu"] + 0, t["gpu"] + 0, n["cpu"] + 0, n["gpu"] + 0 }')"
  share=$(awk -v c="$cpu" -v g="$gpu" 'BEGIN { printf "%.3f", g / (c + g) }')
  pg=$(awk -v g="$gpu" -v n="$ngpu" 'BEGIN { printf "%.2f", g / n }')
  pc=$(awk -v c="$cpu" -v n="$ncpu" 'BEGIN { printf "%.2f", c / n }')
  awk -v a="$pg" -v b="$pc" 'BEGIN { exit !(a > b) }' || faster=0
  printf '%6s %10s %10.4f %12s %12s\n' "$b" "$share" "$(field "$o" makespan_s)" "$pg" "$pc"
  table_row starpu-fig14 "$b" "$share" "$(field "$o" makespan_s)" "$pg" "$pc"
  first=${first:-$share} last=$share
done
paper_row StarPU "Fig. 14" "matmul 16384 on the homogeneous machine, greedy: a GPU gets more tasks than a CPU core at every block size (512 to 2048)" \
  "section 8.2" "" "" "faster units get more tasks" "$([ $faster = 1 ] && echo yes || echo no)" \
  "$([ $faster = 1 ] && echo agrees || echo differs)"
rises=$(awk -v a="$first" -v b="$last" 'BEGIN { print (b > a) ? "rises" : "falls" }')
paper_row StarPU "Fig. 14" "matmul 16384, greedy: the GPUs' share of the tasks from blocks of 512 to 2048" \
  "section 8.2" "" "" "rises with the granularity" "$first to $last ($rises)" \
  "$([ "$rises" = rises ] && echo agrees || echo "differs: the modelled GPU computes a small block as efficiently as a large one (a subtask multiplies over all of k: 8.6 GFlop at blocks of 512), so its share cannot rise; it falls as fewer, longer tasks leave the CPU cores' first ones a larger part")"

echo
echo "Fig. 15: matmul 8192/1024 on the heterogeneous machine, greedy (prio): tasks per device"
o=$("$nw" run --app matmul --n 8192 --block 1024 --platform "$hetero" --devices cpu+gpu \
  --reserved-cores 2 --data phantom --sched prio --json)
shares "$o" | awk '{ printf "%s %s\n", $1, $2 }' | tee "$tmp/fig15"
read -r fx5800 fx4600 <<<"$(awk '$1 == "gpu" { g[n++] = $2 } END { print g[0], g[1] }' "$tmp/fig15")"
table_csv starpu-fig15 device tasks
awk '{ print $1 NR, $2 }' "$tmp/fig15" | while read -r d t; do table_row starpu-fig15 "$d" "$t"; done
paper_row StarPU "Fig. 15" "matmul 8192/1024 on the heterogeneous machine, greedy: tasks on the FX5800, FX4600" \
  "section 8.2" "" "" "the FX5800 gets more than the FX4600" "$fx5800, $fx4600" \
  "$([ "$fx5800" -gt "$fx4600" ] && echo agrees || echo differs)"

# ---- Fig. 16: priorities on Cholesky ----------------------------------------------------------
echo
echo "Fig. 16: Cholesky 4096/512 on the homogeneous machine's GPUs, dmdas (heft-tmdp-pr)"
declare -A m=()
for prio in on off; do
  o=$("$nw" run --app cholesky --n 4096 --block 512 --platform "$homo" --devices gpu \
    --data phantom --sched dmdas --app-param prio=$prio --json)
  m[$prio]=$(field "$o" makespan_s)
done
gain=$(pct "${m[off]}" "${m[on]}")
printf 'with priorities %.5f s, without %.5f s: %s%% faster\n' "${m[on]}" "${m[off]}" "$gain"
table_csv starpu-fig16 priorities makespan_s
table_row starpu-fig16 on "${m[on]}"
table_row starpu-fig16 off "${m[off]}"
paper_row StarPU "Fig. 16" "Cholesky 4096/512 on 3 FX5800 models, dmdas: time saved by StarPU's critical-path priorities, %" \
  "section 8.4.1" 15 15 "a typical 15 % speed improvement" "$gain" \
  "$(awk -v g="$gain" 'BEGIN { print (g > 0) ? "same direction" : "differs" }')"

# ---- Figs. 17-18: policies on LU ---------------------------------------------------------------
echo
echo "Fig. 17: tiled LU in 1024 blocks on the homogeneous machine (simulated s; bytes to the GPUs)"
printf '%-6s %-10s %10s %14s\n' n policy makespan_s bytes_h2d
table_csv starpu-fig17 n policy makespan_s bytes_h2d
declare -A t=() h=() gf=()
for n in 8192 16384; do
  for p in greedy heft-tm heft-tm-pr heft-tmdp-pr; do
    case $p in
    greedy) s=(--sched prio) ;;
    heft-tm) s=(--sched dm --pipeline off --prefetch-depth 0) ;;
    heft-tm-pr) s=(--sched dm) ;;
    heft-tmdp-pr) s=(--sched dmda) ;;
    esac
    o=$("$nw" run --app cholesky --app-param variant=lu --n "$n" --block 1024 "${on_homo[@]}" \
      "${s[@]}" --json)
    t[$n,$p]=$(field "$o" makespan_s) h[$n,$p]=$(field "$o" bytes_h2d) gf[$n,$p]=$(field "$o" gflops)
    printf '%-6s %-13s %10.4f %14s\n' "$n" "$p" "${t[$n,$p]}" "${h[$n,$p]}"
    table_row starpu-fig17 "$n" "$p" "${t[$n,$p]}" "${h[$n,$p]}"
  done
done
for n in 8192 16384; do
  g=$(pct "${t[$n,greedy]}" "${t[$n,heft-tm]}")
  paper_row StarPU "Fig. 17" "LU $n/1024, homogeneous machine: time heft-tm (dm, no prefetch) saves over greedy (prio), %" \
    "section 8.4.2" "" "" "heft-tm significantly outperforms greedy, especially for small problems" "$g" \
    "$(awk -v g="$g" 'BEGIN { print (g > 0) ? "agrees" : "differs" }')"
done
pr=$(pct "${t[16384,heft-tm]}" "${t[16384,heft-tm-pr]}")
paper_row StarPU "Fig. 17" "LU 16384/1024: time prefetching (dm with the pipeline's) saves over heft-tm, %" \
  "section 8.4.3" 20 20 "a typical 20% speed improvement" "$pr"
dp=$(pct "${t[16384,heft-tm-pr]}" "${t[16384,heft-tmdp-pr]}")
# What no placement can save in this model: every task's read-write tile crosses PCIe both ways
# (Unicorn's transactional views; StarPU keeps written tiles on the GPU). LU 16384/1024 has
# 16 * 17 * 33 / 6 tasks, each updating one 4 MiB tile.
rw=$(awk -v h="${h[16384,heft-tm-pr]}" 'BEGIN { printf "%.0f", 100 * 1496 * 4194304 / h }')
paper_row StarPU "Fig. 17" "LU 16384/1024: time the data penalty (dmda) saves over heft-tm-pr (dm), %" \
  "section 8.4.3" 15 15 "another 15% reduction of the execution time" "$dp" \
  "differs: $rw% of the bytes sent to the GPUs are the tasks' read-write tiles, sent every time (transactional views), which no placement saves"
hd=$(pct "${h[16384,heft-tm-pr]}" "${h[16384,heft-tmdp-pr]}")
paper_row StarPU "Fig. 18" "LU 16384/1024: bytes to the GPUs the data penalty (dmda) saves over dm, %" \
  "section 8.4.3" 50 50 "the total amount of data transfers drops almost by half" "$hd" \
  "differs: $rw% of those bytes are read-write tiles, sent every time, which no placement saves"

# ---- Fig. 19: granularity -----------------------------------------------------------------------
echo
echo "Fig. 19: LU under dmda on the homogeneous machine, GFlop/s by block size"
printf '%-6s %8s %8s %8s %6s\n' n b512 b1024 b2048 best
table_csv starpu-fig19 n gflops_b512 gflops_b1024 gflops_b2048 best_block
bests=""
for n in 4096 8192 24576; do
  row=() best=0 bestg=0
  for b in 512 1024 2048; do
    o=$("$nw" run --app cholesky --app-param variant=lu --n "$n" --block "$b" "${on_homo[@]}" \
      --sched dmda --json)
    g=$(field "$o" gflops)
    row+=("$(printf '%.1f' "$g")")
    if awk -v a="$g" -v b="$bestg" 'BEGIN { exit !(a > b) }'; then best=$b bestg=$g; fi
  done
  printf '%-6s %8s %8s %8s %6s\n' "$n" "${row[@]}" "$best"
  table_row starpu-fig19 "$n" "${row[@]}" "$best"
  bests="$bests${bests:+, }$best"
done
moves=$(echo "$bests" | tr -d ' ' | tr ',' '\n' | sort -u | wc -l)
paper_row StarPU "Fig. 19" "LU 4096, 8192, 24576 under dmda, homogeneous machine: best of blocks 512, 1024, 2048" \
  "section 8.5" "" "" "the best granularity varies with the problem size" "$bests" \
  "$([ "$moves" -gt 1 ] && echo agrees || echo differs)"

# ---- Table 3 and section 8.5.2: the 1 GB LU ------------------------------------------------------
# LU of a 1 GB matrix (16384^2 floats) under heft-tmdp-pr (dmda), blocks of 512 and 1024 (the
# latter Fig. 17's heft-tmdp-pr run), and 2048 for Fig. 19's 1 GB curve. Table 3's hybrid (1024,
# then 512 from the middle on) is not run: the LU keeps one block size a run.
echo
echo "Table 3: LU of a 1 GB matrix (16384) under dmda (heft-tmdp-pr) on the homogeneous machine"
printf '%6s %10s %8s\n' block time_ms gflops
table_csv starpu-table3 block time_ms gflops
declare -A tt=() tg=()
tt[1024]=${t[16384,heft-tmdp-pr]} tg[1024]=${gf[16384,heft-tmdp-pr]}
for b in 512 2048; do
  o=$("$nw" run --app cholesky --app-param variant=lu --n 16384 --block "$b" "${on_homo[@]}" \
    --sched dmda --json)
  tt[$b]=$(field "$o" makespan_s) tg[$b]=$(field "$o" gflops)
done
top=0
for b in 512 1024 2048; do
  ms=$(awk -v s="${tt[$b]}" 'BEGIN { printf "%.0f", 1000 * s }')
  printf '%6s %10s %8.1f\n' "$b" "$ms" "${tg[$b]}"
  table_row starpu-table3 "$b" "$ms" "${tg[$b]}"
  top=$(awk -v a="${tg[$b]}" -v m="$top" 'BEGIN { print (a > m ? a : m) }')
done
# For the rows' notes: the units' summed rate (the GPUs' speeds and the cores left after the
# reserved ones, from the platform file) and each run's share of it, against StarPU's.
peak=$(awk -v r="$reserved" 'match($0, /<host id="n0-gpu[0-9]+" speed="[0-9.]+Gf"/) { split(substr($0, RSTART, RLENGTH), a, "\""); g += a[4] + 0 }
  match($0, /<host id="n0-cpu" speed="[0-9.]+Gf" core="[0-9]+"/) { split(substr($0, RSTART, RLENGTH), a, "\""); c = a[4] * (a[6] - r) }
  END { printf "%.1f", g + c }' "$homo")
share_note() { # GFLOPS PAPER_GFLOPS [WHAT]: WHAT names the paper's value (default StarPU)
  awk -v g="$1" -v p="$2" -v t="$peak" -v w="${3:-StarPU}" 'BEGIN { printf "the run reaches %.0f%% of the units'"'"' summed rate (%.1f GFlop/s: every kernel at its unit'"'"'s SGEMM rate, no runtime cost), %s %.0f%%", 100 * g / t, t, w, 100 * p / t }'
}
for b in 512 1024; do
  case $b in 512) pt=5991 pg=489.4 ;; 1024) pt=5974 pg=490.8 ;; esac
  paper_row StarPU "Table 3" "LU 16384 (1 GB), blocks of $b, dmda (heft-tmdp-pr), homogeneous machine: time, ms" \
    "Table 3" "$pt" "$pt" "" "$(awk -v s="${tt[$b]}" 'BEGIN { printf "%.0f", 1000 * s }')" \
    "$(share_note "${tg[$b]}" "$pg")"
  paper_row StarPU "Table 3" "LU 16384 (1 GB), blocks of $b, dmda (heft-tmdp-pr), homogeneous machine: GFlop/s" \
    "Table 3" "$pg" "$pg" "" "$(printf '%.1f' "${tg[$b]}")" "$(share_note "${tg[$b]}" "$pg")"
done
paper_row StarPU "Fig. 19" "LU 16384 (1 GB) under dmda, homogeneous machine: best GFlop/s of blocks 512, 1024, 2048" \
  "section 8.5.2" 0 500 "does not reach 500 GFlop/s" "$(printf '%.1f' "$top")" "$(share_note "$top" 500 "StarPU's ceiling")"
