#!/usr/bin/env bash
# network-validation.sh [RATE...]: the simulator against real runs whose time goes to the
# network: HOSTS emulated hosts (default 3; CPUS cores of their own each, else all share this
# machine's; scripts/emulated-cluster.sh, one rank each, TCP) with every
# link shaped to RATE (default: 100mbit and 400mbit), `narwhal calibrate` across them (matmul and
# conv2d at 1024, two runs), then each configuration below run for real (best of 3, one after
# the other) and simulated on the calibrated platform and model. Prints a row per
# configuration (real s, spread of the real rounds, simulated s, error) and per rate the median
# and largest |error|. As root; leaves no host behind. docs/experiments/network-validation.md.
# KEEP=DIR keeps each rate's calibration (DIR/RATE/cal.xml, cal.json, cal.out) and times
# (DIR/RATE/times.tsv: the three real rounds and the simulation), so that a run's
# configurations can be simulated again on its own calibration after a simulator change.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
nw=$src/build/narwhal
cluster=$src/scripts/emulated-cluster.sh
hosts=${HOSTS:-3} # one rank each; more ranks than cores share them, which one core a node cannot model
cpus=${CPUS:-}    # cores of its own per host (emulated-cluster.sh up --cpus); unset: all shared
[ -z "$cpus" ] || [[ $cpus =~ ^[1-9][0-9]*$ ]] || { echo "network-validation: CPUS must be a number >= 1, not '$cpus'" >&2; exit 2; }
[[ $hosts =~ ^[0-9]+$ ]] && [ "$hosts" -ge 2 ] || { echo "network-validation: HOSTS must be a number >= 2, not '$hosts'" >&2; exit 2; }
keep=${KEEP:-} # a folder: each rate's calibration and times go to KEEP/RATE, to simulate again
rates=("$@")
[ ${#rates[@]} -gt 0 ] || rates=(100mbit 400mbit)
configs=("matmul --n 2048 --block 512" "matmul --n 3072 --block 768" "conv2d --n 2048 --block 512"
  "conv2d --n 4096 --block 1024")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
tmp=$(mktemp -d)
trap '"$cluster" down >/dev/null 2>&1; rm -rf "$tmp"' EXIT
makespan() { sed -nE 's/.*"makespan_s":[[:space:]]*([0-9.e+-]+).*/\1/p' | head -1; }

for rate in "${rates[@]}"; do
  "$cluster" up "$hosts" --bw "$rate" ${cpus:+--cpus "$cpus"} 2>/dev/null || { echo "cannot bring up the emulated hosts"; exit 1; }
  "$cluster" run -- timeout 600 mpirun -np "$hosts" "$nw" calibrate --platform-out "$tmp/cal.xml" \
    --perfmodel "$tmp/cal.json" --workload matmul:1024:256 --workload conv2d:1024:256 --runs 2 \
    --cpu-devices 1 >"$tmp/cal.out" 2>&1 || { tail -n 3 "$tmp/cal.out"; exit 1; }
  link=$(sed -nE 's/.*<link id="n0-nic" bandwidth="([0-9.e+]+)Bps".*/\1/p' "$tmp/cal.xml")
  printf '\nlinks %s (calibrated: %.1f Mbit/s)\n' "$rate" "$(awk -v b="$link" 'BEGIN { print b * 8 / 1e6 }')"
  printf '%-30s %9s %7s %9s %7s\n' configuration real_s spread sim_s error
  errors=()
  if [ -n "$keep" ] && ! { mkdir -p "$keep/$rate" &&
    cp "$tmp/cal.xml" "$tmp/cal.json" "$tmp/cal.out" "$keep/$rate/" &&
    printf 'configuration\treal_s_1\treal_s_2\treal_s_3\tsim_s\n' >"$keep/$rate/times.tsv"; }; then
    echo "network-validation: cannot write to KEEP=$keep" >&2
    exit 2
  fi
  for cfg in "${configs[@]}"; do
    times=()
    for _ in 1 2 3; do
      # shellcheck disable=SC2086 # the app and its sizes, as words
      t=$("$cluster" run -- timeout 600 mpirun -np "$hosts" "$nw" run --backend real --cpu-devices 1 \
        --json --app $cfg 2>/dev/null | makespan)
      times+=("${t:-nan}")
    done
    # shellcheck disable=SC2086
    sim=$("$nw" run --platform "$tmp/cal.xml" --perfmodel "$tmp/cal.json" --nodes "$hosts" \
      --cpu-devices 1 --json --app $cfg 2>/dev/null | makespan)
    read -r best spread err < <(printf '%s\n' "${times[@]}" | awk -v s="${sim:-nan}" '
      { t[NR] = $1 } END { b = t[1]; w = t[1]
        for (i = 2; i <= NR; i++) { if (t[i] < b) b = t[i]; if (t[i] > w) w = t[i] }
        printf "%.4f %.1f %.1f\n", b, 100 * (w - b) / b, 100 * (s - b) / b }')
    printf '%-30s %9s %6s%% %9.4f %6s%%\n' "$cfg" "$best" "$spread" "$sim" "$err"
    [ -z "$keep" ] || printf '%s\t%s\t%s\t%s\t%s\n' "$cfg" "${times[@]}" "${sim:-nan}" \
      >>"$keep/$rate/times.tsv"
    errors+=("$err")
  done
  printf '%s\n' "${errors[@]}" | tr -d - | sort -g | awk '{ a[NR] = $1 }
    END { med = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
          printf "median |error| %.1f%%, max %.1f%%\n", med, a[NR] }'
  "$cluster" down
done
