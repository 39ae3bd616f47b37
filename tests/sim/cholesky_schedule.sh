#!/usr/bin/env bash
# cholesky_schedule.sh NARWHAL SRC_DIR: how the model-based policies run the tiled Cholesky's
# task graph (apps/cholesky), in simulation (phantom data):
#  - one node of platforms/small.xml with CPUs and its modelled GPU (2 CPU devices of one
#    1 GFlop/s core, 2 cores left to the runtime, and one GPU of 10 GFlop/s), n 2048 in tiles of
#    256: dmda's makespan is within 1.3 x max(critical path, work / speed), both as the cost
#    model prices the tasks: the critical path with every task at the fastest device's speed
#    (the graph's longest chain, tile by tile), the work bound n^3/3 flops over the devices'
#    summed speed;
#  - n 4096 in tiles of 512, CPUs and GPUs: dmda's makespan falls from 1 to 2 to 4 nodes;
#  - StarPU's critical-path priorities make dmdas at least 5% faster than without them on the
#    StarPU paper's homogeneous machine's three GPUs (platforms/starpu-homogeneous.xml),
#    Cholesky 4096/512: the paper's Fig. 16 (about 15% there).
set -u
nw=$1 src=$2
fail=0
run() { "$nw" run --app cholesky --data phantom --json "$@"; }
field() { tr -d '\n' | grep -oE "\"$1\":[[:space:]]*[0-9.eE+-]+" | head -1 | grep -oE '[0-9.eE+-]+$'; }
ok() { if [ "$1" = 1 ]; then echo "ok: $2"; else echo "FAIL: $2"; fail=1; fi; }

small=$src/platforms/small.xml
o=$(run --platform "$small" --nodes 1 --devices cpu+gpu --n 2048 --block 256 --sched dmda)
makespan=$(printf '%s' "$o" | field makespan_s)
cpus=$(printf '%s' "$o" | tr -d '\n\t ' | grep -oE '"kind":"cpu"' | wc -l)
gpus=$(printf '%s' "$o" | tr -d '\n\t ' | grep -oE '"kind":"gpu"' | wc -l)
core=$(grep -oE 'id="n0-cpu" speed="[0-9.]+Gf"' "$small" | grep -oE '[0-9.]+Gf' | tr -d Gf)
gpu=$(grep -oE 'id="n0-gpu0" speed="[0-9.]+Gf"' "$small" | grep -oE '[0-9.]+Gf' | tr -d Gf)
read -r cp area bound <<<"$(awk -v nb=8 -v b=256 -v fast="$gpu" -v core="$core" -v cpus="$cpus" \
  -v gpus="$gpus" 'function max(a, c) { return a > c ? a : c }
  BEGIN {
    t = b * b * b / (fast * 1e9)       # seconds of a b^3 flops task at the fastest speed
    for (k = 0; k < nb; k++) {
      r[k, k] += t / 3                 # POTRF after the tile'"'"'s last update
      for (i = k + 1; i < nb; i++)     # TRSM: the diagonal tile, then its own
        r[i, k] = max(r[i, k], r[k, k]) + t
      for (j = k + 1; j < nb; j++) {
        r[j, j] = max(r[j, j], r[j, k]) + t                   # SYRK
        for (i = j + 1; i < nb; i++)                          # GEMM
          r[i, j] = max(max(r[i, j], r[i, k]), r[j, k]) + 2 * t
      }
    }
    n = nb * b
    area = n * n * n / 3 / ((cpus * core + gpus * fast) * 1e9)
    cp = r[nb - 1, nb - 1]
    printf "%.6f %.6f %.6f\n", cp, area, 1.3 * max(cp, area) }')"
ok "$(awk -v m="$makespan" -v b="$bound" 'BEGIN { print (m <= b) ? 1 : 0 }')" \
  "dmda, one node ($cpus CPUs, $gpus GPU): $makespan s <= 1.3 x max(critical path $cp, work $area) = $bound s"

prev="" falls=1 line=""
for nodes in 1 2 4; do
  m=$(run --platform "$small" --nodes "$nodes" --devices cpu+gpu --n 4096 --block 512 --sched dmda |
    field makespan_s)
  line="$line ${nodes}:$m"
  [ -z "$prev" ] || awk -v a="$prev" -v b="$m" 'BEGIN { exit !(b < a) }' || falls=0
  prev=$m
done
ok "$falls" "dmda, Cholesky 4096/512, makespan by nodes falls:$line"

homo=$src/platforms/starpu-homogeneous.xml
on=$(run --platform "$homo" --devices gpu --n 4096 --block 512 --sched dmdas | field makespan_s)
off=$(run --platform "$homo" --devices gpu --n 4096 --block 512 --sched dmdas --app-param prio=off |
  field makespan_s)
gain=$(awk -v a="$off" -v b="$on" 'BEGIN { printf "%.2f", 100 * (a - b) / a }')
ok "$(awk -v g="$gain" 'BEGIN { print (g >= 5) ? 1 : 0 }')" \
  "dmdas on 3 FX5800 models: $on s with priorities, $off s without: $gain% faster (>= 5)"

[ $fail -eq 0 ] && echo "cholesky_schedule: 1 passed, 0 failed" || echo "cholesky_schedule: 0 passed, 1 failed"
exit $fail
