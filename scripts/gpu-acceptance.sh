#!/usr/bin/env bash
# gpu-acceptance.sh [--build DIR] [--rehearse] OUT: every GPU path of Narwhal in one command, for
# a borrowed GPU machine (one NVIDIA GPU, about 8 minutes, no package registry: the build comes
# from a kit, scripts/gpu-kit/pack.sh here and env.sh there; docs/guide/gpu-acceptance.md).
# Device time is short and rare, so the parts run most valuable first, each under its own time
# limit (ACCEPT_LIMIT_N to change part N's) and all under one budget (ACCEPT_BUDGET_S, default
# 540 s), and each writes its figures into OUT as it goes: a run cut short keeps what finished.
#   0 machine      OUT/machine.txt: date, host, cores, the GPUs and driver, git describe
#   1 gpu-tests    every gpu.* test (ctest), OUT/01-gpu-tests.txt
#   2 gpu-sgemm    copy rates by row width per copy path (bench_copy_rows, OUT/02-copy-rows.txt),
#                  then benchmarks/gpu.sh at n = 16384 and 32768: Narwhal against cuBLAS sgemm alone
#                  and with its copies, OUT/02-gpu-sgemm.txt
#   3 validation   a GPU calibration, then the held-out GPU configurations: `narwhal validate
#                  experiments/validation/gpu-held-out.json` where that file exists, else
#                  benchmarks/validate.sh's GPU set (VALIDATE_ONLY=gpu), OUT/03-validation*
#   4 many-task    benchmarks/mtc-runtime.sh: --gpu-mode many-task through the runtime,
#                  OUT/04-many-task.txt
#   5 starpu       benchmarks/starpu.sh against a StarPU built with CUDA
#                  (scripts/gpu-kit/build-starpu.sh), or "skipped", OUT/05-starpu.txt
#   6 examples     the documentation's `<!-- example: gpu -->` blocks, and examples/ on the real
#                  backend with --devices auto beside a GPU (their kernels are CPU only),
#                  OUT/06-examples.txt
# Each part appends "part N NAME: ok|FAILED|skipped (reason) in S s" to OUT/summary.txt as it
# ends. Exit 0 if no part FAILED, 1 if one did, 2 for bad arguments or (without --rehearse) no GPU.
#
# Before a part runs, its pieces are checked (scripts and binaries present and executable,
# scripts parse and read the settings given them, narwhal-real accepts the options used, by
# --dry-run); a missing piece fails the part, named. --rehearse does only that, on any machine,
# GPU parts skipped, plus the dry paths the scripts have (validate.sh with the GPU hidden, the
# documentation's GPU blocks through the readme runner without --cuda): run it here before
# borrowing a machine, so that only the GPU itself can go wrong there. A build without CUDA
# fails every GPU part. tests/gpu registers it as gpu.acceptance_rehearsal.
set -euo pipefail

me=gpu-acceptance.sh
usage="usage: scripts/gpu-acceptance.sh [--build DIR] [--rehearse] OUT"
bad() { echo "$me: $*" >&2; exit 2; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

build="" out="" rehearse=0
while [ $# -gt 0 ]; do
  case $1 in
    --build) [ $# -ge 2 ] || bad "--build: needs a directory ($usage)"; build=$2; shift 2 ;;
    --build=*) build=${1#--build=}; shift ;;
    --rehearse) rehearse=1; shift ;;
    -h | --help) echo "$usage"; exit 0 ;;
    -*) bad "$1: unknown option ($usage)" ;;
    *) [ -z "$out" ] || bad "$1: a second OUT (OUT is already $out; $usage)"; out=$1; shift ;;
  esac
done
[ -n "$out" ] || bad "OUT: missing ($usage)"
build=${build:-$root/build}
[ -d "$build" ] || bad "--build $build: no such directory"
build=$(cd "$build" && pwd)
if [ -e "$out" ] && { [ ! -d "$out" ] || [ -n "$(ls -A "$out")" ]; }; then
  bad "$out: exists and is not an empty directory (results of an earlier run?)"
