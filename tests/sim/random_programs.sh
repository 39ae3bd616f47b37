#!/usr/bin/env bash
# random_programs.sh NARWHAL WHERE ROTATION FIRST_SEED COUNT: runs the randprog app
# (apps/randprog/randprog.h), functional data, for seeds FIRST_SEED .. FIRST_SEED + COUNT - 1;
# seed s runs under configuration s mod (rotation length) of ROTATION:
#   cpu: simulator, CPU devices only, 1-4 nodes, every scheduling mechanism on and off;
#   gpu: simulator, modelled GPUs (alone and beside CPUs), every GPU cache policy, a GPU budget
#        that holds fewer than two subtasks' data (--gpu-mem B with --block B), two streams,
#        copies, work-groups, locality, steal retries, and reduced results run-length encoded
#        on the GPU (--compression gpu, both);
#   real: the real backend under mpirun with 2 or 3 ranks (CPUs; randprog has no CUDA kernel).
# WHERE is the platform file (sim rotations) or the mpiexec to use (real).
# Counts per configuration the runs that were wrong (exit 3 or "verified" not true), crashed
# (another non-zero exit, or a signal) or hung (killed after RP_TIMEOUT s, default 60), lists
# each failing seed with the command that reproduces it, ends with "N passed, M failed" and
# exits non-zero on any failure. RANDPROG_SKIP in the environment reaches the app;
# RANDPROG_POLICY=NAME runs every configuration under that scheduling policy (--sched);
# RANDPROG_OPTS adds options to every configuration (e.g. "--check-views off", so that a
# sanitizer build, whose views are checked by default, runs the in-place write path).
# RANDPROG_LOSE=1 (sim rotations): a run of two nodes or more first runs as it is with a loss
# after its end (resilient, as a run with --fail is), then again losing node 1 at a time drawn
# from the seed within that run's span (core/node/recover.c); the second must be exact too.
set -u
narwhal=$1 where=$2 rotation=$3 first=$4 count=$5
mpirun_sh=$(cd "$(dirname "$0")/../real" && pwd)/mpirun.sh
timeout_s=${RP_TIMEOUT:-60}
B=2048 # the GPU budget: space sizes up to B, every subtask fits, one needs more than B/2
budget="--gpu-mem $B --block $B --n $B"
case $rotation in
cpu)
  configs=(
    "--nodes 1"
    "--nodes 2 --multi-assign on --slow 1:4"
    "--nodes 3 --pipeline off --steal-policy one-level"
    "--nodes 4 --locality on --prosteal off"
    "--nodes 2 --work-groups on --multi-assign on"
    "--nodes 4 --locality on --steal-policy one-level --slow 1:4 --pipeline on --master-serves copies"
    "--nodes 3 --placement node0 --multi-assign off --prosteal on --master-serves copies"
    "--nodes 2 --steal-retry 0.0001 --locality on"
    "--nodes 4 --n 2048 --work-groups on --slow 2:4 --steal-policy one-level"
    "--nodes 3 --prosteal off --pipeline off --multi-assign on --slow 0:4"
  ) ;;
gpu)
  # (a modelled GPU's memory is allocated in functional mode: 1 MB instead of the platform's
  # 1 GB where no budget is set, far more than a subtask of these programs needs)
  roomy="--gpu-mem 1000000"
  configs=(
    "--nodes 1 --devices gpu $roomy"
    "--nodes 2 --devices gpu --gpu-cache lru $budget --compression gpu"
    "--nodes 2 --devices gpu --gpu-cache mru --gpu-streams 2 $budget"
    "--nodes 3 --devices cpu+gpu --gpu-cache lfu $budget --compression both"
    "--nodes 2 --devices gpu --gpu-cache mfu --gpu-streams 2 $budget"
    "--nodes 4 --devices cpu+gpu --gpu-cache random $budget --multi-assign on --slow 1:4 --master-serves copies"
    "--nodes 2 --devices gpu --gpu-cache none --gpu-streams 2 $budget"
    "--nodes 3 --devices cpu+gpu --work-groups on --locality on $roomy"
    "--nodes 2 --devices cpu+gpu --steal-retry 0.0001 --locality on --gpu-streams 2 $roomy"
    "--nodes 4 --devices cpu+gpu --steal-policy one-level --pipeline off --prosteal off $roomy"
    "--nodes 2 --devices gpu --gpu-mode many-task --gpu-streams 6 --mtc-bundle 4 --pack-copies on $budget"
    "--nodes 3 --devices cpu+gpu --gpu-streams 4 --agglomerate 4 --pack-copies on $budget"
    "--nodes 3 --devices cpu+gpu --gpu-mode many-task --gpu-streams 40 --multi-assign on --slow 1:4 $roomy"
  ) ;;
