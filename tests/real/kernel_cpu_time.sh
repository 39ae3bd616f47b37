#!/usr/bin/env bash
# kernel_cpu_time.sh MPIRUN_SH MPIEXEC NARWHAL: with a performance model, the real backend
# records a CPU kernel's thread CPU time, not its wall time (backends/real/real_backend.c,
# cpu_kernel), and a rank slowed F-fold (--slow 0:F) holds each kernel's core until F times its
# time has passed (hold_slowed), after that CPU time was taken.
#  1. Under an external load (busy shell loops, two per core, beside the run) the compute thread
#     gets a share of its core, so the devices' busy time per subtask (wall time) is well above
#     the kernel's CPU time: busy per subtask >= 1.5x the model's mean. Recording wall time
#     gives a ratio of about 1.
#  2. With --slow 0:3 and no load, busy per subtask >= 2.9x the model's mean (a kernel's wall
#     time is at least its thread's CPU time). Without the hold, or with the hold's time in
#     the sample, about 1.
#  3. A kernel that waits (the bag application's sleep_us: 20 ms asleep, next to no CPU) is
#     not stretched by --slow 0:4: the hold spends four times the kernel's CPU time, not its
#     wall time, so a slowed run's makespan is < 2x an unslowed one's (holding four times the
#     wall time, as before, gives about 4x; the simulator divides only the node's speed).
set -u
mpirun_sh=$1 mpiexec=$2 nw=$3
tmp=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "kernel_cpu_time: $passed passed, 1 failed: $*"; exit 1; }
passed=0

# ratio LABEL ARGS...: runs matmul 2048/1024 on one rank with a fresh model; prints busy per
# subtask over the model's mean.
ratio() {
  local label=$1 out busy subtasks count mean
  shift
  rm -f "$tmp/m.json"
  out=$("$mpirun_sh" "$mpiexec" 1 --bind-to none "$nw" run --backend real --app matmul --n 2048 \
    --block 1024 --calibrate on --perfmodel "$tmp/m.json" --no-verify --json "$@") ||
    fail "the $label run failed"
  busy=$(printf '%s' "$out" | grep -oE '"busy_s":[[:space:]]*[0-9.eE+-]+' |
    awk -F: '{ s += $2 } END { printf "%.6f", s }')
  subtasks=$(printf '%s' "$out" | grep -oE '"subtasks":[[:space:]]*[0-9]+' | head -1 | grep -oE '[0-9]+$')
  # The model's mean over every entry, weighted by its count.
  read -r count mean < <(tr -d ' \n\t' <"$tmp/m.json" | grep -oE '"count":[0-9]+,"mean":[0-9.eE+-]+' |
    sed -E 's/"count":([0-9]+),"mean":(.*)/\1 \2/' |
    awk '{ n += $1; s += $1 * $2 } END { if (n) printf "%d %.6f\n", n, s / n; else print "0 0" }')
  [ "${count:-0}" -ge 1 ] && [ "${subtasks:-0}" -ge 1 ] || fail "$label: no samples or no subtasks"
  echo "$label: subtasks $subtasks, busy $busy s; model: $count samples, mean $mean s" >&2
  awk -v b="$busy" -v n="$subtasks" -v m="$mean" 'BEGIN { printf "%.3f\n", b / n / m }'
}

cores=$(nproc)
for ((i = 0; i < 2 * cores; i++)); do
  (while :; do :; done) &
  pids+=($!)
done
r=$(ratio "under load") || exit 1
kill "${pids[@]}" 2>/dev/null
wait 2>/dev/null
pids=()
echo "under load: busy per subtask / model mean $r"
awk -v r="$r" 'BEGIN { exit !(r >= 1.5) }' ||
  fail "the model recorded wall time: busy per subtask is $r x its mean under load"
passed=1

r=$(ratio "slowed 3x" --slow 0:3) || exit 1
echo "slowed 3x: busy per subtask / model mean $r"
awk -v r="$r" 'BEGIN { exit !(r >= 2.9) }' ||
  fail "--slow 0:3 held the kernels $r x their CPU time, not 3x"
passed=2

# makespan ARGS...: a one-rank run of 4 bag tasks of 2 subtasks, each asleep 20 ms.
makespan() {
  "$mpirun_sh" "$mpiexec" 1 --bind-to none "$nw" run --backend real --app bag --n 4 --block 2 \
    --app-param sleep_us=20000 --app-param flops=1000 --json "$@" |
    grep -oE '"makespan_s":[[:space:]]*[0-9.eE+-]+' | grep -oE '[0-9.eE+-]+$'
}
plain=$(makespan) && slowed=$(makespan --slow 0:4) || fail "a bag run failed"
echo "waiting kernels: makespan $plain s, slowed 4x $slowed s"
awk -v p="$plain" -v s="$slowed" 'BEGIN { exit !(p > 0 && s < 2 * p) }' ||
  fail "--slow 0:4 stretched kernels that wait: $slowed s against $plain s"
echo "kernel_cpu_time: 3 passed, 0 failed"
