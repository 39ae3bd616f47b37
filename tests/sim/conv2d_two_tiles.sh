#!/usr/bin/env bash
# conv2d_two_tiles.sh NARWHAL PLATFORM: conv2d with a second tile size over the image's bottom
# half (--app-param bottom_block, the Unicorn paper's Fig. 11). A 256^2 image in 32^2 tiles
# above and 64^2 below is 32 + 8 = 40 subtasks, in 64^2 above and 16^2 below 8 + 128 = 136;
# each run, on CPUs, GPUs and CPU work-groups, with the paper's filter and channels, equals the
# single-process reference bit for bit. Bad values are refused with one line and exit 2.
set -u
nw=$1 platform=$2
fail=0
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
run() { # SUBTASKS BLOCK BOTTOM OPTION...
  local want=$1 block=$2 bottom=$3 o s v
  shift 3
  o=$("$nw" run --app conv2d --backend sim --platform "$platform" --nodes 3 --n 256 \
    --block "$block" --app-param bottom_block="$bottom" --data functional --verify --json "$@") ||
    { echo "FAIL: block $block, bottom $bottom $*: the run failed"; fail=1; return; }
  s=$(field "$o" subtasks)
  v=$(printf '%s' "$o" | grep -oE '"verified":[[:space:]]*[a-z]+' | grep -oE '[a-z]+$')
  if [ "$s" = "$want" ] && [ "$v" = true ]; then
    echo "ok: block $block, bottom $bottom $*: $s subtasks, verified"
  else
    echo "FAIL: block $block, bottom $bottom $*: subtasks '$s' (wanted $want), verified '$v'"
    fail=1
  fi
}
run 40 32 64
run 40 32 64 --devices gpu --app-param radius=15 --app-param channels=3
run 136 64 16 --devices cpu+gpu --work-groups on --app-param radius=3 --app-param channels=3
refused() { # WHY OPTION...: exit 2 and one line naming bottom_block
  local why=$1 err rc
  shift
  err=$("$nw" run --app conv2d --backend sim --platform "$platform" --nodes 2 --n 256 "$@" 2>&1 >/dev/null)
  rc=$?
  if [ "$rc" = 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && [[ $err == *bottom_block* ]]; then
    echo "ok: $why: exit 2, '$err'"
  else
    echo "FAIL: $why: exit $rc, '$err'"
    fail=1
  fi
}
refused "zero" --block 32 --app-param bottom_block=0
refused "not a number" --block 32 --app-param bottom_block=4k
refused "more than half the image" --block 32 --app-param bottom_block=256
refused "not dividing the half" --block 32 --app-param bottom_block=48
refused "the half not a multiple of --block" --n 192 --block 64 --app-param bottom_block=32
[ $fail -eq 0 ] && echo "conv2d_two_tiles: 1 passed, 0 failed" || echo "conv2d_two_tiles: 0 passed, 1 failed"
exit $fail