real) # RANKS|MPIRUN OPTIONS|NARWHAL OPTIONS
  configs=(
    "2||"
    "3||--multi-assign on --slow 1:4 --pipeline on"
    "2||--locality on --steal-policy one-level"
    "3|--bind-to none|--work-groups on --multi-assign on"
    "3||--placement node0 --prosteal off --cpu-devices 1 --master-serves copies"
    "2||--pipeline off --multi-assign on --slow 0:4 --locality on"
    "2|--bind-to none|--multi-assign on --pipeline on"
    "2|--bind-to none|--slow 1:4 --steal-policy one-level"
  ) ;;
*)
  echo "random_programs.sh: unknown rotation '$rotation' (cpu, gpu or real)" >&2
  exit 2 ;;
esac
n=${#configs[@]}
declare -a pass wrong crash hung
for ((i = 0; i < n; i++)); do pass[i]=0 wrong[i]=0 crash[i]=0 hung[i]=0; done
failures=()
errs=$(mktemp)
trap 'rm -f "$errs"' EXIT
for ((seed = first; seed < first + count; seed++)); do
  i=$((seed % n))
  # shellcheck disable=SC2206 # each configuration is a list of words
  if [ "$rotation" = real ]; then
    IFS='|' read -r ranks mpi_opts opts <<<"${configs[i]}"
    cmd=("$mpirun_sh" "$where" "$ranks" $mpi_opts "$narwhal" run --app randprog --backend real
      --json --seed "$seed" $opts ${RANDPROG_POLICY:+--sched "$RANDPROG_POLICY"} ${RANDPROG_OPTS:-})
  else
    cmd=("$narwhal" run --app randprog --backend sim --platform "$where" --data functional
      --json --seed "$seed" ${configs[i]} ${RANDPROG_POLICY:+--sched "$RANDPROG_POLICY"} ${RANDPROG_OPTS:-})
  fi
  if [ "${RANDPROG_LOSE:-0}" = 1 ] && [ "$rotation" != real ] &&
    ! printf '%s' "${configs[i]}" | grep -q -- '--nodes 1\b'; then
    base=$(timeout "$timeout_s" "${cmd[@]}" --fail 1@1e9 --fault detect:0.00001 2>/dev/null)
    first_s=$(printf '%s' "$base" | sed -n 's/^\t"first_submit_s":\t\([0-9.e+-]*\),/\1/p')
    span=$(printf '%s' "$base" | sed -n 's/^\t"makespan_s":\t\([0-9.e+-]*\),/\1/p')
    at=$(awk -v a="${first_s:-0}" -v b="${span:-0}" -v s="$seed" \
      'BEGIN { srand(s); printf "%.9f", a + rand() * 1.1 * b }')
    cmd+=(--fail "1@$at" --fault detect:0.00001)
  fi
  out=$(timeout "$timeout_s" "${cmd[@]}" 2>"$errs")
  rc=$?
  err=$(grep -m1 -E 'randprog:|narwhal:|Segmentation|free\(\)|malloc|corrupt|CRITICAL|Assertion' \
    "$errs" | cut -c1-200)
  if [ $rc -eq 0 ] && printf '%s' "$out" | grep -qE '"verified":[[:space:]]*true'; then
    pass[i]=$((pass[i] + 1))
    continue
  elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    hung[i]=$((hung[i] + 1)) what=hung
  elif [ $rc -eq 3 ] || [ $rc -eq 0 ]; then
    wrong[i]=$((wrong[i] + 1)) what=wrong
  else
    crash[i]=$((crash[i] + 1)) what="crashed (exit $rc)"
  fi
  failures+=("seed $seed $what: ${err:-no message}
    reproduce: ${RANDPROG_SKIP:+RANDPROG_SKIP=$RANDPROG_SKIP }${cmd[*]}")
done

total_pass=0 total_fail=0
for ((i = 0; i < n; i++)); do
  runs=$((pass[i] + wrong[i] + crash[i] + hung[i]))
  [ $runs -gt 0 ] || continue
  printf '%-100s %4d runs: %4d wrong %4d crashed %4d hung\n' "[${configs[i]}]" $runs \
    ${wrong[i]} ${crash[i]} ${hung[i]}
  total_pass=$((total_pass + pass[i]))
  total_fail=$((total_fail + runs - pass[i]))
done
for f in "${failures[@]+"${failures[@]}"}"; do echo "$f"; done
echo "random_programs ($rotation, seeds $first..$((first + count - 1))): $total_pass passed, $total_fail failed"
[ $total_fail -eq 0 ]
