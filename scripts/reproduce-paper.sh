#!/usr/bin/env bash
# reproduce-paper.sh [--only NAME[,NAME...]] [BUILD_DIR [OUT_DIR]]: every simulated figure that
# Narwhal reproduces, in one command (`narwhal reproduce` runs this; about 2 minutes on 2 cores),
# from four papers:
#   Unicorn     Beri, Bansal, Kumar, "The Unicorn Runtime: Efficient Distributed Shared Memory
#               Programming for Hybrid CPU-GPU Clusters", IEEE TPDS
#   PRS         Li, Fox, von Laszewski, Chauhan, "Co-processing SPMD Computation on CPUs and GPUs
#               Cluster", IEEE Cluster 2013
#   GeMTC       Krieder, Wozniak, Armstrong, Wilde, Katz, Grimmer, Foster, Raicu, "GeMTC:
#               GPU-enabled Many-Task Computing"
#   Lifflander  Lifflander, Evans, Arya, Kale, "Dynamic Scheduling for Work Agglomeration on
#               Heterogeneous Clusters"
# Each figure's script or sweep runs with PAPER_ROWS and PAPER_CSV_DIR set, so that it writes
# its tables as CSV into OUT_DIR (default results/paper; sweeps also draw NAME.png) and one row
# per number the paper states: the paper's value (a constant from its text, with the section),
# the run's value and their difference (experiments/paper/rows.sh). OUT_DIR/comparison.csv
# holds those rows with the command that made each, OUT_DIR/report.md the same as one table,
# OUT_DIR/NAME.txt each figure's printed output. Everything is simulated and deterministic, so
# a rerun gives the same numbers. --only runs the named figures alone. Stops at the first
# figure that fails, keeping what the earlier ones wrote. Bad arguments: one line, exit 2.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "reproduce-paper.sh: $*" >&2; }
. experiments/paper/rows.sh

# name | paper and figures | command (BUILD and OUT stand for the directories) | command that
# writes the comparison rows, if the first does not | EXPERIMENTS.md section
figures=(
  "main-job|Unicorn Fig. 4, matmul (the main job)|BUILD/narwhal sweep experiments/matmul-scaling.json --csv OUT/main-job.csv|experiments/paper/sweep-rows.sh main-job OUT/main-job.csv|1"
  "fig4-scaling|Unicorn Fig. 4, all four benchmarks|benchmarks/app-scaling.sh BUILD||15"
  "fig8-fig18-pagerank|Unicorn Figs. 8 and 18, PageRank|benchmarks/pagerank-figs.sh BUILD||13"
  "fig9-stealing|Unicorn Fig. 9, one- against two-level stealing|benchmarks/steal-levels.sh BUILD||14"
  "fig13-fig21-placement|Unicorn Figs. 13 and 21, placement and transfer frequency|benchmarks/placement-figs.sh BUILD||16, 17"
  "paper-fit|Unicorn's stated numbers on the estimated and the fitted cluster|benchmarks/paper-fit.sh BUILD||12"
  "prs-table5-gemv|PRS Table 5, gemv|BUILD/narwhal sweep experiments/roofline-gemv.json --csv OUT/prs-table5-gemv.csv|experiments/paper/sweep-rows.sh prs-table5-gemv OUT/prs-table5-gemv.csv|19"
  "prs-table5-cmeans|PRS Table 5, C-means|BUILD/narwhal sweep experiments/roofline-cmeans.json --csv OUT/prs-table5-cmeans.csv|experiments/paper/sweep-rows.sh prs-table5-cmeans OUT/prs-table5-cmeans.csv|19"
  "gemtc-fig9|GeMTC Fig. 9, tasks/s against bundle size|BUILD/narwhal sweep experiments/mtc-bundle-k20x.json --csv OUT/gemtc-fig9.csv|experiments/paper/sweep-rows.sh gemtc-fig9 OUT/gemtc-fig9.csv|22"
  "gemtc-fig20-21|GeMTC Figs. 20-21, efficiency against task duration|BUILD/narwhal sweep experiments/mtc-efficiency-k20x.json --csv OUT/gemtc-fig20-21.csv|experiments/paper/sweep-rows.sh gemtc-fig20-21 OUT/gemtc-fig20-21.csv|22"
  "agglomeration|Lifflander: LU and Molecular2D (Figs. 5-6) on the S1070 model|experiments/paper/agglomeration.sh BUILD||20, 23"
)
names=$(for f in "${figures[@]}"; do printf '%s ' "${f%%|*}"; done)

