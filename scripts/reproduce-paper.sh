#!/usr/bin/env bash
# reproduce-paper.sh [--only NAME[,NAME...]] [--resume] [BUILD_DIR [OUT_DIR]]: every simulated figure that
# Narwhal reproduces, in one command (`narwhal reproduce` runs this; about 5 minutes on 2 cores),
# from five papers:
#   Unicorn     Beri, Bansal, Kumar, "The Unicorn Runtime: Efficient Distributed Shared Memory
#               Programming for Hybrid CPU-GPU Clusters", IEEE TPDS
#   PRS         Li, Fox, von Laszewski, Chauhan, "Co-processing SPMD Computation on CPUs and GPUs
#               Cluster", IEEE Cluster 2013
#   GeMTC       Krieder, Wozniak, Armstrong, Wilde, Katz, Grimmer, Foster, Raicu, "GeMTC:
#               GPU-enabled Many-Task Computing"
#   Lifflander  Lifflander, Evans, Arya, Kale, "Dynamic Scheduling for Work Agglomeration on
#               Heterogeneous Clusters"
#   StarPU      Augonnet, Thibault, Namyst, Wacrenier, "StarPU: a Unified Platform for Task
#               Scheduling on Heterogeneous Multicore Architectures" (INRIA RR-7240)
# Each figure's script or sweep runs with PAPER_ROWS and PAPER_CSV_DIR set, so that it writes
# its tables as CSV into OUT_DIR (default results/paper; sweeps also draw NAME.png) and one row
# per number the paper states: the paper's value (a constant from its text, with the section),
# the run's value and their difference (experiments/paper/rows.sh). OUT_DIR/comparison.csv
# holds those rows with the command that made each, OUT_DIR/report.md the same as one table
# and, per paper, the rows within 5% and 15%, the median and max of its predicted (not fitted)
# rows and how many of those are beyond 15% without a note (also printed at the end),
# OUT_DIR/NAME.txt each figure's printed output. Everything is simulated and deterministic, so
# a rerun gives the same numbers. --only runs the named figures alone. Stops at the first
# figure that fails, keeping what the earlier ones wrote. Each figure done leaves its rows and
# its line of the runs' table in OUT_DIR/.reproduce/; --resume keeps the figures found there
# (run by the same command) instead of running them again, so a run stopped after some
# figures and resumed writes the report an uninterrupted one would (the header's wall time is
# the figures' own seconds, summed). Without --resume, that state is cleared first. Each
# figure is announced as "figure k of N", with the seconds it took the last time it ran into
# OUT_DIR where known. Bad arguments: one line, exit 2.
# OUT_DIR/comparison.png draws comparison.csv (experiments/paper/comparison-plot.sh, which
# redraws it alone from an existing OUT_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "reproduce-paper.sh: $*" >&2; }
. experiments/paper/rows.sh
paperdir=experiments/paper

