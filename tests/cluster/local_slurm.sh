#!/usr/bin/env bash
# local_slurm.sh NARWHAL SRC_DIR: sweeps and real runs through Slurm, on the one-node Slurm of
# scripts/local-slurm.sh.
#  1. experiments/sched-policies.json (11 points) as a job array (`narwhal sweep --slurm`, 4
#     points an element, 2 at once) and its merge job: the merged CSV is the one `narwhal
#     sweep` writes running the sweep here, byte for byte; a shard set with one shard taken
#     away is refused.
#  2. A real-backend run submitted with scripts/slurm-real-run.sbatch (2 tasks) verifies.
#  3. stop leaves no daemon behind.
# Skipped (77), with the reason, when not root or when Slurm does not start.
set -u
nw=$1 src=$2
slurm=$src/scripts/local-slurm.sh
export NW_SLURM_DIR=${TMPDIR:-/tmp}/narwhal-slurm-test.$$
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
tmp=$(mktemp -d)
trap '"$slurm" stop >/dev/null 2>&1; rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { echo "local_slurm: ok: $*"; passed=$((passed + 1)); }
bad() { echo "local_slurm: FAIL: $*"; failed=$((failed + 1)); }
[ "$(id -u)" = 0 ] || { echo "local_slurm: skipped: needs root (Slurm's daemons)"; exit 77; }
out=$("$slurm" start 2>&1) || { echo "local_slurm: skipped: Slurm does not start here: $out"; exit 77; }
sq() { "$slurm" run -- "$@"; }
# wait_jobs: until the queue is empty (at most 10 minutes)
wait_jobs() {
  for _ in $(seq 1 600); do
    [ -z "$(sq squeue -h 2>/dev/null)" ] && return 0
    sleep 1
  done
  return 1
}

# 1. The sweep as an array, from the repository (its platform paths are relative to it).
cd "$src" || exit 1
"$nw" sweep experiments/sched-policies.json --csv "$tmp/local.csv" -j 2 --plot off >/dev/null 2>&1 ||
  bad "the local sweep exited $?"
"$nw" sweep experiments/sched-policies.json --csv "$tmp/slurm/s.csv" --slurm --points-per-task 4 \
  --array-max 2 >"$tmp/slurm.out" 2>&1 || bad "--slurm exited $?: $(cat "$tmp/slurm.out")"
sq sh "$tmp/slurm/s.slurm/submit.sh" >"$tmp/submit.out" 2>&1 || bad "submit.sh: $(cat "$tmp/submit.out")"
wait_jobs || bad "the jobs did not end in 10 minutes: $(sq squeue)"
if cmp -s "$tmp/local.csv" "$tmp/slurm/s.csv"; then
  ok "11 points in 3 array elements, merged: the local sweep's CSV ($(cat "$tmp/submit.out"))"
else
  bad "the merged CSV differs from the local one: $(tail -n 3 "$tmp/slurm/s.slurm/merge.out" 2>/dev/null)"
fi
rm -f "$tmp"/slurm/s.slurm/shards/s.shard-1-of-3.csv*
err=$("$nw" sweep experiments/sched-policies.json --csv "$tmp/m.csv" --merge "$tmp/slurm/s.slurm/shards" 2>&1)
[ $? = 2 ] && grep -q "shard 1 of 3 is missing" <<<"$err" && ok "a shard set without shard 1 refused: $err" ||
  bad "a shard set without shard 1: $err"

# 2. A real run through the documented batch script.
cd "$tmp" || exit 1
NARWHAL=$nw sq sbatch --wait --ntasks=2 --output="$tmp/real.out" "$src/scripts/slurm-real-run.sbatch" \
  --app matmul --n 1024 --block 256 --json >/dev/null 2>&1
grep -q '"verified":[[:space:]]*true' "$tmp/real.out" && ok "a real run of 2 ranks through slurm-real-run.sbatch verified" ||
  bad "the real run under Slurm: $(tail -n 3 "$tmp/real.out" 2>/dev/null)"

# 3. Nothing left running.
"$slurm" stop
sleep 0.5
left=$(pgrep -f "slurm(ctld|d) -f $NW_SLURM_DIR" | wc -l)
[ "$left" = 0 ] && [ ! -e "$NW_SLURM_DIR" ] && ok "stop left no daemon" || bad "stop left $left daemons"
echo "local_slurm: $passed passed, $failed failed"
[ "$failed" = 0 ]
