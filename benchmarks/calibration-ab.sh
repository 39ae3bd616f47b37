#!/usr/bin/env bash
# calibration-ab.sh FILE CALIBRATION OUT_DIR NARWHAL_A NARWHAL_B VALIDATE_OUTPUT...: two builds'
# calibrate-and-simulate pipelines against the same real times.
#
# A change to what `narwhal calibrate` fits or the simulator charges moves the simulated side
# only; the real side of a held-out validation is the same code. On this noisy machine real
# times move up to 9% between validation runs minutes apart, as much as the change sought, so
# both builds are compared with one reference: each configuration's best real round over the
# `narwhal validate` runs whose standard output was kept in the files VALIDATE_OUTPUT (at
# least one; its lines "  NAME: SECONDS s" are the rounds). Then for
# PAIRS pairs (default 2), alternately A and B: calibrate the validation file FILE's
# calibration CALIBRATION with that build (its workloads, ranks, runs and mpirun options, the
# ranks settling 1536 MiB between them, as `narwhal validate` does by default), and simulate
# each of the calibration's configurations as `narwhal validate` does (on one rank without
# bytes, on several with). Prints each configuration's error under each calibration and each
# calibration's median and p95 |error|; writes
# OUT_DIR/<A|B><pair>/ (platform, model, sim.txt, err.txt).
#
# NARWHAL_A and NARWHAL_B are two builds' narwhal binaries, e.g. one of a worktree of the
# commit before a change (`git worktree add /tmp/before REV`, then build it there: copying a
# build directory does not isolate it, its libraries are found by their build path). About
# 2 minutes per calibration plus the simulations; needs nothing else running.
set -euo pipefail
[ $# -ge 6 ] || {
  echo "usage: benchmarks/calibration-ab.sh FILE CALIBRATION OUT_DIR NARWHAL_A NARWHAL_B VALIDATE_OUTPUT..." >&2
  exit 2
}
command -v jq >/dev/null || {
  echo "calibration-ab: needs jq (scripts/bootstrap.sh installs it)" >&2
  exit 2
}
file=$1 cal=$2 out=$3 nw_a=$4 nw_b=$5
shift 5
pairs=${PAIRS:-2}
[[ $pairs =~ ^[1-9][0-9]?$ ]] || {
  echo "calibration-ab: PAIRS '$pairs': want a whole number from 1 to 99" >&2
  exit 2
}
for nw in "$nw_a" "$nw_b"; do
  [ -x "$nw" ] || {
    echo "calibration-ab: $nw: not an executable" >&2
    exit 2
  }
done
jq -e --arg c "$cal" '.calibrations[] | select(.name == $c)' "$file" >/dev/null 2>&1 || {
  echo "calibration-ab: $file: no calibration named '$cal' (or not a validation file)" >&2
  exit 2
}
for f in "$@"; do
  [ -r "$f" ] || {
    echo "calibration-ab: $f: cannot read it (narwhal validate's standard output)" >&2
    exit 2
  }
done
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
mkdir -p "$out"

# The reference: best real round of each configuration over the runs named.
sed -n 's/^  \(.*\): \([0-9.]*\) s$/\1|\2/p' "$@" |
  awk -F'|' '!($1 in b) || $2 < b[$1] { b[$1] = $2 } END { for (k in b) print k "|" b[k] }' |
  sort >"$out/real.txt"
[ -s "$out/real.txt" ] || {
  echo "calibration-ab: no real rounds (lines \"  NAME: SECONDS s\") in $*" >&2
  exit 2
}

ranks=$(jq -r --arg c "$cal" '.calibrations[] | select(.name == $c) | .ranks' "$file")
runs=$(jq -r --arg c "$cal" '.calibrations[] | select(.name == $c) | .runs' "$file")
mapfile -t mpi < <(jq -r --arg c "$cal" '.calibrations[] | select(.name == $c) | .mpirun // [] | .[]' "$file")
mapfile -t work < <(jq -r --arg c "$cal" '.calibrations[] | select(.name == $c) | .workloads[] | "--workload", .' "$file")
data=()
[ "$ranks" = 1 ] && data=(--data phantom)
for ((p = 1; p <= pairs; p++)); do
  for side in A B; do
    nw=$nw_a
    [ $side = B ] && nw=$nw_b
    d=$out/$side$p
    mkdir -p "$d"
    mpirun "${mpi[@]}" -np "$ranks" "$nw" calibrate --platform-out "$d/platform.xml" \
      --perfmodel "$d/model.json" --runs "$runs" --settle $((1536 / ranks)) "${work[@]}" \
      >"$d/calibrate.log" 2>&1
    : >"$d/sim.txt"
    jq -c --arg c "$cal" '.configurations[] | select(.calibration == $c)' "$file" |
      while read -r conf; do
        name=$(jq -r .name <<<"$conf")
        mapfile -t args < <(jq -r '.args[]' <<<"$conf")
        cp "$d/model.json" "$d/model-run.json" # a run may add to its model: each starts afresh
        t=$("$nw" run --backend sim --platform "$d/platform.xml" --perfmodel "$d/model-run.json" \
          --nodes "$ranks" "${data[@]}" "${args[@]}" --json 2>/dev/null | jq -r .makespan_s)
        echo "$name|$t" >>"$d/sim.txt"
      done
    awk -F'|' 'NR == FNR { r[$1] = $2; next }
      ($1 in r) && $2 > 0 { printf "%s|%+.1f\n", $1, 100 * ($2 - r[$1]) / r[$1] }' \
      "$out/real.txt" "$d/sim.txt" >"$d/err.txt"
    # median and p95 (linear between ranks, as numpy's percentile) of |error|
    awk -F'|' '{ print ($2 < 0 ? -$2 : $2) }' "$d/err.txt" | sort -g | awk -v s="$side$p" '
      { a[NR - 1] = $1 }
      END { q(0.5); m = v; q(0.95)
            printf "%s: %d configurations, median |error| %.1f%%, p95 %.1f%%\n", s, NR, m, v }
      function q(f,   x, i) { x = f * (NR - 1); i = int(x); v = a[i] + (x - i) * (a[i + 1] - a[i]) }'
  done
done
echo "errors by configuration (%), one column per calibration:"
cols=()
for ((p = 1; p <= pairs; p++)); do cols+=("$out/A$p/err.txt" "$out/B$p/err.txt"); done
awk -F'|' '{ v[$1] = v[$1] sprintf("%8s", $2); if (!($1 in o)) { o[$1] = 1; k[++n] = $1 } }
  END { for (i = 1; i <= n; i++) printf "%-45s%s\n", k[i], v[k[i]] }' "${cols[@]}"