# --- arguments: all checked before anything is written ---------------------------------------
only=""
while [ $# -gt 0 ]; do
  case $1 in
  --only)
    if [ $# -lt 2 ] || [ -z "$2" ]; then say "--only: missing value (one of: ${names% })"; exit 2; fi
    only=$2
    shift 2
    ;;
  -*) say "unknown option '$1' (--only NAME[,NAME...], then BUILD_DIR [OUT_DIR])"; exit 2 ;;
  *) break ;;
  esac
done
[ $# -le 2 ] || { say "too many arguments: '$3' (BUILD_DIR [OUT_DIR])"; exit 2; }
build=${1:-build}
out=${2:-results/paper}
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
export PAPER_ROWS=$tmp/rows PAPER_CSV_DIR=$out
comparison=$out/comparison.csv
echo "paper,figure,quantity,paper_source,paper_lo,paper_hi,paper_stated,narwhal,difference_pct,note,reproduction,command" >"$comparison"
load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
start=$SECONDS
: >"$tmp/runs"
for f in "${figures[@]}"; do
  IFS='|' read -r name title cmd rows section <<<"$f"
  [ -z "$only" ] || case ",$only," in *",$name,"*) ;; *) continue ;; esac
  cmd=${cmd//BUILD/$b} cmd=${cmd//OUT/$o} rows=${rows//BUILD/$b} rows=${rows//OUT/$o}
  say "$title ($cmd)"
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
  done <"$PAPER_ROWS" >>"$comparison"
  files=$(cd "$out" && find . -maxdepth 1 -type f -newer "$tmp/stamp" ! -name comparison.csv |
    sed 's|^\./||' | sort | tr '\n' ' ' | sed 's/ $//')
  printf '%s|%s|%s|%s|%s|%s|%s\n' "$name" "$title" "$cmd" "$rows" "$((SECONDS - t0))" "$section" \
    "$files" >>"$tmp/runs"
done
wall=$((SECONDS - start))
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
  echo "paper's text, at the place named. The machine-readable table is \`comparison.csv\`."
  echo
  echo "Papers: **Unicorn**: Beri, Bansal, Kumar, \"The Unicorn Runtime: Efficient Distributed"
  echo "Shared Memory Programming for Hybrid CPU-GPU Clusters\", IEEE TPDS. **PRS**: Li, Fox,"
  echo "von Laszewski, Chauhan, \"Co-processing SPMD Computation on CPUs and GPUs Cluster\", IEEE"
  echo "Cluster 2013. **GeMTC**: Krieder, Wozniak, Armstrong, Wilde, Katz, Grimmer, Foster, Raicu,"
  echo "\"GeMTC: GPU-enabled Many-Task Computing\". **Lifflander**: Lifflander, Evans, Arya, Kale,"
  echo "\"Dynamic Scheduling for Work Agglomeration on Heterogeneous Clusters\"."
  echo
  echo "Difference: (Narwhal - paper) / |paper|. For a range, 0 inside it, else the distance to"
  echo "its nearest end over that end. A qualitative statement has no difference; the Narwhal"
  echo "column then says what the run shows, and the note says whether that agrees (decided by"
  echo "the script from the run). EXPERIMENTS.md, at the section listed under the table, says"
  echo "where and why each figure differs."
  echo
  awk '
    # One CSV line into f[1..n]: fields quoted with "..." and "" for a quote.
    function split_csv(line, f,   n, i, c, q, cur) {
      n = 0; cur = ""; q = 0
      for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (q) {
          if (c == "\"" && substr(line, i + 1, 1) == "\"") { cur = cur "\""; i++ }
          else if (c == "\"") q = 0
          else cur = cur c
        } else if (c == "\"") q = 1
        else if (c == ",") { f[++n] = cur; cur = "" }
        else cur = cur c
      }
      f[++n] = cur
      return n
    }
    function num(x) { return x ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
    function show(x) { return !num(x) ? x : (x + 0 >= 1000 || x + 0 <= -1000 ? sprintf("%.0f", x) : sprintf("%.4g", x)) }
    function cell(x) { gsub(/\|/, "\\|", x); return x }
    NR == 1 { print "| # | paper | figure | quantity | paper value (where) | Narwhal | difference | note | command |"
              print "| ---: | --- | --- | --- | --- | ---: | ---: | --- | --- |"; next }
    {
      split_csv($0, f)
      paper = (f[7] != "" ? f[7] : f[5] == f[6] ? show(f[5]) : f[6] == "" ? "more than " f[5] : f[5] "-" f[6])
      if (f[5] == "") { d = "none (qualitative)"; quali++; if (f[10] ~ /^agrees/) agree++ }
      else if (f[9] == "") d = "none"
      else {
        d = f[9] "%"; k++; a = f[9] + 0; abs[k] = a < 0 ? -a : a
        if (f[5] != f[6] && a == 0) d = "0 (inside the range)"
        else if (f[5] != f[6]) d = d " (from the range)"
      }
      printf "| %d | %s | %s | %s | %s (%s) | %s | %s | %s | `%s` |\n", NR - 1, f[1], cell(f[2]),
        cell(f[3]), cell(paper), cell(f[4]), cell(show(f[8])), d, cell(f[10]), cell(f[12])
    }
    END {
      for (i = 2; i <= k; i++) for (j = i; j > 1 && abs[j - 1] > abs[j]; j--) { t = abs[j]; abs[j] = abs[j - 1]; abs[j - 1] = t }
      med = k == 0 ? 0 : k % 2 ? abs[(k + 1) / 2] : (abs[k / 2] + abs[k / 2 + 1]) / 2
      printf "\n%d rows: %d against a paper number or range (|difference| median %.1f%%, %d within 10%%), %d qualitative (%d agree).\n",
        NR - 1, k, med, within(k), quali, agree
    }
    function within(k,   i, c) { for (i = 1; i <= k; i++) if (abs[i] <= 10) c++; return c + 0 }
    # (Fields are strings: every numeric comparison above adds 0 first.)
  ' "$comparison"
  echo
  echo "## The runs"
  echo
  echo "| figure | what | command | seconds | EXPERIMENTS.md section | files |"
  echo "| --- | --- | --- | ---: | --- | --- |"
  while IFS='|' read -r name title cmd rows secs section files; do
    # shellcheck disable=SC2016 # the backquotes are markdown
    printf '| %s | %s | `%s`%s | %s | %s | %s |\n' "$name" "$title" "$cmd" \
      "${rows:+, then \`$rows\`}" "$secs" "$section" "$files"
  done <"$tmp/runs"
  echo
  echo "## Not in the table"
  echo
  echo "- Wall-clock and real-hardware results (EXPERIMENTS.md sections 2, 7, 8, 11, 18, 21): not"
  echo "  simulated, so not deterministic; they need their machine."
  echo "- Values the papers give only in images (Unicorn's Fig. 4 at 2, 4 and 8 nodes, Fig. 8"
  echo "  per node count, Fig. 13; GeMTC's Figs. 20-21 and Lifflander's Figs. 5-6 beyond their"
  echo "  shape): the table compares the numbers and statements of the text."
  echo "- Unicorn's runtime overhead (section 5.7.2), the bounds over subtask sizes (5.5.2) and"
  echo "  core counts (5.7.1), and the loaded node (5.6.1, Fig. 15): not run (EXPERIMENTS.md"
  echo "  section 12, \"Left out\")."
  echo "- Sweeps without a paper value (section 19's roofline against the dynamic policies,"
  echo "  section 20's generated two-node LU platform)."
} >"$report"
say "$wall s; report in $report, comparison in $comparison"
