#!/usr/bin/env bash
# cholesky.sh CASE NARWHAL SRC_DIR: the tiled Cholesky (apps/cholesky) in the simulator, 2 nodes,
# n 256 in tiles of 64 (20 tasks of one subtask each; 30 for the LU variant), functional. Each
# run must pass the app's residual check (verified true: ||A - L L^T||_F / ||A||_F, or
# ||A - L U||_F / ||A||_F, within its bound).
#   policies  every scheduling policy on CPUs: verified, 20 tasks and subtasks, and GFlop/s
#             times makespan equal to n^3 / 3 (the kinds' flops add up to the factorisation's);
#             also with StarPU's priorities off, with the tiles all on node 0, and the LU variant
#             (30 tasks, 2 n^3 / 3)
#   gpus      modelled GPUs alone (every task through the kinds' GPU emulation: one launch per
#             task) and beside CPUs under the policies that send tasks to them (at least one)
#   bad       bad inputs: exit 2 and one line on stderr naming the input
#   memory    tiles that cannot fit an address-space limit: exit 2 and the runtime's one line
set -u
case=$1 nw=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=256
common=(run --app cholesky --platform "$src/platforms/small.xml" --nodes 2 --n $n --block 64)
failed=0 passed=0
pre=() # what a bad run starts under
key() { tr -d '\n' <"$1" | grep -oE "\"$2\":[[:space:]]*[^,}]*" | head -n1 | sed -E "s/\"$2\":[[:space:]]*//; s/[[:space:]]+$//"; }
verdict() { # verdict OK WHAT
  if [ "$1" -eq 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2"; fi
}

# run WHAT MIN_LAUNCHES MAX_LAUNCHES ARGS...: one run, verified, its launches on modelled GPUs
# in [MIN, MAX], 20 tasks and subtasks (30 with variant=lu, in ARGS), and the kinds' flops,
# GFlop/s times makespan, n^3 / 3 (2 n^3 / 3).
run() {
  local what=$1 lo=$2 hi=$3
  shift 3
  local tasks=20 flops=1
  case " $* " in *" variant=lu "*) tasks=30 flops=2 ;; esac
  timeout 120 "$nw" "${common[@]}" "$@" --json >"$tmp/out" 2>"$tmp/err"
  local st=$?
  local v s t g m l
  v=$(key "$tmp/out" verified) s=$(key "$tmp/out" subtasks) t=$(key "$tmp/out" tasks)
  g=$(key "$tmp/out" gflops) m=$(key "$tmp/out" makespan_s) l=$(key "$tmp/out" gpu_launches)
  echo "$what: status $st verified=$v subtasks=$s tasks=$t gflops=$g makespan_s=$m gpu_launches=$l"
  [ -s "$tmp/err" ] && cat "$tmp/err"
  local ok
  ok=$(awk -v st="$st" -v v="$v" -v s="$s" -v t="$t" -v g="$g" -v m="$m" -v l="$l" -v lo="$lo" \
    -v hi="$hi" -v n=$n -v tasks=$tasks -v flops=$flops 'BEGIN {
      want = flops * n * n * n / 3 / 1e9; got = g * m; rel = got > want ? got - want : want - got
      print (st == 0 && v == "true" && s == tasks && t == tasks && m > 0 && rel <= 1e-9 * want &&
             l >= lo && l <= hi) ? 1 : 0 }')
  verdict "$ok" "$what"
}

# bad WANT ARGS...: exit 2 and exactly one stderr line, containing WANT.
bad() {
  local want=$1
  shift
  timeout 120 "${pre[@]}" "$nw" "${common[@]}" "$@" >"$tmp/out" 2>"$tmp/err"
  local st=$?
  echo "$*: status $st: $(cat "$tmp/err")"
  local ok=1
  [ "$st" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qF -- "$want" "$tmp/err" || ok=0
  verdict $ok "$* (wanted status 2 and one line with '$want')"
}

case $case in
policies)
  for policy in unicorn eager prio random ws lws dm dmda dmdar dmdas heft roofline; do
    run "--sched $policy" 0 0 --sched "$policy"
  done
  for policy in prio dmdas; do
    run "--sched $policy, prio=off" 0 0 --sched "$policy" --app-param prio=off
  done
  run "--placement node0" 0 0 --placement node0
  run "--placement spread, 4 nodes" 0 0 --nodes 4
  for policy in unicorn eager dmdas heft; do
    run "--sched $policy, variant=lu" 0 0 --sched "$policy" --app-param variant=lu
  done ;;
gpus)
  for policy in unicorn eager dmda heft roofline; do
    run "--sched $policy --devices gpu" 20 20 --sched "$policy" --devices gpu
  done
  for policy in random dm dmda dmdas heft roofline; do
    run "--sched $policy --devices cpu+gpu" 1 20 --sched "$policy" --devices cpu+gpu
  done
  run "--sched dmda --devices gpu, variant=lu" 30 30 --sched dmda --devices gpu \
    --app-param variant=lu
  run "--sched heft --devices cpu+gpu, variant=lu" 1 30 --sched heft --devices cpu+gpu \
    --app-param variant=lu ;;
bad)
  bad "--block 64 does not divide --n 250" --n 250
  bad "--block 0: no tiles" --block 0
  bad "--n 0: no tiles" --n 0
  bad "gives 106 tiles per side, 204156 tasks; at most 200000" --n 6784
  bad "gives 84 tiles per side, 201110 tasks; at most 200000" --n 5376 --app-param variant=lu
  bad "--block 32768 is larger than 16384" --n 32768 --block 32768
  bad "--app-param prio=maybe: not on or off" --app-param prio=maybe
  bad "--app-param variant=qr: not cholesky or lu" --app-param variant=qr
  bad "--app-param bogus: unknown key (prio, variant)" --app-param bogus=1
  bad "--placement rows: cholesky cannot place its inputs that way" --placement rows ;;
memory)
  # 32 x 32 tiles of 1024, 2.2 GB of spaces with a copy on each of 2 nodes and the driver's,
  # against 2 GB of address space: refused before the last tiles are made. One OpenBLAS thread
  # keeps the process small all the same.
  export OPENBLAS_NUM_THREADS=1
  pre=(bash -c 'ulimit -v 2000000 && exec "$@"' ulimit)
  bad "nw_space_create: the run needs ~" --n 32768 --block 1024 ;;
*)
  echo "cholesky: unknown case $case"
  exit 2 ;;
esac
echo "cholesky $case: $passed passed, $failed failed"
[ $failed -eq 0 ]
