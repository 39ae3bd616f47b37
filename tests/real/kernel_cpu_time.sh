#!/usr/bin/env bash
# kernel_cpu_time.sh MPIRUN_SH MPIEXEC NARWHAL: with a performance model, the real backend
# records a CPU kernel's thread CPU time, not its wall time (backends/real/real_backend.c,
# cpu_kernel): under --slow 0:3, load threads take two thirds of every core from the compute
# threads, so the devices' busy time per subtask (wall time) is about 3x the kernel's CPU time,
# and the model's mean must stay near the latter: busy per subtask >= 1.5x the model's mean.
# Recording wall time, as before, gives a ratio of about 1.
set -u
mpirun_sh=$1 mpiexec=$2 nw=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "kernel_cpu_time: 0 passed, 1 failed: $*"; exit 1; }
out=$("$mpirun_sh" "$mpiexec" 1 --bind-to none "$nw" run --backend real --app matmul --n 2048 \
  --block 1024 --slow 0:3 --calibrate on --perfmodel "$tmp/m.json" --no-verify --json) ||
  fail "the slowed run failed"
busy=$(printf '%s' "$out" | grep -oE '"busy_s":[[:space:]]*[0-9.eE+-]+' |
  awk -F: '{ s += $2 } END { printf "%.6f", s }')
subtasks=$(printf '%s' "$out" | grep -oE '"subtasks":[[:space:]]*[0-9]+' | head -1 | grep -oE '[0-9]+$')
# The model's mean over every entry, weighted by its count.
read -r count mean < <(tr -d ' \n\t' <"$tmp/m.json" | grep -oE '"count":[0-9]+,"mean":[0-9.eE+-]+' |
  sed -E 's/"count":([0-9]+),"mean":(.*)/\1 \2/' |
  awk '{ n += $1; s += $1 * $2 } END { if (n) printf "%d %.6f\n", n, s / n; else print "0 0" }')
echo "subtasks $subtasks, busy $busy s; model: $count samples, mean $mean s"
[ "${count:-0}" -ge 1 ] && [ "${subtasks:-0}" -ge 1 ] || fail "no samples or no subtasks"
awk -v b="$busy" -v n="$subtasks" -v m="$mean" 'BEGIN {
  r = b / n / m; printf "busy per subtask / model mean: %.2f\n", r; exit !(r >= 1.5) }' ||
  fail "the model recorded wall time: busy per subtask is not 1.5x its mean under 3x load"
echo "kernel_cpu_time: 1 passed, 0 failed"