# name | paper and figures | command (BUILD and OUT stand for the directories) | command that
# writes the comparison rows, if the first does not | experiment (its file in docs/experiments/)
figures=(
  "main-job|Unicorn Fig. 4, matmul (the main job)|BUILD/narwhal sweep OUT/sweeps/matmul-scaling.json --csv OUT/main-job.csv|experiments/paper/sweep-rows.sh main-job OUT/main-job.csv|paper-matmul-simulated"
  "fig4-scaling|Unicorn Fig. 4, all four benchmarks|benchmarks/app-scaling.sh BUILD||strong-scaling"
  "figs5-7-gpus-only|Unicorn Figs. 5-7, GPUs only against CPUs and GPUs|benchmarks/gpus-only-figs.sh BUILD||paper-claims-cited"
  "fig10-balance|Unicorn Figs. 10 and 11, devices' finishing times|benchmarks/balance-figs.sh BUILD||paper-claims-cited"
  "fig12-granularity|Unicorn Fig. 12, subtask size|benchmarks/granularity-figs.sh BUILD||paper-claims-cited"
  "fig14-multi-assign|Unicorn Fig. 14, multi-assign on 2-14 nodes|benchmarks/multi-assign-figs.sh BUILD||paper-claims-cited"
  "fig15-external-load|Unicorn Fig. 15, multi-assign under external load|benchmarks/external-load-figs.sh BUILD||paper-claims-cited"
  "fig19-cores|Unicorn Fig. 19, compute cores per node|benchmarks/cores-figs.sh BUILD||paper-claims-cited"
  "fig20-overhead|Unicorn Fig. 20, runtime time against application time|benchmarks/overhead-figs.sh BUILD||paper-claims-cited"
  "fig17-gpu-cache|Unicorn Fig. 17, GPU cache policies|BUILD/narwhal sweep OUT/sweeps/gpu-cache.json --csv OUT/fig17-gpu-cache.csv|experiments/paper/sweep-rows.sh fig17-gpu-cache OUT/fig17-gpu-cache.csv|gpus-simulated"
  "fig8-fig18-pagerank|Unicorn Figs. 8 and 18, PageRank|benchmarks/pagerank-figs.sh BUILD||pagerank-compression"
  "fig9-stealing|Unicorn Fig. 9, one- against two-level stealing|benchmarks/steal-levels.sh BUILD||steal-levels"
  "fig13-fig21-placement|Unicorn Figs. 13 and 21, placement and transfer frequency|benchmarks/placement-figs.sh BUILD||initial-placement, transfer-frequency"
  "paper-fit|Unicorn's stated numbers on the estimated and the fitted cluster|benchmarks/paper-fit.sh BUILD||paper-cluster-fitted"
  "prs-table5-gemv|PRS Table 5, gemv|BUILD/narwhal sweep experiments/roofline-gemv.json --csv OUT/prs-table5-gemv.csv|experiments/paper/sweep-rows.sh prs-table5-gemv OUT/prs-table5-gemv.csv|roofline-split"
  "prs-table5-cmeans|PRS Table 5, C-means|BUILD/narwhal sweep experiments/roofline-cmeans.json --csv OUT/prs-table5-cmeans.csv|experiments/paper/sweep-rows.sh prs-table5-cmeans OUT/prs-table5-cmeans.csv|roofline-split"
  "prs-fig6-gains|PRS section IV-B and Fig. 6: CPU+GPU against the GPU alone, weak scaling, GEMV staging|benchmarks/prs-figs.sh BUILD||paper-claims-cited"
  "prs-gmm|PRS Table 5, conclusion and section IV-B: GMM|experiments/paper/prs-gmm.sh BUILD||paper-claims-cited"
  "gemtc-fig9|GeMTC Fig. 9, tasks/s against bundle size|BUILD/narwhal sweep experiments/mtc-bundle-k20x.json --csv OUT/gemtc-fig9.csv|experiments/paper/sweep-rows.sh gemtc-fig9 OUT/gemtc-fig9.csv|many-task-sim-k20x"
  "gemtc-fig20-21|GeMTC Figs. 20-21, efficiency against task duration|BUILD/narwhal sweep experiments/mtc-efficiency-k20x.json --csv OUT/gemtc-fig20-21.csv|experiments/paper/sweep-rows.sh gemtc-fig20-21 OUT/gemtc-fig20-21.csv|many-task-sim-k20x"
  "gemtc-scale|GeMTC Figs. 15-16, 19, 21-22: workers, nodes and throughput at scale|experiments/paper/gemtc-scale.sh BUILD||many-task-sim-k20x"
  "agglomeration|Lifflander: LU (section V-B, Figs. 12-14) and Molecular2D (Figs. 5-6) on the S1070 model|experiments/paper/agglomeration.sh BUILD||agglomeration-fifo, packed-copies, agglomeration-static"
  "agglomeration-grain|Lifflander: Molecular2D's grain size, agglomeration limit and dynamic against static (Figs. 7-10) on the S1070 model|experiments/paper/agglomeration-grain.sh BUILD||paper-claims-cited, agglomeration-static"
  "starpu-eval|StarPU section 8: Figs. 14-19 and Table 3 on models of its two machines|experiments/paper/starpu.sh BUILD||starpu-evaluation"
)
names=$(for f in "${figures[@]}"; do printf '%s ' "${f%%|*}"; done)