fi
budget=${ACCEPT_BUDGET_S:-540}
[[ $budget =~ ^[0-9]+$ ]] || bad "ACCEPT_BUDGET_S=$budget: not a whole number of seconds"
parts=${ACCEPT_PARTS:-0 1 2 3 4 5 6} # a second call reruns only what the first left failed
[[ $parts =~ ^[0-6]( [0-6])*$ ]] || bad "ACCEPT_PARTS=$parts: part numbers 0 to 6, separated by spaces"
# ACCEPT_LIMIT_N: part N's own time limit in seconds instead of its default (a lease that
# skips some parts gives their time to the others).
for n in 0 1 2 3 4 5 6; do
  v=ACCEPT_LIMIT_$n
  [ -z "${!v:-}" ] || [[ ${!v} =~ ^[0-9]+$ ]] || bad "$v=${!v}: not a whole number of seconds"
done

# The GPUs, as nvidia-smi lists them (its output read whole: grep -q on a pipe under pipefail).
gpus="" gpu_why="nvidia-smi: not found"
if command -v nvidia-smi >/dev/null; then
  gpus=$(timeout 20 nvidia-smi -L 2>/dev/null | grep '^GPU' || true)
  gpu_why="nvidia-smi lists none"
fi
if [ -z "$gpus" ] && [ "$rehearse" = 0 ]; then
  echo "$me: no GPU found (nvidia-smi)" >&2
  exit 2
fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
summary=$out/summary.txt
: >"$summary"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
start=$SECONDS

