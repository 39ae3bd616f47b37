#!/usr/bin/env bash
# placement.sh MPIRUN_SH MPIEXEC NARWHAL: with cores reserved for the runtime
# (backends/real/real_placement.h), the event loop and the driver run on the reserved cores and
# the compute threads on the others (a GPU's threads are made where the loop is: not seen
# without a GPU); without a reserve nothing is pinned. Read from the kernel while the
# run goes on: each thread's allowed cores (/proc/PID/task/TID/status) and the core it last ran
# on (field 39 of .../stat), sampled a few times. And a process's later runs start from its
# whole mask again (calibrate's several runs). Needs 2 cores; skipped (77) on one.
set -euo pipefail
mpirun_sh=$1 mpiexec=$2 nw=$3
mask=$(awk '/^Cpus_allowed_list/ {print $2}' /proc/$$/status) # as the threads' are written
cores=$(nproc)
[ "$cores" -ge 2 ] || { echo "skipped: one core"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"; kill $(jobs -p) 2>/dev/null || true' EXIT

# Prints "NAME ALLOWED LASTCPU" for the rank's main thread (driver) and its threads named
# nw-loop or nw-cpu: of the run's own rank (session $1), not another job's (a concurrent real
# run's threads, pinned elsewhere, failed this test).
threads() {
  local pid
  pid=$(pgrep -n -x -s "$1" narwhal-real) || return 0
  for t in /proc/"$pid"/task/*; do
    local name allowed stat
    name=$(cat "$t/comm" 2>/dev/null) || continue
    [ "${t##*/}" != "$pid" ] || name=driver # the main thread: rank 0's driver
    case $name in driver | nw-loop | nw-cpu) ;; *) continue ;; esac
    allowed=$(awk '/^Cpus_allowed_list/ {print $2}' "$t/status" 2>/dev/null) || continue
    stat=$(cat "$t/stat" 2>/dev/null) || continue
    echo "$name $allowed $(echo "${stat##*) }" | awk '{print $37}')"
  done
}

# in_list CPU LIST: whether CPU is in a list such as 0-3,5.
in_list() {
  awk -v c="$1" -v l="$2" 'BEGIN { n = split(l, r, ","); for (i = 1; i <= n; i++) {
    m = split(r[i], ab, "-"); lo = ab[1]; hi = m > 1 ? ab[2] : ab[1]
    if (c >= lo && c <= hi) exit 0 } exit 1 }'
}

# sample ARGS...: starts the run, samples its threads 5 times once both kinds exist.
sample() {
  # A session of its own (setsid, not a group leader here: it does not fork), whose id is $!.
  setsid "$mpirun_sh" "$mpiexec" 1 --bind-to none "$nw" run --backend real --app bag --n 30 \
    --block 1 --cpu-devices 1 --app-param flops=20000000 --app-param sleep_us=20000 "$@" \
    --json >"$dir/out" 2>&1 &
  local run=$! seen=""
  for _ in $(seq 100); do
    seen=$(threads "$run")
    if grep -q '^nw-loop ' <<<"$seen" && grep -q '^nw-cpu ' <<<"$seen"; then break; fi
    sleep 0.05
  done
  for _ in 1 2 3 4 5; do
    threads "$run"
    sleep 0.1
  done >"$dir/samples"
  wait "$run" || { echo "FAIL: the run failed: $(tail -n 3 "$dir/out")"; return 1; }
  grep -q '"verified":[[:space:]]*true' "$dir/out" || { echo "FAIL: not verified"; return 1; }
  [ -s "$dir/samples" ] || { echo "FAIL: no thread seen"; return 1; }
}

first=$(awk -v l="$mask" 'BEGIN { split(l, r, ","); split(r[1], ab, "-"); print ab[1] }')
fail=0
sample --reserved-cores 1
echo "reserved 1 (mask $mask):"
sed 's/^/  /' "$dir/samples"
while read -r name allowed cpu; do
  if [ "$name" != nw-cpu ]; then
    [ "$allowed" = "$first" ] || { echo "FAIL: $name may run on $allowed, not $first"; fail=1; }
  else
    ! in_list "$first" "$allowed" || { echo "FAIL: a compute thread may run on $first"; fail=1; }
  fi
  in_list "$cpu" "$allowed" || { echo "FAIL: $name ran on $cpu outside $allowed"; fail=1; }
done <"$dir/samples"
grep -q '^nw-cpu' "$dir/samples" && grep -q '^nw-loop' "$dir/samples" ||
  { echo "FAIL: both kinds of thread not seen"; fail=1; }

sample # no reserve: every thread keeps the whole mask
echo "no reserve:"
sed 's/^/  /' "$dir/samples"
while read -r name allowed _; do
  [ "$allowed" = "$mask" ] || { echo "FAIL: $name pinned to $allowed without a reserve"; fail=1; }
done <"$dir/samples"
# Runs one after another in one process (calibrate's): each starts from the whole mask, not
# from the reserve's cores the last one left its thread on (the platform would then say 1 core).
"$mpirun_sh" "$mpiexec" 1 --bind-to none "$nw" calibrate --platform-out "$dir/p.xml" \
  --perfmodel "$dir/p.json" --runs 2 --reserved-cores 1 --cpu-devices 1 \
  --workload matmul:256:64 --workload matmul:384:96 >"$dir/cal" 2>&1 ||
  { echo "FAIL: calibrate: $(tail -n 3 "$dir/cal")"; fail=1; }
grep -q "cores per rank $cores to $cores " "$dir/cal" ||
  { echo "FAIL: after runs with a reserve, calibrate saw $(grep -o 'cores per rank [0-9]* to [0-9]*' "$dir/cal") of $cores"; fail=1; }
[ $fail -eq 0 ] && echo "placement: passed"
exit $fail
