#!/usr/bin/env bash
# paper_fitted.sh SRC: a comparison row (experiments/paper/rows.sh, paper_row) whose paper value
# the platform in PAPER_PLATFORM was fitted to (experiments/paper/fitted.tsv) says "fitted to
# this value" (so the per-paper summary keeps it out of the predicted median); the same row on
# another platform, another value, another place or another paper does not; a derived value
# printed to other precision (within 0.1%) still matches; a note already saying so is kept.
set -euo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fitted="fitted to this value (paper-cluster-fitted.xml)"
# row PLATFORM PAPER SOURCE VALUE [NOTE]: the note paper_row writes, alone.
row() {
  : >"$tmp/rows"
  (
    export PAPER_ROWS=$tmp/rows PAPER_PLATFORM=$1
    # shellcheck disable=SC1091 # the repository's own
    . "$src/experiments/paper/rows.sh"
    paper_row "$2" "Fig. 4" "q" "$3" "$4" "$4" "" 1 "${5:-}"
  )
  # shellcheck disable=SC2016 # an awk program
  awk -f "$src/experiments/paper/csv.awk" -f <(echo '{ split_csv($0, f); print f[10] }') "$tmp/rows"
}
fit=$src/platforms/paper-cluster-fitted.xml est=$src/platforms/paper-cluster.xml
d="derived from abstract and section 5.2: 7.88 TFlop/s / 7.34"
check() { [ "$1" = "$2" ] || { echo "FAIL: $3: note '$1', want '$2'" >&2; exit 1; }; }
check "$(row "$fit" Unicorn abstract 7880)" "$fitted" "the 14-node rate on the fitted platform"
check "$(row "$fit" Unicorn "$d" 1073.5695)" "$fitted" "a derived value to other precision"
check "$(row "$fit" Unicorn "section 5.2" 7.34 "x")" "$fitted; x" "a note after the mark"
check "$(row "$est" Unicorn abstract 7880)" "" "the data-sheet platform"
check "$(row "$fit" Unicorn abstract 7900)" "" "another value"
check "$(row "$fit" Unicorn "section 5.3" 7.34)" "" "another place"
check "$(row "$fit" PRS abstract 7880)" "" "another paper"
check "$(row "$fit" Unicorn abstract 7880 "fitted to this value: said")" "fitted to this value: said" \
  "a note that already says so"
echo "paper_fitted: 8 cases"
