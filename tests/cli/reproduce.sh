#!/usr/bin/env bash
# reproduce.sh NARWHAL CASE: `narwhal reproduce` (scripts/reproduce-paper.sh), without the
# full two-minute run.
#   only_main_job  --only main-job: the report and comparison.csv hold the main job's 14-node
#                  rate with a numeric paper value, the run's value (the one in the sweep's CSV)
#                  and their difference, computed as documented; the CSV and plot are there,
#                  and comparison.png's data has that difference as row 1's bar; the report
#                  lists each claim of the citations file that no row compares; the sweep ran
#                  from a copy naming the fitted cluster, and its 14-node row is marked fitted
#   resume         a run of the first figure, then --resume with two: the first is kept (its
#                  CSV not rewritten), the second runs ("figure 2 of 2"), and report.md and
#                  comparison.csv are those of an uninterrupted run of both (the output
#                  directory's name and the seconds aside)
#   help           narwhal --help lists the command
#   bad_only, bad_option, missing_out, only_names_nothing: one line on stderr naming the argument, nothing on
#                  stdout, exit 2, no output directory made
set -euo pipefail
nw=$1 case=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

bad() { # bad WANT ARGS...: exit 2, one line on stderr containing WANT, nothing else
  local want=$1 status=0
  shift
  "$nw" reproduce "$@" >"$tmp/stdout" 2>"$tmp/stderr" || status=$?
  [ "$status" -eq 2 ] || fail "exit $status, want 2: $(cat "$tmp/stderr")"
  [ ! -s "$tmp/stdout" ] || fail "stdout not empty: $(cat "$tmp/stdout")"
  [ "$(wc -l <"$tmp/stderr")" -eq 1 ] || fail "want one line on stderr, got: $(cat "$tmp/stderr")"
  grep -qF -- "$want" "$tmp/stderr" || fail "stderr does not name '$want': $(cat "$tmp/stderr")"
  [ ! -e "$tmp/out" ] || fail "made $tmp/out although the arguments were bad"
}

case $case in
only_main_job)
  "$nw" reproduce --only main-job --out "$tmp/out" 2>"$tmp/stderr" ||
    fail "exit $?: $(cat "$tmp/stderr")"
  out=$tmp/out
  for f in report.md comparison.csv main-job.csv main-job.txt; do
    [ -s "$out/$f" ] || fail "no $f"
  done
  if command -v gnuplot >/dev/null; then [ -s "$out/main-job.png" ] || fail "no main-job.png"; fi
  # The run's own 14-node rate, from the sweep's CSV (nodes is its first column).
  rate=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "gflops") j = i }
    NR > 1 && $1 == 14 { print $j }' "$out/main-job.csv")
  [ -n "$rate" ] || fail "main-job.csv has no 14-node row"
  # Its comparison row: paper value 7880 (the abstract), the run's value, the difference.
  row=$(grep -F 'GFlop/s on 14 nodes' "$out/comparison.csv") || fail "no 14-node row in comparison.csv"
  awk -v r="$rate" -v row="$row" 'BEGIN {
    # the row without its quoted fields (they hold commas): paper_lo, paper_hi, narwhal, difference
    gsub(/"[^"]*"/, "Q", row); n = split(row, f, ",")
    lo = f[5]; hi = f[6]; v = f[8]; d = f[9]
    num = "^[-+]?[0-9]+(\\.[0-9]+)?$"
    if (lo !~ num || v !~ num || d !~ num) { print "not numeric: " lo " " v " " d; exit 1 }
    if (lo != 7880 || hi != 7880) { print "paper value " lo "-" hi ", want 7880"; exit 1 }
    if ((v - r) / r > 1e-4 || (r - v) / r > 1e-4) { print "Narwhal value " v ", the run gave " r; exit 1 }
    want = 100 * (v - lo) / lo
    if (d - want > 0.06 || want - d > 0.06) { print "difference " d ", want " want; exit 1 }
  }' || fail "comparison row: $row"
  # The report's table row: paper value and place, the run's value, a signed difference.
  grep -qE '^\| 1 \| Unicorn \| Fig\. 4 \| [^|]*GFlop/s on 14 nodes \| 7880 [^|]*abstract[^|]* \| [0-9]+ \| [+-]?[0-9]+\.[0-9]% \|' \
    "$out/report.md" || fail "report.md has no such row: $(grep -F 'on 14 nodes' "$out/report.md")"
  # The main job as a copy naming the fitted cluster, the one model of the paper's cluster
  # that every Unicorn figure runs on; the row compares the value it was fitted to.
  grep -qF "sweep $out/sweeps/matmul-scaling.json" "$out/report.md" || fail "report.md lacks the command"
  grep -qF '"platforms/paper-cluster-fitted.xml"' "$out/sweeps/matmul-scaling.json" ||
    fail "the main job's copy does not name the fitted cluster"
  grep -F 'GFlop/s on 14 nodes' "$out/comparison.csv" | grep -qF 'fitted to this value' ||
    fail "the 14-node row is not marked fitted"
  # The claims without a row: one table line each, as many as the citations file has.
  cites=$(dirname "$0")/../../experiments/paper/citations.tsv
  want=$(awk -F'\t' 'NR > 1 && $8 != "yes"' "$cites" | wc -l)
  [ "$want" -gt 0 ] || fail "the citations file lists no claim without a row"
  grep -qxF "$want claims without a row." "$out/report.md" ||
    fail "report.md does not list the $want claims without a row"
  got=$(sed -n '/^## Claims without a row/,/claims without a row\.$/p' "$out/report.md" | grep -c '^| [A-Z]')
  [ "$got" -eq "$want" ] || fail "report.md's table of claims without a row has $got lines, want $want"
  # comparison.png draws the difference column: row 1's bar is its difference (within +-200%).
  if command -v gnuplot >/dev/null; then
    [ "$(head -c 8 "$out/comparison.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
      fail "comparison.png is not a PNG"
    bar=$(awk '$1 == 1 { print $3 }' "$out/comparison.dat")
    awk -v b="$bar" -v row="$row" 'BEGIN { gsub(/"[^"]*"/, "Q", row); split(row, f, ",")
      d = f[9] + 0; if (d > 200) d = 200; if (d < -200) d = -200
      if (b == "" || b - d > 0.01 || d - b > 0.01) { print "bar " b ", difference " d; exit 1 } }' ||
      fail "comparison.dat's row 1 is not the report's difference"
  fi
  ;;