rel() { case $1 in "$root"/*) echo "${1#"$root"/}" ;; *) echo "$1" ;; esac; }
# A CUDA build, as benchmarks/starpu.sh tells one (its GPU rows need the same).
cuda_build() { grep -q '^CMAKE_CUDA_COMPILER:.*=.*nvcc' "$build/CMakeCache.txt" 2>/dev/null; }

# The checks of a part add what is wrong to problems.
problems=()
need_x() {
  local f
  for f; do [ -f "$f" ] && [ -x "$f" ] || problems+=("$(rel "$f") is missing or not executable"); done
}
need_cmd() { command -v "$1" >/dev/null || problems+=("no $1 on PATH"); }
need_cuda() { cuda_build || problems+=("$(rel "$build") is not a CUDA build (its CMakeCache.txt names no nvcc)"); }
need_script() { # SCRIPT [SETTING...]: executable, parses, and reads each environment SETTING
  local s=$1 v
  shift
  need_x "$s"
  [ -f "$s" ] || return 0
  bash -n "$s" 2>/dev/null || problems+=("$(rel "$s") does not parse (bash -n)")
  for v; do grep -qE "\\\$\{${v}[:}]" "$s" || problems+=("$(rel "$s") does not read $v"); done
}
need_dry() { # PROGRAM ARGS...: the program accepts these options (--dry-run: parsed, not run)
  local err
  [ -x "$1" ] || return 0 # need_x names it
  err=$(timeout 30 "$@" --dry-run 2>&1 >/dev/null) ||
    problems+=("$(rel "$1") ${*:2}: refused: $(head -n1 <<<"$err")")
}
# checked WHAT: ends the part's checks. Returns 0 (the part ends here) with the verdict set where
# one failed (FAILED, naming them) or in a rehearsal (skipped); 1: go on and run it.
checked() {
  if [ ${#problems[@]} -gt 0 ]; then
    verdict=FAILED why=$(printf '%s; ' "${problems[@]}")
    why=${why%; }
    printf 'check failed: %s\n' "${problems[@]}" >>"$file"
    return 0
  fi
  [ "$rehearse" = 1 ] || return 1
  verdict=skipped why="rehearsal; checked $1"
  echo "rehearsal: checked $1" >>"$file"
}
# tl COMMAND...: COMMAND under what is left of the part's time limit (124 once it ran out). In
# the background, waited for: a signal to this script then stops it at once (interrupted).
child=""
tl() {
  local left=$((part_end - SECONDS)) rc=0
  [ "$left" -gt 0 ] || return 124
  timeout -k 5 "$left" "$@" &
  child=$!
  wait "$child" || rc=$?
  child=""
  return "$rc"
}
# The machine's own Open MPI variables: every OMPI_* set here but the three Narwhal's scripts
# and scripts/gpu-kit/env.sh export.
machine_ompi() {
  local v
  for v in ${!OMPI_@}; do
    case $v in OMPI_ALLOW_RUN_AS_ROOT | OMPI_ALLOW_RUN_AS_ROOT_CONFIRM | OMPI_MCA_btl_vader_single_copy_mechanism) ;;
    *) printf '%s ' "$v" ;;
    esac
  done
}
# Processes of the build still alive after a part (a timed-out mpirun's ranks keep the GPU's
# memory, and the next part then finds none): killed, counted.
leftovers() {
  local pids p n=0
  pids=$(pgrep -f -- "$build/" || true)
  for p in $pids; do
    [ "$p" != $$ ] && [ "$p" != "$BASHPID" ] && kill -TERM "$p" 2>/dev/null && n=$((n + 1))
  done
  [ "$n" = 0 ] || { sleep 2; for p in $pids; do kill -KILL "$p" 2>/dev/null || true; done; }
  echo "$n"
}
timed_out() { [ "$1" = 124 ] || [ "$1" = 137 ]; }
count() { grep -cE "$1" "$2" || true; }

part0() {
  file=$out/machine.txt
  {
    echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "hostname: $(hostname 2>/dev/null || uname -n)"
    echo "nproc: $(nproc)"
    echo "repository: $root, $(git -C "$root" describe --always --dirty 2>/dev/null || echo "no git description")"
    echo "build: $build ($(cuda_build && echo CUDA || echo "no CUDA"))"
    echo "mode: $([ "$rehearse" = 1 ] && echo rehearsal || echo acceptance)"
    echo "the machine's Open MPI variables: $(for v in $(machine_ompi); do printf '%s=%s ' "$v" "${!v}"; done)"
    if [ -n "$gpus" ]; then
      echo "$gpus"
      timeout 20 nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || true
    else
      echo "no GPU ($gpu_why)"
    fi
  } >"$file"
  verdict=ok why="$(nproc) cores, $([ -n "$gpus" ] && grep -c '^GPU' <<<"$gpus" || echo no) GPU"
}

part1() {
  file=$out/01-gpu-tests.txt
  local tests rc=0 passed skipped list
  need_cuda
  need_cmd ctest
  # The tests and the program each runs, read from the test file, not `ctest -N`: that rewrites
  # the build's LastTest.log, which the ctest running this rehearsal is writing.
  list=$(sed -nE 's/^add_test\((\[=\[)?(gpu\.[^] ]+)(\]=\])? "([^"]+)".*/\2 \4/p' \
    "$build/tests/gpu/CTestTestfile.cmake" 2>/dev/null | grep -v '^gpu\.acceptance_rehearsal ' || true)
  tests=$(grep -c . <<<"$list" || true)
  [ "$tests" -gt 0 ] || problems+=("$(rel "$build")/tests/gpu registers no gpu.* test")
  # shellcheck disable=SC2046 # one word per program
  need_x $(cut -d' ' -f2 <<<"$list" | sort -u)
  checked "ctest, $tests gpu.* tests registered and the programs they run" && return 0
  tl ctest --test-dir "$build" -R '^gpu\.' -E '^gpu\.acceptance_rehearsal$' --output-on-failure \
    --timeout 90 >"$file" 2>&1 || rc=$?
  passed=$(count 'Test +#[0-9]+: .* Passed' "$file")
  skipped=$(count '\*\*\*Skipped' "$file")
  why="$passed of $tests passed, $skipped skipped"
  timed_out "$rc" && why+=", timed out"
  [ "$skipped" = 0 ] || why+=" (skipped although nvidia-smi lists a GPU)"
  echo "summary: $why" >>"$file"
  [ "$rc" = 0 ] && [ "$passed" = "$tests" ] && verdict=ok
}

