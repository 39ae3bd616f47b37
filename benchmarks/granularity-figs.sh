#!/usr/bin/env bash
# granularity-figs.sh [BUILD_DIR]: the Unicorn paper's Fig. 12 in simulation (Beri et al., TPDS,
# section 5.5.2): matmul 65536 with subtasks of 1024 to 16384 and conv2d 65536 (31x31 filter,
# 3 channels) with 512 to 8192 on 14 nodes of platforms/paper-cluster.xml (CPU work-groups and
# two GPUs per node, phantom data; the paper does not state the node count). Per block size:
# GFlop/s, or why it cannot run. The paper: within 2048-8192 (matmul) and 1024-4096 (conv2d)
# "our system is able to maintain a throughput within 20% of the peak performance"; the rows
# give the lowest throughput inside that range as a percentage of the peak over all sizes.
# Seconds. With PAPER_ROWS / PAPER_CSV_DIR set (scripts/reproduce-paper.sh does) it also
# writes the runs as CSV and the rows beside the paper's (experiments/paper/rows.sh).
set -eu
# shellcheck source=../experiments/paper/paper-run.sh
. "$(dirname "$0")/../experiments/paper/paper-run.sh" "${1:-build}" # build, nw, src; rows.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
table_csv granularity app block gflops
printf '%-7s %6s %10s\n' app block gflops
for fig in "matmul 65536|1024 2048 4096 8192 16384|2048 8192" \
  "conv2d 65536 radius=15 channels=3 channel_bytes=1|512 1024 2048 4096 8192|1024 4096"; do
  IFS='|' read -r spec blocks range <<<"$fig"
  read -r name n params <<<"$spec"
  read -r lo hi <<<"$range"
  peak=0 low='' peak_b='' low_b=''
  for b in $blocks; do
    app_args "$name $n $b $params"
    if ! out=$(unicorn_run 14 "${APP_ARGS[@]}" 2>"$tmp/err"); then
      why=$(head -1 "$tmp/err")
      printf '%-7s %6s %10s  (%s)\n' "$name" "$b" - "$why"
      table_row granularity "$name" "$b" ""
      continue
    fi
    g=$(json_eval 'd["gflops"]' <<<"$out")
    printf '%s\n' "$out" >"$tmp/$name-$b.json"
    printf '%-7s %6s %10.1f\n' "$name" "$b" "$g" | tee -a "$tmp/runs"
    table_row granularity "$name" "$b" "$g"
    if awk -v p="$peak" -v g="$g" 'BEGIN { exit !(g > p) }'; then peak=$g peak_b=$b; fi
    if [ "$b" -ge "$lo" ] && [ "$b" -le "$hi" ] &&
      awk -v l="$low" -v g="$g" 'BEGIN { exit !(l == "" || g < l) }'; then low=$g low_b=$b; fi
  done
  pct=$(awk -v l="$low" -v p="$peak" 'BEGIN { printf "%.1f", 100 * l / p }')
  echo "$name: lowest throughput for blocks $lo-$hi: $pct% of the peak"
  # The note: how the slowest (low_b) and the fastest (peak_b) block sizes' subtasks fell on
  # the devices.
  deal() { # BLOCK: "S subtasks on D devices, GPUs ran a-b each, I none; busy X%"
    json_eval '"%d subtasks on %d devices (GPUs %d-%d each, %d devices none), devices busy %.1f%% of the makespan" % (d["subtasks"], len(d["devices"]), min(x["subtasks"] for x in d["devices"] if x["kind"] == "gpu"), max(x["subtasks"] for x in d["devices"] if x["kind"] == "gpu"), sum(1 for x in d["devices"] if x["subtasks"] == 0), 100 * sum(x["busy_s"] for x in d["devices"]) / (len(d["devices"]) * d["makespan_s"]))' <"$tmp/$name-$1.json"
  }
  paper_row Unicorn "Fig. 12" "$name $n, 14 nodes: lowest throughput for blocks $lo-$hi, % of the peak over all blocks" \
    "section 5.5.2" 80 100 "within 20% of the peak" "$pct" \
    "blocks of $low_b: $(deal "$low_b"); of $peak_b (the peak): $(deal "$peak_b")"
  # "On either side, system overheads begin to dominate": the sizes outside the range that ran
  # are each slower than the best inside it.
  side=$(awk -v lo="$lo" -v hi="$hi" '$1 == "'"$name"'" && $3 != "-" {
      if ($2 >= lo && $2 <= hi) { if ($3 > best) best = $3 } else out[$2] = $3 }
    END { for (b in out) { s = s sep b ": " out[b]; sep = ", "; if (out[b] >= best) bad = 1 }
      printf "%s|%s", s " GFlop/s (best inside " best ")", bad ? "differs" : "agrees" }' "$tmp/runs")
  paper_row Unicorn "Fig. 12" "$name $n, 14 nodes: throughput outside blocks $lo-$hi against the best inside" \
    "section 5.5.2" "" "" "on either side, system overheads begin to dominate" "${side%|*}" "${side#*|}"
done