resume)
  two=main-job,prs-table5-gemv
  "$nw" reproduce --only main-job --out "$tmp/a" 2>"$tmp/stderr" || fail "exit $?: $(cat "$tmp/stderr")"
  before=$(stat -c %Y.%s "$tmp/a/main-job.csv")
  sleep 1.1 # a rewrite would change the modification time
  "$nw" reproduce --only "$two" --resume --out "$tmp/a" 2>"$tmp/stderr" || fail "exit $?: $(cat "$tmp/stderr")"
  grep -qF "figure 1 of 2: Unicorn Fig. 4, matmul (the main job): done before, kept (--resume)" "$tmp/stderr" ||
    fail "the first figure was not kept: $(cat "$tmp/stderr")"
  grep -qF "figure 2 of 2: PRS Table 5, gemv" "$tmp/stderr" || fail "no 'figure 2 of 2'"
  [ "$(stat -c %Y.%s "$tmp/a/main-job.csv")" = "$before" ] || fail "main-job.csv was written again"
  "$nw" reproduce --only "$two" --out "$tmp/b" 2>"$tmp/stderr" || fail "exit $?: $(cat "$tmp/stderr")"
  # The same, but for the directory's name, the header line and the seconds column.
  same() { sed -e "s|$tmp/[ab]/|OUT/|g" -e '/^Made by/d' \
    -e 's/^\(| [a-z0-9-]* | [^|]* | [^|]* | \)[0-9]* |/\1S |/' "$1"; }
  diff <(same "$tmp/a/report.md") <(same "$tmp/b/report.md") >&2 || fail "report.md differs"
  diff <(same "$tmp/a/comparison.csv") <(same "$tmp/b/comparison.csv") >&2 ||
    fail "comparison.csv differs"
  ;;
help)
  grep -qF 'narwhal reproduce [--out DIR] [--build DIR] [--only NAME' <<<"$("$nw" --help)" ||
    fail "--help does not list reproduce"
  ;;
bad_only) bad "--only: unknown figure 'nosuch'" --only nosuch --out "$tmp/out" ;;
bad_option) bad "'--bogus'" --bogus --out "$tmp/out" ;;
missing_out) bad "--out: missing value" --only main-job --out ;;
only_names_nothing) bad "--only: ',' names no figure" --only , --out "$tmp/out" ;; # found by tests/fuzz
*) fail "unknown case '$case'" ;;
esac
