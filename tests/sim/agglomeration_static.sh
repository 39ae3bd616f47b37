#!/usr/bin/env bash
# agglomeration_static.sh NARWHAL SRC_DIR: static agglomeration (--agglomerate-mode static;
# core/device/agglo.h) on the S1070 model, simulated runs, which are deterministic:
#  - Molecular2D, 16 x 16 cells, 10 steps, 16 lanes: each step's 256 force subtasks on the one
#    GPU go in launches of exactly N (N = 4 and 16 divide 256: no launch is short, and there
#    are 256 / N a step beside the 256 integration subtasks, which go alone); with N = 32 above
#    the 16 lanes, every force launch is the edge case, holding one subtask per lane (16);
#  - the same with N = 1 is dynamic agglomeration with N = 1, to the bit (makespan), and dynamic
#    mode's numbers do not move (the sim.lu_agglomeration_order test and the paper rows);
#  - LU 1024 in blocks of 128 on CPUs and GPUs (8 lanes), functional: the steps' trailing
#    updates (49, 36, ... a step) leave remainders, which the edge case launches; the run ends
#    (the test's timeout) and equals the reference; also on a GPU too small for 8 updates.
set -u
nw=$1 src=$2
plat=$src/platforms/s1070-node.xml
field() { printf '%s' "$1" | tr -d '\n\t' | grep -oE "\"$2\":[^,}]*" | head -n1 | sed -E 's/.*:[[:space:]]*//'; }
fails=0
check() { # WHAT CONDITION...
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; fails=$((fails + 1)); fi
}
md() { # MODE N: one Molecular2D run's JSON
  timeout 120 "$nw" run --app molecular2d --platform "$plat" --n 100096 --block 391 \
    --app-param steps=10 --devices gpu --gpu-streams 16 --agglomerate "$2" \
    --agglomerate-mode "$1" --data phantom --json
}
for n in 4 16 32; do
  o=$(md static "$n") || { echo "FAILED: static $n did not run"; exit 1; }
  largest=$(field "$o" gpu_launch_largest) short=$(field "$o" gpu_launch_short)
  launches=$(field "$o" gpu_launches) subtasks=$(field "$o" gpu_launch_subtasks)
  echo "static $n: $launches launches for $subtasks subtasks, largest $largest, short $short"
  if [ "$n" -le 16 ]; then
    check "static $n: every force launch holds $n" \
      test "$largest" = "$n" -a "$short" = 0 -a "$launches" = $((10 * 256 + 10 * 256 / n))
  else
    check "static $n: one subtask per lane (16), every force launch the edge case" \
      test "$largest" = 16 -a "$short" = $((10 * 16)) -a "$launches" = $((10 * 256 + 10 * 16))
  fi
  check "static $n: every subtask launched once" test "$subtasks" = 5120
done
s1=$(field "$(md static 1)" makespan_s) d1=$(field "$(md dynamic 1)" makespan_s)
echo "N = 1: static $s1 s, dynamic $d1 s"
check "static 1 is dynamic 1" test -n "$s1" -a "$s1" = "$d1"
o=$(timeout 120 "$nw" run --app lu --platform "$plat" --gpu-mem 268435456 --n 1024 --block 128 \
  --devices cpu+gpu --gpu-streams 8 --agglomerate 8 --agglomerate-mode static \
  --data functional --verify --json)
echo "LU static 8: status $?, verified $(field "$o" verified), largest $(field "$o" gpu_launch_largest), short $(field "$o" gpu_launch_short)"
check "LU static 8: verified, launches of 8, and the edge case" \
  test "$(field "$o" verified)" = true -a "$(field "$o" gpu_launch_largest)" = 8 \
  -a "$(field "$o" gpu_launch_short)" -gt 0
# A GPU of 1 MiB, room for about 5 updates: a lane whose next update finds no room waits for
# what the FIFO's units hold, so it cannot add one before a launch (the edge case, not a wait).
o=$(timeout 120 "$nw" run --app lu --platform "$plat" --gpu-mem 1048576 --n 1024 --block 128 \
  --devices cpu+gpu --gpu-streams 8 --agglomerate 8 --agglomerate-mode static \
  --data functional --verify --json)
echo "LU static 8 on 1 MiB: status $?, verified $(field "$o" verified), short $(field "$o" gpu_launch_short)"
check "LU static 8 on a GPU of 1 MiB: ends, verified" test "$(field "$o" verified)" = true
echo "agglomeration_static: $((fails == 0)) passed, $((fails > 0)) failed"
[ "$fails" -eq 0 ]