part2() {
  file=$out/02-gpu-sgemm.txt
  local sizes=${ACCEPT_SGEMM_SIZES:-16384 32768} blocks=${ACCEPT_SGEMM_BLOCKS:-4096} n b rc=0 rows
  need_cuda
  need_cmd mpirun
  need_script "$root/benchmarks/gpu.sh" SIZES BLOCKS REPS TRACE_DIR
  need_x "$build/benchmarks/bench_cublas" "$build/narwhal-real" "$build/benchmarks/bench_copy_rows"
  for n in $sizes; do
    for b in $blocks; do
      need_dry "$build/narwhal-real" run --app matmul --backend real --devices gpu --n "$n" \
        --block "$b" --no-verify --json
    done
  done
  checked "benchmarks/gpu.sh, bench_cublas, bench_copy_rows, narwhal-real's options" && return 0
  # Copy rates by row width through each path (NARWHAL_GPU_STAGING), and the default one under
  # mpirun too: calibrate, under mpirun, once measured a quarter of what this program did alone.
  for m in off on kernel; do
    NARWHAL_GPU_STAGING=$m tl "$build/benchmarks/bench_copy_rows" || true
  done >"$out/02-copy-rows.txt" 2>&1
  tl mpirun -np 1 --bind-to none "$build/benchmarks/bench_copy_rows" 2>&1 |
    sed 's/^path=/under mpirun: path=/' >>"$out/02-copy-rows.txt" || true
  SIZES=$sizes BLOCKS=$blocks REPS=2 TRACE_DIR=$out/02-traces tl "$root/benchmarks/gpu.sh" "$build" \
    >"$file" 2>&1 || rc=$?
  rows=$(count '^n=' "$file")
  why="$rows rows"
  [ "$rows" = 0 ] || why+="; Narwhal / (sgemm + copies): $(awk '/^n=/ { for (i = 1; i <= NF; i++) {
    split($i, kv, "="); v[kv[1]] = kv[2] } printf "%s%s at %s/%s", s, v["ratio_with_copies"],
    v["n"], v["block"]; s = ", " }' "$file")"
  timed_out "$rc" && why+=", timed out"
  [ "$rc" = 0 ] && [ "$rows" -gt 0 ] && [ "$rows" = "$(($(wc -w <<<"$sizes") * $(wc -w <<<"$blocks")))" ] &&
    verdict=ok
}