# --- arguments: all checked before anything is written ---------------------------------------
only=""
resume=0
while [ $# -gt 0 ]; do
  case $1 in
  --resume)
    resume=1
    shift
    ;;
  --only)
    if [ $# -lt 2 ] || [ -z "$2" ]; then say "--only: missing value (one of: ${names% })"; exit 2; fi
    only=$2
    shift 2
    ;;
  -*) say "unknown option '$1' (--only NAME[,NAME...], --resume, then BUILD_DIR [OUT_DIR])"; exit 2 ;;
  *) break ;;
  esac
done
[ $# -le 2 ] || { say "too many arguments: '$3' (BUILD_DIR [OUT_DIR])"; exit 2; }
build=${1:-build}
out=${2:-results/paper}
# "," or " " would run nothing and write an empty report.
[ -z "$only" ] || [ -n "${only//[, ]/}" ] || { say "--only: '$only' names no figure (one of: ${names% })"; exit 2; }
for n in ${only//,/ }; do
  case " $names" in
  *" $n "*) ;;
  *) say "--only: unknown figure '$n' (one of: ${names% })"; exit 2 ;;
  esac
done
[ -x "$build/narwhal" ] || { say "$build/narwhal is not built (scripts/bootstrap.sh)"; exit 2; }
mkdir -p "$out" || { say "$out: cannot be created"; exit 2; }
# Paths as the report shows them: relative to the repository when inside it.
rel() { case $1 in "$PWD"/*) printf '%s' "${1#"$PWD"/}" ;; *) printf '%s' "$1" ;; esac; }
b=$(rel "$build") o=$(rel "$out")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Every paper value a row compares against must be cited (experiments/paper/rows.sh, paper_cited).
export PAPER_ROWS=$tmp/rows PAPER_CSV_DIR=$out PAPER_CITATIONS=$PWD/$paperdir/citations.tsv
# One model of the Unicorn paper's cluster for all its figures: the fitted one, three numbers
# fitted to three of the paper's (experiments/paper/fitted.tsv; benchmarks/paper-fit.sh finds
# them), everything else predicted. The figure scripts take it from PAPER_PLATFORM (rows.sh);
# the two sweeps of the paper's cluster run from copies naming it, kept in OUT/sweeps.
export PAPER_PLATFORM=$PWD/platforms/paper-cluster-fitted.xml
mkdir -p "$out/sweeps"
for s in matmul-scaling gpu-cache; do
  sed 's|"platforms/paper-cluster.xml"|"platforms/paper-cluster-fitted.xml"|' \
    "experiments/$s.json" >"$out/sweeps/$s.json"
  grep -q paper-cluster-fitted "$out/sweeps/$s.json" ||
    { say "experiments/$s.json: names no platforms/paper-cluster.xml"; exit 1; }
done
comparison=$out/comparison.csv
echo "paper,figure,quantity,paper_source,paper_lo,paper_hi,paper_stated,narwhal,difference_pct,note,reproduction,command" >"$comparison"
load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
state=$out/.reproduce
mkdir -p "$state"
[ "$resume" = 1 ] || rm -f "$state"/*.run "$state"/*.rows # the seconds stay: estimates
: >"$tmp/runs"
selected() { [ -z "$only" ] || case ",$only," in *",$1,"*) ;; *) return 1 ;; esac; }
total=0
for f in "${figures[@]}"; do selected "${f%%|*}" && total=$((total + 1)); done
k=0 wall=0
for f in "${figures[@]}"; do
  IFS='|' read -r name title cmd rows section <<<"$f"
  selected "$name" || continue
  k=$((k + 1))
  cmd=${cmd//BUILD/$b} cmd=${cmd//OUT/$o} rows=${rows//BUILD/$b} rows=${rows//OUT/$o}
  # A figure done before, by this command: its rows and its line of the runs' table again.
  if [ "$resume" = 1 ] && [ -s "$state/$name.run" ] && [ -e "$state/$name.rows" ] &&
    [ "$(cut -d'|' -f3 "$state/$name.run")" = "$cmd" ]; then
    say "figure $k of $total: $title: done before, kept (--resume)"
    cat "$state/$name.rows" >>"$comparison"
    cat "$state/$name.run" >>"$tmp/runs"
    wall=$((wall + $(cut -d'|' -f5 "$state/$name.run")))
    continue
  fi
  last=""
  [ ! -s "$state/$name.seconds" ] || last=", about $(cat "$state/$name.seconds") s as last time"
  say "figure $k of $total: $title ($cmd$last)"
  rm -f "$state/$name.run" "$state/$name.rows"
  t0=$SECONDS
  : >"$PAPER_ROWS"
  touch "$tmp/stamp"
  sleep 0.1 # past the file system's clock tick: every file the figure writes is newer
  # The commands hold no quotes; a directory with a space in its name would break them.
  # shellcheck disable=SC2086
  if ! $cmd >"$out/$name.txt" 2>&1 || { [ -n "$rows" ] && ! $rows >>"$out/$name.txt" 2>&1; }; then
    say "'$cmd' failed; its output is in $out/$name.txt"
    exit 1
  fi
  # Each row gets the figure's name and command.
  while IFS= read -r line; do
    printf '%s,%s' "$line" "$(csv_line "$name" "$cmd")"
    echo
  done <"$PAPER_ROWS" >"$tmp/rows.$name"
  cat "$tmp/rows.$name" >>"$comparison"
  files=$(cd "$out" && find . -maxdepth 1 -type f -newer "$tmp/stamp" ! -name comparison.csv |
    sed 's|^\./||' | sort | tr '\n' ' ' | sed 's/ $//')
  secs=$((SECONDS - t0))
  wall=$((wall + secs))
  printf '%s|%s|%s|%s|%s|%s|%s\n' "$name" "$title" "$cmd" "$rows" "$secs" "$section" \
    "$files" >"$tmp/run.$name"
  cat "$tmp/run.$name" >>"$tmp/runs"
  # The state last: a figure counts as done only once all of it is written.
  echo "$secs" >"$state/$name.seconds"
  mv "$tmp/rows.$name" "$state/$name.rows"
  mv "$tmp/run.$name" "$state/$name.run"
done
load1=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)

# --- report.md: the comparison as one table ---------------------------------------------------
report=$out/report.md
{
  echo "# The papers' figures, simulated"
  echo
  echo "Made by \`narwhal reproduce\` (\`scripts/reproduce-paper.sh${only:+ --only $only} $b $o\`) at commit" \
    "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null ||
      echo ' with uncommitted changes'), $(date -u +%Y-%m-%d): $wall s" \
    "of wall time on $(nproc 2>/dev/null || echo '?') cores, load average $load0 at the start and $load1 at the end."
  echo "Every Narwhal value below comes from this run; every paper value is a constant from the"
  echo "paper's text, at the place named. The machine-readable table is \`comparison.csv\`;"
  echo "\`comparison.png\` draws its difference column (with gnuplot): a bar per row with a"
  echo "difference, labelled with the row's number, paper and figure, and below them a marker per"
  echo "qualitative row, coloured by whether the run agrees."
  echo
  echo "Papers: **Unicorn**: Beri, Bansal, Kumar, \"The Unicorn Runtime: Efficient Distributed"
  echo "Shared Memory Programming for Hybrid CPU-GPU Clusters\", IEEE TPDS. **PRS**: Li, Fox,"
  echo "von Laszewski, Chauhan, \"Co-processing SPMD Computation on CPUs and GPUs Cluster\", IEEE"
  echo "Cluster 2013. **GeMTC**: Krieder, Wozniak, Armstrong, Wilde, Katz, Grimmer, Foster, Raicu,"
  echo "\"GeMTC: GPU-enabled Many-Task Computing\". **Lifflander**: Lifflander, Evans, Arya, Kale,"
  echo "\"Dynamic Scheduling for Work Agglomeration on Heterogeneous Clusters\". **StarPU**: Augonnet,"
  echo "Thibault, Namyst, Wacrenier, \"StarPU: a Unified Platform for Task Scheduling on Heterogeneous"
  echo "Multicore Architectures\" (INRIA RR-7240)."
  echo
  echo "Difference: (Narwhal - paper) / |paper|. For a range, 0 inside it, else the distance to"
  echo "its nearest end over that end. A qualitative statement has no difference; the Narwhal"
  echo "column then says what the run shows, and the note says whether that agrees (decided by"
  echo "the script from the run). The experiment listed under the table (its file in"
  echo "docs/experiments/) says where and why each figure differs."
  echo
  awk -f "$paperdir/csv.awk" -f "$paperdir/report.awk" "$comparison"
  echo
  echo "## Per paper"
  echo
  echo "A row is fitted when the model was fitted to its paper value (its note says so); the"
  echo "median and maximum are over the other numeric rows, the model's predictions; the last"
  echo "column counts those beyond 15% whose note is empty."
  echo
  awk -f "$paperdir/csv.awk" -f "$paperdir/summary.awk" "$comparison"
  echo
  echo "## The runs"
  echo
  echo "| figure | what | command | seconds | experiment (docs/experiments/) | files |"
  echo "| --- | --- | --- | ---: | --- | --- |"
  while IFS='|' read -r name title cmd rows secs section files; do
    # shellcheck disable=SC2016 # the backquotes are markdown
    printf '| %s | %s | `%s`%s | %s | %s | %s |\n' "$name" "$title" "$cmd" \
      "${rows:+, then \`$rows\`}" "$secs" "$section" "$files"
  done <"$tmp/runs"
  echo
  echo "## Claims without a row"
  echo
  echo "Every other claim of the papers' evaluations, from experiments/paper/citations.tsv, with"
  echo "why it has no row."
  echo
  awk -f "$paperdir/unrowed.awk" "$PAPER_CITATIONS"
  echo
  echo "## Not in the table"
  echo
  echo "- Wall-clock and real-hardware results (docs/experiments/: benchmark-targets.md,"
  echo "  overhead-and-scale.md, real-matmul-in-place.md, calibrated-simulation.md,"
  echo "  per-task-overhead.md, h100.md): not simulated, so not deterministic; they need their"
  echo "  machine."
  echo "- Values the papers give only in images (Unicorn's Fig. 4 at 2, 4 and 8 nodes, Fig. 8"
  echo "  per node count, Fig. 13; GeMTC's Figs. 20-21 and Lifflander's Figs. 5-6 beyond their"
  echo "  shape): the table compares the numbers and statements of the text."
  echo "- GeMTC's 40K workers (Fig. 22: 73 s and 8.7 GB of simulation) and its scaling within one"
  echo "  warp (Figs. 13-14, a kernel's own behaviour on its GPU): not run; experiments/paper/"
  echo "  citations.tsv says why for every claim without a row."
  echo "- Sweeps without a paper value (docs/experiments/roofline-split.md's roofline against the"
  echo "  dynamic policies, docs/experiments/agglomeration-fifo.md's generated two-node LU"
  echo "  platform)."
  echo "- StarPU's Table 2 (a real runtime's overheads: benchmarks/taskbench.sh measures Narwhal's"
  echo "  beside StarPU's own on one machine), Table 3's hybrid granularity (the LU keeps one tile"
  echo "  size a run) and Fig. 14's FFT filter: not run (docs/experiments/starpu-evaluation.md)."
} >"$report"
# --- comparison.png: a labelled bar per row with a difference, a marker per qualitative claim --
# Its own script, so that a picture can be redrawn from an existing OUT_DIR; it says in one line
# why when it draws none (no gnuplot, no plots/comparison.gp), and the report stands either way.
"$paperdir/comparison-plot.sh" "$out" || true
# A whole run: every citation that says a row compares it must have one (experiments/paper/
# uncovered.awk), else the citations file claims rows that do not exist.
if [ -z "$only" ]; then
  missing=$(awk -f "$paperdir/csv.awk" -f "$paperdir/uncovered.awk" "$PAPER_CITATIONS" "$comparison")
  [ -z "$missing" ] || say "citations marked as compared but with no row: $(echo $missing)"
fi
awk -v text=1 -f "$paperdir/csv.awk" -f "$paperdir/summary.awk" "$comparison" |
  while IFS= read -r line; do say "$line"; done
say "$wall s; report in $report, comparison in $comparison"
