# shellcheck shell=bash
# rows.sh: sourced by the figure scripts (benchmarks/*-figs.sh, app-scaling.sh, steal-levels.sh,
# paper-fit.sh, experiments/paper/*.sh). It gives them one way to put a figure's number beside
# the paper's, for scripts/reproduce-paper.sh (`narwhal reproduce`) to collect into
# results/paper/comparison.csv and report.md. Both functions do nothing unless the driver asks:
#   PAPER_ROWS=FILE      paper_row appends comparison rows (CSV, no header) to FILE;
#   PAPER_CSV_DIR=DIR    table_csv writes a script's table as DIR/NAME.csv;
#   PAPER_CITATIONS=FILE paper_row refuses a row whose paper value FILE does not cite
#                        (experiments/paper/citations.tsv; see paper_cited).
#   PAPER_PLATFORM=FILE  the Unicorn paper's cluster the scripts simulate ($paper_platform;
#                        default platforms/paper-cluster.xml, the data-sheet estimate;
#                        `narwhal reproduce` gives platforms/paper-cluster-fitted.xml). A row
#                        whose paper value that platform was fitted to (experiments/paper/
#                        fitted.tsv) is marked "fitted to this value" (paper_fitted).
# So a script run by hand prints what it always printed and writes nothing else.
paper_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
paper_platform=${PAPER_PLATFORM:-$paper_dir/../../platforms/paper-cluster.xml}
paper_fitted_table=$paper_dir/fitted.tsv

# csv_line FIELD...: one CSV line, each field quoted when it holds a comma, a quote or a space.
csv_line() {
  local f sep="" q='"'
  for f in "$@"; do
    case $f in
    *[,\"\ ]*) f=$q${f//$q/$q$q}$q ;;
    esac
    printf '%s%s' "$sep" "$f"
    sep=,
  done
  printf '\n'
}

# table_csv NAME HEADER...: starts DIR/NAME.csv with a header line; table_row NAME FIELD...
# appends a row to it. Nothing without PAPER_CSV_DIR.
table_csv() {
  [ -n "${PAPER_CSV_DIR:-}" ] || return 0
  local name=$1
  shift
  csv_line "$@" >"$PAPER_CSV_DIR/$name.csv"
}
table_row() {
  [ -n "${PAPER_CSV_DIR:-}" ] || return 0
  local name=$1
  shift
  csv_line "$@" >>"$PAPER_CSV_DIR/$name.csv"
}

# paper_row PAPER FIGURE QUANTITY SOURCE LO HI STATED NARWHAL [NOTE]: one comparison row.
#   PAPER     which paper (Unicorn, PRS, GeMTC, Lifflander; report.md names them in full)
#   FIGURE    the paper's figure or table the number belongs to ("Fig. 21", "Table 5")
#   QUANTITY  what is compared, in words, with its configuration
#   SOURCE    where in the paper the value is stated ("section 5.3", "Fig. 21", "abstract"):
#             the location of the value's citation in experiments/paper/citations.tsv
#   LO HI     the paper's value (LO = HI), a range (HI empty: no upper end), or both empty for
#             a qualitative statement, which then has no difference
#   STATED    the paper's words when they are not one number ("fewer than 2%"), else empty
#   NARWHAL   this run's value: a number from the run, never typed in; for a qualitative
#             statement, a short text computed from the run
#   NOTE      what else a reader needs: scaling applied, "agrees"/"differs" for a qualitative
#             statement (computed by the script), "fitted to this value"
# The difference is the scripts' error with its sign: (narwhal - paper) / |paper| in percent;
# for a range 0 inside it, else the distance to its nearest end over that end (paper-fit.sh's
# rule, whose error is this difference's magnitude).
paper_row() {
  [ -n "${PAPER_ROWS:-}" ] || return 0
  paper_cited "$1" "$4" "$5" "$6" || return 1
  local diff
  diff=$(awk -v lo="$5" -v hi="$6" -v n="$8" '
    function num(x) { return x ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
    function rel(v, p,   r) {
      if (p == 0) return ""
      r = sprintf("%+.1f", 100 * (v - p) / (p < 0 ? -p : p))
      return r == "-0.0" || r == "+0.0" ? "0.0" : r
    }
    BEGIN {
      if (!num(lo) || !num(n)) exit
      if (lo == hi) print rel(n, lo)
      else if (n + 0 < lo + 0) print (lo == 0 ? sprintf("%+.1f", 100 * (n - lo)) : rel(n, lo))
      else if (num(hi) && n + 0 > hi + 0) print rel(n, hi)
      else print "0.0"
    }')
  local note=${9:-}
  if [[ $note != *"fitted to this value"* ]] && paper_fitted "$1" "$4" "$5"; then
    note="fitted to this value (${paper_platform##*/})${note:+; $note}"
  fi
  csv_line "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$diff" "$note" >>"$PAPER_ROWS"
}

# paper_fitted PAPER SOURCE VALUE: whether $paper_platform was fitted to this paper value: a
# line of experiments/paper/fitted.tsv (tab-separated: platform file name, paper, location as in
# citations.tsv, value, how it was fitted) with the platform's file name, PAPER and SOURCE, and
# a value within 0.1% of VALUE (scripts print a derived value to different precisions).
paper_fitted() {
  [ -n "$3" ] && [ -r "$paper_fitted_table" ] || return 1
  awk -F'\t' -v f="${paper_platform##*/}" -v p="$1" -v s="$2" -v v="$3" '
    function near(a, b) { return b != 0 && (a - b) / b < 0.001 && (b - a) / b < 0.001 }
    NR > 1 && $1 == f && $2 == p && $3 == s && near($4, v) { found = 1 }
    END { exit !found }' "$paper_fitted_table"
}

# paper_cited PAPER SOURCE LO HI: whether PAPER_CITATIONS (when set) has a citation of this
# paper value at this place: a line whose paper and location equal PAPER and SOURCE and whose lo
# and hi equal LO and HI as numbers (both empty for a qualitative claim). The file is
# tab-separated: id, paper, location, lo, hi, printed (the value as the paper prints it, or
# "derived: ARITHMETIC"), quote (at most one sentence of the paper holding it), row ("yes", or
# "no: REASON" for a claim without a row). scripts/check-citations.sh checks each quote and value
# against the papers' text. Without a citation: one line naming the row, and failure, so that
# no paper value reaches the report unchecked.
paper_cited() {
  [ -n "${PAPER_CITATIONS:-}" ] || return 0
  if awk -F'\t' -v p="$1" -v s="$2" -v lo="$3" -v hi="$4" '
    function same(a, b) { return a == "" || b == "" ? a == b : a + 0 == b + 0 }
    NR > 1 && $2 == p && $3 == s && same($4, lo) && same($5, hi) { found = 1; exit }
    END { exit !found }' "$PAPER_CITATIONS"; then
    return 0
  fi
  echo "rows.sh: $1, $2: paper value '$3'-'$4' has no citation in $PAPER_CITATIONS" >&2
  return 1
}