part3() {
  file=$out/03-validation.txt
  local dir=$out/03-validation heldout=$root/experiments/validation/gpu-held-out.json rc=0 rows
  local rounds=${ACCEPT_VALIDATE_ROUNDS:-2}
  need_cuda
  need_cmd mpirun
  need_x "$build/narwhal" "$build/narwhal-real"
  if [ -f "$heldout" ]; then
    if command -v python3 >/dev/null && ! python3 -c 'import json, sys; json.load(open(sys.argv[1]))' \
      "$heldout" 2>/dev/null; then
      problems+=("$(rel "$heldout") is not JSON")
    fi
    checked "narwhal validate and $(rel "$heldout")" && return 0
    tl "$build/narwhal" validate "$heldout" --out "$dir" --rounds "$rounds" >"$file" 2>&1 || rc=$?
    why="$(rel "$heldout"): $(grep -m1 -iE 'median' "$file" || echo "no summary line")"
  else
    need_script "$root/benchmarks/validate.sh" VALIDATE_ONLY VALIDATE_ROUNDS
    if [ "$rehearse" = 1 ] && [ ${#problems[@]} = 0 ]; then
      # Its dry path: the GPU hidden, the GPU set is empty, and it must still run through.
      VALIDATE_ONLY=gpu VALIDATE_ROUNDS=1 CUDA_VISIBLE_DEVICES="" timeout 60 \
        "$root/benchmarks/validate.sh" "$build" "$dir" >"$file" 2>&1 || rc=$?
      [ "$rc" = 0 ] && [ -s "$dir/validation.csv" ] ||
        problems+=("benchmarks/validate.sh with VALIDATE_ONLY=gpu and the GPU hidden failed (exit $rc; $(rel "$file"))")
    fi
    checked "benchmarks/validate.sh's GPU set (run with the GPU hidden: no configuration)" && return 0
    VALIDATE_ONLY=gpu VALIDATE_ROUNDS=$rounds tl "$root/benchmarks/validate.sh" "$build" "$dir" \
      >"$file" 2>&1 || rc=$?
    rows=$(($(wc -l <"$dir/validation.csv" 2>/dev/null || echo 1) - 1))
    why="validate.sh's GPU set: $(grep -m1 '^configurations:' "$file" || echo "$rows configurations")"
    if [ "$rows" = 0 ]; then # its GPU probe failed, silently: again, to say why
      why+=" (no GPU configuration ran: validate.sh's GPU probe failed)"
      echo "== validate.sh's GPU probe, again" >>"$file"
      tl mpirun -np 1 --bind-to none "$build/narwhal" run --backend real --app matmul --n 512 \
        --block 256 --devices gpu >>"$file" 2>&1 || true
      rc=1
    fi
  fi
  timed_out "$rc" && why+=", timed out"
  [ "$rc" = 0 ] && verdict=ok
}

part4() {
  file=$out/04-many-task.txt
  local subtasks=${ACCEPT_MTC_SUBTASKS:-20000} rc=0 rows
  need_cuda
  need_cmd mpirun
  need_script "$root/benchmarks/mtc-runtime.sh" REPS SUBTASKS
  need_x "$build/narwhal-real"
  need_dry "$build/narwhal-real" run --app adder --backend real --devices gpu --n $((subtasks * 32)) \
    --block 32 --no-verify --gpu-mode many-task --gpu-streams 256 --mtc-bundle 100 --json
  checked "benchmarks/mtc-runtime.sh and narwhal-real's many-task options" && return 0
  REPS=2 SUBTASKS=$subtasks tl "$root/benchmarks/mtc-runtime.sh" "$build" >"$file" 2>&1 || rc=$?
  rows=$(count 'tasks_per_s=' "$file")
  why="$rows of 4 configurations$(awk '/--mtc-bundle 100 / { sub(/.*tasks_per_s=/, "");
    printf "; bundles of 100: %s tasks/s, x%s one launch a subtask", $1, substr($2, 17) }' "$file")"
  timed_out "$rc" && why+=", timed out"
  [ "$rc" = 0 ] && [ "$rows" = 4 ] && verdict=ok
}

part5() {
  file=$out/05-starpu.txt
  local sp=$build/benchmarks/starpu_sgemm home rc=0 probe
  if [ ! -x "$sp" ]; then
    verdict=skipped why="no StarPU with CUDA: $(rel "$sp") not built"
    echo "skipped: $why" >"$file"
    return 0
  fi
  # Its CUDA codelet is compiled in only against a StarPU built with CUDA: asked for a CUDA
  # worker, a build without says so before starting StarPU (a rehearsal hides the GPU from it).
  home=$(mktemp -d)
  probe=$(if [ "$rehearse" = 1 ]; then export CUDA_VISIBLE_DEVICES=""; fi
    STARPU_HOME=$home STARPU_NCUDA=1 STARPU_NCPU=1 timeout 60 "$sp" 256 128 1 0 2>&1) || true
  rm -rf "$home"
  if grep -q 'no CUDA codelet' <<<"$probe"; then
    verdict=skipped why="no StarPU with CUDA: $(rel "$sp") has no CUDA codelet"
    echo "skipped: $why" >"$file"
    return 0
  fi
  need_cuda
  need_script "$root/benchmarks/starpu.sh" REPS N
  need_x "$build/narwhal"
  checked "benchmarks/starpu.sh, and $(rel "$sp") has a CUDA codelet" && return 0
  REPS=1 N=${ACCEPT_STARPU_N:-4096} tl "$root/benchmarks/starpu.sh" "$build" >"$file" 2>&1 || rc=$?
  why="cpu+gpu: $(awk '/^== cpu\+gpu/ { g = 1 } g && /^narwhal-unicorn\/starpu-dmda:/ {
    print "narwhal-unicorn / starpu-dmda " $2 }' "$file")"
  timed_out "$rc" && why+=", timed out"
  if grep -qE 'cpu\+gpu: skipped|no StarPU CUDA worker' "$file"; then
    why+=" (StarPU ran no CUDA worker)"
    rc=1
  fi
  [ "$rc" = 0 ] && verdict=ok
}

