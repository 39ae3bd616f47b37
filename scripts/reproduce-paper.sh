#!/usr/bin/env bash
# reproduce-paper.sh [BUILD_DIR [OUT_DIR]]: every figure of the Unicorn paper (Beri, Bansal,
# Kumar, "Unicorn: a programming model and runtime for hybrid CPU-GPU clusters", IEEE TPDS)
# that the simulator reproduces, in one command (about 3 minutes on 2 cores): the main job
# (Fig. 4's matmul on the paper's cluster), Fig. 4 for all four benchmarks, Figs. 8 and 18
# (PageRank, reductions, compression), Fig. 9 (one- against two-level stealing), Figs. 13 and
# 21 (initial placement, transfer frequency). Each figure's script output goes to
# OUT_DIR/<figure>.txt (default results/paper/) and OUT_DIR/report.md collects them with the
# command that made each; EXPERIMENTS.md puts every number beside the paper's and says where
# and why they differ. Everything is simulated and deterministic, so a rerun gives the same
# tables. Stops at the first script that fails, keeping what the earlier ones wrote.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=${2:-results/paper}
[ -x "$build/narwhal" ] || { echo "reproduce-paper.sh: $build/narwhal is not built (scripts/bootstrap.sh)" >&2; exit 2; }
mkdir -p "$out"

# name | command | the figure | EXPERIMENTS.md section comparing it with the paper
figures=(
  "main-job|$build/narwhal sweep experiments/matmul-scaling.json|Fig. 4 (matmul), the main job|1"
  "fig4-scaling|benchmarks/app-scaling.sh $build|Fig. 4: strong scaling of conv2d, matmul, LU and 2D FFT|15"
  "fig8-fig18-pagerank|benchmarks/pagerank-figs.sh $build|Figs. 8 and 18: PageRank per iteration, reduction stage, compression|13"
  "fig9-stealing|benchmarks/steal-levels.sh $build|Fig. 9: one- against two-level stealing|14"
  "fig13-fig21-placement|benchmarks/placement-figs.sh $build|Figs. 13 and 21: initial placement, transfer frequency|16 and 17"
)

report=$out/report.md
{
  echo "# The Unicorn paper's figures, simulated"
  echo
  echo "Made by \`scripts/reproduce-paper.sh $build $out\` at commit" \
    "$(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u +%Y-%m-%d)." \
    "EXPERIMENTS.md compares each table with the paper's values (section named per figure)."
} >"$report"
start=$SECONDS
for f in "${figures[@]}"; do
  IFS='|' read -r name cmd title section <<<"$f"
  echo "reproduce-paper: $title ($cmd)" >&2
  t0=$SECONDS
  $cmd >"$out/$name.txt" 2>&1 || {
    echo "reproduce-paper.sh: '$cmd' failed; its output is in $out/$name.txt" >&2
    exit 1
  }
  {
    echo
    echo "## $title"
    echo
    echo "\`$cmd\` ($((SECONDS - t0)) s; EXPERIMENTS.md, section $section)"
    echo
    echo '```'
    cat "$out/$name.txt"
    echo '```'
  } >>"$report"
done
echo "reproduce-paper: $((SECONDS - start)) s; report in $report" >&2
