#!/usr/bin/env bash
# paper_summary.sh SRC: `narwhal reproduce`'s per-paper summary (experiments/paper/summary.awk)
# of a fixture comparison.csv: rows within 5% and 15% counted per paper, fitted rows left out
# of the predicted median and maximum, qualitative rows counted with those that agree, and the
# predicted rows beyond 15% without a note (Unicorn's b; d has one, PRS's are within).
set -euo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/c.csv" <<'CSV'
paper,figure,quantity,paper_source,paper_lo,paper_hi,paper_stated,narwhal,difference_pct,note,reproduction,command
Unicorn,"Fig. 4","a","section 5.2",7880,7880,,8211,+4.2,,x,y
Unicorn,"Fig. 9","b","section 5.3",65.88,65.88,,42.82,-35.0,,x,y
PRS,"Table 5","c","Table 5",0,10,,3.1,0.0,,x,y
Unicorn,"Fig. 18","d","Fig. 18",0.31,0.31,,63.0,+20224.8,"GPUs ran, mostly",x,y
Unicorn,"Fig. 13","e","section 5.5.3",,,"poorly","4x",,"agrees (node0 the slowest)",x,y
Unicorn,"Fig. 9","f","section 5.3",,,comparable,5.6,,,x,y
Unicorn,"Fig. 4","g","section 5.2",7.34,7.34,,7.41,+1.0,"fitted to this value: says nothing of the model",x,y
PRS,"Table 5","h","Table 5",11.2,11.2,,9.81,-12.4,,x,y
CSV
got=$(awk -v text=1 -f "$src/experiments/paper/csv.awk" -f "$src/experiments/paper/summary.awk" "$tmp/c.csv")
want="Unicorn: 6 rows, 4 against a number (2 within 5%, 2 within 15%), 1 fitted; 3 predicted: median |difference| 35.0%, max 20224.8%; 2 qualitative, 1 agree; 1 beyond 15% without a note
PRS: 2 rows, 2 against a number (1 within 5%, 2 within 15%), 0 fitted; 2 predicted: median |difference| 6.2%, max 12.4%; 0 qualitative, 0 agree; 0 beyond 15% without a note"
[ "$got" = "$want" ] || { printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want" >&2; exit 1; }
md=$(awk -f "$src/experiments/paper/csv.awk" -f "$src/experiments/paper/summary.awk" "$tmp/c.csv")
grep -qxF '| Unicorn | 6 | 4 | 2 | 2 | 2 | 1 | 35.0% | 20224.8% | 2 (1) | 1 |' <<<"$md" ||
  { printf 'FAIL: markdown table\n%s\n' "$md" >&2; exit 1; }