# The documentation's GPU blocks (the files readme.examples reads), as one Markdown file for
# tests/readme/run_examples.sh: each marker, its expect lines and its fenced block.
doc_gpu_blocks() {
  (cd "$root" && awk '
    FNR == 1 { grab = 0 }
    grab == 2 { print; if ($0 ~ /^```[ \t]*$/) { grab = 0; print "" }; next }
    /^<!-- example: gpu([ ,].*)? -->$/ { print "From " FILENAME ":" FNR ":"; print ""; print; grab = 1; next }
    grab == 1 && /^<!-- expect / { print; next }
    grab == 1 && /^```/ { print; grab = 2; next }
    { grab = 0 }' README.md experiments/README.md docs/guide/*.md)
}
# The examples with a real run in examples/check.sh: BINARY|SUBTASKS|OPTIONS.
examples=("first-task/first_task|8|--n 4096 --block 512 --alpha 7"
  "strided-subscriptions/transpose|64|--n 512 --block 64"
  "read-write-across-tasks/smooth|96|--n 4096 --block 256 --steps 6"
  "reduction/histogram|16|--n 65536 --block 4096 --bins 100"
  "compare-policies/uneven|32|--n 32 --block 20000 --sched prio")

part6() {
  file=$out/06-examples.txt
  local md=$out/06-doc-gpu-blocks.md runner=$root/tests/readme/run_examples.sh blocks ex bin n opts
  local rc=0 bad=0 err
  need_cuda
  need_cmd mpirun
  need_x "$runner" "$root/tests/sim/expect_json.sh"
  [ -f "$root/tests/readme/extract_examples.awk" ] || problems+=("tests/readme/extract_examples.awk is missing")
  doc_gpu_blocks >"$md"
  blocks=$(count '^<!-- example: gpu' "$md")
  [ "$blocks" -gt 0 ] || problems+=("the documentation has no <!-- example: gpu --> block")
  for ex in "${examples[@]}"; do
    IFS='|' read -r bin n opts <<<"$ex"
    need_x "$build/examples/$bin"
    # shellcheck disable=SC2086 # the example's options, one per word
    need_dry "$build/examples/$bin" --backend real --devices auto $opts --json
  done
  if [ "$rehearse" = 1 ] && [ ${#problems[@]} = 0 ]; then
    # The runner's dry path: without --cuda it reads every block and skips them all (then it
    # says it found none to run, and exits 1).
    "$runner" "$build" "$md" >"$file" 2>&1 || rc=$?
    grep -q "ran 0, 0 failed, skipped $blocks," "$file" ||
      problems+=("tests/readme/run_examples.sh did not read the $blocks GPU blocks (exit $rc; $(rel "$file"))")
  fi
  checked "the documentation's GPU blocks ($blocks) and ${#examples[@]} examples" && return 0
  echo "== the documentation's GPU blocks (tests/readme/run_examples.sh --cuda)" >"$file"
  # The blocks must set Narwhal's own Open MPI settings themselves; the machine's stay.
  RUN_EXAMPLES_KEEP_OMPI="$(machine_ompi)" tl "$runner" --cuda "$build" "$md" >>"$file" 2>&1 || rc=$?
  grep -q "ran $blocks, 0 failed" "$file" || bad=$((bad + 1))
  for ex in "${examples[@]}"; do
    IFS='|' read -r bin n opts <<<"$ex"
    echo "== examples/$bin, 2 ranks, --devices auto beside the GPU" >>"$file"
    # shellcheck disable=SC2086 # the example's options, one per word
    tl "$root/tests/sim/expect_json.sh" verified=true subtasks="$n" -- mpirun -np 2 --oversubscribe \
      --bind-to none "$build/examples/$bin" --backend real --devices auto $opts --json \
      >>"$file" 2>&1 || bad=$((bad + 1))
  done
  echo "== examples/first-task --devices gpu: refused, its kernel has no CUDA variant" >>"$file"
  rc=0
  err=$(tl "$build/examples/first-task/first_task" --backend real --devices gpu --n 4096 --block 512 \
    2>&1 >/dev/null) || rc=$?
  echo "exit $rc: $err" >>"$file"
  [ "$rc" = 2 ] && grep -q 'CUDA kernel' <<<"$err" || bad=$((bad + 1))
  why="$bad of $((${#examples[@]} + 2)) checks failed: the documentation's GPU blocks ($blocks),"
  why+=" ${#examples[@]} examples with --devices auto, first_task's --devices gpu refused"
  [ "$bad" = 0 ] && verdict=ok
}

failed=0 current="" t0=$SECONDS
exec 3>&1 # this script's output: a trap runs with the redirections of the command it stopped
interrupted() {
  [ -z "$child" ] || kill -TERM "$child" 2>/dev/null || true
  [ -z "$current" ] || echo "$current: FAILED (interrupted) in $((SECONDS - t0)) s" | tee -a "$summary" >&3
  exit 1
}
trap interrupted INT TERM
# run_part N NAME LIMIT_S: partN under min(LIMIT_S, what is left of the budget).
run_part() {
  local n=$1 name=$2 limit=$3 left own=ACCEPT_LIMIT_$1
  limit=${!own:-$limit}
  left=$((budget - (SECONDS - start)))
  [ "$left" -ge "$limit" ] || limit=$left
  t0=$SECONDS current="part $n $name" verdict=FAILED why="" problems=() file=/dev/null
  echo "== part $n $name (at most $limit s)"
  if [[ " $parts " != *" $n "* ]]; then
    verdict=skipped why="not in ACCEPT_PARTS ($parts)"
  elif [ "$limit" -lt 10 ]; then
    verdict=skipped why="out of time: $left s of the $budget s budget left"
  else
    part_end=$((SECONDS + limit))
    "part$n" || true
    local left_over=0 # not in a rehearsal: tests running beside it (ctest -j) use the build
    [ "$rehearse" = 1 ] || left_over=$(leftovers)
    [ "$left_over" = 0 ] || why+="; $left_over process(es) of the build outlived it, killed"
  fi
  # A part that ran and failed: the first line of its output that says why.
  if [ "$verdict" = FAILED ] && [ ${#problems[@]} = 0 ] && [ -f "$file" ]; then
    local err
    err=$(grep -m1 -iE 'error:|errors|fail|cannot|insufficient|refused|no CUDA|not found' "$file" | cut -c1-160 || true)
    [ -z "$err" ] || why+="; first error in ${file##*/}: $err"
  fi
  echo "part $n $name: $verdict${why:+ ($why)} in $((SECONDS - t0)) s" | tee -a "$summary"
  current=""
  [ "$verdict" != FAILED ] || failed=$((failed + 1))
}

run_part 0 machine 20
run_part 1 gpu-tests 140
run_part 2 gpu-sgemm 120
run_part 3 validation 200
run_part 4 many-task 50
run_part 5 starpu 75
run_part 6 examples 60
echo "$me: $([ "$rehearse" = 1 ] && echo rehearsal || echo acceptance) in $((SECONDS - start)) s," \
  "$failed part(s) FAILED; results in $out"
[ "$failed" = 0 ]
